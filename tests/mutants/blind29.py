"""A twenty-ninth blind set of realistic one-line student mistakes, for tests/measure_diagnosis.py.

Written from the independent implementation (tests/mutants/independent/), the student stubs (exercises/) and the
lecture transcript (../shared/lecture/vision1-transcript.md) alone, without reading the grader's diagnosis, the
catalogue or the other sets of mistakes beyond their format and what was needed to avoid repeats. Steps 1-4 are nearly
used up by the earlier sets, so they get three mistakes each and steps 5-8 four to six, with an emphasis on habits
carried over from other code (timm, BERT, CNNs, decoders, mixed precision) and on slips of typing, reading and
indexing. Files opened: a listing of tests/mutants/independent/ and of exercises/ (tests/mutants/ itself was never
listed); tests/mutants/independent/01_flatten.py ... 08_occlusion.py, printed whole; exercises/01_flatten.py ...
08_occlusion.py, printed whole in one printout whose middle (part of the step 7 module docstring) the tool cut;
tests/mutants/fresh.py printed by awk only up to and including its line `FRESH = [` (the CLAIMS vocabulary, the
`Fresh` class and the `fresh` helper); the lines of pyproject.toml that a grep for "ruff" with 15 lines after each hit
showed (line length 120, the lint selection and ignores, the per-file ignores, with the neighbouring dev dependencies,
project scripts and setuptools settings); for the format, lines 1-140 and the last 20 lines of tests/mutants/
blind28.py; the lecture transcript, first through its byte count and a grep of its headings, then its transcript part
(pages 1-55, lines 62-720) printed whole, and lines 355-510 (pages 26-38) again where the printout was cut. To leave
out every mistake the earlier sets hold, blind.py, blind2.py ... blind28.py (named one by one in a list, never by a
glob) were loaded by a throwaway script outside the repository (/tmp/blind29work/) with a stand-in
`mutants.fresh.fresh` that recorded its arguments (864 entries); its printout of function, old text, name, claims,
hidden flag and new text (cut at about 200 characters), sorted by step and old text, was read for every step. Nothing
under grader/, no catalogue, no novel.py or unseen.py, no other test, no docs, solutions or fixtures were opened;
blind30.py was neither opened, listed nor searched; no git command was run and the kit's grader, CLI and tests were
not run.

The check of this set (throwaway scripts in /tmp/blind29work/, outside the repository) loaded the independent steps
from their source text with a stand-in `grader` module (an `earlier_step` that loads the unedited earlier step from
its text, and dataclass stand-ins for `ViTParams` and `BlockParams`), applied every edit (its old text found exactly
once in its step) and compared the edited function with the original on random inputs at the lecture's sizes (224 x
224 images, 16-pixel patches, 192 features, 3 heads, 1,000 classes; two blocks for the whole model; batch 2) and at
smaller ones (32 x 32 images, 8-pixel patches, 24 features, 2 heads, 10 classes, two blocks; batch 3): every edit
changes its function's numbers at both sizes (for count_tokens, its counts at 224/16, 224/8, 224/32, 32/8 and 32/4
with CLS; 225/16 and 33/8 still raise), except batch_of_two_hardcoded, marked hidden, which is right for a batch of
two and raises for three, and einsum_patch_index_dropped, whose result has the wrong shape at both sizes. The
occlusion functions used a small stand-in classifier (P x P average pooling of the image, then a random linear map to
the classes, logits of standard deviation about 4), whose top class has probability 0.80 (lecture size) and 0.99
(small size) and whose probabilities move visibly under a cover (maps between -0.15 and +0.08 at the lecture's size,
-0.07 and +0.05 at the small one), followed for the class it ranks first and for the one it ranks second. Each edit
was also run on the same inputs as every earlier entry for the same function: none gives the same numbers, except
that batch_of_two_hardcoded raises for a batch of three like the earlier shape entries of add_position (for one image
it returns a (2, N, D) sum, like no earlier entry). The `structure` statements were checked numerically: the clamp's
two values; the shift of 2; the counts (side + 1)^2; the (B, D) sums of einsum 'bd'; the bfloat16 errors (at most
0.39%); the 1/127.5 scale and broadcast row; the factor 1/0.9; the rows of length sqrt(D); the broadcast to (2, N, D)
and the raising for three images; the CLS row p_0; embed of the image shifted one pixel; the float16 errors with an
exact CLS row; softmax(q·k / sqrt(d // H)); the zeroed upper triangle with a right last row; the division by S_j
(row sums 0.24 to 2.5); softmax(q·k / d); the joined messages as a permutation and the one-image reading; the
reshape index formula of the values; the batch-axis spread and its one-image values; the sqrt(D) factor (within
1.5%); the GELU and ELU values at -3, -1, 1 and 3; the doubled LayerNorms of the block; gamma^2 n + (gamma + 1) beta;
dropout's zero fraction near 0.1 with kept values times 1/0.9 and outputs differing between calls; the doubled
positions; block 0 run twice; the -1 squares; the 111-pixel quarters; 100 (p - p_original); the raw logits minus the
probability; and the clamped cells. No edit changes an input in place (checked for every edit at both sizes). The
checks did not import the kit's grader or the mutants package. Last, `ruff check` and an import of this module (which
loads mutants/fresh.py) were run on it, printing the function (Fresh.function), claims and hidden flag of each entry;
the import ran from tests/ with PYTHONPATH=/work/main. A last comparison with the recorded earlier entries found no
repeated (step, old, new) edit and no repeated name.

Two are shape mistakes (einsum_patch_index_dropped, batch_of_two_hardcoded); one is marked hidden
(batch_of_two_hardcoded, right for the batch of two of the lecture's example).
"""
from __future__ import annotations

from mutants.fresh import fresh

BLIND29 = [
    # ---------------------------------------------------------------- 01_flatten
    fresh('01_flatten', 'unit_range_read_as_clamp', 'activation',
          'normalize computes pixels.float().clamp(0, 1) instead of pixels / 255: the scaled value is 0 for pixel 0 '
          'and 1 for every pixel from 1 to 255, so the result is -1 where the pixel is 0 and +1 everywhere else, a '
          'step of the pixel instead of the linear map 2x/255 - 1; only pixels 0 and 255 come out right (2 values '
          'of 256)',
          "normalize reads page 8's 'RGB to [0, 1]' as 'clip the RGB values to [0, 1]' and clamps them, as image "
          'code does before saving, instead of dividing by 255, then subtracts 0.5 and divides by 0.5 as the page '
          'says.',
          '    scaled = pixels.float() / 255.0  # [0, 1], float32 before any arithmetic\n',
          '    scaled = pixels.float().clamp(0.0, 1.0)  # [0, 1], float32 before any arithmetic\n'),
    fresh('01_flatten', 'minus_one_typed_as_plus_one', 'shift sign',
          'normalize returns 2x/255 + 1 instead of 2x/255 - 1: every value is the expected one plus 2, in [1, 3] '
          'instead of [-1, 1]; pixels 127 and 128, near mid-gray, come out near 2 instead of near 0',
          "normalize simplifies page 8's (x - 0.5) / 0.5 to the 2x - 1 form and loses the sign of the constant, "
          '-0.5 / 0.5 written as + 1.',
          '    return scaled * 2.0 - 1.0  # [-1, 1]\n',
          '    return scaled * 2.0 + 1.0  # [-1, 1]\n'),
    fresh('01_flatten', 'cls_added_to_the_grid_side', 'term',
          'count_tokens returns (side + 1)^2 with CLS instead of side^2 + 1: 225 instead of 197 at 224 and 16, 841 '
          'instead of 785 at 224 and 8, 64 instead of 50 at 224 and 32, 25 instead of 17 at 32 and 8, 81 instead of '
          '65 at 32 and 4; without CLS the counts are right (196, 784, 49, 16, 64) and sizes that do not divide '
          'still raise',
          "count_tokens adds the CLS token before squaring, (per_side + cls) ** 2, mixing page 48's 14 x 14 grid "
          "with page 49's square of the count with CLS (197 squared is 38,809).",
          '    return per_side * per_side + (1 if cls else 0)\n',
          '    return (per_side + (1 if cls else 0)) ** 2\n'),
    # ---------------------------------------------------------------- 02_project
    fresh('02_project', 'einsum_patch_index_dropped', 'shape',
          "project writes the einsum output as 'bd', leaving out the patch index n, so einsum also sums over the "
          'patches: the result is (B, D), the sum of the N projected patch rows X W_E of each image plus b_E once, '
          'instead of (B, N, D): (2, 192) instead of (2, 196, 192), (3, 24) instead of (3, 16, 24)',
          "project types the subscripts 'bnk,kd->bd', the batch and feature letters of page 10's c_i = x_i W_E, and "
          "forgets the patch letter of page 12's stacked 196 rows; einsum sums over a letter missing from the "
          'output without complaint.',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bd", patches, W_E) + b_E  # (B, N, D)\n'),
    fresh('02_project', 'weights_in_bfloat16', 'type approximate',
          'conv_to_linear returns the right (3*P*P, D) matrix rounded to bfloat16 (8 significant bits: relative '
          'error up to 2^-8, about 0.4%, 0.14% on average), with dtype torch.bfloat16 instead of the float32 of '
          'conv_weight',
          'conv_to_linear casts W_E with .to(torch.bfloat16), the mixed-precision habit of GPU training scripts, '
          "where the exercise asks for conv_weight's dtype; page 53's lab only rearranges the kernel.",
          '    return flat.transpose(0, 1).clone()  # (3*P*P, D)\n',
          '    return flat.transpose(0, 1).to(torch.bfloat16)  # (3*P*P, D)\n'),
    fresh('02_project', 'patches_normalized_from_pixel_range_again', 'scale shift inputs',
          'project computes (X / 127.5 - 1) W_E + b_E instead of X W_E + b_E: every image gets its expected result '
          'divided by 127.5 plus one row, b_E (1 - 1/127.5) minus the column sums of W_E, broadcast to every patch '
          'row',
          "project applies page 8's normalization in pixel units, x / 127.5 - 1 (that is (x/255 - 0.5) / 0.5), to "
          'the patch rows it receives, although they come from images that are already normalized before the '
          'projection (page 8).',
          '    return torch.einsum("bnk,kd->bnd", patches, W_E) + b_E  # (B, N, D)\n',
          '    return torch.einsum("bnk,kd->bnd", patches / 127.5 - 1.0, W_E) + b_E  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 03_position
    fresh('03_position', 'inverted_dropout_scaling_at_inference', 'scale',
          'add_position returns (c + p) / 0.9: every value is the expected one times 1/0.9, about 1.111',
          'add_position ends with the 1 / (1 - p) rescaling of inverted dropout (p = 0.1, the dropout after the '
          'embeddings of BERT and timm) without any mask, at inference; page 16 adds WHAT and WHERE and nothing '
          'else.',
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) / 0.9  # (B, N, D)\n'),
    fresh('03_position', 'embeddings_rescaled_to_length_sqrt_d', 'term',
          'add_position divides each row c_i + p_i by its own length and multiplies it by sqrt(D): every row has '
          'length sqrt(D) (13.86 for 192 features, 4.90 for 24), the direction of c_i + p_i kept and its length '
          'lost; the expected rows are 1.2 to 1.7 (1.0 to 2.0) times that long here',
          'add_position keeps every embedding at the length sqrt(D) of the normalized rows of page 34, an RMSNorm '
          "without gain carried over from LLaMA-style code, after page 16's e_i = c_i + p_i.",
          '    return torch.add(tokens, table)  # (B, N, D)\n',
          '    return torch.add(tokens, table) * tokens.shape[-1] ** 0.5 / torch.add(tokens, table).norm(dim=-1, keepdim=True)  # (B, N, D)\n'),
    fresh('03_position', 'batch_of_two_hardcoded', 'shape',
          'add_position expands the table to a batch of 2 whatever the batch: right for 2 images; for 3 images the '
          'add raises a RuntimeError (3 against 2); for one image broadcasting returns a (2, N, D) result, the '
          'right sum twice',
          'add_position copies the batch size of its docstring example, torch.zeros(2, 197, 192), into expand for '
          "page 17's 'every image uses the same table'.",
          '    table = pos_table.unsqueeze(0).expand(batch, -1, -1)  # (B, N, D): one table for every image\n',
          '    table = pos_table.unsqueeze(0).expand(2, -1, -1)  # (B, N, D): one table for every image\n',
          hidden=True),
    # ---------------------------------------------------------------- 04_cls
    fresh('04_cls', 'cls_started_from_timm_zero_init', 'part term',
          'embed prepends a zero vector instead of params.cls_token: row 0 of every image is p_0, the CLS position '
          'alone, instead of cls_token + p_0; rows 1..N are right',
          "embed builds CLS as torch.zeros_like(params.cls_token), copying timm's initialization "
          "nn.Parameter(torch.zeros(1, 1, D)) instead of the checkpoint's learned starting vector (pages 19-20).",
          '    sequence = prepend_cls(content, params.cls_token)  # (B, 1+N, D)\n',
          '    sequence = prepend_cls(content, torch.zeros_like(params.cls_token))  # (B, 1+N, D)\n'),
    fresh('04_cls', 'images_padded_by_one_pixel_like_a_3x3_conv', 'part inputs',
          'embed zero-pads the images by one pixel on every side (226 x 226, 34 x 34) before patchify, which still '
          'cuts 14 (4) patches per side: every patch is the one of the image shifted one pixel down and right, its '
          "first row and column taken from the padding (0) or the neighbouring patch, the image's last row and "
          'column dropped; the CLS row is right, every patch row is wrong',
          'embed pads the images with torch.nn.functional.pad(images, (1, 1, 1, 1)), the padding=1 of the 3 x 3 '
          "convolutions of CNN code, before page 7's non-overlapping 16 x 16 patches.",
          '    patches = flatten.patchify(images, params.patch_size)  # (B, N, 3*P*P)\n',
          '    patches = flatten.patchify(torch.nn.functional.pad(images, (1, 1, 1, 1)), params.patch_size)  # (B, N, 3*P*P)\n'),
    fresh('04_cls', 'patch_tokens_in_half_precision', 'approximate part',
          'embed rounds the projected patch content to float16 before CLS and positions are added (torch.cat '
          'promotes back to float32): the CLS row is exact, every patch row differs from the expected one by the '
          'float16 rounding of its content (relative error up to 2^-11, about 0.05%, of the content; at most about '
          '0.002 in absolute terms here)',
          'embed casts the patch tokens to half precision to save memory, a GPU habit, so the 196 x 192 content of '
          'page 12 loses precision before CLS and position are added (page 23).',
          '    content = projection.project(patches, params.W_E, params.b_E)  # (B, N, D)\n',
          '    content = projection.project(patches, params.W_E, params.b_E).half()  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 05_attention
    fresh('05_attention', 'head_dim_divided_by_heads_again', 'term',
          'attention_weights divides the scores by sqrt(d // H), with d the last axis of q and H its head axis, '
          'instead of sqrt(d): sqrt(21) instead of 8 for 3 heads of 64, sqrt(6) instead of sqrt(12) for 2 heads of '
          '12, so every score is 1.75 (1.41) times too large before the softmax; rows still sum to 1 but are '
          'sharper',
          "attention_weights computes d as 'D / H' (page 32: three heads of 64 from 192 features) from q's last "
          "axis, which already holds d = 64, for page 28's q·k / sqrt(64).",
          '    head_dim = q.shape[-1]\n',
          '    head_dim = q.shape[-1] // q.shape[1]\n'),
    fresh('05_attention', 'decoder_mask_habit_zeroing_scores', 'term',
          'attention_weights sets the scores above the diagonal (source after the receiver) to 0 with .tril() '
          'before the softmax instead of keeping them: those weights become exp(0 - m_i) / Z_i instead of exp(s_ij '
          '- m_i) / Z_i and the rest of each row is renormalized; rows still sum to 1 and the last row is right',
          'attention_weights keeps the lower triangle of the scores, the causal mask of the text decoder that page '
          '30 contrasts with ViT, and masks with zeros instead of minus infinity, so the masked sources keep a '
          'weight.',
          '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)  # (B, H, N, N)\n',
          '    scores = (torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(head_dim)).tril()  # (B, H, N, N)\n'),
    fresh('05_attention', 'row_sums_unsqueezed_on_the_row_axis', 'axis',
          'attention_weights divides by weights.sum(dim=-1).unsqueeze(-2): entry (i, j) is exp(s_ij - m_i) divided '
          'by S_j, the sum of row j, instead of S_i, the sum of its own row: each column is divided by the wrong '
          'row sum, and rows sum to 0.24 to 2.5 instead of 1',
          'attention_weights forgets keepdim=True in the row sum and puts the axis back with unsqueeze(-2), the '
          "receiver axis, so the sums broadcast down the columns of page 31's receiver-by-source matrix instead of "
          'along its rows.',
          '    return weights / weights.sum(dim=-1, keepdim=True)  # each row sums to 1\n',
          '    return weights / weights.sum(dim=-1).unsqueeze(-2)  # each row sums to 1\n'),
    fresh('05_attention', 'query_scaled_again_like_timm', 'term',
          'multi_head_attention divides the queries by sqrt(d) before attention_weights, which divides the scores '
          'by sqrt(d) again: the weights are softmax(q·k / d) instead of softmax(q·k / sqrt(d)), scores 8 '
          '(sqrt(12)) times too small and rows much flatter; the rest of the computation is right',
          "multi_head_attention scales the queries as timm's Attention does, q = q * self.scale, while its own "
          'attention_weights already divides by sqrt(d) (page 28: q·k / sqrt(64)).',
          '    weights = attention_weights(q, k)  # (B, H, N, N)\n',
          '    weights = attention_weights(q / math.sqrt(q.shape[-1]), k)  # (B, H, N, N)\n'),
    fresh('05_attention', 'heads_listed_over_the_batch', 'order',
          'multi_head_attention joins the heads with torch.cat(list(heads), dim=-1): list() walks the batch axis, '
          'giving (H, N, B*d), which the reshape reads as (B, N, H*d); the joined rows hold the right messages in '
          'another order (d-blocks of other tokens, heads and images; for one image, the (H, N, d) heads read as '
          '(N, H*d)), and the output projection mixes these wrong blocks',
          "multi_head_attention joins the heads with torch.cat(list(heads), dim=-1), as if heads were page 32's "
          'three 197 x 64 messages of one image; iterating a (B, H, N, d) tensor walks its batch axis, and the '
          'reshape hides the wrong width.',
          '    joined = heads.permute(0, 2, 1, 3).reshape(batch, count, width)  # (B, N, H*d)\n',
          '    joined = torch.cat(list(heads), dim=-1).reshape(batch, count, width)  # (B, N, H*d)\n'),
    fresh('05_attention', 'values_split_into_heads_by_reshape', 'order part',
          'qkv_heads turns the (B, N, H, d) values into (B, H, N, d) with reshape instead of transpose: row n of '
          'head h of v holds the value features of token (h*N + n) // H, head (h*N + n) % H; q and k are right',
          'qkv_heads writes the value line with reshape(batch, num_heads, count, head_dim), believing reshape moves '
          "the head axis like transpose, for page 32's three heads of 64 value features.",
          '    v = mixed[:, :, 2].transpose(1, 2)  # (B, H, N, d)\n',
          '    v = mixed[:, :, 2].reshape(batch, num_heads, count, head_dim)  # (B, H, N, d)\n'),
    # ---------------------------------------------------------------- 06_block
    fresh('06_block', 'variance_over_the_batch_like_batchnorm', 'axis',
          'layer_norm takes the spread over dim 0, the batch axis, of the row-centred squares instead of over the '
          'features: each element is divided by sqrt(mean over the images of (x - row mean)^2 at its token and '
          'feature + eps); the centring is right. For one image every value becomes (x - mu) / sqrt((x - mu)^2 + '
          'eps), nearly +-1',
          'layer_norm takes the variance along dim 0, the batch axis of BatchNorm, while the mean line above uses '
          "the last axis; page 34's LN normalizes each row over its own 192 features.",
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=0, keepdim=True)  # (..., 1): the biased variance\n'),
    fresh('06_block', 'variance_divided_by_width_twice', 'term',
          'layer_norm divides the variance by D once more: each row is divided by sqrt(var / D + eps), about std / '
          'sqrt(D), so the normalized values are about sqrt(D) times too large (13.9 for 192 features, 4.9 for 24) '
          'before the gain: the result is about sqrt(D) * weight * (x - mu) / std + bias (within 1.5% here)',
          'layer_norm divides the squares by the width after taking their .mean(), as one does after a .sum(), '
          "counting D twice in page 34's biased variance.",
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True)  # (..., 1): the biased variance\n',
          '    spread = centred.pow(2).mean(dim=-1, keepdim=True) / x.shape[-1]  # (..., 1): the biased variance\n'),
    fresh('06_block', 'sqrt2_divides_the_whole_gelu', 'activation',
          'mlp computes 0.5 z (1 + erf(z)) / sqrt(2) instead of 0.5 z (1 + erf(z / sqrt(2))): the erf argument is z '
          'and the whole activation is divided by sqrt(2); GELU(1) = 0.841 becomes 0.651, GELU(-1) = -0.159 becomes '
          '-0.056, GELU(3) = 2.996 becomes 2.121',
          "mlp closes the bracket of the erf before the '/ sqrt(2)' while typing the exact GELU of page 35, "
          'z·Phi(z) = 0.5 z (1 + erf(z / sqrt(2))).',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden)) / math.sqrt(2.0)  # z·Φ(z)\n'),
    fresh('06_block', 'elu_typed_for_gelu', 'activation',
          'mlp applies ELU instead of GELU: z for z > 0 and exp(z) - 1 below: positive hidden values pass unchanged '
          '(GELU(1) = 0.841 becomes 1), negative ones go to exp(z) - 1 (GELU(-1) = -0.159 becomes -0.632, GELU(-3) '
          '= -0.004 becomes -0.950)',
          "mlp calls torch.nn.functional.elu for page 35's GELU, the name one letter short.",
          '    hidden = 0.5 * hidden * (1.0 + torch.erf(hidden / math.sqrt(2.0)))  # z·Φ(z)\n',
          '    hidden = torch.nn.functional.elu(hidden)  # z·Φ(z)\n'),
    fresh('06_block', 'add_and_norm_kept_after_pre_norm', 'term',
          "block normalizes the stream again with the sublayer's own LayerNorm after each residual add: U = LN1(x + "
          'MSA(LN1(x))) and the block returns LN2(U + MLP(LN2(U))), both LayerNorms applied twice (before the '
          'sublayer and after the add), so every output row is a normalized row scaled and shifted by LN2 instead '
          'of the residual sum',
          "block keeps the 'Add & Norm' of the original Transformer after each residual add on top of the pre-LN of "
          'pages 34-35 (U = E + MSA(LN(E)), E_next = U + MLP(LN(U))).',
          '        stream = stream + update(layer_norm(stream, weight, bias))  # (B, N, D)\n',
          '        stream = layer_norm(stream + update(layer_norm(stream, weight, bias)), weight, bias)  # (B, N, D)\n'),
    # ---------------------------------------------------------------- 07_head
    fresh('07_head', 'final_norm_affine_applied_twice', 'term',
          'read_cls returns gamma (gamma n + beta) + beta = gamma^2 n + (gamma + 1) beta, n the normalized CLS row: '
          "the final LayerNorm's scale and shift are applied twice",
          'read_cls multiplies by norm_weight and adds norm_bias after layer_norm, which already applies them, as '
          "after a normalization without affine parameters (page 38's final LayerNorm).",
          '    return encoder.layer_norm(summary, norm_weight, norm_bias).squeeze(1)  # (B, D)\n',
          '    return (encoder.layer_norm(summary, norm_weight, norm_bias) * norm_weight + norm_bias).squeeze(1)  # (B, D)\n'),
    fresh('07_head', 'head_dropout_left_on', 'term',
          'classify applies torch.nn.functional.dropout(h, 0.1) in training mode before the head: about 10% of the '
          'features of h are set to 0 at random and the others multiplied by 1/0.9, differently on every call; the '
          'logits are dropout(h) W_head + b_head',
          "classify adds the head dropout of timm's ViT (head_drop) with torch.nn.functional.dropout, whose default "
          "training=True keeps it on at inference; page 39's head is one affine map.",
          '    return torch.addmm(b_head, h, W_head)  # (B, 1000)\n',
          '    return torch.addmm(b_head, torch.nn.functional.dropout(h, 0.1), W_head)  # (B, 1000)\n'),
    fresh('07_head', 'positions_added_again_after_embed', 'term',
          'vit_forward adds the position table to the output of embed, which already holds it: every row gets its '
          'position vector twice, e_i = c_i + 2 p_i, before the blocks',
          "vit_forward copies page 52's second line, x = prepend_cls(x) + pos, on top of embed, which already "
          'prepends CLS and adds the positions (page 23).',
          '    x = embedding.embed(images, params)  # (B, 197, D)\n',
          '    x = embedding.embed(images, params) + params.pos_table  # (B, 197, D)\n'),
    fresh('07_head', 'first_block_run_before_the_loop', 'term',
          'vit_forward starts rows as the first block applied to the embedding and then runs every block in the '
          'loop: block 0 runs twice (blocks 0, 0, 1, ... instead of 0, 1, ...)',
          "vit_forward primes the loop with rows = block(x, blocks[0]) before page 52's `for block in blocks`, "
          'which runs the first block again.',
          '    rows = x\n',
          '    rows = encoder.block(x, params.blocks[0], params.num_heads)\n'),
    # ---------------------------------------------------------------- 08_occlusion
    fresh('08_occlusion', 'black_default_fill', 'fill',
          'cover fills with -1 (normalized black) by default instead of 0 (mid-gray): cover called without a value, '
          'and the quadrant and single-patch covers, which use the default, set the square to -1; with an explicit '
          'value cover is right',
          "cover's default is -1.0, black after page 8's normalization, the student picturing occlusion with black "
          'squares; page 42 covers with normalized 0, mid-gray.',
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = 0.0) -> Tensor:\n',
          'def cover(images: Tensor, top: int, left: int, size: int, value: float = -1.0) -> Tensor:\n'),
    fresh('08_occlusion', 'quarter_from_last_pixel_index', 'inputs',
          'quadrant_probabilities takes the half as (H - 1) // 2, 111 (15): the covers are 111 x 111 (15 x 15) at '
          'rows and columns 0 and 111 (15) instead of 112 x 112 at 0 and 112: each cover is one pixel short, the '
          'right and bottom covers start one pixel early, on the last column or row of the left or top half, and '
          'the last two columns and rows are never covered',
          'quadrant_probabilities computes the middle as (height - 1) // 2, the index of the last pixel of the top '
          "half, for page 41's 112 x 112 quarters.",
          '    half_h, half_w = height // 2, width // 2\n',
          '    half_h, half_w = (height - 1) // 2, (width - 1) // 2\n'),
    fresh('08_occlusion', 'quadrant_drops_in_percentage_points', 'scale shift',
          'quadrant_probabilities returns 100 (p_i - p_original) instead of p_i: each value is the change in '
          'percentage points of the target probability when the quarter is covered (negative where covering hurts)',
          "quadrant_probabilities returns page 43's 'points' column (-12.73 points for the top left) instead of its "
          'covered probabilities.',
          '    return torch.softmax(logits, dim=-1)[:, target]  # (4,)\n',
          '    return 100 * (torch.softmax(logits, dim=-1)[:, target] - torch.softmax(model(image), dim=-1)[0, target])  # (4,)\n'),
    fresh('08_occlusion', 'covered_logits_minus_base_probability', 'activation',
          'occlusion_map subtracts the original probability from the raw logit of the target for each covered copy: '
          'every cell is z_target(covered) - P_target(original) instead of P_target(covered) - P_target(original)',
          'occlusion_map applies the softmax to the original image but forgets it on the batched call of the '
          'covered copies; page 42 takes softmax(-1) of both.',
          '        probs = torch.softmax(model(torch.cat(covers)), dim=-1)[:, target]  # (side*side,)\n',
          '        probs = model(torch.cat(covers))[:, target]  # (side*side,)\n'),
    fresh('08_occlusion', 'map_clipped_to_the_colour_scale', 'part',
          'occlusion_map clamps the change to [-0.04, 0.04]: cells whose change is larger in size are cut to '
          '+-0.04, the others are right (70 of 196 cells for the first-ranked class here, 1 to 4 cells otherwise)',
          "occlusion_map clamps the map to page 44's colour scale, -4 to +4 points, which belongs to the display, "
          'not to the measurement.',
          '    return (probs - base).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n',
          '    return (probs - base).clamp(-0.04, 0.04).view(side, side)  # row r, column c: patch P(side*r + c + 1)\n'),
]
