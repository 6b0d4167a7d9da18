"""A thirty-second blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the lecture alone,
WITHOUT reading the grader, the catalogue, or any other set of mistakes: a mistake an earlier set holds may well
appear again here, as a class's submissions repeat each other's. The emphasis is on students who know Python but are
new to PyTorch: axes and dim arguments, defaults, broadcasting, reshape versus permute, in-place operations,
indexing, off-by-one, and misreadings of the stubs' docstrings.

Files opened: /tmp/blind_prompt_32.md (the brief); tests/mutants/independent/01_flatten.py, 02_project.py,
03_position.py, 04_cls.py, 05_attention.py, 06_block.py, 07_head.py, 08_occlusion.py (whole); exercises/01_flatten.py,
02_project.py, 03_position.py, 04_cls.py, 05_attention.py, 06_block.py, 07_head.py, 08_occlusion.py (whole);
/work/shared/lecture/vision1-transcript.md (whole); tests/mutants/fresh.py lines 1-70 (up to and including the line
`FRESH = [`, found with grep -n); pyproject.toml lines 56-74 (the [tool.ruff], [tool.ruff.lint] and
[tool.ruff.lint.per-file-ignores] sections, to the end of the file, found with grep -n "tool.ruff"). Besides these,
only directory listings of tests/mutants/independent/ and exercises/, and `wc -l pyproject.toml`.

How the set was checked (throwaway scripts in /tmp/blind32work/, outside the repository): a stand-in `grader` module
there supplies `earlier_step` (the unedited independent step, loaded from its text) and `ViTParams`/`BlockParams`
dataclasses with the fields the code reads. Each `old` occurs exactly once in its step file. Each edited step was
loaded from its text and every function of the step run against the original on random inputs at the lecture's
sizes (224 x 224 images, 16-pixel patches, D = 192, 3 heads, 1000 classes, 2 blocks, batch 2) and at a small size
(32 x 32, 8-pixel patches, D = 24, 2 heads, 10 classes, 2 blocks, batch 2); occlusion functions used a stand-in
classifier (4 x 4 average pooling, then a random linear map to the classes, logits std about 3) with the predicted
class and the runner-up as targets. Every edit changes its function's results (values, type, shape or raising) at
both sizes, except three that by their nature show only away from the lecture's numbers and do show at the small
size: embed_default_patch_size (patch size 8), attention_weights_divide_by_eight (d = 12) and vit_forward_three_heads
(2 heads); none is hidden. Only the two entries claiming 'input' change an input in place; no two entries give the
same results on all functions of their step (a first draft's `params.blocks[1:]` was replaced because, with two
blocks, it equals vit_forward_blocks_read_embedding). Each `structure` statement and claim was checked numerically
(e.g. the exact factor 0.5, the exact shift by -b_E or by base - 1, the permutations of patches, rows and
quadrants, the subset covered by the wrong slice, columns summing to one). Finally `ruff check` on this file and
the import check of the brief passed, with 32 entries.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND32 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'normalize_forgot_divide', 'scale',
          "normalize returns x / 255 - 0.5, in [-0.5, 0.5]: exactly 0.5 times the expected (x / 255 - 0.5) / 0.5 on "
          "every pixel (0 gives -0.5 and 255 gives 0.5 instead of -1 and 1).",
          "The student follows page 8 ('RGB to [0,1], subtract 0.5 and divide by 0.5'), converts to float and "
          "subtracts 0.5, then forgets the division by 0.5, believing the subtraction already gives [-1, 1].",
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'patchify_reshape_not_permute', 'order',
          "The (B, C, rows, cols, P, P) tiles are reshaped, not permuted, to (B, rows, cols, C, P, P), so the final "
          "rows cut the channel-major order every 3*P*P values: row 0 holds the R pixels of P1, P2 and P3, the first "
          "third of the rows hold only R values, the next third only G, the last only B. The same values as the "
          "expected patches, in another order (checked at 224/16 and 32/8).",
          "Used to NumPy-style reshaping but not yet to the difference between reshape and permute, the student wants "
          "the channel axis after the grid axes and writes reshape with the target shape, believing it moves the "
          "axis.",
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.reshape(B, H // P, W // P, C, P, P)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'patchify_columns_first', 'order',
          "The two grid axes are swapped (permute(0, 3, 2, 1, 4, 5)), so the patches are numbered column by column: "
          "output row r * cols + c is the patch at grid row c, column r. Each patch is still flattened correctly; "
          "only the patch rows are in another order (the patches on the diagonal stay in place).",
          "The student mixes up which unfold axis holds the grid rows and which the grid columns, and puts the "
          "column axis first when moving the channel axis back, so P2 comes from below P1 instead of from its right "
          "(page 7: patches are ordered row by row).",
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 3, 2, 1, 4, 5)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'count_tokens_true_division', 'type',
          "per_side = image_size / patch_size is a float, so count_tokens returns 197.0 instead of 197 (196.0 "
          "without CLS, 17.0 for 32/8): the right number, but a float instead of an int. The ValueError guard still "
          "works.",
          "Writing '224 / 16 = 14' as on page 7, the student uses / and does not notice that Python 3 gives a float "
          "even when the division is exact.",
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size / patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_to_linear_reshape_not_transpose', 'order',
          "The (D, 3*P*P) kernels are reshaped to (3*P*P, D) instead of transposed: the right shape and the same "
          "values, but W_E[i, j] is the weight at flat position i * D + j of the kernels, so column d is no longer "
          "kernel d (row 0 of W_E holds the first D weights of kernel 0).",
          "The docstring asks for (3*P*P, D) from (D, 3, P, P); the student reaches for reshape with the wanted "
          "shape, as one does to change a shape, not seeing that moving the output axis last (page 10: PyTorch "
          "keeps it first) is a transpose that reorders the values.",
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'conv_to_linear_pixel_major', 'order',
          "Each kernel is read pixel-major (R, G, B of pixel 1, then of pixel 2, ...) instead of channel-major, so "
          "the rows of W_E are permuted: row 3 * (i * P + j) + c holds what the expected W_E holds in row "
          "c * P * P + i * P + j. Same values, rows in another order, which no longer match patchify's rows.",
          "Thinking of a pixel as an (R, G, B) triple, the student moves the channel axis last before flattening, "
          "missing that patchify flattens channel-major (page 9: all R, then all G, then all B) and that column d "
          "must be read in the same order.",
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, 3*P*P)\n'),
    fresh('02_project', 'project_functional_linear', 'shape',
          "torch.nn.functional.linear(patches, W_E, b_E) computes patches @ W_E.T + b_E and expects a (D, 3*P*P) "
          "weight; with the lecture's W_E of shape (3*P*P, D) the product fails (392x768 and 192x768 at 224/16, "
          "32x192 and 24x192 at 32/8).",
          "The student knows nn.Linear and calls its functional form for 'x W_E + b_E', not realising that it takes "
          "the weight in PyTorch's (out, in) layout (page 10: PyTorch stores the Linear weight transposed), while "
          "the stub's W_E is (in, out).",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.linear(patches, W_E, b_E)  # (B, N, D)\n'),
    fresh('02_project', 'project_no_bias', 'term shift',
          "b_E is left out: every row is x_i W_E, the expected result minus the same bias row b_E on every patch of "
          "every image.",
          "Writing C = X W_E from page 12 as an einsum, the student drops the '+ b_E', thinking the product is the "
          "projection and the bias an optional extra.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'add_position_concatenated', 'shape',
          "The table is concatenated to the tokens along the feature axis: (B, N, 2D) instead of (B, N, D) (384 "
          "features instead of 192 at the lecture's size, 48 instead of 24 at the small size).",
          "Reading 'combine WHAT and WHERE', the student uses torch.cat, missing page 16: corresponding coordinates "
          "are added, not concatenated, and the width stays D.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, D)\n'),
    fresh('03_position', 'add_position_in_place', 'input',
          "tokens.add_(table) writes the sum into the caller's tokens and returns that same tensor: the values are "
          "right, but the input is changed in place.",
          "New to PyTorch, the student picks the method add_ because it 'adds the table', not knowing that the "
          "trailing underscore means in place.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens.add_(table)  # (B, N, D)\n'),
    fresh('03_position', 'add_position_row_per_image', 'term',
          "Image b gets row b of the table on every token: result[b, i] = tokens[b, i] + pos_table[b] instead of "
          "tokens[b, i] + pos_table[i]. The position term is the wrong row everywhere except token 0 of image 0 and "
          "token 1 of image 1.",
          "The student lines the table up with the batch axis, reading 'give token i of every image row i' as "
          "'image i gets row i', and gives pos_table[:batch] a token axis of size 1 so that it broadcasts.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:batch].unsqueeze(1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'add_position_repeat_interleave', 'term',
          "repeat_interleave repeats each table row batch times in a row before the view, so token i of image b "
          "gets row (b * N + i) // B: with B = 2, image 0 reads rows 0, 0, 1, 1, 2, ... and image 1 the second half "
          "of the table twice over. Only the first token of the first image and the last token of the last image "
          "get their own row.",
          "The student wants one copy of the table per image, takes repeat_interleave for repeat (a common mix-up) "
          "and views the result as (B, N, D), believing the copies lie one whole table after another.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.repeat_interleave(batch, dim=0).view(batch, *pos_table.shape)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'prepend_cls_appended_last', 'order',
          "CLS goes to the end: rows 0..N-1 are P1..PN and row N is CLS, instead of CLS in row 0 followed by the "
          "patches. The same rows in another order; in embed the position rows then meet the wrong tokens.",
          "Used to appending to a list, the student writes torch.cat((tokens, start)), missing 'row 0 is CLS' "
          "(pages 20 and 52: CLS is prepended at token index zero).",
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_default_patch_size', 'shape',
          "patchify is called without params.patch_size, so it always cuts 16-pixel patches: identical for P = 16, "
          "but for a model with 8-pixel patches it gives (B, H*W/256, 768) rows that do not fit W_E (192, 24), and "
          "the projection fails.",
          "patchify's patch_size defaults to 16 and the lecture always uses 16 (page 7), so the student leaves the "
          "argument out when chaining the steps, though the docstring says embed reads params.patch_size.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs',
          "The images, already normalized, are normalized again: embed works on 2 * (x / 255) - 1 = x / 127.5 - 1, "
          "values squeezed close to -1, instead of on x.",
          "Chaining the steps from step 1, the student starts with normalize as in the pipeline of page 8, missing "
          "that embed receives images that are already normalized (docstring: 'images: (B, 3, H, W), normalized').",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'embed_no_position', 'term',
          "The position table is never added: the result is the expected one minus pos_table (a different row for "
          "every token, the same rows for every image).",
          "After prepending CLS the student returns the sequence, forgetting the last stage of page 23 (prepend CLS, "
          "then add a position vector to each of the 197 rows).",
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return sequence  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_heads_no_bias', 'term shift',
          "b_qkv is left out of the product: q, k and v each lack their bias, so each is the expected one minus the "
          "same bias row (its D-wide slice of b_qkv, split into heads) on every token of every image.",
          "Page 26 writes q_i = LN(e_i) W_Q with the biases only in parentheses; the student computes the product "
          "x W_qkv alone and never adds b_qkv.",
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.mm(x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n'),
    fresh('05_attention', 'attention_weights_normalized_over_columns', 'axis',
          "The exponentials are divided by their column sums (dim=-2) instead of their row sums: each source column "
          "sums to 1 and the receiver rows do not. As the row maxima were subtracted first, the result is not even "
          "the column softmax of the scores: weights[i, j] = exp(s_ij - max_k s_ik) / sum_m exp(s_mj - max_k s_mk).",
          "Unsure whether 'over the keys' is dim=-1 or dim=-2, the student normalizes along dim=-2, the receivers' "
          "axis, though page 31 and the docstring ask that each receiver's row sum to one.",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-2, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'attention_weights_divide_by_eight', 'term',
          "The scores are divided by a fixed 8 instead of sqrt(d): right for the lecture's heads (d = 64), wrong "
          "for any other head width, e.g. d = 12 in the small model, where the scores are sqrt(12) / 8 = 0.43 times "
          "the right ones and the weights too flat.",
          "Page 28 says 'q_74 dot k_60 divided by 8', so the student hard-codes 8 instead of computing the square "
          "root of the head width from q.",
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / 8.0  # (B, H, N, N)\n'),
    fresh('05_attention', 'multi_head_attention_reshape_not_permute', 'order',
          "The heads (B, H, N, d) are reshaped to (B, N, D) without first moving the head axis after the token "
          "axis, so the joined rows hold the right messages in another order: joined row 0 holds head 1's messages "
          "of tokens 0, 1 and 2 (H = 3) instead of token 0's messages from heads 1, 2 and 3. The output projection "
          "then mixes these scrambled rows.",
          "To join each row's messages side by side (page 32) the student reshapes (B, H, N, d) straight to "
          "(B, N, H*d), since reshape gives the right shape, and leaves out the permute.",
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_norm_unbiased_var', 'term',
          "x.var uses the unbiased variance (divide by D - 1) by default, so before weight and bias the normalized "
          "rows are sqrt((D - 1) / D) times the right ones: (result - bias) = 0.9974 (D = 192) or 0.9790 (D = 24) "
          "times (expected - bias). Close, but with a non-zero bias not every value is within a few per cent of its "
          "own expected value.",
          "The student replaces the hand-written variance with x.var(dim=-1, keepdim=True), not knowing that "
          "torch.var defaults to the unbiased estimator the docstring rules out ('divide by D, not D - 1').",
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.var(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'layer_norm_mean_dim_one', 'axis',
          "The mean is taken over dim=1 instead of the last axis: for (B, N, D) input each feature is centred over "
          "the tokens of its image, and the spread is then taken of these wrongly centred rows. For 2-D input (N, D) "
          "dim 1 is the last axis and the result is right, so the docstring example still passes.",
          "Thinking of the features as 'dimension 1', as in a 2-D matrix of rows, the student writes mean(dim=1), "
          "which is the token axis once the batch axis is in front.",
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=1, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'mlp_erf_without_root_two', 'activation',
          "GELU is computed as 0.5 z (1 + erf(z)) = z Φ(√2 z) instead of z Φ(z): a different, steeper nonlinearity "
          "(z = 1 gives 0.92 instead of 0.84); both linear layers are right.",
          "The student writes Φ(z) from memory as (1 + erf(z)) / 2, forgetting that the standard normal CDF needs "
          "erf(z / √2) (docstring: Φ is the standard normal CDF, which torch.erf gives you).",
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden))  # z·Φ(z)\n'),
    fresh('06_block', 'block_residual_from_input', 'inputs term',
          "Each sublayer's update is added to the block input x instead of the running stream, so the result is "
          "x + MLP(LN2(U)) with U = x + MSA(LN1(x)): the expected E_next minus the attention update (the MLP still "
          "reads U).",
          "The student reads page 34 ('add it to the receiving token's original embedding') as 'add every update to "
          "the block's input' and writes x + update(...) in the loop, the mistake the docstring and page 35 warn "
          "against.",
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = x + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'read_cls_no_final_norm', 'term',
          "The final LayerNorm is left out: read_cls returns the raw row 0, x[:, 0], instead of LN(x)[:, 0].",
          "Pages 38 and 50 leave the normalization out of their diagrams, so the student only slices out CLS, "
          "forgetting the norm(x) of page 52 that the docstring names first.",
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'classify_softmax', 'activation',
          "A softmax over the classes is applied to the scores: each row sums to 1 and holds probabilities instead "
          "of the logits h W_head + b_head (the argmax is unchanged).",
          "Page 39 shows 'softmax across classes, 1,000 probabilities' right after the head, so the student adds "
          "it, missing the docstring's 'return logits: no softmax' (page 52).",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'vit_forward_blocks_read_embedding', 'inputs term',
          "Every block reads the embedding x instead of the previous block's output, so only the last block's work "
          "survives: the logits are head(norm(last_block(embed(images)))), every earlier block left out.",
          "In the loop the student passes x, the name of the embedded sequence, to each block while storing the "
          "result in rows, a classic loop slip: the blocks should run one after another (page 36).",
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'vit_forward_three_heads', 'term',
          "The blocks always run with 3 heads: right for the lecture's model (H = 3), but a model with another head "
          "count (2 heads of 12 features in the small model) is computed with 3 heads of D / 3 features, giving "
          "other attention weights and other logits.",
          "The lecture always has three heads (page 32), so the student writes 3 instead of params.num_heads, "
          "though the docstring asks to read every size from params.",
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, 3)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_without_clone', 'input',
          "Without clone, result shares memory with images: the square is written into the caller's tensor, which "
          "cover then returns. The returned values are right, but the input is changed (and in "
          "quadrant_probabilities and occlusion_map the covers pile up on the one image).",
          "The student takes detach() for 'a separate copy' and drops the clone() of page 42 "
          "(covered = x.clone()).",
          "    result = images.detach().clone()  # the caller's images stay as they were\n",
          "    result = images.detach()  # the caller's images stay as they were\n"),
    fresh('08_occlusion', 'cover_slice_end_as_size', 'part',
          "The slices end at size instead of top + size and left + size: only rows top..size-1 and columns "
          "left..size-1 are filled, a part of the square, nothing when top >= size or left >= size (e.g. the "
          "bottom-right quarter). Covers at (0, 0) are right, and the rest of the image is always right.",
          "Reading a slice as start:length, the student writes top:size, which matches the top-left examples of "
          "page 42 (:112) and of the docstring, and nothing else.",
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:size, left:size] = value\n'),
    fresh('08_occlusion', 'quadrant_probabilities_columns_first', 'order',
          "The comprehension loops over left first, so the covers come top-left, bottom-left, top-right, "
          "bottom-right: the second and third probabilities (top-right and bottom-left) are swapped, the first and "
          "last are right.",
          "Nested comprehension order is easy to get backwards: the student writes 'for left ... for top ...', "
          "reading the quarters down then across, while the docstring and page 43 list TL, TR, BL, BR.",
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h) for left in (0, half_w) for top in (0, half_h)])\n'),
    fresh('08_occlusion', 'occlusion_map_base_softmax_over_batch', 'shift axis',
          "The uncovered logits have a batch of one, and softmax over dim=0 gives 1.0 for every class, so base is 1 "
          "and every cell is probs - 1: the expected map plus one constant, base - 1 (e.g. -0.29 for a target of "
          "probability 0.71).",
          "The student writes the softmax axis as dim=0, thinking of 'the probabilities of this one image', without "
          "noticing that axis 0 is the batch axis (page 42: softmax(-1)).",
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(image), dim=0)[0, target]  # the uncovered probability\n'),
]
