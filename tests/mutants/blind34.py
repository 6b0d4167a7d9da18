"""A thirty-fourth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the lecture
alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes: a mistake an earlier set holds
may well appear again here, as a class's submissions repeat each other's. Emphasis: slips of students who learned
deep learning from NumPy or another framework (row versus column vectors, matrix orientation, axis conventions,
in-place and view semantics, integer division, default dtypes), and idioms half remembered from PyTorch
tutorials or timm.

Files opened:
- tests/mutants/independent/01_flatten.py ... 08_occlusion.py (all eight, whole);
- exercises/01_flatten.py ... 08_occlusion.py (all eight, whole);
- /work/shared/lecture/vision1-transcript.md (whole);
- tests/mutants/fresh.py, lines 1-70 only (up to and including the line `FRESH = [`);
- pyproject.toml, its [tool.ruff], [tool.ruff.lint] and [tool.ruff.lint.per-file-ignores] sections only;
- directory listings of tests/mutants/independent/ and exercises/.

How the set was checked (throwaway scripts in /tmp/blind34work/, outside the repository): a stand-in `grader`
module (BlockParams and ViTParams dataclasses, `earlier_step` loading the unedited independent step from its
text) let each step be loaded from its source with the edit applied. For every entry the script checked that
`old` occurs exactly once, ran every function of the step on random inputs at the lecture's sizes (224 x 224
images, 16-pixel patches, D=192, 3 heads, 1000 classes, 2 blocks, batch 2) and at a small size (32 x 32, 8-pixel
patches, D=24, 2 heads, 10 classes, 2 blocks, batch 2), and compared results (values, shape, dtype, Python type,
raising) and inputs with the unedited step's; the occlusion functions ran with a stand-in classifier (4 x 4
average pooling, then a random linear map, logits of std about 3), with the predicted class as target and with
the runner-up class. Every edit changes its function's results at both sizes; only the entries claiming 'input'
change an input; no two entries give the same results; the numbers quoted in `structure` and the claims
('type', 'order', 'shift', 'part', 'axis', 'input', ...) were measured by the same scripts (e.g. a per-row
constant for 'shift', the exact permutation for 'order', which rows differ for 'part'). None is hidden; three are
shape mistakes (02 conv_to_linear_linear_layout, 03 position_concatenated, 07 classify_f_linear).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND34 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'normalize_float64', 'type',
          'The values are right (to float32 rounding) but the result is float64 instead of float32: .double() '
          'where .float() belongs.',
          'A NumPy user converts the pixels the way np.asarray(x, dtype=float) would, to double precision, '
          'and divides by 255; the stub asks for float32 (page 8 normalization is otherwise right).',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.double() / 255.0  # [0, 1]\n'),
    fresh('01_flatten', 'patchify_pixel_major', 'order',
          'Each patch row holds the right 3*P*P values in pixel-major order (R, G, B of pixel (0,0), then of '
          'pixel (0,1), ...) instead of channel-major (all R, then all G, then all B); patch order is right.',
          'Used to NumPy/PIL images laid out H x W x C, the student moves the channel axis last before '
          'flattening, so each patch is read pixel by pixel with its three colours together, not channel by '
          'channel as page 9 shows.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 5, 1)  # (B, rows, cols, P, P, C)\n'),
    fresh('01_flatten', 'patchify_unfold_width_first', 'order',
          'Unfolding the width axis before the height axis leaves each patch transposed: within every channel '
          'the P x P block is read column by column, so element (i, j) of a channel lands where (j, i) belongs. '
          'Patch numbering and channel order are right.',
          'The student half remembers the unfold idiom from a PyTorch forum answer and unfolds x (dim 3) first, '
          'then y (dim 2), thinking in (x, y) image coordinates; the new window axes are appended in that order.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(3, P, P).unfold(2, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'count_tokens_true_division', 'type',
          'True division makes per_side a float, so the count comes back as 197.0 (a float), not the int 197; '
          'the value is right.',
          'Coming from NumPy code where shapes are divided with / and cast later, the student writes '
          'image_size / patch_size for the patches per side (page 7: 224 / 16 = 14) and never casts back.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size / patch_size\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_to_linear_linear_layout', 'shape',
          'W_E is returned as (D, 3*P*P), the flattened kernel without the transpose: (192, 768) instead of '
          '(768, 192), so patches @ W_E no longer fits.',
          'The student knows nn.Linear keeps its weight as (out, in) (page 10 notes) and assumes that is the '
          'layout wanted, so flattens the kernel and stops there.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.clone()  # (D, 3*P*P), the nn.Linear layout\n'),
    fresh('02_project', 'conv_to_linear_channels_last', 'order',
          'The rows of W_E are the right weights in pixel-major order (kernel read as P, P, 3) instead of '
          'channel-major, so W_E no longer lines up with patchify\'s rows: each column holds kernel d\'s values '
          'permuted.',
          'A student who learned with TensorFlow/Keras (channels-last kernels, HWIO) moves the channel axis '
          'last before flattening, out of habit, although page 9 says flattened Conv2d kernels are '
          'channel-major.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, P*P*3), channels last\n'),
    fresh('02_project', 'conv_to_linear_reshape_for_transpose', 'order',
          'reshape instead of transpose: the result has the right shape (3*P*P, D) and the right values, but '
          'scrambled, read row-major out of the (D, 3*P*P) kernel (entry [r, c] is flat.flatten()[r*D + c]), '
          'so no column is kernel d.',
          'The classic NumPy slip: to turn (D, 768) into (768, D) the student reshapes, as if reshape and '
          'transpose were the same thing when the shapes match.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.reshape(flat.shape[1], flat.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'project_without_bias', 'shift term',
          'The bias b_E is left out: every row is X W_E, the expected C minus the same row b_E.',
          'The student copies timm\'s idea that the patch embedding is "just a conv" and writes the matrix '
          'product alone, forgetting that C = X W_E + b_E (page 12) adds the bias to every row.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'position_tokens_scaled_sqrt_d', 'term',
          'The content term is multiplied by sqrt(D) before the table is added: e = sqrt(D) c + p instead of '
          'c + p (sqrt(192) = 13.9, sqrt(24) = 4.9); the position term is right.',
          'Half remembering the PyTorch nn.Transformer tutorial, where embeddings are multiplied by '
          'math.sqrt(d_model) before the positional encoding is added, the student does the same here; '
          'page 16 adds c_i and p_i as they are.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens * tokens.shape[-1] ** 0.5, table)  # (B, N, D)\n'),
    fresh('03_position', 'position_added_in_place', 'input',
          'The sum is right, but it is written into the caller\'s tokens (add_), which come back changed.',
          'The student writes the in-place form, as `x += self.pos_embed` appears in many tutorials, to save '
          'memory, not seeing that tokens belongs to the caller.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens.add_(table)  # (B, N, D)\n'),
    fresh('03_position', 'position_table_repeat_interleave', 'term',
          'The table is repeated row by row (np.repeat) rather than tiled: with batch 2, image 0 gets '
          'p_0, p_0, p_1, p_1, ... and image 1 the second half of that list, so the position term is '
          'replaced by other rows of the table (only token 0 of image 0 and the last token of image 1 get '
          'their own rows: 2 of 394 rows at the lecture size); the content term is right.',
          'A NumPy user reaches for np.repeat to copy the table once per image, writes torch\'s '
          'repeat_interleave and reshapes, when tiling (np.tile, torch.repeat or expand) was meant.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.repeat_interleave(batch, dim=0).view(batch, *pos_table.shape)  # (B, N, D)\n'),
    fresh('03_position', 'position_concatenated', 'shape',
          'The table is concatenated to the tokens along the features instead of added: (B, N, 2D), e.g. '
          '(2, 197, 384), instead of (B, N, D).',
          'The student has seen positional features concatenated in other code (e.g. coordinates appended '
          'as extra channels in CNN tutorials) and does the same, although page 16 says WHAT and WHERE are '
          'added, not concatenated.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, 2D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_appended', 'order',
          'CLS is put after the patch tokens: row N holds CLS and rows 0..N-1 hold P1..PN, every row shifted '
          'one place from where it belongs.',
          'Thinking of np.append / list.append, the student concatenates the patch tokens first and the '
          'CLS copy after them, instead of in front (page 20: CLS at index 0).',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, N+1, D)\n'),
    fresh('04_cls', 'cls_zeros_like_timm_init', 'part term',
          'Row 0 of every image is zeros instead of the learned CLS vector; rows 1..N are right. In embed, '
          'row 0 becomes p_0 alone.',
          'The student half remembers timm\'s `self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))` '
          'and builds the zero initialization instead of using the learned cls_token passed in (page 20).',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = torch.zeros(batch, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'embed_normalizes_again', 'inputs part',
          'embed normalizes the already normalized images a second time (x -> 2x/255 - 1), so the patches '
          'fed to the projection are squeezed near -1: every content row is wrong, CLS before position is '
          'not.',
          'The student remembers that the pixels must be normalized before projection (page 8) and calls '
          'normalize inside embed, missing that embed receives normalized images.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(flatten.normalize(images), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'embed_cls_without_position', 'part term',
          'Position is added to the patch tokens only (rows 1..N of the table) and CLS is prepended after: '
          'row 0 of every image is the bare CLS vector, missing p_0; rows 1..N are right.',
          'The student copies timm\'s `no_embed_class` path (add pos_embed to the patches, then prepend '
          'the class token), although page 23 prepends CLS first and gives it a position vector too.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return prepend_cls(position.add_position(content, params.pos_table[1:]), params.cls_token)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_query_reshaped_not_transposed', 'order part',
          'q is reshaped from (B, N, H, d) to (B, H, N, d) instead of transposed: its rows are the right query '
          'rows in another order (row n of head h is the query of token (h*N + n) // H, head (h*N + n) % H); '
          'k and v are right.',
          'The NumPy habit of calling reshape to swap axes: the student writes the query line with reshape '
          'to the target shape, which gives the right shape and silently mixes tokens and heads.',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[:, :, 0].reshape(batch, num_heads, count, head_dim)  # (B, H, N, d)\n'),
    fresh('05_attention', 'attention_normalized_over_receivers', 'axis',
          'The exponentials (shifted by each row\'s maximum) are divided by column sums instead of row sums: '
          'each column (source) sums to 1 and the rows do not (row sums about 0.25 to 2.25 at the lecture size); '
          'not even a clean column softmax, since each row was shifted by its own maximum.',
          'Used to column-vector notation, where the keys index the rows of K^T Q, the student normalizes along '
          'dim=-2 thinking it is the source axis; page 31 normalizes each receiver\'s row.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-2, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'attention_scores_times_sqrt_d', 'term',
          'The scores are multiplied by sqrt(d) instead of divided by it (a factor d too large: 64 for d=64, '
          '12 for d=12) before the softmax, so the weights are far too peaked; rows still sum to 1.',
          'Half remembering timm\'s `self.scale = head_dim ** -0.5` and `attn = q @ k.T * self.scale`, the '
          'student writes the exponent as 0.5 (page 28 divides by sqrt(64) = 8).',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) * head_dim ** 0.5  # (B, H, N, N)\n'),
    fresh('05_attention', 'heads_joined_by_reshape', 'order',
          'The heads (B, H, N, d) are reshaped straight to (B, N, H*d) without moving the head axis: joined '
          'row n holds the d-wide messages number n*H .. n*H+H-1 of the head-major list (message m is head '
          'm // N, token m % N), mostly H consecutive tokens of one head, instead of token n\'s H messages; '
          'the output projection is then applied to these misplaced messages.',
          'reshape used as if it moved axes (the NumPy slip): the student joins the heads with one reshape '
          'to the final shape, as if it were the concatenation of page 32.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'layer_norm_unbiased_variance', 'term',
          'torch.var divides by D - 1 by default, so the variance is the unbiased one: the normalized part is '
          'sqrt((D-1)/D) times the right one (0.9974 for D=192, 0.979 for D=24) before weight and bias, '
          'so with a non-zero bias the result is not one factor times the expected (values near zero are far '
          'off relatively; median relative error 0.26% at D=192, 2.1% at D=24).',
          'A NumPy user expects var to be the biased one (np.var has ddof=0) and calls x.var, whose PyTorch '
          'default is unbiased (divide by D - 1); the stub asks for the biased variance.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.var(dim=-1, keepdim=True)  # (..., 1), as np.var would give\n'),
    fresh('06_block', 'mlp_tanh_gelu', 'activation',
          'The tanh approximation of GELU replaces the exact erf GELU: the activations differ by up to '
          '4.7e-4 (near z = 2.7), and the MLP output by up to about 5e-4 (median relative error 2e-4, but '
          'large relatively where an output is near zero).',
          'The student copies the GELU from a GPT-2 / BERT implementation (`gelu_new` with tanh and '
          '0.044715), which they remember as "the" GELU; page 35 and the stub want the exact one.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (hidden + 0.044715 * hidden**3)))\n'),
    fresh('06_block', 'block_residual_in_place', 'input',
          'The returned rows are right, but `stream += ...` adds both updates into the caller\'s x (stream '
          'starts as the same tensor and stays it), so x comes back overwritten with the block\'s output.',
          'The student writes the residual add in place, the `x += ...` style of many PyTorch snippets, not '
          'seeing that `stream = x` made no copy: Python names share the tensor, as NumPy arrays do.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream += update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'block_post_layer_norm', 'inputs term',
          'Post-LN instead of pre-LN: each sublayer reads the raw rows, not LN(rows), and the LayerNorm is '
          'applied to the residual sum, so the block returns LN2(U + MLP(U)) with U = LN1(x + MSA(x)).',
          'The student follows PyTorch\'s nn.TransformerEncoderLayer, whose default (norm_first=False) is the '
          'original post-LN order, instead of U = E + MSA(LN(E)) of page 34.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = layer_norm(stream + update(stream), weight, bias)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'read_cls_one_based', 'inputs',
          'The final LayerNorm is applied to token 1 (the first patch, P1) instead of token 0 (CLS); the '
          'result has the right shape, but it is the wrong row.',
          'Counting from one as in MATLAB or R, the student takes "the first token" as index 1, '
          'although page 52 reads norm(x)[:, 0].',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, 1:2]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'classify_log_softmax', 'activation shift',
          'log_softmax is applied to the logits: each image\'s scores are shifted by its own constant '
          '(minus the log-sum-exp of its row), so the result is log-probabilities, not logits.',
          'Copied from the PyTorch MNIST example, whose forward ends in F.log_softmax(x, dim=1) for NLL '
          'loss; page 52 returns logits with no softmax.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).log_softmax(dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'classify_f_linear', 'shape',
          'F.linear computes h W^T + b, expecting a (C, D) weight; with W_head of shape (D, C) the product '
          'does not fit and the call fails.',
          'The student uses the PyTorch functional form they know, F.linear(h, W, b), not noticing that it '
          'assumes nn.Linear\'s (out, in) layout while here W_head is (D, C), row-vector style (page 54 note).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.nn.functional.linear(h, W_head, b_head)  # (B, 1000)\n'),
    fresh('07_head', 'vit_forward_blocks_read_embedding', 'inputs',
          'Every block reads the embedding x instead of the previous block\'s output, so only the last block '
          'counts: the logits are those of head(norm(block_L(x))) (with 2 blocks, block 2 applied to x).',
          'Page 52 writes the loop as `x = block(x)`; the student keeps `block(x, ...)` from that line while '
          'assigning to the loop variable rows, so the blocks are not chained.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_detach_without_clone', 'input',
          'detach() returns a tensor sharing the images\' storage, so the square is written into the caller\'s '
          'images too; the returned tensor is right. Through it, quadrant_probabilities piles the four covers '
          'onto one image (all four probabilities become that of the fully gray image) and occlusion_map\'s '
          'covers accumulate the same way.',
          'The student believes detach() makes a new tensor, as copy() does in NumPy, and drops the clone() '
          'of page 42; in PyTorch it is a view of the same memory.',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = images.detach()  # a new tensor, cut from the graph\n'),
    fresh('08_occlusion', 'quadrant_softmax_over_covers', 'axis',
          'The softmax runs over the batch of four covered images (dim 0) instead of over the classes: '
          'the four numbers always sum to 1, each is the share of the target\'s exp-logit among the four covers.',
          'Thinking of a NumPy array with one column per class, the student normalizes with axis 0 (down '
          'the rows), not along the classes of each image as page 39 does.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=0)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'quadrant_column_major', 'order',
          'The covers are made column by column: the result is TL, BL, TR, BR instead of TL, TR, BL, BR '
          '(the middle two entries are swapped).',
          'Used to column-major (Fortran/MATLAB) order, the student lets the row offset vary fastest, '
          'putting the `top` loop inside the `left` loop.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h) for left in (0, half_w) for top in (0, half_h)])\n'),
    fresh('08_occlusion', 'occlusion_map_xy_swapped', 'order',
          'Cover (row, col) is drawn at top = col*P, left = row*P, so the map is the transpose of the right '
          'one: cell (r, c) holds the change for patch (c, r).',
          'Used to (x, y) image coordinates from PIL or OpenCV, the student passes the column offset first, '
          'as x, where cover expects top (a row) first.',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, col * patch_size, row * patch_size, patch_size)\n'),
]
