"""A twenty-eighth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/) and
the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats, with an emphasis on slips of students who learned from PyTorch and NumPy tutorials (in-place
operations, a default argument, keepdim and broadcasting, view/reshape/transpose, integer division, the wrong
tensor or built-in). Files opened: a listing of tests/mutants/independent/ and of exercises/ (tests/mutants/
itself was never listed) with a line count of the independent files; tests/mutants/independent/01_flatten.py
... 08_occlusion.py, printed whole; exercises/01_flatten.py ... 08_occlusion.py, printed whole;
tests/mutants/fresh.py through a grep for the line number of `FRESH = [` (line 70) and then lines 1-70 only
(the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper); the lines of pyproject.toml that a grep for
"ruff" with 15 lines after each hit showed (the line length of 120, the lint selection and ignores, the per-
file ignores, with the neighbouring dev dependencies, project scripts and setuptools settings); for the
format, the first 80 lines and the last 20 lines of tests/mutants/blind26.py, a count of its `fresh(` calls
and a grep of its step comment lines; the lecture transcript, first through its byte count and a grep of its
headings, then its transcript part (pages 1-55, lines 62-720) printed whole. To leave out every mistake the
earlier sets hold, blind.py, blind2.py ... blind26.py (named one by one in a list, never by a glob) were
loaded by a throwaway script outside the repository (/tmp/blind28work/) with a stand-in `mutants.fresh.fresh`
that recorded its arguments (800 entries); its printout of step, source file, name, claims, hidden flag, old
and new text, sorted by step and old text, was read for step 1 whole, for steps 2-8 as the new (and old) texts
of every entry, with the names and claims of steps 3 and 5-8, of the step 4 edits of the patchify line, of a
few step 2 project entries and of the dropout and batch-norm entries. Nothing under grader/, no catalogue, no
novel.py or unseen.py, no other test, no docs, solutions or fixtures were opened; blind27.py was neither
opened, listed nor searched; no git command was run and the kit's grader, CLI and tests were not run.

The check of this set (throwaway scripts in /tmp/blind28work/, outside the repository) loaded the independent
steps from their source text with a stand-in `grader` module (an `earlier_step` that loads the unedited
earlier step from its text, and dataclass stand-ins for `ViTParams` and `BlockParams`), applied every edit
(its old text found exactly once in its step) and compared the edited function with the original on random
inputs at the lecture's sizes (224 x 224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes; two
blocks for the whole model; batch 2) and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2
heads, 10 classes, two blocks; batch 3): every edit changes its function's numbers at both sizes (for
count_tokens, its counts at 224/16 and 32/8 with and without CLS, 224/8 and 32/4, or its raising at 225/16,
226/16, 33/8 and 34/8), except the four shape mistakes, whose calls raise
(functional_linear_with_lecture_layout, heads_viewed_after_permute) or return the wrong shape
(kernel_returned_instead_of_rows, quadrants_zipped) at both. The occlusion functions used a small stand-in
classifier (8 x 8 average pooling of the image, then a random linear map to the classes, scaled to logits of
standard deviation 3), whose probabilities move visibly under a cover (occlusion maps between -0.06 and +0.09
at the lecture's size, -0.14 and +0.45 at the small one), followed for the class it ranks first and for the
one it ranks second. The `structure` statements were checked numerically: the -1/+1 step of the floor
division; the row index n*B + b of the sequence-first patchify (even and odd patches for two images, right for
one image); the ValueError returned, and the counts 1 and 0 of the remainder; the index formulas of the three
column-vector or feature-first reshapes (project, add_position, classify; a permutation within each image,
across images for classify, right for one image); the batch-mean correction and b_E for one image; the (3, D,
P, P) kernel; the table index (b*N*D + e) // B of repeat_interleave; the tables B * p and 0.02 * p; embed of
2x - 1 with the caller's images overwritten, of the channels-last storage order (formula checked), of the per-
channel standardization (channel stds about 0.578) and of the bfloat16 table (errors up to 0.004), each with
its CLS row right where stated; exp(s_ij - m_j) with rows summing to one; the batch-axis sums and all ones for
one image; dropout's zero fraction near 0.5 with the kept weights doubled and outputs differing between calls;
(x - mu)^2 / sqrt(var + eps); the D/B mean; the GELU values at -3, -1, 1 and 3; block with LN2's parameters
swapped; the ViT with every block equal to the last and with sqrt(D) * E; norm_bias for every image from the
gather; the 0.0655 square; the TL and BR probabilities; the factors Z_i / sum Z; and the copies that keep only
their patch. Only pixels_normalized_again_in_place changes an input in place (checked for every edit at both
sizes). The checks did not import the kit's grader or the mutants package. Last, `ruff check` and an import of
this module (which loads mutants/fresh.py) were run on it, printing the function (Fresh.function), claims and
hidden flag of each entry; the import ran from tests/ with PYTHONPATH=/work/main. A last comparison with the
recorded earlier entries found no repeated (step, old, new) edit and no repeated name.

Four mistakes per step, spread over the step's functions where the earlier sets left room (prepend_cls and
qkv_heads, the most crowded, have none), each an edit of one line (or one expression). Four are shape
mistakes; none is marked hidden, though five (the sequence-first patchify, the batch-centred projection,
repeat_interleave, the summed table and the column-vector classify) are right for a batch of one image.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND28 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'floor_division_for_scaling', 'activation',
          'normalize computes pixels.float() // 255.0 (floor division) instead of pixels / 255, so the scaled value is '
          '0 for every pixel below 255 and 1 for 255: the result is -1 everywhere except +1 where the pixel is 255, a '
          'step function of the pixel instead of the linear map 2x / 255 - 1; only pixels 0 and 255 come out right',
          "normalize uses // for the division by 255, the integer division that page 7's '224 ÷ 16 = 14' and "
          "count_tokens just below need, for page 8's 'RGB to [0, 1]'.",
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() // 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'patch_rows_laid_out_sequence_first', 'order',
          'patchify reshapes the image-major stack of B*N patch rows to (N, B, 3*P*P) and transposes it to (B, N, '
          '3*P*P): output row n of image b is row n*B + b of the stack, i.e. patch (n*B + b) mod N of image floor((n*B '
          '+ b) / N). Every row is a right channel-major patch, but the rows are shuffled across the batch: with two '
          'images, image 0 holds the even-numbered patches of image 0 then those of image 1, image 1 the odd-numbered '
          'ones; only the first row of the first image and the last row of the last image stay in place, and a batch '
          'of one image is right',
          "patchify builds the sequence-first layout (N, B, features) of nn.Transformer's default batch_first=False, "
          'then transposes to batch-first, believing reshape and transpose commute; page 7 numbers the patches row by '
          'row per image and page 52 keeps the batch axis first.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape((H // P) * (W // P), B, C * P * P).transpose(0, 1)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'error_returned_not_raised', 'raise',
          'count_tokens returns a ValueError instance for sizes that do not divide (225 and 16, 33 and 8) instead of '
          'raising it; divisible sizes give the right counts (197, 196 without CLS, 17, 785)',
          "count_tokens writes `return ValueError(...)` in the guard, the exercise's 'Raises: ValueError' read as "
          "'gives back an error'; page 7's grid needs 224 to divide by 16.",
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '        return ValueError(f"{image_size} is not divisible by {patch_size}")\n'),
    fresh('01_flatten', 'remainder_typed_for_floor_division', 'term constant',
          'count_tokens computes per_side = image_size % patch_size, which is 0 whenever the guard above lets the call '
          'through, so it returns 1 with CLS and 0 without for every valid size (1 instead of 197 at 224 and 16, 1 '
          'instead of 785 at 224 and 8, 1 instead of 17 at 32 and 8); sizes that do not divide still raise',
          "count_tokens types % for // on the line after the guard that uses %, for page 7's 224 ÷ 16 = 14 patches per "
          'side.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size % patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'column_vector_result_reshaped', 'order',
          'project computes the column-vector form W_E^T X^T + b_E of every image, a (B, D, N) tensor that is the '
          'right result transposed, and reshapes it to (B, N, D) instead of transposing it back: entry (n, d) of image '
          'b holds the expected value of patch (n*D + d) mod N, feature floor((n*D + d) / N) of the same image. Each '
          "image's result holds exactly its expected values in another order (no mixing between images, the bias goes "
          'with its feature); only the first and last entries of each image stay in place',
          "project follows the column-vector habit of page 10's note that PyTorch stores the Linear weight transposed "
          "(and of page 54's notation), multiplies W_E^T by the patches as columns, and turns (D, N) into (N, D) with "
          'a reshape.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (W_E.T @ patches.mT + b_E[:, None]).reshape(patches.shape[0], patches.shape[1], -1)  # (B, N, D)\n'),
    fresh('02_project', 'functional_linear_with_lecture_layout', 'shape',
          'project calls torch.nn.functional.linear(patches, W_E, b_E), which computes patches @ W_E.T + b_E and '
          "expects the weight as (D, 3*P*P); with the lecture's (3*P*P, D) matrix the product (..., 768) @ (192, 768) "
          'does not fit ((..., 192) @ (24, 192) for 8-pixel patches and 24 features) and the call raises a '
          'RuntimeError',
          "project reaches for torch.nn.functional.linear from PyTorch tutorials and passes page 10's 768 x 192 W_E, "
          "forgetting the page's note that PyTorch keeps the Linear weight as 192 x 768.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.linear(patches, W_E, b_E)  # (B, N, D)\n'),
    fresh('02_project', 'patches_centred_over_the_batch', 'term inputs',
          'project subtracts patches.mean(dim=0), the average of the patch rows over the images of the batch, before '
          'the projection: the result is the expected one minus (mean over images of X_b) W_E, one (N, D) correction '
          'shared by all images and different for every patch row; a batch of one image gives b_E in every row',
          'project centres the data matrix as scikit-learn and NumPy tutorials do, X - X.mean(axis=0), before page '
          "12's C = X W_E + b_E; axis 0 of a (B, N, 768) batch is the image axis.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches - patches.mean(dim=0), W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'kernel_returned_instead_of_rows', 'shape',
          'conv_to_linear returns conv_weight.transpose(0, 1), the (3, D, P, P) kernel with its first two axes '
          'swapped, instead of the (3*P*P, D) matrix: shape (3, 192, 16, 16) instead of (768, 192), (3, 24, 8, 8) '
          'instead of (192, 24)',
          'conv_to_linear transposes the tensor it started from instead of `flat`, the flattened kernel of the line '
          "above, while turning page 53's Conv2d kernel into page 10's W_E.",
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.transpose(0, 1).clone()  # (3*P*P, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'sum_taken_feature_first_reshaped_back', 'order',
          'add_position adds tokens and table after transposing both to (B, D, N), then reshapes the (B, D, N) sum to '
          '(B, N, D) instead of transposing it back: entry (n, d) of image b holds the expected value c + p of token '
          "(n*D + d) mod N, feature floor((n*D + d) / N) of the same image. Each image's result holds exactly its "
          'expected values in another order; only the first and last entries of each image stay in place',
          "add_position works feature-first, the (B, D, N) layout of Conv1d and of timm's x.flatten(2) before its "
          "transpose, adds page 16's WHAT and WHERE there, and goes back to rows with a reshape.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens.transpose(1, 2), table.transpose(1, 2)).reshape(tokens.shape)  # (B, N, D)\n'),
    fresh('03_position', 'repeat_interleave_without_dim', 'term',
          'add_position builds the table with pos_table.repeat_interleave(batch), which without dim flattens the table '
          'and repeats every single number batch times in a row, then views the result as (B, N, D): number e of image '
          "b's table is pos_table.flatten()[(b*N*D + e) // B]. With two images, image 0 gets the first half of the "
          'table with each number twice in a row and image 1 the second half; the tokens are added unchanged and a '
          'batch of one image is right',
          "add_position shares page 17's one table among the images with repeat_interleave, whose dim argument "
          'defaults to None (flatten first), not 0.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.repeat_interleave(batch).view(batch, -1, pos_table.shape[-1])  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'expanded_table_summed_back', 'term',
          'add_position adds table.sum(dim=0), the expanded table summed over the batch axis, which is B times '
          'pos_table: every image gets c_i + B p_i (2 p_i for a batch of two, 3 p_i for three); a batch of one image '
          'is right',
          "add_position expands page 17's shared table over the batch, then reduces the batch axis away again with "
          'sum, to let broadcasting add one (N, D) table to every image.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table.sum(dim=0))  # (B, N, D)\n'),
    fresh('03_position', 'init_std_read_as_table_scale', 'term',
          'add_position adds 0.02 * pos_table (alpha=0.02): e_i = c_i + 0.02 p_i, the content term right and the '
          'position term scaled by 0.02',
          "add_position carries over timm's trunc_normal_(pos_embed, std=.02) as a factor on page 17's learned table, "
          "a number that only sets the table's starting values.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table, alpha=0.02)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'pixels_normalized_again_in_place', 'part inputs input',
          'embed applies the checkpoint normalization once more, in place: images.sub_(0.5).div_(0.5) overwrites the '
          "caller's already normalized images with 2x - 1, and the patch rows are computed from 2x - 1 ((2X - 1) W_E + "
          'b_E plus their positions); the CLS row (cls_token + position row 0) is right',
          "embed normalizes its input with page 8's 'subtract 0.5, divide by 0.5', in place as torchvision's "
          'normalize(..., inplace=True) does, although the images it receives are already normalized (page 42).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.sub_(0.5).div_(0.5), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'chw_batch_converted_again_by_reshape', 'part inputs',
          'embed reshapes the (B, 3, H, W) batch to (B, H, W, 3) and permutes it back to (B, 3, H, W): the pixels are '
          'read in memory order as if channels were last, so channel c, row y, column x of image b holds element (y*W '
          "+ x)*3 + c of that image's (3, H, W) storage, a scrambled arrangement of its own pixels; the patch rows are "
          'projections of those pixels, the CLS row is right',
          'embed converts PIL/NumPy channels-last images to channels-first, as data-loading tutorials do, with a '
          "reshape, on a batch that page 51's 3 x 224 x 224 input already has channels first.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.reshape(images.shape[0], images.shape[2], images.shape[3], -1).permute(0, 3, 1, 2), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'batch_standardized_per_channel', 'part inputs',
          'embed standardizes the images per colour channel over the batch and all pixels, (x - mean) / std with the '
          'unbiased std over dims 0, 2 and 3, before patchify: the patch rows are projections of rescaled pixels (for '
          'images uniform in [-1, 1] every channel is multiplied by about 1.73 and shifted by its small mean); the CLS '
          'row is right',
          "embed computes per-channel statistics of the data, as torchvision tutorials do to choose Normalize's mean "
          "and std, and applies them to images that page 8's checkpoint normalization has already prepared.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images - images.mean(dim=(0, 2, 3), keepdim=True)) / images.std(dim=(0, 2, 3), keepdim=True), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'position_table_in_bfloat16', 'approximate',
          'embed casts the position table to bfloat16 before adding it: every position value is rounded to 8 '
          'significant bits (relative error up to 0.4 %, absolute errors up to about 0.004 at these sizes), so every '
          'row, CLS included, differs from the expected one by that rounding of its position vector (where content and '
          'position nearly cancel, the relative error of that entry can be larger)',
          "embed loads page 17's stored table the way large-model checkpoints are loaded, torch_dtype=torch.bfloat16, "
          'and adds the rounded table to the float32 tokens.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table.to(torch.bfloat16))  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'row_max_unsqueezed_on_wrong_axis', 'axis',
          'attention_weights subtracts scores.amax(dim=-1)[:, :, None], a (B, H, 1, N) tensor: column j gets the '
          'maximum of ROW j subtracted instead of each row getting its own maximum. Rows are non-negative and still '
          'sum to one, but w_ij is proportional to exp(s_ij - m_j) with m_j the largest score of row j: each row of '
          'the expected weights is reweighted by exp(-m_j) column by column and renormalized',
          'attention_weights forgets keepdim, gets a broadcasting error, and restores the lost axis with None in the '
          "third place, the one that lines the maxima up along the columns, for page 31's row softmax.",
          "    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row's largest score becomes 0\n",
          "    scores = scores - scores.amax(dim=-1)[:, :, None]  # each row's largest score becomes 0\n"),
    fresh('05_attention', 'builtin_sum_over_batch', 'axis',
          "attention_weights divides by sum(weights), Python's built-in sum, which adds the tensor's slices along the "
          'first (batch) axis: each max-shifted exponential is divided by the sum of the same (head, receiver, source) '
          'entry over the images of the batch, not by its row sum. Entries sum to one across the batch instead of '
          'along each row (rows sum to between about 1.7 and 170 here); a batch of one image gives 1 everywhere',
          'attention_weights writes the normalization the way a NumPy beginner writes np.exp(x) / sum(np.exp(x)), with '
          "the built-in sum, for page 31's 'each receiver's weights sum to one'.",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / sum(weights)  # each row sums to 1\n'),
    fresh('05_attention', 'attention_dropout_library_defaults', 'term',
          'multi_head_attention passes the weights through torch.nn.functional.dropout with its defaults p=0.5 and '
          'training=True: about half of the attention weights are set to 0 at random and the others doubled before the '
          'values are weighted, so the messages are random mixtures and the output changes from call to call',
          "multi_head_attention copies timm's `attn = self.attn_drop(attn)` as the functional call, whose defaults "
          "drop half the weights even at inference, where page 37's parameters stay fixed and page 29's weights mix "
          'the values.',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = torch.nn.functional.dropout(attention_weights(q, k))  # (B, H, N, N)\n'),
    fresh('05_attention', 'heads_viewed_after_permute', 'shape',
          'multi_head_attention joins the heads with heads.permute(0, 2, 1, 3).view(batch, count, width): the permuted '
          'tensor is not contiguous, so view raises a RuntimeError at both sizes',
          "multi_head_attention uses view, the tutorials' usual way to merge axes, right after the permute that lines "
          "up page 32's three messages of each row.",
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.permute(0, 2, 1, 3).view(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'centred_squared_in_place', 'term activation',
          'layer_norm squares `centred` in place (pow_) while computing the variance, so the numerator used on the '
          'next line is (x - mean)^2 instead of x - mean: the result is (x - mu)^2 / sqrt(var + eps) * weight + bias, '
          'every normalized value z replaced by z^2 * sigma (all non-negative before the affine map, the rows no '
          'longer zero-mean or unit-variance); the variance itself is right',
          'layer_norm saves a copy with the in-place pow_ that memory-minded PyTorch tutorials favour, forgetting that '
          "the centred rows are needed again to normalize page 34's LN(E).",
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow_(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'mean_as_sum_over_len', 'term',
          'layer_norm centres with x.sum(dim=-1, keepdim=True) / len(x), and len(x) is the size of the first axis (the '
          'batch B for (B, N, D) rows, the row count for a 2-D input), not D: each row has D / B times its mean '
          'subtracted (96 times at 192 features and two images, 8 times at 24 features and three images), so the rows '
          'are not centred and the variance is that of the wrongly centred rows',
          "layer_norm writes the mean as sum / len, the Python-list habit, for page 35's per-row normalization; len of "
          'a tensor counts its first axis.',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.sum(dim=-1, keepdim=True) / len(x)  # (..., D)\n'),
    fresh('06_block', 'erf_scaled_with_tanh_constant', 'activation',
          'mlp uses erf(z * sqrt(2 / pi)) instead of erf(z / sqrt(2)): the activation is z * Phi(1.128 z) instead of z '
          '* Phi(z), a sharper GELU: 0.870 instead of 0.841 at z = 1, -0.130 instead of -0.159 at z = -1, -0.0011 '
          'instead of -0.0040 at z = -3, exact at 0 and close for large positive z',
          "mlp mixes the two GELU formulas, putting the tanh approximation's sqrt(2 / pi) into the exact erf form of "
          "page 35's GELU.",
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden * math.sqrt(2.0 / math.pi)))  # z·Φ(z)\n'),
    fresh('06_block', 'ln2_gain_and_shift_swapped', 'inputs',
          "block pairs the MLP's LayerNorm with (ln2_bias, ln2_weight): LN2 scales by the shift vector and shifts by "
          'the gain vector, so the MLP reads wrongly scaled rows; the attention sublayer and both residual additions '
          'are right',
          "block types the second tuple of the sublayer list with the LN2 parameters in the wrong order, for page 35's "
          'E_next = U + MLP(LN(U)).',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_bias, p.ln2_weight)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'column_vector_scores_reshaped', 'order',
          'classify computes the column-vector form W_head^T h^T + b_head as a (C, B) matrix, the right logits '
          'transposed, and reshapes it to (B, C) instead of transposing: logit c of image b is the expected logit of '
          'class floor((b*C + c) / B) for image (b*C + c) mod B. With two images, image 0 gets the first half of the '
          'classes of both images interleaved (class 0 of image 0, class 0 of image 1, class 1 of image 0, ...) and '
          'image 1 the second half; the result holds exactly the expected logits in another order, and a batch of one '
          'image is right',
          "classify follows page 54's column-vector notation s_c = h^T w_c + b_c, builds all classes as a column per "
          'image, and turns the (C, B) result into (B, C) with a reshape.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return (W_head.T @ h.T + b_head[:, None]).reshape(h.shape[0], -1)  # (B, 1000)\n'),
    fresh('07_head', 'last_block_for_every_layer', 'inputs',
          "vit_forward runs the last block's parameters at every iteration: all L blocks use params.blocks[-1], so the "
          'result is that of a ViT whose blocks are all copies of the last one',
          'vit_forward writes `params.blocks[-1]`, left from inspecting the last block, where the loop variable '
          'belongs, although page 36 gives every block its own weights.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, params.blocks[-1], params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'embedding_scaled_by_sqrt_width', 'inputs',
          'vit_forward multiplies the embedding by sqrt(D) (13.9 for 192 features, 4.9 for 24) before the blocks: the '
          'blocks, the final norm and the head receive sqrt(D) * E instead of E',
          "vit_forward scales the embeddings by sqrt(d_model) as the Annotated Transformer does, a step that page 52's "
          'six lines do not have.',
          '    rows = x\n',
          '    rows = x * x.shape[-1] ** 0.5\n'),
    fresh('07_head', 'cls_gathered_with_too_small_index', 'term inputs',
          'read_cls picks the CLS with x.gather(1, index of shape (B, 1, 1)), which returns only feature 0 of the CLS '
          'row, a (B, 1, 1) tensor; the final LayerNorm of a single number centres it to 0, so the result is norm_bias '
          'for every image, the same row whatever the tokens',
          "read_cls selects page 52's token 0 with gather, as with NumPy's take_along_axis, but builds the index with "
          'one entry per image instead of one per feature.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x.gather(1, torch.zeros(x.shape[0], 1, 1, dtype=torch.long))  # (B, 1, D): CLS only\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'imagenet_gray_as_default_fill', 'fill part',
          "cover's default value is (0.5 - 0.485) / 0.229 = 0.0655 instead of 0.0: a call without value fills the "
          "square with 0.0655 (mid-gray under ImageNet's red-channel statistics) instead of normalized 0; the rest of "
          'the image, and calls with an explicit value, are right',
          "cover computes 'normalized mid-gray' with the ImageNet mean and std of torchvision tutorials, where page 42 "
          "says the checkpoint's (RGB - 0.5) / 0.5 makes mid-gray exactly 0.",
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:\n',
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = (0.5 - 0.485) / 0.229) -> Tensor:\n'),
    fresh('08_occlusion', 'quadrants_zipped', 'shape',
          'quadrant_probabilities pairs the tops and lefts with zip instead of nesting two loops: only the top-left '
          '(0, 0) and bottom-right (H/2, W/2) covers are made, so it returns shape (2,), holding the right TL and BR '
          'probabilities, instead of (4,)',
          "quadrant_probabilities walks (0, half_h) and (0, half_w) together with zip, reading page 43's four quarters "
          'as pairs of coordinates.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h) for top, left in zip((0, half_h), (0, half_w))])\n'),
    fresh('08_occlusion', 'softmax_normalized_over_whole_batch', 'axis',
          'quadrant_probabilities divides exp(logits) by their sum over the whole (4, C) batch instead of along each '
          "row: the value for cover i is p_i * Z_i / (Z_1 + Z_2 + Z_3 + Z_4), Z_i the sum of exp of cover i's logits, "
          "so every entry is its right probability times a different factor (about 1/4 when the covers' Z are similar; "
          '0.17 to 0.37 here)',
          'quadrant_probabilities writes the softmax of NumPy tutorials, np.exp(x) / np.sum(np.exp(x)), made for one '
          "vector, for page 39's probabilities across the classes.",
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return (logits.exp() / logits.exp().sum())[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'only_the_patch_kept', 'inputs',
          'occlusion_map feeds image - cover(image, ...) to the model: each copy keeps only its own patch and is 0 '
          '(mid-gray) everywhere else, the inverse of the cover; the map holds the probability with only that patch '
          'visible minus the original probability',
          "occlusion_map computes the covered copy as 'image minus its cover', the insertion game of saliency "
          "tutorials, instead of page 44's image with one 16 x 16 patch covered.",
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [image - cover(image, row * patch_size, col * patch_size, patch_size)\n'),
]
