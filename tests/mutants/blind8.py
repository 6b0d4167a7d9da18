"""An eighth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py ... blind7.py was followed, and none of their mistakes is
repeated. Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or makes the call fail, does
not raise the promised error, or changes its input in place), with what is really wrong (`structure`)
and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND8 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'divisor_127_5', 'scale shift',
          'normalize divides by 127.5 and still doubles and subtracts 1: 4 x / 255 - 1, which is twice the '
          'expected value plus 1, range [-1, 3]',
          'normalize mixes the two forms of the scaling, x / 127.5 - 1 and 2 (x / 255) - 1, keeping the '
          'divisor of the first and the doubling of the second.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float() / 127.5  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'view_after_permute', 'shape',
          'patchify calls view on the permuted tiles, which are not contiguous: view cannot merge their '
          'axes and the call fails',
          'patchify writes .view(...) instead of .reshape(...), as in older PyTorch code.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.view(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'channel_between_pixel_axes', 'order',
          'patchify puts the channel axis between the pixel row and the pixel column of each patch: each '
          'patch row holds the right 3*P*P values in the order (pixel row, channel, pixel column) instead of '
          'channel-major; the patches are in the right order',
          'patchify moves C "next to the pixels" with permute(0, 2, 3, 4, 1, 5), one place too far.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 1, 5)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'guard_inverted', 'shape raise',
          'count_tokens raises its ValueError when the image size IS divisible by the patch size: every '
          'valid call (224 and 16) fails, and a size that does not divide (225 and 16) returns a count '
          '(197) instead of raising',
          'count_tokens writes the guard as `if image_size % patch_size == 0:`, the test for divisibility, '
          'on the raising branch.',
          '    if image_size % patch_size:\n',
          '    if image_size % patch_size == 0:\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_fortran_order', 'order',
          'conv_to_linear flattens each kernel with its axes reversed, (pixel column, pixel row, channel) '
          'instead of (channel, pixel row, pixel column): W_E holds the right weights with its rows in '
          'another order, so it no longer matches patchify\'s rows',
          'conv_to_linear reverses the kernel axes before flattening, as for a column-major (NumPy order="F" '
          'or MATLAB) layout.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 3, 2, 1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'weights_half_precision', 'type approximate',
          'conv_to_linear returns W_E in float16: the right layout, but the dtype is not the kernel\'s '
          'float32 and every weight is rounded to half precision (about 3 significant digits)',
          'conv_to_linear calls .half() instead of .clone() to save memory, as in mixed-precision code.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).half()  # (3*P*P, D)\n'),
    fresh('02_project', 'product_averaged', 'scale shift',
          'project averages the products x_k w_kd over the 3*P*P inputs instead of summing them: '
          'X W_E / 768 + b_E, which is the expected result divided by 3*P*P plus the same row '
          'b_E (1 - 1/768) for every patch',
          'project writes the sum of the products with broadcasting and reduces it with mean instead of sum.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (patches.unsqueeze(-1) * W_E).mean(dim=2) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'patches_centred', 'inputs',
          'project subtracts each patch\'s own mean from its 3*P*P values before the product: every row '
          'is projected from the centred patch, not from the patch itself',
          'project normalizes each patch first, as the normalized-pixel patches of masked autoencoders.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches - patches.mean(dim=-1, keepdim=True), W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_zero_init', 'term',
          'add_position adds a table of zeros instead of the learned table: the result is the tokens '
          'unchanged, the position term is left out',
          'add_position copies the initialization of the position parameter, torch.zeros_like, from '
          'model code, instead of using the learned table it is given.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.zeros_like(pos_table).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'tokens_doubled', 'inputs term',
          'add_position adds the tokens to themselves: 2 c_i instead of c_i + p_i, the table is never used',
          'add_position types tokens for both operands of torch.add.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, tokens)  # (B, N, D)\n'),
    fresh('03_position', 'table_reshaped_to_tokens', 'shape',
          'add_position reshapes the (N, D) table to the shape of the tokens, (B, N, D): it has N*D '
          'values, so the call fails for a batch of more than one image (right for one image)',
          'add_position writes pos_table.reshape(tokens.shape) to "give it the batch axis".',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.reshape(tokens.shape)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'first_image_tokens', 'part inputs',
          'add_position adds the table to the first image\'s tokens only and broadcasts that sum to the '
          'batch: every image gets c_i of image 0 plus p_i; image 0 is right, the others are not',
          'add_position drops the batch axis with tokens[0], following the lecture\'s shapes for one '
          'photograph (197 x 192), and lets broadcasting restore it.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens[0], table)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_reshaped_to_batch', 'shape',
          'prepend_cls reshapes the D-wide CLS vector to (B, 1, D) instead of copying it: it has only D '
          'values, so the call fails for a batch of more than one image (right for one image)',
          'prepend_cls writes cls_token.reshape(batch, 1, width), taking reshape for a copy over the batch.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(batch, 1, width)  # (B, 1, D)\n'),
    fresh('04_cls', 'last_patch_dropped', 'shape',
          'prepend_cls drops the last patch token to keep the sequence N rows long: the result is (B, N, D), '
          'CLS then P1 .. P(N-1), instead of (B, 1+N, D)',
          'prepend_cls believes the sequence length must stay 196, so it cuts one patch to make room for CLS.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, tokens[:, :-1]), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_transposed', 'part inputs',
          'embed transposes the images\' height and width before patchify: every patch is the transposed '
          'crop of another place (patches numbered column by column), so every patch row is projected from '
          'the wrong pixels; the CLS row is right',
          'embed swaps the two image axes, taking (width, height) for the order of images as PIL sizes are.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.transpose(-2, -1), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'position_on_content', 'shape',
          'embed adds the position table to the N patch rows (content) instead of the 1+N rows of the '
          'sequence: the 1+N table rows do not fit the N tokens, so the call fails',
          'embed passes the wrong variable, content instead of sequence, to add_position.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(content, params.pos_table)  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'query_not_transposed', 'shape order',
          'qkv_heads returns the queries as (B, N, H, d) instead of (B, H, N, d): the right values in '
          'another shape and order (k and v are right); the attention product then fails',
          'qkv_heads forgets the transpose(1, 2) on the query line.',
          '    q = mixed[:, :, 0].transpose(1, 2)  # (B, H, N, d)\n',
          '    q = mixed[:, :, 0]  # (B, H, N, d)\n'),
    fresh('05_attention', 'softmax_sum_all', 'axis',
          'attention_weights divides the exponentials by their sum over all images, heads and rows instead '
          'of each row\'s sum: the whole tensor sums to one, the rows do not (each row is off by its own '
          'factor)',
          'attention_weights calls weights.sum() without dim and keepdim.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum()  # each row sums to 1\n'),
    fresh('05_attention', 'keys_weighted', 'inputs',
          'multi_head_attention takes the weighted sums of the keys instead of the values: every head\'s '
          'message is built from k, then joined and projected',
          'multi_head_attention confuses key and value, both "of the other tokens", in the message einsum.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, k)  # (B, H, N, d): weighted sums of values\n'),
    fresh('05_attention', 'joined_feature_major', 'order',
          'multi_head_attention joins the heads feature by feature, (N, d, H), instead of head by head, '
          '(N, H, d): each joined row holds the right H*d messages interleaved, feature j of every head '
          'side by side, before the output projection',
          'multi_head_attention writes permute(0, 2, 3, 1) for permute(0, 2, 1, 3), moving the head axis last.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.permute(0, 2, 3, 1).reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'centred_in_place', 'input',
          'layer_norm centres the rows with sub_, in place: the result is right, but the caller\'s x is '
          'left centred (in block, the residual stream itself loses its row means)',
          'layer_norm subtracts the mean in place to save memory.',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x.sub_(x.mean(dim=-1, keepdim=True))  # (..., D)\n'),
    fresh('06_block', 'batch_norm_mean', 'axis',
          'layer_norm subtracts the mean over the batch (dim 0) instead of over each row\'s features: the '
          'rows are centred across images, as in BatchNorm (the spread is then taken over the features of '
          'these wrongly centred rows)',
          'layer_norm writes dim=0, the axis BatchNorm averages over in the CNN code the student knows.',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - x.mean(dim=0, keepdim=True)  # (..., D)\n'),
    fresh('06_block', 'gelu_on_output', 'activation',
          'mlp applies GELU after the contraction too: the result is GELU(GELU(x W_1 + b_1) W_2 + b_2) '
          'instead of GELU(x W_1 + b_1) W_2 + b_2',
          'mlp puts an activation after every linear layer, as in a classifier MLP.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return torch.nn.functional.gelu(hidden @ W_2 + b_2)  # (B, N, D)\n'),
    fresh('06_block', 'norm_after_sublayer', 'inputs term',
          'block normalizes each sublayer\'s output instead of its input: stream + LN(F(stream)) instead of '
          'stream + F(LN(stream)); attention and the MLP read un-normalized rows and their updates are '
          'normalized',
          'block nests the calls the wrong way round, layer_norm(update(stream)) for update(layer_norm(stream)).',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream + layer_norm(update(stream), weight, bias)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_unscaled', 'term',
          'read_cls normalizes the CLS rows with F.layer_norm without the final norm\'s weight and bias: '
          'each row has mean 0 and variance 1 but is not scaled by norm_weight nor shifted by norm_bias '
          '(and eps is 1e-5)',
          'read_cls calls torch.nn.functional.layer_norm with the normalized shape only, forgetting to pass '
          'the learned weight and bias.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return torch.nn.functional.layer_norm(summary, summary.shape[-1:]).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'tanh_pre_logits', 'activation',
          'classify passes the CLS features through tanh before the head: tanh(h) W_head + b_head instead of '
          'h W_head + b_head',
          'classify adds the tanh "pre-logits" layer of the original ViT paper\'s fine-tuning code, which this '
          'checkpoint does not have.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h.tanh(), W_head)  # (B, 1000)\n'),
    fresh('07_head', 'twelve_heads', 'term',
          'vit_forward runs every block with 12 heads instead of params.num_heads (3 for the lecture\'s '
          'model): the 192 features are split into 12 heads of 16, so every attention update is wrong',
          'vit_forward writes the 12 of "ENCODER x 12" (and of ViT-Base\'s heads) as the number of heads.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, 12)  # (B, 197, D)\n'),
    fresh('07_head', 'norm_weight_as_bias', 'inputs',
          'vit_forward gives the final LayerNorm its weight as the bias too: the normalized CLS rows are '
          'shifted by norm_weight instead of norm_bias',
          'vit_forward copies params.norm_weight into the bias argument and forgets to change it.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows, params.norm_weight, params.norm_weight)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'cover_centred', 'part',
          'cover takes (top, left) for the centre of the square: it covers rows top - size/2 .. top + size/2 '
          'and the same columns, the wrong square (nothing at all when the centre is closer than size/2 '
          'to the top or left edge, as at (0, 0))',
          'cover reads the square\'s position as its centre, as for a sliding window centred on a pixel.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top - size // 2:top + size // 2, left - size // 2:left + size // 2] = value\n'),
    fresh('08_occlusion', 'size_from_leading_axes', 'constant inputs',
          'quadrant_probabilities reads the height and width from image.shape[:2], which are (1, 3) for a '
          '(1, 3, H, W) image: the quarters are 0 pixels high, nothing is covered, and the four values are '
          'all the uncovered image\'s probability',
          'quadrant_probabilities takes the first two sizes as (H, W), as for an (H, W, C) NumPy image.',
          '    height, width = image.shape[-2:]\n',
          '    height, width = image.shape[:2]\n'),
    fresh('08_occlusion', 'top_class_probability', 'inputs',
          'quadrant_probabilities returns the largest probability of each covered image, whatever its '
          'class, instead of the target\'s: right only where the target stays the top class',
          'quadrant_probabilities reports "the model\'s confidence", the top-1 probability, as on a '
          'prediction page.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1).amax(dim=-1)  # (4,)\n'),
    fresh('08_occlusion', 'gray_as_half', 'fill',
          'occlusion_map covers each patch with 0.5 instead of 0: in normalized units 0.5 is a light gray, '
          'not the mid-gray of 0, so every cell is the change for the wrong cover',
          'occlusion_map passes value=0.5 for "mid-gray", thinking in [0, 1] pixel units instead of the '
          'normalized [-1, 1].',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size)\n',
          '    covers = [cover(image, row * patch_size, col * patch_size, patch_size, 0.5)\n'),
]
