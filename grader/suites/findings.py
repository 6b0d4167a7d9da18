"""Every finding id the feedback gives, and what it claims: the one registry a maintainer adds to.

A finding is a sentence a failing test says beside its numbers, with an id that results and reports
carry (`diagnosis.transposed`, `edit.move:post_ln`, `known.no_scale`). Each id claims kinds of
structure of the error (a term, a sign, an order, an axis, ...): what the sentence says is wrong.
Registered here, apart from how each finding is found:

- `FINDINGS`: the structural checks of grader/suites/diagnosis.py (`diagnosis.<name>`), each with
  its title, kinds and lecture page;
- `EDIT_KINDS`, `MOVE_KINDS`, `QUANTITY_KINDS`: the edits of the lecture's computation that the
  search (grader/search/) and the fixtures' fingerprints name (`edit.<kind>:<quantity>`,
  `edit.move:<name>` for the lecture's known moves);
- the catalogue's mistakes (`known.<id>`) are registered with their edits in
  grader/mistakes/catalogue.py, which the student release leaves out: each is one edit away from
  the answer.

This module ships with the release, so that a student's `check` and an instructor's `grade` weigh
the same findings alike (`beside`); it holds words and names, never a computation.
"""
from __future__ import annotations

#: Every finding the diagnosis can make, by id: what it claims in words without numbers, the kinds
#: of structure it claims the error has (a message may claim only what the mistake has: the kit's
#: tests hold every unseen mistake to this), and the lecture page that explains it, where one does.
#: A finding that says other rows or another tensor were read (another token, the rows before a
#: norm, another output's columns, the images normalized again) claims a wrong input (`inputs`)
#: beside whatever it claims of the term.
FINDINGS: dict[str, tuple[str, frozenset[str], int | None]] = {name: (title, frozenset(kinds.split()), page)
                                                              for name, title, kinds, page in [
    ("sign", "every value has the wrong sign", "sign", None),
    ("transposed", "the result is the expected one transposed", "order shape axis", None),
    ("rows_missing", "some rows are missing", "shape part", None),
    ("not_probabilities", "the values are not probabilities", "term activation", 42),
    ("log_probabilities", "log-probabilities instead of logits", "term activation", 52),
    ("probabilities", "probabilities instead of logits", "term activation", 52),
    ("scores_not_weights", "scores instead of attention weights", "term activation", 28),
    ("softmax_over_queries", "the softmax ran over the queries", "axis", 28),
    ("rows_not_normalized", "rows of weights that do not sum to 1", "axis activation term", 28),
    ("temperature", "the weights of wrongly scaled scores", "term scale", 28),
    ("output_mixed_up", "one output holds another output's expected value", "term order inputs", None),
    ("all_zero", "the result is zero everywhere", "constant", None),
    ("constant", "the result is one value everywhere", "constant", None),
    ("scaled", "the right values times one wrong factor", "scale", None),
    ("rows_scaled", "each row times a wrong factor of its own", "scale", None),
    ("rows_normalized", "every row brought to one length", "scale term", None),
    ("affine", "the right values through a wrong scale and shift", "scale shift", None),
    ("shifted", "every value off by the same constant", "shift", None),
    ("offset_vector", "the same wrong offset in every row", "shift term", None),
    ("rows_shifted", "each row off by a constant of its own", "shift", None),
    ("input_added", "an input added once too often, or left out", "term inputs", 34),
    ("reordered", "the right values in the wrong order", "order", None),
    ("heads_reordered", "the joined heads in the wrong order", "order", 32),
    ("scrambled", "exactly the expected values, at other places", "order", None),
    ("mean_pooled", "the mean of the rows instead of the CLS row", "term inputs", 38),
    ("cls_before_norm", "the CLS row before the final LayerNorm", "term inputs", 38),
    ("wrong_row_read", "another row than CLS read", "term inputs", 38),
    ("some_rows", "only some rows are wrong", "part", None),
    ("normalization", "LayerNorm's division by the standard deviation is off", "scale term", 36),
    ("float16", "a computation in float16", "approximate type", None),
    ("approximate", "approximately right everywhere", "approximate", None),
    ("unlikely_class", "the probabilities of a class the model gives almost nothing", "term inputs", 42),
    ("certain_class", "a probability of 1 under every cover", "activation constant", 43),
    ("covered_other_class", "covered probabilities near zero: another class, or everything covered",
     "term constant part", 44),
    ("cover_nothing", "nothing was covered", "fill part", 42),
    ("cover_place", "the cover in the wrong place", "part", 42),
    ("cover_everything", "the whole image covered", "constant part", 42),
    ("cover_on_blank", "a cover on a blank image: the images not kept", "constant part", 42),
    ("cover_fill", "the cover filled with the wrong value", "fill", 42),
    ("cover_channel_means", "the cover filled with the channel means", "fill", 42),
    ("position_multiplied", "content and position multiplied", "term", 16),
    ("position_tokens_added", "the tokens added to themselves, the position table unused", "term inputs", 16),
    ("position_scaled", "the position table added times a factor", "term scale", 16),
    ("position_rows_scaled", "each token's position row times a factor of its own", "term", 16),
    ("position_mean", "the table's mean row added to every token", "term shift", 17),
    ("position_feature_mean", "each position row's mean added instead of the row", "term", 16),
    ("position_reordered", "the position rows added in the wrong order", "order term", 17),
    ("magnitude", "the sizes of the expected values, their signs lost", "magnitude", None),
    ("cls_count", "the CLS token counted wrongly", "term", 48),
    ("patch_area", "the pixels divided by the patch's side, not its area", "term", 7),
    # seen by the worker, not read off the numbers: a call into an earlier step passed a size (num_heads,
    # patch_size) other than the one the case gave (grader/suites/support.py); where the call then failed,
    # the failure shown with it is one of shapes that do not fit
    ("size_not_passed_on", "a size written in, not the one given", "term", None),
    ("size_not_passed_on_call_failed", "a size written in, not the one given: the call failed on it", "term shape",
     None),
    ("pixel_count", "the pixels counted, not the patches", "term", 7),
    ("squared_count", "the count of attention scores, tokens squared", "term", 49),
    ("written_image_size", "the count of a 224-pixel image, written in", "term", 48),
    ("sliding_count", "the places of a window moved one pixel at a time, not a patch", "term", 7),
    ("xor_count", "a bitwise XOR (^) where a power was meant", "term", 7),
    ("conditional_count", "a conditional expression that took the whole sum", "term", 7),
    ("position_own_table", "a table of one's own added instead of pos_table", "term inputs", 16),
    ("uint8_wraparound", "uint8 arithmetic wrapped round on some pixels", "part", 8),
    ("precedence", "a division done before the subtraction it should follow", "term scale shift", 8),
    ("position_index", "each token's index added instead of its position row", "term", 16),
    ("position_sinusoidal", "the Transformer's sine-and-cosine table added instead of the learned one", "term", 16),
    ("dropout", "dropout left on: values set to 0 at random, the rest scaled up", "term", None),
    ("grid_side_count", "a grid of one patch more, or fewer, per side", "term", 7),
    ("doubled_count", "the patches per side doubled, not squared", "term", 7),
    ("channel_count", "each patch counted once per colour channel", "term", 7),
    ("written_patch_size", "the count of another patch size, written in", "term", 7),
    ("same_row_everywhere", "one row for every row, whatever the input rows", "inputs term", None),
    ("first_row_everywhere", "the first row's result for every row", "part inputs", None),
    ("same_for_every_image", "one result for every image, whatever the image", "inputs term", None),
    ("scaled_before_bias", "everything before a bias scaled by one factor", "scale shift", None),
    ("curved", "the right values through a curve", "activation", None),
    ("clipped", "the right values cut to a range", "part activation", None),
]}


#: The kinds of structure (as the kit's tests name them: a term, a sign, an order, ...) each kind of edit
#: claims the error has, by the first part of its id. A finding's kinds are the ways the one change it
#: names may be described: `subtracted:b_E` is a term with the wrong sign; `replaced:v:k` computes with
#: another tensor, a wrong input, in place of the right one.
EDIT_KINDS: dict[str, frozenset[str]] = {prefix: frozenset(kinds.split()) for prefix, kinds in [
    ("replaced", "term inputs"), ("sign", "sign"), ("transposed", "axis order term"), ("left_out", "term"),
    ("subtracted", "sign term"), ("twice", "term"), ("scaled", "term"), ("squared", "term"),
    ("inverted", "term"), ("root", "term"), ("reversed", "order term"), ("shifted", "order term"),
    ("mean_row", "shift term"), ("first_row", "shift term"), ("axis", "axis"), ("order", "order"),
    ("index", "term"), ("activation", "activation"), ("size", "part inputs"), ("added_to", "term inputs"),
    ("transposed_weight", "term inputs axis order"), ("averaged", "term"), ("first_term_left_out", "term"),
]}
#: Replacements that also leave a nonlinearity out, beyond the wrong term they claim: the attention
#: weights A replaced by the scores they are the softmax of are A without its softmax.
REPLACED_KINDS: dict[str, frozenset[str]] = {"A:scores": frozenset({"activation"})}
#: What each operation applied where the lecture applies none claims (`edit.applied:<quantity>:<operation>`,
#: grader/search/edits.py APPLIED); applied to an argument as it comes in (`edit.applied_to_input:...`), it
#: also claims a wrong input.
APPLIED_KINDS: dict[str, frozenset[str]] = {name: frozenset(kinds.split()) for name, kinds in [
    ("tanh", "activation"), ("floor", "activation"), ("sign", "activation"), ("softmax_all", "activation term axis"),
    ("centred_dim1", "shift term"),
    ("normalized_twice", "scale shift"), ("standardized_per_image", "scale shift"),
    ("relu", "activation"), ("sigmoid", "activation"), ("gelu", "activation"),
    ("clip01", "activation"), ("clip11", "activation"), ("abs", "activation magnitude"), ("zeros", "term inputs"),
    ("standardized", "term"), ("centred", "term shift"), ("unit_rows", "term"), ("unit_dim1", "term axis"),
    ("unit_columns", "term axis"), ("sum_divided", "term"),
    ("softmax", "activation term"),
    ("max_divided", "term"), ("transpose_read_in_order", "inputs"), ("storage_read_transposed", "inputs"),
]}
#: What each of the lecture's known moves claims, by its name.
MOVE_KINDS: dict[str, frozenset[str]] = {name: frozenset(kinds.split()) for name, kinds in [
    ("post_ln", "order term"), ("parallel", "inputs order"), ("one_norm", "term"), ("no_residuals", "term"),
    ("mlp_first", "order"), ("unbiased_variance", "term"), ("eps_outside_root", "term"),
("multiplied", "term"), ("causal_mask", "part term"),
    ("softmax", "activation term"), ("log_softmax", "activation term"), ("mean_pooling", "term inputs"),
    ("no_final_norm", "term inputs"), ("max_pooling", "term inputs"), ("mean_pooling_before_norm", "term inputs"),
    ("max_pooling_before_norm", "term inputs"), ("normalized_again", "inputs"), ("rms_norm", "term"),
    ("bias_in_weights", "term"), ("relu_after_projection", "activation"),
    ("gelu_after_projection", "activation"),
    ("absolute_change", "magnitude"), ("cls_last", "order"), ("cls_zeros", "part term"), ("cls_added", "term"),
    ("cls_without_position", "part term"), ("imagenet_stats", "term scale shift"), ("reshape_no_transpose", "order"),
    ("scale_by_D", "term scale"), ("heads_joined_without_transpose", "order"), ("residual_included", "inputs term"),
    ("tokens_scaled", "term"), ("residual_from_normed", "term inputs"), ("no_pre_norm", "term"),
    ("norms_swapped", "term inputs"), ("uncentred_variance", "term"), ("global_mean", "term"),
    ("position_before_cls", "order term"),
    ("mean_over_tokens", "axis"), ("variance_over_tokens", "axis"),
    ("weight_bias_swapped", "term inputs"), ("no_exp", "activation"), ("max_over_queries", "axis"),
    ("sigmoid", "activation"), ("unit_h", "inputs term"), ("one_head", "term"),
    ("blocks_last_skipped", "term"), ("blocks_reversed", "order"),
    ("blocks_first_repeated", "term inputs"), ("blocks_last_only", "inputs term"), ("blocks_first_skipped", "term"),
    ("final_norm_ln2", "term inputs"), ("blocks_none", "term inputs"), ("covers_softmax_over_batch", "axis"),
    ("covers_target-1", "term inputs"), ("covers_target+1", "term inputs"), ("original_logit", "term"),
    ("covers_at_grid_index", "part"), ("logit_change", "term activation"),
    ("log_probability_change", "term activation"),
    ("bias_multiplied", "term"), ("pixels_scaled_again", "scale shift"), ("covers_from_one", "order part"),
    ("normalized_sum", "term"), ("final_norm_twice", "term inputs"),
    ("encoder_one_head", "term"), ("block_residual_again", "term inputs"),
    ("product_averaged", "scale shift"), ("patches_centred", "inputs"), ("images_transposed", "inputs"),
    ("sum_over_everything", "axis"), ("softmax_over_everything", "axis"), ("mean_over_images", "axis"),
    ("norm_after_sublayer", "inputs order"), ("weight_as_bias", "term inputs"), ("tanh_h", "activation"),
    ("encoder_twelve_heads", "term"), ("top_class", "term inputs"),
    ("product_over_sqrt_K", "scale shift"), ("table_rows_repeated", "term"), ("divided_by_max", "term"),
    ("head_size_as_count", "term"), ("norm_after_every_block", "term inputs"), ("only_drops", "part"),
    ("sigmoid_of_target", "activation"), ("norm_weight_bias_swapped", "inputs term"),
    ("tokens_normalized", "term"), ("patch_mean_pooling", "term inputs"),
    ("patch_mean_pooling_before_norm", "term inputs"), ("cls_plus_patch_mean", "inputs term"),
    ("summary_is_norm_bias", "inputs term"), ("self_masked", "part term"), ("softmax_twice", "activation"),
    ("projection_of_input", "inputs"), ("uncentred_numerator", "term"), ("attention_twice", "term"),
    ("encoder_without_cls", "inputs term"), ("encoder_lecture_heads", "term"),
    ("gain_plus_one", "term"), ("negative_distance", "term"), ("tied_contraction", "inputs term"),
    ("input_normalized_again", "inputs"), ("sum_over_receivers", "axis"), ("residual_averaged", "term"),
    ("final_norm_first", "inputs term"), ("clipped_to_unit_range", "part activation"),
    ("patches_normalized", "inputs"), ("tanh_after_projection", "activation"), ("unit_class_vectors", "inputs"),
    ("each_block_twice", "term"), ("first_channel_only", "part"), ("variance_over_everything", "axis"),
    ("pseudo_inverse", "term"), ("weights_averaged_over_heads", "term axis"), ("updates_subtracted", "sign term"),
    ("value_added", "fill"), ("bias_over_std", "term"), ("cosine_scores", "inputs term"),
    ("ln1_weight_as_bias", "term inputs"), ("ln2_weight_as_bias", "term inputs"), ("value_multiplied", "fill"),
    ("unit_length_rows", "term"), ("values_from_input", "inputs term"), ("normalized_sigmoid", "activation"),
    ("cls_and_first_patch_averaged", "inputs term"), ("layer_scale_0.1", "term scale"),
    ("layer_scale_0.5", "term scale"), ("position_each_block", "term inputs"), ("cls_reset_each_block", "inputs term"),
    ("first_head_q", "inputs term"), ("first_head_k", "inputs term"), ("first_head_v", "inputs term"),
    ("patches_pixel_major", "inputs"), ("patches_channel_major_again", "inputs"),
    ("covers_on_row_diagonal", "part inputs"), ("covers_on_column_diagonal", "part inputs"),
    ("cover_side_grid_count", "part inputs"), ("first_source_masked", "part term"), ("v_for_k", "inputs term"),
    ("k_for_q", "inputs term"), ("v_for_q", "inputs term"), ("q_for_k", "inputs term"),
    ("output_normalized_ln1", "term"),
    ("output_normalized_ln2", "term"), ("only_the_quarter_shown", "inputs"), ("diagonal_only", "part"),
    ("embedding_added_to_output", "inputs term"), ("negative_distance_scores", "term"),
    ("norms_without_parameters", "term inputs"), ("coordinatewise_maximum", "term"),
    ("original_top_class", "term shift"), ("images_normalized_twice", "inputs scale shift"),
    ("first_channel_kernel", "part inputs"), ("product_over_sqrt_d", "term scale"), ("cls_only_updated", "inputs"),
    ("covers_accumulate", "inputs"), ("covers_at_16_pixel_steps", "inputs part"), ("covers_normalized_again", "inputs"),
    ("exp2", "activation term scale"), ("median_centred", "term"), ("ln1_twice", "inputs term"),
    ("ln2_twice", "inputs term"), ("encoder_head_size_as_count", "term"),
    ("embedded_normalized", "term"), ("summed_features_product", "term"), ("mean_over_image", "axis term"),
    ("variance_over_image", "axis term"), ("affine_before_normalizing", "term order"),
    ("one_norm_ln2", "term inputs"), ("heads_joined_from_feature_major", "order"),
    ("first_head_W_o", "inputs term"), ("embedding_after_every_block", "term inputs"), ("blocks_last_repeated", "term"),
    ("square_mean_colour", "fill"), ("covers_at_grid_count_steps", "inputs part"), ("predicted_class_map", "inputs"),
    ("predicted_class", "inputs"), ("quadrant_covers_full_side", "inputs part"),
    ("row_maxima_along_columns", "axis term"), ("softmax_of_exponentials", "activation"), ("mlp_twice", "term"),
    ("attention_across_images", "axis"), ("ln1_weight_bias_swapped", "inputs term"),
    ("ln2_weight_bias_swapped", "inputs term"), ("sum_for_mean", "term"), ("sum_over_first_axis", "term"),
    ("centred_squared_in_place", "term activation"), ("cosine_logits", "inputs term"),
    ("blocks_last_for_every", "inputs term"), ("embedded_scaled", "inputs term"), ("only_the_patch_shown", "inputs"),
    ("quadrants_softmax_over_everything", "axis"),
    ("embedded_normalized_ln1", "term"), ("scores_symmetrized", "term"), ("hard_attention", "activation"),
    ("variance_over_images", "axis"), ("mlp_reads_attention", "inputs term"), ("stream_starts_normalized", "inputs"),
    ("change_read", "inputs term"), ("updates_in_parallel", "inputs term"), ("square_grayscale", "fill part"),
    ("translucent", "fill part"), ("covers_at_patch_centres", "inputs"),
    ("upper_scores_zeroed", "part term"), ("variance_over_D_again", "term"), ("pre_and_post_norm", "term"),
    ("affine_twice", "term"), ("position_again", "term inputs"), ("blocks_first_doubled", "term"),
    ("covered_logits", "activation term"),
]}


#: The single numbers whose every edit changes the whole result alike, and how: normalize's
#: (x / 255 − 0.5) / 0.5 is shifted by another mean, scaled by another std, both by another range;
#: another √d scales the scores (a softmax's temperature); q, k or v taken from another block of columns is
#: computed from a wrong input.
QUANTITY_KINDS: dict[str, frozenset[str]] = {"pixel_mean": frozenset({"shift"}), "pixel_std": frozenset({"scale"}),
                                             "pixel_range": frozenset({"scale", "shift"}),
                                             "sqrt_d": frozenset({"scale"}),
                                             "qkv_parts": frozenset({"inputs"})}


#: The edit kinds that are no step of the lecture's computation but an operation put on any quantity (or one
#: quantity added to another of its shape): they name a mistake only where no other edit gives the numbers
#: (a LayerNorm of rows already normalized at another eps gives the numbers of several of LayerNorm's own
#: edits within the tolerance).
GENERIC_EDITS = frozenset({"applied", "applied_to_input", "added_to"})


def generic(finding_id: str) -> bool:
    """Whether an edit finding (`edit.<kind>:...`) is one of GENERIC_EDITS only."""
    prefix, _, edits = finding_id.partition(".")
    return prefix == "edit" and all(edit.partition(":")[0] in GENERIC_EDITS for edit in edits.split("|"))


def edit_kinds(finding_id: str) -> frozenset[str]:
    """The kinds of structure an edit finding (`edit.<kind>:<quantity>...`) claims; none for others.
    Edits that give the same numbers on a case (`edit.<one>|<other>`) claim what either claims.
    A changed constant claims a wrong fill where it is the cover's fill, a wrong term elsewhere (eps);
    another row read than CLS is a wrong term and a wrong input (the function reads another token)."""
    prefix, _, edits = finding_id.partition(".")
    if prefix != "edit":
        return frozenset()
    return frozenset().union(*(_one_edit_kinds(edit) for edit in edits.split("|")))


def _one_edit_kinds(edit: str) -> frozenset[str]:
    kind, _, rest = edit.partition(":")
    if kind == "move":
        return MOVE_KINDS.get(rest, frozenset())
    quantity = rest.split(":")[0]
    if kind == "constant":
        return frozenset({"fill"} if quantity == "fill" else {"term"})
    if kind == "index":  # another row, or another class's column, read
        return frozenset({"term", "inputs"})
    if kind in ("applied", "applied_to_input"):
        operation = APPLIED_KINDS.get(rest.split(":")[-1], frozenset())
        return operation | ({"inputs"} if kind == "applied_to_input" else set())
    if kind == "size" and rest.endswith(":0"):  # no pixels covered: the sizes read from the wrong axes
        return frozenset({"part", "constant", "inputs"})
    replaced = REPLACED_KINDS.get(rest, frozenset()) if kind == "replaced" else frozenset()
    return EDIT_KINDS.get(kind, frozenset()) | QUANTITY_KINDS.get(quantity, frozenset()) | replaced


def kinds_of(finding_id: str) -> frozenset[str]:
    """The kinds of structure a diagnosis finding or an edit claims (none for other findings)."""
    prefix, _, name = finding_id.partition(".")
    if prefix == "edit":
        return edit_kinds(finding_id)
    return FINDINGS[name][1] if prefix == "diagnosis" and name in FINDINGS else frozenset()


#: Kinds of structure said beside a named edit only where the edit claims them too. A result that is
#: one value everywhere reads as "your function returns a constant"; where an edit reproduces the
#: numbers (another class's probabilities, all near zero) that edit already says what was done.
SAID_ALONE = frozenset({"constant"})


def beside(edit_id: str, structure_id: str) -> bool:
    """Whether a structural finding is said beside a named edit, saying how that edit shows in the
    numbers (an approximate GELU: approximately right everywhere); not one of SAID_ALONE's kinds
    that the edit does not claim, which would send the student to another mistake."""
    structure = kinds_of(structure_id)
    return not structure & SAID_ALONE or bool(structure & kinds_of(edit_id))
