"""A fourth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py, blind2.py and blind3.py was followed, and none of their
mistakes is repeated. Three mistakes per step, each an edit of one line (or one expression) that
changes the numbers of its function on typical inputs (or makes the call fail), with what is really
wrong (`structure`) and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND4 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'no_minus_one', 'shift term',
          'normalize returns 2x/255 without subtracting 1: every value is the expected one plus 1, '
          'range [0, 2] instead of [-1, 1]',
          'normalize doubles the [0, 1] values to stretch the range and forgets the "- 1" that centres it.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled * 2.0  # [-1, 1]\n'),
    fresh('01_flatten', 'channels_forgotten', 'shape',
          'patchify flattens each patch to P*P values instead of 3*P*P: the same values come out as '
          '(B, 3N, P*P), one row per channel of every patch, instead of (B, N, 3*P*P)',
          'patchify counts a patch as P x P pixels, forgetting its three colour channels.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, -1, P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'xor_for_power', 'term',
          'count_tokens writes per_side ^ 2 for the square: in Python ^ is a bitwise XOR and binds '
          'more loosely than +, so it returns 14 XOR 3 = 13 instead of 197 for 224 and 16 (12 '
          'instead of 196 without CLS); the divisibility check still raises',
          'count_tokens writes the square as in maths notation, per_side ^ 2.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side ^ 2 + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_flipped', 'order',
          'conv_to_linear flips every P x P kernel upside down and left to right (a 180-degree turn) '
          'before flattening: W_E holds the right weights, its rows reversed inside each channel block, '
          'so it no longer matches patchify\'s rows',
          'conv_to_linear flips the kernel, remembering that a mathematical convolution flips it.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(-2, -1).flatten(start_dim=1)  # (D, 3*P*P)\n'),
    fresh('02_project', 'pixels_flattened_per_channel', 'shape',
          'conv_to_linear flattens only the P x P pixels of each kernel, keeping the channels apart: '
          'the result is (3, D, P*P) instead of (3*P*P, D)',
          'conv_to_linear flattens "the kernel image" from axis 2, treating the channels as a separate axis.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flatten(start_dim=2)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'einsum_wrong_letter', 'shape axis',
          'project writes "nd" for W_E\'s subscripts: the product would sum over the patch axis '
          'instead of the 3*P*P features, and as N != 3*P*P (196 and 768) the sizes do not fit and '
          'the call fails',
          'project reuses the letter n of the patches for the rows of W_E in the einsum string.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,nd->bnd", patches, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'batch_from_token_axis', 'shape',
          'add_position reads the batch size from axis 1 (the token count) and expands the table to '
          '(N, N, D): it does not fit (B, N, D) tokens for 1 < B != N, so the call fails (for one '
          'image it broadcasts to (N, N, D))',
          'add_position takes tokens.shape[1], unsure which axis of (B, N, D) is the batch.',
          '    batch = tokens.shape[0]\n',
          '    batch = tokens.shape[1]\n'),
    fresh('03_position', 'index_added', 'term',
          'add_position ignores the learned table and adds the token\'s index i to every feature of '
          'token i: the position term is replaced by the number i',
          'add_position gives every token its explicit position index, as "where" it came from.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, torch.arange(tokens.shape[1]).unsqueeze(-1))  # (B, N, D)\n'),
    fresh('03_position', 'table_added_in_place', 'input',
          'add_position adds the tokens into the (expanded) position table in place: for one image it '
          'returns the right rows but overwrites pos_table with them; for a batch of two or more the '
          'in-place write into the expanded table fails',
          'add_position uses add_ to save a copy, not noticing that `table` is a view of pos_table.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return table.add_(tokens)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cat_default_dim', 'shape',
          'prepend_cls concatenates CLS and the patch tokens along the batch axis (dim 0): (B, 1, D) '
          'and (B, N, D) do not fit there, so the call fails',
          'prepend_cls calls torch.cat with its default dim=0, thinking of the rows of one image.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens), dim=0)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_on_raw_patches', 'shape inputs',
          'embed prepends CLS to the flattened patches (3*P*P = 768 wide) instead of the projected '
          'tokens (D = 192 wide): the CLS vector cannot be reshaped to 768 features, so the call fails',
          'embed passes `patches` for `content`, the two variables of the lines above.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(patches, params.cls_token)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_position_twice', 'part term',
          'embed adds pos_table[0] to the CLS vector before prepending it, and add_position adds it '
          'again: only row 0 is wrong, off by pos_table[0]; the patch rows are right',
          'embed gives CLS its position when building it, not seeing that add_position covers row 0 too.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.cls_token + params.pos_table[0])  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_grouped_per_head', 'order',
          'qkv_heads reads the 3D columns as (H, 3, d), q, k and v side by side inside each head, '
          'instead of (3, H, d): q, k and v hold the right columns in another order, mixed between '
          'the three of them and the heads',
          'qkv_heads follows the per-head interleaved layout of some fused-attention code.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, num_heads, 3, head_dim).transpose(2, 3)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'max_over_queries', 'axis',
          'attention_weights subtracts each column\'s largest score (over the queries) instead of each '
          'row\'s: the softmax is only unchanged by a constant per row, so the weights of every row are '
          'distorted (rows still sum to 1)',
          'attention_weights writes dim=-2 in the stabilizing max, unsure which axis holds the keys.',
          '    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n',
          '    scores = scores - scores.amax(dim=-2, keepdim=True)  # each row\'s largest score becomes 0\n'),
    fresh('05_attention', 'values_weighted_by_columns', 'axis',
          'multi_head_attention weights the values with the transposed attention matrix: token i gets '
          'sum_j a_ji v_j (column i) instead of sum_j a_ij v_j (row i); the output projection is right',
          'multi_head_attention swaps i and j in the einsum string of the weighted sum.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhji,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'mean_over_tokens', 'axis',
          'layer_norm subtracts the mean over the tokens (dim 1) instead of over each row\'s features; '
          'the variance is still taken over the features of the wrongly centred row',
          'layer_norm writes dim=1 for "the feature axis", as in a (B, D) batch.',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=1, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'no_hidden_bias', 'term',
          'mlp leaves out b_1 of the first layer: the GELU gets x W_1 instead of x W_1 + b_1 '
          '(b_2 is right)',
          'mlp writes the expansion as x W_1, as in the formula without biases.',
          '    hidden = x @ W_1 + b_1  # (B, N, 4D)\n',
          '    hidden = x @ W_1  # (B, N, 4D)\n'),
    fresh('06_block', 'mlp_reuses_ln1', 'inputs',
          'block normalizes the MLP\'s input with the first LayerNorm\'s weight and bias instead of '
          'the second\'s: the attention update is right, the MLP reads wrongly scaled rows',
          'block copies the attention sublayer\'s entry and forgets to change ln1 to ln2.',
          '(feed, p.ln2_weight, p.ln2_bias)',
          '(feed, p.ln1_weight, p.ln1_bias)'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'no_final_norm', 'term',
          'read_cls returns row 0 (CLS) as it is, without the final LayerNorm',
          'read_cls just selects token 0, as the lecture\'s overview leaves LayerNorm out.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'argmax_labels', 'shape type',
          'classify returns the index of the largest score of each image, (B,) integers, instead of '
          'the (B, 1000) float logits',
          'classify returns the predicted class, as "classify" suggests a label.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).argmax(dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'final_norm_of_last_block', 'inputs',
          'vit_forward normalizes CLS with the last block\'s second LayerNorm (the loop variable '
          '`layer` left over) instead of the final norm: the blocks and the head are right',
          'vit_forward takes "the last LayerNorm" from the last block it just ran.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows, layer.ln2_weight, layer.ln2_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'batch_axis_forgotten', 'part',
          'cover indexes (B, 3, H, W) as if it were (3, H, W): it covers channels top:top+size and rows '
          'left:left+size across the whole width (nothing at all once top >= 3) instead of the square',
          'cover writes result[:, top:..., left:...] as for the single (3, H, W) image of page 42.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, top:top + size, left:left + size] = value\n'),
    fresh('08_occlusion', 'stacked_covers', 'shape',
          'quadrant_probabilities stacks the four covered (1, 3, H, W) images into (4, 1, 3, H, W) '
          'instead of concatenating them into (4, 3, H, W): the model gets a 5-D batch and the call fails',
          'quadrant_probabilities uses torch.stack to make a batch of the four images.',
          'batch = torch.cat([cover(',
          'batch = torch.stack([cover('),
    fresh('08_occlusion', 'grid_index_as_pixels', 'part',
          'occlusion_map covers the square at pixel (row, col) instead of (row * P, col * P): only cell '
          '(0, 0) is right; every other cell measures a square shifted by a few pixels from the top-left',
          'occlusion_map passes the patch\'s grid position as its pixel position.',
          'cover(image, row * patch_size, col * patch_size, patch_size)',
          'cover(image, row, col, patch_size)'),
]
