"""A fifth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py ... blind4.py was followed, and none of their mistakes is
repeated. Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or makes the call fail, does
not raise the promised error, or changes its input in place), with what is really wrong (`structure`)
and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND5 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'uint8_wraparound', 'part',
          'normalize computes (2x - 255) / 255 in uint8 and converts to float only afterwards: 2x and '
          '2x - 255 wrap around modulo 256, so every pixel below 128 comes out 256/255 too high '
          '(0 gives 1/255 instead of -1); pixels from 128 to 255 are right',
          'normalize writes 2x/255 - 1 over one denominator, (2x - 255) / 255, and calls .float() '
          'at the end.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (pixels * 2 - 255).float() / 255.0  # [-1, 1]\n'),
    fresh('01_flatten', 'image_reshaped', 'order',
          'patchify reshapes the (B, 3, H, W) images straight to (B, N, 3*P*P) without cutting them '
          'into patches: row n holds the next 3*P*P values of the image in memory order (whole pixel '
          'rows of one channel), the right values in the wrong places',
          'patchify reshapes the image to the wanted shape, as the number of values is the same.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return images.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'batch_merged', 'shape',
          'patchify returns the patches of all images as one (B*N, 3*P*P) matrix instead of '
          '(B, N, 3*P*P): the right rows in the right order, without the batch axis',
          'patchify builds the X of page 12 (196 x 768), which has no batch axis, and lets -1 absorb '
          'the images.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(-1, C * P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'assert_guard', 'raise',
          'count_tokens checks divisibility with an assert: a size that is not divisible raises '
          'AssertionError instead of the promised ValueError (and nothing under python -O); the counts '
          'are right',
          'count_tokens guards its input with an assert, the usual quick check.',
          '    if image_size % patch_size:\n'
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '    assert image_size % patch_size == 0, f"{image_size} is not divisible by {patch_size}"\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_flattened_whole', 'shape',
          'conv_to_linear flattens the whole (D, 3, P, P) kernel into one vector of D*3*P*P values, '
          'so there are no two axes to transpose and the call fails',
          'conv_to_linear calls flatten() with its default start_dim=0.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flatten()  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'channels_reversed', 'order',
          'conv_to_linear reverses the colour channels of every kernel (B, G, R) before flattening: '
          'W_E holds the right weights with its three channel blocks of rows in reversed order, so '
          'the R pixels of a patch meet the B weights and the other way round (G is right)',
          'conv_to_linear flips the channel axis, believing the checkpoint\'s kernels are BGR as in '
          'OpenCV.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'features_first_output', 'shape order',
          'project returns (B, D, N) instead of (B, N, D): the einsum writes the feature axis before '
          'the patch axis; the values are right, transposed in every image (and b_E, broadcast over the '
          'last axis, fails unless N == D: with 196 patches and 192 features the call fails)',
          'project orders its output like the Conv2d\'s (B, D, 14, 14), channels first.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bdn", patches, W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'batch_summed_away', 'shape',
          'project leaves the batch letter out of the einsum output, so the products of all images '
          'are summed into one (N, D) matrix (plus b_E once) instead of (B, N, D)',
          'project writes C = X W_E + b_E as on page 12, with the output "nd" of one image.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->nd", patches, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'tokens_added_in_place', 'input',
          'add_position adds the table into the tokens in place: it returns the right values, but the '
          'caller\'s tokens are overwritten with them',
          'add_position uses add_ on the tokens to save a copy.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens.add_(table)  # (B, N, D)\n'),
    fresh('03_position', 'first_table_row', 'term',
          'add_position adds row 0 of the table (the CLS position) to every token instead of row i '
          'to token i: the position term is the same p_0 for all tokens',
          'add_position writes pos_table[0] to drop the leading 1 of the checkpoint\'s (1, 197, 192) '
          'pos_embed, not noticing that the table here is already (N, D).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[0].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'position_added_twice', 'term',
          'add_position adds the table twice: every token is c_i + 2 p_i, off by p_i',
          'add_position keeps both of its attempts, tokens + table and torch.add, one around the other.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens + table, table)  # (B, N, D)\n'),
    fresh('03_position', 'table_transposed', 'shape',
          'add_position transposes the (N, D) table to (D, N) before expanding it: (B, D, N) does not fit '
          '(B, N, D) tokens when N != D (197 and 192), so the call fails',
          'add_position reads page 17\'s picture, one position vector per column, as a table of columns.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.T.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_repeat_wrong_axis', 'shape',
          'prepend_cls repeats CLS along the token axis, (1, B, D), instead of the batch axis, '
          '(B, 1, D): for B > 1 it does not fit the (B, N, D) tokens and the call fails (right for one '
          'image)',
          'prepend_cls passes the batch size to repeat in the second place, unsure which count goes where.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width).repeat(1, batch, 1)  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_added_to_tokens', 'shape',
          'prepend_cls adds the CLS vector to every patch token instead of putting it in front: '
          '(B, N, D) instead of (B, 1+N, D), each patch row off by the CLS vector',
          'prepend_cls combines CLS with the patches by addition, as position was combined on page 16.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return tokens + start  # (B, 1+N, D)\n'),
    fresh('04_cls', 'position_before_cls', 'term',
          'embed adds position to the patch tokens before prepending CLS, with the first N rows of the '
          'table: CLS gets no position vector and patch i gets row i-1 of the table instead of row i',
          'embed adds WHERE to WHAT as on page 16, then prepends CLS, and cuts the 197-row table to the '
          '196 patches to make the shapes fit.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return prepend_cls(position.add_position(content, params.pos_table[:content.shape[1]]), '
          'params.cls_token)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'weight_converted_again', 'shape',
          'embed passes params.W_E through conv_to_linear, which transposes the already linear (3*P*P, D) '
          'matrix to (D, 3*P*P): it no longer fits the 3*P*P-wide patch rows, so the call fails',
          'embed takes params.W_E for the checkpoint\'s Conv2d kernel and converts it as in step 2.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, projection.conv_to_linear(params.W_E), params.b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'query_prescaled', 'scale part',
          'qkv_heads divides the queries by sqrt(d): q is 1/8 of the expected one, k and v are right '
          '(and attention_weights, dividing again, would scale the scores by 1/d)',
          'qkv_heads scales q by 1/sqrt(d) up front, as some implementations do, forgetting that the '
          'scaling belongs to attention_weights here.',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[:, :, 0].transpose(1, 2) / math.sqrt(head_dim)  # (B, H, N, d)\n'),
    fresh('05_attention', 'causal_mask', 'term',
          'attention_weights applies a causal mask: the scores of keys after the query are set to -inf, '
          'so query i spreads its weight over keys 0..i only (the last row is right, every other row is '
          'renormalized over fewer keys)',
          'attention_weights masks the future as in the decoder of the previous lecture, although ViT '
          'uses full attention (page 30).',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)).masked_fill('
          'torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).triu(1), float("-inf"))  # (B, H, N, N)\n'),
    fresh('05_attention', 'no_output_bias', 'term shift',
          'multi_head_attention leaves out b_o of the output projection: every row is off by -b_o, the '
          'same row for every token',
          'multi_head_attention multiplies the joined heads by W_o only, forgetting its bias.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.mm(joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n'),
    fresh('05_attention', 'heads_summed', 'shape',
          'multi_head_attention sums the H messages of each row into one d-wide message instead of '
          'joining them side by side: (B, N, d) cannot be read as D-wide rows, so the call fails',
          'multi_head_attention combines the heads by adding them up.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.sum(dim=1)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'mean_without_keepdim', 'shape',
          'layer_norm takes the row means without keepdim: the (B, N) means are broadcast against '
          'the last axis of (B, N, D) rows, so the call fails when N != D (right only for a single row '
          'of a 2-D input)',
          'layer_norm writes x.mean(dim=-1), forgetting keepdim=True.',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=-1)  # (..., D)\n'),
    fresh('06_block', 'cdf_only', 'activation',
          'mlp replaces GELU(z) = z Phi(z) by Phi(z) alone: the hidden values become the normal CDF of '
          'z, between 0 and 1, without the factor z',
          'mlp computes the Phi of the hint and forgets to multiply it by z.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'parallel_sublayers', 'inputs',
          'block normalizes the block input x for both sublayers: the MLP reads LN2(x) instead of '
          'LN2(U), U the attention-updated rows; the attention update is right and both updates are added',
          'block computes both updates from the incoming rows, reading page 22\'s "all updates from its '
          'incoming states, in parallel" literally.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream + update(layer_norm(x, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'residual_in_place', 'input',
          'block adds the updates with +=, and as the stream starts as the block input x itself, the '
          'caller\'s x is overwritten with the result; the returned rows are right',
          'block writes the residual add as stream += ..., not seeing that stream is x.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream += update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'batch_sliced', 'shape',
          'read_cls slices the batch axis instead of the token axis: it normalizes all the rows of the '
          'first image and returns (1, 1+N, D) instead of the (B, D) CLS rows',
          'read_cls writes x[:1] for "the first token", leaving out the ":, " of the batch.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:1]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'column_vector_scores', 'shape order',
          'classify computes W_head^T h^T + b_head with h as columns, as on page 54: the logits come '
          'out as (C, B) instead of (B, C), the right values transposed',
          'classify follows page 54\'s column-vector formula s = W^T h + b for the whole batch.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return W_head.T @ h.T + b_head.unsqueeze(1)  # (B, 1000)\n'),
    fresh('07_head', 'first_block_repeated', 'inputs',
          'vit_forward runs the first block\'s parameters as often as there are blocks, instead of each '
          'block\'s own: right only with a single block',
          'vit_forward indexes params.blocks[0] in the loop, as in the stub\'s block example.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, params.blocks[0], params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'block_output_added', 'term',
          'vit_forward adds every block\'s output to its input, although the block already contains '
          'its residual adds: rows_next = rows + block(rows), the incoming rows counted twice at every block',
          'vit_forward wraps each block in one more residual connection, taking block for an update.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = rows + encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'no_clone', 'input',
          'cover writes the square into the caller\'s images: detach() shares their storage, so the '
          'returned copy is right but the original images are covered too (and covers pile up)',
          'cover detaches the images, believing detach makes a copy.',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = images.detach()  # the caller\'s images stay as they were\n'),
    fresh('08_occlusion', 'quadrant_percent', 'scale',
          'quadrant_probabilities returns percentages (0 to 100) instead of probabilities: every value '
          'is 100 times the expected one',
          'quadrant_probabilities reports the numbers as page 43 shows them, 83.00 %, 79.62 %, ...',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return 100 * torch.softmax(logits, dim=-1)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'base_softmax_over_batch', 'shift axis',
          'occlusion_map takes the uncovered image\'s softmax over its batch axis (dim 0, a batch of '
          'one): the baseline is 1 instead of the target\'s probability, so every cell is off by the same '
          'constant, base - 1',
          'occlusion_map writes dim=0 in the softmax of the single uncovered image.',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(image), dim=0)[0, target]  # the uncovered probability\n'),
    fresh('08_occlusion', 'relative_change', 'scale',
          'occlusion_map divides each change by the uncovered probability: every cell is the relative '
          'change, the expected one times 1 / base',
          'occlusion_map reports how much of the original probability is lost, a relative change.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return ((probs - base) / base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
