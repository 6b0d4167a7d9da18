"""A thirty-third blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the
lecture alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes: so a mistake an
earlier set holds may well appear again, as a class's submissions repeat each other's. The emphasis is on
misunderstandings of the lecture's ideas by a student who attended but did not follow every detail (what
each quantity is, which axis, which input, what is added where, what is measured).

Files opened: the brief (/tmp/blind_prompt_33.md); tests/mutants/independent/01_flatten.py ...
08_occlusion.py (all eight, whole); exercises/01_flatten.py ... 08_occlusion.py (all eight, whole);
/work/shared/lecture/vision1-transcript.md (whole); tests/mutants/fresh.py lines 1-70 only, up to and
including the line `FRESH = [` (its line number found with grep first); the [tool.ruff], [tool.ruff.lint]
and [tool.ruff.lint.per-file-ignores] sections of pyproject.toml; directory listings (and line counts) of
tests/mutants/independent/ and exercises/. Nothing else in /work/main was opened, listed or searched.

How the set was checked (throwaway scripts in /tmp/blind33work/, outside the repository): a stand-in
`grader` module supplies `earlier_step` (the unedited independent step, loaded from its text) and
dataclass stand-ins for `ViTParams` and `BlockParams`. Each entry's `old` was checked to occur exactly
once in its step file; each edited step was loaded from its source text and every function of the step
was run against the unedited step on random inputs at the lecture's sizes (224 x 224 images, 16-pixel
patches, D = 192, 3 heads, 1000 classes, 2 blocks, batch 2) and at a small size (32 x 32, 8-pixel
patches, D = 24, 2 heads, 10 classes, 2 blocks, batch 2); the occlusion functions used a stand-in
classifier (4 x 4 average pooling, then a random linear map to the classes, logits std about 3) with the
predicted class and with the runner-up class as target. Every edit changes its function's numbers or
shape at both sizes (cover_without_copy returns the right values but changes its input, and so changes
quadrant_probabilities and occlusion_map); no edit changes an input in place except the one claiming
'input'; no two entries of a step give the same results. The claims and every `structure` statement
were checked numerically: a factor for 'scale' (0.5, 0.5, -1, 100), the broadcast bias row for 'shift',
equal sorted values for 'order', which rows differ for 'part', and closed forms such as
"expected + x" or "x + MLP(LN2(U))". No entry is hidden; two are shape mistakes.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND33 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'minus_half_only', 'scale',
          'normalize returns x/255 - 0.5, in [-0.5, 0.5]: exactly half the expected 2x/255 - 1 on every pixel '
          '(checked: factor 0.5 at both sizes, min -0.5, max 0.5).',
          "Page 8 says 'RGB to [0,1], subtract 0.5 and divide by 0.5'; the student divides by 255 and subtracts "
          '0.5 so that mid-gray is 0 (page 42), but drops the division by 0.5, thinking it only rescales.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5  # minus 0.5: mid-gray is 0\n'),
    fresh('01_flatten', 'pixel_major_flatten', 'order',
          'Each patch row holds the right 768 values but read pixel by pixel (R, G, B of pixel 1, then pixel 2, '
          '...) instead of all R, then all G, then all B; the patches themselves are in the right rows.',
          "The student remembers from page 9's notes that pixel-major ordering 'is also valid' and moves the "
          'channel axis last before flattening, so every pixel keeps its three colours together.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 5, 1)  # (B, rows, cols, P, P, C)\n'),
    fresh('01_flatten', 'patches_column_by_column', 'order',
          'The patches come out column by column: row r*14 + c holds patch c*14 + r (P2 holds what should be '
          "P15); each patch's own 768 values are right, and the diagonal patches stay in place.",
          "The student swaps the grid's row and column axes in the permute, reading the 14 x 14 grid down the "
          'columns instead of row by row as page 7 numbers the patches.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 3, 2, 1, 4, 5)  # (B, cols, rows, C, P, P)\n'),
    fresh('01_flatten', 'no_cls_counted', 'term',
          'count_tokens returns the patch count only: 196 instead of 197 for 224/16, 49 instead of 50 for 224/32; '
          'with cls=False the answer (196) is right.',
          "The student counts the grid's patches (page 6: 196 tokens) and forgets that this architecture adds one "
          'CLS token (pages 48-49), ignoring the cls flag.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_not_transposed', 'shape',
          'conv_to_linear returns the kernels flattened but not transposed: shape (D, 3*P*P), (192, 768) instead '
          'of (768, 192), so X @ W_E no longer fits.',
          "The student flattens each kernel channel-major, sees 192 x 768 numbers and stops, missing page 10's "
          "note that PyTorch stores the weight with the output axis first while the lecture's W_E is 768 x 192.",
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.clone()  # (D, 3*P*P)\n'),
    fresh('02_project', 'reshape_for_transpose', 'order',
          "The result has the right shape (768, 192) and the same numbers, but in another order: the kernels' "
          "weights are poured row by row into the new shape (row 0 holds kernel 0's first 192 weights), so column "
          'd is no longer kernel d.',
          'The student knows W_E must be 768 x 192 (page 10) and reshapes the (192, 768) flattened kernels into '
          'that shape, thinking reshape and transpose do the same thing.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0])  # (3*P*P, D)\n'),
    fresh('02_project', 'relu_after_projection', 'activation',
          'project returns max(X W_E + b_E, 0): every negative feature (about half of them) becomes 0, the '
          'positive ones are right.',
          'The student treats the patch projection like a hidden layer and puts a ReLU after it, although page 10 '
          'says the affine map has no following activation.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.relu(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    fresh('02_project', 'bias_left_out', 'term shift',
          'project returns X W_E without b_E: the expected result minus the same bias row on every patch of every '
          'image (checked: result = expected - b_E).',
          "The student writes the projection as a plain matrix product, reading page 12's stacked picture as C = "
          'X W_E and forgetting that the bias is broadcast to every row.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'position_concatenated', 'shape',
          'add_position concatenates the table to the tokens along the features: shape (B, N, 2D), (2, 197, 384) '
          'instead of (2, 197, 192).',
          "The student pictures 'WHAT and WHERE' as two pieces of information put side by side and concatenates "
          "them, missing page 16's point that they are added coordinate by coordinate.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, 2D)\n'),
    fresh('03_position', 'what_where_averaged', 'scale',
          'add_position returns (c_i + p_i) / 2: exactly half the expected sum on every value.',
          'The student wants the combined token to stay on the scale of its parts and averages content and '
          'position instead of adding them (page 16: e_i = c_i + p_i).',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) / 2  # (B, N, D)\n'),
    fresh('03_position', 'row_per_image', 'term axis',
          'Image b gets position row b added to all of its tokens (result[b, i] = c[b, i] + p[b]) instead of row '
          'i on token i: the table is indexed along the batch axis; only token b of image b happens to be right.',
          "The student misreads page 17's 'every image uses the same position table' as one position vector per "
          "image, takes the table's first B rows and broadcasts each over its image's tokens.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:batch].unsqueeze(1)  # (B, 1, D): one position row per image\n'),
    fresh('03_position', 'cls_row_without_position', 'part term',
          'Row 0 of every image is returned without its position vector; rows 1..N are right (2 of 394 rows wrong '
          'at the lecture size).',
          'The student thinks CLS is not a patch and so has no place in the image, and adds position only to the '
          'patch rows, missing pages 16-17: the checkpoint has 197 position vectors, one for the CLS slot.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens[:, :1], torch.add(tokens[:, 1:], table[:, 1:])), dim=1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_appended', 'order',
          'CLS is put after the patch tokens: the right rows in another order (P1..PN, CLS instead of CLS, '
          'P1..PN), every row one place off.',
          'The student remembers that one extra token is added but puts it at the end of the sequence, like an '
          'end-of-sequence token, instead of at index 0 (pages 20, 23).',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, N+1, D)\n'),
    fresh('04_cls', 'cls_start_from_patches', 'part term inputs',
          "Row 0 is the mean of the image's patch tokens instead of the learned cls_token; the patch rows are "
          'right (cls_token is not used at all).',
          'The student mixes up the starting CLS with the final image summary (pages 18, 21) and builds the first '
          'token by mean pooling the patches, not seeing that every image starts with the same learned vector '
          '(page 20).',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = tokens.mean(dim=1, keepdim=True)  # (B, 1, D)\n'),
    fresh('04_cls', 'embed_without_position', 'term',
          'embed returns the CLS-prefixed projected patches without the position table: the expected result minus '
          'pos_table on every image (checked exactly).',
          "The student follows the six lines of page 52 but stops after prepending CLS, taking '+ pos' for part "
          'of the prepend step, and forgets to call add_position.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return sequence  # (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs part',
          'embed normalizes the already normalized images a second time (x/127.5 - 1, nearly -1 everywhere) '
          'before patchify: every patch row is computed from the wrong pixels; the CLS row is still right.',
          "The student remembers page 8 ('before projection, use the checkpoint normalization') and calls "
          "normalize inside embed, not noticing that embed's images are already normalized.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_per_head_layout', 'order',
          'q, k and v hold the right numbers in another order: the 3D columns are read as [q k v] per head (head '
          "h's q = columns 3dh..3dh+d) instead of [all q | all k | all v]; head 1's q is right, head 1's k is "
          "what should be head 2's q.",
          'The student thinks each head has its own query, key and value side by side in W_qkv (page 32: each '
          'head with its own projections) and splits the columns head first, then q/k/v.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, num_heads, 3, head_dim).transpose(2, 3)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'no_sqrt_d', 'term',
          'The scores are not divided by sqrt(d): the weights are the row softmax of 8 times the expected scores '
          'at d = 64, so every row is sharper; rows still sum to one.',
          "The student computes q·k and goes straight to the softmax, dropping page 28's division by sqrt(64) as "
          'a detail that does not change which source wins.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k)  # (B, H, N, N)\n'),
    fresh('05_attention', 'columns_sum_to_one', 'axis',
          'The exponentials are divided by their column sums: each column sums to 1, the rows do not (row sums '
          '0.2 to 2.3 at the lecture size).',
          "The student normalizes over the sources' axis the wrong way round, so that each source hands out "
          "weights summing to one, instead of each receiver's row summing to one (pages 30-31).",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-2, keepdim=True)  # each column sums to 1\n'),
    fresh('05_attention', 'residual_inside_attention', 'term',
          'multi_head_attention returns x plus the update (checked: result = expected + x), so the block adds the '
          'rows twice.',
          "Page 34 says 'add the attention update to the original embedding'; the student does this addition "
          'inside the attention function instead of leaving it to the block.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width) + x  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'mean_over_tokens', 'axis',
          "LayerNorm subtracts each feature's mean over the tokens instead of each row's mean over its features "
          '(then divides by the row spread of that): the rows are no longer centred (row means up to +-0.2).',
          'The student is unsure which axis LayerNorm normalizes and takes the mean over the sequence axis, as if '
          "normalizing each feature across the image's tokens.",
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=-2, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'relu_for_gelu', 'activation',
          'The MLP uses ReLU instead of exact GELU between its two layers: relu(xW1 + b1)W2 + b2.',
          "The student hears 'GELU' on page 35 as just the usual activation and writes ReLU, thinking the two are "
          'the same for the result.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.relu(hidden)  # (B, N, 4D)\n'),
    fresh('06_block', 'mlp_update_added_to_block_input', 'inputs term',
          "The MLP update is added to the block's input x instead of the attention-updated rows U: the result is "
          'x + MLP(LN2(U)), the expected result minus the attention update.',
          "The student reads both residual adds as 'add to the original embedding' (page 34) and keeps x as the "
          "base for the MLP too, missing page 35's 'not to the original input from before attention'.",
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = x + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'residual_from_normalized_rows', 'inputs term',
          "Each residual starts from the normalized rows: U' = LN1(x) + MSA(LN1(x)), then LN2(U') + MLP(LN2(U')), "
          'so the incoming rows never reach the output.',
          'The student normalizes the rows first and adds the update to what was normalized, reading U = E + '
          'MSA(LN(E)) as if E were the normalized sequence that attention reads (page 34).',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = layer_norm(stream, weight, bias) + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_read_without_final_norm', 'term',
          'read_cls returns row 0 as it is, without the final LayerNorm (result = x[:, 0]).',
          'The student follows the picture of page 38, which leaves out normalization, and reads the CLS row '
          'straight after the blocks.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'softmax_in_head', 'activation',
          "classify returns softmax probabilities instead of logits: each image's row sums to 1.",
          'Page 39 draws the head as logits then softmax across classes; the student includes the softmax in the '
          "head, missing page 52's note that the six lines return unnormalized scores.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'every_block_reads_embedding', 'inputs',
          "Every block is applied to the embedding x instead of the previous block's output, so only the last "
          "block's update survives: result = head(block_last(embed(images))).",
          'The student loops over the blocks but passes each the sequence from embed, missing page 36: the next '
          'block starts from the new embeddings.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'first_block_params_reused', 'inputs',
          "The first block's parameters are used in every block: with 2 blocks the result is "
          'head(block_0(block_0(embed))).',
          'The student thinks the encoder applies the same block again and again, like the shared patch '
          'projection, missing page 36: each block has its own learned weights.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, params.blocks[0], params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_without_copy', 'input',
          "cover writes the square into the caller's images and returns them (values of the result right, input "
          'changed); in quadrant_probabilities the four quarters pile up, all four probabilities become the fully '
          "gray image's, and occlusion_map becomes 0 everywhere.",
          "The student thinks setting the square is all that matters and skips page 42's x.clone(), not seeing "
          'that the next cover then lands on the already covered photograph.',
          "    result = images.detach().clone()  # the caller's images stay as they were\n",
          '    result = images  # (B, 3, H, W)\n'),
    fresh('08_occlusion', 'softmax_over_covers', 'axis',
          'The softmax runs over the 4 covered images instead of over the classes: the four returned values are '
          "softmax of the target's 4 logits and sum to 1.",
          'The student takes the softmax along the first axis of the (4, C) logits, confusing the batch of covers '
          "with the classes that page 39's softmax runs across.",
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=0)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'drop_instead_of_change', 'sign scale',
          'occlusion_map returns original minus covered: the expected map times -1, positive where covering '
          'hurts.',
          "The student measures the 'drop' that pages 43-44 talk about ('-3.84 points' as a fall) and writes "
          'before minus after, so that a drop is positive.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (base - probs).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'percentage_points', 'scale',
          'occlusion_map returns the change in percentage points: exactly 100 times the expected map.',
          "The student copies page 43-44's 'points' (P78: -3.84 points) and multiplies by 100, instead of "
          'returning probability units.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return ((probs - base) * 100).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
