"""A twenty-fourth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/)
and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats. Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (printed whole, after a
listing of that folder and of exercises/), the docstrings of normalize, patchify, count_tokens, cover,
quadrant_probabilities and occlusion_map in exercises/01_flatten.py and 08_occlusion.py (a grep for their
`def` lines with 12 lines after each; the other stubs were not opened), the lecture transcript through
greps only (its page headings and the lines holding words such as pool, sqrt, LayerNorm, CNN, flip, gray
and 64, to check the pages cited below) and its byte count, tests/mutants/fresh.py up to and including its
line `FRESH = [` (lines 1-70: the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper), for the
format the first 140 and last 20 lines of tests/mutants/blind22.py and the first 50 lines of blind21.py,
and the lines of pyproject.toml that a grep for "ruff" with 30 lines after each hit showed (cut to its
first 40 lines: the line length of 120, the lint selection and ignores, with the neighbouring dev
dependencies, project scripts, setuptools and pytest settings). To leave out every mistake the earlier sets
hold, blind.py, blind2.py ... blind22.py (named one by one in a list, never by a glob) were loaded by a
throwaway script outside the repository with a stand-in `fresh`, which printed the step, function, name,
claims, hidden flag, old and new text of every entry (672 of them, sorted by step and function); that
printout was read whole (for steps 1-2 with the old text, for steps 3-8 the new text only) and the edits
below were chosen apart from it. blind23.py was neither opened, listed nor searched. Nothing under grader/,
no catalogue, no novel.py or unseen.py, no other test, no docs, solutions or fixtures were opened, no git
command was run and the kit's grader and tests were not run. The check of this set (throwaway scripts
outside the repository) loaded the independent steps from their source text with a stand-in for the
`grader` import (its `earlier_step`, `ViTParams` and `BlockParams`), applied every edit (its old text found
exactly once), compared the function with the original on random inputs at the lecture's sizes (224 x 224
images, 16-pixel patches, 192 features, 3 heads, 1,000 classes; two blocks for the whole model) and at two
smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads; 48 x 48, 16-pixel patches, 32
features, 4 heads), with a small linear stand-in model for the occlusion functions, and checked the
`structure` statements numerically (the scale and shift of normalize, the permutations of the order
mistakes, the broadcast row of the bias and key-bias mistakes, the rows left right by the part mistakes,
the normalized CLS added by the offset gain, the sum of one of the renormalized quadrants, the rolled map,
the largest gaps of the two GELU variants); it did not import the kit's grader or mutants package. Last,
`ruff check` and an import of this module (which loads mutants/fresh.py) were run on it; that import
also confirmed that its entries are the ones checked, each old text found once, and printed the function
(Fresh.function), claims and hidden flag of each.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function at the lecture's sizes and at the smaller ones, with the right
shape: none is a shape mistake and none is marked hidden. table_rescaled_to_unit_std changes little when
the table already has a standard deviation near 1 (it was checked with a random normal table, where its
largest change was 0.01 to 0.11); for a learned table of small values it changes the position term many
times over. The mistakes of the whole-model functions (embed, block, vit_forward and the occlusion
functions) were checked through the functions of the earlier steps, unchanged.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND24 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'pixels_divided_by_255_twice', 'scale shift',
          'normalize divides the bytes by 255 twice before 2x - 1, so it returns 2x / 255**2 - 1 instead of 2x / 255 '
          '- 1: the expected value divided by 255 plus (1/255 - 1); every value lies between -1 and -0.99216',
          'normalize divides by 255 as page 8 says, then divides once more, as if the uint8 input had to be brought '
          'into [0, 1] a second time (the ToTensor habit of dividing by 255 on top of an already scaled image).',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 255.0 / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'conv_output_size_without_plus_one', 'term',
          'count_tokens counts (image_size - patch_size) // patch_size patches per side, one fewer than image_size // '
          'patch_size: 13 * 13 + 1 = 170 instead of 197 for 224 and 16, 36 + 1 = 37 instead of 50 for 32-pixel '
          'patches; the divisibility check still raises',
          'count_tokens uses the convolution output-size formula (n - k) / s + 1 of convolutional networks (page 45 '
          'sets them beside ViT) and leaves out its + 1.',
          '    per_side = image_size // patch_size\n',
          '    per_side = (image_size - patch_size) // patch_size\n'),
    fresh('01_flatten', 'training_flip_left_in', 'order',
          'patchify mirrors every image left to right before cutting it: patch (r, c) holds the mirrored pixels of '
          'patch (r, side - 1 - c), so the rows hold the expected values in another order (patches reversed within '
          'each grid row and the pixel columns reversed inside each patch)',
          'patchify keeps the RandomHorizontalFlip of a training pipeline, written as images.flip(-1), in front of '
          "page 7's cutting.",
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.flip(-1).unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'windows_shifted_like_swin', 'order',
          'patchify rolls every image up and left by P // 2 pixels before cutting (wrapping around the edges): each '
          "patch straddles four of the lecture's patches, so the result holds the image's values in another order and "
          'no row is a lecture patch',
          "patchify copies the cyclic shift of Swin Transformer's shifted windows, torch.roll(x, (-P // 2, -P // 2), "
          "dims=(2, 3)), into page 7's grid of non-overlapping patches.",
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.roll((-(P // 2), -(P // 2)), dims=(2, 3)).unfold(2, P, P).unfold(3, P, P)  # (B, C, '
          'rows, cols, P, P)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_magnitudes', 'magnitude',
          'conv_to_linear takes the absolute value of every kernel weight: W_E is |expected W_E| (the layout is '
          'right, every negative weight has lost its sign)',
          'conv_to_linear copies a filter-visualization line that plots the strength |w| of each kernel weight into '
          "the conversion of page 10's projection.",
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.abs().flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'kernel_storage_read_as_channels_last', 'order',
          'conv_to_linear reshapes each (3, P, P) kernel as if its memory were laid out (P, P, 3) and then permutes '
          'it to (3, P, P): every column of W_E holds the values of its kernel in another order (scrambled between '
          'channels and pixels)',
          'conv_to_linear half-remembers that TensorFlow stores kernels channels-last and "converts" the PyTorch '
          'weight with a reshape to (D, P, P, 3) followed by permute(0, 3, 1, 2), which reinterprets memory instead '
          'of moving axes.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.reshape(conv_weight.shape[0], conv_weight.shape[2], conv_weight.shape[3], '
          '-1).permute(0, 3, 1, 2).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'kernel_flipped_in_depth_too', 'order',
          'conv_to_linear reverses every kernel along all three of its axes (channels, rows, columns): column d of '
          'W_E is kernel d read backwards, channel B first and the last pixel first, the expected values in another '
          'order',
          'conv_to_linear recalls that a true convolution flips its kernel, and flips it along every kernel axis as '
          "in the textbook 3-D formula, although page 10's projection (like Conv2d) is a correlation and needs no "
          'flip.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(1, 2, 3).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'bias_row_indexed_as_batched', 'shift term',
          'project adds b_E[0], the first bias coordinate, to every feature instead of the bias vector b_E: the '
          'result is the expected one plus the one row b_E[0] - b_E broadcast to every row',
          'project treats b_E as stored with a leading axis of one, (1, D), as bias tensors of some checkpoints are, '
          "and indexes it with [0] to drop that axis; for the kit's (D,) bias that picks one number.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E[0]  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_averaged_over_tokens', 'term axis',
          "add_position adds the mean of the table's rows (the average position) to every token instead of each "
          "token's own row p_i: every row of the result is c_i + mean(p), so the positions no longer differ between "
          'tokens',
          'add_position reduces the expanded table with .mean(dim=1, keepdim=True), the mean-pooling line of page '
          "18's other readout, meaning to drop a copy axis, and so averages over the tokens.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table.mean(dim=1, keepdim=True))  # (B, N, D)\n'),
    fresh('03_position', 'patch_grid_positions_upside_down', 'part term',
          'add_position gives patch (r, c) the table row of patch (side - 1 - r, c): the grid rows of the table (rows '
          "1..N-1) are read bottom to top, so every patch token gets another patch's position; the CLS row 0 is right",
          'add_position lays the learned table out on the patch grid with y pointing up, as in a plot with '
          'origin="lower", instead of page 7\'s row-by-row numbering from the top-left.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[:1], pos_table[1:].unflatten(0, (round((pos_table.shape[0] - 1) ** 0.5), '
          '-1)).flip(0).flatten(0, 1))).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'table_rescaled_to_unit_std', 'term',
          'add_position divides the whole table by its standard deviation before adding it: token i gets c_i + p_i / '
          'std(table), the position term scaled by one factor while the content is left as it is',
          'add_position standardizes the learned table (page 17) the way the pixels were normalized, so that position '
          '"counts as much as" content.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = (pos_table / pos_table.std()).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for '
          'every image\n'),
    fresh('03_position', 'table_rolled_for_cls_stored_last', 'term',
          'add_position rolls the table down by one row: token 0 (CLS) gets the last row p_{N-1} and token i gets '
          'p_{i-1}, so every token gets the position of the token before it',
          'add_position assumes the checkpoint stores the CLS position as the last row of the table (after P1 ... '
          "P196) and moves it to the front with roll(1), although page 17's table starts with the CLS row.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.roll(1, dims=0).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every '
          'image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_seeded_with_patch_average', 'part term',
          "prepend_cls puts cls_token plus the image's mean patch token in row 0: the CLS row of every image has the "
          'extra term mean(tokens); rows 1..N are right',
          "prepend_cls mixes page 20's learned CLS vector up with average pooling and starts the CLS from the "
          'patches\' mean, although "every image starts with the same learned CLS vector".',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1) + tokens.mean(dim=1, keepdim=True)  # (B, '
          '1, D)\n'),
    fresh('04_cls', 'patch_sequence_reversed', 'part inputs',
          'embed projects the patches in reverse order (P196 first): row i of the patch tokens holds the content of '
          'patch N + 1 - i with the position of patch i; the CLS row 0 is right',
          "embed flips the patch sequence, numbering from the bottom-right, instead of page 7's P1 top-left ... P196 "
          'bottom-right.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images, params.patch_size).flip(1)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'normalization_folded_into_projection', 'part term',
          'embed projects with W_E / 0.5: every patch token is 2 x_i W_E + b_E + p_i instead of x_i W_E + b_E + p_i '
          '(the image term doubled); the CLS row is right',
          "embed folds page 8's division by 0.5 into the projection weights, as one does for raw [0, 1] pixels, "
          'although the images it gets are already normalized.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E / 0.5, params.b_E)  # (B, N, D)\n'),
    fresh('04_cls', 'cls_given_position_of_p1', 'part term',
          'embed adds the table row p_1 (the position of patch P1) to the CLS token instead of p_0: row 0 is '
          'cls_token + p_1; the patch rows are right',
          'embed reads page 17\'s table as "one row per patch" and gives the CLS token the first patch\'s position, '
          'keeping rows 1..N for the patches.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, torch.cat((params.pos_table[1:2], params.pos_table[1:])))  # '
          '(B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'key_bias_dropped_like_beit', 'part shift term',
          'qkv_heads leaves the key bias out (the k third of b_qkv is zero): q and v are right, k is the expected k '
          'minus its bias row, the same row for every token',
          'qkv_heads copies the BEiT / data2vec layout, where the qkv bias is cat(q_bias, zeros, v_bias) because keys '
          "have no bias, onto this checkpoint's full b_qkv.",
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.addmm(b_qkv * (torch.arange(3 * width) // width != 1), x.reshape(-1, width), W_qkv)  # '
          '(B*N, 3D)\n'),
    fresh('05_attention', 'scale_from_head_count', 'term',
          'attention_weights divides the scores by sqrt(H), the square root of the number of heads (axis 1 of q), '
          'instead of sqrt(d), the head size: with 3 heads of 64 features the scores are divided by 1.73 instead of '
          '8, so every row is sharper',
          'attention_weights takes the scale from q.shape[1], the wrong one of the two head sizes of q (B, H, N, d), '
          "for page 28's q · k / √64.",
          '    head_dim = q.shape[-1]\n',
          '    head_dim = q.shape[1]\n'),
    fresh('05_attention', 'quarter_power_scale_from_clip', 'term',
          'attention_weights divides the scores by d ** 0.25 instead of sqrt(d) (2.83 instead of 8 for 64-feature '
          'heads): the softmax rows are sharper than expected',
          "attention_weights copies the scale of code that divides q and k each by d ** 0.25 (OpenAI CLIP's "
          'attention), but applies it once, to the scores.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / head_dim ** 0.25  # (B, H, N, N)\n'),
    fresh('05_attention', 'keys_shared_like_multi_query', 'inputs',
          "multi_head_attention scores every head's queries against the keys of head 0: the weights of heads 1..H-1 "
          'are wrong (head 0 is right), and so is the output',
          'multi_head_attention adapts multi-query attention code, in which all heads share one key head, to this '
          'checkpoint, which has a key head for each of its 3 heads (page 32).',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(q, k[:, :1].expand_as(k))  # (B, H, N, N)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_centred_on_median', 'term',
          "layer_norm subtracts each row's median instead of its mean (and measures the spread around it): the result "
          'is no longer zero-mean per row before the scale and shift',
          'layer_norm copies the centring of a robust scaler (median instead of mean) into the LayerNorm of page 26 '
          '(q_i = LN(e_i) W_Q).',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.median(dim=-1, keepdim=True).values  # (..., D)\n'),
    fresh('06_block', 'erf_argument_times_sqrt2', 'activation',
          'mlp computes 0.5 z (1 + erf(z * sqrt(2))) instead of 0.5 z (1 + erf(z / sqrt(2))): a GELU-like curve that '
          'is twice as steep (z * Phi(2 z)), so the hidden values between about -3.4 and 3.4 are wrong',
          'mlp remembers the sqrt(2) of the exact GELU but multiplies by it instead of dividing.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden * math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'tanh_gelu_without_cubic', 'activation',
          'mlp uses 0.5 z (1 + tanh(sqrt(2 / pi) z)), the tanh approximation without its 0.044715 z**3 term: the '
          'activation differs from the exact GELU by up to about 0.034 per hidden value (the most near |z| = 2.1)',
          'mlp writes the tanh approximation of GELU from memory and leaves out the cubic term inside the tanh.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * hidden))  # z·Φ(z)\n'),
    fresh('06_block', 'ln2_paired_with_ln1_bias', 'inputs',
          "block normalizes the MLP's input with ln2's weight and ln1's bias: the MLP reads a wrongly shifted input, "
          "so the MLP update and the block's output are wrong (the attention update is right)",
          'block types ln1_bias for ln2_bias in the second sublayer, the wrong one of two similar names.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln1_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_gain_as_offset', 'term',
          'read_cls scales the normalized CLS by 1 + norm_weight instead of norm_weight: the result is the expected '
          'one plus the normalized CLS row itself',
          'read_cls copies the RMSNorm convention of checkpoints that store the gain as an offset from one (x * (1 + '
          "w)) onto this checkpoint's LayerNorm weight.",
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, 1 + norm_weight, norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'head_weight_reshaped_not_transposed', 'inputs',
          'classify multiplies by W_head reshaped to (1000, D) and transposed back: the (D, 1000) matrix is read in '
          'another storage order, so each score uses scrambled weights',
          'classify "converts" a weight it believes is stored like nn.Linear\'s (1000, D) with reshape(1000, D).T, '
          'reading memory instead of swapping axes, although W_head is already (D, 1000) (page 39).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head.reshape(W_head.shape[1], W_head.shape[0]).T)  # (B, 1000)\n'),
    fresh('07_head', 'head_count_and_size_swapped', 'term',
          "vit_forward passes D // num_heads as the head count: at the lecture's sizes every block runs 64 heads of 3 "
          "features instead of 3 heads of 64, so every block's attention and the logits are wrong",
          'vit_forward mixes up the two numbers of page 32, the head count (3) and the head size (64), the wrong one '
          'of two similar variables.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, rows.shape[-1] // params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'every_other_block', 'term',
          'vit_forward runs only the blocks 0, 2, 4, ... (params.blocks[::2]): half of the blocks are left out (6 of '
          '12), so the CLS read out and the logits are wrong',
          'vit_forward copies DistilBERT\'s "one layer out of two" slicing into the forward pass instead of page '
          "23's twelve blocks in turn.",
          '    for layer in params.blocks:\n',
          '    for layer in params.blocks[::2]:\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'rows_counted_from_bottom', 'part',
          'cover counts `top` from the bottom edge: it grays rows H - top - size .. H - top - 1 instead of rows top '
          '.. top + size - 1, so the square is mirrored vertically (right only where the two places coincide)',
          'cover places the square with y pointing up, as in a plot with origin="lower", instead of page 42\'s pixel '
          'rows counted from the top.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, images.shape[-2] - top - size:images.shape[-2] - top, left:left + size] = value\n'),
    fresh('08_occlusion', 'quadrants_renormalized', 'scale',
          'quadrant_probabilities divides the four probabilities by their sum, so they add up to 1: the expected '
          'values times 1 / (their sum)',
          'quadrant_probabilities treats the four covered copies as a distribution over quadrants and normalizes '
          "them, although page 43 compares each probability with the original's.",
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return (p := torch.softmax(logits, dim=-1)[:, target]) / p.sum()  # (4,)\n'),
    fresh('08_occlusion', 'map_cells_shifted_for_p1', 'order',
          'occlusion_map rolls the cells one place forward in row-by-row order before shaping the map: cell k holds '
          'the change of patch k - 1 (cell 0 that of the last patch), the expected values in another order',
          "occlusion_map shifts the cells by one to make them match page 7's one-based names P1 ... P196, although "
          'cell (r, c) is already patch P(side r + c + 1).',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).roll(1).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'covers_one_pixel_short', 'inputs',
          'occlusion_map covers P - 1 pixels per side instead of P: every cover leaves the last pixel row and column '
          "of its patch visible, so every cell's change is wrong",
          'occlusion_map subtracts one from the cover size, as for an inclusive end pixel, although `cover` already '
          'excludes top + size.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size - 1)\n'),
]
