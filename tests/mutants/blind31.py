"""A thirty-first blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the exercise stubs and the
lecture transcript alone, WITHOUT reading the grader, the catalogue, or any other set of mistakes (so
a mistake an earlier set holds may well appear again, as a class's submissions repeat each other's).
Emphasis: the mistakes a teaching assistant sees again and again in a large class.

Files opened: tests/mutants/independent/01_flatten.py ... 08_occlusion.py (all eight, whole);
exercises/01_flatten.py ... 08_occlusion.py (all eight, whole); /work/shared/lecture/vision1-transcript.md
(whole); the [tool.ruff], [tool.ruff.lint] and [tool.ruff.lint.per-file-ignores] sections of pyproject.toml;
a grep of tests/mutants/fresh.py for the line `FRESH = [` (line 70), then tests/mutants/fresh.py printed
from line 1 to line 151. That print went past line 70 by mistake: lines 71-151 showed the first FRESH
entries (all of its 01_flatten entries and its first four 02_project entries, names, claims and edits). They
were seen before this set was written, and the set was not changed to avoid or to copy them. Directory
listings of tests/mutants/independent/ and exercises/. Nothing else in the repository was opened;
an import attempt's traceback showed one import line of tests/mutants/catalogue.py (`from grader.paths
import SOLUTIONS`), which was not opened.

Checks (throwaway scripts in /tmp/blind31work/, outside the repository): a stand-in `grader` module
(earlier_step loading the unedited independent steps from their text; dataclass stand-ins for ViTParams
and BlockParams) and a stand-in `mutants.fresh` applying each edit as Fresh.source does. Each `old` occurs
exactly once in its file. Every function of each edited step was run, original against edited, on random
inputs at the lecture's sizes (224 x 224 images, 16-pixel patches, D = 192, 3 heads, 1000 classes, 2
blocks, batch 2) and at a small size (32 x 32, 8-pixel patches, D = 24, 2 heads, 10 classes, 2 blocks,
batch 2); the occlusion functions used a stand-in classifier (4 x 4 average pooling, a random linear map,
logits of std 3) with the predicted class and with the runner-up as target. Every edit changes its
function's numbers, shape or raising at one size at least (`default_patch_size` and `three_heads_fixed`
only at the small size, as said in their structure); `in_place_add` and `no_clone` return the right values
but change their input, and are the only edits that change an input. No two entries give the same results.
Each structure statement and claim was checked numerically: the exact relation (e.g. x / 255 = (expected +
1) / 2, expected - b_E, relu(expected), sqrt(D) c + p, c - p, the CLS row rolled to the end, row 0 missing
pos_table[0], columns summing to 1, x + MLP(LN2(U)), U + MLP(LN1(U)), the raw CLS row, softmax of the
logits, only the last block applied to the embedding, quadrants in order [0, 2, 1, 3], 100 x and -1 x the
map), or equal sorted values for the `order` entries, or the size of the error for `approximate` (unbiased
variance: factor sqrt((D-1)/D) on the normalized part; tanh GELU: at most 5e-4 on the hidden values).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND31 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'stops_at_unit_range', 'scale shift',
          'normalize returns x / 255 in [0, 1], i.e. (expected + 1) / 2: half the expected value plus 0.5',
          'The student divides by 255 and stops there, reading "RGB to [0, 1]" (page 8) as the whole '
          'normalization and forgetting the "minus 0.5, divided by 0.5" that follows.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled  # [0, 1]\n'),
    fresh('01_flatten', 'reshape_without_unfold', 'order',
          'patchify reshapes the (B, 3, H, W) images straight to (B, N, 3*P*P): every value is there but '
          'a "patch" row is the next 3*P*P values in memory (whole pixel rows, mostly of one channel), '
          'not a P x P square of all three channels',
          'The student thinks a reshape to the target shape cuts the patches, and returns '
          'images.reshape(B, N, 3*P*P) without cutting the grid into squares first.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return images.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'pixel_major', 'order',
          'patchify flattens each patch pixel-major (R, G, B of pixel 1, then of pixel 2, ...) instead of '
          'channel-major: each row holds the right 3*P*P values in another order',
          'The student thinks of an image as height x width x RGB and moves the channel axis last before '
          'flattening; page 9 says pixel-major is valid only if the weights are permuted to match.',
          '    tiles = tiles.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n',
          '    tiles = tiles.permute(0, 2, 3, 4, 5, 1)  # (B, rows, cols, P, P, C)\n'),
    fresh('01_flatten', 'forgets_cls', 'term',
          'count_tokens never adds the CLS token: 196 instead of 197 for 224/16 when cls is True '
          '(right when cls is False)',
          'The student returns the number of patches, (224 / 16)^2 = 196 (page 7), and forgets that this '
          'architecture adds one CLS token (pages 48-49).',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'reshape_not_transpose', 'order',
          'conv_to_linear reshapes the (D, 3, P, P) kernel straight to (3*P*P, D): the shape is right but '
          'the weights are read in the wrong order, so column d is not kernel d',
          'The student needs a (768, 192) matrix and writes conv_weight.reshape(-1, D), believing a '
          'reshape to the right shape is the same as moving the output axis last (page 10).',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return conv_weight.reshape(-1, conv_weight.shape[0]).clone()  # (3*P*P, D)\n'),
    fresh('02_project', 'kernel_pixel_major', 'order',
          'conv_to_linear reads each kernel pixel-major (the three channel weights of each pixel '
          'together): every column holds kernel d\'s weights in another order than patchify\'s rows',
          'The student moves the channel axis of the kernel last before flattening, as for an HWC image, '
          'so W_E no longer matches the channel-major patches (page 9).',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.permute(0, 2, 3, 1).flatten(start_dim=1)  # (D, P*P*3)\n'),
    fresh('02_project', 'no_bias', 'term',
          'project leaves out b_E: every row is the expected one minus b_E',
          'The student writes the matrix product X W_E and forgets the "+ b_E" of page 12.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E)  # (B, N, D)\n'),
    fresh('02_project', 'relu_after_projection', 'activation',
          'project applies a ReLU to X W_E + b_E: the negative features become 0, the others are right',
          'The student puts a ReLU after the linear layer out of habit from MLPs, although page 10 says '
          'no activation follows the patch projection.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.relu(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'in_place_add', 'input',
          'add_position adds the table into the caller\'s tokens in place and returns them: the values '
          'are right, but the tokens passed in are changed too',
          'The student writes tokens += pos_table to save memory, not knowing it overwrites the tensor '
          'the caller still holds.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return tokens.add_(table)  # (B, N, D)\n'),
    fresh('03_position', 'concatenated', 'shape',
          'add_position concatenates content and position along the features: (B, N, 2D) instead of '
          '(B, N, D)',
          'The student joins WHAT and WHERE side by side with torch.cat, though page 16 says they are '
          'added coordinate by coordinate and the width stays 192.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat((tokens, table), dim=-1)  # (B, N, 2D)\n'),
    fresh('03_position', 'scaled_by_sqrt_d', 'term',
          'add_position multiplies the content tokens by sqrt(D) before adding the table: '
          'sqrt(D) * c_i + p_i instead of c_i + p_i (13.86 c_i at D = 192)',
          'The student remembers from the original Transformer that token embeddings are multiplied by '
          'sqrt(d_model) before the position is added, and does it here too.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens * tokens.shape[-1] ** 0.5, table)  # (B, N, D)\n'),
    fresh('03_position', 'subtracted', 'sign',
          'add_position subtracts the table: c_i - p_i instead of c_i + p_i',
          'The student reaches for torch.sub instead of torch.add while rewriting the sum with explicit '
          'torch calls.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.sub(tokens, table)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_appended', 'order',
          'prepend_cls puts CLS after the patch tokens: row N is CLS and rows 0..N-1 are P1..PN, the '
          'right rows in another order',
          'The student concatenates (tokens, cls) in reading order "patches, then the extra token", '
          'although CLS sits at index 0 (pages 20, 52).',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'cls_not_repeated', 'shape',
          'prepend_cls gives CLS the shape (1, 1, D) without copying it over the batch: torch.cat fails '
          'for a batch of more than one image',
          'The student reshapes the CLS vector to (1, 1, D) and expects torch.cat to broadcast it over '
          'the batch, as addition would; it works only when testing with one image.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width)  # (1, 1, D), broadcast over the batch\n'),
    fresh('04_cls', 'position_before_cls', 'part term',
          'embed adds position rows 1..N to the patch tokens and then prepends CLS without its position '
          'vector: row 0 is cls_token instead of cls_token + pos_table[0], rows 1..N are right',
          'The student adds position to the patches first and prepends CLS afterwards, taking '
          'pos_table[1:] so that the shapes fit; page 23 adds position after CLS is in place.',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return prepend_cls(position.add_position(content, params.pos_table[1:]), params.cls_token)\n'),
    fresh('04_cls', 'default_patch_size', 'shape',
          'embed calls patchify without params.patch_size, so 16-pixel patches are cut whatever the '
          'model: right for P = 16, a shape failure for 8-pixel patches',
          'The student calls flatten.patchify(images) and relies on its default of 16, the lecture\'s '
          'patch size, instead of reading the size from params.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_interleaved_per_head', 'order',
          'qkv_heads reads the 3D output columns as [q1 k1 v1 | q2 k2 v2 | ...], head by head, instead of '
          '[q | k | v]: q, k and v hold the right columns of the product, in another order',
          'The student copies the head-major qkv layout of another codebase, viewing (B, N, H, 3, d), '
          'although the stub says the first D columns are q, the next D k, the last D v.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(batch, count, num_heads, 3, head_dim).transpose(2, 3)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'no_sqrt_d', 'term',
          'attention_weights leaves out the division by sqrt(d): softmax(q k) instead of softmax(q k / 8) '
          'for d = 64, so the weights are too peaked',
          'The student writes the softmax of the dot products and forgets the / sqrt(64) of page 28.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k)  # (B, H, N, N)\n'),
    fresh('05_attention', 'softmax_over_queries', 'axis',
          'attention_weights takes the softmax over dim 2, the query axis: each column sums to 1 instead '
          'of each row',
          'The student calls torch.softmax(scores, dim=2), thinking of axis 2 as "the keys", but in '
          '(B, H, N, N) the keys are axis 3; page 31 normalizes each receiver\'s row.',
          '    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n',
          '    return torch.softmax(scores, dim=2)  # over the keys\n'),
    fresh('05_attention', 'heads_joined_without_permute', 'order',
          'multi_head_attention reshapes (B, H, N, d) to (B, N, H*d) without moving the head axis: a '
          'joined row holds pieces of several tokens of one head instead of one token\'s H messages',
          'The student reshapes the heads straight to (B, N, D), believing reshape "joins the heads side '
          'by side" (page 32) as a permute-then-reshape would.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.reshape(batch, count, width)  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'unbiased_variance', 'approximate',
          'layer_norm divides by the unbiased variance (D - 1 in the denominator): the normalized part '
          '(before weight and bias) is sqrt((D-1)/D) times the expected one, 0.26 % smaller at D = 192, '
          '2.1 % at D = 24; with unit weight and zero bias the whole result is that factor times the expected',
          'The student uses x.var(dim=-1), whose default is the unbiased estimate, although the stub asks '
          'for the biased one.',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = x.var(dim=-1, keepdim=True)  # (..., 1): the variance\n'),
    fresh('06_block', 'tanh_gelu', 'activation approximate',
          'mlp uses the tanh approximation of GELU instead of the exact erf form: the hidden activations '
          'differ by at most about 5e-4',
          'The student calls F.gelu(..., approximate="tanh") because GPT-2 code uses it; the stub warns '
          'that it is close but not close enough.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.nn.functional.gelu(hidden, approximate="tanh")  # z·Φ(z), fast form\n'),
    fresh('06_block', 'mlp_residual_on_x', 'term inputs',
          'block adds each update to the block\'s input x instead of the running stream: the output is '
          'x + MLP(LN(U)), the attention update MSA(LN(x)) is lost',
          'The student writes the residual as "x + update" in the loop, as for one sublayer, although '
          'page 35 adds the MLP update to the attention-updated rows U.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = x + update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'ln1_twice', 'term',
          'block normalizes the MLP input with LN1\'s weight and bias instead of LN2\'s',
          'The student copies the attention sublayer\'s entry for the MLP and forgets to change ln1 to '
          'ln2; each LayerNorm has its own parameters.',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln2_weight, p.ln2_bias)]\n',
          '    sublayers = [(attend, p.ln1_weight, p.ln1_bias), (feed, p.ln1_weight, p.ln1_bias)]\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'no_final_norm', 'term',
          'read_cls returns the raw final CLS row without the final LayerNorm',
          'The student selects token 0 and forgets norm(x) of page 52, since page 38\'s diagram leaves '
          'the normalization out.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return summary.squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'softmax_in_head', 'activation',
          'classify returns softmax probabilities instead of logits: each row sums to 1',
          'The student ends the head with a softmax, since page 39 shows probabilities after the head; '
          'page 52 returns unnormalized scores.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.softmax(torch.addmm(b_head, h, W_head), dim=-1)  # (B, 1000)\n'),
    fresh('07_head', 'every_block_reads_embedding', 'inputs',
          'vit_forward feeds every block the embedded sequence x instead of the previous block\'s output: '
          'only the last block counts, the blocks are not chained',
          'The student writes rows = block(x, layer, ...) in the loop, so each block restarts from the '
          'embeddings instead of reading the states of the block before it (page 36).',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(x, layer, params.num_heads)  # (B, 197, D)\n'),
    fresh('07_head', 'three_heads_fixed', 'term',
          'vit_forward passes 3 heads to every block whatever params.num_heads is: right for the lecture\'s '
          '3 heads, wrong for a model with another head count (e.g. 2 heads of 12 at D = 24 are split '
          'into 3 heads of 8)',
          'The student writes the lecture\'s ViT-Tiny head count in, instead of reading it from params.',
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '        rows = encoder.block(rows, layer, 3)  # (B, 197, D)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'no_clone', 'input',
          'cover writes the square into the caller\'s images (detach shares the memory): its result is '
          'right, but the original images are covered too and every "copy" is the same storage, so covers '
          'pile up: quadrant_probabilities gets four times the fully covered image (four equal values), '
          'and occlusion_map is all zeros',
          'The student calls images.detach() believing it makes a copy, and leaves out the clone() of '
          'page 42.',
          '    result = images.detach().clone()  # the caller\'s images stay as they were\n',
          '    result = images.detach()  # detached from the graph\n'),
    fresh('08_occlusion', 'quadrants_column_first', 'order',
          'quadrant_probabilities covers the quarters in the order TL, BL, TR, BR: the TR and BL '
          'probabilities are swapped',
          'The student loops over the left edge outside and the top edge inside, walking the quarters '
          'down each column instead of along each row.',
          '    batch = torch.cat([cover(image, top, left, half_h) for top in (0, half_h) for left in (0, half_w)])\n',
          '    batch = torch.cat([cover(image, top, left, half_h) for left in (0, half_w) for top in (0, half_h)])\n'),
    fresh('08_occlusion', 'percentage_points', 'scale',
          'occlusion_map returns the change in percentage points: 100 times the expected map',
          'The student multiplies by 100 to match the "points" of pages 43-44, although the stub asks '
          'for probability units.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return 100 * (probs - base).view(side, side)  # percentage points\n'),
    fresh('08_occlusion', 'original_minus_covered', 'sign scale',
          'occlusion_map returns original minus covered probability: the expected map times -1, positive '
          'where covering hurts',
          'The student computes the "drop" as before minus after, since the lecture speaks of drops '
          '(pages 43-44), while the stub asks for covered minus original.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (base - probs).view(side, side)  # the drop\n'),
]
