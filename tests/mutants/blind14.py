"""A fourteenth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs
(exercises/) and the lecture transcript alone, without reading the grader's diagnosis, the catalogue
or the other sets of mistakes beyond their format and what was needed to avoid repeats. Besides those
sources, only tests/mutants/fresh.py up to its own list of mistakes (the CLAIMS vocabulary, the
`Fresh` class and the `fresh` helper) and tests/mutants/blind.py ... blind13.py (read in full, to
follow their format and to leave out every mistake they already hold) were seen; nothing under
grader/, no catalogue, no other mutant set, no other test and no docs were opened (pyproject.toml only
for its line length). Four mistakes per
step, spread over the step's functions, each an edit of one line (or one expression; one loop of two
lines) that changes the numbers of its function on typical inputs (or makes the call fail, or returns
the wrong shape or type), with what is really wrong (`structure`) and the kinds of structure its
error truly has (`claims`). The two marked hidden=True are right at the lecture's sizes (224 x 224
images, 16-pixel patches, 3 heads of 64 features, hence 192 features, and its twelve blocks) and only
a test with other sizes can show them.
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND14 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'denormalize_formula', 'scale shift',
          'normalize computes x / 255 * 0.5 + 0.5, the inverse (display) transform, instead of '
          '(x / 255 - 0.5) / 0.5: every value is a quarter of the expected one plus 0.75, range [0.5, 1] '
          'instead of [-1, 1]',
          'normalize writes the un-normalization used to show a normalized image again, x * 0.5 + 0.5, '
          'mixing up the two directions of page 8\'s "subtract 0.5 and divide by 0.5".',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled * 0.5 + 0.5  # [-1, 1]\n'),
    fresh('01_flatten', 'batch_axis_prepended', 'shape',
          'normalize returns the right values with an extra leading axis of size 1: (1, B, 3, H, W) for a '
          'batch of images, (1, 2) for the two pixels of the example, instead of the input\'s own shape',
          'normalize ends like the torchvision inference recipe, transform(image).unsqueeze(0), adding the '
          'batch axis a single photograph needs, although its input may be any shape, a batch included.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return (scaled * 2.0 - 1.0).unsqueeze(0)  # [-1, 1]\n'),
    fresh('01_flatten', 'negative_axis_second_unfold', 'order',
          'patchify unfolds axis -2 and then axis -1, but after the first unfold axis -1 is the new window '
          'axis (the pixel rows of each patch), not the width: the tiles come out (B, C, rows, W, 1, P), and '
          'every patch row holds its own 3*P*P values, the patches in the right order, but read pixel column '
          'by pixel column (for each column its channels, for each channel its P pixels top to bottom) '
          'instead of channel-major row by row',
          'patchify writes the two unfolds with negative axes, "height, then width", not seeing that the '
          'first unfold appends an axis, so that -1 no longer names the width.',
          '    tiles = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n',
          '    tiles = images.unfold(-2, P, P).unfold(-1, P, P)  # (B, C, rows, cols, P, P)\n'),
    fresh('01_flatten', 'fencepost_per_side', 'term',
          'count_tokens counts one patch too many per side, image_size / patch_size + 1: 15 * 15 + 1 = 226 '
          'instead of 197 for 224 and 16 (225 instead of 196 without CLS); the divisibility check still '
          'raises',
          'count_tokens counts the cuts along a side, fence posts rather than the gaps between them, '
          '"224 / 16 steps, plus one".',
          '    per_side = image_size // patch_size\n',
          '    per_side = image_size // patch_size + 1\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'output_channels_flipped', 'order',
          'conv_to_linear reverses the output channels before flattening: column d of W_E holds kernel '
          'D-1-d, so every projected row holds the right D features in reverse order (feature d is the '
          'expected feature D-1-d); the pixel order inside each kernel is right',
          'conv_to_linear flips the kernel because a true convolution flips it, and writes flip(0), taking '
          'axis 0 for the kernel rows as in a single (P, P) kernel, while it holds the output channels.',
          '    flat = conv_weight.flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n',
          '    flat = conv_weight.flip(0).flatten(start_dim=1)  # (D, 3*P*P), channel-major like patchify\n'),
    fresh('02_project', 'transpose_taken_for_inverse', 'term',
          'conv_to_linear returns the pseudo-inverse of the flattened (D, 3*P*P) kernel matrix instead of '
          'its transpose: the shape (3*P*P, D) is right, but the weights are those of another matrix (the '
          'two agree only for orthonormal kernels)',
          'conv_to_linear believes that going from PyTorch\'s output-first layout to the lecture\'s x W_E '
          'reverses the map, and inverts the non-square matrix with torch.linalg.pinv instead of '
          'transposing it.',
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return torch.linalg.pinv(flat)  # (3*P*P, D)\n'),
    fresh('02_project', 'fresh_linear_layer', 'inputs term',
          'project builds a new torch.nn.Linear(3*P*P, D) and applies it: the patches are projected with '
          'the layer\'s random initial weight and bias (different at every call) instead of W_E and b_E, '
          'which are never used',
          'project writes the patch projection as a Linear layer, as in model code, sized from W_E, and '
          'forgets to load W_E and b_E into it.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.nn.Linear(W_E.shape[0], W_E.shape[1])(patches)  # (B, N, D)\n'),
    fresh('02_project', 'row_vector_axis_kept', 'shape',
          'project turns every patch into a 1 x 3*P*P row before the product: the result is (B, N, 1, D) '
          'instead of (B, N, D), the right values with an extra axis of size 1',
          'project follows page 10\'s "x_i is 1 by 768" literally, unsqueezing each patch to a row vector, '
          'and never removes that axis again.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return patches.unsqueeze(-2) @ W_E + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'dropout_left_on', 'term',
          'add_position passes the sums through dropout with p = 0.1 in training mode: about one value in '
          'ten is set to 0 at random and every other value is c_i + p_i divided by 0.9, different at every '
          'call',
          'add_position copies the position dropout that ViT code applies right after adding the position '
          'embedding (pos_drop), with torch.nn.functional.dropout, whose training flag is on by default.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.nn.functional.dropout(torch.add(tokens, table), p=0.1)  # (B, N, D)\n'),
    fresh('03_position', 'table_cast_to_long', 'term',
          'add_position converts the position table to integers (torch.long) before adding it: every '
          'position value is truncated toward zero (most of them become 0), so each token gets c_i plus the '
          'truncated table row instead of c_i + p_i',
          'add_position casts the table with .long(), as position ids are long integers in the text model, '
          'mixing up the positions\' indices with their learned vectors.',
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.long().unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every '
          'image\n'),
    fresh('03_position', 'loop_stops_one_token_early', 'shape',
          'add_position adds the position rows token by token over range(N - 1): the last token is left '
          'out, so the result is (B, N-1, D), its N-1 rows right, instead of (B, N, D)',
          'add_position walks through the tokens one at a time, as page 17 pairs each row with its position '
          'vector, and stops the loop one token early, a fencepost slip.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.cat([tokens[:, i:i + 1] + table[:, i:i + 1] for i in range(tokens.shape[1] - 1)], '
          'dim=1)  # (B, N, D)\n'),
    fresh('03_position', 'stacked_and_summed_over_images', 'axis shape',
          'add_position stacks the tokens and the table into (2, B, N, D) and sums over axis 1, the images, '
          'instead of axis 0: the result is (2, N, D), the sum of all the images\' tokens and B times the '
          'table, instead of the (B, N, D) sums (for a batch of two the shape happens to be right, the '
          'values are not)',
          'add_position adds WHAT and WHERE by stacking the two and summing the stack, and sums over dim=1, '
          'unsure which axis torch.stack creates.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.stack((tokens, table)).sum(dim=1)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_rolled_wrong_way', 'order',
          'prepend_cls appends CLS and rolls the sequence one place to the left instead of the right: the '
          'result holds P2 .. PN, then CLS, then P1, the right rows in another order (CLS at row N-1 instead '
          'of row 0)',
          'prepend_cls "prepends" by appending CLS and rotating it to the front with roll, and rolls by -1, '
          'the wrong direction.',
          '    return torch.cat((start, tokens), dim=1)  # (B, 1+N, D)\n',
          '    return torch.cat((tokens, start), dim=1).roll(-1, dims=1)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'width_192_hardcoded', 'shape',
          'prepend_cls reshapes CLS to the lecture\'s 192 features whatever the width: right for ViT-Ti '
          '(D = 192), but for a model of another width the (D,) CLS vector cannot be reshaped to '
          '(1, 1, 192) and the call fails',
          'prepend_cls writes the 192 features of pages 10-23 into the reshape instead of the width of the '
          'tokens.',
          '    start = cls_token.reshape(1, 1, width).repeat(batch, 1, 1)  # (B, 1, D)\n',
          '    start = cls_token.reshape(1, 1, 192).repeat(batch, 1, 1)  # (B, 1, D)\n',
          True),
    fresh('04_cls', 'prepend_arguments_swapped', 'shape',
          'embed calls prepend_cls(cls_token, content), the arguments in the wrong order: prepend_cls reads '
          'the (D,) CLS vector as the (B, N, D) tokens, cannot unpack its shape, and the call fails',
          'embed passes the two parts in the order they take in the sequence, [CLS; P1; ...; PN] (page 23), '
          'instead of prepend_cls\'s (tokens, cls_token).',
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(params.cls_token, content)  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_unnormalized', 'part inputs',
          'embed maps the normalized images back to [0, 1] with (x + 1) / 2 before patchify: every patch '
          'row is projected from those pixel values, ((x + 1) / 2) W_E + b_E instead of x W_E + b_E, plus '
          'its right position vector; only the CLS row is right',
          'embed believes the patch projection reads the [0, 1] pixels that ToTensor gives, and undoes '
          'page 8\'s "subtract 0.5, divide by 0.5" first.',
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify((images + 1) / 2, params.patch_size)  # (B, N, 3*P*P)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'sequence_first_unpacking', 'shape order',
          'qkv_heads unpacks x\'s shape as (N, B, D): the product is right, but its (B*N, 3D) rows are viewed '
          'as N groups of B rows, so q, k and v come out (N, H, B, d) instead of (B, H, N, d), each group '
          'made of rows of other tokens and images (for a single image the right values in the shape '
          '(N, H, 1, d))',
          'qkv_heads unpacks the shape in the sequence-first order of nn.MultiheadAttention '
          '(batch_first=False), the token count before the batch.',
          '    batch, count, width = x.shape\n    head_dim = width // num_heads\n',
          '    count, batch, width = x.shape\n    head_dim = width // num_heads\n'),
    fresh('05_attention', 'max_returns_tuple', 'shape',
          'attention_weights subtracts scores.max(dim=-1, keepdim=True), which is a (values, indices) pair, '
          'not a tensor: the subtraction raises a TypeError and the call fails',
          'attention_weights takes the stabilizing row maximum with Tensor.max, as with NumPy\'s max, not '
          'knowing that with a dim it returns the values and their indices.',
          '    scores = scores - scores.amax(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n',
          '    scores = scores - scores.max(dim=-1, keepdim=True)  # each row\'s largest score becomes 0\n'),
    fresh('05_attention', 'scale_left_out', 'term',
          'attention_weights leaves out the division by sqrt(d): the softmax is taken of q . k instead of '
          'q . k / sqrt(d) (8 for heads of 64), so every row is sharper than it should be',
          'attention_weights writes the scores as the plain dot products "q . k" of page 28 and forgets '
          'the "/ sqrt 64" that follows them.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k)  # (B, H, N, N)\n'),
    fresh('05_attention', 'head_averaged_weights', 'term',
          'multi_head_attention averages the attention weights over the heads and gives every head that '
          'mean pattern: each head\'s message weights its own values with the head-averaged weights instead '
          'of its own (right only with a single head)',
          'multi_head_attention averages the heads\' attention maps, as attention visualizations do (page 33 '
          'shows one map per query), and uses that average for every head.',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(q, k).mean(dim=1, keepdim=True)  # (B, H, N, N)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'eps_sign_lost', 'term',
          'layer_norm\'s default eps is 1e6 instead of 1e-6: every row is divided by sqrt(var + 10^6), '
          'about 1000, instead of its standard deviation, so the normalized part is about a thousandth of '
          'its right size and the result is close to the bias',
          'layer_norm types the default as 1e6, losing the minus sign of 1e-6.',
          'def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e-6) -> Tensor:\n',
          'def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float = 1e6) -> Tensor:\n'),
    fresh('06_block', 'phi_taken_as_erf', 'activation',
          'mlp uses z erf(z / sqrt 2) instead of z Phi(z) = z (1 + erf(z / sqrt 2)) / 2: an even function '
          '(negative z give positive values, about |z| for large |z|), not GELU',
          'mlp takes erf(z / sqrt 2) for the normal CDF Phi(z) of the hint, forgetting that '
          'Phi(z) = (1 + erf(z / sqrt 2)) / 2.',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = hidden * torch.erf(hidden / math.sqrt(2.0))  # z·Φ(z)\n'),
    fresh('06_block', 'residual_subtracted', 'sign term',
          'block subtracts each update instead of adding it: U = x - MSA(LN1(x)) and E_next = '
          'U - MLP(LN2(U)), the attention update with the wrong sign, and the MLP update, of the wrong rows, '
          'with the wrong sign too',
          'block writes the residual step as a correction, "the rows minus the update", like a gradient '
          'step.',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = stream - update(layer_norm(stream, weight, bias))  # (B, N, D)\n'),
    fresh('06_block', 'returns_block_input', 'term',
          'block returns its input x instead of the updated rows: both residual updates are computed and '
          'thrown away, so the block is the identity',
          'block returns x, the name of the incoming rows in page 34\'s formula, instead of the variable '
          'that holds the updated rows.',
          '    return stream\n',
          '    return x\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'background_class_dropped', 'shape',
          'classify drops the first column of the logits: (B, C-1) instead of (B, C), the scores of classes '
          '1 .. C-1 right but class 0 missing, so every class sits one column too early',
          'classify treats column 0 as a background class, as in the 1001-class ImageNet checkpoints of '
          'TF-slim, and drops it.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head)[:, 1:]  # (B, 1000)\n'),
    fresh('07_head', 'scores_sorted', 'order',
          'classify returns each image\'s logits sorted from the largest to the smallest: the right values '
          'in another order, so column c no longer holds class c',
          'classify ranks the class scores, as page 40 lists the predictions from the most likely down, '
          'believing a classifier hands them back in that order.',
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, h, W_head).sort(dim=-1, descending=True).values  # (B, 1000)\n'),
    fresh('07_head', 'head_left_out', 'shape',
          'vit_forward returns the normalized final CLS, (B, D), instead of the (B, C) logits: the class head '
          'is never applied',
          'vit_forward stops at the image summary of page 38 ("the classifier reads the final CLS") and '
          'returns it, forgetting the last of page 52\'s six lines.',
          '    return classify(summary, params.W_head, params.b_head)  # (B, 1000)\n',
          '    return summary  # (B, 1000)\n'),
    fresh('07_head', 'twelve_blocks_hardcoded', 'shape',
          'vit_forward loops over range(12) and indexes params.blocks: right for the lecture\'s twelve '
          'blocks, but a ViT with fewer blocks fails with an IndexError (and one with more would run only '
          'its first twelve)',
          'vit_forward writes "ENCODER x 12" (pages 14, 36) as a loop over twelve block indices instead of '
          'a loop over params.blocks.',
          '    for layer in params.blocks:\n'
          '        rows = encoder.block(rows, layer, params.num_heads)  # (B, 197, D)\n',
          '    for index in range(12):\n'
          '        rows = encoder.block(rows, params.blocks[index], params.num_heads)  # (B, 197, D)\n',
          True),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'fill_added', 'fill part',
          'cover adds `value` to the square instead of setting it: with the default 0.0 nothing is covered '
          'at all (the copy equals the images), and with another value the square holds the original pixels '
          'plus that value; outside the square everything is right',
          'cover writes += for =, as if covering shifted the pixels by the fill.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[:, :, top:top + size, left:left + size] += value\n'),
    fresh('08_occlusion', 'first_image_only', 'part',
          'cover sets the square in the first image of the batch only: every other image comes back '
          'uncovered (right for a batch of one)',
          'cover follows page 42\'s code for one photograph and indexes image 0, result[0, :, ...], '
          'believing it is given a single image.',
          '    result[:, :, top:top + size, left:left + size] = value\n',
          '    result[0, :, top:top + size, left:left + size] = value\n'),
    fresh('08_occlusion', 'first_cover_only', 'shape',
          'quadrant_probabilities returns one number, the target\'s probability with the top-left quarter '
          'covered, instead of the four values: shape () instead of (4,)',
          'quadrant_probabilities copies page 42\'s softmax(-1)[0, 256], which reads image 0 of the batch.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return torch.softmax(logits, dim=-1)[0, target]  # (4,)\n'),
    fresh('08_occlusion', 'map_as_numpy', 'type',
          'occlusion_map returns the right (H/P, W/P) map as a NumPy array instead of a tensor',
          'occlusion_map hands the map back ready for matplotlib\'s imshow, as page 44 draws it as a coloured '
          'grid, with .numpy().',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).view(side, side).numpy()  # row r, column c: patch P(side*r + c + 1)\n'),
]
