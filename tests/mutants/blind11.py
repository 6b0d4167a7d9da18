"""An eleventh blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/blind.py ... blind10.py (their use of
the `fresh` helper and its claims) was followed, and none of their mistakes is repeated. Four
mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function on typical inputs (or makes the call fail), with what is
really wrong (`structure`) and the kinds of structure its error truly has (`claims`). The few
marked hidden=True are right at the lecture's sizes (224 x 224 images, 16-pixel patches, 3 heads)
and only a test with other sizes (other grids, patch sizes, head counts) can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND11 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'halves_before_scaling', 'shift',
          'normalize computes (x - 0.5) / 0.5 / 255 = 2 x / 255 - 1/255 instead of 2 x / 255 - 1: every '
          'value is the expected one plus 254/255, range [-0.004, 1.996] instead of [-1, 1]',
          'normalize applies page 8\'s "subtract 0.5 and divide by 0.5" to the raw 0..255 values and '
          'only then divides by 255, doing the two steps in the wrong order.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (pixels.float() - 0.5) / 0.5 / 255.0  # [-1, 1]\n'),
    fresh('01_flatten', 'grid_assumed_square', 'shape',
          'patchify counts (H/P)^2 patches instead of (H/P) * (W/P): right for square images such as '
          'the lecture\'s 224 x 224, but for a non-square image (e.g. 32 x 64) the number of values does '
          'not fit the reshape and the call fails',
          'patchify assumes every image is square, as in the lecture, and squares the patches per side.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, (H // P) ** 2, C * P * P)  # (B, N, C*P*P)\n',
          True),
    fresh('01_flatten', 'grid_axes_not_merged', 'shape',
          'patchify returns (B, rows, cols, 3*P*P), e.g. (B, 14, 14, 768): every patch row holds the '
          'right values in the right order, but the grid of rows and columns is not merged into one '
          'axis of N patches',
          'patchify flattens each patch (channels and pixels) but forgets that the patches themselves '
          'must become one sequence P1 ... PN.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.flatten(start_dim=3)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'cls_opt_in_by_default', 'term',
          'count_tokens leaves CLS out unless the caller passes cls=True: count_tokens(224, 16) gives '
          '196 instead of 197 (an explicit cls=True or cls=False is right)',
          'count_tokens makes CLS opt-in with a default of False, taking "the number of tokens" to mean '
          'the patch tokens.',
          'def count_tokens(image_size: int, patch_size: int, cls: bool = True) -> int:\n',
          'def count_tokens(image_size: int, patch_size: int, cls: bool = False) -> int:\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_read_channels_last', 'order',
          'conv_to_linear permutes the (D, 3, P, P) kernel as if it were (D, P, P, 3): W_E holds the '
          'right weights, but its rows are ordered kernel column, channel, kernel row instead of '
          'channel, kernel row, kernel column, so most pixel values meet the wrong weight',
          'conv_to_linear applies the channels-last to channels-first conversion (NHWC to NCHW, '
          'permute(0, 3, 1, 2)) to a kernel that PyTorch already stores channels-first.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 3, 1, 2).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'kernel_size_768_hardcoded', 'shape',
          'conv_to_linear reshapes the kernel into rows of 768 whatever the patch size: right for '
          '16-pixel patches, but with 8-pixel patches (3*8*8 = 192 weights per kernel) W_E gets the '
          'wrong shape (768, D/4), or the reshape fails',
          'conv_to_linear writes the lecture\'s 768 weights per kernel into the reshape instead of '
          'flattening the kernel\'s own axes.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.reshape(-1, 768)  # (D, 3*P*P), channel-major like patchify\n',
          True),
    fresh('02_project', 'one_photograph_only', 'shape',
          'project returns the (N, D) content of the first image only: the values of image 0 are '
          'right, but the batch axis and every other image are gone',
          'project writes page 12\'s C = X W_E + b_E for one photograph, taking X = patches[0], since '
          'the lecture leaves the batch axis out.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return patches[0] @ W_E + b_E  # (B, N, D)\n'),
    fresh('02_project', 'weights_on_the_left', 'shape',
          'project multiplies W_E (3*P*P, D) by the patches from the left: the inner sizes D and N '
          '(192 and 196) do not match and the call fails',
          'project writes the projection the column-vector way, W x, as in linear-algebra texts, '
          'instead of the lecture\'s row-vector X W_E.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return W_E @ patches + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'sum_kept_at_unit_variance', 'scale',
          'add_position returns (tokens + table) / sqrt(2): every value is 0.707 times the expected one',
          'add_position divides the sum by sqrt(2) so that adding two unit-variance vectors keeps unit '
          'variance.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) / 2 ** 0.5  # (B, N, D)\n'),
    fresh('03_position', 'row_zero_unpositioned', 'part',
          'add_position adds nothing to row 0 of every image (it keeps tokens[:, 0] instead of '
          'tokens[:, 0] + pos_table[0]); rows 1..N-1 are right',
          'add_position treats row 0 as CLS and believes CLS needs no position because it is not a '
          'patch, although the checkpoint has a position vector for the CLS slot (page 17).',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.cat((torch.zeros_like(pos_table[:1]), pos_table[1:])).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'table_tiled_on_features', 'shape',
          'add_position tiles the table along the feature axis: (1, N, B*D) cannot be added to '
          '(B, N, D) and the call fails for any batch of two or more images (a single image is right)',
          'add_position calls tile(batch) as if it were numpy.tile on a 1-D array, not seeing that a '
          'single repeat count applies to the last axis.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(0).tile(batch)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'positions_scaled_by_sqrt_d', 'term',
          'add_position adds sqrt(D) times the table (13.9 times for D = 192): the position term is '
          'scaled by sqrt(D), the content is right',
          'add_position applies the sqrt(d_model) scaling of the original Transformer\'s embeddings, '
          'but to the position vectors instead of the content.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table, alpha=tokens.shape[-1] ** 0.5)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_without_token_axis', 'shape',
          'prepend_cls builds a (B, D) block of CLS vectors with no token axis: it cannot be joined to '
          'the (B, N, D) tokens and the call fails',
          'prepend_cls repeats CLS once per image but forgets that each image needs it as a one-token '
          'sequence (B, 1, D).',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.unsqueeze(0).repeat(batch, 1)  # (B, 1, D)\n'),
    fresh('04_cls', 'position_forgotten', 'term',
          'embed returns CLS and the projected patches without any position vector: every row, CLS '
          'included, lacks its pos_table row',
          'embed stops after prepending CLS, forgetting the last step of page 23 ("then add a '
          'position vector to each of the 197 rows").',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return sequence  # (B, 1+N, D)\n'),
    fresh('04_cls', 'patch_positions_added_twice', 'term part',
          'embed adds pos_table[1:] to the patch rows right after the projection and the whole table '
          'again after CLS: every patch row i gets 2 p_i, only the CLS row is right',
          'embed follows page 16 (e_i = c_i + p_i, before CLS exists) and then page 23 (prepend CLS, '
          'add position), adding the patches\' positions twice.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.b_E) + params.pos_table[1:]  # (B, N, D)\n'),
    fresh('04_cls', 'projection_transposed', 'shape',
          'embed projects with W_E transposed to (D, 3*P*P): its rows no longer match the 3*P*P values '
          'of a patch and the call fails',
          'embed transposes W_E because page 10 says PyTorch stores the Linear weight transposed, not '
          'seeing that params.W_E is already in the lecture\'s (in, out) layout.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E.T, params.b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'heads_and_qkv_swapped_in_view', 'shape',
          'qkv_heads views the 3D output columns as (H, 3, d) instead of (3, H, d): with H = 3 the two '
          'views pick the same blocks and the result is right, but with fewer heads the call fails '
          '(there is no third group to index), and with more heads q, k and v each get 3 "heads" made '
          'of the wrong column blocks, shape (B, 3, N, d) instead of (B, H, N, d)',
          'qkv_heads writes the two sizes of the view in the wrong order, (num_heads, 3) for '
          '(3, num_heads), which the lecture\'s three heads cannot reveal.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, num_heads, 3, head_dim)  # (B, N, 3, H, d)\n',
          True),
    fresh('05_attention', 'self_pairs_masked', 'term',
          'attention_weights masks the diagonal: every token\'s weight on itself is 0 and the other '
          'weights of its row are scaled up to sum to 1',
          'attention_weights believes a token should not attend to itself, although page 30 allows all '
          '197 x 197 pairs, self-pairs included.',
          '    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n',
          '    scores = (scores - scores.amax(dim=-1, keepdim=True)).masked_fill(torch.eye(scores.shape[-1], dtype=torch.bool), float("-inf"))  # each row\'s largest score becomes 0\n'),
    fresh('05_attention', 'weights_softmaxed_again', 'activation',
          'multi_head_attention takes a second row softmax of the attention weights: each row becomes '
          'softmax(w), much flatter than w (every w lies in [0, 1], so no two new weights differ by '
          'more than a factor e), and each message moves towards the plain mean of the values',
          'multi_head_attention treats the output of attention_weights as scores and applies the row '
          'softmax itself.',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(q, k).softmax(dim=-1)  # (B, H, N, N)\n'),
    fresh('05_attention', 'output_projection_of_input', 'inputs',
          'multi_head_attention applies the output projection to its input x instead of the joined '
          'heads: the result is x W_o + b_o, whatever the attention computed',
          'multi_head_attention copies x.reshape(-1, width) from the q, k, v product into the output '
          'projection and forgets to change x to joined.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.addmm(b_o, x.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'uncentred_numerator', 'term',
          'layer_norm divides x itself, not x minus its mean, by the standard deviation: each row is '
          'off by its mean / std times the weight, a different amount for every row',
          'layer_norm computes the centred rows for the variance but writes x instead of centred in '
          'the final line.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return x / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n'),
    fresh('06_block', 'std_rooted_twice', 'term',
          'layer_norm divides the centred rows by the square root of the standard deviation, '
          'sigma^(1/2), instead of by sigma: before the weight and bias each row is sigma^(1/2) times '
          'its expected value, a different factor for every row',
          'layer_norm takes the square root when computing the spread and again in the division, '
          'mixing up the variance and the standard deviation.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True).sqrt()  # (..., 1): the biased variance\n'),
    fresh('06_block', 'gelu_output_unused', 'activation',
          'mlp computes GELU into a new variable and contracts the pre-activations: the result is '
          '(x W_1 + b_1) W_2 + b_2, an affine map with no nonlinearity',
          'mlp stores the GELU under a new name and keeps using the old one in the last line.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    activated = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n'),
    fresh('06_block', 'attention_twice_no_mlp', 'term',
          'block applies the attention update twice (the second time after LN2) and never the MLP',
          'block copies the attention entry of the sublayer list for the MLP and changes only the '
          'LayerNorm parameters.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (attend, p.ln2_weight, p.ln2_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'every_row_returned', 'shape',
          'read_cls returns the final LayerNorm of every row, (B, 1+N, D): row 0 is the right CLS, the '
          'N patch rows are extra',
          'read_cls follows page 52\'s norm(x) and loses the [:, 0]: it cuts out CLS but normalizes x '
          'instead of the cut-out row.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(x, norm_weight, norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'logits_scaled_like_attention', 'scale',
          'classify divides the logits by sqrt(D) (13.9 for D = 192): every logit is 1/sqrt(D) times '
          'the expected one',
          'classify scales the dot products h · w_c by 1/sqrt(D) as attention scales q · k by '
          '1/sqrt(d).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head) / h.shape[-1] ** 0.5  # (B, 1000)\n'),
    fresh('07_head', 'three_heads_hardcoded', 'term shape',
          'vit_forward runs every block with 3 heads whatever params.num_heads says: right for the '
          'lecture\'s ViT-Ti, but a ViT with 2 or 4 heads has its features split into the wrong heads, '
          'so every logit is off, and when D is not divisible by 3 the call fails',
          'vit_forward writes the lecture\'s three heads into the block call instead of reading them '
          'from params.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, 3)  # (B, 197, D)\n',
          True),
    fresh('07_head', 'cls_kept_out_of_encoder', 'inputs',
          'vit_forward runs the blocks on the patch rows only, CLS removed, and then reads row 0, '
          'which is P1 after the blocks: the logits are those of the final P1 row of an encoder that '
          'never saw CLS',
          'vit_forward believes CLS only collects the result at the end and keeps it out of the '
          'encoder, although every block updates CLS (pages 22, 36).',
          '    rows = x\n',
          '    rows = x[:, 1:]\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'fill_normalized_again', 'fill',
          'cover fills the square with 2 * value - 1: the default 0.0 becomes -1.0 (black) instead of '
          'mid-gray, and any other value v becomes 2 v - 1',
          'cover normalizes the fill like the pixels, (value - 0.5) / 0.5, not seeing that value is '
          'already in normalized units.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = (value - 0.5) / 0.5\n'),
    fresh('08_occlusion', 'quarters_accumulate', 'part',
          'quadrant_probabilities covers the quarters one after another on the same image: the first '
          'value (top-left) is right, the second has two quarters covered, the third three, the '
          'fourth the whole image',
          'quadrant_probabilities reassigns each covered copy to image, so the covers pile up, the '
          'mistake page 42 warns about.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([(image := cover(image, top, left, half_h)) for top in (0, half_h) for left in (0, half_w)])\n'),
    fresh('08_occlusion', 'grid_side_14_hardcoded', 'shape',
          'occlusion_map always makes a 14 x 14 grid of covers: right for 224-pixel images and '
          '16-pixel patches, but any other image or patch size gets a (14, 14) map instead of '
          '(H/P, W/P), with covers beyond the image or parts of it never covered',
          'occlusion_map writes the lecture\'s 14 patches per side instead of computing them from the '
          'image and patch sizes.',
          '    side = image.shape[-1] // patch_size\n',
          '    side = 14\n',
          True),
    fresh('08_occlusion', 'map_rescaled_for_display', 'scale',
          'occlusion_map divides the changes by their largest absolute value: the map is the expected '
          'one times 1 / max|change|, with values in [-1, 1]',
          'occlusion_map normalizes the map for its colour scale, as heat maps often are, instead of '
          'returning probability changes.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return ((probs - base) / (probs - base).abs().max()).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
