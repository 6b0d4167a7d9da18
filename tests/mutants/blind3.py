"""A third blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py and blind2.py was followed, and none of their mistakes is
repeated. Three mistakes per step, each an edit of one line (or one expression) that changes the
numbers of its function on typical inputs (or makes the call fail), with what is really wrong
(`structure`) and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND3 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'divide_by_256', 'term',
          'normalize divides the pixels by 256 instead of 255: 2x/256 - 1 instead of 2x/255 - 1, so 0 '
          'stays -1 but 255 becomes 0.992 and mid-gray values are off by up to 100 % of their own size',
          'normalize divides by 256 because a byte has 256 levels.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 256.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'unfold_swapped', 'order',
          'patchify unfolds the columns before the rows, so the last two axes come out as (column, '
          'row): each patch is read column by column inside every channel; every patch row holds its '
          'right 3*P*P values, in another (transposed-pixel) order, and the patches are in the right order',
          'patchify unfolds axis 3 first, unsure which order of the two unfolds gives which layout.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(3, P, P).unfold(2, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'conv_size_no_stride', 'term',
          'count_tokens counts the positions of a sliding window of stride 1, image_size - patch_size + 1 '
          'per side, instead of image_size / patch_size: 209 * 209 + 1 tokens for 224 and 16 (right only '
          'when the patch is the whole image); the divisibility check still raises',
          'count_tokens uses the convolution output-size formula (W - K) / S + 1 and leaves out the '
          'stride.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size - patch_size + 1\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_transposed', 'order',
          'conv_to_linear transposes every P x P kernel (reads it column by column) before flattening: '
          'W_E holds the right weights, its rows permuted inside each channel block (the diagonal '
          'pixels stay in place), so it no longer matches patchify\'s rows',
          'conv_to_linear swaps the two spatial axes, reading a kernel as (x, y) instead of (row, column).',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.transpose(2, 3).flatten(start_dim=1)  # (D, 3*P*P)\n'),
    fresh('02_project', 'bias_column', 'shape',
          'project adds b_E as a column (D, 1): it broadcasts against the token axis instead of the '
          'features, so with N != D (196 patches, 192 features) the shapes do not fit and the call fails',
          'project follows the column-vector notation of page 54 and makes the bias a column.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E.unsqueeze(-1)  # (B, N, D)\n'),
    fresh('02_project', 'bias_in_weights', 'term',
          'project adds b_E to every row of W_E and drops the separate bias: X (W_E + 1 b_E) = X W_E + '
          '(sum of the patch\'s values) b_E, so each patch gets its own wrong multiple of b_E instead of '
          'b_E once',
          'project folds the bias into the weights, half-remembering the augmented-matrix trick.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E + b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'averaged', 'scale',
          'add_position returns (c_i + p_i) / 2: every value is half the expected one',
          'add_position averages WHAT and WHERE so that the sum does not grow.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) / 2  # (B, N, D)\n'),
    fresh('03_position', 'skip_row_zero', 'shape',
          'add_position drops row 0 of the table and adds rows 1..N-1 to N tokens: one row short, so '
          'the shapes do not fit and the call fails',
          'add_position numbers the positions from one, as page 17 shows position 1 .. position 196.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[1:].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'repeat_flat', 'shape',
          'add_position stacks B copies of the table into one (B*N, D) matrix instead of (B, N, D): it '
          'does not fit (B, N, D) tokens for B > 1, so the call fails (right for a single image)',
          'add_position uses repeat(batch, 1), thinking it gives one table per image.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.repeat(batch, 1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_overwrites_p1', 'shape',
          'prepend_cls puts CLS in place of the first patch token instead of in front of it: (B, N, D) '
          'instead of (B, 1+N, D), P1 is lost',
          'prepend_cls keeps the sequence length of 196 and lets CLS take the first slot.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens[:, 1:]), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_mean_of_patches', 'part inputs term',
          'embed starts row 0 with the mean of all projected patch tokens of the whole batch instead of '
          'the learned CLS vector: only row 0 is wrong (rows 1..N are right)',
          'embed builds CLS as a summary of the patches, like global average pooling, and averages over '
          'every axis but the features to get a (D,) vector.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, content.mean(dim=(0, 1)))  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_with_bias', 'part term',
          'embed adds the projection bias b_E to the CLS vector: only row 0 is wrong, off by b_E; the '
          'patch rows are right',
          'embed treats CLS like a projected patch, so it gives it the bias of the projection too.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.cls_token + params.b_E)  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'no_qkv_bias', 'term shift',
          'qkv_heads leaves out b_qkv: q, k and v are each off by minus their bias, the same row (per '
          'head) for every token',
          'qkv_heads computes X W_qkv only, as the lecture writes q = x W_Q without a bias.',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.mm(x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n'),
    fresh('05_attention', 'times_sqrt_d', 'term',
          'attention_weights multiplies the scores by sqrt(d) instead of dividing: the softmax is taken '
          'of scores d (64) times too large, so the weights are much sharper',
          'attention_weights writes * for / in the scaling by sqrt(d).',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) * math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'no_output_projection', 'term',
          'multi_head_attention returns the joined heads without the output projection W_o, b_o',
          'multi_head_attention stops once the heads are joined side by side, taking that for the output.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return joined  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'rms_norm', 'term',
          'layer_norm does not subtract the row mean: it divides each row by its root mean square '
          '(RMSNorm) instead of centring it and dividing by its standard deviation',
          'layer_norm leaves out the centring, remembering the normalization as "divide by the size".',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x  # (..., D)\n'),
    fresh('06_block', 'silu_for_gelu', 'activation',
          'mlp uses z * sigmoid(z) (SiLU) instead of z * Phi(z) (exact GELU) between the two layers',
          'mlp replaces the normal CDF Phi by the logistic sigmoid, which looks the same.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * torch.sigmoid(hidden)  # z·Φ(z)\n'),
    fresh('06_block', 'no_residual', 'term',
          'block replaces the rows by each update instead of adding it: the result is '
          'MLP(LN2(MSA(LN1(x)))), both residual connections are missing',
          'block assigns the sublayer output to the stream, forgetting the "+ add" of page 34.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'last_row', 'inputs',
          'read_cls reads the last row (patch P196) instead of row 0 (CLS): the final LayerNorm of the '
          'wrong token',
          'read_cls takes the last token, as a GPT-style decoder reads its last position.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, -1:]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'head_transposed', 'shape',
          'classify multiplies by W_head transposed, (C, D) instead of (D, C): with C != D (1000 classes, '
          '192 features) the shapes do not fit and the call fails',
          'classify follows s = W h of page 54 and transposes W_head to match the textbook layout.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head.T)  # (B, 1000)\n'),
    fresh('07_head', 'last_block_skipped', 'term',
          'vit_forward runs every block but the last one: one block of the encoder is left out',
          'vit_forward loops over params.blocks[:-1], an off-by-one slice.',
          '    for layer in params.blocks:\n',
          '    for layer in params.blocks[:-1]:\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_one_short', 'part',
          'cover stops one pixel early on both axes: the bottom row and right column of the square stay '
          'uncovered; the rest of the square and the rest of the image are right',
          'cover subtracts 1 from the ends, thinking of the last covered pixel as an inclusive end.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size - 1, left:left + size - 1] = value\n'),
    fresh('08_occlusion', 'loops_swapped', 'order part',
          'quadrant_probabilities nests its loops the other way: the order is TL, BL, TR, BR, so the '
          'top-right and bottom-left results are swapped (TL and BR are right)',
          'quadrant_probabilities loops over the columns first, as x before y.',
          'for top in (0, half_h) for left in (0, half_w)',
          'for left in (0, half_w) for top in (0, half_h)'),
    fresh('08_occlusion', 'logit_baseline', 'shift term',
          'occlusion_map subtracts the uncovered logit of the target instead of its probability: every '
          'cell is off by the same constant, probability minus logit',
          'occlusion_map forgets the softmax on the uncovered image, computed on its own line.',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = model(image)[0, target]  # the uncovered probability\n'),
]
