"""A thirtieth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/) and
the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats, with an emphasis on conceptual misunderstandings of the lecture (what CLS is and whose it is, what
position marks, which axis attention and LayerNorm work along, what the residual path carries, what the MLP
reads, what the head returns, what an occlusion cover is and what it measures).

Files opened: a listing of tests/mutants/independent/ and of exercises/ with a line count of their files;
tests/mutants/independent/01_flatten.py ... 08_occlusion.py, printed whole; exercises/01_flatten.py ...
08_occlusion.py, printed whole; tests/mutants/fresh.py through a grep for the line number of `FRESH = [` (line
70) and then lines 1-70 only (the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper); one listing of
tests/mutants/ itself (its file names only: blind.py, blind2.py ... blind28.py, catalogue.py, fresh.py,
independent, novel.py, unseen.py; no blind29.py was in it, and no file of it was opened beyond those named
here); the lines of pyproject.toml that a grep for "ruff" with 15 lines after each hit showed (line length 120,
the lint selection and ignores, the per-file ignores, with the neighbouring dev dependencies, project scripts
and setuptools settings); for the format, tests/mutants/blind28.py through its line count, its first 80 lines,
lines 80-200 and its last 30 lines; the lecture transcript through its byte count, a grep of its headings, then
its transcript part (pages 1-55, lines 62-720) printed, and the part the tool's output cut (lines 355-510,
pages 26-38) printed again. To leave out the mistakes the earlier sets hold, blind.py, blind2.py ... blind28.py
(named one by one in a list, never by a glob) were loaded by a throwaway script outside the repository
(/tmp/blind30work/) with a stand-in `mutants.fresh.fresh` that recorded its arguments (864 entries); its
printout of step, function (found as Fresh.function finds it), name, claims, hidden flag and old and new text
was read for every step, and the structure texts of 28 named entries were printed. Nothing under grader/, no
catalogue, no novel.py or unseen.py, no other test, no docs, solutions or fixtures were opened; blind29.py was
neither opened nor searched; no git command was run and the kit's grader, CLI and tests were not run.

The check of this set (throwaway scripts in /tmp/blind30work/, outside the repository) loaded the independent
steps from their source text with a stand-in `grader` module (an `earlier_step` that loads the unedited earlier
step from its text, and dataclass stand-ins for `ViTParams` and `BlockParams`), applied every edit (its old text
found exactly once in its step) and compared the edited function with the original on random inputs at the
lecture's sizes (224 x 224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes; two blocks for the
whole model; batch 2) and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads, 10 classes,
two blocks; batch 2): every edit changes its function's numbers at both sizes (for count_tokens, its counts with
CLS at 224/16, 224/8, 224/32, 32/8 and 32/4, or its raising at 225/16, 226/16, 33/8 and 34/8), except the two
shape mistakes, which return the wrong shape at both. The occlusion functions used a small stand-in classifier
(8 x 8 average pooling of the image, then a random linear map to the classes, scaled to logits of standard
deviation 3), followed for the class it ranks first and for the one it ranks second (so the target is not always
the predicted class); its probabilities move visibly under a cover (quadrant probabilities 0.01 to 0.32 against
0.23 uncovered, occlusion maps between -0.12 and +0.11 at the lecture's size, -0.20 and +0.20 at the small one).
Each edit was also compared with every earlier entry (all 864) that edits the same function, on the same inputs
at both sizes: none gives the same results as an earlier one at either size (a first candidate, covers of half a
patch, matched an earlier entry at the small size and was replaced), no two entries of this set agree, and no
(step, old, new) edit or name repeats an earlier one. The `structure` statements were checked numerically: the
(B, 256, 588) and (B, 64, 48) patch rows (those of patchify with patch size 14 and 4); every count and raise
listed for count_tokens; W_E's row (k mod 3)*P*P + floor(k / 3) with only the first and last rows fixed; the
extra 2 b_E; b_E minus the Euclidean distances; the three position tables, row by row; LN1 of the embedding;
the one-hot CLS row and the (1, 393, 192) and (1, 33, 24) sequences; heads 2..H equal to head 1; the softmax of
the symmetric part; the one-hot argmax rows; the zero CLS column with row sums 1 - a_i0; every row equal to the
right CLS row; the softmax-free weights; the batch-axis variance and its ±1 form for one image; the ELU and GELU
values; the block formulas U + MLP(MSA(LN2(U))), LN1(x) + MSA(LN1(LN1(x))) and the CLS row U_0; image 0's summary
for image 1; the one-hot and exponentiated logits; LN(final CLS - embedded CLS); x + sum_k (block_k(x) - x),
right for one block; the desaturated and the blended squares; 100 * (p - p_0); and the maps of covers cornered at
the patch centres. No edit changes an input in place (checked for every edit at both sizes). The checks did not
import the kit's grader or the mutants package. Last, `ruff check` and an import of this module (which loads
mutants/fresh.py) were run on it, printing the function (Fresh.function), claims and hidden flag of each entry;
the import ran from tests/ with PYTHONPATH=/work/main.

Three mistakes in each of steps 1-4, where the earlier sets leave little room (normalize and conv_to_linear, the
most crowded, have none), and four to six in each of steps 5-8, each an edit of one line (or one expression). Two
are shape mistakes (patch_size_read_as_grid_side, one_cls_for_the_batch_sequence); none is marked hidden, though
three (one_cls_for_the_batch_sequence, first_image_cls_for_the_batch and, with a single block,
block_updates_computed_in_parallel) are right for the smallest case.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND30 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'patch_size_read_as_grid_side', 'shape',
          'patchify sets P = H // patch_size, the number of patches per side, instead of patch_size: with 224 x 224 '
          'images and patch_size 16 it cuts 14 x 14-pixel patches on a 16 x 16 grid and returns (B, 256, 588) instead '
          'of (B, 196, 768); with 32 x 32 images and patch_size 8, 4 x 4-pixel patches on an 8 x 8 grid, (B, 64, 48) '
          'instead of (B, 16, 192). The rows are the right channel-major flattening of those wrong patches',
          "patchify reads page 48's '16 × 16 patches' and '8 × 8 patches' as the size of the grid of patches, so the "
          "side of one patch becomes the image side divided by patch_size; page 7 has 16 × 16-pixel crops on a 14 × 14 grid.",
          '    P = patch_size\n',
          '    P = H // patch_size\n'),
    fresh('01_flatten', 'cls_counted_as_a_grid_row', 'term',
          'count_tokens adds per_side tokens for CLS instead of 1: with CLS it returns per_side**2 + per_side (210 '
          'instead of 197 at 224 and 16, 812 instead of 785 at 224 and 8, 56 instead of 50 at 224 and 32, 20 instead '
          'of 17 at 32 and 8, 72 instead of 65 at 32 and 4); without CLS the counts are right, and sizes that do not '
          'divide still raise',
          "count_tokens reads page 23's '196 projected patches plus one CLS row' as one more row of the 14 × 14 patch "
          'grid, 14 more tokens; page 48 adds one CLS token (197, 785).',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side + (per_side if cls else 0)\n'),
    fresh('01_flatten', 'partial_patches_padded', 'raise',
          'count_tokens no longer raises for sizes that do not divide: it rounds image_size up to the next multiple of '
          'patch_size and counts that grid (225 and 16 give 15 * 15 + 1 = 226, 226 and 16 without CLS give 225, 33 '
          'and 8 give 26, 34 and 8 without CLS give 25); divisible sizes give the right counts (197 at 224 and 16, 785 '
          'at 224 and 8, 17 at 32 and 8)',
          'count_tokens pads a partial last patch with zeros, as a convolution with padding (or a dynamically padded '
          'patch embedding) would, believing that no pixel may be dropped, instead of raising; page 7 needs 224 ÷ 16 '
          'to come out even.',
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '        image_size += patch_size - image_size % patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'weights_permuted_to_pixel_major', 'inputs',
          'project multiplies the channel-major patch rows by W_E with its rows reordered pixel-major: row k of the '
          'matrix used is row (k mod 3)*P*P + floor(k / 3) of W_E (the layout that pixel-major patch rows would need), '
          'so the result is X W\' + b_E with every pixel paired with the wrong weight row; only rows 0 and 3*P*P - 1 '
          'of W_E stay in place, and the bias is right',
          "project applies page 9's note that pixel-major ordering is valid 'if the weight columns are permuted to "
          "match' and permutes W_E to pixel-major, although patchify hands it channel-major rows (R, then G, then B).",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E.unflatten(0, (3, -1)).transpose(0, 1).flatten(0, 1)) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'bias_added_per_colour_block', 'shift term',
          'project projects the R, G and B blocks of each patch row with their own P*P rows of W_E and adds b_E to '
          'each of the three partial results before summing them: the product part X W_E is right and every row gets '
          '3 b_E instead of b_E, the expected result plus 2 b_E broadcast to every row of every image',
          "project follows page 9's x_i = [all R | all G | all B] and computes one affine map per colour block, each "
          "with its '+ b_E', then adds the three, counting page 10's single bias three times.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return sum(torch.einsum("bnk,kd->bnd", part, rows) + b_E for part, rows in zip(patches.chunk(3, dim=-1), W_E.chunk(3, dim=0)))  # (B, N, D)\n'),
    fresh('02_project', 'features_as_distances_to_filters', 'term',
          'project returns b_E,d minus the Euclidean distance between the patch row x_i and column d of W_E (torch.cdist) '
          'instead of the dot product x_i · w_d + b_E,d: every feature is replaced by a non-positive distance score '
          'plus the bias',
          "project treats page 10's 192 learned columns as templates and scores each patch by how close it is to "
          "each one, like page 46's CNN filters matching a pattern, instead of page 10's c_i = x_i W_E + b_E.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return -torch.cdist(patches, W_E.T) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_row_zero_read_as_p1', 'term',
          'add_position shifts the table down by one row and gives token 0 (CLS) no position: row 0 of every image is '
          'c_0 instead of c_0 + p_0, every other token i gets c_i + p_(i-1) instead of c_i + p_i (P1 gets the CLS row), '
          'and the last row p_(N-1) is never used',
          "add_position reads page 17's figure (position 1 with P1, position 63 with P63) as the table's first row "
          'belonging to P1 and leaves CLS, which has no patch location, without a position; page 17 says row 0 is the '
          'CLS slot.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((torch.zeros_like(pos_table[:1]), pos_table[:-1])).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'one_position_for_all_patches', 'term part',
          'add_position gives every patch token the same vector, the mean of the table rows 1..N-1, while token 0 (CLS) '
          'keeps p_0: row 0 of every image is right, every other row i is c_i + mean(p_1..p_(N-1)) instead of c_i + p_i',
          "add_position treats the position table like a text model's segment embedding (page 19's 'same CLS idea'): "
          "one vector marks CLS and one, the average patch row, marks 'patch', so patches are told apart from CLS but "
          'not from each other; page 17 gives every token position its own row.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[:1], pos_table[1:].mean(dim=0, keepdim=True).expand(pos_table.shape[0] - 1, -1))).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'only_cls_positioned', 'term part',
          'add_position adds only the table row p_0, to token 0 (CLS); every other token i is returned as c_i without '
          'its p_i. Row 0 of every image is right, rows 1..N-1 are off by -p_i',
          "add_position takes page 15's 'The picture itself may offer clues about location' to mean that a patch's "
          'content already says where it is, so only CLS, which has no pixels, needs its position vector; page 16 '
          'adds p_i to every c_i.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[:1], torch.zeros_like(pos_table[1:]))).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'sequence_normalized_with_first_ln1', 'term',
          "embed applies a LayerNorm (eps 1e-6) with block 0's ln1_weight and ln1_bias to every row after position is "
          'added: each row is LN1(e_i) instead of e_i (the first block then normalizes these rows once more)',
          "embed reads page 26's q_i = LN(e_i) W_Q as saying that the encoder's input rows are already normalized, and "
          "returns LN(e) with the first LayerNorm's parameters; page 23's sequence is [CLS; P1; ...] + position, and "
          'page 34 puts LN inside the block.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return torch.nn.functional.layer_norm(position.add_position(sequence, params.pos_table), params.b_E.shape, params.blocks[0].ln1_weight, params.blocks[0].ln1_bias, 1e-6)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_as_one_hot_marker', 'part term',
          'prepend_cls puts the one-hot vector (1, 0, ..., 0) at index 0 of every image instead of the learned '
          'cls_token; rows 1..N (the patch tokens) are right',
          'prepend_cls treats CLS as a marker symbol, an indicator that this row is the special token, and ignores the '
          "vector it is given; pages 19-20 say the starting CLS is a learned parameter of 192 stored numbers.",
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = torch.nn.functional.one_hot(torch.zeros(batch, 1, dtype=torch.long), width).to(tokens.dtype)  # (B, 1, D)\n'),
    fresh('04_cls', 'one_cls_for_the_batch_sequence', 'shape',
          "prepend_cls lays all images' patch rows end to end behind a single CLS: it returns shape (1, 1 + B*N, D), "
          '(1, 393, 192) instead of (2, 197, 192) for two images of 196 patches and (1, 33, 24) instead of (2, 17, 24) '
          'at the small size (row 0 the CLS vector, then image 0 then image 1); a batch of one image is right',
          "prepend_cls reads page 52's 'Starting CLS is shared across the batch' as one CLS for the whole batch, "
          'with every image behind it in one sequence; page 20 gives each photograph its own copy.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start[:1], tokens.reshape(1, -1, width)), dim=1)  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'heads_share_one_projection', 'part inputs',
          "qkv_heads gives every head head 1's projection: it keeps head 1's d columns of q, k and v and repeats them "
          'H times, so head 1 of q, k and v is right and heads 2..H are copies of head 1 instead of their own columns',
          "qkv_heads reads page 32's 'The heads run in parallel on the same normalized input' as the heads being "
          "copies of one head, overlooking 'each with its own learned projections'.",
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)[:, :, :, :1].expand(-1, -1, -1, num_heads, -1)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'scores_symmetrized', 'term',
          'attention_weights uses the symmetric score (q_i·k_j + q_j·k_i) / (2√d) instead of q_i·k_j / √d before the '
          "row softmax: each row still sums to 1, but every weight is that of the score matrix's symmetric part",
          'attention_weights believes that attention between two tokens is mutual and averages the i→j and j→i '
          "scores; page 30 says actual scores and row-softmax weights are generally asymmetric because Q and K differ.",
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (torch.einsum("bhid,bhjd->bhij", q, k) + torch.einsum("bhid,bhjd->bhji", q, k)) / (2 * math.sqrt(head_dim))  # (B, H, N, N)\n'),
    fresh('05_attention', 'hard_attention_to_best_key', 'activation',
          "attention_weights returns, for each receiver, the one-hot row of its highest-scoring source (weight 1 at "
          'argmax_j q_i·k_j, 0 elsewhere) instead of the row softmax: the rows still sum to 1',
          "attention_weights reads page 33's 'Where does the trained query look?' as each query looking at one "
          "source, and keeps the best match instead of page 31's row softmax over all 197 keys.",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return torch.nn.functional.one_hot(weights.argmax(dim=-1), weights.shape[-1]).to(weights.dtype)  # each row sums to 1\n'),
    fresh('05_attention', 'cls_column_dropped_like_the_map', 'part term',
          'attention_weights sets the weight on source 0 (CLS) to 0 in every row without renormalizing the others: '
          'columns 1..N-1 are right, column 0 is 0, so each row i sums to 1 - a_i0 instead of 1',
          "attention_weights reproduces page 33's map, which shows the 196 patch weights without CLS and 'not "
          "renormalized', believing the picture is the computation; page 28's softmax includes CLS.",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-1, keepdim=True) * (torch.arange(weights.shape[-1]) > 0)  # each row sums to 1\n'),
    fresh('05_attention', 'cls_message_for_every_receiver', 'part',
          "multi_head_attention weights the values with row 0 (CLS's weights) for every receiver: in every head each "
          "token gets CLS's message sum_j a_0j v_j, so after the output projection every row of an image equals the "
          'right CLS row; row 0 is right, rows 1..N-1 are wrong',
          "multi_head_attention follows page 31 (one CLS query collects one message) and hands that message to every "
          "token, missing 'Other query rows receive their own messages in parallel'.",
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights[:, :, :1].expand_as(weights), v)  # (B, H, N, d): weighted sums of values\n'),
    fresh('05_attention', 'scaled_scores_used_as_weights', 'activation',
          'multi_head_attention weights the values with the scaled scores q_i·k_j / √d themselves, with no row '
          'softmax: the weights can be negative and the rows do not sum to 1 (with random inputs about half the '
          "weights were negative, and row sums ran from about -106 to +72 at the lecture's sizes, -9 to +8 at the "
          'small ones)',
          "multi_head_attention reads page 28's 'Q and K set a scalar weight' as q·k / √64 being the weight, and "
          "skips 'one score → row softmax'.",
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(q.shape[-1])  # (B, H, N, N)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_over_the_batch', 'axis',
          'layer_norm centres each row by its own mean (right) but divides by the square root of the mean over the '
          'batch axis (axis 0) of the squared deviations, one value per (token, feature) shared by all images, '
          "instead of each row's variance over its features; weight and bias are applied right. A batch of one image "
          'gives c / √(c² + eps), ±1 to within 1 % for more than 99 % of the values, times weight plus bias',
          'layer_norm normalizes across the images of the batch as BatchNorm does in CNN tutorials; pages 34-35 '
          "normalize each token's row over its 192 features.",
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=0, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'elu_for_gelu', 'activation',
          'mlp applies ELU (z for z > 0, e^z - 1 below) between the two layers instead of exact GELU z·Φ(z): the '
          'hidden values differ everywhere (ELU -0.950, -0.632, 1, 3 against GELU -0.004, -0.159, 0.841, 2.996 at '
          '-3, -1, 1, 3)',
          "mlp hears page 35's 'GELU' as ELU, the exponential linear unit of CNN tutorials.",
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.nn.functional.elu(hidden)  # z·Φ(z)\n'),
    fresh('06_block', 'mlp_reads_the_attention_update', 'inputs term',
          "block runs the block's attention (W_qkv, b_qkv, W_o, b_o) once more on LN2(U) and feeds its output to the "
          'MLP: E_next = U + MLP(MSA(LN2(U))) instead of U + MLP(LN2(U)); the attention step U = E + MSA(LN1(E)) is right',
          "block reads page 35's 'The MLP receives the attention-updated representation' as the MLP receiving "
          "attention's output, so the MLP processes an attention message instead of the normalized rows.",
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)\n',
          '        return mlp(attend(rows), p.W_1, p.b_1, p.W_2, p.b_2)\n'),
    fresh('06_block', 'residual_stream_starts_normalized', 'inputs',
          'block starts the residual stream from LN1(x) instead of x: U = LN1(x) + MSA(LN1(LN1(x))) and E_next = U + '
          'MLP(LN2(U)), so the incoming rows x reach the output only through their normalized form',
          "block reads page 34's pre-LN U = E + MSA(LN(E)) as normalizing the incoming rows once on entry and carries "
          "the normalized rows on the residual path; page 34 adds the update to 'the original embedding'.",
          '    stream = x  # (B, N, D)\n',
          '    stream = layer_norm(x, p.ln1_weight, p.ln1_bias)  # (B, N, D)\n'),
    fresh('06_block', 'cls_skips_the_mlp', 'part term',
          "block gives row 0 (CLS) a zero MLP update: every image's row 0 is U_0, the attention-updated CLS, instead of "
          'U_0 + MLP(LN2(U))_0; every patch row is right',
          'block believes CLS only gathers information through attention and the MLP only processes patch features; '
          "page 35: 'The same MLP parameters are used independently for every patch and CLS'.",
          '        return mlp(rows, p.W_1, p.b_1, p.W_2, p.b_2)\n',
          '        return torch.cat((torch.zeros_like(rows[:, :1]), mlp(rows[:, 1:], p.W_1, p.b_1, p.W_2, p.b_2)), dim=1)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'first_image_cls_for_the_batch', 'part inputs',
          "read_cls returns the final LayerNorm of image 0's CLS row for every image: row 0 of the result is right, "
          "every other image gets image 0's summary instead of its own; a batch of one image is right",
          "read_cls carries page 20's 'Both photographs start with exactly the same CLS vector' over to the final "
          "CLS and reads it once, from the first image; page 21: after the encoder, CLS depends on the image.",
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:1, :1].expand(x.shape[0], -1, -1)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'predicted_class_one_hot', 'activation',
          "classify returns the one-hot row of each image's highest-scoring class (1.0 at argmax_c s_c, 0 elsewhere, "
          'float32) instead of the logits s',
          "classify follows page 39's 'We predict the class with the highest score' and returns the prediction, "
          "one-hot; page 52's head returns the 1,000 unnormalized class scores.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.nn.functional.one_hot(torch.addmm(b_head, h, W_head).argmax(dim=-1), W_head.shape[1]).to(h.dtype)  # (B, 1000)\n'),
    fresh('07_head', 'scores_exponentiated', 'activation',
          "classify returns exp(s_c) instead of s_c: positive values, each image's row the softmax probabilities "
          'times that row\'s sum of exponentials',
          "classify reads page 52's 'unnormalized class scores' as unnormalized probabilities and exponentiates the "
          'logits without dividing by their sum.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).exp()  # (B, 1000)\n'),
    fresh('07_head', 'cls_change_read_as_summary', 'inputs term',
          'vit_forward gives read_cls the rows minus the embedding, so the head reads LN(final CLS - embedded CLS), '
          'the final LayerNorm of what the blocks added to row 0 (the learned CLS start plus p_0 subtracted), '
          'instead of LN(final CLS): every logit is computed from the wrong summary',
          "vit_forward reads page 21 ('After the encoder, CLS depends on the image') as the image summary being only "
          "the change of CLS, since its start is the same for every image (page 20); page 38 reads the final CLS itself.",
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows - x, params.norm_weight, params.norm_bias)  # (B, D)\n'),
    fresh('07_head', 'block_updates_computed_in_parallel', 'inputs term',
          'vit_forward feeds every block the embedding x and adds up their updates: the rows read are x + sum_k '
          '(block_k(x) - x) instead of block_L(... block_1(x)); a ViT of one block is right, two or more are wrong',
          "vit_forward reads page 22's 'Each block computes all updates from its incoming states, in parallel' as the "
          "blocks running in parallel on the embedding; page 36: 'The next block starts from these new embeddings'.",
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = rows + encoder.block(x, layer, params.num_heads) - x  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'square_made_grayscale', 'fill part',
          'cover replaces each pixel of the square by the mean of its three channels (the square is desaturated, '
          'keeping its brightness pattern) instead of `value`, which is ignored; everything outside the square is the '
          'right unchanged copy',
          "cover reads page 41's 'replaced with mid-gray' as turning the square gray, in grayscale, instead of "
          "filling it with page 42's normalized 0.",
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = result[:, :, top:top + size, left:left + size].mean(dim=1, keepdim=True)\n'),
    fresh('08_occlusion', 'translucent_cover', 'fill part',
          'cover sets each value of the square to (pixel + value) / 2, half the image and half the fill, instead of '
          '`value`; everything outside the square is the right unchanged copy',
          "cover draws the translucent gray box of image-annotation tools, blending the square with the fill, where "
          "page 42's code replaces the pixels (covered[:, :, :112, :112] = 0).",
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = (result[:, :, top:top + size, left:left + size] + value) / 2\n'),
    fresh('08_occlusion', 'quadrant_change_in_points', 'scale shift',
          'quadrant_probabilities returns 100 * (covered probability - uncovered probability), the change in '
          'percentage points, instead of the covered probability: every value is 100 times the expected one minus 100 '
          'times the uncovered probability of the target',
          "quadrant_probabilities returns what page 43 prints under each quarter ('Top left 83.00% −12.73 points'), "
          'the drop in points, instead of the probability that the exercise asks for.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return 100 * (torch.softmax(logits, dim=-1)[:, target] - torch.softmax(model(image), dim=-1)[0, target])  # (4,)\n'),
    fresh('08_occlusion', 'cover_corner_at_patch_centre', 'inputs',
          'occlusion_map puts the top-left corner of cover (r, c) at the patch centre (r*P + P/2, c*P + P/2) instead '
          'of (r*P, c*P): every P x P cover straddles four patches, and the covers of the last row and column are cut '
          'by the image border (P/2 x P, P/2 x P/2 in the corner), so every cell measures a misplaced cover',
          "occlusion_map aims each cover at the centre of its patch (page 44's 'one 16 × 16 patch covered') and passes "
          "that centre to cover, whose arguments are the square's top-left pixel.",
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size + patch_size // 2, col * patch_size + patch_size // 2, patch_size)\n'),
]
