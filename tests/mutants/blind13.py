"""A thirteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes beyond their format and what was needed to avoid repeats. Besides those
sources, only tests/mutants/fresh.py up to its own list of mistakes (the CLAIMS vocabulary and the
`fresh` helper) and tests/mutants/blind.py ... blind12.py (read in full, to follow their format and to
leave out every mistake they already hold) were seen; nothing under grader/, no catalogue, no other
mutant set and no other test was opened. Four mistakes per step, spread over the step's functions,
each an edit of one line (or one expression) that changes the numbers of its function on typical
inputs (or makes the call fail, or returns the wrong shape or type), with what is really wrong
(`structure`) and the kinds of structure its error truly has (`claims`). The two marked hidden=True
are right at the lecture's sizes (224 x 224 images, 3 heads of 64 features) and only a test with
other sizes can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND13 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'clipped_to_unit_range', 'part activation',
          'normalize clips the mapped values to [0, 1]: every pixel darker than mid-gray (x < 127.5) comes '
          'out 0 instead of its negative value; the pixels from mid-gray to white are right',
          'normalize adds a "safety" clamp to the valid image range [0, 1], as image libraries want before '
          'display, after mapping to [-1, 1], not seeing that negative values are meant (page 42: 0 is '
          'mid-gray).',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled * 2.0 - 1.0).clamp(0.0, 1.0)  # [-1, 1]\n'),
    fresh('01_flatten', 'reshape_for_permute', 'order',
          'patchify reshapes the unfolded (B, C, rows, cols, P, P) tiles to (B, rows, cols, C, P, P) instead '
          'of permuting them: the values keep their channel-first order, so each row of the result holds '
          '3*P*P values of one channel taken from several neighbouring patches (the R values of P1, P2, P3 '
          'for the first row), the right values of every image in another order',
          'patchify uses reshape to get the (B, rows, cols, C, P, P) layout, as the sizes come out right, '
          'instead of moving the channel axis with permute.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.reshape(B, H // P, W // P, C, P, P)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'read_as_x_then_y', 'order',
          'patchify swaps both the grid axes and the pixel axes of every patch: the patches are numbered '
          'column by column and each channel block of a patch is read column by column, which is patchify '
          'of the transposed image; every image holds its right values in another order',
          'patchify reads the image as (x, y), width before height, everywhere: for the grid of patches and '
          'for the pixels inside each patch.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 3, 2, 1, 5, 4)  # (B, cols, rows, C, P, P)\n'),
    fresh('01_flatten', 'cls_and_sep_counted', 'term',
          'count_tokens adds two special tokens when cls is set: 198 instead of 197 for 224 and 16 (cls=False '
          'is right, and the divisibility check still raises)',
          'count_tokens counts the [CLS] and [SEP] tokens of the text encoder (page 19: "same CLS idea"), '
          'as if an image sequence were also closed by a separator.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side + (2 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_mirrored', 'order',
          'conv_to_linear mirrors every P x P kernel left to right before flattening: W_E holds the right '
          'weights, its rows reversed within each kernel row of each channel block, so it no longer matches '
          'patchify\'s rows (the weights of pixel column c meet pixel column P-1-c)',
          'conv_to_linear remembers that a true convolution flips its kernel and mirrors it horizontally, as '
          'an image is flipped, along one axis only.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(-1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'patches_layer_normed', 'inputs',
          'project normalizes every patch row (LayerNorm over its 3*P*P values, no scale or shift) before the '
          'product: each content vector is computed from the patch centred and divided by its own standard '
          'deviation instead of from the patch itself',
          'project copies the patch embedding of vit-pytorch, which puts a LayerNorm on the flattened patch '
          'before the Linear layer; this checkpoint has none.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", torch.nn.functional.layer_norm(patches, patches.shape[-1:]), '
          'W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'first_row_taken_for_cls', 'shape',
          'project leaves out the first patch row: the result is (B, N-1, D), the content of P2 .. PN, '
          'instead of (B, N, D)',
          'project believes row 0 is the CLS slot (page 17: 197 position vectors "including one for the CLS '
          'slot"), which has no pixels to project, and projects rows 1.. only.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches[:, 1:], W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'features_squashed', 'activation',
          'project passes the affine map through tanh: every feature is tanh(x W_E + b_E) instead of '
          'x W_E + b_E, squeezed into (-1, 1)',
          'project keeps the content features on the scale of the normalized pixels, [-1, 1], with a tanh, '
          'although page 10 says no activation follows the patch projection.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.tanh(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'positions_appended_as_tokens', 'shape',
          'add_position joins the table to the tokens along the token axis: the result is (B, 2N, D), the N '
          'content rows unchanged followed by the N position rows, instead of (B, N, D)',
          'add_position puts WHERE after WHAT in the sequence, as extra tokens, the way CLS is joined to the '
          'patches in step 4, instead of adding coordinate by coordinate.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=1)  # (B, N, D)\n'),
    fresh('03_position', 'sinusoids_added_too', 'term',
          'add_position adds a fixed sinusoidal code of the token index, sin(i / 10000^(j/D)) for token i and '
          'feature j, on top of the learned table: every row is c_i + p_i plus that extra term',
          'add_position believes the learned table is only a correction to the sinusoidal encoding of the '
          'original Transformer and adds both.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) + torch.sin(torch.arange(tokens.shape[1]).unsqueeze(1) / 10000 '
          '** (torch.arange(tokens.shape[2]) / tokens.shape[2]))  # (B, N, D)\n'),
    fresh('03_position', 'table_read_backwards', 'term',
          'add_position gives token i the table row N-1-i instead of row i: the first token gets the last '
          'row, the last token the first row (only the middle row of an odd N is right)',
          'add_position reads the table from its end, believing the rows are stored last position first.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.flip(0).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every '
          'image\n'),
    fresh('03_position', 'list_of_images', 'type',
          'add_position returns a Python list of B tensors (N, D), each image\'s right sums, instead of one '
          '(B, N, D) tensor',
          'add_position loops over the images, adding the table to each as page 16 does for one photograph, '
          'and forgets to stack the results.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return [torch.add(image, pos_table) for image in tokens]  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'prepended_by_reversal', 'order',
          'prepend_cls appends CLS and reverses the sequence to bring it to the front: row 0 is CLS, right, '
          'but the patch rows come in reverse order (PN first, P1 last)',
          'prepend_cls "prepends" by appending and then reversing the sequence, not seeing that the reversal '
          'also turns the patches round.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1).flip(1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_at_both_ends', 'shape',
          'prepend_cls puts the CLS vector both in front of and after the patch tokens: (B, 2+N, D) instead '
          'of (B, 1+N, D), with an extra CLS row at the end',
          'prepend_cls frames the patches like a BERT sentence, [CLS] tokens [SEP], using the CLS vector for '
          'the closing token too (page 19: "same CLS idea").',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens, start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_never_prepended', 'shape',
          'embed adds rows 1..N of the table to the projected patches and never prepends CLS: the result is '
          '(B, N, D), the right patch rows without the CLS row, instead of (B, 1+N, D)',
          'embed adds position to the content (page 16) with the patch rows of the table and forgets the '
          'prepend step of page 23.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(content, params.pos_table[1:])  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_padded_like_conv', 'shape',
          'embed pads every image with P/2 zero pixels on each side before patchify: a 224 x 224 image '
          'becomes 240 x 240 and gives 15 x 15 = 225 patches, which do not fit the 1+N rows of the position '
          'table, so the call fails',
          'embed gives the patch convolution "same" padding, as convolution layers usually have, since the '
          'checkpoint stores W_E as a Conv2d kernel.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(torch.nn.functional.pad(images, (params.patch_size // 2,) * 4), '
          'params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_bias_twice', 'shift term',
          'qkv_heads adds b_qkv again to the result of addmm, which already includes it: q, k and v are each '
          'off by their bias, the same row (per head) for every token',
          'qkv_heads writes x W + b with torch.addmm and adds the bias itself as well, not knowing that '
          'addmm\'s first argument is the added term.',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv)  # (B*N, 3D)\n',
          '    mixed = torch.addmm(b_qkv, x.reshape(-1, width), W_qkv) + b_qkv  # (B*N, 3D)\n'),
    fresh('05_attention', 'divided_by_eight', 'term',
          'attention_weights always divides the scores by 8: right for heads of 64 features (sqrt(64) = 8), '
          'but for any other head size the softmax is taken at the wrong temperature',
          'attention_weights writes page 28\'s "q_74 dot k_60 divided by 8" as the constant 8 instead of '
          'the square root of the head size.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / 8.0  # (B, H, N, N)\n',
          True),
    fresh('05_attention', 'key_not_transposed', 'shape',
          'attention_weights multiplies q by k without transposing k: (N, d) @ (N, d) does not fit when the '
          'number of tokens differs from the head size (197 and 64), so the call fails',
          'attention_weights writes the scores as q @ k, forgetting the transpose of k in q k^T.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (q @ k) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'single_head', 'term',
          'multi_head_attention runs one head over all D features instead of num_heads heads of D / H: '
          'each token gets one softmax over scores of D-wide queries and keys, scaled by sqrt(D), instead of '
          'H separate messages',
          'multi_head_attention treats the split into heads as a speed trick that gives the same result as one '
          'big head, and passes 1 for the number of heads.',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)\n',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, 1)  # each (B, H, N, d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_over_everything', 'axis',
          'layer_norm takes the variance over all the values of x (every image, token and feature) instead '
          'of over each row\'s features: every row is centred right but divided by one global standard '
          'deviation instead of its own (right only when x is a single row)',
          'layer_norm leaves the dim and keepdim arguments out of the variance\'s mean, so it reduces over '
          'every axis.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean()  # (..., 1): the biased variance\n'),
    fresh('06_block', 'no_contraction_bias', 'shift term',
          'mlp leaves out b_2 of the contraction: every row is off by -b_2, the same row for every token '
          '(the expansion and its bias b_1 are right)',
          'mlp writes the contraction as hidden W_2, as in the formula without biases.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return hidden @ W_2  # (B, N, D)\n'),
    fresh('06_block', 'cdf_sign_slip', 'activation',
          'mlp uses 0.5 z (1 - erf(z / sqrt 2)) = z (1 - Phi(z)) instead of z Phi(z): the hidden values are '
          'z - GELU(z), a different nonlinearity (large positive z give about 0, large negative z about z)',
          'mlp misremembers the normal CDF as (1 - erf(z / sqrt 2)) / 2, with a minus sign.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 - torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'returns_update_only', 'term',
          'block returns E_next - x, the sum of the two updates MSA(LN1(x)) + MLP(LN2(U)), instead of '
          'E_next: the incoming rows x are left out of the result',
          'block returns "the update", as multi_head_attention and mlp do, believing the caller adds the '
          'residual, and subtracts the input from the stream.',
          '    return stream\n',
          '    return stream - x\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'max_pooled', 'inputs',
          'read_cls takes the largest value of every feature over all the rows (CLS and every patch) and '
          'normalizes that instead of row 0, CLS',
          'read_cls uses the global max pooling of CNN classifiers as the image summary instead of the CLS '
          'row.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x.amax(dim=1, keepdim=True)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'class_vectors_normalized', 'inputs',
          'classify scales every class vector w_c (column c of W_head) to length 1 before the product: each '
          'logit is h . w_c / |w_c| + b_c instead of h . w_c + b_c',
          'classify compares h with unit-length class vectors, as CLIP compares normalized vectors (page 55), '
          'taking the head for a cosine classifier.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, torch.nn.functional.normalize(W_head, dim=0))  # (B, 1000)\n'),
    fresh('07_head', 'sigmoid_scores', 'activation',
          'classify returns sigmoid(logit) for every class instead of the logits: each score is squeezed into '
          '(0, 1) on its own, and the scores do not sum to one',
          'classify turns every class score into an independent probability with a sigmoid, as in '
          'multi-label classification, although the head returns logits.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.sigmoid(torch.addmm(b_head, h, W_head))  # (B, 1000)\n'),
    fresh('07_head', 'every_block_twice', 'term',
          'vit_forward applies every block twice in a row, each time with its own parameters: the encoder '
          'runs block 0, block 0, block 1, block 1, ... instead of each block once',
          'vit_forward reads page 36\'s "each block: attention update, then MLP update" as two calls of the '
          'block, one for each update.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(encoder.block(rows, layer, params.num_heads), layer, params.num_heads)  '
          '# (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'red_channel_only', 'part',
          'cover sets the square to `value` in the first (R) channel only: the G and B values of the square '
          'keep the original pixels; everything outside the square is right',
          'cover writes result[:, 0, ...], meaning "image 0" but putting the 0 on the channel axis.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, 0, top:top + size, left:left + size] = value\n'),
    fresh('08_occlusion', 'full_width_band', 'part',
          'cover leaves out the column slice: it fills rows top .. top+size-1 across the whole width instead '
          'of the square; the square itself is right, the rest of the band is covered too',
          'cover writes the row slice and forgets the column slice of the square.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size] = value\n'),
    fresh('08_occlusion', 'quarter_size_112_hardcoded', 'inputs',
          'quadrant_probabilities always covers 112 x 112 squares at 0 and 112: right for the lecture\'s '
          '224 x 224 image, but for a smaller image the top-left cover hides the whole image and the other '
          'three cover nothing (and a larger image is covered only in part)',
          'quadrant_probabilities writes the 112 x 112 quarters of pages 41-42 instead of computing half the '
          'image\'s height and width.',
          '    half_h, half_w = height // 2, width // 2\n',
          '    half_h, half_w = 112, 112\n',
          True),
    fresh('08_occlusion', 'map_rows_flipped', 'order',
          'occlusion_map returns the map upside down: row r holds the changes of the patches in grid row '
          'side-1-r; the right values in another order',
          'occlusion_map flips the rows so that the map plots with its origin at the bottom left, as '
          'matplotlib\'s origin="lower" expects.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(side, side).flip(0)  # row r, column c: patch P(side*r + c + 1)\n'),
]
