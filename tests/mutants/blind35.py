"""A thirty-fifth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the lecture
transcript alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes (so a mistake an
earlier set holds may well appear again, as a class's submissions repeat each other's). The emphasis is the
student in a hurry the night before the deadline: small slips in indices, signs, constants, axes, argument
order, which variable is used, and what is returned.

Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (all eight, whole);
exercises/01_flatten.py ... 08_occlusion.py (all eight, whole); /work/shared/lecture/vision1-transcript.md
(whole); tests/mutants/fresh.py lines 1-70 (up to and including `FRESH = [`, whose line number was found
with grep -n); pyproject.toml lines 56-74 only, the [tool.ruff], [tool.ruff.lint] and
[tool.ruff.lint.per-file-ignores] sections (printed with grep -A). Also directory listings of
tests/mutants/independent/ and exercises/.

How the set was checked (throwaway scripts in /tmp/blind35work/, outside the repository): each step file was
loaded from its text with the edit applied, against a stand-in `grader` module (BlockParams / ViTParams
dataclasses and an `earlier_step` that loads the unedited independent step). Each `old` occurs exactly once
in its file. Each edited function was run next to the original on random inputs at the lecture's sizes
(224 x 224 images, 16-pixel patches, D=192, 3 heads, 1000 classes, 2 blocks, batch 2) and at a small size
(32 x 32, 8-pixel patches, D=24, 2 heads, 10 classes, 2 blocks, batch 2); the occlusion functions used a
stand-in classifier (4 x 4 average pooling, then a random linear map to the classes, logits std 3) with the
predicted class and with another class as target. Every edit changes its function's numbers, shape, type or
its input on at least one size (none is hidden); only the `input` entry changes an input in place; no two
entries give the same results; the structure statements and claims were checked numerically (e.g. the
factor of a scale, a row-broadcast shift, that a permuted result holds the same values, that the wrong
block equals a known simpler computation).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND35 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'normalize_forgot_divide', 'scale',
          'normalize returns x/255 - 0.5, the range [-0.5, 0.5]: exactly half of the expected (x/255 - 0.5)/0.5 '
          'on every pixel (checked: factor 0.5000 at both sizes).',
          'Page 8 says "subtract 0.5 and divide by 0.5"; the student typed the subtraction, meant to come back '
          'for the division, and handed in scaled - 0.5.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'patchify_columns_first', 'order',
          'The permute puts the column-of-patches axis before the row axis, so patches are numbered column by '
          'column: row n of the result is the patch at (n % side, n // side). Every patch is flattened right '
          'and the values are the expected ones, the patch rows are in transposed-grid order.',
          'Writing the permute from memory, the student swapped the two grid axes (3, 2 instead of 2, 3), '
          'numbering patches down the columns instead of row by row (page 7).',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 3, 2, 1, 4, 5)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'patchify_patch_transposed', 'order',
          'The last two axes (pixel row, pixel column inside a patch) are swapped, so each channel of each '
          'patch is read column by column: the same 3*P*P values in every row, in another order inside the '
          'row; patch order and channel-major blocks are right.',
          'In a hurry the student typed the pixel axes as 5, 4, reading each 16 x 16 channel column by column '
          'instead of row by row as page 9 says.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 1, 5, 4)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'count_tokens_true_division', 'type',
          'per_side is a float, so count_tokens returns 197.0 instead of 197 (196.0, 50.0, 784.0, 17.0 ...): '
          'the right number, a float instead of an int. The ValueError is still raised.',
          'The student wrote image_size / patch_size as on page 7 ("224 ÷ 16 = 14"), and Python 3 gives a '
          'float.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size / patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_reshape_not_transpose', 'order',
          'The (D, 3*P*P) matrix is reshaped to (3*P*P, D) instead of transposed: the shape is right and the '
          'entries are the same weights, but read out in a different order, so column d is no longer kernel '
          'd (checked: a permutation of the expected entries, almost all in the wrong place).',
          'The student knew W_E must be (768, 192) and got there with reshape, thinking reshape and transpose '
          'do the same thing when only the shape is checked.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'conv_pixel_major', 'order',
          'The kernel is permuted to (D, P, P, 3) before flattening, so the rows of W_E are pixel-major '
          '(r, g, b of pixel 1, then pixel 2 ...) while patchify is channel-major: the same weights, rows of '
          'W_E in another order (checked equal to conv_weight.permute(2, 3, 1, 0).reshape(3*P*P, D)).',
          'Thinking of images as height x width x RGB, the student moved the channel axis last before '
          'flattening, missing that page 9 reads all R, then all G, then all B.',
          '    flat = conv_weight.flatten(start_dim=1)',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)'),
    fresh('02_project', 'project_no_bias', 'term shift',
          'b_E is left out: every row of every image is X W_E, the expected result minus the same (D,) row '
          'b_E (checked: exactly expected - b_E).',
          'The student wrote the matrix product with einsum and forgot the "+ b_E" of C = X W_E + b_E '
          '(page 12).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    fresh('02_project', 'project_relu', 'activation',
          'A ReLU follows the projection: the positive features are right, the negative ones (about half: '
          '49% at the lecture size, 51% at the small one) become 0.',
          'Used to "linear layer then activation", the student wrapped the projection in torch.relu, although '
          'page 10 says the patch projection has no following activation.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.relu(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'add_position_subtracts', 'sign',
          'The position table is subtracted: e_i = c_i - p_i, the expected result minus 2 p_i on every image '
          '(checked: exactly expected - 2 * table).',
          'Autocompleting torch.add, the student picked torch.sub, so the WHERE vector of page 16 enters with '
          'a minus sign.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.sub(tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'add_position_tokens_twice', 'term inputs',
          'tokens is added to itself: the result is 2 * tokens, the position table never enters.',
          'A typo in the second argument: the student wrote tokens where table was meant.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, tokens)  # (B, N, D)\n'),
    fresh('03_position', 'add_position_returns_table', 'term',
          'The function returns the expanded table alone: every image gets p_i, the content tokens are left '
          'out (checked: exactly expected - tokens; shape (B, N, D) is right).',
          'The student built the expanded table, meant to add it on the next line, and returned the wrong '
          'variable.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return table  # (B, N, D)\n'),
    fresh('03_position', 'add_position_concatenates', 'shape',
          'Content and position are concatenated along the features: the result is (B, N, 2D), e.g. '
          '(2, 197, 384) instead of (2, 197, 192).',
          'The student joined WHAT and WHERE side by side, exactly what page 16 warns against ("we add '
          'corresponding coordinates, not concatenate them").',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'prepend_cls_appends', 'order',
          'CLS is put after the patch tokens: rows 0..N-1 are P1..PN and row N is CLS; the same rows as '
          'expected, in another order (rotated by one).',
          'The student swapped the order of the two tensors in torch.cat, so CLS ends up last instead of at '
          'index 0 (pages 19-20).',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs',
          'The already normalized images are normalized a second time (2x/255 - 1), so the patches are '
          'nearly the constant -1 and the embedding is that of the wrong images (checked: equals the correct '
          'embed of images * 2/255 - 1).',
          'Remembering that pixels must be normalized before projection (page 8), the student called '
          'flatten.normalize inside embed, although embed receives normalized images.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'embed_forgets_position', 'term',
          'The position table is never added: embed returns [CLS; C] without positions, the expected result '
          'minus pos_table on every image.',
          'The student built the sequence, got the right shape (B, 197, 192) and returned it, forgetting the '
          'last step of page 23 (add a position vector to each of the 197 rows).',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return sequence  # (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_default_patch_size', 'shape',
          'patchify is called with its default patch size 16 instead of params.patch_size: identical at the '
          "lecture's 16-pixel patches, but with 8-pixel patches it gives (B, 4, 768) and the projection "
          'fails (W_E has 192 rows).',
          "The student dropped the second argument because the lecture's patch size is the default, not "
          'reading the size from params.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_key_from_query_slot', 'term part',
          'k is taken from slot 0, so k is a copy of q: q and v are right, k is wrong everywhere (it holds '
          'the queries).',
          'Copy-pasting the q line for k and v, the student changed the index for v but not for k.',
          '    k = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)\n',
          '    k = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'weights_divide_by_d', 'term',
          'The scores are divided by d instead of √d (by 64 instead of 8 at d = 64, by 12 instead of 3.46 at '
          'd = 12): the softmax sees scores √d times too small and its rows are much flatter (mean largest '
          'weight 0.007 instead of 0.055 at the lecture size); rows still sum to 1.',
          'Page 28 writes q·k / √64; the student divided by head_dim and forgot the square root.',
          '/ math.sqrt(head_dim)',
          '/ head_dim'),
    fresh('05_attention', 'weights_normalized_over_queries', 'axis',
          'The exponentials are divided by their column sums instead of their row sums: each column (source) '
          'sums to 1 and the rows no longer do (row sums from 0.09 to 2.9 at the lecture size).',
          'The student typed dim=-2 in the normalizing sum, so the softmax runs down each column instead of '
          'along each receiver row (page 31).',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-2, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'join_heads_without_permute', 'order',
          'The (B, H, N, d) messages are reshaped to (B, N, H*d) without moving the head axis: row n of the '
          'joined matrix holds the messages of H neighbouring tokens, mostly from a single head, instead of '
          'the H messages of token n. The joined values are the right ones in another order; after W_o '
          'every row is wrong.',
          'The student reshaped straight to (batch, count, width) because the shape came out right, without '
          'putting the token axis before the head axis first (page 32: join each row\'s three messages).',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_norm_no_sqrt', 'term',
          'Each centred row is divided by its variance + eps instead of by the square root of it: the '
          'normalized row comes out divided by an extra standard deviation, before weight and bias.',
          'Writing the formula from memory late at night, the student left torch.sqrt out of the '
          'denominator.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / (spread + eps) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'gelu_divides_by_two', 'activation',
          'The GELU uses erf(z / 2) instead of erf(z / √2), which is z·Φ(z / √2) instead of z·Φ(z) (checked): '
          'a softer gate, so every hidden value and the MLP update are wrong.',
          'Remembering "0.5 and a 2 somewhere" in the exact GELU, the student divided by 2.0 instead of by '
          'math.sqrt(2.0).',
          'torch.erf(hidden / math.sqrt(2.0))',
          'torch.erf(hidden / 2.0)'),
    fresh('06_block', 'block_mlp_added_to_input', 'term inputs',
          'Each residual starts again from the block input x, so the MLP update is added to x, not to '
          'U = x + attention: the result is x + MLP(LN(U)), the expected one minus the attention update '
          '(checked exactly).',
          'In the loop the student wrote x + update(...) instead of stream + update(...), the mistake page 35 '
          'warns about ("not to the original input from before attention").',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = x + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'block_layer_norms_swapped', 'inputs',
          'Attention reads the rows normalized with LN2\'s weight and bias, and the MLP with LN1\'s: both '
          'updates are computed from wrongly scaled and shifted rows.',
          'Filling in the list of sublayers, the student paired attention with ln2 and the MLP with ln1.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln2_weight, p.ln2_bias), (feed, p.ln1_weight, p.ln1_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'read_cls_first_patch', 'inputs',
          'Row 1 (patch P1) is read instead of row 0 (CLS): the result is the final LayerNorm of P1 '
          '(checked), right shape (B, D).',
          'Counting tokens from one as the slides do (P1, P2, ...), the student sliced x[:, 1:2] for "the '
          'first token".',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, 1:2]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'classify_returns_probabilities', 'activation',
          'A softmax over the classes is applied to the logits: the result is probabilities, each row sums '
          'to 1, instead of logits.',
          'Page 39 shows softmax right after the head, so the student added it, against page 52 ("no softmax '
          'is performed").',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'vit_every_block_reads_embedding', 'inputs term',
          'Each block is applied to the embedding x instead of the previous block\'s output, so only the last '
          'block counts: the logits equal those of the same ViT with only its last block (checked); the '
          'earlier blocks\' work is thrown away.',
          'In the loop the student passed x, the name from page 52\'s "x = block(x)", where the code keeps '
          'the running rows in rows.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'vit_head_reads_embedding', 'inputs term',
          'CLS is read from the embedding x instead of the rows after the blocks: the logits equal those of '
          'the same ViT with no blocks at all (checked).',
          'The student passed x to read_cls, the variable name of page 52, not rows, which holds the output '
          'of the last block.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(x, params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_detach_without_clone', 'input',
          'detach() without clone() returns a tensor sharing the caller\'s memory, so the square is written '
          'into the caller\'s images: the returned values are right, but the input is changed in place. In '
          'quadrant_probabilities the four covers pile up (all four probabilities equal that of the all-gray '
          'image), and in occlusion_map every cell comes out 0.',
          'The student thought detach() makes a copy, and dropped clone() (page 42 starts with x.clone()).',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = images.detach()  # the caller\'s images stay as they were\n'),
    fresh('08_occlusion', 'quadrant_softmax_over_covers', 'axis',
          'The softmax runs over the four covered images (dim 0) instead of over the classes: the four '
          'returned numbers sum to 1 and compare the covers with each other, not probabilities of the target '
          'class.',
          'The student typed dim=0 in the softmax, thinking of "one probability per cover".',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=0)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'occlusion_map_sign_flipped', 'sign scale',
          'The map is original minus covered instead of covered minus original: exactly -1 times the '
          'expected map (checked), positive where covering hurts the target.',
          'Thinking of the "drop" of page 43, the student subtracted the other way round, although the stub '
          'asks for covered minus original, negative where covering hurts.',
          '    return (probs - base).view(side, side)',
          '    return (base - probs).view(side, side)'),
    fresh('08_occlusion', 'occlusion_map_row_col_swapped', 'order',
          'cover is called with (col * P, row * P) as (top, left): cell (r, c) holds the result of the cover '
          'at patch (c, r), so the map is the transpose of the expected one (same values, another order).',
          'The student passed the column offset first, mixing up the order of cover\'s top and left '
          'arguments.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, col * patch_size, row * patch_size, patch_size)\n'),
]
