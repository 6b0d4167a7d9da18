"""A twenty-second blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/)
and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's
diagnosis, the catalogue or the other sets of mistakes beyond their format and what was needed to avoid
repeats. Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (printed whole),
exercises/01_flatten.py ... 08_occlusion.py (printed whole), the lecture transcript (its first 60,000
bytes, then the lines 283-510 that the first printout had cut short), tests/mutants/fresh.py up to and
including its line `FRESH = [` (lines 1-70: the CLAIMS vocabulary, the `Fresh` class and the `fresh`
helper), the lines of pyproject.toml that a grep for "ruff" with 20 lines after each hit showed (the line
length of 120, the lint selection and per-file ignores, and with them the neighbouring lines of the
dev dependencies, project scripts, setuptools and pytest settings), the first 80 lines of
tests/mutants/blind20.py and the first 60 and last 30 lines of blind19.py, for the format. To leave out
every mistake the earlier sets hold, blind.py, blind2.py ... blind20.py (named one by one) were loaded by
a throwaway script outside the repository with a stand-in `fresh`, which printed the step, function,
name, claims, old and new text of every entry (608 of them), sorted by function; that printout was read
whole and grepped for the edits of this set. A line count of blind.py ... blind20.py (named one by one)
was taken, a one-line check printed the installed torch version, and one command
`ls tests/mutants/ | head -0` ran by slip and printed nothing (no listing of that folder was
seen). blind21.py was neither opened nor searched. Nothing under grader/, no catalogue, no novel.py or unseen.py, no
other test, no docs, solutions or fixtures were opened, no git command was run and the kit's grader and
tests were not run. The check of this set (throwaway scripts outside the repository) loaded the
independent steps from their source text with a stand-in for the `grader` import (its `earlier_step`,
`ViTParams` and `BlockParams`), read this file with a stand-in `fresh`, applied every edit (its old text
found exactly once), compared each function with the original on inputs at the lecture's sizes (224 x 224
images, 16-pixel patches, 192 features, 3 heads, 1000 classes, a batch of two) and at two smaller sizes,
and checked every `structure` below numerically; it did not import the kit's grader or mutants package.
Last, `ruff check` and a bare import of this module (which loads mutants/fresh.py) were run on it.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function on typical inputs, with what is really wrong (`structure`) and
the kinds of structure its error truly has (`claims`). Three are shape mistakes: project's batch-free
einsum and classify's matrix-vector product fail on every call, and block's head count from 64-feature
heads fails for fewer than 64 features. The two marked hidden=True (that head count, and the occlusion
stride written as 16) are right at the lecture's own sizes and only a test with other sizes can show
them. multi_head_attention's sequence-first layout is right for a batch of one image and needs two or
more: its `structure` says so.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND22 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'dequantized_pixel_centres', 'scale approximate',
          'normalize maps each byte x to (x + 0.5) / 256 before the 2x - 1 step, so it returns (x - 127.5) / 128 '
          'instead of (x - 127.5) / 127.5: every value is the expected one times 127.5 / 128 = 0.99609 (0 gives '
          '-0.99609 instead of -1, 255 gives 0.99609 instead of 1), 0.4 per cent too small',
          'normalize copies the dequantization of image-generation code, which reads each byte as the centre of '
          'its bin, (x + 0.5) / 256, instead of page 8\'s "RGB to [0,1]" by dividing by 255.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = (pixels.float() + 0.5) / 256.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'half_precision_for_float', 'type approximate',
          'normalize converts the bytes to float16 instead of float32: the result has dtype float16 and every '
          'value is rounded to half precision, off by up to 0.0005 (at most 0.4 per cent of the value, e.g. '
          '-0.0039063 instead of -0.0039216 for the byte 127)',
          'normalize follows the stub\'s "convert to float32 first" only as far as "convert to a float type" and '
          'uses .half(), the float16 habit of GPU code, before page 8\'s scaling.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.half() / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'patches_standardized_like_mae', 'term',
          'patchify standardizes every patch row: it subtracts the row\'s mean and divides by the square root of '
          'its unbiased variance plus 1e-6, so each row of C*P*P values has mean 0 and variance 1 instead of '
          'holding the patch\'s pixel values themselves',
          'patchify copies the normalized pixel targets of MAE (norm_pix_loss), which standardize each patch '
          'right after its patchify, although page 9 says flattening only rearranges the values.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return ((rows := tiles.reshape(B, (H // P) * (W // P), C * P * P)) - rows.mean(dim=-1, keepdim=True)) '
          '/ (rows.var(dim=-1, keepdim=True) + 1e-6) ** 0.5  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'patches_counted_from_one', 'shift term',
          'count_tokens returns one token too few for every input: 196 instead of 197 for 224 and 16, 195 '
          'instead of 196 without CLS, 49 instead of 50 for 32-pixel patches, 784 instead of 785 for 8-pixel '
          'ones (the expected count minus 1); the divisibility check still raises',
          'count_tokens counts the patches P1 ... P196 with the lecture\'s one-based numbering (page 7: P1 '
          'top-left, P196 bottom-right) as range(1, 196), whose end is excluded, so the last patch is never '
          'counted.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return len(range(1, per_side * per_side)) + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernels_rescaled_for_display', 'scale shift',
          'conv_to_linear stretches the whole kernel tensor to [0, 1] before reading it out: W_E is '
          '(conv_weight - min) / (max - min), the expected weights times 1 / (max - min) plus the one constant '
          '-min / (max - min); the layout of W_E is right',
          'conv_to_linear copies the filter visualization of a notebook (page 53\'s implementation lab shows the '
          'kernels as RGB pictures), which min-max rescales the weights to [0, 1] for display, into the '
          'conversion.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = ((conv_weight - conv_weight.min()) / (conv_weight.max() - conv_weight.min())).flatten('
          'start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'kernels_weight_normalized', 'term',
          'conv_to_linear divides every kernel by its Euclidean length: column d of W_E is kernel d scaled to '
          'length 1, the expected column divided by its own norm (a different factor for every column); the '
          'layout is right',
          'conv_to_linear half-remembers weight normalization, w = g v / ||v||, takes the stored kernel for the '
          'direction v and leaves out the magnitude g, although the checkpoint stores the weights themselves.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return torch.nn.functional.normalize(flat, dim=1).transpose(0, 1).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'content_vectors_unit_length', 'term',
          'project divides every content vector c_i = x_i W_E + b_E by its Euclidean length: each row of D '
          'features has length 1, its direction right but the row scaled by its own factor',
          'project copies the normalization of CLIP\'s image features (the next lecture, page 55), features / '
          'features.norm(dim=-1), onto page 10\'s affine projection, which has nothing after it.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.normalize(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E, dim=-1)  '
          '# (B, N, D)\n'),
    fresh('02_project', 'einsum_without_batch_axis', 'shape',
          'project writes the einsum for one image, "nk,kd->nd": for patches of shape (B, N, 3*P*P) the '
          'subscripts do not match the three axes and every call fails (einsum raises RuntimeError)',
          'project transcribes page 12\'s C = X W_E + b_E for one image\'s 196 x 768 matrix X, although "the '
          'batch axis is omitted in the main lecture" (page 12) does not hold for the code.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("nk,kd->nd", patches, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'positions_relative_to_cls', 'shift term',
          'add_position subtracts the CLS row p_0 from every row of the table before adding it: token i gets '
          'c_i + p_i - p_0, the expected result minus p_0 broadcast to every row (the CLS row gets no position '
          'at all)',
          'add_position half-remembers relative position encodings and measures every position from the CLS '
          'slot, row 0 of page 17\'s table, instead of adding each row as it is stored.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = (pos_table - pos_table[0]).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for '
          'every image\n'),
    fresh('03_position', 'what_and_where_in_halves', 'term',
          'add_position keeps the first D // 2 features of every token as they are (content without position) '
          'and replaces the other D // 2 by the table\'s (position without content): no value holds c_i + p_i',
          'add_position reads page 16\'s "we add corresponding coordinates, not concatenate them; the vectors '
          'remain 192 features wide" as a limit on the width only, and joins half of WHAT with half of WHERE.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens[..., :tokens.shape[-1] // 2], table[..., tokens.shape[-1] // 2:]), dim=-1)  '
          '# (B, N, D)\n'),
    fresh('03_position', 'position_as_scale_and_shift', 'term',
          'add_position returns tokens * (1 + table) + table instead of tokens + table: every value has the '
          'extra term c_i * p_i (zero only where the content or the position coordinate is zero)',
          'add_position mixes page 16\'s e_i = c_i + p_i up with the scale-and-shift conditioning of FiLM and '
          'adaLN, x (1 + gamma) + beta, and uses the position table for both gamma and beta.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens * (1 + table), table)  # (B, N, D)\n'),
    fresh('03_position', 'cls_slot_holds_its_position_only', 'part term',
          'add_position writes the position row p_0 alone into row 0 of every image: the CLS content c_0 is left '
          'out of row 0; rows 1..N are right',
          'add_position takes page 17\'s "one position vector for the CLS slot" to mean that the CLS slot holds '
          'its position vector, and puts table row 0 there instead of adding it to the CLS.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((table[:, :1], torch.add(tokens, table)[:, 1:]), dim=1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_scaled_like_a_word_embedding', 'part term',
          'prepend_cls multiplies the CLS vector by sqrt(D) (13.86 for 192 features) before prepending it: row 0 '
          'of every image is the expected CLS row times 13.86; the patch rows are right',
          'prepend_cls treats the learned CLS like a word embedding of the text model (page 19: the same CLS idea '
          'as in text) and scales it by the square root of the width, as the original Transformer scales its '
          'token embeddings.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1) * width ** 0.5  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_in_the_middle', 'order part',
          'prepend_cls inserts CLS after the first N // 2 patch tokens instead of in front (at row 98 for 196 '
          'patches): rows 0..97 hold P1..P98 and row 98 holds CLS, so the first half of the sequence is in '
          'another order; rows 99..196 are right',
          'prepend_cls copies the middle class token of Vision Mamba (Vim), which sits in the middle of the patch '
          'sequence, instead of page 20\'s CLS at index 0.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens[:, :tokens.shape[1] // 2], start, tokens[:, tokens.shape[1] // 2:]), dim=1)  '
          '# (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_tokens_layer_normed', 'part term',
          'embed applies a LayerNorm without learned scale and shift to every patch\'s content vector before CLS '
          'and position: each patch row has its D features centred and scaled to unit variance before p_i is '
          'added; the CLS row is right',
          'embed adds the norm_layer that timm\'s PatchEmbed and Swin\'s patch_norm put after the patch '
          'projection, which this checkpoint does not have (page 23: prepend CLS, then add position).',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = torch.nn.functional.layer_norm(projection.project(patches, params.W_E, params.b_E), '
          'params.b_E.shape)  # (B, N, D)\n'),
    fresh('04_cls', 'patch_bias_left_out', 'part term',
          'embed projects the patches with a zero bias instead of b_E: every patch row is the expected one minus '
          'b_E; the CLS row is right',
          'embed builds the patch embedding like a convolution that a BatchNorm follows, with bias=False, and '
          'passes zeros for the bias, although page 10 adds b_E to every patch.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, torch.zeros_like(params.b_E))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'values_copied_from_query_line', 'inputs part',
          'qkv_heads takes v from the query slice: the returned v equals q (the first D columns of x W_qkv + '
          'b_qkv, split into heads) instead of the last D columns; q and k are right',
          'qkv_heads writes the q line, copies it for k and v, and changes the slice index on the k line only '
          '(page 26: three learned projections, the value its own).',
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n'),
    fresh('05_attention', 'einsum_output_indices_swapped', 'inputs',
          'attention_weights writes the score einsum\'s output as "bhji": score (i, j) is q_j . k_i / sqrt(d), '
          'so row i is the softmax over j of q_j . k_i, the weights of attention_weights(k, q) with the keys as '
          'queries and the queries as keys; each row still sums to 1',
          'attention_weights types the output subscripts of the einsum in the wrong order, though page 30\'s '
          'matrix has one query per row and one key per column.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhji", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'exp2_without_log2e', 'activation',
          'attention_weights exponentiates with base 2 instead of e: the weights are the row softmax of '
          'ln(2) * q.k / sqrt(d), a flatter distribution (temperature 1 / ln 2 = 1.44) than page 28\'s; each row '
          'still sums to 1',
          'attention_weights copies exp2 from a FlashAttention or Triton kernel, where the scores are first '
          'multiplied by log2(e) = 1.4427 so that 2 ** (s log2 e) = e ** s, and leaves that factor out.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = scores.exp2()  # (B, H, N, N)\n'),
    fresh('05_attention', 'output_laid_out_sequence_first', 'order',
          'multi_head_attention views the (B*N, D) projected rows as (N, B, D) and transposes them to (B, N, D): '
          'the rows are the right updates in another order (token n of image b gets flat row n*B + b instead '
          'of b*N + n), so for a batch of two or more images almost every row belongs to another token or image; '
          'for one image it is right',
          'multi_head_attention follows the sequence-first layout of nn.MultiheadAttention (batch_first=False) '
          'and turns the result back to batch-first with a transpose, though its rows were laid out image by '
          'image.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(count, batch, width).transpose(0, 1)  '
          '# (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'gain_and_shift_swapped', 'inputs',
          'layer_norm multiplies the normalized values by bias and adds weight: it returns n * bias + weight '
          'instead of n * weight + bias, the learned scale and shift in each other\'s place',
          'layer_norm writes the LayerNorm formula of pages 34-35 from memory with its two learned parameters '
          'exchanged, scaling by the shift and shifting by the scale.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps) * bias + weight  # (..., D)\n'),
    fresh('06_block', 'half_step_feed_forward', 'scale',
          'mlp returns half of the MLP output, 0.5 * (GELU(x W_1 + b_1) W_2 + b_2): every value is the expected '
          'one times 0.5',
          'mlp copies the half-step feed-forward of the Conformer (Macaron) block, x + FFN(x) / 2, into the MLP '
          'itself, although page 35 adds the whole MLP update.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return 0.5 * (hidden @ W_2 + b_2)  # (B, N, D)\n'),
    fresh('06_block', 'mlp_update_left_out', 'term',
          'block applies the attention update only: it returns U = E + MSA(LN1(E)) without the second update '
          'E_next = U + MLP(LN2(U)); the MLP and LN2 parameters are never used',
          'block stops after page 34\'s attention update and leaves out page 35\'s MLP update, which completes '
          'the block.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias)]\n'),
    fresh('06_block', 'heads_counted_from_64_features', 'term shape',
          'block gives attention width // 64 heads instead of num_heads: right for 192 features and 3 heads '
          '(192 // 64 = 3), wrong at other sizes (a 64-feature block meant for 4 heads runs one 64-feature head, '
          'a 128-feature one 2 heads), and for fewer than 64 features the count is 0 and the call fails with '
          'ZeroDivisionError',
          'block derives the number of heads from page 26\'s "each is 64 features wide" (and page 28\'s '
          'division by the square root of 64) instead of passing the num_heads argument on.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, rows.shape[-1] // 64)\n',
          hidden=True),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'annotated_transformer_norm', 'approximate',
          'read_cls writes the final LayerNorm inline with the unbiased standard deviation and eps outside the '
          'root: the normalized CLS values come out sqrt((D - 1) / D) times the expected ones (0.99739 for 192 '
          'features) before the scale and shift, so each value is off by 0.26 per cent of its scaled part (more, '
          'relative to the value, where norm_bias nearly cancels that part)',
          'read_cls copies the LayerNorm of The Annotated Transformer, a_2 * (x - mean) / (x.std(-1) + eps) + '
          'b_2, whose torch.std is the unbiased one, instead of the step-6 layer_norm that page 38\'s final '
          'LayerNorm is.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return (norm_weight * (summary - summary.mean(dim=-1, keepdim=True)) / (summary.std(dim=-1, '
          'keepdim=True) + 1e-6) + norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'svm_bias_sign', 'sign shift',
          'classify subtracts b_head instead of adding it: every score is h . w_c - b_c, the expected logits '
          'minus 2 b_head (one row broadcast to every image)',
          'classify writes page 54\'s s_c = h_CLS^T w_c + b_c in the convention w . x - b of a support vector '
          'machine\'s decision function.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return h @ W_head - b_head  # (B, 1000)\n'),
    fresh('07_head', 'matrix_vector_product_for_one_image', 'shape',
          'classify computes torch.addmv(b_head, W_head.T, h), a matrix-vector product for one column vector h: '
          'for a batch h of shape (B, D) every call fails (RuntimeError "vector + matrix @ vector expected")',
          'classify transcribes page 54\'s column-vector formula for a single h_CLS, although page 52\'s head '
          'reads one CLS row per image of the batch.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmv(b_head, W_head.T, h)  # (B, 1000)\n'),
    fresh('07_head', 'first_block_taken_for_the_embedding', 'term',
          'vit_forward skips the first block: the embedded rows go through blocks 2..L only (11 of ViT-Ti\'s '
          '12), so the logits are those of the model without its first block',
          'vit_forward takes params.blocks[0] for the embedding layer, as index 0 of a Hugging Face model\'s '
          'hidden_states is the embedding output, and starts the loop at 1, though page 36 runs all twelve '
          'blocks from block 1.',
          '    for layer in params.blocks:\n',
          '    for layer in params.blocks[1:]:\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'covered_copies_normalized_again', 'inputs',
          'quadrant_probabilities maps the four covered copies through (x - 0.5) / 0.5 before the model: every '
          'value becomes 2x - 1, so the covered quarter (0, mid-gray) is fed as -1 (black) and the rest of the '
          'image is stretched and shifted; all four probabilities are measured on the wrong images',
          'quadrant_probabilities applies page 8\'s checkpoint normalization once more to the covered copies '
          'before page 42\'s model call, although the image is already normalized and 0 is already mid-gray.',
          '        logits = model(batch)  # (4, 1000)\n',
          '        logits = model((batch - 0.5) / 0.5)  # (4, 1000)\n'),
    fresh('08_occlusion', 'patch_covers_accumulate', 'inputs',
          'occlusion_map rebinds image to each new cover: cover k still has the gray squares of all the patches '
          'before it, the last one is a fully gray image, and the base probability is then taken on that fully '
          'gray image too; every cell is wrong (the last one is exactly 0); the caller\'s image is not changed',
          'occlusion_map overwrites its image with each covered copy while looping over the patches, so the '
          'covers pile up, which page 42\'s fresh clone and page 44\'s "a fresh input is used for each of 196 '
          'tests" rule out.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [(image := cover(image, row * patch_size, col * patch_size, patch_size))\n'),
    fresh('08_occlusion', 'cover_stride_16_hardcoded', 'inputs',
          'occlusion_map puts cover (r, c) at pixel (16 r, 16 c), with the lecture\'s 16 instead of patch_size: '
          'right for 16-pixel patches; for other patch sizes the squares land in the wrong places (with 8-pixel '
          'patches cover (r, c) hides one corner of patch (2r, 2c)) and every cover past the image\'s edge hides '
          'nothing, so its cell is 0',
          'occlusion_map writes the step of page 44\'s grid of covers with the lecture\'s 16-pixel patch instead '
          'of the patch_size argument.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * 16, col * 16, patch_size)\n',
          hidden=True),
    fresh('08_occlusion', 'map_softmaxed_like_attention', 'activation',
          'occlusion_map passes the probability changes through a softmax over all the cells: the map is '
          'positive everywhere and sums to 1 (about 1 / 196 per cell) instead of holding the changes, negative '
          'where covering hurts',
          'occlusion_map treats the map like an attention map, whose weights over the sources sum to one (pages '
          '31, 33), though page 44 says it is a probability-change map, not attention.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return torch.softmax(probs - base, dim=0).view(side, side)  # row r, column c: patch P(side*r + c + '
          '1)\n'),
]
