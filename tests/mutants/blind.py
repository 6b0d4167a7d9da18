"""A blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/) and the lecture transcript
alone, without reading the grader's diagnosis, the catalogue or the other sets of mistakes; only
the format of tests/mutants/fresh.py (its `fresh` helper and CLAIMS) was followed. Three mistakes
per step, each an edit of one line (or one expression) that changes the numbers of its function on
typical inputs, with what is really wrong (`structure`) and the kinds of structure its error truly
has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'times_half', 'scale',
          'normalize returns (x/255 - 0.5) * 0.5: every value is a quarter of the expected one, '
          'range [-0.25, 0.25]',
          'normalize reads "subtract 0.5, divide by 0.5" and multiplies by 0.5 instead of dividing.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - 0.5) * 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'pixel_major', 'order',
          'patchify flattens each patch pixel-major (R, G, B of pixel 1, then of pixel 2, ...) instead '
          'of channel-major: each patch row holds the right 3*P*P values in another order',
          'patchify moves the channel axis last, as in an (H, W, C) image, before flattening.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 5, 1)  # (B, rows, cols, P, P, C)\n'),
    fresh('01_flatten', 'area_over_side', 'term',
          'count_tokens divides the pixel count by the patch side instead of the patch area: '
          'image_size**2 / patch_size patch tokens (3136 for 224 and 16), plus CLS',
          'count_tokens computes 224 * 224 / 16, forgetting that a patch has P * P pixels.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return image_size * image_size // patch_size + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'reshape_for_transpose', 'order',
          'conv_to_linear reshapes the (D, 3*P*P) matrix to (3*P*P, D) instead of transposing it: '
          'the right shape and the right values, scrambled into the wrong places',
          'conv_to_linear uses reshape to swap the axes, as the shapes come out right.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'no_bias', 'term shift',
          'project leaves out b_E: every row is off by -b_E, the same row for every patch',
          'project computes X W_E only, forgetting the bias of the affine map.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    fresh('02_project', 'relu_after', 'activation',
          'project applies a ReLU after the affine map: every negative feature becomes 0',
          'project adds an activation after the linear layer, as in an MLP.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.relu(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'concatenated', 'shape',
          'add_position concatenates the table to the tokens along the features: (B, N, 2D)',
          'add_position joins WHAT and WHERE side by side instead of adding them.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, D)\n'),
    fresh('03_position', 'subtracted', 'term sign',
          'add_position subtracts the table: every token is off by -2 p_i',
          'add_position writes torch.sub for torch.add.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.sub(tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'row_per_image', 'term',
          'add_position gives image b row b of the table, added to all of its tokens, instead of '
          'row i to token i: the position term is the wrong rows of the table',
          'add_position indexes the table by the batch axis, one position vector per image.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:batch].unsqueeze(1).expand(-1, tokens.shape[1], -1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_appended', 'order',
          'prepend_cls puts CLS after the patch tokens: the right rows, but CLS is row N, not row 0, '
          'and every patch row is one place earlier',
          'prepend_cls appends CLS at the end, as an end-of-sequence token.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_starts_zero', 'part term',
          'prepend_cls starts every image with zeros in row 0 instead of the learned CLS vector: '
          'only row 0 is wrong',
          'prepend_cls thinks CLS is an empty slot that the encoder fills, so it starts from zeros.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = torch.zeros(batch, 1, width, dtype=tokens.dtype)  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_without_position', 'part term',
          'embed adds position to the patch rows only (table rows 1..N) and leaves CLS without its '
          'position row: only row 0 is wrong, off by -pos_table[0]',
          'embed believes CLS has no location, so it skips the CLS row of the table.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return torch.cat((sequence[:, :1], position.add_position(sequence[:, 1:], params.pos_table[1:])), dim=1)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'heads_interleaved', 'order',
          'qkv_heads splits each of q, k, v as (d, H) instead of (H, d): head h gets the columns '
          'h, h+H, h+2H, ... instead of a block of d columns; the values are all there, in another order',
          'qkv_heads views the features as (head_dim, num_heads) and then swaps the two axes.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, 3, head_dim, num_heads).transpose(3, 4)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'softmax_down_columns', 'axis',
          'attention_weights normalizes the exponentials over the queries (dim -2) instead of over '
          'the keys: columns sum to 1, rows do not',
          'attention_weights sums along the wrong axis in the hand-written softmax.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-2, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'residual_in_attention', 'term',
          'multi_head_attention adds its input x to the projected update: it returns x + MSA(x), '
          'so the block will add x twice',
          'multi_head_attention adds the residual itself, as attention layers in some code do.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return x + torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'unbiased_variance', 'approximate',
          'layer_norm divides by the unbiased variance (D - 1): the normalized part is '
          'sqrt((D-1)/D) times the right one, within 0.3 % for D = 192',
          'layer_norm uses Tensor.var, whose default is the unbiased estimate.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.var(dim=-1, keepdim=True)  # (..., 1): the variance\n'),
    fresh('06_block', 'erf_without_sqrt2', 'activation',
          'mlp uses 0.5 z (1 + erf(z)) instead of 0.5 z (1 + erf(z / sqrt 2)): the GELU is replaced '
          'by a steeper curve (the CDF of N(0, 1/2))',
          'mlp writes the normal CDF as 0.5 (1 + erf(z)), forgetting the sqrt(2).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden))  # z·Φ(z)\n'),
    fresh('06_block', 'residual_from_input', 'term',
          'block adds each update to the block input x, not to the running rows: the result is '
          'x + MLP(LN2(U)), the attention update is missing from the output',
          'block writes x + update(...) in the loop, adding both updates to the original rows.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = x + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'reads_row_one', 'inputs',
          'read_cls reads row 1 (patch P1) instead of row 0 (CLS): the final LayerNorm of the '
          'wrong token',
          'read_cls counts tokens from one, as the lecture numbers patches P1..P196.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, 1:2]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'softmax_in_head', 'activation',
          'classify returns softmax probabilities instead of logits',
          'classify applies the softmax of page 39, although the head returns logits.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'blocks_on_embedding', 'inputs',
          'vit_forward feeds every block the embedding x instead of the previous block\'s output: '
          'only the last block counts (right only with a single block)',
          'vit_forward passes x to each block in the loop instead of the running rows.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'top_left_swapped', 'part',
          'cover puts the square at row `left`, column `top`: the wrong square is covered when '
          'top != left (right on the diagonal)',
          'cover mixes up (x, y) and (row, column), indexing the height with `left`.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, left:left + size, top:top + size] = value\n'),
    fresh('08_occlusion', 'black_quadrants', 'fill',
          'quadrant_probabilities covers each quarter with -1 (black) instead of 0 (mid-gray)',
          'quadrant_probabilities fills the covers with black, normalized -1.',
          'cover(image, top, left, half_h)',
          'cover(image, top, left, half_h, -1.0)'),
    fresh('08_occlusion', 'drop_positive', 'sign',
          'occlusion_map returns original minus covered probability: every cell has the wrong sign',
          'occlusion_map reports the drop, base - covered, so that a drop is positive.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (base - probs).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
