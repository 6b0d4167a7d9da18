"""A thirty-seventh blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the lecture
transcript alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes (so a mistake an
earlier set holds may well appear again, as a class's submissions repeat each other's). The emphasis is the student fighting shape and dtype errors: each mistake is what a student typed to make an error go away (a transpose, squeeze or unsqueeze, reshape or view, a sum or mean to drop an axis, an expand or broadcast, a cast, an index) which then runs but computes the wrong thing.

Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (all eight whole);
exercises/01_flatten.py ... 08_occlusion.py (all eight whole); /work/shared/lecture/vision1-transcript.md (whole,
its middle part, lines 283-510, printed a second time because the first print was truncated);
tests/mutants/fresh.py lines 1-70 only (up to and including `FRESH = [`, found with grep -n); pyproject.toml only
through `grep -A 20` on its [tool.ruff] header; directory listings of tests/mutants/independent/ and exercises/. Nothing
else in the repository was opened, grepped or run (no grader/, solutions/, docs/, other tests/, git history,
vitgrade or pytest); no slips. One `git status --short` (to confirm this was the only file written) also
named tests/test_fresh.py and tests/mutants/blind36.py as changed by others; neither was opened. The required import check below executes mutants.fresh (and whatever it imports)
without its text being read.

How the set was checked: scripts in /tmp/blind37work/ load each step file with its edit applied, next to the
unedited file, under a stand-in `grader` module (BlockParams and ViTParams dataclasses with the fields the
independent files use; earlier_step loads the unedited independent step), and call every function of the step on
random inputs at the lecture's sizes (224 x 224, P = 16, D = 192, 3 heads, 1000 classes, 2 blocks, batch 2) and
at a small size (32 x 32, P = 8, D = 24, 2 heads, 10 classes, 2 blocks, batch 2), plus batch-1 and 2-D cases; the
occlusion functions ran with a stand-in classifier (4 x 4 average pooling and a linear map) with its predicted class
and its runner-up class as targets. They showed: every `old` occurs exactly once; every edited file imports; every
edit changes a result (values, shape, dtype, Python type, a raise, or the caller's tensor) at both sizes; no two edits
of a step give the same results. A second script rebuilt each mutant's result from the original's by the rule its
structure states (114 checks, all passing): e.g. the float64 values agree with the float32 ones to 1e-7; the
permuted results hold the same values with only the stated entries in place (patch rows read with stride N; W_E
read row-major or pixel-major; project's row (b, n) = flat row n*B + b; q's row (h, i) = stack row h*N + i); the
position rows are pos_table[0], the column sums, or row (b*N + i) // B; attention entry (i, j) divided by row j's
sum, the messages A^T v; LayerNorm centred over tokens (right for 2-D input) or with one global variance; the block
with attention across the batch; logits transposed; only the last block applied to the embedding (right with one
block); cover's caller images covered in place; the four quadrant probabilities all equal to the uncovered one; the
occlusion map right for the top class and shifted by p_target - p_top for another; the map transposed. The errors
each student story starts from were reproduced too (view on the strided q slice, q @ k, a sum or mean without
keepdim, the (C,) bias in column-form addmm, a two-axis einsum on 3-D patches, uint8 patches in einsum, an in-place
write into a requires-grad leaf). `ruff check tests/mutants/blind37.py` passes and the import check prints 32.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND37 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'normalize_cast_to_float64', 'type',
          'normalize returns float64 instead of float32: the values are 2 * x / 255 - 1 as expected (they agree to float32 rounding, within 1e-7), only the dtype is wrong.',
          'The docstring warns that uint8 arithmetic wraps around; the student cast before dividing, but with .double(), because Python floats are doubles. Every later step then meets float32 weights with a float64 image (page 8 normalization).',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.double() / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'patchify_reshaped_as_unfold_output', 'order',
          'patchify reshapes the (B, rows, cols, C, P, P) tiles to (B, 3*P*P, N) and transposes that to (B, N, 3*P*P): the shape is right, but output row n of an image takes every N-th value of that image\'s buffer, so each patch row mixes values from many patches (only a handful of values per image, the first and last among them, stay in place). Every value is there, in another order, within its own image.',
          'F.unfold returns (B, C*P*P, L) and is usually followed by .transpose(1, 2); the student copied that reshape-then-transpose onto their own unfold and permute, whose layout is already patch-major (row by row, page 7), and the scrambled rows have the right shape.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, C * P * P, (H // P) * (W // P)).transpose(1, 2)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'patchify_batch_folded_into_rows', 'shape',
          'patchify returns (B*N, 3*P*P) instead of (B, N, 3*P*P): the patch rows are right and in the right order, image after image, but the batch axis is folded into the patch axis.',
          'Page 12 stacks one image\'s patches into X: 196 x 768 (the batch axis is omitted in the lecture); rather than work out N, the student let reshape infer it with -1, which matches page 12 for one image and loses the batch axis.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(-1, C * P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'count_tokens_true_division', 'type',
          'count_tokens returns a float (197.0, 196.0, 17.0) instead of an int: per_side is image_size / patch_size; the number is right and the divisibility check still raises.',
          'Page 7 writes 224 / 16 = 14; the student typed true division, which gives 14.0, so the count is a Python float that later breaks range() or a reshape size.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size / patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_to_linear_reshape_for_transpose', 'order',
          'conv_to_linear reshapes the (D, 3*P*P) kernels to (3*P*P, D) instead of transposing them: the shape is right but the weights are read out row-major, so column d of W_E is not kernel d (only the first and last entries stay in place); the same values in another order.',
          'Page 10: PyTorch keeps the output axis first, the lecture keeps it last. The student needed (768, 192) from (192, 768) and asked for that shape with reshape, the classic reshape-for-transpose slip.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'conv_to_linear_channels_last', 'order',
          'conv_to_linear permutes every kernel to (P, P, 3) before flattening: W_E has the right shape and column d still holds kernel d, but its rows are read pixel-major (R, G, B of one pixel, then the next) while patchify is channel-major, so the rows of W_E are permuted (the first and last rows stay in place).',
          'Thinking of pixel data as H x W x 3 (PIL, numpy), the student permuted the kernel to channels-last before flattening; page 9 says pixel-major order is valid only if the patches are read the same way, and patchify reads R, then G, then B.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'project_first_image_only', 'shape part',
          'project computes only the first image, patches[0] @ W_E + b_E: it returns (N, D) instead of (B, N, D); image 0\'s content vectors are right, the other images are dropped.',
          'Page 12 writes C = X W_E + b_E for one image with the batch axis omitted; the student\'s two-axis einsum "nk,kd->nd" rejected the 3-D patches, and indexing patches[0] made the error go away.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("nk,kd->nd", patches[0], W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'project_rows_regrouped', 'order',
          'project multiplies the (B*N, 3*P*P) rows in 2-D, views the (B*N, D) result as (N, B, D) and transposes it to (B, N, D): every row is a correct content vector, but output row (b, n) is flat row n*B + b instead of b*N + n, so rows are shuffled across images and positions (only the first row of the first image and the last row of the last image stay in place).',
          'The student did the product on flattened rows (page 12 stacks rows) and viewed the result back with the axes in the order they came to mind, (N, B, D); the shape was wrong, so a transpose(0, 1) made it (B, N, D).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (patches.reshape(-1, W_E.shape[0]) @ W_E + b_E).view(patches.shape[1], patches.shape[0], -1).transpose(0, 1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'add_position_first_row_for_all', 'term',
          'add_position adds pos_table[0], the first position row, to every token of every image instead of row i to token i: only the first token of each image gets its own position, every other token gets row 0.',
          'Page 52 says pos has shape 1 x 197 x 192 and broadcasts across the batch; believing the table had that leading 1, the student indexed [0] to drop it, which on the real (N, D) table picks row 0 and broadcasts it to every token.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[0]  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'add_position_rows_summed', 'term',
          'add_position adds pos_table.sum(0), the sum of all N position rows, to every token: the position term is one and the same vector for every token and image, the table\'s column sums, instead of row i for token i.',
          'The same 1 x 197 x 192 picture from page 52; this student dropped the supposed leading axis with .sum(0), harmless on a size-1 axis, but on the real (N, D) table it adds all positions together.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.sum(0)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'add_position_table_interleaved', 'term order',
          'add_position unsqueezes the table at axis 1, expands it to (N, B, D) and reshapes to (B, N, D): each table row is repeated B times in a row, so with B = 2 token i of image 0 gets row i // 2 and token i of image 1 gets row (N + i) // 2; only the first token of the first image and the last token of the last image get their own rows (with B = 1 it is right).',
          'Giving the table a batch axis (page 17: every image uses the same table), the student unsqueezed axis 1 instead of 0 and expanded; the add then failed, and a reshape to (B, N, D) made the shapes agree.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(1).expand(-1, batch, -1).reshape(batch, -1, pos_table.shape[-1])  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'add_position_unsqueeze_wrong_axis', 'shape',
          'add_position adds pos_table.unsqueeze(1), shape (N, 1, D), to the (B, N, D) tokens: broadcasting fails unless B is 1 or N, and with B = 1 the result is (N, N, D).',
          'Knowing the table needs a batch axis to broadcast (page 52), the student added it with unsqueeze(1), reading the argument as "a second axis" rather than the position of the new axis.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'prepend_cls_first_feature_only', 'part',
          'prepend_cls fills row 0 of every image with cls_token[0], the CLS vector\'s first feature, repeated across all D features: rows 1..N (the patch tokens) are right, row 0 is one constant instead of the CLS vector.',
          'timm stores the CLS token as (1, 1, 192); expecting such a leading axis, the student indexed cls_token[0] to drop it and expanded to (B, 1, D). On the (D,) vector the index picks a single number, which expand broadcasts without complaint.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token[0].expand(batch, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'prepend_cls_cat_flattened_batch', 'order',
          'prepend_cls flattens the batch, puts all B CLS rows before all B*N patch rows and views the result as (B, 1+N, D): the right rows in the wrong places. With B = 2 image 0 reads CLS, CLS, P1..P(N-1) and image 1 reads image 0\'s PN, then its own P1..PN: image 1 has no CLS and image 0\'s patches are shifted by one.',
          'Page 23 writes the sequence as one stack of rows [CLS; P1; ...; P196]; to concatenate rows the student flattened both to 2-D, concatenated along the rows and viewed the stack back as (B, 1+N, D), which has the right shape.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start.reshape(-1, width), tokens.reshape(-1, width))).view(batch, -1, width)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs',
          'embed runs normalize on images that are already normalized, so it patchifies 2 * x / 255 - 1 (close to -1 everywhere) instead of x: every patch token is computed from the wrong pixels; the CLS row (CLS plus its position) is right.',
          'Testing embed on uint8 pixels from their own loader, the student hit a dtype error in the projection and added flatten.normalize(...) as the cast; the docstring says the images arrive normalized (page 8 normalizes once, before the model).',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'embed_pos_table_unsqueezed', 'shape',
          'embed hands add_position pos_table.unsqueeze(0), shape (1, 1+N, D); add_position unsqueezes again and expands to three sizes, which fails: the call raises instead of returning (B, 1+N, D).',
          'Page 52 says pos has shape 1 x 197 x 192 and broadcasts across the batch, so the student added the leading 1 before passing the table on, not knowing add_position already does it.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table.unsqueeze(0))  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_q_reshaped_not_transposed', 'order part',
          'qkv_heads turns q\'s (B, N, H, d) slice into (B, H, N, d) with reshape instead of transpose(1, 2): q has the right shape and values, but row i of head h holds the d features of flat row h*N + i of the (N*H, d) stack, another token and head (only a few rows stay in place, among them the first row of the first head and the last row of the last head); k and v are right.',
          'view on the strided slice mixed[:, :, 0] failed ("view size is not compatible with input tensor\'s size and stride"); the student switched to reshape with the target shape, which copies and runs, instead of transposing, and wrote k and v with transpose after reading the error more closely.',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[:, :, 0].reshape(batch, num_heads, count, head_dim)  # (B, H, N, d)\n'),
    fresh('05_attention', 'attention_features_against_features', 'shape',
          'attention_weights computes q^T k, (B, H, d, d), instead of q k^T, (B, H, N, N): the scores compare feature columns summed over tokens, and the softmax returns a (B, H, d, d) matrix instead of N x N weights.',
          'q @ k failed ((N, d) times (N, d)); the student transposed the first factor instead of the second, the product ran, and the d x d result went unnoticed (page 30: one row per query, one column per key).',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (q.transpose(-2, -1) @ k) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'attention_row_sums_unsqueezed_wrong', 'axis',
          'attention_weights divides by weights.sum(-1).unsqueeze(-2), shape (B, H, 1, N): entry (i, j) is divided by row j\'s sum instead of row i\'s, so each column j is scaled by 1 / (sum of row j) and the rows no longer sum to one.',
          'Without keepdim, weights / weights.sum(-1) failed to broadcast (B, H, N) against (B, H, N, N); the student put the lost axis back with unsqueeze, at -2 instead of -1, and the square N x N matrix let it run (page 31: the softmax runs along a row).',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-1).unsqueeze(-2)  # each row sums to 1\n'),
    fresh('05_attention', 'mha_values_weighted_by_columns', 'axis',
          'multi_head_attention computes (v^T A)^T = A^T v: token i\'s message is the values weighted by column i of the attention matrix (how much every receiver takes from i) instead of row i (what i takes from every source), so the weighted sum runs along the wrong axis of A.',
          'Page 29 multiplies each value vector by its weight; the student wrote v.T @ weights (d x N times N x N), got (B, H, d, N), and transposed it back to the (B, H, N, d) the join needed.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = (v.transpose(-2, -1) @ weights).transpose(-2, -1)  # (B, H, N, d): weighted sums of values\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_norm_mean_over_tokens', 'axis',
          'layer_norm centres with x.mean(dim=1, keepdim=True): for (B, N, D) rows that is each feature\'s mean over the N tokens, not each row\'s mean over its D features; the variance is then taken of these wrongly centred rows (for a 2-D (N, D) input dim 1 is the feature axis and the result is right).',
          'x.mean(-1) without keepdim would not subtract from (B, N, D); the student added keepdim and picked dim=1, "the axis after the batch", which also passes the docstring\'s 2-D example (pages 34-35).',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=1, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'layer_norm_one_variance_for_all', 'axis',
          'layer_norm divides by the mean of the squared deviations over the whole tensor: one variance for every row of every image instead of one per row, so each row is scaled by sqrt(its own variance / the global one) relative to the expected; the centring and the affine scale and shift are right.',
          'The per-row variance without keepdim failed to broadcast; dropping the dim argument made the error go away, since .mean() reduces every axis to a scalar that broadcasts anywhere.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean()  # (..., 1): the biased variance\n'),
    fresh('06_block', 'mlp_rows_flattened', 'shape',
          'mlp returns (B*N, D) instead of (B, N, D): the contraction is done on hidden flattened to 2-D rows and never reshaped back; the values and their order are right.',
          'Having used 2-D products (addmm) in attention, the student flattened hidden to (B*N, 4D) for the second layer and forgot the view back (page 35: the MLP works on each row alone, so flattening itself is harmless).',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return hidden.reshape(-1, W_2.shape[0]) @ W_2 + b_2  # (B, N, D)\n'),
    fresh('06_block', 'block_attention_sequence_first', 'axis',
          'block transposes the rows to (N, B, D) before attention and back after: attention then mixes, at each token position, the B images with one another instead of the N tokens of one image; LayerNorm and the MLP work row by row and are unaffected.',
          'nn.MultiheadAttention and nn.TransformerEncoderLayer expect (sequence, batch, features) by default; remembering that, the student transposed batch and sequence around the attention call, and every shape still matched.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows.transpose(0, 1), p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads).transpose(0, 1)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'read_cls_squeeze_wrong_axis', 'shape',
          'read_cls squeezes axis 0 instead of axis 1: for B > 1 nothing is squeezed and it returns (B, 1, D) instead of (B, D); the values are the right final CLS (with B = 1 it is right).',
          'The LayerNorm of x[:, :1] came out (B, 1, D); to drop the extra axis the student squeezed axis 0, which gives (1, D) when testing one photograph, as the lecture does.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(0)  # (B, D)\n'),
    fresh('07_head', 'read_cls_mean_of_rows', 'term',
          'read_cls normalizes the mean of all 1+N rows (mean pooling, CLS included) instead of row 0: the summary has the right shape but is a different quantity.',
          'Page 18 mentions mean pooling as a valid readout; the student reduced the token axis with .mean(dim=1, keepdim=True) to get the (B, 1, D) the rest of the line expected, but this checkpoint was trained with the CLS readout.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x.mean(dim=1, keepdim=True)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'classify_column_vector_layout', 'shape order',
          'classify computes W_head^T h^T + b_head[:, None], the (C, B) transpose of the expected (B, C) logits: every value is right, the axes are swapped.',
          'Page 54 writes s_c = h^T w_c + b_c with h as a column; the student built the column form W^T h and, when addmm could not broadcast the (C,) bias over (C, B), unsqueezed it to (C, 1).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head.unsqueeze(1), W_head.T, h.T)  # (B, 1000)\n'),
    fresh('07_head', 'vit_forward_blocks_read_embedding', 'inputs',
          'vit_forward passes the embedding x, not the previous block\'s output, to every block: only the last block counts, applied once to the embedding (with one block it is right).',
          'The loop first read x = block(x, ...); renaming to rows, the student changed the left side but not the argument (page 36: each block reads the states produced by the preceding block).',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_detach_without_clone', 'input',
          'cover writes the square into images.detach(), which shares storage with images: the returned tensor is right, but the caller\'s images get the same square in place, so later covers pile up on it.',
          'Writing into the images raised "a leaf Variable that requires grad is being used in an in-place operation"; .detach() made the error go away and the student dropped the clone (page 42 starts with x.clone(), so covers never accumulate).',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = images.detach()  # the caller\'s images stay as they were\n'),
    fresh('08_occlusion', 'quadrant_sizes_from_leading_axes', 'constant',
          'quadrant_probabilities reads height and width from image.shape[:2], which is (1, 3), so the cover size half_h is 0: nothing is covered and all four probabilities equal the uncovered image\'s.',
          'For a (1, 3, H, W) image the student wanted the last two sizes and sliced the first two, [:2] for [-2:]; no error, since a 0 x 0 cover is a valid slice.',
          '    height, width = image.shape[-2:]\n',
          '    height, width = image.shape[:2]\n'),
    fresh('08_occlusion', 'occlusion_baseline_top_class', 'shift',
          'occlusion_map subtracts the uncovered image\'s largest class probability (its predicted class) instead of the target\'s: with the predicted class as target the map is right; with another target every cell is off by the same constant, p_target - p_top.',
          'softmax(model(image)) is (1, C) and the subtraction needed one number; the student reduced it with .max(), thinking of "the model\'s confidence". In the lecture the target, Newfoundland, is also the top class (page 44), which hides the slip.',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(image), dim=-1).max()  # the uncovered probability\n'),
    fresh('08_occlusion', 'occlusion_cover_axes_swapped', 'order',
          'occlusion_map passes (col * P, row * P) as (top, left): cell (r, c) holds the cover of the patch in row c, column r, so the map is the transpose of the expected one.',
          'The student read cover\'s position as (x, y), column first, as in plotting coordinates, and swapped the arguments; patches are numbered row by row (page 7).',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, col * patch_size, row * patch_size, patch_size)\n'),
]
