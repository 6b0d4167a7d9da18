"""A twenty-fifth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/)
and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats. Files opened: listings of tests/mutants/, tests/mutants/independent/ and exercises/;
tests/mutants/independent/01_flatten.py ... 08_occlusion.py (printed whole, with line numbers);
exercises/01_flatten.py ... 08_occlusion.py (printed whole); the lecture transcript (its page headings
through a grep, its byte count, then its transcript part, pages 1-55, read whole); tests/mutants/fresh.py
up to and including its line `FRESH = [` (lines 1-70, found by a grep for that line: the CLAIMS vocabulary,
the `Fresh` class and the `fresh` helper); for the format, lines 1-80, 100-140 and the last 30 lines of
tests/mutants/blind24.py, its line count and a grep of its `fresh('0` lines; the lines of pyproject.toml
that a grep for "ruff" with 15 lines after each hit showed (its dev dependencies, project scripts and
setuptools lines around the first hit, the ruff section with its line length of 120, lint selection and
per-file ignores). To leave out every mistake the earlier sets hold, blind.py, blind2.py ... blind24.py
(named one by one in a list, never by a glob) were loaded by a throwaway script outside the repository
with a stand-in `fresh`, which printed the step, function, name, claims, hidden flag, source set, old and
new text of every entry (736 of them, sorted by step and function; the lines of steps 4-8 cut at 250 to
300 characters); that printout was read whole and the edits below were chosen apart from it (no name and
no new text of this set occurs in it). blind26.py was neither opened, listed by name nor searched. Nothing
under grader/, no catalogue, no novel.py or unseen.py, no other test, no docs, solutions or fixtures were
opened, no git command was run and the kit's grader, its CLI and its tests were not run.

The check of this set (throwaway scripts in /tmp/blind25work/) loaded the independent steps from their
source text with a stand-in `grader` module (its `earlier_step`, loading the unchanged independent steps,
and `ViTParams` and `BlockParams` dataclasses), applied every edit of this file (its old text found exactly
once) and compared the edited function with the original on random inputs (batches of two) at the
lecture's sizes (224 x 224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes, two blocks for
the whole model) and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads, 10 classes),
with a small stand-in model for the occlusion functions (4 x 4 average pooling and a random linear map,
smooth random images and, as target, the second most probable class for the quadrant and map functions). Every edit changes its function's
numbers, dtype or exception at both sizes; the four shape mistakes fail (or, for
joined_with_default_cat_axis, return (2B, N, D)) at both. The `structure` statements were checked
numerically: the scale and shift of normalize and its range, the plane order of
permute_replaced_by_contiguous, the column factors of the two conv_to_linear edits, the scale and broadcast
row of patches_mapped_back_to_unit_range, the float64 values, the concatenated halves, the rows left right
by the part mistakes (CLS row, patch rows, the cover's extra row and column, the map cell (0, 0)), the
per-row centring, the CLS / B row, the LayerNorm with the final norm's parameters, v / sqrt(d), the
score formula of the einsum slip, (x W_v + b_v) W_o + b_o, the two LayerNorm spreads and the per-row
factor sqrt(||x - mean|| / D), the step-wise GELU, the block with LN2 twice, the patch-mean readout, the
batch-standardized head (b_head for one image), (h W) / D + b, the equal logits of every image, the
argmax class, the map cells and the relative error of float16 (at most 0.05 per cent but for values
below about 1e-4, 1.7 per cent at most); it did not import the kit's grader or the mutants package. Last,
`ruff check` and an import of this module (which loads mutants/fresh.py; run from tests/ with
PYTHONPATH=/work/main, since fresh.py's catalogue import needs the kit's `grader.paths` on the path) were
run on it, printing the function (Fresh.function), claims and hidden flag of each entry.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one expression).
Four are shape mistakes (overlapping_half_stride_patches, joined_with_default_cat_axis,
cls_prepended_to_features, key_transposed_on_head_axis) and none is marked hidden. The mistakes of the
whole-model functions (embed, block, vit_forward and the occlusion functions) were checked through the
functions of the earlier steps, unchanged. predicted_class_followed shows only when the target is not the
class the model predicts for the uncovered image (for the lecture photograph it is).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND25 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'max_byte_typed_without_parentheses', 'scale shift',
          'normalize divides the bytes by 2 ** 8 and then subtracts 1 (the precedence of `/ 2 ** 8 - 1`), so scaled '
          'is x / 256 - 1 and the result x / 128 - 3: the expected value times 255/256 minus 2.00390625; every value '
          'lies between -3 and -1.0078125',
          "normalize writes page 8's 255 as the largest byte, 2 ** 8 - 1, but without parentheses, so Python divides "
          'by 256 and subtracts the 1 afterwards.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 2 ** 8 - 1  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'overlapping_half_stride_patches', 'shape',
          'patchify cuts windows of P pixels every P // 2 pixels, 2H/P - 1 per side (27 x 27 = 729 for 224 and 16, '
          '7 x 7 = 49 for 32 and 8), so the tiles hold more values than (B, N, 3*P*P) and the final reshape fails '
          'with a RuntimeError',
          'patchify copies the overlapping patch embedding of later vision transformers (windows that overlap by half a '
          "patch) into page 7's grid, whose 16 x 16 crops do not overlap.",
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(2, P, P // 2).unfold(3, P, P // 2)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'permute_replaced_by_contiguous', 'order',
          'patchify never moves the channel axis behind the grid axes, so the reshape reads the tiles in their '
          '(C, rows, cols, P, P) order: row n of an image holds the P x P planes 3n, 3n+1 and 3n+2 of the sequence '
          '"red planes of P1..PN, then green, then blue" (row 0 = the red planes of P1, P2 and P3); the result holds '
          'the expected values in another order',
          'patchify met "view size is not compatible" once and replaced the permute by .contiguous(), believing '
          "unfold already lays out each patch's R, G and B values one after the other as page 9 asks.",
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.contiguous()  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'generic_exception_raised', 'raise',
          'count_tokens raises a bare Exception instead of the promised ValueError when image_size is not divisible '
          'by patch_size (224 and 15, 32 and 5), so `except ValueError` does not catch it; the counts are right',
          'count_tokens signals the bad grid (page 48 only lists sizes that divide 224) with the catch-all '
          "Exception of the student's earlier scripts instead of the ValueError its docstring promises.",
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '        raise Exception(f"{image_size} is not divisible by {patch_size}")\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernels_rescaled_to_sum_one', 'term',
          'conv_to_linear divides every kernel by the sum of its 768 weights (3*P*P in general) before transposing: '
          'column d of W_E is kernel d / sum(kernel d), each column by its own factor (of either sign, and very large '
          'where a kernel sums to nearly zero), so the columns no longer hold the learned weights',
          'conv_to_linear treats the 192 kernels like image filters, which a blur keeps summing to one, and '
          "normalizes them that way, although page 53's conversion only rearranges the weights.",
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return (flat / flat.sum(dim=1, keepdim=True)).transpose(0, 1).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'kernels_averaged_over_window', 'scale',
          'conv_to_linear divides every weight by P * P (256 for 16-pixel patches, 64 for 8-pixel ones): W_E is the '
          'expected matrix times 1 / (P * P)',
          'conv_to_linear believes that a stride-P convolution averages each channel over its P x P window, like '
          "the average pooling of the CNNs of page 45, and folds that average into W_E; page 10's projection is a "
          'plain weighted sum.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flatten(start_dim=1) / (conv_weight.shape[-2] * conv_weight.shape[-1])  # (D, 3*P*P), '
          'channel-major like patchify\n'),
    fresh('02_project', 'patches_mapped_back_to_unit_range', 'scale shift inputs',
          'project maps the normalized patch values back to [0, 1] with (x + 1) / 2 before the product: the result is '
          '0.5 times the expected one plus the one row 0.5 * (b_E + the column sums of W_E) broadcast to every row',
          "project assumes that W_E was trained on [0, 1] pixels (ToTensor's range) and undoes page 8's "
          'normalization of the patches it receives.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", (patches + 1) / 2, W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'product_in_double_precision', 'type',
          'project casts the patches and W_E to float64 before the product, so the result is float64 (b_E is promoted '
          'too): the values agree with the float32 ones to float32 rounding, the dtype does not',
          'project computes C = X W_E + b_E (page 12) in double precision "to be safe" with 768-term sums, and returns '
          'that float64 tensor as it is.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches.double(), W_E.double()) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'joined_with_default_cat_axis', 'shape',
          'add_position concatenates the tokens and the expanded table along axis 0 (torch.cat without dim): the '
          'result has shape (2B, N, D), the B images of tokens followed by B copies of the table, with nothing added',
          'add_position joins WHAT and WHERE with torch.cat, which page 16 says not to do, and leaves the axis at its '
          'default, the batch axis.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table))  # (B, N, D)\n'),
    fresh('03_position', 'cls_slot_given_mean_patch_position', 'part term',
          "add_position replaces the table's row 0 by the mean of its rows 1..N-1 (the average patch position): row 0 "
          'of every image gets c_0 + mean(p_1..p_{N-1}) instead of c_0 + p_0; rows 1..N-1 are right',
          "add_position decides that CLS, not being a patch, sits \"everywhere\" on page 7's grid and gives it the "
          "average of the patch positions instead of the table's own CLS row (page 17).",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[1:].mean(dim=0, keepdim=True), pos_table[1:])).unsqueeze(0).expand(batch, '
          '-1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'sum_returned_in_half_precision', 'type approximate',
          'add_position returns the sum as float16: every value is the expected one rounded to half precision '
          '(within 0.05 per cent for all but the tiniest values), and the dtype is float16 instead of float32',
          'add_position casts e_i = c_i + p_i (page 16) to .half() to halve the memory of the 197 x 192 rows, a habit '
          'from mixed-precision training.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table).half()  # (B, N, D)\n'),
    fresh('03_position', 'position_rows_centred', 'term',
          'add_position subtracts from every position row its own mean over the D features before adding it: token i '
          'gets c_i + p_i - mean(p_i), each row lowered by its own constant (a different one per token), so the '
          'position term is changed while the content is left as it is',
          'add_position makes each position vector zero-mean so that WHERE cannot move the mean that the LayerNorm '
          "of page 34 removes anyway, although page 16 adds the learned row p_i as it is.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = (pos_table - pos_table.mean(dim=-1, keepdim=True)).unsqueeze(0).expand(batch, -1, -1)  # (B, N, '
          'D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_shared_out_between_images', 'part scale',
          'prepend_cls divides the CLS copies by the batch size: row 0 of every image is cls_token / B (half of it for '
          'two images), rows 1..N are the right patch tokens',
          'prepend_cls reads its hint "one CLS vector is shared by the whole batch" (page 20: both photographs start '
          'with the same CLS) as one vector split between the images, so that the B copies add up to the learned CLS.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1) / batch  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_prepended_to_features', 'shape',
          'prepend_cls concatenates CLS along the feature axis (dim=-1): the (B, 1, D) and (B, N, D) tensors differ on '
          'the token axis, so torch.cat fails with a RuntimeError',
          "prepend_cls puts CLS \"in front of\" each patch's feature vector, as when a value is prepended to a vector, "
          "instead of in front of the sequence of page 23's [CLS ; P1 ; ... ; P196].",
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens), dim=-1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'pre_encoder_norm_like_clip', 'term',
          'embed applies a LayerNorm (eps 1e-6) with the final norm\'s weight and bias to every row of the sequence '
          'after position is added: every row is LN(e_i) * norm_weight + norm_bias instead of e_i',
          "embed copies the ln_pre LayerNorm that CLIP's vision transformer (page 55's next lecture) applies after the "
          "position embedding, and, finding no ln_pre in the checkpoint, uses the final norm's parameters; page 23's "
          'sequence goes to the blocks as it is.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return torch.nn.functional.layer_norm(position.add_position(sequence, params.pos_table), '
          'params.b_E.shape, params.norm_weight, params.norm_bias, 1e-6)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'imagenet_statistics_applied_again', 'part inputs',
          "embed standardizes the already normalized images again with ImageNet's channel means (0.485, 0.456, "
          '0.406) and standard deviations (0.229, 0.224, 0.225) before patchify: every patch row computes with the '
          'wrong pixel values (a different scale and shift per channel); the CLS row 0 is right',
          "embed adds timm's default ImageNet normalization, a habit from other checkpoints, on top of page 8's "
          '(x - 0.5) / 0.5, which the images have already been through.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images - torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)) / '
          'torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1), params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'value_prescaled_instead_of_query', 'part scale',
          'qkv_heads divides the values by sqrt(d) (8 for d = 64, sqrt(12) for d = 12): v is the expected one times '
          '1 / sqrt(d), q and k are right',
          "qkv_heads folds page 28's 1/sqrt(64) into the projections, as some code does for the query, but puts it "
          'on the third line, the values, which the softmax never sees.',
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = mixed[:, :, 2].transpose(1, 2) / math.sqrt(head_dim)  # (B, H, N, d)\n'),
    fresh('05_attention', 'einsum_key_index_mistyped', 'term',
          'attention_weights writes the key\'s feature index as e instead of d in the einsum ("bhid,bhje->bhij"), so '
          'the two feature sums are taken apart: score_ij = (sum of q_i) * (sum of k_j) / sqrt(d) instead of q_i . k_j '
          '/ sqrt(d); the rows still sum to 1',
          "attention_weights types page 28's q . k as an einsum and slips one letter, so the shared feature index no "
          'longer pairs q with k.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhje->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'key_transposed_on_head_axis', 'shape',
          'attention_weights multiplies q (B, H, N, d) by k.transpose(1, 2), which is (B, N, H, d): neither the batch '
          'axes (H against N) nor the inner sizes (d against H) fit, so the product fails with a RuntimeError',
          'attention_weights uses the transpose(1, 2) of (B, N, D) tensors to turn the keys into columns (page 30: '
          'each column is a key), although on (B, H, N, d) the last two axes must be swapped.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (q @ k.transpose(1, 2)) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'values_joined_instead_of_messages', 'inputs',
          'multi_head_attention joins the value rows v instead of the weighted messages: the attention weights are '
          'computed and thrown away, and every row of the result is (x_i W_v + b_v) W_o + b_o, its own value '
          'projected, with no mixing between tokens',
          "multi_head_attention picks the wrong variable when joining the heads (page 32): v, the values of page 29, "
          'instead of heads, their weighted sums.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = v.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'vector_norm_taken_for_variance', 'term',
          'layer_norm uses the Euclidean norm of each centred row as its "spread": every row is divided by '
          'sqrt(||x - mean|| + eps) instead of sqrt(mean((x - mean)^2) + eps), so before weight and bias each '
          'normalized row is the expected one times sqrt(||x - mean|| / D) (eps aside), a different factor for every '
          'row',
          'layer_norm takes .norm() for the size of the spread of a row (pages 34-35 never write out the formula), '
          'forgetting that the variance is the mean of the squares, not the root of their sum.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.norm(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'variance_over_whole_image', 'axis',
          'layer_norm averages the squared deviations over the last two axes (all tokens and features of an image) '
          'instead of over each row: every row is centred on its own mean but divided by one spread shared by all '
          'rows of its image',
          'layer_norm follows nn.LayerNorm([197, 192]), which normalizes over the last two axes as the PyTorch '
          'documentation example does for images, instead of one pair of statistics per token (pages 34-35).',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=(-2, -1), keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'floor_division_inside_erf', 'activation',
          'mlp divides by sqrt(2) with // inside erf, so the activation is 0.5 z (1 + erf(floor(z / sqrt(2)))), a '
          'step-wise Φ instead of z Φ(z): wrong for every hidden value except those with z / sqrt(2) a whole number',
          "mlp types page 35's GELU with a floor division, a habit from the integer sizes (D // H) of step 5.",
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden // math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'ln2_used_for_both_sublayers', 'inputs',
          'block normalizes the rows before attention with LN2 (ln2_weight, ln2_bias) as well as before the MLP: the '
          'attention reads LN2(x) instead of LN1(x), so its update and everything after it are wrong',
          "block copies the MLP's tuple into the attention's and leaves ln2 in both, although page 34's U = E + "
          'MSA(LN(E)) uses the first LayerNorm.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln2_weight, p.ln2_bias), (feed, p.ln2_weight, p.ln2_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'patch_average_like_timm_avg_pool', 'inputs',
          'read_cls normalizes the mean of the patch rows 1..N instead of row 0: the summary is LN(mean of the '
          'patch rows), the CLS row is left out entirely',
          "read_cls uses timm's global_pool='avg', which averages the patch tokens after the CLS prefix, the "
          'mean-pooling readout that page 18 mentions, although this checkpoint was trained to read CLS.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, 1:].mean(dim=1, keepdim=True)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'batch_norm_before_head_like_linear_probe', 'inputs',
          'classify standardizes every feature of h over the batch (batch mean, biased batch variance, eps 1e-6) before '
          'the head: it scores (h - mean_batch) / std_batch instead of h, so each image\'s logits depend on the other '
          'images (with one image, every row becomes 0 and the logits are b_head)',
          'classify adds the affine-free BatchNorm that MAE-style linear probing puts in front of the head, in batch '
          "statistics, although page 39's head is the affine map alone.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, (h - h.mean(dim=0)) / (h.var(dim=0, unbiased=False) + 1e-6).sqrt(), W_head)  '
          '# (B, 1000)\n'),
    fresh('07_head', 'feature_products_averaged', 'term',
          'classify averages the D products h_k w_kc instead of summing them: s_c = (h . w_c) / D + b_c, the product '
          'term divided by D (192, or 24) while the bias is added as it is',
          'classify reads page 54\'s "compared with a learned weight vector" as an average agreement over the 192 '
          'features and takes .mean over them.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return (h.unsqueeze(-1) * W_head).mean(dim=1) + b_head  # (B, 1000)\n'),
    fresh('07_head', 'head_reads_learned_cls_start', 'inputs',
          "vit_forward classifies the learned starting CLS vector params.cls_token (after the final LayerNorm) "
          'instead of the final CLS row: the blocks are run and thrown away, and every image gets the same logits',
          'vit_forward mixes up page 20\'s "same learned CLS vector" with page 38\'s final CLS embedding and hands '
          'the stored parameter to the readout.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(params.cls_token.expand(rows.shape[0], 1, -1), params.norm_weight, params.norm_bias)  '
          '# (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'square_end_inclusive', 'part',
          'cover fills rows top .. top + size and columns left .. left + size, one pixel row and column more than the '
          'size x size square (where the image has them): the square is right, the extra row and column below and to '
          'its right are gray too',
          'cover treats top + size as the last covered pixel, as in an inclusive pixel range, and adds one to the '
          "slice ends, although page 42's :112 already stops at pixel 111.",
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size + 1, left:left + size + 1] = value\n'),
    fresh('08_occlusion', 'predicted_class_followed', 'inputs',
          "quadrant_probabilities reads the probabilities of the class the model predicts for the uncovered image "
          '(argmax of model(image)) instead of `target`: the four values are another class\'s probabilities whenever '
          'that class is not the target',
          'quadrant_probabilities follows "the label" of page 41 (same label?) and looks up the predicted class '
          'instead of the given target, which for the lecture photograph happens to be the same class, 256.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, model(image).argmax()]  # (4,)\n'),
    fresh('08_occlusion', 'covers_stepped_by_grid_count', 'inputs',
          'occlusion_map places cover (r, c) at pixel (r * side, c * side), stepping by the number of patches per side '
          '(14, or 4) instead of the patch size (16, or 8): the covers overlap and stop short of the right and bottom '
          'edges, so every cell except (0, 0) measures a wrongly placed cover',
          'occlusion_map mixes up the two numbers of page 7, 14 patches per side and 16 pixels per patch, when it '
          "places page 44's covers.",
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * side, col * side, patch_size)\n'),
    fresh('08_occlusion', 'patches_blacked_out', 'fill',
          'occlusion_map covers each patch with normalized -1 (black, pixel value 0) instead of 0 (mid-gray): every '
          'cell is the change for a black cover, not for the gray one',
          'occlusion_map "blacks out" each patch, as the word cover suggests and as early occlusion studies drew it, '
          "although page 42 fills with normalized 0, which is mid-gray, not black.",
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size, -1.0)\n'),
]
