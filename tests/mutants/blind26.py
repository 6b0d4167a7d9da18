"""A twenty-sixth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/)
and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats. Files opened: a listing of tests/mutants/independent/ and of exercises/ (tests/mutants/ itself was
never listed); tests/mutants/independent/01_flatten.py ... 08_occlusion.py, printed whole; exercises/01_flatten.py
... 08_occlusion.py, printed whole; the lecture transcript, first through a grep of its headings and its byte
count, then its transcript part (pages 1-55, lines 62-720) printed whole, the page index above it read only
as far as the heading grep showed it; tests/mutants/fresh.py up to and including its line `FRESH = [` (lines
1-70: the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper); for the format, the first 80 lines,
lines 80-140 and the last 25 to 30 lines of tests/mutants/blind24.py; and the lines of pyproject.toml that a
grep for "ruff" with 30 lines after each hit showed (cut to its first 60 lines: the line length of 120, the
lint selection and ignores, with the neighbouring dev dependencies, project scripts, setuptools and pytest
settings). To leave out every mistake the earlier sets hold, blind.py, blind2.py ... blind24.py (named one by
one in a list, never by a glob) were loaded by a throwaway script outside the repository with a stand-in
`fresh` that recorded its arguments; it printed the step, function, name, claims, hidden flag, old and new
text of every entry (736 of them, sorted by step and function), and that printout was read whole (a part of
steps 3 and 4 that the first printing cut off was printed and read again), with a search of the recorded new
texts and names for the edits below; three first choices for step 3 (the content scaled by sqrt(D), the
tokens added to themselves and the table unsqueezed on the wrong axis) turned out to be there already and
were replaced, as were a final norm used as CLIP's ln_pre and an RMS final norm, whose ideas other entries
hold. blind25.py was neither opened, listed nor searched. Nothing under grader/, no catalogue, no novel.py or
unseen.py, no other test, no docs, solutions or fixtures were opened, no git command was run and the kit's
grader, CLI and tests were not run.

The check of this set (throwaway scripts in /tmp/blind26work/, outside the repository) loaded the independent
steps from their source text with a stand-in `grader` module (an `earlier_step` that loads the unedited
earlier step from its text, and dataclass stand-ins for `ViTParams` and `BlockParams`), applied every edit
(its old text found exactly once in its step) and compared the edited function with the original on random
inputs at the lecture's sizes (224 x 224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes; two
blocks for the whole model; batch 2) and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2
heads, 10 classes, two blocks; batch 3): every edit changes its function's numbers at both sizes, except the
two shape mistakes, whose calls raise at both. The occlusion functions used a small stand-in classifier (8 x 8
average pooling of the image, then a random linear map to the classes, scaled to logits of standard deviation
3, following the class it ranks first). The `structure` statements were checked numerically: the strided
pixels of each patch and the permutation of patchify, the token counts (1, 0, 1, 4, 1 for 224/16, 224/16
without CLS, 32/8, 224/8, 224/32, and the raise for 225/16), the factor 1/sqrt(2) and the map 2e - 1 of
normalize with their ranges, the element index formulas of both kernel readings and their permutation, the
left-out term x_0 W_E[0], the rolled rows, the column 0, last row, 1/sqrt(D) and the one-grid-row roll of
add_position (CLS row right), the max-pooled row 0, the CLS row left right by the ImageNet normalization,
v = k, the non-negative unit-sum rows of the exponential-free weights with weight 0 at the largest score and
the largest weight at the smallest, the transposed join and the W_o rows of head 1, the bias -2b, the
centring over two axes (mean square 1, non-zero means), the activation z (0.5 + erf(z / sqrt 2)) with its
values 3 and 9 at -6 and 6, the row-dependent error of the bias mix-up in block, the shift -norm_bias, the
zero-mean unit-variance rows of the affine-first norm, the ViT with the embedding added after each block and
with the blocks [1, 2, 2], the 2 size + 1 extra pixels of the inclusive cover (none at the bottom-right
edge), the mean-coloured square, the quadrant probabilities (the last one right, the first one that of an
all-gray image) and the occlusion map whose only right cell is (0, 0). No edit changes its inputs in place
(checked for every edit at both sizes). The checks did not import the kit's grader or the mutants package.
Last, `ruff check` and an import of this module (which loads mutants/fresh.py) were run on it, printing the
function (Fresh.function), claims and hidden flag of each entry and confirming that each old text occurs once
in its step and that every claim is a CLAIMS kind; the import ran from tests/ with PYTHONPATH=/work/main,
since mutants/fresh.py imports mutants/catalogue.py, which needs the kit's `grader` package on the path.

Four mistakes per step, spread over the step's functions (classify is the only function left without one),
each an edit of one line (or one expression). Two are shape mistakes (cls_concatenated_on_feature_axis and
patch_size_from_weight_rows, whose calls raise); none is marked hidden.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND26 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'patch_axes_split_strided', 'order',
          'patchify splits each image axis as (P, H // P) instead of (H // P, P): patch (r, c) holds the pixels (i * '
          'side + r, j * side + c) for i, j in 0..P-1, every side-th pixel of the whole image, instead of the '
          'contiguous crop starting at pixel (r * P, c * P); the rows hold the expected values in another order (each '
          "image's pixels permuted; inside a row the channel-major R, G, B blocks are kept)",
          'patchify writes the einops split of a strided tutorial, "b c (p1 h) (p2 w)", as a reshape to (B, C, P, H '
          "// P, P, W // P), putting the patch factor first, although page 7's crops are (h p1): 14 groups of 16 "
          'consecutive pixels.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.reshape(B, C, P, H // P, P, W // P).permute(0, 1, 3, 5, 2, 4)  # (B, C, rows, cols, P, '
          'P)\n'),
    fresh('01_flatten', 'power_before_floor_division', 'term',
          'count_tokens returns image_size // patch_size ** 2 (+ 1 for CLS) instead of (image_size // patch_size) ** '
          '2 (+ 1): ** binds before //, so 224 and 16 give 224 // 256 = 0, one token instead of 197 (0 instead of 196 '
          'without CLS); 32 and 8 give 32 // 64 = 0, 1 instead of 17; 224 and 8 give 3 + 1 = 4 instead of 785; the '
          'divisibility check still raises',
          "count_tokens writes page 7's (224 / 16)**2 = 196 in one line without brackets, image_size // patch_size "
          '** 2, reading it left to right.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return image_size // patch_size ** 2 + (1 if cls else 0)\n'),
    fresh('01_flatten', 'std_read_as_variance', 'scale',
          'normalize divides x / 255 - 0.5 by sqrt(0.5) instead of 0.5: the result is the expected one times 0.5 / '
          'sqrt(0.5) = 1 / sqrt(2) = 0.70711, in [-0.7071, 0.7071] instead of [-1, 1]',
          'normalize reads the second 0.5 of page 8 ("subtract 0.5 and divide by 0.5") as a variance, as in the '
          'N(mu, sigma**2) notation of a statistics course, and divides by its square root.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - 0.5) / 0.5 ** 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'normalization_applied_twice', 'scale shift',
          'normalize applies 2s - 1 twice to s = x / 255: it returns 2 (2s - 1) - 1 = 4x / 255 - 3, the expected '
          'value times 2 minus 1, in [-3, 1] instead of [-1, 1]',
          'normalize follows a torchvision pipeline that lists Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)) twice '
          "(once in the dataset's Compose, once in the model wrapper) and so applies page 8's (x - 0.5) / 0.5 a "
          'second time.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled * 2.0 - 1.0) * 2.0 - 1.0  # [-1, 1]\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_read_as_jax_hwio', 'order',
          'conv_to_linear reinterprets the memory of the (D, 3, P, P) kernel as a (P, P, 3, D) kernel and permutes '
          'that to (D, 3, P, P): entry (c P**2 + i P + j, d) of W_E is element ((i P + j) 3 + c) D + d of the flat '
          'conv_weight instead of conv_weight[d, c, i, j], so W_E holds the expected values in another order, '
          'scattered across kernels, channels and pixels',
          "conv_to_linear copies the conversion of the original JAX ViT checkpoints (page 53's Conv2d lab), which "
          'stored the patch kernel as (P, P, 3, D) and needed permute(3, 2, 0, 1), and applies it through a reshape '
          'to the weight that is already in PyTorch layout.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.reshape(conv_weight.shape[2], conv_weight.shape[3], conv_weight.shape[1], '
          'conv_weight.shape[0]).permute(3, 2, 0, 1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like '
          'patchify\n'),
    fresh('02_project', 'kernel_read_as_conv_transpose', 'order',
          'conv_to_linear reinterprets the memory of the (D, 3, P, P) kernel as (3, D, P, P), the layout of a '
          'ConvTranspose2d weight, and swaps the first two axes: entry (c P**2 + i P + j, d) of W_E is pixel (i, j) '
          'of channel (c D + d) % 3 of kernel (c D + d) // 3 instead of channel c of kernel d; pixel positions stay, '
          'but every column mixes channels of other kernels (the expected values in another order)',
          'conv_to_linear remembers that ConvTranspose2d keeps its input channels first, (in, out, P, P), takes '
          'Conv2d to do the same, and "moves" the output axis to the front with a reshape to (3, D, P, P) and a '
          "transpose instead of page 10's plain flatten.",
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.reshape(conv_weight.shape[1], conv_weight.shape[0], conv_weight.shape[2], '
          'conv_weight.shape[3]).transpose(0, 1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'first_pixel_left_out', 'term',
          "project leaves the first of the 3 P**2 values of every patch (the top-left red pixel) and W_E's first row "
          'out of the product: the result is the expected one minus patches[..., 0] times W_E[0], a different amount '
          'for every patch row',
          "project treats the first column of X as the constant 1 of the bias trick (x augmented with a 1, W with b as "
          "its first row), skips it and W_E's row 0, and adds b_E separately, although page 10's x_i holds 768 pixel "
          'values and no constant.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches[..., 1:], W_E[1:]) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'patches_rolled_for_cls_slot', 'order',
          'project rolls the patch rows one place down before projecting: row 0 holds the content of the last patch '
          'PN and row i (i >= 1) that of the patch before it, so every row holds another row of the expected result '
          '(the rows cyclically shifted by one)',
          "project shifts the patches by one with torch.roll so that P1 lands at index 1 of page 23's [CLS; P1; ...; "
          'P196], as if row 0 were to be overwritten by CLS later; prepend_cls then adds a row in front anyway.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches.roll(1, dims=1), W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'first_feature_unpositioned', 'part term',
          'add_position leaves feature 0 of every token without its position: column 0 of the result is c_i[0] '
          'instead of c_i[0] + p_i[0]; the other D - 1 columns are right',
          'add_position adds WHAT and WHERE coordinate by coordinate, as page 16 says, in a loop written from 1 to D '
          '- 1 as in a one-based language, so coordinate 0 never gets its position.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens[..., :1], torch.add(tokens, table)[..., 1:]), dim=-1)  # (B, N, D)\n'),
    fresh('03_position', 'last_token_unpositioned', 'part term',
          'add_position leaves the last token (P196 in the lecture) without its position: the last row of every '
          'image is c_N instead of c_N + p_N; all other rows are right',
          'add_position copies the tokens and adds page 17\'s p_i row by row in a loop over range(N - 1), the '
          'off-by-one of a loop that "stops before the end" twice, so the last patch keeps its bare content.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((torch.add(tokens, table)[:, :-1], tokens[:, -1:]), dim=1)  # (B, N, D)\n'),
    fresh('03_position', 'positions_scaled_down_by_sqrt_width', 'term',
          'add_position adds p_i / sqrt(D) instead of p_i: the position term is divided by 13.86 at D = 192 (by 4.90 '
          'at D = 24) while the content is kept, so the result is c_i + p_i / sqrt(D)',
          "add_position borrows the 1 / sqrt(d) of scaled dot-product attention (page 28) to keep page 16's sum from "
          'growing, and scales the learned table down by sqrt(D) before adding it.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table, alpha=tokens.shape[-1] ** -0.5)  # (B, N, D)\n'),
    fresh('03_position', 'patch_positions_one_grid_row_down', 'part term',
          'add_position gives patch (r, c) the table row of patch (r + 1, c), the patch below it, and the patches of '
          'the last grid row the rows of the first grid row: rows 1..N-1 of the table are rolled up by one grid row '
          '(side rows) before adding, so every patch token gets another patch\'s position; the CLS row 0 is right',
          'add_position looks the table row up from one-based grid coordinates, as page 15 counts P63 at "row 5, '
          'column 7 when we count from one", so the row index is one grid row (side positions) too far, wrapping at '
          'the bottom.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((pos_table[:1], pos_table[1:].roll(-round((pos_table.shape[0] - 1) ** 0.5), dims=0)))'
          '.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_slot_max_pooled', 'part inputs',
          "prepend_cls fills row 0 with the feature-wise maximum over the image's patch tokens instead of the "
          'learned CLS vector: row 0 of every image is wrong (and differs between images), rows 1..N are right',
          'prepend_cls seeds the summary slot with a global max pooling of the patches, the readout of a CNN head '
          '(page 18 mentions pooling as another readout), instead of the learned start vector of page 20.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = tokens.amax(dim=1, keepdim=True)  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_concatenated_on_feature_axis', 'shape',
          'prepend_cls concatenates CLS and the patch tokens along the feature axis (dim=-1) instead of the token '
          'axis: (B, 1, D) and (B, N, D) do not fit there and the call raises (for N = 1 it would return (B, 1, 2D))',
          'prepend_cls uses the dim=-1 habit for "attaching a vector", although page 23 puts CLS in front as an '
          'extra row.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens), dim=-1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'imagenet_normalize_applied_again', 'part inputs',
          'embed standardizes the already normalized images once more with the ImageNet mean (0.485, 0.456, 0.406) '
          'and std (0.229, 0.224, 0.225) per channel before patchify: every patch row of the result (rows 1..N) is '
          'wrong, the CLS row 0 is right',
          'embed adds the transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]) line of most '
          "PyTorch tutorials, although the images reach embed normalized with page 8's 0.5 and 0.5.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images - torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)) / '
          'torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'patch_size_from_weight_rows', 'shape',
          "embed derives the patch size from W_E as int(sqrt(3 P**2)) (27 for the lecture's 768 rows, 13 for 192) "
          'instead of params.patch_size: patchify cuts 27-pixel (13-pixel) patches of 3 * 27**2 values, which do not '
          'fit the rows of W_E, and the call raises',
          "embed recovers P from page 10's 768 input rows as sqrt(768), forgetting the three colour channels of page "
          "8's 16 x 16 x 3, instead of reading params.patch_size.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images, int(params.W_E.shape[0] ** 0.5))  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'value_copied_from_key_line', 'inputs part',
          'qkv_heads returns the keys as the values: v is k (the columns D..2D-1 of the product) instead of the '
          'columns 2D..3D-1; q and k are right',
          'qkv_heads writes the v line by copying the k line above it and forgets to change the index 1 to 2, the '
          "copy-and-paste slip of page 26's three parallel projections.",
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'exponential_left_out', 'activation',
          'attention_weights divides the max-shifted scores s - max(s) themselves by their row sum, with no '
          'exponential: each row still sums to 1 and is non-negative, but the weights are linear in the scores and '
          'reversed (the largest score gets weight 0, the smallest the most)',
          'attention_weights keeps the "subtract the row maximum, divide by the row sum" of a softmax written by hand '
          "and drops the exp line as if it were only part of the stabilization, so page 28's row softmax loses its "
          'exponential.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = scores  # (B, H, N, N)\n'),
    fresh('05_attention', 'heads_joined_after_last_axes_swapped', 'order',
          'multi_head_attention joins the heads with transpose(-2, -1) instead of moving the head axis next to the '
          'features: it reshapes the (B, H, d, N) messages into (B, N, D) rows, so every joined row is a run of D '
          'consecutive values of that layout, one feature of one head across consecutive tokens (running into the '
          'next feature or head), the expected messages in another order, before W_o and b_o are applied',
          "multi_head_attention reuses the transpose(-2, -1) of k's transpose in q k^T (page 28) to bring the "
          "messages back to rows, instead of page 32's joining of each row's three 64-feature messages.",
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.transpose(-2, -1).reshape(batch, count, width)  # (B, N, H*d)\n'),
    fresh('05_attention', 'first_head_output_rows_reused', 'inputs term',
          "multi_head_attention projects every head's message with the first d rows of W_o (the rows of head 1) "
          'instead of its own block of d rows, and adds b_o once: head 1\'s term is right, the terms of heads 2..H '
          'use the wrong rows, so every row of the result is wrong',
          'multi_head_attention applies the output projection head by head, summing heads[:, h] @ W_o[...] over h, '
          'and writes the slice of W_o as [:d] without the offset h * d, so page 32\'s projection of the joined '
          'messages uses one block for all heads.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return sum(heads[:, h] @ W_o[:width // num_heads] for h in range(num_heads)) + b_o  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'norm_bias_subtracted', 'sign shift',
          'layer_norm subtracts the learned shift instead of adding it: the result is the expected one minus 2 * '
          'bias, the same row broadcast to every row',
          'layer_norm writes the shift with a minus sign, by analogy with the "minus the mean" of the centring step '
          '(page 34), as if bias were another mean to remove.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps) * weight - bias  # (..., D)\n'),
    fresh('06_block', 'mean_over_tokens_and_features', 'axis',
          "layer_norm centres every row with the mean over all tokens and features of its image (the last two axes) "
          "instead of the row's own mean, then divides by the root mean square of that deviation: before the scale "
          'and shift each row has mean square 1 but a non-zero mean (so a variance below 1), and every row is wrong',
          'layer_norm takes the mean over the last two axes, the nn.LayerNorm(x.shape[1:]) habit of normalizing a '
          "whole layer of activations, although page 34's LN works on each token row alone.",
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=(-2, -1), keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'gelu_half_applied_to_one_term', 'activation',
          'mlp computes z (0.5 + erf(z / sqrt(2))) instead of 0.5 z (1 + erf(z / sqrt(2))): the 0.5 is distributed '
          'only to the 1, so the activation is GELU(z) + 0.5 z erf(z / sqrt(2)), which tends to 1.5 z for large z '
          'and to -0.5 z = 0.5 |z| (positive, instead of 0) for very negative z (3 and 9 at z = -6 and 6)',
          'mlp expands z Phi(z) = z (1/2 + erf(z / sqrt 2) / 2) by hand and halves only the first term (page 35, '
          'GELU between the two layers).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * (0.5 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'attention_bias_typed_as_mlp_bias', 'inputs term',
          "block passes the MLP's output bias b_2 to the attention instead of its output bias b_o: the attention "
          'update U - E is off by the row b_2 - b_o, and the MLP then reads LN of those shifted rows, so the '
          "block's result is wrong in every row (not a plain shift)",
          'block picks p.b_2 from the completion list while typing the attention call, the two (D,) output biases '
          'of the block (page 34: U = E + MSA(LN(E))) looking alike.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_2, num_heads)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_without_bias', 'shift term',
          'read_cls applies the final LayerNorm with its scale but without its shift: the result is the expected '
          'final CLS minus norm_bias, the same row for every image',
          "read_cls copies a bias-free LayerNorm (LayerNorm(D, bias=False), as in nanoGPT's configuration) for "
          "page 38's final normalization and passes 0 for the shift.",
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_weight, 0.0).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'norm_parameters_applied_before_normalizing', 'term',
          'read_cls multiplies CLS by norm_weight and adds norm_bias first, then normalizes without scale or shift: '
          'the result is LN(x * w + b) with unit gain and zero shift instead of LN(x) * w + b, so its rows have mean '
          '0 and unit variance (up to eps) and every value is wrong',
          'read_cls reads page 52\'s "normalize, then extract token 0" as "apply the norm\'s learned parameters, '
          'then normalize", putting the scale and shift in front.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary * norm_weight + norm_bias, torch.ones_like(norm_weight), '
          'torch.zeros_like(norm_bias)).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'embedding_added_after_every_block', 'term',
          "vit_forward adds the embedding x (embed's output) to the output of every block: block k reads "
          'block_{k-1}(...) + x, and the final rows carry an extra + x, so all logits are wrong',
          'vit_forward reads page 34\'s "add it to the original embedding" as the embedding built by embed, and adds '
          'that same x after every block instead of relying on the residual inside each block.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, params.num_heads) + x  # (B, 197, D)\n'),
    fresh('07_head', 'last_block_run_again_after_loop', 'term',
          "vit_forward runs the last block once more after the loop (with the loop variable `layer` left over) "
          'before reading CLS: the logits are those of a ViT whose blocks are [1, ..., L, L]',
          "vit_forward gets page 52's six lines with one slip of indentation: the loop body is repeated below the "
          'loop, inside the read_cls call, where `layer` is still the last block.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(encoder.block(rows, layer, params.num_heads), params.norm_weight, '
          'params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'inclusive_end_pixel', 'part',
          'cover grays a (size + 1) x (size + 1) square, rows top .. top + size and columns left .. left + size '
          'inclusive: one extra pixel row and column beyond the expected square (2 size + 1 pixels per image and '
          'channel) are set to the fill, everything else is right; a square that ends at the bottom and right edges '
          'is unchanged, the extra row and column falling outside the image',
          "cover takes page 42's ':112' as the last covered pixel, the inclusive end of a one-based language, and "
          'writes top + size + 1.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size + 1, left:left + size + 1] = value\n'),
    fresh('08_occlusion', 'square_filled_with_its_mean_colour', 'fill part',
          "cover fills the square with its own mean colour (per image and channel, the average of the covered "
          'pixels) instead of `value`: only the square is wrong, the rest is the unchanged copy',
          'cover uses the "mean occlusion" of occlusion papers, replacing the patch by its average colour, instead '
          "of page 42's fill with normalized 0, mid-gray.",
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = result[:, :, top:top + size, left:left + '
          'size].mean(dim=(-2, -1), keepdim=True)\n'),
    fresh('08_occlusion', 'cover_size_full_height', 'inputs part',
          'quadrant_probabilities covers squares of side H (the full height) instead of H / 2 from the four '
          "corners, cut at the image's edges: the top-left cover grays the whole image, the top-right one the right "
          'half, the bottom-left one the bottom half, the bottom-right one exactly its quarter; so the first three '
          'probabilities are wrong and the last one is right',
          'quadrant_probabilities passes `height` where it meant `half_h` as the size, the two names standing side '
          "by side, for page 43's four 112 x 112 quarters.",
          'cover(image, top, left, half_h)',
          'cover(image, top, left, height)'),
    fresh('08_occlusion', 'cover_stride_from_grid_count', 'inputs part',
          'occlusion_map places cover (r, c) at pixel (r * side, c * side) instead of (r * P, c * P): the covers '
          'are P x P squares on a grid of step side (14 instead of 16 in the lecture, 4 instead of 8 for 32-pixel '
          'images with 8-pixel patches), overlapping and off the patches, so every cell except (0, 0) holds the '
          'change of a wrong cover',
          'occlusion_map reads `side` (patches per side) as the side length of a patch when it steps the covers '
          "over page 44's grid.",
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * side, col * side, patch_size)\n'),
]
