"""A twenty-first blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or the other sets of mistakes beyond their format and
what was needed to avoid repeats. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py (printed whole), exercises/01_flatten.py ... 08_occlusion.py (printed whole; the display
cut the middle of that printout, so 01_flatten.py ... 03_position.py and the first 30 lines of 04_cls.py
were printed again), the lecture transcript (printed whole, then the lines the first printout had cut
short printed again), tests/mutants/fresh.py up to and including its line `FRESH = [` (the CLAIMS
vocabulary, the `Fresh` class and the `fresh` helper), and, for the format, blind20.py and the first 60
lines of blind19.py, printed in one command whose display was cut: what was read of blind20.py is its first
176 lines, then lines 170-200 and its last 20 lines printed again, and of blind19.py nothing. The lines of
pyproject.toml that a grep for "ruff" (with 20 lines after each hit) showed gave the line length of 120,
the lint selection and the per-file ignores. To leave out every mistake the earlier sets hold, blind.py,
blind2.py ... blind20.py (named one by one, never by a glob) were loaded by a throwaway script outside the
repository with a stand-in `fresh`, and the step, function, name, claims, hidden flag, old and new text of
every entry (608 in all, their `structure` and `what` not printed) were listed, sorted by step and
function, and read; the names below were checked against that list. Directory listings of tests/mutants/,
tests/mutants/independent/ and exercises/ showed the names of the other files there (catalogue.py,
novel.py, unseen.py and __init__.py among them), which were not opened; blind22.py was not in that listing
and was neither opened nor searched. Nothing under grader/, no catalogue, no other mutant set, no other
test, no docs, solutions or fixtures were opened, no git command was run and the kit's grader and tests
were not run. The check of this set (a throwaway script outside the repository) loaded the independent
steps from their source text with a stand-in for the `grader` import (its `earlier_step` and the
`ViTParams` and `BlockParams` classes), read this file with a stand-in `fresh`, applied every edit (its
old text found exactly once), compared every function of the step with the original on random inputs at
the lecture's sizes (224 x 224 images, 16-pixel patches, 192 features, 3 heads, 12 blocks, 1,000 classes)
and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads, 2 blocks, 10 classes), with a
cheap stand-in model for the occlusion functions, and checked every `structure` below numerically; it did
not import the kit's grader or mutants package. Last, ruff and a bare import of this module (which loads
mutants/fresh.py) were run on it.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs at the lecture's sizes; one of
them (the guard of count_tokens) makes the call fail instead. None is marked hidden. Five need a
particular input to show, and their `structure` says so: the sequence-first position add, the loop of
prepend_cls and the packed batch of vit_forward are right for a batch of one image, the frozen patch rows
of vit_forward for a ViT of one block, and the half-gray default of `cover` shows only when the fill is
left to its default (as quadrant_probabilities and occlusion_map leave it).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND21 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'pixels_scaled_by_128', 'scale shift',
          'normalize computes (x - 128) / 128 on the 0..255 values instead of (x / 255 - 0.5) / 0.5: the '
          'expected value times 255/256 minus 1/256 (0.99609375 e - 0.00390625), so 0 still gives -1 but 255 '
          'gives 0.9921875 instead of 1, 128 gives 0 instead of 0.0039 and 127 gives -0.0078 instead of -0.0039',
          'normalize uses the (x - 128) / 128 of 8-bit quantized image pipelines, remembering page 8\'s '
          '"subtract 0.5 and divide by 0.5" as "centre on the middle byte and divide by half the range".',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (pixels.float() - 128.0) / 128.0  # [-1, 1]\n'),
    fresh('01_flatten', 'channels_moved_one_place', 'order',
          'patchify swaps only the channel axis and the grid-row axis, (B, rows, C, cols, P, P), before '
          'flattening: the right pixel values in another order, each output row holding the P x P blocks of one '
          'grid row read channel by channel: row r*cols + j holds, for t = 3j, 3j+1, 3j+2, the block of channel '
          't // cols of the patch in column t % cols (P1\'s row holds the R blocks of P1, P2 and P3) instead of '
          'the R, G and B blocks of one patch',
          'patchify writes transpose(1, 2) to "move the channels behind the grid" (page 9), which moves the '
          'channel axis past the row axis only and leaves it in front of the column axis.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.transpose(1, 2)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'patch_count_squared_again', 'term',
          'count_tokens squares the number of patches: (H/P)^4 + 1 instead of (H/P)^2 + 1, 38,417 instead of '
          '197 for 224 and 16, 38,416 instead of 196 without CLS, 2,402 instead of 50 for 32-pixel patches; the '
          'divisibility check still raises',
          'count_tokens stores the patch count of page 7 ("14 x 14 = 196 patches") in per_side and then squares '
          'it again on the return line written for the patches per side.',
          '    per_side = image_size // patch_size\n',
          '    per_side = (image_size // patch_size) ** 2\n'),
    fresh('01_flatten', 'guard_uses_floor_division', 'shape',
          'count_tokens tests image_size // patch_size instead of image_size % patch_size: the quotient is '
          'non-zero for every image at least one patch wide, so the call raises ValueError for 224 and 16 and '
          'for every other valid size (and still raises for the sizes that do not divide)',
          'count_tokens types // for % in the divisibility test, the two operators next to each other in '
          'the patch arithmetic of page 7 ("224 / 16 = 14 patches per side").',
          '    if image_size % patch_size:\n',
          '    if image_size // patch_size:\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'red_kernel_for_every_channel', 'part',
          'conv_to_linear builds every column of W_E from the R kernel three times: rows 0..P*P-1 of W_E (the '
          'R block) are right, rows P*P..3*P*P-1 hold the R weights again instead of the G and B weights',
          'conv_to_linear loops over the three input channels to join the kernels channel-major (page 9) but '
          'indexes channel 0 instead of the loop variable.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = torch.cat([conv_weight[:, 0].flatten(start_dim=1) for channel in range(conv_weight.shape[1])], '
          'dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'linear_bias_added_again', 'shift term',
          'project adds b_E twice: X W_E + 2 b_E instead of X W_E + b_E, the expected result plus b_E broadcast '
          'to every row',
          'project calls F.linear(patches, W_E.T, b_E), which already adds the bias, and then adds page 10\'s '
          '"+ b_E" once more.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.linear(patches, W_E.T, b_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'content_scaled_by_sqrt_width', 'scale',
          'project multiplies the content vectors by sqrt(D): (X W_E + b_E) * sqrt(192), about 13.86 times the '
          'expected result',
          'project scales the token embeddings by the square root of the model width, as the text Transformer '
          'scales its token embeddings, though page 10\'s patch projection is the affine map alone.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (torch.einsum("bnk,kd->bnd", patches, W_E) + b_E) * W_E.shape[1] ** 0.5  # (B, N, D)\n'),
    fresh('02_project', 'mean_patch_subtracted', 'inputs',
          'project subtracts each image\'s mean patch row (the mean over its N patches) from every patch row '
          'before projecting: c_i = (x_i - mean_j x_j) W_E + b_E instead of x_i W_E + b_E, every content vector '
          'of an image off by the same row, -(mean_j x_j) W_E, which differs from image to image',
          'project removes the mean patch of the image before the shared projection, as mean-image subtraction '
          'in older CNN preprocessing does, though the pixels are already normalized (page 8).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches - patches.mean(dim=1, keepdim=True), W_E) + b_E  '
          '# (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'sum_clipped_to_pixel_range', 'part activation',
          'add_position clamps c_i + p_i to [-1, 1]: every coordinate of the sum inside [-1, 1] is right, every '
          'coordinate above 1 becomes 1 and every one below -1 becomes -1',
          'add_position keeps the token rows in the [-1, 1] range of the normalized pixels (page 8), as if '
          'every tensor of the model had to stay in that range.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table).clamp(-1.0, 1.0)  # (B, N, D)\n'),
    fresh('03_position', 'content_added_back_as_residual', 'term',
          'add_position returns c_i + (c_i + p_i), the content counted twice: 2 c_i + p_i instead of c_i + p_i',
          'add_position wraps page 16\'s sum in a residual connection, tokens + f(tokens), the habit of the '
          'encoder block (page 34), so the content vector is added a second time.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens + torch.add(tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'sequence_first_add_reshaped_back', 'order',
          'add_position adds the table in the (N, B, D) sequence-first layout and reshapes the sum to (B, N, D) '
          'instead of transposing it back: the right sums c_i + p_i in another order, row n of image b holding '
          'the sum of token (b*N + n) // B of image (b*N + n) % B, so the images of a batch are interleaved (a '
          'batch of one image is right)',
          'add_position puts the token axis first, as sequence-first attention code does, so that the (N, D) '
          'table broadcasts over the batch, and then restores the batch axis with reshape instead of a transpose '
          '(page 12 leaves the batch axis out).',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens.transpose(0, 1), pos_table.unsqueeze(1)).reshape(tokens.shape)  # (B, N, D)\n'),
    fresh('03_position', 'sum_normalized_with_default_dim', 'term',
          'add_position divides the sum by its L2 norm along axis 1, the token axis: for every image, feature d '
          'of every token is (c_id + p_id) / sqrt(sum over tokens j of (c_jd + p_jd)^2) instead of c_id + p_id',
          'add_position makes every embedding unit length with F.normalize and leaves its dim at the default 1, '
          'which for (B, N, D) rows is the token axis, not the 192 features of page 16.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.nn.functional.normalize(torch.add(tokens, table))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_first_coordinate_broadcast', 'part',
          'prepend_cls fills row 0 of every image with the first coordinate of the CLS vector, repeated over '
          'all D features, instead of the CLS vector; rows 1..N (the patch tokens) are right',
          'prepend_cls takes cls_token[0] to drop the leading axes of timm\'s (1, 1, 192) CLS parameter, but '
          'the cls_token it receives is already (D,), so [0] picks one number, which expand spreads over the '
          'row.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token[0].expand(batch, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'loop_reads_first_image', 'part inputs',
          'prepend_cls gives every image the patch tokens of image 0: image 0 is right, and every other image '
          'has the right CLS in row 0 but image 0\'s patch rows in rows 1..N (a batch of one image is right)',
          'prepend_cls builds the batch image by image, CLS then patch rows (page 23), and indexes tokens[0] '
          'instead of tokens[b] inside the loop.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.stack([torch.cat((start[b], tokens[0])) for b in range(batch)])  # (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_positions_off_by_one', 'part term',
          'embed adds row 0 of the table to CLS, which is right, but rows 0..N-1 to the patch tokens instead of '
          'rows 1..N: patch P_i gets the position vector of token i-1 (P1 gets the CLS position), so rows 1..N '
          'are wrong and row 0 is right',
          'embed splits page 17\'s table into the CLS row and the patch rows and writes the patch slice as '
          'pos_table[:-1], "all but one row", instead of pos_table[1:].',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return torch.cat((sequence[:, :1] + params.pos_table[:1], sequence[:, 1:] + params.pos_table[:-1]), '
          'dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'content_vectors_unit_length', 'part term',
          'embed divides every projected patch vector by its L2 norm over the D features before CLS and '
          'position are added: rows 1..N are c_i / |c_i| + p_i instead of c_i + p_i; row 0 (CLS plus its '
          'position) is right',
          'embed makes every patch token unit length so that all patches enter the encoder on the same scale, '
          'as embeddings are normalized before they are compared, though page 10 has the affine projection '
          'alone.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = torch.nn.functional.normalize(projection.project(patches, params.W_E, params.b_E), dim=-1)  '
          '# (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'projections_scaled_through_alpha', 'term',
          'qkv_heads multiplies the product x W_qkv by 1/sqrt(d) but not the bias: q, k and v are all '
          'x W / sqrt(d) + b instead of x W + b (x W / 8 + b for the lecture\'s 64-feature heads)',
          'qkv_heads folds the scaling of page 28 ("divided by 8") into the fused projection through addmm\'s '
          'alpha argument, which scales the product of q, k and v alike and leaves the bias out.',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv, alpha=1 / math.sqrt(head_dim))  # (B*N, 3D)\n'),
    fresh('05_attention', 'row_sums_of_scores', 'term sign',
          'attention_weights divides each row of exponentials by the row sum of the shifted scores (every one '
          '<= 0) instead of the row sum of the exponentials: every weight is negative, and each row is the '
          'softmax row times (sum of exponentials) / (sum of shifted scores), a different factor per row',
          'attention_weights names the wrong tensor in the normalizing sum of page 31\'s row softmax, scores '
          'instead of weights, two lines after the exponentials were taken.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / scores.sum(dim=-1, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'output_bias_added_per_head', 'shift term',
          'multi_head_attention projects each head\'s message with its own d rows of W_o and sums the H '
          'products, each with b_o added: the joined product is right but b_o is added H times, the expected '
          'update plus (H - 1) b_o (2 b_o for 3 heads) broadcast to every row',
          'multi_head_attention applies the output projection of page 32 head by head, each head through its '
          'slice of W_o with addmm and the bias, and sums the heads, so the bias is counted once per head.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return sum(torch.addmm(b_o, heads[:, h].reshape(-1, width // num_heads), '
          'W_o[h * width // num_heads:(h + 1) * width // num_heads]) for h in range(num_heads)).view(batch, count, '
          'width)  # (B, N, D)\n'),
    fresh('05_attention', 'attention_output_layer_normed', 'term',
          'multi_head_attention standardizes every row of its update over the D features (mean 0, variance 1, '
          'no learned scale or shift): LN(joined W_o + b_o) instead of joined W_o + b_o',
          'multi_head_attention ends with the normalization after the attention of the original post-LN '
          'Transformer, though ViT normalizes before attention and adds the update as it is (page 34: '
          'U = E + MSA(LN(E))).',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.nn.functional.layer_norm(torch.addmm(b_o, joined.reshape(-1, width), W_o), (width,))'
          '.view(batch, count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_typed_as_doubling', 'term',
          'layer_norm takes the mean of 2 * (x - mean) instead of the mean of (x - mean)^2 as the variance: '
          'that mean is 0 up to rounding, so every centred row is divided by about sqrt(eps) = 0.001 instead of '
          'its standard deviation before the scale and shift: the centred row times about 1,000 (from about 800 '
          'to 1,400 on random rows, as the rounding varies) instead of divided by its standard deviation',
          'layer_norm types centred * 2 for centred ** 2 in the variance of page 34\'s normalization.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = (centred * 2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'erf_replaced_by_tanh', 'activation',
          'mlp computes 0.5 z (1 + tanh(z / sqrt(2))) between its layers instead of GELU 0.5 z (1 + erf(z / '
          'sqrt(2))): tanh without the sqrt(2/pi) (z + 0.044715 z^3) argument of the tanh approximation, e.g. '
          '0.804 instead of 0.841 at z = 1',
          'mlp half-remembers the tanh form of GELU and writes tanh where the exact formula has erf, keeping '
          'erf\'s argument z / sqrt(2).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.tanh(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'attention_sublayer_sliced_away', 'term',
          'block runs only the second sublayer: it returns x + MLP(LN2(x)) instead of U + MLP(LN2(U)) with '
          'U = x + MSA(LN1(x)), the attention update left out',
          'block slices the list of sublayers from index 1, counting its two sublayers (page 36: "attention '
          'update, then MLP update") from one.',
          '    for update, weight, bias in sublayers:\n',
          '    for update, weight, bias in sublayers[1:]:\n'),
    fresh('06_block', 'mlp_bias_typed_as_attention_bias', 'shift term inputs',
          'block gives the MLP the attention\'s output bias b_o as its contraction bias instead of b_2: the '
          'result is the expected one plus (b_o - b_2) broadcast to every row',
          'block\'s call of the MLP names p.b_o, the other (D,) bias of the block, where p.b_2 belongs, in the '
          'long list of BlockParams fields.',
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)\n',
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_o)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'bert_pooler_tanh', 'activation',
          'read_cls passes the normalized CLS through tanh: tanh(LN(x_0)) instead of LN(x_0), every value '
          'squashed into (-1, 1)',
          'read_cls adds the tanh of BERT\'s pooler, which the text model applies to its final CLS (page 19: '
          '"same CLS idea"), though ViT\'s head reads the normalized CLS as it is (page 52).',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return torch.tanh(encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1))  # (B, D)\n'),
    fresh('07_head', 'summary_layer_normed_again', 'inputs',
          'classify standardizes h over its D features (mean 0, variance 1, no learned scale or shift) before '
          'the head: s = LN(h) W_head + b_head instead of h W_head + b_head',
          'classify puts page 52\'s norm inside the head, applying a LayerNorm to the summary that read_cls has '
          'already normalized.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, torch.nn.functional.layer_norm(h, h.shape[-1:]), W_head)  # (B, 1000)\n'),
    fresh('07_head', 'batch_packed_into_one_sequence', 'inputs',
          'vit_forward runs every block on the batch flattened into one sequence of B*(1+N) rows: the tokens '
          'of each image attend to the tokens of every image of the batch, so every image\'s logits are wrong '
          'for a batch of two or more (a batch of one image is right)',
          'vit_forward packs the images of the batch into one long sequence before each block, as text '
          'pipelines pack sentences, without a mask keeping the images apart (page 30: full attention over '
          'one image\'s 197 tokens).',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows.reshape(1, -1, rows.shape[-1]), layer, params.num_heads).view_as(rows)  '
          '# (B, 197, D)\n'),
    fresh('07_head', 'patch_rows_frozen', 'inputs',
          'vit_forward keeps only the CLS row of every block\'s output and the patch rows of its input: the '
          'patch rows stay the embedded ones, so from the second block on CLS attends to un-updated patch rows '
          'and the logits are wrong (a ViT of one block is right)',
          'vit_forward updates only CLS in each block, since the head reads only CLS (page 38), missing that '
          'CLS reads the current patch states at every block (page 22).',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = torch.cat((encoder.block(rows, layer, params.num_heads)[:, :1], rows[:, 1:]), dim=1)  '
          '# (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'default_fill_half_gray', 'fill',
          'cover\'s default fill is 0.5 instead of 0.0: a square covered without an explicit value is set to '
          '0.5 (light gray, RGB 0.75) instead of normalized 0, and so are the covers of quadrant_probabilities '
          'and occlusion_map, which use the default; a cover with an explicit value is right',
          'cover writes mid-gray as 0.5, its value in [0, 1] RGB, as the default fill, missing page 42\'s note '
          'that normalized zero is the gray RGB 0.5.',
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:\n',
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.5) -> Tensor:\n'),
    fresh('08_occlusion', 'quadrants_sorted', 'order',
          'quadrant_probabilities returns the four probabilities sorted in ascending order instead of in the '
          'order top-left, top-right, bottom-left, bottom-right: the right values, in another order unless '
          'they happen to be sorted already',
          'quadrant_probabilities sorts the results so that the biggest drop comes first, as page 43 singles '
          'out the top right, and loses which quarter each probability belongs to.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, target].sort().values  # (4,)\n'),
    fresh('08_occlusion', 'change_per_covered_pixel', 'scale',
          'occlusion_map divides every change by the area of a cover, patch_size ** 2: the expected map times '
          '1/256 for 16-pixel patches',
          'occlusion_map reports the change per covered pixel, to compare covers of different sizes (page 44: '
          '"would smaller covers tell us more?"), instead of the change of the target\'s probability.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return ((probs - base) / patch_size ** 2).view(side, side)  '
          '# row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'change_reduced_to_sign', 'activation',
          'occlusion_map returns the sign of every change, -1, 0 or 1, instead of the change itself',
          'occlusion_map keeps only what page 44\'s colours show, red where the probability falls and blue '
          'where it rises, and returns sign(change) for the map.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).sign().view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
