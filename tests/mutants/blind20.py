"""A twentieth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or the other sets of mistakes beyond their format and
what was needed to avoid repeats. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py, exercises/01_flatten.py ... 08_occlusion.py, the lecture transcript (printed whole, then
the lines the first printout had cut short printed again), tests/mutants/fresh.py up to and including its
line `FRESH = [` (the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper), parts of
tests/mutants/blind17.py (its first 80 and last 30 lines) and blind18.py (lines 1-40 and 60-120), for the
format, and the lines of pyproject.toml that a grep for "ruff" (with 15 lines after each hit) showed (the
line length of 120, the lint selection and the per-file ignores). To leave out every mistake the earlier
sets hold, blind.py, blind2.py ... blind18.py (named one by one) were loaded by a throwaway script outside
the repository with a stand-in `fresh`, and the step, name, claims, old and new text of every entry were
printed, sorted by step and line, and read whole; a grep over tests/mutants/blind*.py for five names
(first_table_row, table_centred, row_per_image, first_image_tokens, row_zero_unpositioned) printed those
entries in full. That glob could have taken in blind19.py had it existed by then; no line of it was
printed. Directory listings of tests/mutants/, tests/mutants/independent/ and exercises/ (with a line
count of blind*.py) showed the names of the other files there (catalogue.py, novel.py, unseen.py and
__init__.py among them), which were not opened; blind19.py was not in the first listing, appeared by name
in a last listing, and was neither opened nor searched on purpose. Nothing under grader/, no catalogue,
no other mutant set, no other test, no docs, solutions or fixtures were opened, no git command was run
and the kit's grader and tests were not run. The check of this set (a throwaway script outside the
repository) loaded the independent steps from their source text with a stand-in for the `grader` import
(its `earlier_step` and the `ViTParams` and `BlockParams` classes), read this file with a stand-in `fresh`,
applied every edit (its old text found exactly once), compared each function with the original on inputs
at the lecture's sizes and at smaller ones, and checked every `structure` below; it did not import the
kit's grader or mutants package. Last, ruff and a bare import of this module (which loads
mutants/fresh.py) were run on it.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (three of them return the wrong
shape or fail), with what is really wrong (`structure`) and the kinds of structure its error truly has
(`claims`). The two marked hidden=True are right at the lecture's own sizes (224 x 224 images, 16-pixel
patches, 14 patches per side) and only a test with other sizes can show them. Two more (the two batch
orderings) are right for a batch of one image and need a batch of two or more: their `structure` says so.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND20 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'floor_division_for_division', 'activation',
          'normalize divides by 0.5 with //, the floor division: floor((s - 0.5) / 0.5) instead of (s - 0.5) / 0.5, '
          'so every value is rounded down to -1, 0 or 1 (-1 for every pixel below mid-gray, 0 from mid-gray up, 1 '
          'only for 255); only the values that are already integers (0 and 255) are right',
          'normalize writes page 8\'s "subtract 0.5 and divide by 0.5" with //, the integer division of Python '
          'habits, on the [0, 1] values.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - 0.5) // 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'channels_read_as_bgr', 'order',
          'patchify reverses the channel axis before cutting the patches: every patch row holds its B values '
          'first, then G, then R, instead of R, G, B; the patches are in the right order and each channel block '
          'is right, the three blocks of every row are in another order',
          'patchify takes the image tensor for OpenCV\'s BGR order and flips the channels "back to RGB" before '
          'page 9\'s R, G, B flattening, though the images are already RGB.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.flip(1).unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'attention_scores_counted', 'term',
          'count_tokens returns the square of the token count: 38,809 instead of 197 for 224 and 16, 38,416 '
          'instead of 196 without CLS, 2,500 instead of 50 for 32-pixel patches; the divisibility check still '
          'raises',
          'count_tokens mixes up the number of tokens with page 49\'s number of attention scores ("197 squared '
          'is 38,809") and squares the count.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return (per_side * per_side + (1 if cls else 0)) ** 2\n'),
    fresh('01_flatten', 'image_side_224_hardcoded', 'term',
          'count_tokens divides the lecture\'s 224 by patch_size instead of image_size: right for 224 x 224 '
          'images with any patch size (197, 50, 785 for 16, 32, 8), wrong for every other image size, e.g. 197 '
          'instead of 17 for a 64-pixel image with 16-pixel patches; the divisibility check still uses '
          'image_size',
          'count_tokens copies page 48\'s "for a 224 by 224 image" count, 224 / P patches per side, with the '
          'lecture\'s image side written in instead of the image_size argument.',
          '    per_side = image_size // patch_size\n',
          '    per_side = 224 // patch_size\n',
          hidden=True),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_rows_upside_down', 'order',
          'conv_to_linear reverses the pixel rows of every kernel (row P-1 first) before flattening: W_E has the '
          'right shape and every column holds its own kernel\'s weights, but within each channel block the rows '
          'are upside down, so they meet the wrong pixels of patchify\'s rows',
          'conv_to_linear flips the kernel\'s row axis, taking kernel row 0 for the bottom row as in a plot '
          'whose y axis points up, while patchify reads the pixels row by row from the top (page 9).',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(2).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'bias_inside_the_sum', 'shift term',
          'project adds b_E once for every one of the 3*P*P pixel terms it sums: X W_E + 768 b_E instead of '
          'X W_E + b_E for 16-pixel patches, the expected result plus 767 b_E broadcast to every row',
          'project writes the affine map as c_d = sum over k of (x_k W_kd + b_d), putting page 10\'s bias inside '
          'the sum over the 768 pixel values instead of after it.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (patches.unsqueeze(-1) * W_E + b_E).sum(dim=2)  # (B, N, D)\n'),
    fresh('02_project', 'patches_normalized_again', 'inputs',
          'project maps 2 x - 1 of the patch values instead of x: 2 X W_E - (the column sums of W_E) + b_E '
          'instead of X W_E + b_E, every content vector computed from patches whose values are doubled and '
          'shifted (in [-3, 1])',
          'project applies page 8\'s normalization, (x - 0.5) / 0.5 = 2 x - 1, to its input as if the patch '
          'rows were still in [0, 1], though patchify\'s rows come from images that are normalized already.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches * 2.0 - 1.0, W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'sequence_first_then_reshaped', 'order',
          'project computes the rows token-first, (N, B, D), and reshapes that to (B, N, D) instead of moving '
          'the batch axis back: the right content vectors in another order, row n of image b holding the '
          'vector of patch (b*N + n) // B of image (b*N + n) % B, so the images of a batch are interleaved '
          '(a batch of one image is right)',
          'project puts the token axis first, as sequence-first attention code does, and then restores the '
          'batch axis with reshape instead of a transpose (page 12 leaves the batch axis out).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->nbd", patches, W_E).reshape(patches.shape[0], patches.shape[1], -1) '
          '+ b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_flattened_to_drop_a_batch_axis', 'shape',
          'add_position flattens the (N, D) table into one vector of N*D numbers, (B, 1, N*D) once expanded, '
          'which cannot be added to (B, N, D) tokens: the call fails',
          'add_position drops the leading 1 of the checkpoint\'s (1, 197, 192) pos of page 52 with flatten(0, 1), '
          'not seeing that the table it receives is already (N, D).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.flatten(0, 1).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for '
          'every image\n'),
    fresh('03_position', 'position_collapsed_to_a_number', 'term',
          'add_position adds to every feature of token i the mean of row i of the table, one number per token, '
          'instead of the vector p_i: c_i + mean(p_i) instead of c_i + p_i',
          'add_position treats a position as one number per token (page 15\'s "row 5, column 7" as a single '
          'location value) and reduces each row of the table to its mean before adding it.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table.mean(dim=-1, keepdim=True))  # (B, N, D)\n'),
    fresh('03_position', 'table_normalized_like_the_pixels', 'term',
          'add_position applies the pixel normalization (p - 0.5) / 0.5 = 2 p - 1 to the table before adding it: '
          'the position term is 2 p_i - 1 instead of p_i',
          'add_position normalizes the learned table the way page 8 normalizes the pixels, as if every stored '
          'input of the model were a [0, 1] image, though the table is used as it is stored (page 17: at '
          'inference the table stays fixed).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = ((pos_table - 0.5) / 0.5).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for '
          'every image\n'),
    fresh('03_position', 'coordinatewise_maximum', 'term',
          'add_position keeps, in every coordinate, the larger of the content value and the position value '
          'instead of their sum: max(c_i, p_i) instead of c_i + p_i',
          'add_position reads page 16\'s "we add corresponding coordinates, not concatenate them" as combining '
          'the two vectors coordinate by coordinate and keeps the stronger one, as max pooling merges feature '
          'maps.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.maximum(tokens, table)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_prepended_and_added_to_patches', 'part term',
          'prepend_cls puts CLS in front and also adds it to every patch token: row 0 is right, rows 1..N are '
          'the patch tokens plus the CLS vector',
          'prepend_cls reads page 20\'s "every image starts with the same learned CLS vector" as every token '
          'starting from it, and adds it to the patch tokens as well as putting it at index 0.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens + start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_features_activated', 'part activation',
          'embed passes the projected patch features through GELU before CLS and position are added: rows '
          '1..N are GELU(c_i) + p_i instead of c_i + p_i; row 0 (CLS plus its position) is right',
          'embed follows the patch projection with a GELU, believing every learned layer is followed by an '
          'activation as in the MLP (page 35), though page 10 says no activation follows the patch projection.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = torch.nn.functional.gelu(projection.project(patches, params.W_E, params.b_E))  '
          '# (B, N, D)\n'),
    fresh('04_cls', 'images_standardized_per_image', 'part inputs',
          'embed standardizes every image on its own (minus its mean over channels and pixels, divided by its '
          'standard deviation) before cutting the patches: every patch row is computed from rescaled and '
          'shifted pixels, so rows 1..N are wrong; row 0 (CLS plus its position) is right',
          'embed adds TensorFlow\'s per_image_standardization, the preprocessing of other image pipelines, on '
          'images that page 8\'s normalization has already mapped to [-1, 1].',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images - images.mean(dim=(1, 2, 3), keepdim=True)) '
          '/ images.std(dim=(1, 2, 3), keepdim=True), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'patch_size_from_fourteen_patches', 'shape',
          'embed cuts patches of side image width // 14 instead of params.patch_size: right whenever the image '
          'is 14 patches wide, as the lecture\'s 224 // 14 = 16; for other sizes (e.g. 64 x 64 images with '
          '16-pixel patches, patches of 4 pixels) the patch rows have the wrong length for W_E and the call '
          'fails',
          'embed computes the patch side from page 7\'s "224 / 16 = 14 patches per side" as the image side '
          'divided by 14, instead of reading params.patch_size.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images, images.shape[-1] // 14)  # (B, N, 3*P*P)\n',
          hidden=True),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'rows_flattened_token_major', 'order',
          'qkv_heads flattens x token by token, (N, B) order, and the view that follows reads the rows image by '
          'image: q, k and v hold the right projected rows in another order, row n of image b being the row '
          'of token (b*N + n) // B of image (b*N + n) % B, so the images of a batch are interleaved (a batch of '
          'one image is right)',
          'qkv_heads transposes x to the (N, B, D) sequence-first layout of nn.MultiheadAttention before '
          'flattening, while its view back to (B, N, 3, H, d) is image-major.',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.addmm(b_qkv, x.transpose(0, 1).reshape(-1, width), W_qkv)  # (B*N, 3D)\n'),
    fresh('05_attention', 'cls_source_masked', 'term',
          'attention_weights gives every receiver weight 0 on source 0 (CLS) and renormalizes its weights over '
          'the other sources: column 0 is zero and every other weight is too large by the factor '
          '1 / (1 - a_i0)',
          'attention_weights keeps CLS out of the sources, taking it for a readout that only gathers (page 31), '
          'though page 30 allows every pair, CLS included, and page 22 has CLS and the patches exchange '
          'information in both directions.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = scores.exp() * (torch.arange(scores.shape[-1]) > 0)  # (B, H, N, N)\n'),
    fresh('05_attention', 'scores_as_negative_distances', 'term',
          'attention_weights scores every pair by minus the Euclidean distance between query and key, '
          '-|q_i - k_j| / sqrt(d), instead of the dot product q_i . k_j / sqrt(d): every row softmaxes the wrong '
          'scores',
          'attention_weights "compares" each query with the keys (page 31) by how near they are, nearer meaning '
          'a larger score, instead of page 28\'s dot product.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = -torch.cdist(q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'keys_and_values_unpacked_swapped', 'inputs',
          'multi_head_attention swaps keys and values: the scores compare the queries with the value vectors '
          'and the weights mix the key vectors, so every head\'s messages are wrong',
          'multi_head_attention unpacks qkv_heads\' three results as q, v, k, misremembering the order of the '
          '[q | k | v] blocks.',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)\n',
          '    q, v, k = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'gelu_parentheses_dropped', 'activation',
          'mlp\'s activation is z / 2 + erf(z / sqrt 2) instead of z / 2 * (1 + erf(z / sqrt 2)) = z Phi(z): the '
          'erf term is added instead of multiplied, so every hidden value and the MLP update are wrong',
          'mlp types GELU = 0.5 z (1 + erf(z / sqrt 2)) without the parentheses around 1 + erf(...).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * 1.0 + torch.erf(hidden / math.sqrt(2.0))  # z·Φ(z)\n'),
    fresh('06_block', 'quick_gelu_from_clip', 'activation',
          'mlp uses the sigmoid approximation z sigmoid(1.702 z) instead of exact GELU z Phi(z): close for most '
          'z but off by up to about 0.02 per hidden unit, so the MLP update is slightly wrong everywhere',
          'mlp copies the QuickGELU of CLIP\'s released code, z * sigmoid(1.702 z), instead of z Phi(z) with '
          'torch.erf (the stub warns that approximations are not close enough).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * torch.sigmoid(1.702 * hidden)  # z·Φ(z)\n'),
    fresh('06_block', 'mlp_reads_block_input', 'inputs',
          'block computes the MLP update from the block\'s raw input x instead of LN2 of the attention-updated '
          'rows: E_next = U + MLP(x) instead of U + MLP(LN(U))',
          'block\'s feed closure uses the outer x instead of its own argument, so the MLP reads the incoming, '
          'un-normalized rows and not the attention-updated ones (page 35).',
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)\n',
          '        return mlp(x, p.W_1, p.b_1, p.W_2, p.b_2)\n'),
    fresh('06_block', 'norms_without_learned_scale_and_shift', 'inputs term',
          'block normalizes the rows before each sublayer without LN1\'s and LN2\'s learned weights and biases '
          '(and with eps 1e-5): attention and the MLP read (x - mean) / std instead of that times ln_weight '
          'plus ln_bias, so both updates are wrong',
          'block calls PyTorch\'s functional layer_norm with only the normalized shape, as for a parameter-free '
          'normalization, so the ln1 and ln2 parameters in p are never used.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream + update(torch.nn.functional.layer_norm(stream, stream.shape[-1:]))  '
          '# (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_with_residual', 'term',
          'read_cls returns CLS + LN(CLS) instead of LN(CLS): the un-normalized final CLS is added to the '
          'normalized one',
          'read_cls wraps the final LayerNorm in a residual, like the pre-LN sublayers U = E + MSA(LN(E)) of '
          'page 34, adding the incoming CLS back to its normalized form.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return (summary + encoder.layer_norm(summary, norm_weight, norm_bias)).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'logits_unit_length', 'term',
          'classify divides each image\'s logits by their Euclidean norm: every row of scores is scaled by its '
          'own factor 1 / |s|, so the ranking is kept but the values are far too small',
          'classify normalizes the scores, reading page 52\'s "1,000 unnormalized class scores" as a step left '
          'to do.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.nn.functional.normalize(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'images_normalized_again', 'inputs',
          'vit_forward runs the whole model on 2 x - 1 of the already normalized images (values in [-3, 1]): '
          'every patch row, hence every logit, is computed from the wrong pixels',
          'vit_forward applies page 8\'s normalization again, in its 2 x - 1 form, taking "the whole ViT" to '
          'start from [0, 1] pixels, though its images are normalized already.',
          '    x = embedding.embed(images, params)  # (B, 197, D)\n',
          '    x = embedding.embed(images * 2.0 - 1.0, params)  # (B, 197, D)\n'),
    fresh('07_head', 'embedding_added_to_encoder_output', 'inputs term',
          'vit_forward reads the final CLS from the last block\'s rows plus the embedding: the head sees '
          'LN(x_CLS + e_CLS) instead of LN(x_CLS), the starting embedding counted twice',
          'vit_forward adds the original embedding to the encoder\'s output (page 34: "original embedding + '
          'projected message = updated embedding"), not seeing that every block\'s residual has kept it '
          'already.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows + x, params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'square_indexed_with_index_tensors', 'part',
          'cover indexes the rows and the columns with two index tensors, which pair up element by element: '
          'only the square\'s diagonal pixels (top + i, left + i) get `value`, the rest of the square keeps the '
          'image; outside the square everything is right',
          'cover builds the square\'s rows and columns with torch.arange, as NumPy index arrays, not knowing '
          'that two index tensors are paired, not crossed.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, torch.arange(top, top + size), torch.arange(left, left + size)] = value\n'),
    fresh('08_occlusion', 'halves_by_true_division', 'shape',
          'quadrant_probabilities halves the sides with /, so the quarter side is a float (112.0) and a float '
          'cannot be a slice index: cover raises a TypeError and nothing is returned',
          'quadrant_probabilities writes H / 2 for "H/2 x H/2" (the stub\'s wording) where slicing needs the '
          'integer division //.',
          '    half_h, half_w = height // 2, width // 2\n',
          '    half_h, half_w = height / 2, width / 2\n'),
    fresh('08_occlusion', 'baseline_of_top_class', 'shift term',
          'occlusion_map subtracts the uncovered probability of the model\'s top class instead of the '
          'target\'s: every cell is off by the same constant P(target) - P(top class) (right only when the '
          'target is the top class)',
          'occlusion_map takes "the original probability" for the model\'s top prediction, as on page 40 where '
          'Newfoundland is both, and forgets to read it at target.',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(image), dim=-1)[0].max()  # the uncovered probability\n'),
    fresh('08_occlusion', 'log_probability_change', 'activation',
          'occlusion_map returns the change of log-probability, log(p_covered) - log(p_original), instead of '
          'the change of probability p_covered - p_original',
          'occlusion_map measures the drop in log-probability, as attribution methods that work with '
          'log-likelihoods do, instead of page 44\'s probability change.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs.log() - base.log()).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
