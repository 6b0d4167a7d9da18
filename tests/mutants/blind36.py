"""A thirty-sixth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the lecture
transcript alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes (so a mistake an
earlier set holds may well appear again, as a class's submissions repeat each other's). The emphasis is the student who copies too literally from the slides and the stubs' docstring examples: the lecture's numbers (224, 16, 14, 196, 197, 192, 3 heads, 12 blocks, 1000 classes) and notation taken as they stand, formulas typed in the order a slide reads them, the example's shapes and defaults assumed to hold everywhere.

Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (all eight, whole); exercises/01_flatten.py
... 08_occlusion.py (all eight, whole); /work/shared/lecture/vision1-transcript.md (whole, in two prints:
lines 1-282 with 511-end, then 283-510); tests/mutants/fresh.py lines 1-70 only (up to and including
`FRESH = [`); pyproject.toml only through `grep -A 20 "\\[tool.ruff\\]"`; directory listings of
tests/mutants/independent/ and exercises/. One slip: a directory listing of tests/mutants/ itself (`ls`), which
showed file names only (blind*.py, catalogue.py, fresh.py, novel.py, unseen.py, independent/); none of those
files was opened or searched, and nothing here was taken from them.

How the set was checked: /tmp/blind36work/harness.py loads each step file's text with the edit applied
(and the untouched independent file) against a stand-in grader module (/tmp/blind36work/stub/grader.py: the
BlockParams and ViTParams dataclasses with the fields the files use, and earlier_step loading the untouched
independent step), then calls every function of the step on random inputs at the lecture's size (224 x 224,
16-pixel patches, D=192, 3 heads, 1000 classes, 2 blocks, batch 2) and at a small size (32 x 32, 8-pixel patches,
D=24, 2 heads, 10 classes, 2 blocks, batch 2), plus the stubs' docstring examples (patchify of the 4 x 4 image,
normalize of 0/128/255, count_tokens at 224/16, 32/8 with and without CLS, 64/32 and the non-divisible 30/8); the
occlusion functions run a stand-in classifier (average pooling, then a linear map to 1000 or 10 logits) with the
predicted class and another class as target. It asserted: 4 edits per step in step order, every `old` occurs
exactly once, every edit changes a result (a number, a shape, a raise, or the input) of the function it edits,
and the 32 edits give 32 different sets of results. /tmp/blind36work/structure.py then checked each structure
statement (97 checks), among them: normalize gives 0.5 * expected - 0.5 (neither one factor nor one shift);
the pixel-major patchify and conv_to_linear are the same fixed permutation of every row (of W_E's rows);
the (768, 192) reshape holds the same values rearranged at the lecture's size and raises at the small one;
the lecture-number edits (14 * 14, 224, 192, (1, 197, 192), 64, / 8, 3 heads, patchify's default) agree at the
lecture's size and differ or raise at the small one; the 196-row table raises only with 197 tokens; embed's row 0
is the bare CLS and rows 1..N are right; qkv without bias is expected minus each head's bias row on every token;
attention with x added is expected + x; layer_norm without affine is (expected - bias) / weight; z * erf(z) gives
0.843, 0.843, 0.260, 1.991 at z = 1, -1, 0.5, -2 against GELU's 0.841, -0.159, 0.346, -0.046; read_cls without the
norm is x[:, 0]; classify with softmax is the softmax of the logits; vit_forward on the embedding gives the same
logits for both images; the corner cover differs only for squares not at (0, 0) and only in two squares' pixels;
the quadrant [0, target] is the top-left value with shape (); the occlusion map is 100 times, or -1 times, the
expected one. No entry is within a few per cent of the expected values (the / 8 weights and the z * erf(z) MLP
are off by more than 10 per cent somewhere). ruff check tests/mutants/blind36.py passes, and the brief's import
command prints 32.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND36 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'normalize_typed_in_slide_order', 'term',
          'normalize returns x/255 - 1 instead of 2 * x/255 - 1: written without brackets, "/ 0.5" divides only the 0.5 (giving 1), so the division by 0.5 of the centred value is lost; values lie in [-1, 0] (0.5 * expected - 0.5), 255 maps to 0.0 and 0 to -1.0.',
          'Page 8 reads "RGB to [0,1], subtract 0.5 and divide by 0.5"; the student types the three operations in the order the sentence reads them, scaled - 0.5 / 0.5, and operator precedence does the rest.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5 / 0.5  # subtract 0.5, divide by 0.5 (page 8)\n'),
    fresh('01_flatten', 'patchify_reads_patch_as_16x16x3', 'order',
          'patchify flattens each patch pixel-major (row, column, then channel: R G B of pixel 1, then of pixel 2, ...) instead of channel-major; the patches and their row-by-row order are right, but the 3*P*P values inside every row are permuted.',
          'Page 8 labels the patch "16 x 16 x 3", so the student moves the channel axis last before flattening, reading the patch in the order the slide writes its shape, not the R | G | B order of page 9.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 5, 1)  # (B, rows, cols, P, P, C): 16 x 16 x 3, as page 8 reads\n'),
    fresh('01_flatten', 'patchify_fixed_14_by_14_grid', 'shape',
          'patchify reshapes to a fixed 14 * 14 = 196 patches instead of (H/P) * (W/P): right for 224 x 224 images with 16-pixel patches, but any other grid (e.g. 32 x 32 with 8-pixel patches, 16 patches) makes the reshape fail.',
          'Page 7 spells out "14 x 14 = 196 patches" and the docstring promises (B, 196, 768); the student types the lecture\'s grid into the reshape.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, 14 * 14, C * P * P)  # (B, 196, 768): 14 x 14 patches (page 7)\n'),
    fresh('01_flatten', 'count_tokens_224_per_side', 'inputs',
          'count_tokens divides 224 rather than image_size by the patch size: the divisibility check still uses image_size, but the count is that of a 224-pixel image, e.g. 785 instead of 17 for count_tokens(32, 8), and 50 instead of 5 for count_tokens(64, 32); right only when image_size is 224.',
          'Page 7 writes "224 / 16 = 14 patches per side" and the docstring example is count_tokens(224, 16); the student copies the page\'s division with its 224.',
          '    per_side = image_size // patch_size\n',
          '    per_side = 224 // patch_size  # 224 / 16 = 14 patches per side (page 7)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_to_linear_keeps_pytorch_layout', 'shape',
          'conv_to_linear flattens the kernel but does not transpose it: it returns (D, 3*P*P), PyTorch\'s output-first layout, instead of W_E of shape (3*P*P, D).',
          'Page 10\'s note says "PyTorch stores the Linear weight transposed, as 192 by 768"; the student reads the flattened kernel as already being that stored weight and returns it as it is.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.clone()  # (D, 3*P*P)\n'),
    fresh('02_project', 'conv_to_linear_reshaped_to_768_by_192', 'order shape',
          'conv_to_linear reshapes the (D, 3*P*P) kernel to (768, 192) instead of transposing it: at the lecture\'s size the shape is right but the weights are laid out in the wrong places (read row-major from the (192, 768) layout), and for any other size (e.g. D=24, P=8) the reshape fails.',
          'Page 10 says "W_E: 768 x 192"; the student gets that shape with a reshape of the flattened kernel, not a transpose.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(768, 192).clone()  # W_E: 768 x 192 (page 10)\n'),
    fresh('02_project', 'conv_to_linear_pixel_major_rows', 'order',
          'conv_to_linear reads each kernel pixel-major (row, column, then channel) instead of channel-major: W_E has the right shape and columns, but its 3*P*P rows are permuted, so they no longer match patchify\'s R | G | B order.',
          'Page 8 draws a patch as "16 x 16 x 3"; the student moves the channel axis of the (D, 3, P, P) kernel last before flattening, following the slide\'s order of the sizes.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, P*P*3): 16 x 16 x 3 (page 8)\n'),
    fresh('02_project', 'project_uses_pytorch_transposed_weight', 'shape',
          'project contracts the patch features with the second axis of W_E (as if W_E were stored (D, 3*P*P)), so the (B, N, 3*P*P) patches and the (3*P*P, D) W_E do not fit and the call fails.',
          'Page 10\'s note "PyTorch stores the Linear weight transposed, as 192 by 768" makes the student index W_E as (d, k), the way F.linear reads its weight.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,dk->bnd", patches, W_E) + b_E  # PyTorch stores W_E as 192 x 768 (page 10)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'add_position_concatenates_what_and_where', 'shape',
          'add_position concatenates the position table to the tokens along the features instead of adding it: the result is (B, N, 2D), the tokens followed by the table, not (B, N, D).',
          'Page 16 draws "content c_i WHAT" and "position p_i WHERE" as two boxes side by side; the student joins them as drawn.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # [WHAT | WHERE] (page 16)\n'),
    fresh('03_position', 'add_position_table_as_1_197_192', 'shape',
          'add_position reshapes the table to the lecture\'s (1, 197, 192) before expanding it: right for 197 tokens of 192 features, but any other table (e.g. 17 x 24) cannot be reshaped and the call fails.',
          'Page 52\'s notes say "pos has shape 1 by 197 by 192 and broadcasts across the batch"; the student writes exactly that shape.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.reshape(1, 197, 192).expand(batch, -1, -1)  # pos: 1 x 197 x 192 (page 52)\n'),
    fresh('03_position', 'add_position_in_place', 'input',
          'add_position adds the table into the caller\'s tokens in place and returns them: the returned numbers are right, but the input tensor is changed.',
          'Page 52 writes the step as an update of x, "x = prepend_cls(x) + pos"; the student adds into the tokens themselves with add_.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens.add_(table)  # (B, N, D): x + pos, updated in place\n'),
    fresh('03_position', 'add_position_only_196_positions', 'shape',
          'add_position uses only the first 196 rows of the table: for tables of 196 rows or fewer nothing changes, but with the 197-row table (CLS included, as in the docstring example) the 196 rows do not fit the 197 tokens and the call fails.',
          'Pages 16-17 pair "P1 ... P196" with "position 1 ... position 196" and page 16 says position "preserves the 196 x 192 shape"; the student keeps 196 positions.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:196].unsqueeze(0).expand(batch, -1, -1)  # positions 1..196 (page 17)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'prepend_cls_reshaped_to_192', 'shape',
          'prepend_cls reshapes the CLS vector to (1, 1, 192) rather than to the tokens\' width: right for D = 192, but for any other width (e.g. D = 24) the reshape fails.',
          'Page 20 says the CLS start is "192 stored numbers" and the docstring example uses 192; the student writes the width as a number.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, 192).repeat(batch, 1, 1)  # 192 stored numbers (page 20)\n'),
    fresh('04_cls', 'embed_position_before_cls', 'part term',
          'embed adds the position rows 1..N to the patch tokens and only then prepends CLS: rows 1..N are right, but row 0 (CLS) never gets its position vector pos_table[0], so it is the bare CLS token.',
          'Pages 14 and 23 read "PATCH PROJECTION -> + POSITION + CLS", in that order; the student follows the slide\'s order and, to make the 197-row table fit the 196 patches, drops its first row.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    sequence = position.add_position(content, params.pos_table[1:])  # (B, N, D): + POSITION (page 23)\n    return prepend_cls(sequence, params.cls_token)  # + CLS: (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_default_patch_size', 'shape',
          'embed calls patchify without params.patch_size, so patchify\'s default of 16 is used: right for the 16-pixel checkpoint, but for another patch size (e.g. 8) the patch rows have the wrong length for W_E and the projection fails.',
          'The lecture only ever uses 16-pixel patches and patchify\'s default is 16; the student leaves the default in place.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images)  # (B, 196, 768)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs',
          'embed normalizes the already normalized images once more (x / 255 * 2 - 1) before patchifying, so every patch is computed from the wrong pixels.',
          'Page 8 says "Before projection, use the checkpoint normalization"; the student puts flatten.normalize in front of the projection though the images arrive normalized.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # normalize before projection (page 8)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_heads_without_bias', 'term shift',
          'qkv_heads leaves out b_qkv: every q, k and v is its expected value minus its bias (for each head the same d-vector subtracted from every row).',
          'Page 26 writes q_i = LN(e_i) W_Q, k_i = LN(e_i) W_K, v_i = LN(e_i) W_V; the student types the formula as it stands, without the bias that page mentions only in brackets.',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = x.reshape(-1, width) @ W_qkv  # q = LN(e) W_Q, k = LN(e) W_K, v = LN(e) W_V (page 26)\n'),
    fresh('05_attention', 'qkv_heads_head_dim_64', 'shape',
          'qkv_heads fixes the head width at 64 instead of D/H: right for D = 192 with 3 heads, but for any other width or head count (e.g. D = 24, 2 heads) the view fails.',
          'Pages 26-28 say each q, k and v "is 64 features wide" and the docstring example ends in 64; the student writes 64.',
          '    head_dim = width // num_heads\n',
          '    head_dim = 64  # each head is 64 features wide (page 26)\n'),
    fresh('05_attention', 'attention_weights_divide_by_8', 'term',
          'attention_weights divides the scores by 8 rather than by the square root of the head width: right when d = 64, but for any other d (e.g. d = 12, sqrt 12 = 3.46) the scores are scaled by the wrong factor before the softmax, so the weights are too flat when d < 64 (with d = 12, the mean largest weight of a row falls from 0.22 to 0.11) and too sharp when d > 64; each row still sums to 1.',
          'Page 28 writes q74 . k60 / sqrt 64 and its notes say "divided by 8"; the student divides by 8.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / 8  # q . k / sqrt 64: divided by 8 (page 28)\n'),
    fresh('05_attention', 'multi_head_attention_adds_x', 'term',
          'multi_head_attention adds its input x to the projected heads: it returns x + MSA(x), the updated embedding, instead of the update alone.',
          'Page 34 is titled "Add the attention update to the original embedding" and shows original + projected message = updated embedding; the student does the add inside attention.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return x + torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # original + message (page 34)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_norm_without_scale_and_shift', 'term',
          'layer_norm centres each row and divides by its standard deviation but leaves out the learned weight and bias: every row is (expected - bias) / weight.',
          'The slides write the normalization as LN(E) and LN(e_i) with no parameters shown (pages 26, 34); the student types only the normalization.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps)  # LN(e_i) (page 26)\n'),
    fresh('06_block', 'mlp_gelu_with_erf_as_phi', 'activation',
          'mlp uses z * erf(z) as its activation instead of GELU(z) = z * Phi(z) = 0.5 z (1 + erf(z / sqrt 2)): erf is taken for the normal CDF itself. For z = 1 it happens to be close (0.843 against 0.841), but negative inputs come out positive and large: z = -1 gives +0.843 instead of -0.159, z = -2 gives 1.99 instead of -0.046.',
          'The stub says "GELU(z) = z . Phi(z), where Phi is the standard normal CDF, which torch.erf gives you"; the student reads that as Phi = torch.erf.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * torch.erf(hidden)  # GELU(z) = z · Φ(z), Φ from torch.erf\n'),
    fresh('06_block', 'block_ln1_before_the_mlp', 'inputs',
          'block normalizes the MLP\'s input with LN1\'s weight and bias instead of LN2\'s: the attention half is right, the MLP update is computed from rows normalized with the wrong scale and shift.',
          'Pages 34-35 write both formulas with the same symbol, U = E + MSA(LN(E)) and E_next = U + MLP(LN(U)); the student uses the one LayerNorm for both.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln1_weight, p.ln1_bias)]  # LN(E), LN(U)\n'),
    fresh('06_block', 'block_three_heads', 'inputs',
          'block calls attention with 3 heads whatever num_heads says: right for the lecture\'s 3 heads, but with another head count (e.g. 2 heads of D = 24) the features are split into 3 heads of the wrong width and the attention update is wrong.',
          'Page 32: "Three heads gather three messages for each token", and the docstring example passes 3; the student writes the lecture\'s 3 in the attention call.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, 3)  # three heads (page 32)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'read_cls_without_final_norm', 'term',
          'read_cls returns row 0 as it leaves the last block, without the final LayerNorm (norm_weight and norm_bias are not used).',
          'Page 38 shows "Read final CLS" straight after the blocks (its notes say the diagram leaves out normalization) and page 50 omits LayerNorm too; the student reads CLS as drawn.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.squeeze(1)  # (B, D): read final CLS (page 38)\n'),
    fresh('07_head', 'classify_returns_probabilities', 'activation',
          'classify applies a softmax over the classes to the logits: it returns probabilities (each row sums to 1) instead of logits.',
          'Page 39 draws "Linear(192, 1000) -> 1,000 logits -> softmax across classes -> 1,000 probabilities"; the student carries the diagram through to the softmax.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).softmax(-1)  # 1,000 probabilities (page 39)\n'),
    fresh('07_head', 'classify_column_vector_h', 'shape',
          'classify multiplies the transposed h, (D, B), by W_head, (D, C): the shapes do not fit and the call fails.',
          'Page 54 writes s_c = h_CLS^T w_c + b_c in column-vector notation; the student transposes h as the formula shows, though h here is already a row per image.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h.T, W_head)  # s = h^T W + b (page 54)\n'),
    fresh('07_head', 'vit_forward_reads_cls_of_embedding', 'inputs',
          'vit_forward reads CLS from the embedding x instead of from the rows after the blocks: the blocks run but their output is never used, so the logits are those of the un-encoded CLS token (the same for every image).',
          'Page 52 names every stage x ("x = block(x)", then "h = norm(x)[:, 0]"); the student types norm(x) as on the slide, but here x is the embedding and the blocks\' output is called rows.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(x, params.norm_weight, params.norm_bias)  # h = norm(x)[:, 0] (page 52)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_always_top_left_corner', 'part',
          'cover fills the size x size square at the top-left corner, ignoring top and left: right for covers that start at (0, 0), but any other cover greys the corner and leaves the asked-for square as it was.',
          'Page 42\'s code is covered[:, :, :112, :112] = 0; the student keeps its slices from the start of the image, replacing only 112 by size.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, :size, :size] = value  # covered[:, :, :112, :112] = 0 (page 42)\n'),
    fresh('08_occlusion', 'quadrant_probabilities_first_row_only', 'shape',
          'quadrant_probabilities reads the target probability of the first image of the batch only: it returns one number (the top-left cover\'s), shape (), instead of the four quadrants\' (4,).',
          'Page 42 reads model(covered).softmax(-1)[0, 256]; the student copies the [0, target] index, though here the batch holds four covers.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[0, target]  # .softmax(-1)[0, 256] (page 42)\n'),
    fresh('08_occlusion', 'occlusion_map_in_percentage_points', 'scale',
          'occlusion_map returns the change in percentage points, 100 times the change in probability units.',
          'Pages 43-44 give every change in "points" (P78: -3.84 points, scale -4 to +4 points); the student multiplies by 100 to match.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return ((probs - base) * 100).view(side, side)  # points, as on page 44\n'),
    fresh('08_occlusion', 'occlusion_map_drop_before_minus_after', 'sign scale',
          'occlusion_map returns original minus covered probability, the negative of the covered-minus-original change: a drop shows as a positive number.',
          'Pages 43-44 speak of the "drop" (95.73% -> 91.89%, the largest drop) and page 42\'s code names the two probabilities before and after; the student writes before - after.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (base - probs).view(side, side)  # the drop: before - after (page 42)\n'),
]
