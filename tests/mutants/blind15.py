"""A fifteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/*.py), the student stubs
(exercises/*.py) and the lecture transcript (../shared/lecture/vision1-transcript.md) alone, without
reading the grader's diagnosis, the catalogue or any other set of mistakes beyond what was needed to
follow the format and avoid repeats. Besides those sources, only these were seen: tests/mutants/fresh.py
up to and including its line `FRESH = [` (the CLAIMS vocabulary, the `Fresh` class and the `fresh`
helper), tests/mutants/blind.py ... blind14.py (read in full, to follow their format and to leave out
every mistake they already hold), and the one line of pyproject.toml that sets the line length. Listing
the directories showed the names of tests/mutants/catalogue.py, novel.py and unseen.py and of the files
under tests/, but none of them was opened. The throwaway check script (outside the repository) did not
import mutants.fresh (whose catalogue import needs the grader package): it used a stand-in `fresh` with
the semantics of the `Fresh` class above, a copy of the CLAIMS dictionary, and a stand-in `grader` module
providing `earlier_step` over the independent implementation. Nothing under grader/ was opened, imported
or run, and no docs, solutions, fixtures, other tests or other mutant sets (blind16.py included) were
opened.

Four mistakes per step, spread over the step's functions, each an edit of one line (or one expression)
that changes the numbers of its function on typical inputs (or makes the call fail, or returns the
wrong shape), with what is really wrong (`structure`) and the kinds of structure its error truly has
(`claims`). The two marked hidden=True are right at the lecture's sizes (197 tokens of 192 features,
1,000 classes) and only a test with other sizes can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND15 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'gamma_linearized', 'activation',
          'normalize raises the [0, 1] values to the power 2.2 before mapping them to [-1, 1]: '
          '2 (x / 255)^2.2 - 1 instead of 2 x / 255 - 1, so black and white are right (-1 and 1) but every '
          'value in between is too dark (128 gives about -0.56 instead of 0.004)',
          'normalize first "linearizes" the sRGB bytes with a gamma of 2.2, as colour-correct image code '
          'does, before page 8\'s "RGB to [0, 1], subtract 0.5, divide by 0.5", which expects the stored '
          'values as they are.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = (pixels.float() / 255.0) ** 2.2  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'normalized_inside_patchify', 'scale shift',
          'patchify passes the images through normalize before cutting them: every (already normalized) '
          'value v comes out as v / 127.5 - 1, the expected patch values times 1/127.5 minus 1, each in its '
          'right place',
          'patchify reads the step\'s "normalize the pixels, cut the image into patches" (and page 8\'s '
          '"before projection, use the checkpoint normalization") as a chain it must run itself, not seeing '
          'that its input is normalized already.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = normalize(images).unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'channel_blocks_kept_apart', 'shape',
          'patchify reshapes to (B, N, 3, P*P) instead of (B, N, 3*P*P): every patch holds its right values '
          'in the right order, but its three channel blocks stay on an axis of their own (e.g. '
          '(B, 196, 3, 256) instead of (B, 196, 768))',
          'patchify follows page 9\'s "flatten one channel at a time: R, then G, then B", flattening each '
          'channel\'s 16 x 16 values on its own, and forgets the last step, joining the three blocks into '
          'one row of 768.',
          '    return tiles.reshape(B, (H // P) * (W // P), C * P * P)  # (B, N, C*P*P)\n',
          '    return tiles.reshape(B, (H // P) * (W // P), C, P * P)  # (B, N, C*P*P)\n'),
    fresh('01_flatten', 'cls_condition_inverted', 'term',
          'count_tokens has the branches of the CLS conditional swapped, (0 if cls else 1): it adds CLS '
          'only when CLS is not asked for, 196 instead of 197 for 224 and 16, and 197 instead of 196 with '
          'cls=False; the divisibility check still raises',
          'count_tokens writes the conditional expression with its two values the wrong way round, '
          'reading `a if c else b` as "a unless c".',
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return per_side * per_side + (0 if cls else 1)\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'kernel_quarter_turn', 'order',
          'conv_to_linear rotates every P x P kernel by a quarter turn (torch.rot90, counter-clockwise) '
          'before flattening: W_E holds the right weights with its rows permuted inside each channel block '
          '(the weight of kernel pixel (r, c) sits where patchify puts pixel (P-1-c, r)), so it no longer '
          'matches patchify\'s rows',
          'conv_to_linear turns the kernels by 180 degrees, remembering that a true convolution flips its '
          'kernel, with torch.rot90, whose default k=1 is a single quarter turn.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = torch.rot90(conv_weight, dims=(2, 3)).flatten(start_dim=1)  # (D, 3*P*P), channel-major '
          'like patchify\n'),
    fresh('02_project', 'kernels_joined_end_to_end', 'shape',
          'conv_to_linear joins the D flattened kernels with torch.cat, end to end, into one vector of '
          'D*3*P*P values instead of setting them side by side as the D columns of a (3*P*P, D) matrix',
          'conv_to_linear builds "column d of W_E is kernel d" by joining the kernels with torch.cat, taking '
          'it for torch.stack(..., dim=1).',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return torch.cat(list(flat))  # (3*P*P, D)\n'),
    fresh('02_project', 'conv_feature_map_layout', 'shape',
          'project returns the content as a grid, (B, r, N / r, D) with r = int(sqrt(N)) (e.g. '
          '(B, 14, 14, 192)), instead of the (B, N, D) sequence: the right values in patch order, with the '
          'patch axis split into grid rows and columns (the call fails when N is not a multiple of r)',
          'project hands back what the Conv2d patch embedding of page 53\'s implementation lab gives, a '
          '14 x 14 map of 192 features (channels last), instead of the token rows of page 12.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return (torch.einsum("bnk,kd->bnd", patches, W_E) + b_E).unflatten(1, (int(patches.shape[1] '
          '** 0.5), -1))  # (B, N, D)\n'),
    fresh('02_project', 'batchnorm_after_projection', 'term',
          'project passes X W_E + b_E through torch.nn.functional.batch_norm in training mode, which takes '
          'axis 1, the N patch positions, for its channels: every patch position is standardized to mean 0 '
          'and variance 1 over all the images and all D features, instead of being X W_E + b_E',
          'project follows the convolution with a BatchNorm, as CNN stems (ResNet) do after their first '
          'Conv2d, since the checkpoint stores W_E as a Conv2d kernel (page 53); this checkpoint has none.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.functional.batch_norm(torch.einsum("bnk,kd->bnd", patches, W_E) + b_E, None, '
          'None, training=True)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'table_cut_on_feature_axis', 'shape',
          'add_position cuts the table with pos_table[:, :N], the first N features, instead of the first N '
          'rows: at the lecture\'s sizes (197 tokens, 192 features) it keeps the whole table and is right, '
          'but whenever there are fewer tokens than features the (B, N, N) table does not fit the (B, N, D) '
          'tokens and the call fails',
          'add_position cuts the table to the length of the sequence, in case the checkpoint stores more '
          'positions than there are tokens, and puts the slice on the second axis.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table[:, :tokens.shape[1]].unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one '
          'table for every image\n',
          True),
    fresh('03_position', 'expand_given_repeat_counts', 'shape',
          'add_position gives expand the repeat counts (B, 1, 1), as for Tensor.repeat: expand takes target '
          'sizes, a (1, N, D) table cannot be expanded to (B, 1, 1), and the call fails',
          'add_position asks for "B copies of one table" with the counts it would give to repeat, taking '
          'expand and repeat for the same call with the same arguments.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(0).expand(batch, 1, 1)  # (B, N, D): one table for every image\n'),
    fresh('03_position', 'learned_table_taken_for_angles', 'activation term',
          'add_position adds sin(p_i), the sine of every learned position value, instead of p_i: the '
          'position term is replaced by the sine of the table (close to p_i only where its values are '
          'small); the content is right',
          'add_position mixes the learned table up with the sinusoidal encoding of the original '
          'Transformer, taking the stored rows for the angles of the sinusoids and applying sin to them.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.sin().unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every '
          'image\n'),
    fresh('03_position', 'content_normalized_first', 'inputs',
          'add_position normalizes every content row with a LayerNorm (no scale, no shift) before adding '
          'its position vector: LN(c_i) + p_i instead of c_i + p_i; the position term is right',
          'add_position puts WHAT on a common scale before adding WHERE (page 16), so that neither outweighs '
          'the other, normalizing the content rows as the encoder normalizes its rows (page 24).',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(torch.nn.functional.layer_norm(tokens, tokens.shape[-1:]), table)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'repeat_given_one_count', 'shape',
          'prepend_cls calls repeat(batch) with a single count on the (1, 1, D) CLS row: repeat needs a count '
          'for every axis of the tensor, so the call fails',
          'prepend_cls asks for "batch copies" with repeat(batch), as repeat (like numpy.tile) takes a single '
          'count for a vector, forgetting that the CLS row now has three axes.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, width).repeat(batch)  # (B, 1, D)\n'),
    fresh('04_cls', 'size_method_unpacked', 'shape',
          'prepend_cls unpacks tokens.size, the method, instead of tokens.shape or tokens.size(): a method '
          'cannot be unpacked, so the call fails with a TypeError',
          'prepend_cls mixes up the attribute shape and the method size(), writing tokens.size without the '
          'call, as NumPy\'s .size is an attribute.',
          '    batch, _, width = tokens.shape\n',
          '    batch, _, width = tokens.size\n'),
    fresh('04_cls', 'images_taken_for_channels_last', 'shape',
          'embed permutes the images as if they were (B, H, W, 3): a (B, 3, H, W) batch becomes (B, W, 3, H), '
          'patchify reads W for the channels and 3 for the height, and the call fails',
          'embed converts the images from the channels-last layout of PIL and NumPy images to PyTorch\'s '
          'channels-first with permute(0, 3, 1, 2), not seeing that they are (B, 3, H, W) already.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(images.permute(0, 3, 1, 2), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'position_for_cls_only', 'part term',
          'embed adds the position table\'s row 0 to the CLS row only and leaves every patch row without '
          'its position vector: row 0 is right, each patch row i is off by -pos_table[i]',
          'embed reads page 16\'s "the CLS position is added when CLS is included" as the only position to '
          'add at this step, believing the patch rows carry their location already (page 15: "the picture '
          'itself may offer clues about location").',
          '    return position.add_position(sequence, params.pos_table)  # (B, 1+N, D)\n',
          '    return torch.cat((position.add_position(sequence[:, :1], params.pos_table[:1]), sequence[:, 1:]), '
          'dim=1)  # (B, 1+N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'qkv_axis_first_in_view', 'order',
          'qkv_heads views the (B*N, 3D) product as (3, B, N, H, d) and moves that first axis to the middle: '
          'q is read from the first third of the product\'s memory (the q, k and v vectors of the first '
          'third of the token rows, one after another), k from the second third, v from the last, so q, k '
          'and v hold the right values in another order, mixed between tokens, images and the three roles',
          'qkv_heads copies the "three first" of timm\'s qkv.reshape(B, N, 3, H, d).permute(2, 0, 3, 1, 4) '
          'but writes the 3 first in the view itself, then permutes back to (B, N, 3, H, d) for the indexing '
          'that follows.',
          '    mixed = mixed.view(batch, count, 3, num_heads, head_dim)  # (B, N, 3, H, d)\n',
          '    mixed = mixed.view(3, batch, count, num_heads, head_dim).permute(1, 2, 0, 3, 4)  # (B, N, 3, H, d)\n'),
    fresh('05_attention', 'boltzmann_weights', 'sign',
          'attention_weights exponentiates minus the scores: every row is softmax(-q . k / sqrt(d)), so the '
          'keys that match a query worst get the largest weights (each row still sums to 1)',
          'attention_weights writes the weights as Boltzmann factors exp(-E), as in physics and energy-based '
          'models, taking the scores for energies.',
          '    weights = scores.exp()  # (B, H, N, N)\n',
          '    weights = (-scores).exp()  # (B, H, N, N)\n'),
    fresh('05_attention', 'torch_sqrt_of_int', 'shape',
          'attention_weights calls torch.sqrt on the head size, a Python int: torch.sqrt accepts tensors '
          'only, so the call fails with a TypeError',
          'attention_weights replaces math.sqrt by torch.sqrt, believing every function of a PyTorch model '
          'should come from torch.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / torch.sqrt(head_dim)  # (B, H, N, N)\n'),
    fresh('05_attention', 'heads_averaged_when_joined', 'scale shift',
          'multi_head_attention divides the joined messages by the number of heads before the output '
          'projection: (J W_o) / H + b_o instead of J W_o + b_o, i.e. the expected update times 1/H plus the '
          'same row b_o (1 - 1/H) for every token',
          'multi_head_attention averages the heads when it joins them, as graph attention networks average '
          'their heads, instead of only setting the messages side by side (page 32).',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width) / num_heads  # (B, N, H*d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'var_mean_order_mixed_up', 'term',
          'layer_norm centres each row on its (unbiased) variance instead of its mean: torch.var_mean '
          'returns (variance, mean) and index 0 is the variance; the spread is then the mean square of '
          'x - var, var + (mean - var)^2, so every row is shifted and scaled by its own wrong amounts',
          'layer_norm takes the mean from torch.var_mean with [0], assuming the two outputs come in the '
          'textbook order "mean, variance".',
          '    centred = x - x.mean(dim=-1, keepdim=True)  # (..., D)\n',
          '    centred = x - torch.var_mean(x, dim=-1, keepdim=True)[0]  # (..., D)\n'),
    fresh('06_block', 'erf_divided_outside', 'activation',
          'mlp computes 0.5 z (1 + erf(z) / sqrt 2) instead of 0.5 z (1 + erf(z / sqrt 2)): the division by '
          'sqrt 2 applies to erf(z), not to its argument, so GELU is replaced by another curve (large '
          'positive z give about 0.85 z instead of z, large negative z about 0.15 z instead of 0)',
          'mlp closes the parenthesis of torch.erf one step too early, dividing erf(z) by sqrt 2 instead '
          'of z.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden) / math.sqrt(2.0))  # z·Φ(z)\n'),
    fresh('06_block', 'multihead_tuple_habit', 'part',
          'block takes [0] of the attention update, as if multi_head_attention returned (output, weights): '
          'that is the (N, D) update of image 0, added to the rows of every image; image 0 is right, every '
          'other image gets image 0\'s attention update (and its MLP reads those rows); a batch of one is '
          'right',
          'block indexes the attention output with [0], the habit from torch.nn.MultiheadAttention, which '
          'returns the pair (attn_output, attn_weights).',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)\n',
          '        return attention.multi_head_attention(rows, p.W_qkv, p.b_qkv, p.W_o, p.b_o, num_heads)[0]\n'),
    fresh('06_block', 'stream_started_from_zero', 'inputs term',
          'block starts the residual stream from zeros instead of x: the incoming rows are never read, LN1 '
          'of the zero rows is ln1_bias for every token, both updates are computed from identical rows, '
          'and the block returns one and the same row for every token of every image (the two updates, '
          'without x)',
          'block collects the two updates in a running sum started at zero, as one starts a total at 0, '
          'forgetting that the residual stream starts from the incoming rows (page 34: U = E + MSA(LN(E))).',
          '    stream = x  # (B, N, D)\n',
          '    stream = torch.zeros_like(x)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'batch_axis_squeezed', 'shape',
          'read_cls calls squeeze() without an axis: right for a batch of two or more images, but for a '
          'single image the batch axis goes too, (D,) instead of (1, D) (and the head then fails on it in '
          'vit_forward)',
          'read_cls removes "the extra axis" of the x[:, :1] slice with a bare squeeze(), which removes every '
          'axis of size 1, the batch axis of a single photograph included.',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze()  # (B, D)\n'),
    fresh('07_head', 'thousand_classes_reshaped', 'shape',
          'classify reshapes the logits to (-1, 1000), the lecture\'s 1,000 classes: right for the ImageNet '
          'head, but for a head with another number of classes C the B*C logits cannot be viewed as rows of '
          '1000 and the call fails (or, when B*C is a multiple of 1000, come out in rows of 1000 values of '
          'several images)',
          'classify enforces the (B, 1000) of its comment with view(-1, 1000), writing the 1,000 ImageNet '
          'classes of pages 39 and 54 instead of the head\'s own number of columns.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).view(-1, 1000)  # (B, 1000)\n',
          True),
    fresh('07_head', 'cls_alone_through_blocks', 'inputs',
          'vit_forward sends only the CLS row, x[:, :1], through the blocks: attention has a single token to '
          'read, so the final CLS is the same for every image (the starting CLS plus its position, updated on '
          'its own) and every image gets the same logits, whatever its pixels',
          'vit_forward keeps only the row it will read (page 38: the classifier reads the final CLS; '
          'LayerNorm works row by row), forgetting that attention mixes the rows (page 22: CLS reads the '
          'current patch states at every block).',
          '    rows = x\n',
          '    rows = x[:, :1]\n'),
    fresh('07_head', 'enumerate_pairs_as_blocks', 'shape',
          'vit_forward loops over enumerate(params.blocks) and passes each (index, block) pair as the '
          'block\'s parameters: the pair has no W_qkv, so the call fails with an AttributeError',
          'vit_forward adds enumerate to number the blocks (page 36 numbers them 1 to 12) but keeps a single '
          'loop variable, which then holds the (index, block) pair.',
          '    for layer in params.blocks:\n',
          '    for layer in enumerate(params.blocks):\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'column_end_from_top', 'part',
          'cover ends the column slice at top + size instead of left + size: the rows are right and the '
          'square is right when top == left, otherwise it is too wide (left < top) or too narrow (left > top), '
          'and empty when left >= top + size; everything outside the square\'s rows is right',
          'cover copies the row slice top:top + size for the columns and changes only its start to left.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:top + size] = value\n'),
    fresh('08_occlusion', 'corner_read_as_grid_cell', 'part',
          'cover takes top and left for grid cells of `size` pixels and covers rows top*size .. '
          '(top+1)*size - 1 and the same columns: right at (0, 0), elsewhere the square lands `size` times '
          'farther from the corner (or beyond the image, covering nothing)',
          'cover reads top and left as the row and column of a patch in the grid (page 8: "P63 lies at '
          'zero-based grid row 4, column 6") and multiplies them by the side, although they are already pixel '
          'positions.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top * size:(top + 1) * size, left * size:(left + 1) * size] = value\n'),
    fresh('08_occlusion', 'target_index_in_list', 'shape',
          'quadrant_probabilities indexes the probabilities with [:, [target]], a list, which keeps the class '
          'axis: (4, 1) instead of (4,), the right values',
          'quadrant_probabilities writes the target as a list of classes, as for reading several classes at '
          'once, not knowing that a list index keeps its axis.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[:, [target]]  # (4,)\n'),
    fresh('08_occlusion', 'covers_passed_as_list', 'shape',
          'occlusion_map hands the model the Python list of covered images instead of one batch tensor: a '
          'model of (B, 3, H, W) tensors cannot take a list, so the call fails',
          'occlusion_map forgets the torch.cat that the hint asks for ("stack the covered copies into one '
          'batch") and passes the list of covers, as if the model batched a list of images the way a '
          'DataLoader does.',
          '        probs = torch.softmax(model(torch.cat(covers)), dim=-1)[:, target]  # (side*side,)\n',
          '        probs = torch.softmax(model(covers), dim=-1)[:, target]  # (side*side,)\n'),
]
