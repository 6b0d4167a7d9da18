"""A twenty-seventh blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/) and the
lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's diagnosis, the
catalogue or the other sets of mistakes beyond their format and what was needed to avoid repeats.

Files opened, and how: one `ls` of tests/mutants/, tests/mutants/independent/ and exercises/ (it showed the file names
of tests/mutants/, blind.py to blind26.py, catalogue.py, fresh.py, novel.py and unseen.py, no blind28.py; none of the
forbidden files was opened; at the end a second `ls` of tests/mutants/ went straight into `grep -c blind27`, which
printed only the count 1); tests/mutants/independent/01_flatten.py ... 08_occlusion.py, printed whole with line
numbers; exercises/01_flatten.py ... 08_occlusion.py, printed whole; the lecture transcript, first through its byte
count and a grep of its headings, then its transcript part (pages 1-55, lines 62-720) printed whole in two pieces;
tests/mutants/fresh.py through a grep for its line `FRESH = [` (line 70) and then lines 1-70 printed (the CLAIMS
vocabulary, the `Fresh` class and the `fresh` helper), nothing after that line; for the format, lines 1-110 and
the last 20 lines of tests/mutants/blind26.py and its line count; and the lines of pyproject.toml that a grep for
"ruff" with 15 lines after each hit showed (cut to 40 lines: the line length of 120, the lint selection and ignores,
the per-file ignores, with the neighbouring dev dependencies, project scripts and setuptools settings).

To leave out the mistakes the earlier sets hold, blind.py, blind2.py ... blind26.py (named one by one in a list
built as "blind" plus "blind2" to "blind26", never by a glob) were loaded by a throwaway script outside the
repository with a stand-in `mutants.fresh.fresh` that recorded its arguments; it wrote the step, function, name,
claims, hidden flag, source set, old and new text of every entry (800 of them, sorted by step and function) to a
file that was read whole, step by step (some long parts in two printings), and searched for the words of the edits
below. Two first choices turned out to repeat earlier edits in effect and were replaced (a bias multiplied into the
projection, equal to bias_in_einsum_product, and normalize's 2x - 1 without its factor 2, equal to
precedence_slip); a row max without keepdim in attention_weights raised instead of shifting the scores and a
hard-coded 16 in patchify changed the shape rather than only the order at 8-pixel patches, so both were replaced,
and q @ k.T in attention_weights was dropped to keep to four shape mistakes.
blind28.py was neither opened, listed nor searched. Nothing under grader/, no catalogue, no novel.py or unseen.py,
no other test, no docs, solutions or fixtures were opened, no git command was run and the kit's grader, CLI and
tests were not run.

The check of this set (throwaway scripts in /tmp/blind27work/, outside the repository) loaded the independent steps
from their source text with a stand-in `grader` module (an `earlier_step` that loads the unedited earlier step from
its text, and dataclass stand-ins for `ViTParams` and `BlockParams`), applied every edit (its old text found exactly
once in its step) and compared the edited function with the original on random inputs at the lecture's sizes
(224 x 224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes, two blocks for the whole model, batch 2)
and at smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads, 10 classes, two blocks, batch 3):
every edit changes its function's numbers or its raising at both sizes (the four shape mistakes give a wrong shape
or raise at both). The occlusion functions used a small stand-in classifier (average pooling of the image in 8 x 8
cells, 4 x 4 for 32-pixel images, then a fixed random linear map to the classes, scaled to logits of standard
deviation about 3), followed the class it ranks second (so the target is not the predicted class), and its covered
probabilities moved visibly (0.005 to 0.053 against 0.081 uncovered for the four quarters at 224 pixels, 0.010 to
0.925 against 0.152 at 32 pixels). Each edit was also compared with every earlier entry that edits the same
function, on the same inputs at both sizes: none gives the same results, apart from shape mistakes whose calls raise
like other raising entries. No edit changes its inputs in place (checked at both sizes). The `structure` statements
were checked numerically: the permuted layout of normalize and the raises of the 1-D input, of patchify and of
add_position; None for 225 and 16 and the counts 1 and 0 of the remainder; the shape and rows of the reshaped kernel;
the image mean for every row, the bfloat16 errors (at most 1.5% of the row RMS, median 0.3%), the clipped values
(about 30%) of project; the feature-first order, the 1 / sqrt(D) content and the zeroed negatives (about half) of
add_position; the added cls_token and b_E on every row, the pixel-unit patch rows with a right CLS row, and the
sign(cls_token) row; the columns 3 (h d + j) + s of qkv_heads, the maps summing to 1 with rows proportional to the
expected ones, the doubly exponentiated rows (largest over smallest at most e), GELU of the update; the activation
z Phi(z / sqrt(pi)) (0.714 and -0.286 at 1 and -1), attention across the batch (a change of token n of one image
changes token n of every image and nothing else), the row-sum centring formula and the MLP applied twice; the
dropped h_0 W_head[0], the reshaped column scores, the cosine scores and the last block applied twice; the rows
grayed by the chained slices for six corners and sizes, the quarters in the order [2, 3, 0, 1], the one-pixel covers
and the grid of covered values summing to 1. The checks did not import the kit's grader or the mutants package.
Last, `ruff check` and an import of this module (which loads mutants/fresh.py) were run on it, printing the function
(Fresh.function), claims and hidden flag of each entry; the import ran from tests/ with PYTHONPATH=/work/main, since
mutants/fresh.py imports mutants/catalogue.py, which needs the kit's `grader` package on the path.

Four mistakes per step, spread over the step's functions (patchify, conv_to_linear and read_cls are covered by one,
one and no entry). Four are shape mistakes (channels_moved_like_to_tensor, unfold_axes_counted_without_batch,
output_axis_assumed_last and positions_looked_up_from_one); none is marked hidden.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND27 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'channels_moved_like_to_tensor', 'shape order',
          'normalize permutes its input with permute(0, 3, 1, 2) before scaling, as ToTensor moves the '
          'channels of an H x W x C picture to the front: for the (B, 3, H, W) pixels it returns the expected '
          'values 2x / 255 - 1 laid out as (B, W, 3, H), element [b, w, c, h] being the expected [b, c, h, w] '
          '((2, 224, 3, 224) instead of (2, 3, 224, 224), (3, 32, 3, 32) instead of (3, 3, 32, 32)), and for '
          "any input that is not 4-D (the docstring's 1-D example) the permute raises",
          "normalize carries over torchvision's ToTensor habit of moving the channel axis of an H x W x 3 "
          "picture to the front before page 8's RGB to [0, 1], minus 0.5, divided by 0.5, although the pixels "
          'already arrive as (B, 3, H, W).',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float().permute(0, 3, 1, 2) / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'unfold_axes_counted_without_batch', 'shape',
          'patchify unfolds axes 1 and 2 instead of 2 and 3: axis 1 is the channel axis of size 3, so the '
          'first unfold asks for windows of P values along 3 channels and raises RuntimeError ("maximum size '
          'for tensor at dimension 1 is 3 but size is 16", 8 for 8-pixel patches) for every patch size above 3',
          'patchify numbers the axes as for one image (3, 224, 224), where height and width are axes 1 and 2, '
          "forgetting the batch axis in front, when it cuts page 7's 16 x 16 crops.",
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(1, P, P).unfold(2, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'none_returned_for_bad_size', 'raise',
          'count_tokens returns None instead of raising ValueError when image_size is not divisible by '
          'patch_size (225 and 16, 33 and 8); every divisible size still gives the right count (197, 196 '
          'without CLS, 17, 785, 50)',
          "count_tokens answers a size that page 7's 224 / 16 = 14 grid cannot split by returning None, as a "
          "helper with 'no answer' would, instead of raising the ValueError its docstring promises.",
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '        return None\n'),
    fresh('01_flatten', 'per_side_by_remainder', 'term',
          'count_tokens computes the patches per side as image_size % patch_size, which is 0 for every size '
          'that passes the divisibility check, so it returns 0 * 0 + 1 = 1 with CLS and 0 without for every '
          'valid size (224 and 16: 1 instead of 197, 0 instead of 196; 32 and 8: 1 instead of 17; 224 and 8: 1 '
          'instead of 785; 224 and 32: 1 instead of 50); 225 and 16 still raise',
          "count_tokens copies the `image_size % patch_size` of the check just above it for page 7's 224 / 16 "
          '= 14 patches per side, % in place of //.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size % patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'output_axis_assumed_last', 'shape order',
          "conv_to_linear reshapes the (D, 3, P, P) kernel to (-1, P), taking its last axis (the kernel's "
          'pixel columns) for the output axis: it returns a (D * 3 * P, P) matrix, (9216, 16) instead of (768, '
          '192) and (576, 8) instead of (192, 24), whose row (d * 3 + c) * P + i is the kernel row '
          'conv_weight[d, c, i, :], the expected weights in another shape and order',
          "conv_to_linear misreads the docstring's 'PyTorch keeps the output axis first; the lecture keeps it "
          "last' (page 10) as saying that the given kernel already has its output axis last, and only flattens "
          'the axes in front of it.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.reshape(-1, conv_weight.shape[-1]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'mean_patch_projected_for_every_row', 'inputs',
          "project projects the mean of each image's patches and gives that one content vector to every row: "
          'every row of image b is mean_j (x_bj W_E + b_E), the average of the expected rows of image b, '
          'instead of x_bi W_E + b_E',
          "project reads page 11's 'Every patch uses the same W_E and b_E' as 'every patch gets the same "
          "content vector' and projects the average patch once per image.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (torch.einsum("bnk,kd->bnd", patches.mean(dim=1, keepdim=True), W_E) + b_E).expand(-1, '
          'patches.shape[1], -1)  # (B, N, D)\n'),
    fresh('02_project', 'product_in_bfloat16', 'approximate',
          'project casts the patches and W_E to bfloat16 for the product (adding the float32 bias brings the '
          'result back to float32): every value differs from the expected one by rounding only, by at most '
          'about 1.5% of the root mean square of its row (0.015 for rows of RMS 1; median relative error '
          '0.3%), relatively more only for values close to 0',
          'project keeps the habit of mixed-precision training, where matrix products run under autocast in '
          "bfloat16, and casts its operands to bfloat16 for page 12's C = X W_E + b_E.",
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches.bfloat16(), W_E.bfloat16()) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'content_clipped_to_pixel_range', 'part activation',
          'project clamps X W_E + b_E to [-1, 1]: the values inside [-1, 1] are right, every value beyond is '
          'replaced by -1 or 1 (about 30% of them for weights of scale 1 / sqrt(3 P P) and unit-variance '
          'patches)',
          'project keeps the content vectors in the [-1, 1] range of the normalized pixels of page 8 and clips '
          'C = X W_E + b_E as if it were an image (page 12).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.clamp(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E, -1.0, 1.0)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'positions_looked_up_from_one', 'shape',
          'add_position looks up rows 1 .. N of the (N, D) table for the N tokens: row N does not exist, so '
          'the lookup raises IndexError ("index 197 is out of bounds for dimension 0 with size 197", 17 for '
          '32-pixel images with 8-pixel patches)',
          'add_position numbers the positions from one, as the lecture names the patches P1 .. P196 and counts '
          "'row 5, column 7 when we count from one' (page 15), and indexes the table with torch.arange(1, N + "
          '1).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[torch.arange(1, tokens.shape[1] + 1)].unsqueeze(0).expand(batch, -1, -1)  # '
          '(B, N, D): one table for every image\n'),
    fresh('03_position', 'sum_taken_feature_first_and_reshaped', 'order',
          'add_position adds the (B, D, N) transposes of tokens and table, which is right, and reshapes that '
          'sum to (B, N, D) instead of transposing it back: element (n, f) of an image is its expected element '
          "(m, g) with g * N + m = n * D + f, the image's expected values read feature by feature; each image "
          'holds its expected values in another order',
          'add_position works in the (B, D, N) layout that a Conv2d patch embedding has before its '
          "flatten(2).transpose(1, 2), adds page 16's c_i + p_i there and goes back to (B, N, D) with reshape "
          'instead of transpose.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens.transpose(1, 2), table.transpose(1, 2)).reshape(tokens.shape)  # (B, N, '
          'D)\n'),
    fresh('03_position', 'content_divided_by_sqrt_width', 'term',
          'add_position returns c_i / sqrt(D) + p_i instead of c_i + p_i: the content term is scaled by 1 / '
          'sqrt(192) = 0.0722 (1 / sqrt(24) = 0.204 for 24 features), the position term is right',
          "add_position mixes up the two square-root rules of transformers, page 28's division of the scores "
          "by sqrt(d) and the original Transformer's multiplication of its embeddings by sqrt(d_model), and "
          "divides the content vectors by sqrt(D) before page 16's e_i = c_i + p_i.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens / tokens.shape[-1] ** 0.5, table)  # (B, N, D)\n'),
    fresh('03_position', 'sum_passed_through_relu', 'activation part',
          'add_position returns max(c_i + p_i, 0): the non-negative entries are right, every negative entry '
          '(about half of them) is 0',
          'add_position follows the CNN habit of ending every layer with a ReLU, although page 10 says that no '
          'activation follows the patch layer and page 16 only adds WHAT and WHERE.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.relu(torch.add(tokens, table))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_normalized_along_default_dim', 'part activation',
          'prepend_cls passes the (1, 1, D) CLS through torch.nn.functional.normalize with its default dim=1, '
          'the singleton token axis, so every coordinate is divided by its own absolute value: row 0 of every '
          'image is sign(cls_token), every coordinate +1 or -1, instead of cls_token; rows 1 .. N are right',
          'prepend_cls normalizes the learned CLS start to unit length so that its size does not dominate the '
          'patch tokens (pages 19-20) and leaves torch.nn.functional.normalize at its default dim=1, which on '
          'the (1, 1, D) view is the token axis, not the features.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = torch.nn.functional.normalize(cls_token.reshape(1, 1, width)).repeat(batch, 1, 1)  # '
          '(B, 1, D)\n'),
    fresh('04_cls', 'cls_vector_added_to_every_row', 'shift term',
          'embed adds the learned CLS vector to every row after prepending it: the result is the expected one '
          'plus cls_token on every row of every image (row 0 holds 2 cls + p_0, row i holds c_i + cls + p_i)',
          "embed reads the diagram of pages 14 and 23, 'PATCH PROJECTION 196 × 192 + POSITION + CLS', as two "
          'additions and adds the CLS vector to the rows on top of prepending it.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.cls_token) + params.cls_token  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_back_in_pixel_units', 'part inputs',
          'embed patchifies (x + 1) * 127.5, the images mapped back to 0 .. 255, instead of the normalized x: '
          'row 0 (cls + p_0) is right, every patch row i is the expected one plus 126.5 x_i W_E + 127.5 times '
          'the column sums of W_E, hundreds of units off',
          "embed takes page 10's 'x_i: 768 values' of pixels literally and undoes page 8's normalization, "
          'feeding pixel values in 0 .. 255 to the projection.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images + 1) * 127.5, params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'patch_bias_added_to_the_whole_sequence', 'shift term',
          'embed adds b_E once more to the whole sequence after prepending CLS: the result is the expected one '
          'plus b_E on every row of every image (the patch rows get the bias twice, the CLS row once)',
          "embed reads page 12's 'C = X W_E + b_E broadcasts the same bias across every row' as a step of its "
          'own and adds b_E to all 197 rows, although project already added it to the patch rows.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.cls_token) + params.b_E  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_interleaved_per_feature', 'order',
          'qkv_heads splits the 3D output columns as (H, d, 3) instead of (3, H, d): q, k and v of head h, '
          'feature j are columns 3 (h d + j), 3 (h d + j) + 1 and 3 (h d + j) + 2 of x W_qkv + b_qkv instead '
          'of h d + j, D + h d + j and 2 D + h d + j; together q, k and v hold the expected values in another '
          'order, mixed across the three',
          "qkv_heads copies the einops pattern 'b n (h d qkv) -> qkv b h n d' of a repository whose fused "
          'projection interleaves q, k and v feature by feature, although the docstring (pages 26, 32) puts '
          'the columns as [q | k | v].',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, num_heads, head_dim, 3).permute(0, 1, 4, 2, 3)  # (B, N, 3, H, '
          'd)\n'),
    fresh('05_attention', 'weights_normalized_over_whole_map', 'axis',
          'attention_weights divides the exponentials by their sum over the whole N x N map of each image and '
          'head instead of over each row: each row is the expected row times its own factor (its share of the '
          'map total), every map sums to 1 and its rows sum to 1 / N on average instead of 1',
          "attention_weights reads page 33's 'All 197 weights sum to one' as a statement about the whole "
          "attention map rather than about one query's row (page 31's row softmax).",
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=(-2, -1), keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'softmax_applied_to_exponentials', 'activation',
          'attention_weights applies torch.softmax to the exponentials exp(s_ij - max_j s_ij) instead of '
          'dividing them by their row sum: row i is softmax_j(exp(s_ij - m_i)) with s = q k / sqrt(d), '
          'exponentiated twice; the rows sum to 1 but are nearly flat, the largest weight of a row at most e = '
          '2.718 times its smallest (instead of up to thousands of times)',
          "attention_weights writes out the exponentials of page 28's row softmax by hand and then calls "
          'torch.softmax to normalize them, not knowing that softmax exponentiates again.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return torch.softmax(weights, dim=-1)  # each row sums to 1\n'),
    fresh('05_attention', 'update_passed_through_gelu', 'activation',
          'multi_head_attention returns GELU(joined W_o + b_o) (the exact erf GELU) instead of joined W_o + '
          'b_o: every entry z becomes z Phi(z), positive entries shrunk a little, negative ones pulled towards '
          '0',
          'multi_head_attention ends its output projection with a GELU, as every linear layer of an MLP, '
          'although page 34 adds the projected message itself to the row.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.nn.functional.gelu(torch.addmm(b_o, joined.reshape(-1, width), W_o)).view(batch, '
          'count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'centred_by_row_sum', 'term',
          'layer_norm subtracts the row sum D mu instead of the row mean mu: it returns (x - D mu) / sqrt(var '
          '+ (D - 1)**2 mu**2 + eps) * weight + bias (the spread is then taken around the sum too), right only '
          'for rows of mean 0',
          'layer_norm writes x.sum for x.mean when it centres each row over its features (pages 34-35).',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.sum(dim=-1, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'erf_argument_over_sqrt_two_pi', 'activation',
          'mlp computes 0.5 z (1 + erf(z / sqrt(2 pi))) = z Phi(z / sqrt(pi)) instead of z Phi(z): a softer '
          'activation, 0.714 instead of 0.841 at z = 1 and -0.286 instead of -0.159 at z = -1; both linear '
          'layers are right',
          "mlp mixes the constant 1 / sqrt(2 pi) of the standard normal density into the docstring's CDF "
          'Phi(z) = 0.5 (1 + erf(z / sqrt 2)) of the exact GELU (page 35).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0 * math.pi)))  # z·Φ(z)\n'),
    fresh('06_block', 'attention_across_the_batch', 'axis',
          'block hands attention the (N, B, D) transpose of the normalized rows and transposes its output '
          'back: each token position attends over the B images of the batch at that same position instead of '
          'over the N tokens of its own image (changing token n of one image changes token n of every image '
          'and nothing else); the MLP sublayer is right',
          "block follows torch.nn.MultiheadAttention's default batch_first=False and gives the attention a "
          "sequence-first (N, B, D) tensor, where page 30's full attention runs over the 197 tokens of each "
          'image.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows.transpose(0, 1), p.W_qkv, p.b_qkv, p.W_o, p.b_o, '
          'num_heads).transpose(0, 1)\n'),
    fresh('06_block', 'mlp_twice_no_attention', 'term',
          'block runs the MLP sublayer twice and attention never: U = x + MLP(LN1(x)), then U + MLP(LN2(U)), '
          "with this block's MLP weights both times; page 34's attention update is left out and an extra MLP "
          'update put in its place',
          "block copies the MLP's (feed, ln2) entry to build the attention entry of its list of sublayers and "
          'changes only the LayerNorm names.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(feed, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'first_feature_dropped_as_cls', 'term',
          'classify leaves feature 0 out of every score: s_c = sum over k >= 1 of h_k W_head[k, c] + b_c, the '
          'expected score minus h_0 W_head[0, c]',
          "classify remembers that 'token 0 is CLS' (page 52) and drops index 0 of h as if it were still the "
          'CLS slot of the sequence, although h is already the (B, D) CLS summary.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h[:, 1:], W_head[1:])  # (B, 1000)\n'),
    fresh('07_head', 'column_scores_reshaped_not_transposed', 'order',
          "classify computes the (C, B) matrix W_head^T h^T + b_head of page 54's column form and reshapes it "
          'to (B, C) instead of transposing it: element (b, j) is the expected score of image (b C + j) mod B '
          'for class (b C + j) // B (with two images, row 0 holds classes 0 .. C / 2 - 1 of both images '
          'interleaved); the values are the expected ones in another order, right only for a batch of one',
          "classify writes page 54's s_c = h^T w_c + b_c with h as a column vector for all images at once and "
          'turns the (C, B) result into (B, C) with reshape instead of .T.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return (W_head.T @ h.T + b_head.unsqueeze(1)).reshape(h.shape[0], -1)  # (B, 1000)\n'),
    fresh('07_head', 'cosine_similarity_scores', 'inputs',
          'classify scores the cosine of h and w_c plus b_c instead of their dot product plus b_c: s_c = h . '
          'w_c / (|h| |w_c|) + b_c, as if h and every class column were scaled to unit length',
          "classify reads page 54's 'The 192-feature CLS is compared with a learned weight vector for every "
          "ImageNet class' as a cosine similarity.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.nn.functional.cosine_similarity(h.unsqueeze(-1), W_head.unsqueeze(0), dim=1) + '
          'b_head  # (B, 1000)\n'),
    fresh('07_head', 'last_block_for_every_layer', 'inputs',
          'vit_forward runs params.blocks[-1] once per block instead of each block in turn: with two blocks '
          'the last block is applied twice and the first never (embedding, final norm and head are right)',
          'vit_forward indexes the block it inspected last, params.blocks[-1], inside the loop instead of '
          'using the loop variable, although page 36 gives every block its own learned weights.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, params.blocks[-1], params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'square_sliced_by_chained_brackets', 'part',
          'cover writes through result[:, :, top:top + size][:, :, left:left + size], whose second slice cuts '
          'the rows again instead of the columns: it grays the full-width rows top + left .. top + size - 1 '
          'when left < size and nothing when left >= size (the top-left quarter becomes the whole top half, '
          'the top-right quarter stays uncovered, a patch cover off the first grid column covers nothing); the '
          'pixels outside those rows are right',
          "cover indexes rows and columns in two brackets, the NumPy habit img[y0:y1][x0:x1], for page 42's "
          'covered[:, :, :112, :112] = 0.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size][:, :, left:left + size] = value\n'),
    fresh('08_occlusion', 'quarters_listed_bottom_row_first', 'order',
          'quadrant_probabilities loops over the tops in the order (H / 2, 0): it returns the probabilities '
          'for bottom-left, bottom-right, top-left, top-right, the expected values in the order [2, 3, 0, 1]',
          'quadrant_probabilities counts its quarters from the bottom row, as in a plot whose y axis points up '
          "(origin='lower'), when it lists page 43's top-left, top-right, bottom-left, bottom-right.",
          'for top in (0, half_h) for left in (0, half_w)',
          'for top in (half_h, 0) for left in (0, half_w)'),
    fresh('08_occlusion', 'size_read_channels_last', 'inputs',
          'quadrant_probabilities reads height and width from image.shape[1:3], (3, H) for a (1, 3, H, H) '
          'image: the covers have side 3 // 2 = 1 and corners (0, 0), (0, H / 2), (1, 0), (1, H / 2), so each '
          'value is the probability of the image with one pixel grayed, close to the uncovered probability, '
          'instead of a quarter covered',
          'quadrant_probabilities takes the height and width from axes 1 and 2, as for channels-last (B, H, W, '
          "C) images of TensorFlow, for page 43's quarters.",
          '    height, width = image.shape[-2:]\n',
          '    height, width = image.shape[1:3]\n'),
    fresh('08_occlusion', 'covered_probabilities_softmaxed_over_covers', 'axis',
          'occlusion_map takes the softmax of the covered logits over the batch of covers (dim=0) instead of '
          'over the classes: cell (r, c) is exp(l_rc) / (sum over all covers of exp(l)) of the target logit l, '
          'minus the uncovered probability, so the covered values sum to 1 over the grid',
          'occlusion_map writes dim=0 in the softmax of its batch of covers, where axis 0 runs over the covers '
          "and not over the classes, for page 44's 196 covered probabilities.",
          '        probs = torch.softmax(model(torch.cat(covers)), dim=-1)[:, target]  # (side*side,)\n',
          '        probs = torch.softmax(model(torch.cat(covers)), dim=0)[:, target]  # (side*side,)\n'),
]
