"""A sixteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or the other sets of mistakes beyond their format and
what was needed to avoid repeats. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py, exercises/01_flatten.py ... 08_occlusion.py, the lecture transcript,
tests/mutants/fresh.py up to its line `FRESH = [` (the CLAIMS vocabulary, the `Fresh` class and the
`fresh` helper), tests/mutants/blind.py, blind2.py ... blind14.py (read in full, to follow their format
and to leave out every mistake they already hold) and pyproject.toml (its first fifty lines, for the
line length). Directory listings of tests/mutants/ and exercises/ showed the names of the other files
there (catalogue.py, novel.py, unseen.py among them), which were not opened; nothing under grader/, no
catalogue, no other mutant set, no other test and no docs were opened, and no git history was looked
at (a `git status` was once run by mistake with its output discarded unseen). One slip: a grep for this set's names over blind[0-9]*.py, meant to find repeats in blind.py ...
blind14.py, also searched blind15.py (written at the same time, never opened) and showed that the name
`expand_given_repeat_counts`, first chosen here for prepend_cls, occurs there; that entry was replaced
by another mistake so that the two sets do not share it. The check of this set loaded the independent
steps with a stand-in for the `grader` import (its `earlier_step` and parameter classes), not the kit's
own grader; an attempt to import this file through mutants.fresh without the kit on the path failed with
a traceback that showed one line of tests/mutants/catalogue.py (its import of grader.paths), and was not
repeated.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or makes the call fail, or
returns the wrong shape or type), with what is really wrong (`structure`) and the kinds of structure
its error truly has (`claims`). None is marked hidden: every one shows at the lecture's own sizes.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND16 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'channel_constants_on_width_axis', 'shape',
          'normalize subtracts and divides by per-channel (3,) tensors of 0.5, which broadcasting lines up '
          'with the last axis of the pixels (the width of a (B, 3, H, W) batch), not with the channel axis: '
          'unless the last axis has 3 entries the shapes do not fit and the call fails (for 224 x 224 images '
          'and for the two pixels of the example alike); where it runs, the values are the right ones',
          'normalize writes page 8\'s "subtract 0.5 and divide by 0.5 per channel" as torchvision\'s '
          'Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5]), one constant per RGB channel, not seeing that '
          'a (3,) tensor broadcasts against the width, not the channels.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - Tensor([0.5, 0.5, 0.5])) / Tensor([0.5, 0.5, 0.5])  # [-1, 1]\n'),
    fresh('01_flatten', 'divided_by_squared_std', 'scale',
          'normalize divides by 0.5 ** 2 = 0.25 instead of 0.5: (x / 255 - 0.5) / 0.25 = 4 x / 255 - 2, every '
          'value twice the expected one, range [-2, 2] instead of [-1, 1]',
          'normalize takes the 0.5 of "divide by 0.5" for a standard deviation and divides by its square, '
          'remembering standardization as "minus the mean, over the variance".',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - 0.5) / 0.5 ** 2  # [-1, 1]\n'),
    fresh('01_flatten', 'batch_axis_moved_in_permute', 'order',
          'patchify permutes the tiles to (rows, cols, B, C, P, P), moving the batch axis behind the grid, so '
          'the final reshape to (B, N, 3*P*P) deals the patch rows out across the images: every row is a whole, '
          'channel-major patch, but row n of image b is patch (b*N + n) // B of image (b*N + n) % B (for two '
          'images, image 0 holds P1 of image 0, P1 of image 1, P2 of image 0, ...); right only for one image',
          'patchify lists the grid axes first "so that the patches come out row by row", believing the reshape '
          'to (B, N, 3*P*P) finds the batch axis by its size wherever it sits; a test with one photograph came '
          'out right.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(2, 3, 0, 1, 4, 5)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'cls_flag_ignored', 'term',
          'count_tokens always adds the CLS token, whatever `cls` says: cls=False gives 197 instead of 196 for '
          '224 and 16 (50 instead of 49 for 32-pixel patches); the default cls=True is right and the '
          'divisibility check still raises',
          'count_tokens follows page 48\'s "Add one CLS token for this architecture" and adds it unconditionally, '
          'never reading the flag.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side + 1\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'channel_kernels_summed', 'shape term',
          'conv_to_linear adds the R, G and B kernels of every output channel into one P x P kernel before '
          'flattening: W_E is (P*P, D), each row the sum of the three colour weights of one pixel, instead of '
          '(3*P*P, D), so it no longer fits the 3*P*P values of a patch row',
          'conv_to_linear remembers that a convolution adds up the results of its input channels and sums the '
          'channel kernels first, as if one kernel were applied to the summed colours.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.sum(dim=1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'numpy_transpose_without_axes', 'shape',
          'conv_to_linear calls Tensor.transpose() without axes: PyTorch\'s transpose needs the two axes to '
          'swap, so the call fails with a TypeError before any W_E is returned',
          'conv_to_linear transposes the (D, 3*P*P) matrix the NumPy way, arr.transpose() with no arguments, '
          'which in NumPy reverses the axes of a matrix.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose().clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'tensordot_default_dims', 'shape',
          'project calls torch.tensordot(patches, W_E) with its default dims=2, which contracts the last two '
          'axes of the patches, (N, 3*P*P), with the first two of W_E, (3*P*P, D): N does not match 3*P*P '
          '(196 and 768) nor 3*P*P match D, and the call fails',
          'project uses tensordot for "the product over the pixel axis", expecting it to contract one axis like '
          'a matrix product, not knowing that its default contracts two.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.tensordot(patches, W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'bias_repeated_flat', 'shape',
          'project repeats the (D,) bias with b_E.repeat(N), which lays the N copies end to end in one flat '
          'vector of N*D values instead of N rows: it cannot be added to the (B, N, D) product and the call '
          'fails',
          'project gives every patch row its own copy of the bias by hand (page 12: "the same bias across every '
          'row"), believing repeat(N) on a vector stacks N rows, as repeat(N, 1) would.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E.repeat(patches.shape[1])  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'size_subscripted', 'shape',
          'add_position reads the batch size as tokens.size[0]: Tensor.size is a method, not a tuple like '
          'shape, so subscripting it raises a TypeError and the call fails',
          'add_position mixes up the shape attribute with the size() method (in NumPy, size is an attribute) '
          'and indexes size like shape.',
          '    batch = tokens.shape[0]\n',
          '    batch = tokens.size[0]\n'),
    fresh('03_position', 'token_and_feature_axes_swapped', 'shape order',
          'add_position returns the right sums with the token and feature axes swapped, (B, D, N) instead of '
          '(B, N, D): every image holds its c_i + p_i as columns',
          'add_position hands back the features-first layout of the patch convolution\'s output (B, 192, 14, 14) '
          'flattened to (B, 192, 196), taking the channels-first order of CNN feature maps for what the encoder '
          'reads.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table).transpose(1, 2)  # (B, N, D)\n'),
    fresh('03_position', 'table_transposed_then_reshaped', 'term',
          'add_position transposes the (N, D) table and reshapes the (D, N) result back to (N, D) instead of '
          'transposing it back: row i of the new table is the i-th run of D values of the table read column by '
          'column (feature 0 of positions 0, 1, 2, ..., then feature 1 ...), so every token gets a scrambled '
          'vector instead of p_i',
          'add_position believes the table stores one position per column (page 17 draws the position vectors '
          'side by side) and transposes it, then makes the shapes fit again with reshape.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.T.reshape(pos_table.shape).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one '
          'table for every image\n'),
    fresh('03_position', 'expand_without_new_axis', 'shape',
          'add_position expands the 2-D (N, D) table with the sizes (B, -1): expand cannot turn the N rows into '
          'B copies of the table along an existing axis, so the call fails (unless the batch happens to hold N '
          'images, when the table comes back unchanged and broadcasts)',
          'add_position expects expand(batch, -1) to add a batch axis of B copies, as repeat would, and forgets '
          'the unsqueeze(0) that creates that axis.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.expand(batch, -1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_as_column', 'shape',
          'prepend_cls shapes CLS as a (1, D, 1) column and repeats it to (B, D, 1): its last axis of size 1 '
          'does not match the D features of the (B, N, D) tokens, so the concatenation fails',
          'prepend_cls makes CLS a column vector, as page 54 writes h_CLS and the class vectors as columns.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, width, 1).repeat(batch, 1, 1)  # (B, 1, D)\n'),
    fresh('04_cls', 'cat_without_tuple', 'shape',
          'prepend_cls calls torch.cat(start, tokens, dim=1) without putting the tensors in a tuple: cat takes '
          'the tensors as its first argument and the tokens land in the place of dim, so the call fails with a '
          'TypeError',
          'prepend_cls passes the two pieces to torch.cat as separate arguments, like a + b, forgetting that '
          'cat wants one sequence of tensors.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat(start, tokens, dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'first_photograph_only', 'shape',
          'embed patchifies images[:1], the first image only: the result is (1, 1+N, D), the right sequence of '
          'image 0, instead of (B, 1+N, D); the other images of the batch are dropped (a batch of one is right)',
          'embed keeps the images[:1] it used while checking the lecture\'s single photograph (page 13\'s P63 '
          'features) against its own numbers.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images[:1], params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'images_channels_last', 'shape',
          'embed permutes the (B, 3, H, W) images to (B, H, W, 3) before patchify, which reads them as 3-pixel '
          'wide images with H channels: a patch of P pixels does not fit in a width of 3 and the call fails',
          'embed converts the images to the channels-last layout of PIL and NumPy images (H x W x 3), believing '
          'patches are cut from an image stored that way.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.permute(0, 2, 3, 1), params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'ellipsis_indexes_last_axis', 'shape',
          'qkv_heads takes q as mixed[..., 0], which indexes the last axis (feature 0 of every head) instead of '
          'the q/k/v axis: q comes out (B, 3, N, H), feature 0 of every head of q, k and v, instead of '
          '(B, H, N, d); k and v are right',
          'qkv_heads writes mixed[..., 0] for "the first of q, k and v", believing the ellipsis stands for the '
          'batch and token axes in front of it.',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[..., 0].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'cosine_scores', 'inputs',
          'attention_weights scores with unit-length queries and keys: q_i . k_j / (|q_i| |k_j| sqrt(d)), the '
          'cosine of the two divided by sqrt(d), instead of q_i . k_j / sqrt(d); every score lies within '
          '+-1/sqrt(d) (1/8 for heads of 64), so the weights are nearly uniform',
          'attention_weights measures how well a query and a key "match" (page 28) by the angle between them, '
          'normalizing both first as cosine similarity does.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q / q.norm(dim=-1, keepdim=True), k / k.norm(dim=-1, '
          'keepdim=True)) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'boltzmann_minus_sign', 'sign',
          'attention_weights exponentiates minus the scores: each row is the softmax of -q.k / sqrt(d) (a '
          'softmin), so every receiver gives most weight to the keys that match it least; the rows still sum '
          'to 1',
          'attention_weights writes the weights as exp(-score), the Boltzmann factor exp(-E / T) of physics, '
          'with the score in the place of the energy.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = (-scores).exp()  # (B, H, N, N)\n'),
    fresh('05_attention', 'messages_averaged', 'scale shift',
          'multi_head_attention divides every head\'s message by the number of tokens N: the result is '
          '(expected - b_o) / N + b_o, the expected update times 1 / N plus the row b_o (1 - 1 / N) for every '
          'token',
          'multi_head_attention takes page 29\'s message for an average over the sources and divides the '
          'weighted sum by their count, although the weights already sum to one.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v) / count  # (B, H, N, d): weighted sums of '
          'values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'square_of_mean_deviation', 'term',
          'layer_norm squares the mean deviation instead of averaging the squared deviations: the mean of the '
          'centred row is 0, so the spread is 0 and every row is divided by sqrt(eps) = 0.001 instead of its '
          'standard deviation; the normalized part is 1000 (x - mean) instead of (x - mean) / std',
          'layer_norm chains the two reductions of "the mean of the squared deviations" in the wrong order, '
          'mean then square.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.mean(dim=-1, keepdim=True).pow(2)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'bias_divided_by_std', 'term',
          'layer_norm divides the shift by each row\'s standard deviation too: (x - mean) / std * weight + '
          'bias / std instead of ... + bias; the scaled part is right, the bias term of every row is off by its '
          'own factor 1 / std',
          'layer_norm writes the normalization as one fraction, (weight (x - mean) + bias) over the standard '
          'deviation, putting the shift above the fraction bar.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return (centred * weight + bias) / torch.sqrt(spread + eps)  # (..., D)\n'),
    fresh('06_block', 'contraction_left_out', 'shape',
          'mlp returns the GELU activations of the expansion, (B, N, 4D), without the contraction: W_2 and b_2 '
          'are never used and the result is four times too wide',
          'mlp stops after the nonlinearity, taking "expand, then GELU" for the whole MLP and forgetting the '
          'last arrow of page 35\'s 192 -> 768 -> 192.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return hidden  # (B, N, D)\n'),
    fresh('06_block', 'layer_norms_left_out', 'inputs term',
          'block never normalizes: both sublayers read the raw rows, U = x + MSA(x) and x_next = U + MLP(U), '
          'instead of x + MSA(LN1(x)) and U + MLP(LN2(U)); LN1 and LN2 are never applied',
          'block follows the pictures of pages 34-35, which leave normalization out ("Normalization is omitted '
          'from this conceptual diagram"), and adds each sublayer\'s update of the rows themselves.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream + update(stream)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'squeeze_without_axis', 'shape',
          'read_cls squeezes every axis of size 1 instead of the token axis only: for a batch of one image '
          'the final CLS comes back as (D,) instead of (1, D) (the values are right, and batches of two or '
          'more images are right)',
          'read_cls drops the token axis with squeeze(), trusting it to remove "the" axis of size 1, not '
          'thinking of the lecture\'s single photograph, whose batch axis has size 1 too.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze()  # (B, D)\n'),
    fresh('07_head', 'logits_max_subtracted', 'shift',
          'classify subtracts each image\'s largest logit from all its logits: every row of logits is shifted '
          'by its own constant, so the top class scores 0 and every other class a negative number',
          'classify applies the stabilizing "subtract the row maximum" of its hand-written attention softmax '
          '(step 5) to the class scores, although no softmax follows here (page 52).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return (s := torch.addmm(b_head, h, W_head)) - s.amax(dim=-1, keepdim=True)  # (B, 1000)\n'),
    fresh('07_head', 'block_list_passed', 'shape',
          'vit_forward passes the whole sequence params.blocks to every block call instead of the loop\'s '
          'BlockParams: block reads the LayerNorm and attention parameters as fields of a sequence, which has '
          'none, and the call fails',
          'vit_forward writes the collection where the loop variable belongs, encoder.block(rows, '
          'params.blocks, ...), as "the blocks\' parameters".',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, params.blocks, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'summary_returned_too', 'type',
          'vit_forward returns a pair, the right (B, C) logits and the (B, D) final CLS, instead of the logits '
          'tensor alone',
          'vit_forward also hands back the image embedding, as model outputs of libraries carry hidden states '
          'next to the logits, to look at the CLS summary of page 38 later.',
          '    return classify(summary, params.W_head, params.b_head)  # (B, 1000)\n',
          '    return classify(summary, params.W_head, params.b_head), summary  # (B, 1000)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'left_used_for_rows', 'part',
          'cover takes the rows of the square from `left` instead of `top`: it fills rows left .. left+size-1 '
          'and columns left .. left+size-1, a square on the diagonal; right when top == left, otherwise the '
          'wrong square is covered (the top-right quarter cover hides the bottom-right quarter)',
          'cover copies the column slice for the row slice and forgets to change left to top.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, left:left + size, left:left + size] = value\n'),
    fresh('08_occlusion', 'quarters_clockwise', 'order part',
          'quadrant_probabilities covers the quarters clockwise, top-left, top-right, bottom-right, '
          'bottom-left, and returns them in that order: the last two values are swapped (TL and TR are right)',
          'quadrant_probabilities goes round the image clockwise, as one reads a clock face, instead of the '
          'row-by-row order TL, TR, BL, BR of the docstring and page 43.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h) for top, left in ((0, 0), (0, half_w), (half_h, '
          'half_w), (half_h, 0))])\n'),
    fresh('08_occlusion', 'log_probabilities', 'activation',
          'quadrant_probabilities returns the log-probability of the target for each covered image, '
          'log_softmax instead of softmax: negative numbers, the logarithms of the expected probabilities',
          'quadrant_probabilities uses log_softmax, the form classification code passes to its loss, taking it '
          'for the numerically safe softmax.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.log_softmax(logits, dim=-1)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'gray_image_baseline', 'shift inputs',
          'occlusion_map compares every covered probability with that of an all-gray image (normalized 0 '
          'everywhere) instead of the uncovered photograph: every cell is off by the same constant, the '
          'original probability minus the gray image\'s',
          'occlusion_map measures the change against a blank reference, the all-gray baseline of attribution '
          'methods, reading "covered minus original" as "covered minus nothing shown".',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(torch.zeros_like(image)), dim=-1)[0, target]  # the uncovered '
          'probability\n'),
]
