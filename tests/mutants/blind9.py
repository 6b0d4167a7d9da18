"""A ninth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/blind.py ... blind8.py (their use of
the `fresh` helper and its claims) was followed, and none of their mistakes is repeated. Four
mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function on typical inputs (or makes the call fail), with what is
really wrong (`structure`) and the kinds of structure its error truly has (`claims`).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND9 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'imagenet_constants', 'scale shift',
          'normalize computes (x / 255 - 0.485) / 0.229 instead of (x / 255 - 0.5) / 0.5: the expected '
          'values times 0.5 / 0.229 (about 2.18) plus 0.015 / 0.229 (about 0.066), range about [-2.1, 2.2]',
          'normalize uses the ImageNet mean and standard deviation of the torchvision tutorials (those of '
          'the red channel) instead of the checkpoint\'s 0.5 and 0.5 of page 8.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - 0.485) / 0.229  # [-1, 1]\n'),
    fresh('01_flatten', 'pixels_as_float64', 'type',
          'normalize returns the right values in float64 instead of float32',
          'normalize converts the bytes with .double() "for precision" instead of .float().',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.double() / 255.0  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'unfold_stride_one', 'shape',
          'patchify cuts overlapping windows with stride 1, (H - P + 1) x (W - P + 1) of them instead of '
          '(H / P) x (W / P): there are far more values than (B, N, 3*P*P) holds and the reshape fails',
          'patchify passes step 1 to unfold, taking its third argument for a dilation or a count, so the '
          'window slides one pixel at a time like a convolution of stride 1.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(2, P, 1).unfold(3, P, 1)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'modulo_operands_swapped', 'shape',
          'count_tokens tests patch_size % image_size, which is the patch size itself (non-zero) whenever '
          'the patch is smaller than the image: every valid call (224 and 16) raises the ValueError',
          'count_tokens writes the divisibility test with its operands the wrong way round, '
          '"patch size modulo image size".',
          '    if image_size % patch_size:\n',
          '    if patch_size % image_size:\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'weights_to_numpy', 'type',
          'conv_to_linear returns the right (3*P*P, D) matrix as a NumPy array instead of a tensor',
          'conv_to_linear ends with .numpy() instead of .clone(), to hand back "a plain matrix".',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).numpy()  # (3*P*P, D)\n'),
    fresh('02_project', 'flatten_end_exclusive', 'shape',
          'conv_to_linear flattens only the channel and pixel-row axes, (D, 3*P, P), so the result is '
          '(3*P, D, P) instead of (3*P*P, D)',
          'conv_to_linear passes end_dim=-2, believing the end of flatten is exclusive like a slice\'s.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flatten(start_dim=1, end_dim=-2)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'product_scaled_by_sqrt_k', 'scale shift',
          'project divides X W_E by sqrt(3*P*P) (sqrt(768), about 27.7) before adding the bias: the '
          'expected result times 1 / sqrt(768) plus the row b_E (1 - 1 / sqrt(768)) broadcast to every row',
          'project carries the 1 / sqrt(d) scaling of attention scores over to the patch projection, to '
          '"keep the features at unit size".',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) / patches.shape[-1] ** 0.5 + b_E  # (B, N, D)\n'),
    fresh('02_project', 'bias_subtracted', 'sign shift',
          'project subtracts the bias instead of adding it: the expected result minus 2 b_E, the same row '
          'taken off every patch of every image',
          'project writes the affine map in the threshold form of a perceptron, w x - theta, with the bias '
          'subtracted.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) - b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_repeat_interleave', 'term',
          'add_position repeats every row of the table B times in a row and cuts the result into B '
          'tables: with two images, image 0 gets p0, p0, p1, p1, ... and image 1 the second half of the '
          'table twice over, so most tokens get another token\'s position',
          'add_position uses repeat_interleave (NumPy\'s repeat) to make one table per image, taking it '
          'for tiling.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.repeat_interleave(batch, dim=0).view(batch, -1, pos_table.shape[-1])  '
          '# (B, N, D): one table for every image\n'),
    fresh('03_position', 'positions_unit_length', 'term',
          'add_position adds each position vector scaled to length 1 instead of the learned vector itself',
          'add_position normalizes every row of the table first, so that WHERE cannot outweigh WHAT.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.nn.functional.normalize(pos_table, dim=-1).unsqueeze(0).expand(batch, -1, -1)  '
          '# (B, N, D): one table for every image\n'),
    fresh('03_position', 'table_centred', 'shift term',
          'add_position subtracts the mean position vector from the table: the expected result minus one '
          'row (the table\'s mean over positions) broadcast to every token of every image',
          'add_position centres the table over the positions so that it "adds no offset", only the '
          'differences between places.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = (pos_table - pos_table.mean(dim=0)).unsqueeze(0).expand(batch, -1, -1)  '
          '# (B, N, D): one table for every image\n'),
    fresh('03_position', 'positions_damped', 'term',
          'add_position adds a tenth of the position table: c_i + 0.1 p_i instead of c_i + p_i',
          'add_position passes alpha=0.1, believing WHERE should only be a small correction to WHAT.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table, alpha=0.1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'two_start_tokens', 'shape',
          'prepend_cls puts two copies of CLS in front of the patches: (B, 2+N, D) instead of (B, 1+N, D)',
          'prepend_cls adds a second start token as DeiT does with its distillation token.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((start, start, tokens), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_copied_from_first_patch', 'part inputs',
          'prepend_cls fills row 0 with each image\'s first patch token P1 instead of the learned CLS '
          'vector; rows 1..N are right',
          'prepend_cls reads "row 0 is CLS" as "take row 0 of the tokens" and ignores cls_token.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = tokens[:, :1]  # (B, 1, D)\n'),
    fresh('04_cls', 'images_mirrored', 'part inputs',
          'embed embeds the horizontally mirrored images: every patch row holds the content of the '
          'mirrored patch (its pixels mirrored too) plus the position of its own place; only the CLS row '
          'is right',
          'embed applies a horizontal flip, carried over from the training augmentation of the data '
          'pipeline.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.flip(-1), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'cls_position_stored_last', 'term',
          'embed rolls the position table by one row: CLS gets the last row of the table, P1 gets row 0 '
          '(CLS\'s), and every patch Pi the row of P(i-1)',
          'embed believes the checkpoint stores the CLS position in the last row, as for an appended class '
          'token, and rolls it to the front.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table.roll(1, dims=0))  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'head_dim_from_qkv_width', 'shape',
          'qkv_heads computes the head size from the 3D columns of W_qkv, 3 D / H instead of D / H, so '
          'the view to (B, N, 3, H, d) asks for three times too many values and fails',
          'qkv_heads reads the width from W_qkv.shape[1], forgetting that it holds q, k and v side by side.',
          '    head_dim = width // num_heads\n',
          '    head_dim = W_qkv.shape[1] // num_heads\n'),
    fresh('05_attention', 'stabilized_by_division', 'term',
          'attention_weights divides each row of scores by its largest score instead of subtracting it, '
          'so the softmax is taken of rescaled scores (with the order reversed in rows whose largest score '
          'is negative): the weights are wrong though each row still sums to 1',
          'attention_weights "normalizes by the maximum" for numerical stability, mixing up dividing by '
          'the max with subtracting it.',
          '    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n',
          '    scores = scores / scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n'),
    fresh('05_attention', 'softmax_plus_one', 'term',
          'attention_weights adds 1 to the softmax denominator: each row is divided by (sum + 1), so every '
          'row sums to less than 1, by a different factor in every row',
          'attention_weights uses the "softmax off by one" of the quiet-attention blog posts, letting a '
          'receiver attend to nothing.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / (weights.sum(dim=-1, keepdim=True) + 1)  # each row sums to 1\n'),
    fresh('05_attention', 'head_count_as_head_size', 'term',
          'multi_head_attention splits the features into D / H heads of H features (64 heads of 3 for '
          'ViT-Ti) instead of H heads of D / H: the scores, their scaling and the weights are all those of '
          'another split',
          'multi_head_attention passes the head size d = D / H where qkv_heads expects the number of heads.',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)\n',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, width // num_heads)  # each (B, H, N, d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'rsqrt_divided', 'term',
          'layer_norm multiplies the centred values by the standard deviation instead of dividing by it '
          '(dividing by 1 / sqrt(var + eps))',
          'layer_norm uses torch.rsqrt, the reciprocal square root of fused kernels, but keeps the division.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.rsqrt(spread + eps) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'contract_with_first_bias', 'shape inputs',
          'mlp adds b_1 (4D values) after the contraction instead of b_2 (D values): the shapes do not fit '
          'and the call fails',
          'mlp copies the expansion line for the contraction and forgets to change b_1 to b_2.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return hidden @ W_2 + b_1  # (B, N, D)\n'),
    fresh('06_block', 'mlp_before_attention', 'inputs',
          'block runs the MLP update first and attention second (each with its own LayerNorm): the MLP '
          'reads the incoming rows instead of the rows after attention, and attention reads the rows after '
          'the MLP',
          'block lists its two sublayers in the wrong order, "feed-forward, then attention".',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(feed, p.ln2_weight, p.ln2_bias), (attend, p.ln1_weight, p.ln1_bias)]\n'),
    fresh('06_block', 'weights_then_biases', 'shape',
          'block passes the attention parameters as (W_qkv, W_o, b_qkv, b_o): W_o is used as the qkv bias '
          'and b_qkv as the output weight, the shapes do not fit and the call fails',
          'block groups the arguments as "weights, then biases", as many layer APIs order them.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.W_o, p.b_qkv, p.b_o, num_heads)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_sliced_on_features', 'shape',
          'read_cls slices the first feature of every token, (B, 1+N, 1), instead of the first token: '
          'LayerNorm of one value gives 0, the result is the bias broadcast to (B, 1+N, D) instead of (B, D)',
          'read_cls writes x[..., :1], the "first along the last axis" habit, for the first token.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[..., :1]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'clip_logit_scale', 'scale',
          'classify returns the logits times 100',
          'classify multiplies the scores by the logit scale (temperature 0.01) of CLIP, from page 55\'s '
          'classes that come from words.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return 100 * torch.addmm(b_head, h, W_head)  # (B, 1000)\n'),
    fresh('07_head', 'norm_after_every_block', 'term inputs',
          'vit_forward applies the final LayerNorm after every block: each block after the first reads '
          'normalized rows instead of the residual stream, and the final CLS is normalized twice',
          'vit_forward takes the "norm" of page 52 for a part of every encoder layer and applies it inside '
          'the loop.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.layer_norm(encoder.block(rows, layer, params.num_heads), params.norm_weight, '
          'params.norm_bias)  # (B, 197, D)\n'),
    fresh('07_head', 'cls_skips_blocks', 'term',
          'vit_forward runs the blocks on the patch rows only and keeps the starting CLS row: the head reads '
          'cls_token + p0, the same for every image, so every image gets the same logits',
          'vit_forward treats CLS as a fixed learned summary slot that the blocks do not update, against '
          'page 22\'s "CLS reads the current patch states at every block".',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = torch.cat((rows[:, :1], encoder.block(rows[:, 1:], layer, params.num_heads)), dim=1)  '
          '# (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'mean_fill', 'fill',
          'cover fills the square with the mean of all the images\' values instead of `value`',
          'cover uses mean imputation, filling the hidden square with the average pixel, as in some '
          'occlusion-sensitivity code.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = images.mean()\n'),
    fresh('08_occlusion', 'reference_in_batch', 'shape',
          'quadrant_probabilities puts the uncovered image in front of the four covers: five probabilities '
          '(original, TL, TR, BL, BR) instead of four',
          'quadrant_probabilities includes the original photograph in the batch, as page 43 shows it next '
          'to the four covered copies.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([image] + [cover(image, top, left, half_h) for top in (0, half_h) '
          'for left in (0, half_w)])\n'),
    fresh('08_occlusion', 'batch_axis_added_again', 'shape',
          'occlusion_map gives the model a (1, 1, 3, H, W) tensor for the uncovered image: the shapes do '
          'not fit and the call fails',
          'occlusion_map adds a batch axis to the single image with unsqueeze(0), not seeing that it is '
          '(1, 3, H, W) already.',
          '        base = torch.softmax(model(image), dim=-1)[0, target]  # the uncovered probability\n',
          '        base = torch.softmax(model(image.unsqueeze(0)), dim=-1)[0, target]  # the uncovered probability\n'),
    fresh('08_occlusion', 'only_drops_kept', 'part',
          'occlusion_map sets the cells where covering raised the probability to 0: the cells with a drop '
          'are right, the positive changes are lost',
          'occlusion_map clamps the map at 0, believing covering can only lower the probability.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(side, side).clamp(max=0)  # row r, column c: patch P(side*r + c + 1)\n'),
]
