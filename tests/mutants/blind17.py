"""A seventeenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or the other sets of mistakes beyond their format and
what was needed to avoid repeats. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py, exercises/01_flatten.py ... 08_occlusion.py, the lecture transcript,
tests/mutants/fresh.py up to and including its line `FRESH = [` (the CLAIMS vocabulary, the `Fresh`
class and the `fresh` helper), tests/mutants/blind.py, blind2.py ... blind16.py (read in full, named
one by one, to follow their format and to leave out every mistake they already hold) and the lines of
pyproject.toml that a grep for "line" and "ruff" showed (the line length of 120, the lint selection and
the per-file ignores). Directory listings of tests/mutants/, tests/mutants/independent/ and exercises/
showed the names of the files there (catalogue.py, novel.py, unseen.py and __init__.py among them),
which were not opened (an attempt to print tests/mutants/independent/__init__.py found no such file);
greps for this set's names and edits (run over blind.py ... blind16.py, named one by one) found no
repeat; nothing under grader/, no catalogue, no other mutant set (blind18.py included), no other test, no docs,
solutions or fixtures were opened, no git command was run and the kit's grader was not run. The check
of this set (a throwaway script outside the repository) loaded the independent steps from their source
text with a stand-in for the `grader` import (its `earlier_step` and parameter classes) and a stand-in
for `mutants.fresh`, not the kit's own modules.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or returns the wrong shape),
with what is really wrong (`structure`) and the kinds of structure its error truly has (`claims`).
None is marked hidden: every one shows at the lecture's own sizes (the two shape mistakes with the
lecture's single photograph or any batch).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND17 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'unit_range_step_skipped', 'scale shift',
          'normalize leaves out the division by 255 and applies 2 x - 1 to the raw 0..255 values: every value '
          'is 255 times the expected one plus 254, range [-1, 509] instead of [-1, 1] (black is right, every '
          'other pixel far too large)',
          'normalize converts the bytes to float and goes straight to page 8\'s "subtract 0.5 and divide by '
          '0.5", written as 2 x - 1, skipping its first step, "RGB to [0, 1]".',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float()  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'centred_twice', 'shift',
          'normalize subtracts 0.5 from the [0, 1] values and then still applies 2 s - 1: 2 (x / 255 - 0.5) - 1 '
          '= 2 x / 255 - 2, every value the expected one minus 1, range [-2, 0] instead of [-1, 1]',
          'normalize writes page 8\'s "subtract 0.5" on the scaling line and keeps the 2 s - 1 form of the '
          'return line as well, so the values are centred twice.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 255.0 - 0.5  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'grid_rows_from_bottom', 'order',
          'patchify numbers the grid rows from the bottom of the image: P1 is the bottom-left patch and the '
          'first 14 rows of the result are the bottom row of patches, left to right; every patch row is right '
          '(channel-major, row by row inside the patch), the patches are in another order (the grid rows '
          'reversed, the columns in order)',
          'patchify flips the grid-row axis, taking row 0 for the bottom of the image as in a plot whose y axis '
          'points up, instead of page 7\'s row-by-row order from the top-left patch.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5).flip(1)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'squared_as_doubled', 'term',
          'count_tokens doubles the number of patches per side instead of squaring it: 2 * 14 + 1 = 29 instead '
          'of 197 for 224 and 16 (28 instead of 196 without CLS); the divisibility check still raises',
          'count_tokens writes "14 squared" as per_side * 2, mixing up the square of a number with twice the '
          'number (page 7: 14 x 14 = 196).',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * 2 + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'normalization_folded_into_weights', 'scale',
          'conv_to_linear divides W_E by 0.5: the right matrix times 2, so patchify(x) @ W_E is twice the '
          'convolution\'s product',
          'conv_to_linear folds page 8\'s "divide by 0.5" into the weights, as one folds an input '
          'normalization into the first layer, not seeing that the patch rows that meet W_E are normalized '
          'already.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).clone() / 0.5  # (3*P*P, D)\n'),
    fresh('02_project', 'movedim_source_and_destination_swapped', 'order',
          'conv_to_linear moves the kernel\'s last axis (the pixel column) to the front instead of the output '
          'axis to the end, (P, D, 3, P), and reshapes that to (3*P*P, D): the right shape and the right '
          'weights, scrambled so that no column of W_E is one kernel read channel-major',
          'conv_to_linear puts the output axis last with movedim (page 10: PyTorch keeps the output axis '
          'first, the lecture last) and gives movedim its destination before its source, then reshapes to '
          '(768, D).',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.movedim(-1, 0).reshape(-1, conv_weight.shape[0])  # (3*P*P, D)\n'),
    fresh('02_project', 'bias_shared_out_between_patches', 'shift term',
          'project adds b_E / N instead of b_E to every row (N the number of patches): each content vector '
          'is off by -b_E (1 - 1/N), the same row for every patch of every image',
          'project reads page 12\'s "broadcasts the same bias across every row" as one bias shared out among '
          'the N patches, each getting 1/N of it.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E / patches.shape[1]  # (B, N, D)\n'),
    fresh('02_project', 'weights_transposed_then_reshaped', 'inputs',
          'project multiplies by W_E.T reshaped back to (3*P*P, D): the (D, 3*P*P) transpose read out row by '
          'row into a (3*P*P, D) matrix, so every patch is projected with weights scrambled from all of W_E '
          'instead of W_E itself; b_E is right',
          'project transposes W_E because PyTorch stores the Linear weight transposed (page 10), and when the '
          'einsum then fails on the shapes, makes them fit with reshape(W_E.shape).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E.T.reshape(W_E.shape)) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'position_ids_from_one', 'term',
          'add_position gives token i row i+1 of the table and the last token row 0: every token gets its '
          'neighbour\'s position vector instead of its own (the table rows shifted up by one, wrapping round)',
          'add_position counts position ids from one, as page 17 pairs P1 with "position 1", indexes the table '
          'with i + 1, and wraps the last index round with % N to get rid of the IndexError.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[(torch.arange(pos_table.shape[0]) + 1) % pos_table.shape[0]].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'one_hot_positions', 'term',
          'add_position adds the one-hot code of every token\'s index, 1 in feature i of token i (nothing for '
          'tokens past the width), instead of the learned table: the position term is replaced by the rows of '
          'an identity matrix',
          'add_position encodes WHERE as a one-hot vector of the token\'s index, the way categorical positions '
          'are encoded in an introductory course, sized like the table, instead of the learned rows of page 17.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.eye(*pos_table.shape).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'table_grid_rows_and_columns_swapped', 'term',
          'add_position lays the table\'s patch rows out as a square grid and transposes it before adding: the '
          'token of grid cell (r, c) gets the position vector of cell (c, r); the CLS row and the patches on the '
          'grid\'s diagonal are right, every other patch gets another patch\'s position (and when N - 1 is not '
          'a square number the grid is laid out wrongly or the call fails)',
          'add_position copies the grid round trip of position-table resampling code (reshape the patch rows '
          'to side x side, permute, flatten back) and swaps the row and column axes on the way, as if the table '
          'were stored column by column.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[:1], pos_table[1:].reshape(round((pos_table.shape[0] - 1) ** 0.5), -1, '
          'pos_table.shape[1]).transpose(0, 1).reshape(-1, pos_table.shape[1]))).unsqueeze(0).expand(batch, -1, -1)  '
          '# (B, N, D): one table for every image\n'),
    fresh('03_position', 'single_image_squeezed', 'shape',
          'add_position squeezes the batch axis out of the result: right for two or more images, but for a '
          'single image it returns (N, D) instead of (1, N, D) (the values are right)',
          'add_position removes "the extra axis" so that the lecture\'s single photograph comes out as the '
          '197 x 192 of pages 16 and 51, which leave the batch axis out.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table).squeeze(0)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_from_patch_average', 'part inputs',
          'prepend_cls starts every image with the mean of its own patch tokens instead of the learned CLS '
          'vector: row 0 is wrong (and different for every image), rows 1..N are right',
          'prepend_cls builds the starting CLS as a summary of the image, the mean pooling of page 18, not '
          'seeing that every image starts with the same learned CLS vector (page 20).',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = tokens.mean(dim=1, keepdim=True)  # (B, 1, D)\n'),
    fresh('04_cls', 'sequence_first_layout', 'shape order',
          'prepend_cls returns the sequence with the batch and token axes swapped, (1+N, B, D) instead of '
          '(B, 1+N, D): the right rows, CLS first, in a sequence-first layout',
          'prepend_cls hands over the sequence-first layout that torch.nn.TransformerEncoder expects by '
          'default (batch_first=False), as in the text models of the previous lecture.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens), dim=1).transpose(0, 1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'content_scaled_like_text', 'part term',
          'embed multiplies the projected patch rows by sqrt(D) (13.9 for D = 192) before CLS and position are '
          'added: every patch row is sqrt(D) c_i + p_i instead of c_i + p_i; the CLS row is right',
          'embed applies the sqrt(d_model) scaling of the text Transformer\'s token embeddings to the patch '
          'embeddings, taking page 19\'s "same CLS idea, different input tokens" to mean the same embedding '
          'recipe.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.b_E) * params.W_E.shape[1] ** 0.5  # (B, N, D)\n'),
    fresh('04_cls', 'batch_mean_image_subtracted', 'part inputs',
          'embed subtracts the batch\'s mean image from every image before patchify: every patch row is '
          'projected from its image minus the mean of the batch (for a single image, from zeros: every patch '
          'row is b_E plus its position vector); only the CLS row is right',
          'embed zero-centres the data by subtracting the mean image, the preprocessing step of image '
          'classification courses, not seeing that the images are normalized already (page 8).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images - images.mean(dim=0, keepdim=True), params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'values_are_the_tokens', 'inputs',
          'qkv_heads returns the incoming rows themselves, split into heads, as the values instead of their '
          'value projection: v is x viewed as (B, H, N, d) instead of x W_V + b_V; q and k are right',
          'qkv_heads takes page 29\'s message, a weighted sum of source values, for a weighted average of the '
          'source tokens, and splits x into heads for v instead of reading the value columns of the product.',
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = x.reshape(batch, count, num_heads, head_dim).transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'sqrt_written_as_power_half', 'term',
          'attention_weights divides the scores by head_dim ** 1/2, which Python reads as (head_dim ** 1) / 2 '
          '= d / 2 (32 for heads of 64), instead of sqrt(d) = 8: the softmax is taken of scores 4 times too '
          'small, so every row is flatter',
          'attention_weights writes the square root of page 28\'s "/ sqrt 64" as a power of one half, not '
          'seeing that ** binds more tightly than /.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / (head_dim ** 1/2)  # (B, H, N, N)\n'),
    fresh('05_attention', 'scaled_after_the_softmax', 'scale',
          'attention_weights divides the normalized weights by sqrt(d) once more: every weight is the expected '
          'one divided by sqrt(d) (8 for heads of 64), so each row sums to 1 / sqrt(d) instead of 1',
          'attention_weights applies the 1 / sqrt(d) of softmax(q k / sqrt d) both inside and outside the '
          'softmax, unsure where the scaling of page 28 belongs.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-1, keepdim=True) / math.sqrt(head_dim)  # each row sums to 1\n'),
    fresh('05_attention', 'own_value_added_to_message', 'term',
          'multi_head_attention adds each receiver\'s own value vector to its message in every head: head h of '
          'token i passes sum_j a_ij v_j + v_i to the output projection instead of sum_j a_ij v_j',
          'multi_head_attention keeps the receiver\'s own value and adds the gathered message to it, applying '
          'page 34\'s "add the update to the original embedding" inside each head.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v) + v  # (B, H, N, d): weighted sums of values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'sqrt_split_over_eps', 'approximate',
          'layer_norm divides the centred rows by sqrt(var) + sqrt(eps) instead of sqrt(var + eps): for rows of '
          'unit variance the normalized part is about 0.1 % too small (the bias is right); the error is largest, '
          'about 29 %, for rows whose variance is close to eps',
          'layer_norm splits the square root over the sum, sqrt(a + b) = sqrt(a) + sqrt(b), an algebra slip, '
          'while trying to keep eps "inside the square root" as the stub asks.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / (torch.sqrt(spread) + math.sqrt(eps)) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'erf_argument_halved', 'activation',
          'mlp uses 0.5 z (1 + erf(z / 2)) instead of 0.5 z (1 + erf(z / sqrt 2)): GELU is replaced by z times '
          'the CDF of N(0, 2), a flatter curve (about 0.76 instead of 0.84 at z = 1, -0.24 instead of -0.16 at '
          'z = -1)',
          'mlp writes the normal CDF\'s erf(z / sqrt 2) with 2 for sqrt 2, remembering "divide by two" from '
          'the 0.5 in front of it.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / 2.0))  # z·Φ(z)\n'),
    fresh('06_block', 'layer_norms_swapped', 'inputs',
          'block normalizes attention\'s input with LN2\'s weight and bias and the MLP\'s input with LN1\'s: '
          'both sublayers read rows scaled and shifted by the other LayerNorm\'s parameters; the residual adds '
          'are right',
          'block counts the two LayerNorms from the end of the block, taking ln1 for the norm next to the '
          'output (before the MLP) and ln2 for the one before attention.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln2_weight, p.ln2_bias), (feed, p.ln1_weight, p.ln1_bias)]\n'),
    fresh('06_block', 'ln1_weight_typed_for_bias', 'inputs',
          'block gives the first LayerNorm its weight as its bias too: attention reads the normalized rows '
          'scaled by ln1_weight and shifted by ln1_weight instead of ln1_bias; the MLP sublayer is right',
          'block types p.ln1_weight twice in the attention entry of the sublayer list, a copy-paste slip.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_weight), (feed, p.ln2_weight, p.ln2_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'norm_read_as_vector_length', 'term',
          'read_cls divides the CLS row by its Euclidean length instead of centring it and dividing by its '
          'standard deviation, then scales by norm_weight and shifts by norm_bias: the CLS features are not '
          'centred, and their normalized part is about 1 / sqrt(D) of its right size',
          'read_cls reads page 52\'s h = norm(x)[:, 0] as the vector norm, dividing CLS by its length, and '
          'keeps the learned scale and shift of the final LayerNorm.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return (summary / summary.norm(dim=-1, keepdim=True) * norm_weight + norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'relu_on_logits', 'activation part',
          'classify passes the class scores through a ReLU: every negative logit becomes 0, the positive ones '
          'are right',
          'classify ends the head with a ReLU, as every linear layer of the CNNs it knows is followed by one, '
          'although the head returns unnormalized class scores (page 52).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.relu(torch.addmm(b_head, h, W_head))  # (B, 1000)\n'),
    fresh('07_head', 'position_added_every_block', 'term',
          'vit_forward adds the position table to the rows entering every block: each block reads its incoming '
          'rows plus pos_table (the embedding already holds it once), so the position term is added once more '
          'before every block',
          'vit_forward re-injects the position vectors at every layer, as DETR-style encoders add their position '
          'encodings in each block, reading page 22 ("CLS reads the current patch states at every block") as '
          'needing WHERE again each time.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows + params.pos_table, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'cls_reset_every_block', 'inputs',
          'vit_forward puts the embedding\'s starting CLS row back into row 0 before every block: each block '
          'reads the previous block\'s patch rows but the starting CLS, so the CLS updates of every block but '
          'the last are thrown away (right only with a single block)',
          'vit_forward reads page 20 ("every image starts with the same learned CLS vector") as CLS starting '
          'afresh at every block, and splices the starting CLS in front of the updated patch rows.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(torch.cat((x[:, :1], rows[:, 1:]), dim=1), layer, params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'fill_multiplied', 'fill part',
          'cover multiplies the square by `value` instead of setting it: with the default 0.0 the square '
          'becomes 0 and the result is right, but any other value v leaves v times the original pixels in the '
          'square instead of v; outside the square everything is right',
          'cover hides the square with a multiplicative mask, image * mask, as occlusion code often does, '
          'and writes *= value.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] *= value\n'),
    fresh('08_occlusion', 'logits_exponentiated', 'term',
          'quadrant_probabilities returns exp(logit of the target) for each cover instead of its softmax '
          'probability: each value is the expected probability times that cover\'s own sum of exponentials '
          '(the softmax denominator is left out)',
          'quadrant_probabilities takes the logits for log-probabilities and exponentiates them, not seeing '
          'that the softmax of page 39 also divides by the sum over the classes.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return logits.exp()[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'row_index_for_columns', 'part',
          'occlusion_map covers the square at (row * P, row * P) for every cell of grid row r: every cell of a '
          'row measures the same patch on the grid\'s diagonal, so only the diagonal cells (r, r) are right',
          'occlusion_map copies row * patch_size for the second coordinate of the cover and forgets to change '
          'row to col.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, row * patch_size, patch_size)\n'),
    fresh('08_occlusion', 'grid_count_as_cover_size', 'inputs',
          'occlusion_map covers squares of side `side`, the number of patches per side (14), instead of '
          'patch_size (16): every cell measures a square of the wrong size at the right corner, so every cell '
          'is the change for the wrong cover',
          'occlusion_map passes side for the size of the cover, confusing page 7\'s two numbers, "14 patches '
          'per side" and "16 x 16 pixels".',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, col * patch_size, side)\n'),
]
