"""A second blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py was followed, and none of blind.py's mistakes is repeated.
Three mistakes per step, each an edit of one line (or one expression) that changes the numbers of
its function on typical inputs, with what is really wrong (`structure`) and the kinds of structure
its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND2 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'no_divide_by_half', 'scale term',
          'normalize returns x/255 - 0.5: the division by 0.5 is left out, so every value is half the '
          'expected one, range [-0.5, 0.5]',
          'normalize subtracts the 0.5 of page 8 and forgets the "divided by 0.5" that follows.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'column_major_patches', 'order',
          'patchify numbers the patches column by column (P2 is the patch below P1) instead of row by '
          'row: every patch row is right, the rows are in another (transposed-grid) order',
          'patchify swaps the rows and cols axes, unsure which unfold gives which.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 3, 2, 1, 4, 5)  # (B, cols, rows, C, P, P)\n'),
    fresh('01_flatten', 'cls_not_counted', 'term',
          'count_tokens never adds the CLS token: 196 instead of 197 for 224 and 16 (right only with '
          'cls=False)',
          'count_tokens counts the patches of page 48 as the tokens, forgetting the extra CLS token.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_pixel_major', 'order',
          'conv_to_linear reads each kernel pixel-major (R, G, B of one pixel, then the next) instead '
          'of channel-major: W_E holds the right weights with its rows in another order, so it no '
          'longer matches patchify\'s rows',
          'conv_to_linear moves the channel axis last, as in (H, W, C) checkpoints, before flattening.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, 3*P*P)\n'),
    fresh('02_project', 'no_transpose', 'shape order',
          'conv_to_linear returns the flattened kernels as (D, 3*P*P), PyTorch\'s output-first layout, '
          'instead of transposing them to (3*P*P, D): the right values, transposed',
          'conv_to_linear flattens each kernel and stops there, forgetting that the lecture keeps the '
          'output axis last.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'linear_layout', 'shape',
          'project contracts the patch features with the second axis of W_E, as if W_E were an '
          'nn.Linear weight (D, 3*P*P): with W_E (768, 192) the shapes do not fit and the call fails',
          'project uses the (out, in) layout of nn.Linear, x W^T, instead of the lecture\'s X W_E.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,dk->bnd", patches, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'multiplied', 'term',
          'add_position multiplies each token by its position vector coordinate by coordinate '
          '(c_i * p_i) instead of adding them',
          'add_position reads "combined coordinate by coordinate" as an element-wise product.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.mul(tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'unsqueeze_wrong_axis', 'shape',
          'add_position inserts the batch axis in the middle, a (N, B, D) table: it does not fit '
          '(B, N, D) tokens, so the call fails (or broadcasts to (N, N, D) for a single image)',
          'add_position writes unsqueeze(1) to add "the batch axis" and expands it.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(1).expand(-1, batch, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'tokens_scaled_sqrt_d', 'term',
          'add_position multiplies the content tokens by sqrt(D) before adding the table: '
          'sqrt(D) c_i + p_i instead of c_i + p_i',
          'add_position copies the embedding scaling by sqrt(d_model) of the text Transformer.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens * tokens.shape[-1] ** 0.5, table)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_not_repeated', 'shape',
          'prepend_cls makes a single (1, 1, D) CLS row and does not copy it for every image: the '
          'concatenation with (B, N, D) tokens fails for B > 1 (right for one image)',
          'prepend_cls reshapes CLS to a row and expects the concatenation to broadcast over the batch.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'normalized_twice', 'inputs',
          'embed normalizes the already normalized images again (x / 127.5 - 1) before patchify: '
          'every row is computed from the wrong pixel values',
          'embed starts from the pixels, as in step 1, without noticing that its images are normalized.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'cls_from_table', 'inputs part',
          'embed prepends row 0 of the position table instead of the learned CLS vector: only row 0 '
          'is wrong, 2 pos_table[0] instead of cls_token + pos_table[0]',
          'embed takes "row 0 for CLS" of the position table to be the CLS vector itself.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.pos_table[0])  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'key_reads_values', 'inputs',
          'qkv_heads takes the keys from the value columns (the third D columns): k equals v, '
          'q and v are right',
          'qkv_heads copies the v line for k and forgets to change the index 2 to 1.',
          '    k = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)\n',
          '    k = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'divide_by_d', 'term',
          'attention_weights divides the scores by d (64) instead of sqrt(d) (8): the softmax is '
          'taken of scores 8 times too small, so the weights are much flatter',
          'attention_weights divides by the head size itself, forgetting the square root of page 28.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / head_dim  # (B, H, N, N)\n'),
    fresh('05_attention', 'reshape_without_permute', 'order',
          'multi_head_attention joins the heads by reshaping (B, H, N, d) straight to (B, N, H*d), '
          'without moving the head axis: each joined row holds messages of other tokens and heads, '
          'the right values in the wrong places, before the output projection',
          'multi_head_attention reshapes to the joined shape, as the element count is right.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'divide_by_variance', 'term',
          'layer_norm divides the centred row by its variance instead of its standard deviation: '
          'each row is scaled by its own wrong factor 1/sqrt(var + eps)',
          'layer_norm reads "divided by the variance" and leaves out the square root.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / (spread + eps) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'relu_for_gelu', 'activation',
          'mlp uses ReLU between the two layers instead of the exact GELU: negative hidden values '
          'become 0 instead of z Phi(z), positive ones lose the factor Phi(z)',
          'mlp uses the familiar ReLU as "the" activation of a two-layer MLP.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.relu(hidden)  # z·Φ(z)\n'),
    fresh('06_block', 'post_ln', 'inputs term',
          'block applies each LayerNorm after the residual add (post-LN): the updates read the '
          'un-normalized rows, and the sum is normalized, LN(x + F(x)) instead of x + F(LN(x))',
          'block follows the original Transformer\'s post-LN order instead of the pre-LN of page 34.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = layer_norm(stream + update(stream), weight, bias)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'mean_pooled', 'inputs',
          'read_cls averages all the rows (CLS and every patch) and normalizes that average instead '
          'of row 0, CLS',
          'read_cls pools the tokens by their mean, as a CNN\'s global average pooling does.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x.mean(dim=1, keepdim=True)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'log_softmax_head', 'activation shift',
          'classify returns log-probabilities (log_softmax of the logits): each image\'s scores are '
          'shifted down by its own log-sum-exp, the same constant for all the classes of one image',
          'classify returns log-probabilities, thinking a loss or a prediction needs them.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.log_softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'head_reads_embedding', 'inputs',
          'vit_forward reads CLS from the embedding x instead of from the rows after the last block: '
          'the blocks run but their output is thrown away',
          'vit_forward passes x, the variable name of page 52, to read_cls instead of the running rows.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(x, params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'size_as_end', 'part',
          'cover slices top:size and left:size, using the side as the end index: the square is '
          'right only at top = left = 0; elsewhere a smaller area (or nothing) is covered',
          'cover copies the [:112, :112] of page 42 and writes size where top + size belongs.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:size, left:size] = value\n'),
    fresh('08_occlusion', 'softmax_over_covers', 'axis',
          'quadrant_probabilities takes the softmax over the four covered images (dim 0) instead of '
          'over the classes: the four results sum to one',
          'quadrant_probabilities writes dim=0 in the softmax, the batch axis.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=0)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'no_baseline', 'term shift',
          'occlusion_map returns the covered probabilities themselves instead of their change: every '
          'cell is off by the original probability',
          'occlusion_map computes the uncovered probability but forgets to subtract it.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return probs.view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
