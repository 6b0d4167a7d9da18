"""A sixth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py ... blind5.py was followed, and none of their mistakes is
repeated. Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or makes the call fail, does
not raise the promised error, or changes its input in place), with what is really wrong (`structure`)
and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND6 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'precedence_slip', 'term',
          'normalize writes x/255 - 0.5 / 0.5, so Python divides only the 0.5 by 0.5: the result is '
          'x/255 - 1, range [-1, 0] instead of [-1, 1] (black is right, white gives 0, every other value '
          'is (expected - 1) / 2)',
          'normalize types page 8\'s "minus 0.5, divided by 0.5" from left to right without parentheses.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled - 0.5 / 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'patch_pixels_transposed', 'order',
          'patchify swaps the two within-patch axes of the unfolded tiles: every patch is flattened '
          'column by column inside each channel (R columns, then G, then B) instead of row by row; the '
          'patches and the channel blocks are in the right order, the 256 values of each block transposed',
          'patchify believes the second unfold\'s window axis comes before the first one\'s and orders '
          'the last two axes (5, 4).',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 1, 5, 4)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'true_division_count', 'type',
          'count_tokens divides the image size by the patch size with /, so the count is a float '
          '(197.0, 196.0) instead of an int; the values are right',
          'count_tokens writes 224 / 16 as on page 7.',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size / patch_size\n'),
    fresh('01_flatten', 'raise_keyword_forgotten', 'raise',
          'count_tokens builds the ValueError but never raises it: a size that is not divisible by the '
          'patch size returns a count of the whole patches (225 and 16 give 197) instead of raising; '
          'divisible sizes are right',
          'count_tokens writes ValueError(...) on the guard\'s line and forgets the raise keyword.',
          '        raise ValueError(f"{image_size} is not divisible by {patch_size}")\n',
          '        ValueError(f"{image_size} is not divisible by {patch_size}")\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'output_axis_swapped_last', 'order',
          'conv_to_linear moves the output axis last by swapping it with the kernel\'s last axis, '
          'transpose(0, -1), which gives (P, 3, P, D): column d holds kernel d\'s 768 weights read in the '
          'order (pixel column, channel, pixel row) instead of channel-major row by row; the right '
          'weights with the rows of W_E in another order',
          'conv_to_linear swaps the first and last axes to put D last, as "PyTorch keeps the output axis '
          'first; the lecture keeps it last", then reshapes to (768, D).',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.transpose(0, -1).reshape(-1, conv_weight.shape[0])  # (3*P*P, D)\n'),
    fresh('02_project', 'weights_as_float64', 'type',
          'conv_to_linear returns W_E as float64 instead of the kernel\'s float32: the values are right, '
          'the dtype is not (and float32 patches times it fail in project)',
          'conv_to_linear calls .double() instead of .clone(), for precision when comparing with the '
          'convolution.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).double()  # (3*P*P, D)\n'),
    fresh('02_project', 'bias_in_einsum_product', 'term',
          'project puts b_E into the einsum as a third operand: the bias multiplies every feature of '
          'X W_E instead of being added, c_i = (x_i W_E) * b_E',
          'project folds the bias into one einsum, "bnk,kd,d->bnd", believing einsum adds a vector that '
          'shares only the output letter.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd,d->bnd", patches, W_E, b_E)  # (B, N, D)\n'),
    fresh('02_project', 'addmm_on_batch', 'shape',
          'project calls torch.addmm on the (B, N, 3*P*P) patches: addmm takes matrices only, so the call '
          'fails for a batch of images',
          'project writes C = X W_E + b_E as one fused addmm, as for page 12\'s 196 x 768 X, forgetting '
          'the batch axis.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.addmm(b_E, patches, W_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'batch_as_ndim', 'shape',
          'add_position takes the number of axes of the tokens (3) for the batch size: the table is '
          'expanded to 3 copies, which does not fit a batch of 2 (the call fails) and turns a batch of '
          'one into a (3, N, D) result; right only for a batch of 3',
          'add_position writes len(tokens.shape) for "how many images".',
          '    batch = tokens.shape[0]\n',
          '    batch = len(tokens.shape)\n'),
    fresh('03_position', 'table_unsqueezed_in_place', 'input',
          'add_position adds the batch axis to the caller\'s table in place with unsqueeze_: the result is '
          'right, but the pos_table passed in becomes (1, N, D) (and a second call with it fails)',
          'add_position uses unsqueeze_ to avoid a new tensor.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze_(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'returns_tuple', 'type',
          'add_position returns a one-element tuple holding the right (B, N, D) tensor, because of a '
          'trailing comma after the return expression',
          'add_position leaves a comma at the end of its return line.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table),  # (B, N, D)\n'),
    fresh('03_position', 'bert_embedding_norm', 'term',
          'add_position normalizes every sum c_i + p_i with a LayerNorm (no scale, no shift): each row '
          'has mean 0 and variance 1 instead of being the plain sum',
          'add_position copies the text encoder\'s embedding layer, which normalizes the sum of token and '
          'position embeddings.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.nn.functional.layer_norm(torch.add(tokens, table), tokens.shape[-1:])  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_at_index_one', 'order part',
          'prepend_cls inserts CLS after the first patch: row 0 is P1 and row 1 is CLS instead of the '
          'other way round; rows 2..N are right',
          'prepend_cls counts positions from one, as the lecture\'s P1..P196, and puts CLS at index 1.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens[:, :1], start, tokens[:, 1:]), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_bias_twice', 'part term',
          'embed adds b_E once more to the projected patches, which project has already added it to: '
          'every patch row is off by b_E, the CLS row is right',
          'embed believes project computes X W_E only and adds the bias itself.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.b_E) + params.b_E  # (B, N, D)\n'),
    fresh('04_cls', 'patches_per_side_as_size', 'shape',
          'embed passes the number of patches per side (224 // 16 = 14) to patchify as the patch size: '
          'the 14 x 14 patches have 588 values, which do not fit the 768 rows of W_E, so the call fails',
          'embed confuses page 7\'s "14 patches per side" with the patch side of 16 pixels.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images, images.shape[-1] // params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'pos_table_batched', 'shape',
          'embed gives add_position the table with a leading batch axis, (1, 1+N, D) instead of '
          '(1+N, D): add_position adds its own batch axis, the expand to (B, 1+N, D) no longer fits the '
          '4-axis table and the call fails',
          'embed shapes the table like page 52\'s pos, "1 by 197 by 192", so that it broadcasts over the '
          'batch.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table.unsqueeze(0))  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'key_pretransposed', 'shape order',
          'qkv_heads returns the keys transposed, (B, H, d, N) instead of (B, H, N, d): the right values '
          'in another order, which no longer fit the queries in attention (the call fails when N != d); '
          'q and v are right',
          'qkv_heads prepares k for q k^T by putting the features before the tokens.',
          '    k = mixed[:, :, 1].transpose(1, 2)  # (B, H, N, d)\n',
          '    k = mixed[:, :, 1].permute(0, 2, 3, 1)  # (B, H, N, d)\n'),
    fresh('05_attention', 'scale_by_token_count', 'term',
          'attention_weights divides the scores by the square root of the number of tokens, sqrt(N) '
          '(sqrt(197)), instead of sqrt(d) = 8: every row\'s softmax is flatter than it should be',
          'attention_weights reads d from the second-to-last axis of q, which holds the tokens.',
          '    head_dim = q.shape[-1]\n',
          '    head_dim = q.shape[-2]\n'),
    fresh('05_attention', 'normalized_over_heads', 'axis',
          'attention_weights divides each exponentiated score by the sum over the heads (dim 1) instead '
          'of over the keys (dim -1): for every pair (i, j) the H weights sum to one, the rows do not',
          'attention_weights writes dim=1 for dim=-1 in the softmax denominator.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=1, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'output_weight_transposed', 'inputs',
          'multi_head_attention projects the joined heads with W_o transposed instead of W_o: the square '
          '(D, D) matrix fits either way, so the update is computed with the wrong weights',
          'multi_head_attention transposes W_o because PyTorch stores Linear weights transposed (page 10).',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o.T).view(batch, count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'shift_before_scale', 'shift term',
          'layer_norm adds the bias before multiplying by the weight, (n + b) * w instead of n * w + b: '
          'every row is off by the same vector b * (w - 1)',
          'layer_norm applies "shift and scale" in that order.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return (centred / torch.sqrt(spread + eps) + bias) * weight  # (..., D)\n'),
    fresh('06_block', 'uncentred_variance', 'term inputs',
          'layer_norm takes the variance as the mean square of x instead of the centred rows: it divides '
          'by sqrt(var + mean^2 + eps), too much for every row whose mean is not 0',
          'layer_norm squares x instead of the centred values, taking E[x^2] for the variance.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'gelu_without_half', 'activation',
          'mlp leaves out the factor 0.5 of GELU: the hidden values are z (1 + erf(z / sqrt 2)) = 2 GELU(z), '
          'so the contraction\'s product is doubled while b_2 is not',
          'mlp writes z Phi(z) with Phi = 1 + erf(z / sqrt 2), forgetting that the CDF is half of it.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'residual_from_normalized', 'inputs',
          'block adds each update to the normalized rows instead of the incoming ones: U = LN1(E) + '
          'MSA(LN1(E)) and E_next = LN2(U) + MLP(LN2(U)), the residual path reading already normalized rows',
          'block normalizes the stream first and keeps using the normalized rows for the residual add.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = layer_norm(stream, weight, bias) + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_axis_kept', 'shape',
          'read_cls returns the normalized CLS rows as (B, 1, D) instead of (B, D): the values are right, '
          'the token axis of the slice is not removed',
          'read_cls slices x[:, :1] and forgets to squeeze the token axis away.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias)  # (B, D)\n'),
    fresh('07_head', 'norm_params_swapped', 'inputs',
          'read_cls passes the final LayerNorm\'s bias as its scale and its weight as its shift: the CLS '
          'rows are normalized right but scaled by norm_bias and shifted by norm_weight',
          'read_cls gives the two parameters to layer_norm in the wrong order.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_bias, norm_weight).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'dot_summed_over_batch', 'shape axis',
          'classify forms the products h_k w_kc by broadcasting and sums them over the batch axis instead '
          'of the feature axis: the result is (D, C), the images added up per feature, instead of (B, C)',
          'classify writes s_c = sum_k h_k w_kc with broadcasting and sums over dim 0.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return (h.unsqueeze(-1) * W_head).sum(dim=0) + b_head  # (B, 1000)\n'),
    fresh('07_head', 'final_norm_twice', 'inputs',
          'vit_forward applies the final LayerNorm to the rows and then hands them to read_cls, which '
          'applies it again: the head reads LN(LN(x))[:, 0] instead of LN(x)[:, 0]',
          'vit_forward follows page 52\'s norm(x)[:, 0] and also calls read_cls, not seeing that read_cls '
          'already normalizes.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(encoder.layer_norm(rows, params.norm_weight, params.norm_bias), '
          'params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'blank_canvas', 'constant',
          'cover starts from a tensor of zeros instead of a copy of the images: the result is the fill '
          'everywhere, with the default 0.0 an all-gray image, the photograph lost',
          'cover makes "a fresh copy" with zeros_like, believing it copies the images.',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = torch.zeros_like(images)  # the caller\'s images stay as they were\n'),
    fresh('08_occlusion', 'quadrant_drop', 'shift term',
          'quadrant_probabilities returns the change of the target probability (covered minus original) '
          'instead of the covered probability: every value is off by the same constant, the uncovered '
          'probability',
          'quadrant_probabilities reports the drops that page 43 prints under each quarter.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, target] - torch.softmax(model(image), dim=-1)[0, target]  # (4,)\n'),
    fresh('08_occlusion', 'map_transposed', 'order',
          'occlusion_map returns the map transposed: row r, column c holds the change for the patch in '
          'row c, column r; the right values in another order (the diagonal is right)',
          'occlusion_map transposes the grid to index it as (x, y), as for plotting.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(side, side).T  # row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'abs_change', 'magnitude',
          'occlusion_map returns the size of each change, |covered - original|, so the drops where '
          'covering hurts the target come out positive like the rises',
          'occlusion_map measures "how much the probability changes" as an absolute difference.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).abs().view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
