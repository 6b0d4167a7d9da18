"""A nineteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/)
and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats. Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py,
exercises/01_flatten.py ... 08_occlusion.py, the lecture transcript (in two pieces, the second being the
part the first print cut short), tests/mutants/fresh.py up to and including its line `FRESH = [` (lines
1-70: the CLAIMS vocabulary, the `Fresh` class and the `fresh` helper), the [tool.ruff] sections of
pyproject.toml (a grep for "[tool.ruff" with the 20 lines after each hit: the line length of 120, the
lint selection and the per-file ignores), and tests/mutants/blind.py, blind2.py ... blind18.py: all
eighteen were loaded, named one by one, by a throwaway script outside the repository with a stand-in for
`mutants.fresh`, which printed the step, function, name, claims and one-line edit of every entry they
hold, sorted by function, to leave out every mistake they already hold; the first 120 lines of
blind18.py (and a grep of it for "True)"), the first 75 and the last 30 lines of blind17.py were printed
to follow their format. A directory listing of tests/mutants/, tests/mutants/independent/ and exercises/
and a line count of tests/mutants/blind*.py (the glob matched blind.py ... blind18.py only) showed the
names of the other files there (catalogue.py, novel.py, unseen.py and __init__.py among them), which
were not opened. Nothing under grader/, no catalogue, no other mutant set (blind20.py included), no
other test, no docs, solutions or fixtures were opened or searched, no git command was run and the kit's
grader and tests were not run. The check of this set (a throwaway script outside the repository) loaded
the independent steps from their source text with a stand-in for the `grader` import (its
`earlier_step`, `ViTParams` and `BlockParams`) and read this file with a stand-in `fresh`; it did not
import the kit's grader or mutants package. Afterwards `ruff check` was run on this file and it was
imported once through tests/ (which loads only it and mutants/fresh.py) to count its entries.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs at the lecture's sizes, with
what is really wrong (`structure`) and the kinds of structure its error truly has (`claims`). One is a
shape mistake (prepend_cls's sequence-first unpacking, whose call fails); none is marked hidden: every
one shows at the lecture's own sizes with a batch of two images (positions_shared_out_between_images is
right for a batch of one image only).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND19 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'signed_byte_cast', 'part',
          'normalize casts the bytes to signed 8-bit integers before the float conversion: the values 0..127 '
          'are right, but every value 128..255 wraps around to v - 256 and comes out 512 / 255 (about 2.008) '
          'too low (255 gives -1.008 instead of 1, 128 gives -2.0 instead of 0.004), so about half of a '
          'typical image\'s values are wrong',
          'normalize wants room for the negative values of [-1, 1] and, warned that arithmetic on uint8 wraps '
          'around, first turns the bytes into a signed 8-bit type with .char(), taking int8 for "the same '
          'bytes, with a sign", before page 8\'s scaling.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.char().float() / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'channels_read_bgr', 'order',
          'patchify flattens each patch\'s channels in the order B, G, R instead of R, G, B: in every patch row '
          'the three blocks of P*P values (256 each for 16-pixel patches) are in reverse order; the pixels '
          'inside each block and the order of the patches are right',
          'patchify follows the BGR channel order of OpenCV\'s cv2.imread, which the student is used to, and '
          'reverses the channel axis while reading each patch out, although page 9 flattens R, then G, then B.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5).flip(3)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'unfold_layout_transposed', 'order',
          'patchify lays its patch-major tiles out as (B, C*P*P, N), the layout F.unfold returns, and '
          'transposes that: the shape (B, N, C*P*P) is right and every pixel value appears once, but row n '
          'holds every N-th value of the correctly ordered sequence, starting at value n, instead of the 768 '
          'values of patch n',
          'patchify remembers that F.unfold returns (B, C*P*P, L), with the patch index last, and that a '
          'transpose then gives the lecture\'s patch rows (page 9), and reshapes its own tiles to that layout '
          'first, not seeing that they are already patch by patch.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, C * P * P, (H // P) * (W // P)).transpose(1, 2)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'area_ratio_precedence', 'term',
          'count_tokens computes image_size * image_size // patch_size * patch_size, which Python evaluates '
          'left to right as ((image_size ** 2 // patch_size) * patch_size): for a divisible size that is the '
          'number of pixels, so it returns 50,177 instead of 197 for 224 and 16 (50,176 instead of 196 '
          'without CLS); the divisibility check still raises',
          'count_tokens writes the number of patches as image area over patch area, "224 x 224 / 16 x 16", '
          'without the parentheses around the patch area (pages 6-7).',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return image_size * image_size // patch_size * patch_size + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_rows_upside_down', 'order',
          'conv_to_linear turns every kernel upside down before flattening it: within each channel\'s P*P '
          'weights of column d the kernel rows are in reverse order (row P - 1 first), so every patch pixel '
          'meets the weight of the pixel mirrored across the patch\'s horizontal midline; the columns of each '
          'kernel row and the order of the channels and of the output features are right',
          'conv_to_linear assumes the kernel rows are stored bottom to top, as the rows of a BMP file or of a '
          'plot with its origin at the bottom are, and flips the row axis so that it reads them "from the top" '
          'like patchify (page 9).',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(2).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'gelu_after_projection', 'activation',
          'project applies exact GELU to every content vector: GELU(X W_E + b_E) instead of X W_E + b_E; '
          'positive features shrink a little and negative ones are pulled towards 0 (never below about -0.17)',
          'project follows every learned layer with GELU, as the encoder\'s MLP does (page 35), against '
          'page 10\'s note that the patch projection has no following activation.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.gelu(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    fresh('02_project', 'patches_through_torch_normalize', 'inputs',
          'project passes the patches through torch.nn.functional.normalize before the product; with its '
          'default dim=1 that divides each of the 768 pixel positions by its Euclidean norm over the N patches '
          'of the image, so every content vector is computed from rescaled patches (each input feature scaled '
          'by its own factor) instead of the patches themselves',
          'project takes torch.nn.functional.normalize for step 1\'s normalization, which page 8 says comes '
          'before the projection, and applies it to patches that are normalized already.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", torch.nn.functional.normalize(patches), W_E) + b_E  '
          '# (B, N, D)\n'),
    fresh('02_project', 'bias_averaged_to_scalar', 'shift term',
          'project adds the mean of b_E, one number, to every feature instead of b_E itself: the result is the '
          'expected one plus mean(b_E) - b_E, the same row broadcast to every row of every image',
          'project reads the hint "the same bias goes to every row" (page 12) as one bias value shared by all '
          'the features and collapses b_E to its mean.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E.mean()  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'sum_scaled_by_sqrt_width', 'scale',
          'add_position multiplies every sum by the square root of the width D: sqrt(D) (c_i + p_i), about '
          '13.86 times the expected value for D = 192',
          'add_position applies the sqrt(d_model) embedding scale of "Attention Is All You Need" (section 3.4), '
          'which the student remembers from the text Transformer, to the sum of content and position (page 16).',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) * tokens.shape[-1] ** 0.5  # (B, N, D)\n'),
    fresh('03_position', 'positions_shared_out_between_images', 'term',
          'add_position divides the position vectors by the batch size: c_i + p_i / B instead of c_i + p_i; '
          'right for a batch of one image, but in a batch of two every token gets half its position vector',
          'add_position reads page 17\'s "every image with this grid uses the same learned position table" '
          '(and the hint "Every image uses the same table") as one table shared out among the images of the '
          'batch, and gives each image its 1/B part.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table / batch)  # (B, N, D)\n'),
    fresh('03_position', 'positions_layer_normed', 'term',
          'add_position standardizes every position vector before adding it: each p_i is centred on its own '
          'mean over the D features and divided by its own standard deviation (a LayerNorm without scale or '
          'shift), so every token gets the wrong position vector',
          'add_position puts the position table through a LayerNorm so that WHERE has the same scale as WHAT '
          'before the two are added (page 16), a normalization the checkpoint never applies to its table.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.nn.functional.layer_norm(pos_table, pos_table.shape[-1:]).unsqueeze(0).expand(batch, '
          '-1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'table_read_as_linear_storage', 'term',
          'add_position views the (N, D) position table as a (D, N) matrix and transposes that view: the table '
          'it adds has the right shape and holds the right numbers, scrambled (its entry (i, d) is the value at '
          'flat position d*N + i of pos_table instead of i*D + d), so every token gets the wrong position '
          'vector',
          'add_position applies page 10\'s note "PyTorch stores the Linear weight transposed" to the position '
          'table, and undoes a transposition the table never had by viewing it as 192 x 197 and transposing.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.reshape(pos_table.shape[1], pos_table.shape[0]).T.unsqueeze(0).expand(batch, -1, '
          '-1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_added_to_patches_too', 'part term',
          'prepend_cls puts CLS in front and also adds the CLS vector to every patch token: row 0 is right, '
          'but rows 1..N are P_i + cls instead of P_i (the same vector added to every patch row of every image)',
          'prepend_cls treats the learned CLS vector both as the first token and as an embedding added to every '
          'token, the way BERT adds its segment embedding to each word (page 19\'s "same CLS idea" as in '
          'text), and adds start to the patch tokens as well.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens + start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'batch_read_sequence_first', 'shape',
          'prepend_cls takes the batch size from axis 1, the token axis: it makes N copies of CLS, (N, 1, D), '
          'which cannot be joined to the (B, N, D) tokens along axis 1 unless B equals N, so the call fails '
          '(for the lecture\'s tokens, 196 copies against a batch of one or two images)',
          'prepend_cls unpacks the shape in the sequence-first order (N, B, D) of nn.Transformer\'s default, '
          'which the student used for text, although the tokens here are batch-first (B, N, D).',
          '    batch, _, width = tokens.shape\n',
          '    _, batch, width = tokens.shape\n'),
    fresh('04_cls', 'images_clamped_to_unit_range', 'part inputs activation',
          'embed clips the normalized images to [0, 1] before cutting patches: every pixel darker than '
          'mid-gray (a normalized value below 0) becomes 0, so every patch holding such pixels gets the wrong '
          'content vector; the CLS row (CLS plus its position) is right',
          'embed clamps the images to the valid range of an RGB image, [0, 1], as image code does before '
          'showing or saving one, forgetting that the normalized images lie in [-1, 1] (page 8) and that 0 '
          'is mid-gray (page 42).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.clamp(0.0, 1.0), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'images_upside_down', 'part inputs',
          'embed turns every image upside down before cutting patches: P1 is cut from the bottom-left corner '
          'with its pixel rows reversed, and every patch row gets the content vector of the wrong, flipped '
          'crop; only the CLS row is right',
          'embed assumes that image rows are stored bottom to top, as in a plot with origin="lower" or an '
          'OpenGL texture, and flips the height axis so that P1 is "the top-left patch" of page 7.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.flip(-2), params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'query_reshaped_not_transposed', 'order part',
          'qkv_heads turns the queries from (B, N, H, d) into (B, H, N, d) with a reshape instead of swapping '
          'the two axes: q has the right shape and holds the right query vectors, in the wrong places (head h, '
          'row i holds the query of token (h N + i) // H in head (h N + i) % H); k and v are right',
          'qkv_heads gets the query\'s shape (B, H, N, d) with reshape, as if a reshape could move an axis, '
          'in the first of its three q, k, v lines (page 32\'s heads).',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[:, :, 0].reshape(batch, num_heads, count, head_dim)  # (B, H, N, d)\n'),
    fresh('05_attention', 'cls_source_masked', 'term',
          'attention_weights gives source 0 (CLS) no weight: column 0 is 0 in every row and each row\'s softmax '
          'runs over the other N - 1 sources only, so every other weight is too large (each row rescaled by its '
          'own factor)',
          'attention_weights takes CLS for a receiver only, which collects a message (page 31) but sends none, '
          'and drops it as a source, as page 33\'s map shows only the 196 patch weights; page 30 allows all 197 '
          'by 197 pairs, and page 22 has CLS and the patches exchange information in both directions.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = scores.exp() * (torch.arange(scores.shape[-1]) > 0)  # (B, H, N, N)\n'),
    fresh('05_attention', 'weights_from_values', 'inputs',
          'multi_head_attention scores each query against the values instead of the keys: the weights are the '
          'row softmax of q·v / sqrt(d), so every message is a sum of the right values with the wrong weights',
          'multi_head_attention passes v where the keys go, reading page 28\'s "a source supplies both a key '
          'and a value" as one vector doing both jobs.',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(q, v)  # (B, H, N, N)\n'),
    fresh('05_attention', 'einsum_value_index_slip', 'term',
          'multi_head_attention indexes the values by the receiver i instead of the source j in its einsum: '
          'each row\'s weights are summed on their own (to 1) and multiply the receiver\'s own value, so every '
          'head\'s message is the receiver\'s own value v_i instead of the weighted sum of all the values (the '
          'attention weights have no effect)',
          'multi_head_attention types the value\'s subscripts as bhid instead of bhjd in the einsum of page '
          '29\'s weighted sum, so the source index j no longer ties the weights to the values.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhid->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'norm_bias_left_out', 'shift term',
          'layer_norm leaves out the learned shift: every row is the expected one minus bias (the same row '
          'broadcast to every row)',
          'layer_norm stops after the scale, taking "normalize, then scale" for the whole of LayerNorm and '
          'forgetting the learned shift the docstring names (pages 34-35).',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps) * weight  # (..., D)\n'),
    fresh('06_block', 'variance_over_tokens', 'axis',
          'layer_norm takes the mean square of the centred values over the tokens (axis -2) instead of over '
          'each row\'s features: every value is divided by the spread of its own feature column across the '
          'rows, not by the spread of its own row (the centring is right)',
          'layer_norm computes the variance along axis -2, the way BatchNorm takes one statistic per feature '
          'over many samples, after centring each row over its own features as page 34\'s LayerNorm does.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=-2, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'gelu_bracket_misexpanded', 'activation',
          'mlp computes 0.5 (z + erf(z / sqrt(2))) instead of 0.5 z (1 + erf(z / sqrt(2))): the erf term is '
          'added to z instead of multiplied by it, so the activation is z / 2 plus a sigmoid-shaped term '
          '(right only at z = 0 and z = 1; 1.48 instead of 1.95 at z = 2, -1.48 instead of -0.05 at z = -2)',
          'mlp multiplies z·Φ(z) out wrongly: with Φ(z) = (1 + erf(z / sqrt(2))) / 2 it writes z·Φ(z) as '
          '0.5 (z + erf(z / sqrt(2))), adding z where it should multiply (page 35\'s GELU).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * (hidden + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'output_normalized_with_ln2', 'term',
          'block normalizes its output with LN2: it returns LN2(E_next) instead of E_next = U + MLP(LN2(U)), so '
          'every row the next block reads is standardized and then scaled and shifted by LN2\'s parameters',
          'block ends with a LayerNorm, as the post-LN blocks of the original Transformer do, and uses the '
          'block\'s last LayerNorm, LN2, for it, although the pre-LN block of pages 34-35 returns the residual '
          'stream as it is.',
          '    return stream\n',
          '    return layer_norm(stream, p.ln2_weight, p.ln2_bias)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_embedding_l2_normalized', 'term',
          'read_cls divides every final CLS by its Euclidean length after the final LayerNorm: each image\'s '
          'summary has unit length, the expected one times its own factor 1 / |h|',
          'read_cls L2-normalizes the image summary, as CLIP does with its image embeddings (page 55 points to '
          'the CLIP lecture), a step this classifier\'s readout (page 38) does not have.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return torch.nn.functional.normalize(encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1), '
          'dim=-1)  # (B, D)\n'),
    fresh('07_head', 'scores_shifted_one_class', 'order',
          'classify moves every score one class up: column c holds the score of class c - 1 and column 0 that '
          'of the last class, so the logits are right but in the wrong columns',
          'classify shifts the scores one place to make room for a background class at index 0, as in the '
          '1001-class ImageNet heads of TF-slim checkpoints, which this 1000-class head (page 39) does not have.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).roll(1, dims=-1)  # (B, 1000)\n'),
    fresh('07_head', 'probabilities_returned', 'activation',
          'vit_forward returns the softmax of the logits, probabilities that sum to 1 for every image, instead '
          'of the logits themselves',
          'vit_forward ends with page 39\'s "softmax across classes" to return what page 40 shows '
          '(Newfoundland 95.73%), although page 52\'s six lines stop at the logits, with no softmax.',
          '    return classify(summary, params.W_head, params.b_head)  # (B, 1000)\n',
          '    return classify(summary, params.W_head, params.b_head).softmax(dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'mean_pooled_readout', 'inputs',
          'vit_forward gives the head the final LayerNorm of the mean of all the final rows (CLS and patches) '
          'instead of the final CLS: the summary, and so every logit, is computed from the wrong vector',
          'vit_forward follows page 18\'s remark that mean pooling is another valid readout and averages the '
          'final rows before reading them, although this checkpoint was trained with CLS.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows.mean(dim=1, keepdim=True), params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'corner_read_as_bottom_right', 'part',
          'cover treats (top, left) as the square\'s bottom-right corner: it fills rows top - size .. top - 1 '
          'and columns left - size .. left - 1, the square above and to the left of the right one; when the '
          'corner is closer to the top or left edge than size (row or column 0, for one) the slice is empty '
          'and nothing is covered; outside these squares everything is right',
          'cover reads (top, left) as the corner where the square ends, like the end of a slice, and counts '
          'back by size from it.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top - size:top, left - size:left] = value\n'),
    fresh('08_occlusion', 'only_quarter_visible', 'inputs',
          'quadrant_probabilities shows the model only one quarter at a time: image - cover(image, ...) keeps '
          'the quarter\'s pixels and sets the other three quarters to 0 (mid-gray), the opposite of covering '
          'it, so every probability is measured on the wrong image',
          'quadrant_probabilities builds each test image as the original minus its covered copy, as if that '
          'difference were "the image with the quarter taken out", which leaves only the quarter (page 43 '
          'covers one quarter and keeps the rest).',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([image - cover(image, top, left, half_h) for top in (0, half_h) for left in (0, '
          'half_w)])\n'),
    fresh('08_occlusion', 'ratio_to_original', 'scale',
          'quadrant_probabilities divides each covered probability by the original, uncovered one: the four '
          'values are the expected ones times 1 / P(original) (0.867 instead of 0.830 for page 43\'s top-left '
          'cover)',
          'quadrant_probabilities compares each cover with the original as a ratio, "what fraction of the '
          'probability is left", although page 43 reports the covered probabilities themselves.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, target] / torch.softmax(model(image), dim=-1)[0, target]  '
          '# (4,)\n'),
    fresh('08_occlusion', 'log_probability_change', 'activation',
          'occlusion_map returns the change of the log-probability, log(covered) - log(original), instead of '
          'the change of the probability: every cell keeps its sign but has the wrong size (a drop from 0.9573 '
          'to 0.9189 gives -0.041 instead of -0.038, and small probabilities give large values)',
          'occlusion_map measures the change in log-probability, as saliency code often does to compare '
          'classes of very different probabilities, although page 44 maps the change of the probability itself.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs.log() - base.log()).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
