"""An eighteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or the other sets of mistakes beyond their format and
what was needed to avoid repeats. Files opened: tests/mutants/independent/01_flatten.py ...
08_occlusion.py, exercises/01_flatten.py ... 08_occlusion.py, the lecture transcript,
tests/mutants/fresh.py up to (not including) its line `FRESH = [` (the CLAIMS vocabulary, the `Fresh`
class and the `fresh` helper), tests/mutants/blind.py, blind2.py ... blind16.py (read in full, to follow
their format and to leave out every mistake they already hold; a first attempt printed several of them
in one command and the output was cut short, so each was then printed again on its own and read
whole), and the lines of pyproject.toml that a grep for "line-length", "E501" and "per-file" returned
(the line length of 120 and the per-file ignores, which name grader/mistakes/catalogue.py and
tests/mutants/*.py). A directory listing of tests/mutants/, tests/mutants/independent/ and exercises/
(with a line count of the files above) showed the names of the other files there (catalogue.py,
novel.py, unseen.py, independent/__init__.py among them), which were not opened; blind17.py did not
appear in it and was not opened or searched. Nothing under grader/, no catalogue, no other mutant set,
no other test, no docs, solutions or fixtures were opened, and no git command was run. The throwaway
check of this set (outside the repository) loaded the independent steps from their source text with
a stand-in for the `grader` import (its `earlier_step` and parameter classes), and read this file
with a stand-in `fresh`; it did not import the kit's grader or mutants package.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or returns the wrong shape),
with what is really wrong (`structure`) and the kinds of structure its error truly has (`claims`).
The two marked hidden=True are right at the lecture's own sizes (16-pixel patches, square 224 x 224
images) and only a test with other sizes can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND18 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'mean_in_pixel_units_only', 'scale',
          'normalize subtracts the mean in pixel units, 0.5 * 255 = 127.5, but still divides by the 0.5 of the '
          '[0, 1] scale: (x - 127.5) / 0.5 = 2 x - 255, which is 255 times the expected 2 x / 255 - 1, range '
          '[-255, 255] instead of [-1, 1]',
          'normalize works on the raw 0..255 bytes, as Caffe-style preprocessing subtracts mean pixel values, '
          'and converts page 8\'s mean of 0.5 to pixel units (127.5) but forgets to convert the 0.5 it divides '
          'by as well.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (pixels.float() - 127.5) / 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'divided_by_vector_norm', 'scale shift',
          'normalize divides the pixels by the Euclidean norm of the whole tensor instead of by 255 before mapping '
          'them to [-1, 1]: 2 x / |x| - 1, which is the expected value times 255 / |x| plus 255 / |x| - 1, both '
          'depending on the images (for a typical batch |x| is far above 255, so nearly every value comes out '
          'close to -1); the example [0, 255], whose norm is 255, happens to be right',
          'normalize takes page 8\'s "RGB to [0, 1]" for normalizing a vector to unit length, as in linear '
          'algebra, and divides by the norm of the pixel values instead of by the largest byte value.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / pixels.float().norm()  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'grid_rows_from_bottom', 'order',
          'patchify numbers the rows of the patch grid from the bottom of the image: P1 is the bottom-left patch, '
          'P14 the bottom-right one and P196 the top-right one (the grid rows in reverse order; the columns and '
          'the pixels inside each patch are unchanged), so every image holds its right patch rows in another '
          'order',
          'patchify counts patch rows upwards, as the y axis of a plot (matplotlib\'s origin="lower") and texture '
          'coordinates run, and flips the grid-row axis after the permute: page 7\'s "row by row", started at '
          'the bottom row.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5).flip(1)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'patch_side_16_hardcoded', 'term',
          'count_tokens always divides the image side by 16 instead of by patch_size: right for the lecture\'s '
          '16-pixel patches (197 for 224), but for a 224 x 224 image 32-pixel patches give 197 instead of 50 and '
          '8-pixel patches 197 instead of 785; the divisibility check still uses patch_size',
          'count_tokens writes page 7\'s "224 ÷ 16 = 14 patches per side" with the 16 of the lecture\'s patches '
          'instead of the patch_size argument.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size // 16\n',
          True),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernels_weight_standardized', 'term',
          'conv_to_linear standardizes every kernel before rearranging it: column d of W_E is kernel d minus its '
          'mean, divided by its (biased) standard deviation, instead of kernel d itself, so the weights of every '
          'output feature get their own shift and scale',
          'conv_to_linear copies the weight standardization of timm\'s StdConv2d, the convolution of the BiT '
          'ResNet stems that hybrid ViTs use, which standardizes each kernel on the fly, and applies it to this '
          'checkpoint\'s plain Conv2d kernel.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = torch.nn.functional.layer_norm(conv_weight.flatten(start_dim=1), (conv_weight[0].numel(),))  '
          '# (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'output_axis_moved_without_flatten', 'shape',
          'conv_to_linear moves the output axis last but never flattens the kernel: W_E comes back (3, P, P, D), '
          'e.g. (3, 16, 16, 192), instead of (3*P*P, D); its values are those of W_E in the right order, not laid '
          'out as a matrix',
          'conv_to_linear follows the hint "PyTorch keeps the output axis first; the lecture keeps it last" with '
          'one permute that moves D to the end, and forgets that each 3 x P x P kernel must also become one '
          'column of 768 weights (page 9).',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.permute(1, 2, 3, 0).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'patches_reordered_pixel_major', 'inputs',
          'project reorders every patch row from channel-major to pixel-major (R, G, B of pixel 1, then of pixel '
          '2, ...) before the product, leaving W_E as it is: the patch values meet the wrong rows of W_E, so every '
          'content vector is computed from a scrambled patch',
          'project reads page 9\'s note "Pixel-major ordering is also valid if the weight columns are permuted to '
          'match" as a step it must take, and converts the channel-major patches to pixel-major without '
          'permuting W_E.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches.unflatten(-1, (3, -1)).transpose(-2, -1).flatten(-2), '
          'W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'weights_read_as_linear_storage', 'inputs',
          'project views W_E as a (D, 3*P*P) matrix and transposes that, instead of using W_E: the matrix it '
          'multiplies by has the right shape (3*P*P, D) and holds the right weights, scrambled (its entry (k, d) '
          'is the value at flat position d*3*P*P + k of W_E instead of k*D + d), so every content vector is '
          'computed with the wrong weights',
          'project remembers page 10\'s "PyTorch stores the Linear weight transposed, as 192 by 768" and undoes '
          'that storage by reshaping W_E to 192 x 768 and transposing it, not seeing that W_E is already the '
          'lecture\'s 768 x 192 matrix.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E.reshape(W_E.shape[1], W_E.shape[0]).T) + b_E  '
          '# (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'dropout_keep_scaling_at_inference', 'scale',
          'add_position multiplies every sum by 0.9: 0.9 (c_i + p_i) instead of c_i + p_i',
          'add_position adds the dropout that ViT code applies right after the position embedding (pos_drop, rate '
          '0.1) in its inference form from the original dropout paper, scaling by the keep probability 0.9, not '
          'knowing that PyTorch\'s inverted dropout is the identity at inference.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return 0.9 * torch.add(tokens, table)  # (B, N, D)\n'),
    fresh('03_position', 'cls_position_added_to_every_token', 'shift term',
          'add_position adds row 0 of the table (the CLS position) to every token on top of its own row: '
          'c_i + p_i + p_0, every token of every image off by the same vector p_0 (row 0 gets 2 p_0)',
          'add_position reads page 16\'s note "The CLS position is added when CLS is included" as: once CLS is in '
          'the sequence, its position vector is added to every token, and adds pos_table[0] to the whole table.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table + pos_table[0])  # (B, N, D)\n'),
    fresh('03_position', 'positions_rescaled_to_content_norm', 'term',
          'add_position rescales every position vector to the length of its token\'s content vector before adding '
          'it: c_i + p_i |c_i| / |p_i| instead of c_i + p_i, the position term of each token scaled by its own '
          'factor; the content term is right',
          'add_position worries that WHERE could drown WHAT when the two are added coordinate by coordinate '
          '(page 16), and gives each position vector the length of the content vector it is added to.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table * tokens.norm(dim=-1, keepdim=True) / table.norm(dim=-1, keepdim=True))  '
          '# (B, N, D)\n'),
    fresh('03_position', 'formula_dot_read_as_times_width', 'term',
          'add_position adds D times the position vector: c_i + D p_i (192 p_i at the lecture\'s width) instead '
          'of c_i + p_i; the content term is right',
          'add_position reads page 16\'s "eᵢ = cᵢ + pᵢ · 192 features" literally, taking the dot for a product, '
          'and multiplies the position vector by the 192 features of the width.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table, alpha=tokens.shape[-1])  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'numpy_repeat_for_tiling', 'part',
          'prepend_cls builds the CLS rows with repeat_interleave, which repeats every value of the vector B times '
          'in a row, and reshapes the result to (B, 1, D): for a batch of two, image 0\'s row 0 is c0, c0, c1, '
          'c1, ... (the first half of CLS, every value twice) and image 1\'s row 0 the second half; the patch '
          'rows are right, and a batch of one is right',
          'prepend_cls translates NumPy\'s np.repeat(cls, B), which without an axis repeats each element, into '
          'repeat_interleave and reshapes, expecting B whole copies of the vector one after another as np.tile '
          'would give.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.repeat_interleave(batch).reshape(batch, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'images_blurred_before_patches', 'part inputs',
          'embed blurs the images with a 3 x 3 box filter (zero padding, so the border pixels are pulled towards '
          '0) before patchify: every patch row is projected from smoothed pixels, plus its right position vector; '
          'only the CLS row is right',
          'embed anti-aliases the image before the stride-16 patch projection, as blur-pooling CNNs blur before '
          'every strided downsampling, since the checkpoint stores W_E as a stride-P Conv2d (page 53).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(torch.nn.functional.avg_pool2d(images, 3, stride=1, padding=1), '
          'params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'images_made_grayscale', 'part inputs',
          'embed replaces the R, G and B values of every pixel by their mean before patchify: every patch row is '
          'projected from a gray version of the image (the same values in its three channel blocks), plus its '
          'right position vector; only the CLS row is right',
          'embed drops colour, as classic vision pipelines (edge detectors, HOG) work on grayscale, believing the '
          'class depends on shape alone, and copies the gray channel three times so that the patches still fit '
          'W_E.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.mean(dim=1, keepdim=True).expand_as(images), params.patch_size)  '
          '# (B, N, 3*P*P)\n'),
    fresh('04_cls', 'batch_mean_image_subtracted', 'part inputs',
          'embed subtracts the mean image of the batch from every image before patchify: every patch row is '
          'projected from the image minus the average of all the images in the batch (for a single image all '
          'zeros, so every patch row becomes b_E plus its position vector), plus its right position vector; only '
          'the CLS row is right',
          'embed applies the "subtract the mean image" preprocessing of AlexNet-era CNNs, computing the mean '
          'image over the batch, not seeing that the images are normalized already (page 8).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images - images.mean(dim=0, keepdim=True), params.patch_size)  '
          '# (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'values_are_the_inputs', 'inputs part',
          'qkv_heads takes the values straight from the input rows x, split into heads, instead of from the last '
          'D columns of x W_qkv + b_qkv: v is the unprojected x as (B, H, N, d); q and k are right',
          'qkv_heads follows the simplified attention softmax(Q K^T) X of tutorials, reading page 29\'s "source '
          'values" as the source rows themselves, so that only the queries and keys get a projection.',
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = x.reshape(batch, count, num_heads, head_dim).transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'sigmoid_for_exponential', 'activation',
          'attention_weights takes the logistic sigmoid of the (max-shifted) scores instead of their exponential '
          'and then divides by the row sum: every row still sums to 1, but the weights are the normalized '
          'sigmoid(s_ij - max_j s_ij), much flatter than the softmax of the scores',
          'attention_weights remembers the softmax as "the sigmoid for several classes" and writes the sigmoid in '
          'place of exp, keeping the division by the row sum.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = scores.sigmoid()  # (B, H, N, N)\n'),
    fresh('05_attention', 'weights_returned_source_by_receiver', 'order',
          'attention_weights returns the transpose of the weights: entry (j, i) holds receiver i\'s weight on '
          'source j, the right values in another order, so the columns sum to 1 and the rows do not',
          'attention_weights hands the matrix back in the source-by-receiver layout of message passing in graph '
          'networks (an edge j -> i stored at [j, i]), against page 30\'s "each row is a query; each column is a '
          'key".',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return (weights / weights.sum(dim=-1, keepdim=True)).transpose(-2, -1)  # each row sums to 1\n'),
    fresh('05_attention', 'value_head_shared_by_all_heads', 'inputs',
          'multi_head_attention weights the value vectors of head 1 in every head: each head\'s message is its '
          'own weights applied to head 1\'s values instead of its own values, so heads 2 .. H carry the wrong '
          'messages and the projected update is wrong (right only with a single head)',
          'multi_head_attention carries multi-query attention over from GPT-style code (one key/value head '
          'shared by all query heads, as LLaMA\'s repeat_kv does with a single KV head) and keeps only the first '
          'value head.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v[:, :1].expand_as(v))  # (B, H, N, d): weighted '
          'sums of values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'keras_default_epsilon', 'approximate',
          'layer_norm\'s default eps is 1e-3 instead of 1e-6: every row is divided by sqrt(var + 0.001) instead '
          'of sqrt(var + 0.000001), so the normalized part is slightly too small (about 0.05 % for rows of '
          'variance 1, more for rows of small variance) before the scale and shift',
          'layer_norm takes the default epsilon of Keras\'s LayerNormalization, 1e-3, instead of the 1e-6 this '
          'checkpoint uses.',
          'def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-6) -> Tensor:\n',
          'def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-3) -> Tensor:\n'),
    fresh('06_block', 'mean_absolute_deviation', 'term',
          'layer_norm divides each centred row by its mean absolute deviation, mean |x - mean|, instead of its '
          'standard deviation: for bell-shaped rows the normalized part is about 1.25 times the expected one, a '
          'different factor for every row, before the scale and shift',
          'layer_norm measures the spread of a row as the average distance from the mean, the "mean deviation" '
          'of school statistics, instead of the square root of the mean squared deviation.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / (centred.abs().mean(dim=-1, keepdim=True) + eps) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'hidden_layer_normalized', 'term',
          'mlp normalizes the 4D GELU activations of every row (a LayerNorm over the hidden features, no scale or '
          'shift) before the contraction: LN(GELU(x W_1 + b_1)) W_2 + b_2 instead of GELU(x W_1 + b_1) W_2 + b_2',
          'mlp adds the LayerNorm that NormFormer (and timm\'s Mlp given a norm_layer) puts between the activation '
          'and the second linear layer, which this checkpoint does not have.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return torch.nn.functional.layer_norm(hidden, hidden.shape[-1:]) @ W_2 + b_2  # (B, N, D)\n'),
    fresh('06_block', 'layer_scale_on_updates', 'term',
          'block scales each sublayer\'s update by 0.1 before adding it: U = x + 0.1 MSA(LN1(x)) and '
          'E_next = U + 0.1 MLP(LN2(U)) instead of the full updates',
          'block adds LayerScale, the per-branch scaling of CaiT and DeiT III (here the constant 0.1), carried '
          'over from code for deeper ViTs, although this checkpoint has none.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream + 0.1 * update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'distillation_token_averaged', 'inputs',
          'read_cls normalizes the mean of rows 0 and 1, (CLS + P1) / 2, instead of row 0, CLS: the final '
          'LayerNorm of the wrong vector',
          'read_cls follows DeiT\'s distilled models, which at inference average the class token with the '
          'distillation token in row 1, taking the row after CLS for a second summary token, although row 1 here '
          'is patch P1.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = (x[:, :1] + x[:, 1:2]) / 2  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'logits_soft_capped', 'activation',
          'classify squashes the logits with 30 tanh(s / 30): close to s for small logits (within 1 % below '
          'about 5), but every logit is pulled towards 0, large ones markedly (20 becomes about 17.5)',
          'classify adds the final-logit soft-capping of Gemma-2-style GPT code, cap * tanh(logits / cap) with '
          'cap 30, to keep the scores bounded.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return 30.0 * torch.tanh(torch.addmm(b_head, h, W_head) / 30.0)  # (B, 1000)\n'),
    fresh('07_head', 'positions_added_at_every_block', 'inputs term',
          'vit_forward adds the position table to the rows again before every block: the first block reads the '
          'embedding with the positions added twice, every later block reads its input plus the table, so every '
          'logit is off',
          'vit_forward adds the position embeddings at the input of every encoder layer, as DETR adds its '
          'positional encodings in every attention layer, reading page 22\'s "at every block" as a reason to '
          'remind each block of the positions.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows + params.pos_table, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'cls_reset_before_every_block', 'inputs',
          'vit_forward puts the starting CLS row of the embedding (cls_token + p_0) back in place before every '
          'block: each block reads the patch rows updated so far with the starting CLS row instead of the updated '
          'CLS, so the final CLS is only the last block\'s update of the starting CLS',
          'vit_forward reads page 20\'s "Every image starts with the same learned CLS vector" as holding for every '
          'block and gives each block the starting CLS again, against page 22\'s "CLS state 0, state 1, state 2".',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(torch.cat((x[:, :1], rows[:, 1:]), dim=1), layer, params.num_heads)  '
          '# (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'one_based_pixel_corner', 'part',
          'cover shifts the square one pixel down and to the right: it fills rows top+1 .. top+size and columns '
          'left+1 .. left+size instead of top .. top+size-1 and left .. left+size-1, leaving the square\'s first '
          'row and column uncovered and covering one row and one column beyond it (cut off at the image edge)',
          'cover converts the corner from MATLAB\'s one-based indexing by adding 1 to top and left, not seeing '
          'that they already count from 0 (the docstring: "the square\'s top-left pixel (row, column), from 0").',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top + 1:top + size + 1, left + 1:left + size + 1] = value\n'),
    fresh('08_occlusion', 'one_half_for_both_axes', 'part',
          'quadrant_probabilities puts the right-hand covers at column H/2 instead of W/2: right for square '
          'images such as the lecture\'s 224 x 224, but for a wider image the top-right and bottom-right covers '
          'sit too far left (for a taller one too far right); the two left-hand values are right',
          'quadrant_probabilities uses one "half" for both axes, half_h for the columns too, as the lecture\'s '
          'square photograph has 112 for both (pages 41-42).',
          'for left in (0, half_w)',
          'for left in (0, half_h)',
          True),
    fresh('08_occlusion', 'map_upsampled_to_image', 'shape',
          'occlusion_map repeats every cell of the map over a P x P block: the result is (H, W), e.g. (224, 224), '
          'instead of (H/P, W/P), the right values each repeated P x P times',
          'occlusion_map upsamples the map to the image size to lay it over the photograph, as Grad-CAM code does '
          'with its heat maps, instead of returning one cell per patch.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(side, side).repeat_interleave(patch_size, 0).repeat_interleave(patch_size, '
          '1)  # row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'occluder_twice_the_stride', 'inputs',
          'occlusion_map covers squares of 2P x 2P pixels at the same P-pixel steps: cell (r, c) is the change '
          'when the patches (r, c), (r, c+1), (r+1, c) and (r+1, c+1) are covered together (cut off at the right '
          'and bottom edges) instead of patch (r, c) alone',
          'occlusion_map uses an occluder larger than its stride, as in Zeiler and Fergus\'s occlusion '
          'experiments on CNNs, so that neighbouring covers overlap.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, col * patch_size, 2 * patch_size)\n'),
]
