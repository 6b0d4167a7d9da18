"""A tenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/blind.py ... blind9.py (their use of
the `fresh` helper and its claims) was followed, and none of their mistakes is repeated. Four
mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function on typical inputs (or makes the call fail, or does not
raise the promised error), with what is really wrong (`structure`) and the kinds of structure its
error truly has (`claims`). The few marked hidden=True are right at the lecture's sizes and only a
test with other sizes (other grids, patch sizes) can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND10 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'divide_then_subtract', 'shift',
          'normalize computes (x / 255) / 0.5 - 0.5 = 2 x / 255 - 0.5 instead of 2 x / 255 - 1: every '
          'value is the expected one plus 0.5, range [-0.5, 1.5]',
          'normalize does the two operations of "subtract 0.5, divide by 0.5" in the wrong order, '
          'dividing first and subtracting afterwards.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled / 0.5 - 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'unfold_height_twice', 'shape',
          'patchify unfolds the height axis twice and never the width: after the first unfold axis 2 '
          'holds the 14 patch rows, fewer than P = 16, so the second unfold fails (with smaller patches '
          'the tiles have the wrong number of values and the reshape fails)',
          'patchify copies the first unfold call for the second one and forgets to change the axis '
          'from 2 to 3.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(2, P, P).unfold(2, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'lecture_sizes_hardcoded', 'shape',
          'patchify reshapes to the lecture\'s (B, 196, 768) whatever the image and patch size: right '
          'for 224 x 224 images and 16-pixel patches, but any other grid or patch size has another '
          'number of values and the reshape fails',
          'patchify writes the 196 patches of 768 values of pages 7-9 into the reshape instead of '
          'computing them from the shapes.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, 196, 768)  # (B, N, C*P*P)\n',
          True),
    fresh('01_flatten', 'guard_checks_fit_only', 'raise',
          'count_tokens raises only when the patch is larger than the image: a size that is not a '
          'multiple of the patch (225 and 16) returns a count (14 * 14 + 1) instead of raising the '
          'ValueError',
          'count_tokens checks that "the patch fits in the image" instead of checking divisibility.',
          '    if image_size % patch_size:\n',
          '    if image_size < patch_size:\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_averaged', 'scale',
          'conv_to_linear divides W_E by 3*P*P (768): the right matrix times 1 / 768',
          'conv_to_linear believes a convolution averages the values under its window, like average '
          'pooling, and divides the weights by the window\'s size.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).clone() / flat.shape[1]  # (3*P*P, D)\n'),
    fresh('02_project', 'layer_norm_after_projection', 'term',
          'project applies a LayerNorm (without weight and bias) to every projected row: each content '
          'vector is centred and scaled to unit variance instead of being X W_E + b_E',
          'project adds the "ln_pre" normalization that CLIP-style image encoders put after the patch '
          'embedding, which this checkpoint does not have.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.layer_norm(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E, '
          'b_E.shape)  # (B, N, D)\n'),
    fresh('02_project', 'batch_rows_not_restored', 'shape',
          'project stacks the patches of all images into one (B*N, 3*P*P) matrix and returns the '
          '(B*N, D) product without splitting it back into images: right values, shape (B*N, D) '
          'instead of (B, N, D)',
          'project follows page 12\'s C = X W_E + b_E on a 2-D X (the lecture leaves the batch axis '
          'out) and forgets to reshape back to (B, N, D).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return patches.reshape(-1, patches.shape[-1]) @ W_E + b_E  # (B, N, D)\n'),
    fresh('02_project', 'patches_read_feature_first', 'shape',
          'project reads the patches as (B, 3*P*P, N), the layout of F.unfold, so the summed index k '
          'runs over the N patches: N = 196 does not match the 768 rows of W_E and the einsum fails',
          'project assumes its input comes in F.unfold\'s layout, features before patches, as page 9\'s '
          'note on PyTorch Unfold suggests.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bkn,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'token_count_hardcoded', 'shape',
          'add_position expands the table to 197 rows whatever its length: right for the lecture\'s '
          '197 tokens, but with another grid (50 tokens for 32 x 32 images, 785 for 8-pixel patches) '
          'the table cannot be expanded and the call fails',
          'add_position writes the lecture\'s 197 tokens into the expand instead of keeping the '
          'table\'s own length with -1.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(0).expand(batch, 197, -1)  # (B, N, D): one table for every image\n',
          True),
    fresh('03_position', 'table_in_half_precision', 'approximate',
          'add_position rounds the position table to float16 before adding it: the result is float32 '
          'but every position term carries a rounding error of up to about 0.05 % of its size',
          'add_position casts the table to half precision "to save memory", not seeing that the sum '
          'then carries the table\'s rounding.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table.half())  # (B, N, D)\n'),
    fresh('03_position', 'sequence_first_output', 'shape order',
          'add_position returns the right sums with the batch and token axes swapped, (N, B, D) '
          'instead of (B, N, D)',
          'add_position hands back the sequence-first layout that nn.TransformerEncoder expects by '
          'default (batch_first=False).',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table).transpose(0, 1)  # (B, N, D)\n'),
    fresh('03_position', 'table_in_double_precision', 'type',
          'add_position returns the right values in float64 instead of float32 (type promotion of '
          'the float64 table)',
          'add_position converts the table with .double() "for accuracy" before adding it.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table.double())  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_expanded_like_timm', 'shape',
          'prepend_cls expands the (D,) CLS vector to (B, -1, -1): a vector has no leading axes to '
          'keep with -1, so the call fails',
          'prepend_cls copies timm\'s cls_token.expand(B, -1, -1), where the stored CLS parameter is '
          '(1, 1, D), not (D,).',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.expand(batch, -1, -1)  # (B, 1, D)\n'),
    fresh('04_cls', 'default_patch_size', 'shape',
          'embed calls patchify without params.patch_size, so the patches are always 16 x 16: right '
          'for the lecture\'s model, but with 8-pixel patches the rows have 768 values for a W_E of '
          '3*8*8 = 192 rows and the projection fails',
          'embed forgets to pass the patch size and relies on patchify\'s default of 16.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images)  # (B, N, 3*P*P)\n',
          True),
    fresh('04_cls', 'channels_as_bgr', 'part inputs',
          'embed embeds the images with their colour channels reversed (B, G, R): every patch row is '
          'the projection of the wrong colours plus its own position; only the CLS row is right',
          'embed converts the images to BGR, believing the checkpoint, like OpenCV- and Caffe-era '
          'models, reads blue first.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.flip(1), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'cls_projected_like_a_patch', 'shape',
          'embed sends the (D,) CLS vector through the patch projection before prepending it: the '
          'einsum wants a (B, N, 3*P*P) input and the call fails',
          'embed treats CLS as one more patch that must go through the shared projection W_E, b_E.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, projection.project(params.cls_token, params.W_E, '
          'params.b_E))  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'query_key_returned_swapped', 'order',
          'qkv_heads returns (k, q, v): the right three tensors, with the queries and the keys in '
          'each other\'s place',
          'qkv_heads writes the return as "key, query, value", swapping the first two names.',
          '    return q, k, v\n',
          '    return k, q, v\n'),
    fresh('05_attention', 'scaled_by_model_width', 'term',
          'attention_weights divides the scores by sqrt(H * d) = sqrt(D) (sqrt(192), about 13.9) '
          'instead of sqrt(d) = 8: the softmax is taken at the wrong temperature, every row is flatter',
          'attention_weights takes the d of "q . k / sqrt(d)" for the model width D rather than the '
          'head width.',
          '    head_dim = q.shape[-1]\n',
          '    head_dim = q.shape[1] * q.shape[-1]\n'),
    fresh('05_attention', 'row_sums_without_keepdim', 'shape',
          'attention_weights divides by the row sums without keepdim: the (B, H, N) sums are aligned '
          'with the last three axes of the (B, H, N, N) weights, so the shapes do not fit and the call '
          'fails (or, for a batch of two with one head, broadcasts to the wrong shape; only for one '
          'image and one head does it run, dividing column j by the sum of row j)',
          'attention_weights drops keepdim=True from the normalizing sum, trusting broadcasting.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-1)  # each row sums to 1\n'),
    fresh('05_attention', 'keys_passed_as_queries', 'inputs',
          'multi_head_attention calls attention_weights(k, q): row i holds the softmax of k_i . q_j '
          'over j, the keys asking the queries, instead of q_i . k_j over the keys',
          'multi_head_attention passes the keys and queries to attention_weights in the wrong order.',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(k, q)  # (B, H, N, N)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'norm_weight_left_out', 'term',
          'layer_norm adds the bias but never multiplies by the weight: the normalized rows are not '
          'scaled by the learned gain',
          'layer_norm writes only the shift of "scale and shift", forgetting the learned scale.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps) + bias  # (..., D)\n'),
    fresh('06_block', 'gelu_with_density', 'activation',
          'mlp multiplies z by the standard normal density phi(z) instead of the distribution '
          'function Phi(z): the hidden values are z exp(-z^2 / 2) / sqrt(2 pi), not GELU(z)',
          'mlp confuses the normal CDF of GELU(z) = z Phi(z) with the bell-shaped normal PDF.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * torch.exp(-0.5 * hidden ** 2) / math.sqrt(2.0 * math.pi)  # z·Φ(z)\n'),
    fresh('06_block', 'block_input_added_again', 'term',
          'block returns x + E_next: the block\'s input is added once more on top of the two residual '
          'updates',
          'block adds a skip connection around the whole block as well as around each sublayer.',
          '    return stream\n',
          '    return x + stream\n'),
    fresh('06_block', 'norm_parameters_unpacked_swapped', 'inputs',
          'block unpacks each sublayer\'s LayerNorm parameters as (bias, weight): both LN1 and LN2 '
          'scale by the bias and shift by the weight',
          'block writes the loop variables in the order "update, bias, weight", not the order of the '
          'tuples in the list.',
          '    for update, weight, bias in sublayers:\n',
          '    for update, bias, weight in sublayers:\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_plus_mean_patch', 'inputs term',
          'read_cls normalizes CLS plus the mean of the patch rows instead of CLS alone',
          'read_cls combines both readouts of page 18, the CLS row and mean pooling, "to use all the '
          'information".',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, :1] + x[:, 1:].mean(dim=1, keepdim=True)  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'head_without_bias', 'shift term',
          'classify leaves out b_head: every image\'s logits are off by -b_head, the same row for '
          'every image',
          'classify computes h W_head only, forgetting the per-class bias b_c of page 54.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.mm(h, W_head)  # (B, 1000)\n'),
    fresh('07_head', 'addmm_in_formula_order', 'shape',
          'classify calls torch.addmm(h, W_head, b_head): addmm takes the added term first, so b_head '
          '(a vector) is used as a matrix factor and the call fails',
          'classify passes the arguments in the order of the formula h W + b instead of addmm\'s '
          '(bias, mat1, mat2).',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(h, W_head, b_head)  # (B, 1000)\n'),
    fresh('07_head', 'cls_selected_twice', 'inputs',
          'vit_forward selects CLS itself and hands read_cls the (B, D) rows: read_cls then takes the '
          'first feature of each and normalizes that single value, so every image gets the final '
          'LayerNorm\'s bias as its summary and the same logits',
          'vit_forward writes page 52\'s [:, 0] before calling read_cls, which selects CLS again.',
          '    summary = read_cls(rows, params.norm_weight, params.norm_bias)  # (B, D)\n',
          '    summary = read_cls(rows[:, 0], params.norm_weight, params.norm_bias)  # (B, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'fill_value_ignored', 'fill',
          'cover always fills the square with 0 whatever `value` is asked: right for the default '
          'mid-gray, wrong for any other fill',
          'cover writes the mid-gray 0 of page 42 into the assignment instead of using the argument.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] = 0.0\n'),
    fresh('08_occlusion', 'sigmoid_probabilities', 'activation',
          'quadrant_probabilities returns sigmoid(logit of the target) for each cover instead of its '
          'softmax probability over the classes',
          'quadrant_probabilities turns the logit into a probability with a sigmoid, as in binary or '
          'multi-label classification.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.sigmoid(logits)[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'target_indexes_covers', 'shape',
          'quadrant_probabilities indexes the (4, C) probabilities by target on the cover axis: with '
          'target 256 the index is out of range and the call fails (a target below 4 gives one cover\'s '
          'C probabilities instead of four values)',
          'quadrant_probabilities forgets the batch axis of the four covers and writes probs[target].',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[target]  # (4,)\n'),
    fresh('08_occlusion', 'map_centred_on_mean', 'shift term',
          'occlusion_map subtracts the mean of the covered probabilities instead of the uncovered '
          'probability: the expected map plus one constant (base - mean), so it averages to 0',
          'occlusion_map centres the map on its average so that red and blue balance, instead of '
          'comparing with the original photograph.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - probs.mean()).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
