"""A twelfth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes beyond their format and what was needed to avoid repeats. Besides those
sources, only tests/mutants/fresh.py up to its CLAIMS (the `fresh` helper and the claim vocabulary)
and tests/mutants/blind.py ... blind11.py (read in full, to follow their format and to leave out every
mistake they already hold) were seen; nothing under grader/, no catalogue, no other mutant set and no
other test was opened. Four mistakes per step, spread over the step's functions, each an edit of one
line (or one expression) that changes the numbers of its function on typical inputs (or makes the
call fail, returns the wrong shape, or changes its input in place), with what is really wrong
(`structure`) and the kinds of structure its error truly has (`claims`). The two marked hidden=True
are right at the lecture's sizes (224 x 224 images, 16-pixel patches, 3 heads of 64 features) and
only a test with other sizes can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND12 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'subtraction_reversed', 'sign',
          'normalize computes (0.5 - x / 255) / 0.5 = 1 - 2 x / 255 instead of 2 x / 255 - 1: every value '
          'is minus the expected one (black becomes 1, white -1)',
          'normalize writes page 8\'s "subtract 0.5" with the operands the wrong way round, 0.5 minus the '
          'pixel, before dividing by 0.5.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (0.5 - scaled) / 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'stops_at_unit_range', 'scale shift',
          'normalize returns x / 255, the pixels in [0, 1], without the minus 0.5 and the division by 0.5: '
          'every value is half the expected one plus 0.5, range [0, 1] instead of [-1, 1]',
          'normalize stops after "RGB to [0, 1]", the first part of page 8\'s normalization (what '
          'ToTensor does), taking it for the whole checkpoint transform.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled  # [-1, 1]\n'),
    fresh('01_flatten', 'movedim_arguments_swapped', 'order',
          'patchify moves the grid-column axis to position 1 instead of the channel axis to position 3, '
          'so the tiles are laid out (B, cols, C, rows, P, P): each image holds its right values, but every '
          'row of the result mixes pieces of several patches and channels in another order',
          'patchify calls movedim(3, 1) for movedim(1, 3), giving movedim its destination before its source, '
          'when it means to put the channels after the grid row and column (page 9).',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.movedim(3, 1)  # (B, rows, cols, C, P, P)\n'),
    fresh('01_flatten', 'patches_per_side_only', 'term',
          'count_tokens counts the patches along one side only, image_size / patch_size, instead of its '
          'square: 15 instead of 197 for 224 and 16 (14 instead of 196 without CLS); the divisibility '
          'check still raises',
          'count_tokens returns page 7\'s "224 / 16 = 14 patches per side" plus CLS, forgetting the second '
          'step, 14 x 14 = 196.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side + (1 if cls else 0)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_rows_interleaved', 'order',
          'conv_to_linear reads every kernel row by row across the channels (row 0 of R, of G, of B, then '
          'row 1 ...) instead of channel by channel: W_E holds the right weights, its rows in another '
          'order, so it no longer matches patchify\'s channel-major rows',
          'conv_to_linear reads page 9\'s "row by row" as the outer loop, permuting the kernel to (D, P, 3, '
          'P) before flattening, so the three channels of each pixel row come side by side.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 1, 3).flatten(start_dim=1)  # (D, 3*P*P), channel-major '
          'like patchify\n'),
    fresh('02_project', 'bmm_without_broadcast', 'shape',
          'project calls torch.bmm with W_E given one leading axis, (1, 3*P*P, D): bmm does not broadcast '
          'the batch axis, so the call fails for any batch of two or more images (a single image is right)',
          'project handles the batch with a batched matrix product and gives W_E a batch axis of 1, '
          'believing bmm broadcasts it over the images as @ does.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.bmm(patches, W_E.unsqueeze(0)) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'products_summed_over_outputs', 'shape axis',
          'project forms the products x_k w_kd by broadcasting and sums them over the D output features '
          'instead of the 3*P*P inputs: the result is (B, N, 3*P*P), which b_E (D values) cannot be added '
          'to, so the call fails (3*P*P = 768, D = 192)',
          'project writes c_d = sum_k x_k w_kd with broadcasting and reduces the last axis, which holds d, '
          'not k.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (patches.unsqueeze(-1) * W_E).sum(dim=-1) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'images_stacked_on_token_axis', 'shape order',
          'project projects each image right but stacks the results along axis 1: the result is (N, B, D), '
          'patch first and image second, instead of (B, N, D)',
          'project loops over the images with page 12\'s C = X W_E + b_E for one photograph and stacks the '
          'per-image results with dim=1, unsure which axis stack adds.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.stack([image @ W_E + b_E for image in patches], dim=1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'content_left_out', 'term',
          'add_position returns the position table for every image, without the tokens: every row is p_i '
          'instead of c_i + p_i, off by minus its content vector',
          'add_position builds one table per image and returns it, forgetting the addition of page 16 that '
          'the table was built for.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return table  # (B, N, D)\n'),
    fresh('03_position', 'batch_flattened', 'shape',
          'add_position adds the right rows but flattens the batch into one long sequence: the result is '
          '(B*N, D) instead of (B, N, D)',
          'add_position works on page 12\'s stacked-matrix form, flattening all tokens of all images into '
          'rows and tiling the table to match, and never splits the rows back into images.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens.flatten(0, 1), pos_table.repeat(batch, 1))  # (B, N, D)\n'),
    fresh('03_position', 'embedding_activated', 'activation',
          'add_position passes every sum through GELU: GELU(c_i + p_i) instead of c_i + p_i, so negative '
          'features are pushed towards 0',
          'add_position treats the embedding as a layer and ends it with the nonlinearity the MLP uses, '
          'although page 16 only adds WHAT and WHERE.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.nn.functional.gelu(torch.add(tokens, table))  # (B, N, D)\n'),
    fresh('03_position', 'positions_accumulated', 'term',
          'add_position adds the running sum of the table, p_0 + p_1 + ... + p_i, to token i instead of '
          'p_i: only row 0 gets its own vector, every later row a sum of rows',
          'add_position reads each learned row as a step from the previous position (an offset, as in '
          'relative encodings) and accumulates the steps with cumsum.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.cumsum(dim=0).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for '
          'every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'stacked_not_concatenated', 'shape',
          'prepend_cls stacks CLS and the patch tokens instead of concatenating them: the (B, 1, D) CLS '
          'block and the (B, N, D) tokens do not have the same shape, so the call fails',
          'prepend_cls uses torch.stack, taking it for "put these one after the other" as torch.cat does.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.stack((start, tokens), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_unsqueezed_in_place', 'input',
          'prepend_cls adds the two leading axes to the caller\'s CLS vector in place with unsqueeze_: the '
          'result is right, but the cls_token passed in becomes (1, 1, D) (in embed: params.cls_token '
          'itself, and a second call with it fails)',
          'prepend_cls uses unsqueeze_ to give CLS its batch and token axes without a copy.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.unsqueeze_(0).unsqueeze_(0).repeat(batch, 1, 1)  # (B, 1, D)\n'),
    fresh('04_cls', 'cls_as_blank_patch', 'part inputs',
          'embed starts row 0 with the projection bias b_E instead of the learned CLS vector: only the CLS '
          'row is wrong, b_E + p_0 instead of cls_token + p_0; the patch rows are right',
          'embed builds CLS as an extra empty patch sent through the shared projection (page 11), '
          '0 W_E + b_E = b_E, instead of the stored starting vector of page 20.',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, params.b_E)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_resized_to_224', 'shape',
          'embed resizes every image to 224 x 224 before patchify: a no-op for the lecture\'s 224 x 224 '
          'images, but other image sizes give (224/P)^2 patches, which do not fit the 1+N rows of the '
          'position table, so the call fails',
          'embed applies the checkpoint transform\'s resize (page 7: "resized and centre-cropped" to '
          '224 x 224) inside the model, as if every input had to be 224 pixels wide.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(torch.nn.functional.interpolate(images, size=(224, 224)), '
          'params.patch_size)  # (B, N, 3*P*P)\n',
          True),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'head_size_64_hardcoded', 'shape',
          'qkv_heads always splits into heads of 64 features: right for ViT-Ti\'s 192 / 3, but whenever '
          'D / H is not 64 the view to (B, N, 3, H, 64) does not fit the 3D columns and the call fails',
          'qkv_heads writes page 26\'s "each is 64 features wide" (and page 28\'s square root of 64) as the '
          'head size instead of computing D / H.',
          '    head_dim = width // num_heads\n',
          '    head_dim = 64\n',
          True),
    fresh('05_attention', 'rows_unit_length', 'term',
          'attention_weights divides each row of exponentials by its Euclidean length instead of its sum: '
          'every row has length 1 and sums to more than 1, each row the expected one times its own factor',
          'attention_weights "normalizes" the rows with the vector norm, mixing up unit length with page '
          '31\'s weights that sum to one.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.norm(dim=-1, keepdim=True)  # each row sums to 1\n'),
    fresh('05_attention', 'message_summed_over_receivers', 'axis',
          'multi_head_attention writes j as the output index of the weighted sum: token j gets '
          '(sum over i of a_ij) v_j, its own value scaled by its column sum, instead of sum over j of '
          'a_ij v_j; the output projection is right',
          'multi_head_attention writes "bhjd" for "bhid" as the result of the einsum, so it sums over the '
          'receivers i instead of the sources j.',
          '    heads = torch.einsum("bhij,bhjd->bhid", weights, v)  # (B, H, N, d): weighted sums of values\n',
          '    heads = torch.einsum("bhij,bhjd->bhjd", weights, v)  # (B, H, N, d): weighted sums of values\n'),
    fresh('05_attention', 'input_normalized_again', 'inputs',
          'multi_head_attention normalizes its (already normalized) input once more, with a LayerNorm '
          'without scale or shift, before q, k and v: the queries, keys and values are computed from '
          'LN(x) instead of x',
          'multi_head_attention follows page 26\'s q_i = LN(e_i) W_Q and normalizes x itself, not seeing '
          'that the block hands it the normalized rows already.',
          '    q, k, v = qkv_heads(x, W_qkv, b_qkv, num_heads)  # each (B, H, N, d)\n',
          '    q, k, v = qkv_heads(torch.nn.functional.layer_norm(x, (width,)), W_qkv, b_qkv, num_heads)  '
          '# each (B, H, N, d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'gain_offset_by_one', 'term',
          'layer_norm scales the normalized rows by 1 + weight instead of weight: every row is off by the '
          'normalized row itself, (x - mean) / sqrt(var + eps)',
          'layer_norm uses the "1 + gain" convention of norms whose stored scale is an offset from 1 '
          '(zero-initialized gains), which this checkpoint does not use.',
          '    return centred / torch.sqrt(spread + eps) * weight + bias  # (..., D)\n',
          '    return centred / torch.sqrt(spread + eps) * (1.0 + weight) + bias  # (..., D)\n'),
    fresh('06_block', 'residual_inside_mlp', 'term',
          'mlp adds its input to the result: it returns x + MLP(x) instead of the update MLP(x), so the '
          'block adds the normalized rows as well',
          'mlp adds the residual of page 35 itself, as an "MLP block" would, although the residual add '
          'belongs to the block.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return x + hidden @ W_2 + b_2  # (B, N, D)\n'),
    fresh('06_block', 'contraction_tied_to_expansion', 'inputs',
          'mlp contracts with the transpose of the expansion weights, W_1^T, instead of W_2: the shapes '
          'fit (4D x D) but the contraction uses the wrong weights; the expansion, GELU and b_2 are right',
          'mlp ties the two layers, W_2 = W_1^T, as in tied embeddings or autoencoders.',
          '    return hidden @ W_2 + b_2  # (B, N, D)\n',
          '    return hidden @ W_1.T + b_2  # (B, N, D)\n'),
    fresh('06_block', 'residual_averaged', 'term',
          'block averages each update with the rows instead of adding it: U = (x + MSA(LN1(x))) / 2 and '
          'E_next = (U + MLP(LN2(U))) / 2, so the result is x/4 + MSA/4 + MLP/2 (LN2 does not see the '
          'halving) instead of x + MSA + MLP',
          'block "mixes" the old rows and the update half and half, to keep the rows from growing, instead '
          'of page 34\'s plain addition.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = (stream + update(layer_norm(stream, weight, bias))) / 2  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'cls_normalized_in_place', 'input',
          'read_cls writes the normalized CLS rows back into x with copy_: the result is right, but row 0 '
          'of the caller\'s x is replaced by its final LayerNorm',
          'read_cls normalizes CLS "where it stands" in the sequence, although page 38 says selecting the '
          'row does not update it.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.copy_(encoder.layer_norm(summary, norm_weight, norm_bias)).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'negative_distance_scores', 'term',
          'classify scores each class by minus the Euclidean distance between h and the class vector w_c, '
          'plus b_c, instead of the dot product h . w_c plus b_c',
          'classify reads page 54\'s "compared with a learned weight vector for every class" as a distance '
          'between h and each class vector, as a nearest-prototype classifier does.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return b_head - torch.cdist(h, W_head.T)  # (B, 1000)\n'),
    fresh('07_head', 'first_image_scored', 'shape',
          'classify scores the first image only: the result is its (C,) logits, right, but the batch axis '
          'and every other image are gone',
          'classify writes page 54\'s s_c = h . w_c + b_c for one vector h and takes h[0], since the '
          'lecture leaves the batch axis out.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return h[0] @ W_head + b_head  # (B, 1000)\n'),
    fresh('07_head', 'final_norm_before_blocks', 'inputs',
          'vit_forward applies the final LayerNorm to the embedding before the blocks (and read_cls applies '
          'it again at the end): the blocks read LN(x) instead of x, so every logit is off',
          'vit_forward normalizes the embedded sequence first, like the "ln_pre" of CLIP-style image '
          'encoders, using the only norm ViTParams holds outside the blocks.',
          '    rows = x\n',
          '    rows = encoder.layer_norm(x, params.norm_weight, params.norm_bias)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'original_returned', 'part',
          'cover covers its copy but returns the original images: the square holds the original pixels '
          'instead of `value`; everything outside it is right (and the caller\'s images are untouched)',
          'cover returns `images` instead of `result`, the copy it has just covered.',
          '    return result\n',
          '    return images\n'),
    fresh('08_occlusion', 'logits_not_probabilities', 'activation',
          'quadrant_probabilities returns the target\'s logit for each covered image instead of its '
          'softmax probability over the classes',
          'quadrant_probabilities reads the target\'s score straight from the model output, forgetting the '
          '.softmax(-1) of page 42\'s code.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return logits[:, target]  # (4,)\n'),
    fresh('08_occlusion', 'map_in_points', 'scale',
          'occlusion_map returns the changes in percentage points: every cell is 100 times the expected '
          'probability change',
          'occlusion_map reports the changes as page 44 prints them ("P78: -3.84 points"), although the map '
          'is asked for in probability units.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (100 * (probs - base)).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
    fresh('08_occlusion', 'map_not_reshaped', 'shape',
          'occlusion_map returns the side * side changes as one flat vector, (196,) instead of (14, 14): '
          'the right values in patch order, not laid out as a grid',
          'occlusion_map returns the probability changes of the stacked covers as they come out of the '
          'batch, forgetting to arrange them row by row into the grid.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return probs - base  # row r, column c: patch P(side*r + c + 1)\n'),
]
