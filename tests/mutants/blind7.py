"""A seventh blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes; only the format of tests/mutants/fresh.py (its `fresh` helper and
CLAIMS) and of tests/mutants/blind.py ... blind6.py was followed, and none of their mistakes is
repeated. Four mistakes per step, spread over the step's functions, each an edit of one line (or one
expression) that changes the numbers of its function on typical inputs (or makes the call fail, does
not raise the promised error, or changes its input in place), with what is really wrong (`structure`)
and the kinds of structure its error truly has (`claims`, keys of CLAIMS).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND7 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'standardized', 'scale shift',
          'normalize standardizes the whole tensor with its own mean and standard deviation instead of '
          'mapping 0..255 to [-1, 1]: the result is the expected one times 1 / (2 std) plus one constant, '
          'both depending on the images (about 1.7 e + 0 for uniform noise, a range of about [-1.7, 1.7])',
          'normalize "normalizes" the data as in a statistics course, (x - mean) / std, after scaling to '
          '[0, 1].',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled - scaled.mean()) / scaled.std()  # [-1, 1]\n'),
    fresh('01_flatten', 'channels_last_unpacked', 'shape',
          'patchify unpacks the image shape as (B, H, W, C): H is taken to be 3 and C to be the width, so '
          'the final reshape asks for (B, 0, 224*P*P) and the call fails for (B, 3, H, W) images',
          'patchify unpacks images.shape in the channels-last order of NumPy / PIL / TensorFlow images.',
          '    B, C, H, W = images.shape\n',
          '    B, H, W, C = images.shape\n'),
    fresh('01_flatten', 'unfold_layout', 'shape order',
          'patchify returns (B, 3*P*P, N) instead of (B, N, 3*P*P), reshaping the right patch-major values '
          'into that shape (not transposing them): each image holds the right values, in another shape and '
          'order',
          'patchify gives its result the layout of F.unfold, features first and patches last, by reshaping '
          'to (B, C*P*P, N).',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, C * P * P, (H // P) * (W // P))  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'conditional_precedence', 'term',
          'count_tokens writes the CLS term as `+ 1 if cls else 0` without parentheses: Python reads the '
          'whole sum as the conditional\'s value, so cls=False returns 0 instead of the patch count (196 for '
          '224 and 16); with cls=True the count is right and the guard still raises',
          'count_tokens drops the parentheses around the conditional expression.',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side + 1 if cls else 0\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'conv_axes_in_out', 'shape',
          'conv_to_linear swaps the kernel\'s first two axes before flattening, so the channels come first '
          'and the result is (D*P*P, 3) instead of (3*P*P, D): it no longer fits the patch rows',
          'conv_to_linear believes a Conv2d kernel is stored (in, out, P, P), as a ConvTranspose2d kernel is, '
          'and swaps the axes to put the output channel first.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.transpose(0, 1).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'elementwise_product', 'shape',
          'project multiplies the patches by W_E element by element (*) instead of the matrix product: '
          '(B, N, 3*P*P) and (3*P*P, D) do not broadcast (N != 3*P*P, 3*P*P != D) and the call fails',
          'project writes X W_E with * as in the formula\'s juxtaposition, instead of @.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return patches * W_E + b_E  # (B, N, D)\n'),
    fresh('02_project', 'bias_before_weights', 'shape',
          'project adds b_E to the patch rows before the product, (X + b_E) W_E: b_E has D = 192 entries, '
          'the rows 3*P*P = 768, so the shapes do not fit and the call fails',
          'project writes the affine map in the wrong order of operations, adding the bias first.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches + b_E, W_E)  # (B, N, D)\n'),
    fresh('02_project', 'pixels_rescaled', 'scale shift',
          'project divides the (already normalized) patch values by 255 before the product: X W_E / 255 + '
          'b_E, which is the expected result divided by 255 plus the same row b_E (1 - 1/255) for every patch',
          'project scales "the 768 pixel values" to [0, 1] as in image tutorials, not seeing that they are '
          'normalized already.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches / 255, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'sinusoidal_table', 'term inputs',
          'add_position ignores the learned table and adds a fixed sinusoidal code of the token index, '
          'sin(i / 10000^(j/D)) for token i and feature j: the position term is replaced by another one',
          'add_position uses the sinusoidal position encoding of the original Transformer, carried over from '
          'the text lectures, instead of the checkpoint\'s learned table.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = torch.sin(torch.arange(tokens.shape[1]).unsqueeze(1) / 10000 ** (torch.arange(tokens.shape[2]) '
          '/ tokens.shape[2])).unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'slice_colon_slip', 'shape',
          'add_position slices the table as pos_table[N:] instead of pos_table[:N]: it keeps no row at all, '
          'and a (B, 0, D) table does not fit the (B, N, D) tokens, so the call fails',
          'add_position cuts the table to the number of tokens "to be safe" and puts the colon on the wrong '
          'side.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[tokens.shape[1]:].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'repeat_as_expand', 'shape',
          'add_position gives Tensor.repeat the target sizes (B, N, D) as if it were expand: repeat takes '
          'counts, so the table becomes (B, N*N, D*D) and the call fails',
          'add_position switches from expand to repeat to get a real copy, keeping expand\'s sizes.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(0).repeat(batch, tokens.shape[1], tokens.shape[2])  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'leading_axis_slice', 'shape',
          'add_position slices the table as pos_table[:, 1:], the code for a (1, N, D) table that drops its '
          'first row; on the (N, D) table it drops the first feature instead, and (B, N, D-1) does not fit '
          'the tokens, so the call fails',
          'add_position copies `pos_embed[:, 1:]` from library code, where the table has a leading batch axis.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:, 1:].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_expanded_as_tokens', 'shape',
          'prepend_cls expands CLS to the shape of all the patch tokens, (B, N, D), instead of one row per '
          'image, so the result is (B, 2N, D): N copies of CLS, then the patches',
          'prepend_cls writes cls_token.expand_as(tokens) to give every image its copy.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.expand_as(tokens)  # (B, 1, D)\n'),
    fresh('04_cls', 'width_from_token_axis', 'shape',
          'prepend_cls reads the width from axis 1, the token count (196), instead of axis 2: the D-wide '
          'CLS vector cannot be reshaped to (1, 1, N), so the call fails',
          'prepend_cls takes the first two sizes of (B, N, D) as batch and width.',
          '    batch, _, width = tokens.shape\n',
          '    batch, width = tokens.shape[:2]\n'),
    fresh('04_cls', 'cls_as_patch_bias', 'part inputs term',
          'embed passes the CLS vector as the projection\'s bias instead of b_E: every patch row is off by '
          'the same vector cls_token - b_E; the CLS row is right',
          'embed picks the wrong one of the (D,) fields of params for project\'s bias.',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.cls_token)  # (B, N, D)\n'),
    fresh('04_cls', 'table_cut_to_patches', 'shape',
          'embed cuts the position table to the N patch rows, (H/P) * (W/P) = 196, forgetting the CLS row: '
          '196 rows do not fit the 197 tokens of the sequence, so the call fails',
          'embed computes N from the image and the patch size and slices pos_table[:N] for the sequence.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return position.add_position(sequence, params.pos_table[:(images.shape[-2] // params.patch_size) * (images.shape[-1] // params.patch_size)])  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'head_dim_true_division', 'shape',
          'qkv_heads divides the width by the number of heads with /, so d is a float (64.0) and the view '
          'into (B, N, 3, H, d) fails',
          'qkv_heads writes d = D / H as in the lecture.',
          '    head_dim = width // num_heads\n',
          '    head_dim = width / num_heads\n'),
    fresh('05_attention', 'query_against_queries', 'inputs',
          'attention_weights scores every query against the other queries, q_i . q_j, instead of against '
          'the keys: the weights are a row softmax of the wrong (symmetric) score matrix',
          'attention_weights types q twice in the einsum.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, q) / math.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'softmax_not_normalized', 'term',
          'attention_weights returns the exponentials exp(s_ij - max_j s_ij) without dividing by their row '
          'sum: each row\'s largest weight is 1 and the rows do not sum to one',
          'attention_weights stops after the exponential, forgetting the softmax\'s denominator.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights  # each row sums to 1\n'),
    fresh('05_attention', 'output_bias_before_projection', 'shift term',
          'multi_head_attention adds b_o to the joined heads before the output projection, (H + b_o) W_o '
          'instead of H W_o + b_o: every row is off by the same vector b_o W_o - b_o',
          'multi_head_attention adds the bias first, in the wrong order of operations.',
          '    return torch.addmm(b_o, joined.reshape(-1, width), W_o).view(batch, count, width)  # (B, N, D)\n',
          '    return torch.mm(joined.reshape(-1, width) + b_o, W_o).view(batch, count, width)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_summed', 'term',
          'layer_norm sums the squared deviations instead of averaging them: it divides by sqrt(D var + eps) '
          'instead of sqrt(var + eps), so the normalized part is about 1 / sqrt(D) of the right one before '
          'the scale and shift',
          'layer_norm uses sum where the variance needs mean, the wrong reduction.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).sum(dim=-1, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'tanh_gelu', 'activation approximate',
          'mlp uses the tanh approximation of GELU instead of the exact z Phi(z): the hidden values differ by '
          'up to about 5e-4, the output by a little',
          'mlp calls F.gelu(approximate="tanh"), the variant of GPT-2 code, taking it for the same function.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.nn.functional.gelu(hidden, approximate="tanh")  # z·Φ(z)\n'),
    fresh('06_block', 'return_in_loop', 'term',
          'block returns from inside its loop over the two sublayers, after the first one: the result is '
          'U = x + MSA(LN1(x)), the MLP update is missing',
          'block indents the return one level too deep, into the for loop.',
          '    return stream\n',
          '        return stream\n'),
    fresh('06_block', 'attention_reads_raw_input', 'inputs',
          'block\'s attention sublayer reads the block input x instead of the rows it is given, LN1(x): the '
          'attention update is MSA(x), computed from unnormalized rows; the residual add and the MLP sublayer '
          'are right',
          'block\'s inner attend function refers to the enclosing x instead of its own argument rows.',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(x, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'patches_read', 'shape inputs',
          'read_cls slices x[:, 1:] instead of x[:, :1]: it normalizes and returns all the patch rows, '
          '(B, N, D) without CLS, instead of the (B, D) CLS rows',
          'read_cls puts the colon on the wrong side of the 1.',
          '    summary = x[:, :1]  # (B, 1, D): CLS only\n',
          '    summary = x[:, 1:]  # (B, 1, D): CLS only\n'),
    fresh('07_head', 'head_bias_twice', 'shift term',
          'classify adds b_head again to the result of addmm, which already includes it: every row of '
          'logits is off by b_head',
          'classify believes addmm only multiplies and adds the bias itself.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head) + b_head  # (B, 1000)\n'),
    fresh('07_head', 'unit_length_summary', 'inputs',
          'classify scales every image\'s CLS vector to unit length before the head: each image\'s '
          'product h W_head is divided by its own |h| (b_head is right)',
          'classify normalizes h as for the cosine similarities of retrieval (and CLIP), taking the head for '
          'a comparison of directions.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, torch.nn.functional.normalize(h, dim=-1), W_head)  # (B, 1000)\n'),
    fresh('07_head', 'blocks_reversed', 'order inputs',
          'vit_forward runs the blocks from the last to the first: the first block applied has the last '
          'block\'s parameters and so on, each block\'s own parameters in the reverse order (right only with '
          'a single block)',
          'vit_forward loops over reversed(params.blocks), taking the list for a stack whose top is block 1.',
          '    for layer in params.blocks:\n',
          '    for layer in reversed(params.blocks):\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'caller_images_covered', 'input part',
          'cover writes the square into the caller\'s images instead of into the copy: the copy it returns is '
          'not covered at all, and the images passed in are (covers pile up there)',
          'cover indexes `images` instead of `result` on the line that fills the square.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    images[:, :, top:top + size, left:left + size] = value\n'),
    fresh('08_occlusion', 'quarter_of_side', 'inputs',
          'quadrant_probabilities covers squares of a quarter of the side (56 x 56 at 0 and 56) instead of '
          'the four quarters of the image (112 x 112 at 0 and 112): the four covers all lie in the top-left '
          'quarter, and every probability is of the wrongly covered image',
          'quadrant_probabilities takes "a quarter" for a quarter of the side and divides by 4.',
          '    half_h, half_w = height // 2, width // 2\n',
          '    half_h, half_w = height // 4, width // 4\n'),
    fresh('08_occlusion', 'class_one_based', 'inputs',
          'quadrant_probabilities reads column target - 1 of the probabilities: the covered images\' '
          'probability of the class before the target, not of the target',
          'quadrant_probabilities takes the class number for one-based, as the lecture numbers patches P1..P196.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, target - 1]  # (4,)\n'),
    fresh('08_occlusion', 'grid_from_one', 'order',
          'occlusion_map numbers the grid from 1 to side: cell (r, c) covers the patch at grid row r+1, '
          'column c+1, so the map is shifted one patch up and left, and the last row and column (covers past '
          'the image edge, which cover nothing) are 0',
          'occlusion_map counts patch rows and columns from one, as the lecture numbers patches P1..P196.',
          'for row in range(side) for col in range(side)',
          'for row in range(1, side + 1) for col in range(1, side + 1)'),
]
