"""A twenty-third blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the lecture transcript
(../shared/lecture/vision1-transcript.md) and the format of the earlier sets alone, without reading the
grader's diagnosis, the catalogue or any other test. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py (printed whole, one command), tests/mutants/fresh.py up to and including its line `FRESH = [`
(the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper), the first 60 lines and the last 30 lines of
blind21.py and blind22.py respectively (for the format), the lecture transcript's page index and its pages 8-17
and 25-52 (printed with each line cut to 1,200-1,500 characters), and the lines of pyproject.toml that a grep
for "[tool.ruff" (30 lines after each hit) showed. The student stubs in exercises/ were not opened (only their
names were listed). To leave out every mistake the earlier sets hold, blind.py, blind2.py ... blind22.py
(named one by one, never by a glob) were loaded by a throwaway script outside the repository with a stand-in
`fresh` and `mutants` package, and the step, function, name, claims, hidden flag, old and new text of every
entry (672 in all, their `structure` and `what` not printed) were listed and read by step and function; the
names and edits below were chosen against that list. Directory listings of tests/mutants/ (filtered to leave
out blind24.py, which was neither listed, opened nor searched), tests/mutants/independent/ and exercises/
showed the names of the other files there, which were not opened. Nothing under grader/, no catalogue,
novel.py or unseen.py, no other test, no docs, solutions or fixtures were opened, no git command was run and
the kit's grader and tests were not run. The check of this set (a throwaway script in /tmp) loaded the
independent steps from their source text with a stand-in for the `grader` import (its `earlier_step`, and
plain namespaces for `ViTParams` and `BlockParams`), applied every edit (its old text found exactly once),
and compared the edited function with the original on random inputs at the lecture's sizes (224 x 224
images, 16-pixel patches, 192 features, 3 heads, 12 blocks, 1,000 classes) and at smaller ones (32 x 32
images, 8-pixel patches, 24 features, 2 heads, 2 blocks, 10 classes), with a cheap stand-in model (pooled
pixels times a random matrix) for the occlusion functions; a few `structure` statements (the de-interleaved
kernel rows, the N-fold attention rows, the variance shortcut) were checked numerically. It did not import
the kit's grader or mutants package. Last, ruff and a bare import of this module were run on it.

Four mistakes per step, each an edit of one line (or one expression), spread over the step's functions
where the earlier sets left room: 02_project has one conv_to_linear and three project mistakes, 03_position
has only add_position. Every edit changes its function's numbers at both sizes except one shape mistake
(the occlusion map's kept batch axis). None is marked hidden. Two are random (the dropouts left on with the
functional call's training=True default). Three need a particular input to show, and their `structure`
says so: the positions of add_position added to the first image only are right for a batch of one, the
hard-coded 16-pixel cover is right for 16-pixel squares, and the mean-filled quadrants are close to right
for an image whose mean is near 0, mid-gray.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND23 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'doubled_typed_as_squared', 'activation',
          'normalize squares the [0, 1] value instead of doubling it, s ** 2 - 1 with s = x / 255: every value '
          'lies in [-1, 0] instead of [-1, 1]; 0 still gives -1 but 255 gives 0 instead of 1 and 128 gives '
          '-0.748 instead of 0.004',
          'normalize types ** for * in page 8\'s "divide by 0.5" written as a doubling, scaled * 2 - 1.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled ** 2.0 - 1.0  # [-1, 1]\n'),
    fresh('01_flatten', 'divisor_typed_225', 'scale shift',
          'normalize divides the 0..255 values by 225 instead of 255: the expected value times 255/225 plus '
          '30/225 (1.1333 e + 0.1333), so 0 still gives -1 but 255 gives 1.2667 instead of 1 and 128 gives '
          '0.138 instead of 0.004',
          'normalize transposes two digits of the byte range and divides by 225, a misremembered constant in '
          'page 8\'s "RGB to [0,1]".',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 225.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'nchw_storage_read_as_nhwc', 'order',
          'patchify first reshapes the (B, C, H, W) images to (B, H, W, C) and permutes back, so the image it '
          'cuts holds the right values in another order: read pixel (y, x) of channel c is stored value number '
          '3 (y W + x) + c of the image, taken across channel planes; every patch row holds scrambled pixels '
          '(the same multiset of values per image)',
          'patchify believes the images arrive channels-last and "converts" them with reshape then permute, '
          'though page 51 gives the pixels as 3 x 224 x 224, channels first: a reshape reinterprets storage '
          'instead of moving an axis.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.reshape(B, H, W, C).permute(0, 3, 1, 2).unfold(2, P, P).unfold(3, P, P)\n'),
    fresh('01_flatten', 'colour_planes_counted_as_tokens', 'term',
          'count_tokens counts every patch three times, once per colour plane: 3 (S/P)^2 + CLS, 589 instead of '
          '197 for 224 and 16 (588 instead of 196 without CLS, 2353 instead of 785 for 8-pixel patches)',
          "count_tokens multiplies by the 3 channels of page 8's 16 x 16 x 3 patch, as if each channel plane "
          'of a patch were its own token, though page 9 flattens the three planes into one 768-value token.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return 3 * per_side * per_side + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_storage_read_channels_last', 'order',
          'conv_to_linear reads each flattened kernel as (pixel, channel) pairs and regroups it channel-major: '
          'row c P^2 + j of W_E holds kernel value number 3 j + c of the flattened (C, P, P) kernel instead of '
          'value c P^2 + j; the right values in another order (rows 0 and 3 P^2 - 1 stay in place), so the '
          'projection mixes the wrong pixels',
          'conv_to_linear assumes the Conv2d kernel is stored pixel-major, RGB interleaved, and de-interleaves '
          'it with a reshape to (D, P*P, 3) and a transpose, though PyTorch stores (D, 3, P, P) already '
          'channel-major (page 9).',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.reshape(conv_weight.shape[0], -1, 3).transpose(1, 2).flatten(start_dim=1)  # '
          '(D, 3*P*P)\n'),
    fresh('02_project', 'projection_columns_unit_length', 'inputs',
          'project divides every column of W_E by its Euclidean length before the product: feature d of every '
          "token is (x W_E)_d / |W_E[:, d]| + b_d, each feature's product scaled by its own factor while the "
          'bias is unchanged',
          "project normalizes the projection's columns like a cosine or weight-normalized layer, though page "
          "10's c = x W_E + b_E uses the learned W_E as it is.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, torch.nn.functional.normalize(W_E, dim=0)) + b_E  # '
          '(B, N, D)\n'),
    fresh('02_project', 'output_reshaped_feature_first', 'order',
          'project reshapes the right (B, N, D) result to (B, D, N) and transposes it back: the right values '
          'in another order, output entry (n, d) holding expected entry number d N + n of the image read row '
          'by row (token (d N + n) // D, feature (d N + n) % D); entry (0, 0) and the last entry stay in place',
          "project lays its result out feature-first like Conv2d's (B, D, N) map and then fixes the shape with "
          "reshape plus a transpose, mistaking reshape for an axis move (page 12's C keeps 196 rows of 192 "
          'features).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (torch.einsum("bnk,kd->bnd", patches, W_E) + b_E).reshape(patches.shape[0], -1, '
          'patches.shape[1]).transpose(1, 2)\n'),
    fresh('02_project', 'embedding_dropout_left_on', 'term',
          'project passes its result through torch.nn.functional.dropout(p=0.1), whose training flag defaults '
          'to True: on every call about one value in ten is set to 0 and the others are multiplied by 1/0.9, '
          'at random',
          'project adds the embedding dropout of training code with the functional call, whose default '
          "training=True keeps it on at inference, where page 37's fixed model only recomputes its activations.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.dropout(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E, p=0.1)  # '
          '(B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_averaged_to_drop_batch_axis', 'term',
          'add_position averages the position table over its rows and adds that one mean vector to every '
          'token: e_i = c_i + mean_j p_j instead of c_i + p_i, so no token gets its own position (a table '
          'whose rows are equal would be right)',
          'add_position takes the table for the checkpoint\'s (1, 197, 192) pos_embed and drops the "batch '
          'axis" with mean(dim=0), which on the (N, D) table averages the positions away (page 17: one row per '
          'token position).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.mean(dim=0).expand_as(tokens)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'addcmul_for_add', 'term',
          'add_position returns c_i + c_i * p_i (torch.addcmul(tokens, tokens, table)) instead of c_i + p_i: '
          'the content scaled coordinate by coordinate by 1 + p_i, with no position added on its own',
          'add_position reaches for torch.addcmul, reading its name as "add", and fills its three tensor '
          'arguments with the tokens twice, where page 16 adds WHAT and WHERE coordinate by coordinate.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.addcmul(tokens, tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'positions_for_first_image_only', 'part',
          'add_position adds the table to the first image of the batch only: image 0 is right, every other '
          'image is returned as its content tokens without positions (right for a batch of one)',
          'add_position was written and tested on one photograph (page 51 leaves the batch out) and adds the '
          'table to tokens[:1] only, passing the other images through.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((torch.add(tokens[:1], table[:1]), tokens[1:]))  # (B, N, D)\n'),
    fresh('03_position', 'table_dropout_library_default', 'term',
          'add_position passes the table through torch.nn.functional.dropout with its defaults p=0.5 and '
          'training=True: on every call about half the position coordinates are dropped to 0 and the others '
          'doubled, at random',
          "add_position applies dropout to the learned table with the functional call's defaults, so half of "
          'the table is dropped even at inference, where page 17 says the table stays fixed.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.nn.functional.dropout(pos_table).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_unit_length', 'part',
          'prepend_cls divides the learned CLS vector by its Euclidean length before prepending it: row 0 of '
          'every image is cls / |cls| instead of cls; the patch rows are right',
          'prepend_cls normalizes the CLS vector to unit length as if it were a direction, though page 20 '
          'prepends the learned vector itself to every image.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = torch.nn.functional.normalize(cls_token.reshape(1, 1, width), dim=-1).repeat(batch, 1, '
          '1)\n'),
    fresh('04_cls', 'table_sliced_as_if_batched', 'term',
          'embed adds pos_table[:1], the CLS position only, to every row: CLS is right, every patch row gets '
          'p_0 instead of its own p_i',
          "embed slices the table with [:1] as for the checkpoint's (1, 197, 192) pos_embed, where that keeps "
          'the whole table; on the (197, 192) table it keeps one row (page 17: one row per token position).',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table[:1])  # (B, 1+N, D)\n'),
    fresh('04_cls', 'content_counted_twice', 'term',
          'embed adds the position-added sequence to the sequence again: every row, CLS included, is 2 x_i + '
          'p_i instead of x_i + p_i (content doubled, position once)',
          'embed writes x = x + add_position(x, pos), as if add_position returned only the position vectors, '
          "so page 16's e_i = c_i + p_i gets its content twice.",
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return sequence + position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_bias_typed_as_norm_bias', 'part term',
          "embed projects the patches with the final LayerNorm's bias (norm_bias) instead of b_E: every patch "
          'row is off by the one vector norm_bias - b_E; the CLS rows are right',
          'embed picks the wrong 192-wide bias from the parameters, params.norm_bias for params.b_E, a name '
          "mix-up between two biases of the same size (page 10's b_E has 192 entries).",
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.norm_bias)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'key_copied_from_query_line', 'inputs part',
          'qkv_heads takes the keys from the query slot of the joint projection: k equals q (q and v are '
          'right), so the scores become q_i . q_j / sqrt(d) and every later weight is wrong',
          'qkv_heads copies the query line and changes the name but not the index (0 for 1), the copy-paste '
          "slip of three near-identical lines for page 26's three projections.",
          '    k = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)\n',
          '    k = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'log_softmax_weights', 'activation',
          'attention_weights returns the log of the softmax (every weight negative, rows summing to a negative '
          'number) instead of the softmax: each weight is log a_ij',
          'attention_weights ends with the log-sum-exp normalization of a log-softmax, the form met in '
          "classification losses, instead of dividing by the row sum (page 28's row softmax).",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return scores - weights.sum(dim=-1, keepdim=True).log()  # each row sums to 1\n'),
    fresh('05_attention', 'row_mean_for_row_sum', 'scale',
          'attention_weights divides each exponentiated row by its mean instead of its sum: every weight is N '
          'times too large (197 times for 197 tokens), rows summing to N instead of 1',
          'attention_weights normalizes with mean where the softmax needs sum, the mean-for-sum slip (page 33: '
          'all 197 weights sum to one).',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.mean(dim=-1, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'output_bias_added_after_addmm', 'shift term',
          'multi_head_attention adds b_o a second time after torch.addmm, which already adds it: every row is '
          'off by the one vector b_o',
          'multi_head_attention writes the output projection as addmm and then "adds the bias", not knowing '
          "addmm's first argument is already added (page 34: project the joined message, once).",
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width) + b_o  # (B, '
          'N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_formula_mean_not_squared', 'term',
          'layer_norm computes the variance as mean(x^2) - mean(x) instead of mean(x^2) - mean(x)^2: each row '
          'is divided by sqrt(var + mean^2 - mean + eps) instead of sqrt(var + eps) (right only for rows whose '
          'mean is 0 or 1)',
          'layer_norm uses the shortcut E[x^2] - E[x]^2 for the variance and forgets to square the mean.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.pow(2).mean(dim=-1, keepdim=True) - x.mean(dim=-1, keepdim=True)  # (..., 1): the '
          'biased variance\n'),
    fresh('06_block', 'sqrt2_written_as_power_half', 'activation',
          'mlp computes erf(z / 2 ** 1/2), which Python reads as erf(z / 2 / 2) = erf(z / 4), instead of erf(z '
          '/ sqrt 2): the GELU becomes z * (1 + erf(z / 4)) / 2, too small for positive z and not close to 0 '
          'for negative z',
          "mlp writes the square root of 2 as 2 ** 1/2, where ** binds before /, so the exact GELU's z / "
          'sqrt(2) becomes z / 4.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / 2 ** 1/2))  # z·Φ(z)\n'),
    fresh('06_block', 'attention_output_weight_transposed', 'inputs',
          'block passes W_o transposed to the attention: the joined heads are multiplied by W_o^T, so every '
          'attention update is wrong (the square 192 x 192 matrix fits either way)',
          'block "fixes" the output projection into PyTorch Linear\'s (out, in) layout with .T, though the '
          "parameters are already in row-vector form (page 10's note on the stored transpose).",
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o.T, p.b_o, num_heads)\n'),
    fresh('06_block', 'mlp_input_normalized_twice', 'inputs',
          "block normalizes the MLP's input with ln2 a second time inside feed: the MLP reads LN2(LN2(u)) "
          'instead of LN2(u); the attention update is right',
          "block writes the pre-LN inside feed as well as in the loop that already normalizes each sublayer's "
          "input, so page 35's E_next = U + MLP(LN(U)) normalizes twice.",
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)\n',
          '        return mlp(layer_norm(rows, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_affine_only', 'term',
          "read_cls applies only the final LayerNorm's scale and shift to the CLS row, cls * w + b, without "
          'centring and dividing by the standard deviation',
          'read_cls takes LayerNorm to be its learned affine part and skips the normalization itself (page 38: '
          'after the final LayerNorm, select CLS).',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return (summary * norm_weight + norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'head_bias_indexed_as_batched', 'shift term',
          "classify adds b_head[0], the first class's bias, to every logit instead of the bias vector: every "
          'row is off by the one vector b_head[0] - b_head',
          'classify indexes the head bias with [0] as if it were stored with a leading batch axis like the '
          "checkpoint's cls_token and pos_embed, which turns the vector into one number.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head[0], h, W_head)  # (B, 1000)\n'),
    fresh('07_head', 'final_norm_bypassed', 'term',
          "vit_forward reads the CLS row of the last block's output directly, without the final LayerNorm: the "
          'head scores the unnormalized CLS state',
          "vit_forward writes page 52's h = norm(x)[:, 0] as x[:, 0] and leaves the final LayerNorm out.",
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = rows[:, 0]  # (B, D)\n'),
    fresh('07_head', 'cls_row_cut_before_readout', 'inputs',
          'vit_forward passes rows[:, 1:] to read_cls, so the head reads the final state of patch P1 '
          '(normalized) instead of CLS',
          "vit_forward cuts off the CLS row as for the patch tokens before the readout, so read_cls's row 0 is "
          'P1, though page 38 reads the updated CLS embedding.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows[:, 1:], params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_size_16_hardcoded', 'part',
          'cover always grays a 16 x 16 square at (top, left), whatever size is asked: right for 16-pixel '
          'squares; a larger square (a 112-pixel quadrant) is covered only in its top-left 16 x 16 corner, a '
          'smaller one too far',
          "cover writes the square's side with page 44's 16-pixel patch instead of the size argument, so the "
          'quadrant covers of page 41 shrink to one patch.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + 16, left:left + 16] = value\n'),
    fresh('08_occlusion', 'quadrants_filled_with_image_mean', 'fill',
          "quadrant_probabilities fills each covered quarter with the image's mean value instead of 0 "
          '(mid-gray in normalized units): every probability is that of a differently filled image (close to '
          'right only for an image whose mean is near 0)',
          'quadrant_probabilities fills the covers with the image mean, a common occlusion choice, instead of '
          "page 42's normalized zero, mid-gray.",
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, '
          'half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h, image.mean().item()) for top in (0, half_h) '
          'for left in (0, half_w)])\n'),
    fresh('08_occlusion', 'baseline_from_first_cover', 'shift inputs',
          'occlusion_map takes the base probability from the first covered image (P1 covered) instead of the '
          'uncovered one: every cell is off by the one constant P(uncovered) - P(P1 covered), and cell (0, 0) '
          'is exactly 0',
          'occlusion_map passes covers[0] where it means the image, a mix-up of the two inputs beside each '
          'other (page 44 compares each covered copy with the original).',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(covers[0]), dim=-1)[0, target]  # the uncovered probability\n'),
    fresh('08_occlusion', 'map_batch_axis_kept', 'shape',
          'occlusion_map returns the map with a leading batch axis, (1, side, side) instead of (side, side); '
          'the values are right',
          "occlusion_map keeps the single image's batch axis when reshaping, view(1, side, side), though page "
          "44's map is one grid of cells.",
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(1, side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
