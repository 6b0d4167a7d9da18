"""The lecture's known moves, per function: whole-computation mistakes the role edits cannot spell
(normalise after the residual, the MLP before the attention, GELU written otherwise, the encoder's
blocks rerun in another order or count, a cover written otherwise)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from grader import lecture_maths as maths
from grader.checkpoint import HEADS
from grader.search.edits import reproducible_floor
from grader.search.words import Candidate, sentence, transformed


def moves(function: str, trace: Any, every: bool = False) -> Iterator[Candidate]:
    """The moves of `function`, for its recorded computation `trace`. With `every`, also those that rerun a
    whole encoder of many blocks (the fixture builder has the time)."""
    yield from _MOVES.get(function, _no_moves)()
    if function == "vit_forward":
        yield from _block_loop_moves(trace, every)


def _no_moves() -> Iterator[Candidate]:
    return iter(())


def _ln(value: Any, t: Any, weight: str, bias: str) -> Any:
    return maths.layer_norm(value, t[weight], t[bias])


def _block_moves() -> Iterator[Candidate]:
    post_ln = maths.Edit((
        maths.Change("ln1", lambda v, t: t["x"]),
        maths.Change("u", lambda v, t: _ln(v, t, "ln1_weight", "ln1_bias")),
        maths.Change("ln2", lambda v, t: t["u"]),
        maths.Change("out", lambda v, t: _ln(v, t, "ln2_weight", "ln2_bias"))))
    yield Candidate("move:post_ln", sentence("with each LayerNorm moved after its residual add (post-LN): the "
                                              "lecture's block is pre-LN, u = x + MSA(LN1(x))"), 34, post_ln)
    yield Candidate("move:pre_and_post_norm", sentence(
        "with each sublayer's LayerNorm applied after its residual add as well, u = LN1(x + MSA(LN1(x))) (the "
        "Transformer's add & norm kept beside the pre-norm): the pre-LN block normalizes only the sublayers' "
        "inputs, u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("u", lambda v, t: _ln(v, t, "ln1_weight", "ln1_bias")),
                    maths.Change("out", lambda v, t: _ln(v, t, "ln2_weight", "ln2_bias")))))
    yield Candidate("move:parallel", sentence("with the MLP reading LN2(x) of the block's input, in parallel with "
                                               "the attention; it reads LN2(u), after the attention's update"), 35,
                    transformed("ln2", lambda v, t: _ln(t["x"], t, "ln2_weight", "ln2_bias")))
    yield Candidate("move:one_norm", sentence("with LN1's weight and bias in both LayerNorms; the MLP's LN2 has "
                                               "its own"), 36,
                    transformed("ln2", lambda v, t: _ln(t["u"], t, "ln1_weight", "ln1_bias")))
    yield Candidate("move:one_norm_ln2", sentence("with LN2's weight and bias in both LayerNorms; the attention's "
                                                   "LN1 has its own"), 36,
                    transformed("ln1", lambda v, t: _ln(t["x"], t, "ln2_weight", "ln2_bias")))
    yield Candidate("move:no_residuals", sentence("without both residual adds: the block returns "
                                                   "MLP(LN2(MSA(LN1(x)))); the residuals keep x and u"), 34,
                    maths.left_out("residual_1") + maths.left_out("residual_2"))
    yield Candidate("move:attention_twice", sentence(
        "with the attention sublayer run a second time where the MLP belongs: u + MSA(LN2(u)); the second "
        "sublayer is the MLP, u + MLP(LN2(u))"), 35,
        transformed("mlp", lambda v, t: maths.multi_head_attention(t["ln2"], t["params"].W_qkv, t["params"].b_qkv,
                                                                t["params"].W_o, t["params"].b_o,
                                                                t["heads_count"])))
    yield Candidate("move:mlp_reads_attention", sentence(
        "with the MLP reading the attention of LN2(u), MLP(MSA(LN2(u))): the second sublayer is the MLP alone, "
        "u + MLP(LN2(u))"), 35,
        transformed("ln2", lambda v, t: maths.multi_head_attention(v, t["params"].W_qkv, t["params"].b_qkv,
                                                                   t["params"].W_o, t["params"].b_o,
                                                                   t["heads_count"])))
    yield Candidate("move:stream_starts_normalized", sentence(
        "with the residual stream started from LN1(x) instead of x: u = LN1(x) + MSA(LN1(LN1(x))); the stream "
        "keeps x as it is, and LN1 only feeds the attention"), 34,
        transformed("x", lambda v, t: maths.layer_norm(v, t["params"].ln1_weight, t["params"].ln1_bias)))
    yield Candidate("move:mlp_twice", sentence(
        "with the MLP sublayer run in the attention's place too: x + MLP(LN1(x)), then u + MLP(LN2(u)); the first "
        "sublayer is the attention, u = x + MSA(LN1(x))"), 34,
        transformed("attn", lambda v, t: maths.mlp(t["ln1"], t["params"].W_1, t["params"].b_1, t["params"].W_2,
                                                   t["params"].b_2)))
    yield Candidate("move:attention_across_images", sentence(
        "with the attention run across the images of the batch, the rows handed over as (N, B, D) (as "
        "nn.MultiheadAttention reads them without batch_first): each token attends to the same position in the "
        "other images; attention mixes the N tokens of one image, (B, N, D)"), 34,
        transformed("attn", lambda v, t: maths.multi_head_attention(
            t["ln1"].swapaxes(0, 1), t["params"].W_qkv, t["params"].b_qkv, t["params"].W_o, t["params"].b_o,
            t["heads_count"]).swapaxes(0, 1)), across_images=True)
    yield Candidate("move:residual_averaged", sentence(
        "with each update averaged with the rows, (x + MSA(LN1(x)))/2 and (u + MLP(LN2(u)))/2: the residual adds "
        "the update, u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("u", lambda v, t: v / 2), maths.Change("out", lambda v, t: v / 2))))
    yield Candidate("move:updates_subtracted", sentence(
        "with each update subtracted from the rows, u = x − MSA(LN1(x)) and u − MLP(LN2(u)); the residual adds "
        "it: u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("u", lambda v, t: t["x"] - t["attn"]),
                    maths.Change("out", lambda v, t: t["u"] - t["mlp"]))))
    yield Candidate("move:mlp_first", sentence("with the MLP sublayer before the attention sublayer; the "
                                                "attention comes first: u = x + MSA(LN1(x)), then u + MLP(LN2(u))"),
                    34, transformed("out", _mlp_first))
    yield Candidate("move:residual_from_normed", sentence(
        "with each update added to the normalized rows, LN1(x) + MSA(LN1(x)); the residual keeps the "
        "unnormalized stream: u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("residual_1", lambda v, t: t["ln1"]),
                    maths.Change("residual_2", lambda v, t: t["ln2"]))))
    yield Candidate("move:no_pre_norm", sentence("without both LayerNorms: the sublayers read x and u as they "
                                                  "are; each reads its LayerNorm's output, MSA(LN1(x))"), 34,
                    maths.Edit((maths.Change("ln1", lambda v, t: t["x"]), maths.Change("ln2", lambda v, t: t["u"]))))
    yield Candidate("move:norm_after_sublayer", sentence(
        "with each sublayer's output normalized instead of its input: u = x + LN1(MSA(x)), the attention reading x "
        "as it is; each sublayer reads its LayerNorm's output, u = x + MSA(LN1(x))"), 34,
        maths.Edit((maths.Change("ln1", lambda v, t: t["x"]),
                    maths.Change("attn", lambda v, t: _ln(v, t, "ln1_weight", "ln1_bias")),
                    maths.Change("ln2", lambda v, t: t["u"]),
                    maths.Change("mlp", lambda v, t: _ln(v, t, "ln2_weight", "ln2_bias")))))
    yield Candidate("move:norm_weight_bias_swapped", sentence(
        "with each LayerNorm's weight and bias swapped: the rows scaled by the bias and shifted by the weight, in "
        "LN1 and LN2"), 36,
        maths.Edit((maths.Change("ln1", lambda v, t: _ln(t["x"], t, "ln1_bias", "ln1_weight")),
                    maths.Change("ln2", lambda v, t: _ln(t["u"], t, "ln2_bias", "ln2_weight")))))
    for factor in (0.1, 0.5):
        yield Candidate(f"move:layer_scale_{factor:g}", sentence(
            f"with both updates scaled by {factor:g} before they are added (a LayerScale): x + MSA(LN1(x)) and "
            "u + MLP(LN2(u)) add them whole"), 34,
            maths.Edit((maths.Change("attn", lambda v, t, c=factor: c * v),
                        maths.Change("mlp", lambda v, t, c=factor: c * v))))
    for norm, rows in (("ln1", "x"), ("ln2", "u")):
        yield Candidate(f"move:{norm}_weight_bias_swapped", sentence(
            f"with {norm.upper()}'s weight and bias swapped: the rows it hands on scaled by {norm}_bias and shifted "
            f"by {norm}_weight"), 36,
            transformed(norm, lambda v, t, n=norm, r=rows: _ln(t[r], t, f"{n}_bias", f"{n}_weight")))
        yield Candidate(f"move:{norm}_weight_as_bias", sentence(
            f"with {norm.upper()}'s weight passed as its bias too: the rows it hands on scaled by {norm}_weight, then "
            f"shifted by {norm}_weight instead of {norm}_bias"), 36,
            transformed(norm, lambda v, t, n=norm, r=rows: _ln(t[r], t, f"{n}_weight", f"{n}_weight")))
    yield Candidate("move:norms_without_parameters", sentence(
        "with both LayerNorms without their weight and bias (F.layer_norm given only the shape): each row to mean "
        "0 and variance 1 alone; LN1 and LN2 then scale and shift by their own weight and bias"), 36,
        maths.Edit((maths.Change("ln1", lambda v, t: _plain_layer_norm(t["x"])),
                    maths.Change("ln2", lambda v, t: _plain_layer_norm(t["u"])))))
    for norm in ("ln1", "ln2"):
        yield Candidate(f"move:output_normalized_{norm}", sentence(
            f"with the block's output normalized by {norm.upper()} (its weight and bias) before it is returned, as "
            "a post-LN block ends; the pre-LN block returns the stream u + MLP(LN2(u)) as it is"), 34,
            transformed("out", lambda v, t, n=norm: _ln(v, t, f"{n}_weight", f"{n}_bias")))
    for norm in ("ln1", "ln2"):
        yield Candidate(f"move:{norm}_twice", sentence(
            f"with {norm.upper()} applied twice, {norm.upper()}({norm.upper()}(·)), before its sublayer: the sublayer "
            "reads the rows normalized once, and a sublayer that normalizes its own input is handed them as they "
            "are"), 34, transformed(norm, lambda v, t, n=norm: _ln(v, t, f"{n}_weight", f"{n}_bias")))
    yield Candidate("move:norms_swapped", sentence("with LN2's weight and bias before the attention and LN1's "
                                                    "before the MLP; LN1 belongs to the attention"), 36,
                    maths.Edit((maths.Change("ln1", lambda v, t: _ln(t["x"], t, "ln2_weight", "ln2_bias")),
                                maths.Change("ln2", lambda v, t: _ln(t["u"], t, "ln1_weight", "ln1_bias")))))
    yield from _activation_moves()


def _mlp_first(value: Any, t: Any) -> Any:
    """The block's two sublayers swapped, each with its own LayerNorm and weights."""
    p = t["params"]
    u = t["x"] + maths.mlp(maths.layer_norm(t["x"], p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)
    heads = t["heads_count"]
    return u + maths.multi_head_attention(maths.layer_norm(u, p.ln1_weight, p.ln1_bias), p.W_qkv, p.b_qkv,
                                          p.W_o, p.b_o, heads)


#: GELU(z) = half · z · (one + erf(z / root) · outer) with one of its constants changed or moved, as the
#: lecture writes it (page 35): ((half, one, root[, outer]), what was written, the lecture's).
GELU_FORMULAS = (((1.0, 1.0, np.sqrt(2)), "without the 0.5: z·(1 + erf(z/√2))", "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 0.0, np.sqrt(2)), "without the 1 +: 0.5·z·erf(z/√2)", "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 1.0, 1 / np.sqrt(2)), "with erf(z·√2)", "erf(z/√2)"),
                 ((0.5, 1.0, 2.0), "with erf(z/2)", "erf(z/√2)"),
                 ((0.5, 1.0, 1.0), "with erf(z)", "erf(z/√2)"),
                 ((1.0, 0.0, np.sqrt(2)), "as z·erf(z/√2), without the 0.5 and the 1 +", "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 1.0, 1.0, 1 / np.sqrt(2)), "with erf(z)/√2, the √2 dividing erf instead of z",
                  "erf(z/√2)"),
                 ((0.5, 1.0, 4.0), "with erf(z/4), as `z / 2 ** 1/2` computes: Python reads it (z / 2 ** 1) / 2, "
                  "** binding before /; √2 is 2 ** 0.5", "erf(z/√2)"),
                 ((1.0, 0.5, np.sqrt(2)), "z·(0.5 + erf(z/√2)), the 0.5 multiplying the 1 alone",
                  "0.5·z·(1 + erf(z/√2))"),
                 ((0.5, 1.0, np.sqrt(2 * np.pi)), "with erf(z/√(2π)), the normal density's constant",
                  "erf(z/√2)"),
                 ((0.5, 1.0, np.sqrt(np.pi / 2)), "with erf(z·√(2/π)), the tanh approximation's constant inside "
                  "erf", "erf(z/√2)"),
                 ((0.5 / np.sqrt(2), 1.0, 1.0), "as 0.5·z·(1 + erf(z))/√2, the √2 dividing the whole GELU instead of "
                  "z inside erf", "0.5·z·(1 + erf(z/√2))"),
                 ((1.0, 0.0, 1.0), "as z·erf(z), erf taken for Φ itself: Φ(z) is (1 + erf(z/√2))/2",
                  "z·Φ(z) = 0.5·z·(1 + erf(z/√2))"))


def _gelu_formula(half: float, one: float, root: float, outer: float = 1.0) -> Callable[[Any], Any]:
    erf = maths.ops_for(np.zeros(1)).erf
    return lambda t: half * t["hidden"] * (one + erf(t["hidden"] / root) * outer)


def _activation_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    for index, (constants, written, lecture) in enumerate(GELU_FORMULAS):
        yield Candidate(f"activation:gelu_formula_{index + 1}", sentence(
            f"with GELU written {written}; the lecture's is {lecture}"), 35,
            maths.recomputed("activated", _gelu_formula(*constants)))
    yield Candidate("activation:sigmoid_gelu", sentence("with z·σ(1.702·z), the sigmoid approximation of GELU; "
                                                         "the lecture's GELU is the exact (erf) one"), 35,
                    maths.recomputed("activated", lambda t: t["hidden"] * _sigmoid(1.702 * t["hidden"])))
    yield Candidate("activation:gelu_bracket_added", sentence(
        "with GELU written 0.5·(z + erf(z/√2)), erf added to z where z multiplies (1 + erf): the lecture's is "
        "0.5·z·(1 + erf(z/√2))"), 35,
        maths.recomputed("activated", lambda t: 0.5 * (t["hidden"] + ops.erf(t["hidden"] / np.sqrt(2)))))
    yield Candidate("activation:gelu_brackets_dropped", sentence(
        "with GELU written 0.5·z + erf(z/√2), the brackets round 1 + erf dropped: the lecture's is "
        "0.5·z·(1 + erf(z/√2))"), 35,
        maths.recomputed("activated", lambda t: 0.5 * t["hidden"] + ops.erf(t["hidden"] / np.sqrt(2))))
    yield Candidate("activation:tanh_for_erf", sentence(
        "with tanh where GELU has erf, 0.5·z·(1 + tanh(z/√2)), without the tanh approximation's own argument "
        "√(2/π)·(z + 0.044715·z³); the lecture's GELU is 0.5·z·(1 + erf(z/√2))"), 35,
        maths.recomputed("activated", lambda t: 0.5 * t["hidden"] * (1 + np.tanh(t["hidden"] / np.sqrt(2)))))
    yield Candidate("activation:tanh_gelu", sentence("with the tanh approximation of GELU; the lecture's GELU is "
                                                      "the exact (erf) one"), 35,
                    maths.recomputed("activated", lambda t: ops.gelu(t["hidden"], approximate="tanh")))
    yield Candidate("activation:floor_inside_erf", sentence(
        "with a floor division inside erf, 0.5·z·(1 + erf(z // √2)): // rounds z/√2 down to a whole number, so "
        "GELU jumps in steps; the lecture's is 0.5·z·(1 + erf(z/√2))"), 35,
        maths.recomputed("activated", lambda t: 0.5 * t["hidden"] * (1 + ops.erf(reproducible_floor(t["hidden"] /
                                                                                                   np.sqrt(2))))))
    yield Candidate("activation:tanh_gelu_without_cubic", sentence(
        "with the tanh approximation of GELU without its cubic term, 0.5·z·(1 + tanh(√(2/π)·z)): the approximation "
        "is tanh(√(2/π)·(z + 0.044715·z³)), and the lecture's GELU is the exact (erf) one"), 35,
        maths.recomputed("activated", lambda t: 0.5 * t["hidden"] * (1 + np.tanh(np.sqrt(2 / np.pi) * t["hidden"]))))
    yield Candidate("activation:elu", sentence("with ELU, z for z > 0 and e^z − 1 below, where the MLP's activation "
                                                "is GELU, z·Φ(z)"), 35,
                    maths.recomputed("activated", lambda t: np.where(t["hidden"] > 0, t["hidden"],
                                                                     np.expm1(np.minimum(t["hidden"], 0)))))
    yield Candidate("activation:relu", sentence("with ReLU where the MLP's activation is GELU"), 35,
                    maths.recomputed("activated", lambda t: ops.relu(t["hidden"])))
    yield Candidate("activation:sigmoid", sentence("with a sigmoid where the MLP's activation is GELU"), 35,
                    maths.recomputed("activated", lambda t: _sigmoid(t["hidden"])))
    yield Candidate("activation:normal_cdf", sentence("with Φ(z) alone, the normal distribution's CDF, where "
                                                       "GELU is z·Φ(z)"), 35,
                    maths.recomputed("activated", lambda t: ops.gelu(t["hidden"]) / t["hidden"]))
    yield Candidate("activation:normal_density", sentence(
        "with z·φ(z), φ the normal distribution's density (the bell curve), where GELU is z·Φ(z), Φ its CDF"), 35,
        maths.recomputed("activated", lambda t: t["hidden"] * np.exp(-0.5 * np.square(t["hidden"]))
                         / np.sqrt(2 * np.pi)))
    yield Candidate("activation:complement_cdf", sentence(
        "with z·(1 − Φ(z)), the sign before erf slipped: 0.5·z·(1 − erf(z/√2)); GELU is z·Φ(z) = "
        "0.5·z·(1 + erf(z/√2))"), 35, maths.recomputed("activated", lambda t: t["hidden"] - ops.gelu(t["hidden"])))
    yield Candidate("activation:silu", sentence("with SiLU, z·σ(z), where the MLP's activation is GELU, z·Φ(z) "
                                                 "with Φ the normal distribution's CDF"), 35,
                    maths.recomputed("activated", lambda t: t["hidden"] * _sigmoid(t["hidden"])))


def _mlp_moves() -> Iterator[Candidate]:
    yield from _activation_moves()
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("activation:gelu_after_output", sentence("with GELU applied after W_2 as well; the MLP's "
                                                              "output is activated @ W_2 + b_2, no GELU after it"),
                    35, transformed("mlp", lambda v, t: ops.gelu(v)))
    yield Candidate("move:tied_contraction", sentence(
        "with W_1 transposed where W_2 belongs (the two layers tied, W_2 = W_1ᵀ, as in tied embeddings); the MLP's "
        "contraction has weights of its own: activated @ W_2 + b_2"), 35,
        maths.recomputed("mlp", lambda t: t["activated"] @ t["call_args"][1].T + t["b_2"]))


def _unit_length_rows() -> Candidate:
    return Candidate("move:unit_length_rows", sentence(
        "with each row divided by its length, x / |x| (unit length, as for a direction), where LayerNorm subtracts "
        "the row's mean and divides by the standard deviation"), 36,
        maths.recomputed("normalized", lambda t: _unit_length(_uncentred(t), -1)))


def _layer_norm_moves() -> Iterator[Candidate]:
    yield from _normalization_moves()
    yield from _norm_parameter_moves()


def _normalization_moves() -> Iterator[Candidate]:
    """LayerNorm's own computation done otherwise: in `layer_norm`, and in the final norm `read_cls` writes."""
    yield Candidate("move:unbiased_variance", sentence("with the unbiased variance (divided by D - 1); LayerNorm "
                                                        "divides by D"), 36,
                    transformed("var", lambda v, t: v * t["centred"].shape[t["norm_axis"]]
                               / (t["centred"].shape[t["norm_axis"]] - 1)))
    yield Candidate("move:median_centred", sentence(
        "with each row's median subtracted where its mean goes (torch's median, the lower of the two middle values "
        "of an even row): LayerNorm centres each row on its mean, then divides by the spread about it"), 36,
        transformed("centred", lambda v, t: (v + t["mean"]) - _lower_median(v + t["mean"], t["norm_axis"])))
    # the rows are the call's first argument (layer_norm's x, read_cls's encoded rows); len(x) counts the batch
    for name, words, factor in (("sum_for_mean", "each row's sum (x.sum(dim=-1)) subtracted where its mean goes",
                                 lambda x: x.shape[-1]),
                                ("sum_over_first_axis", "each row's sum divided by len(x), the size of the first "
                                 "axis, where its mean goes (len counts the images, not the D features)",
                                 lambda x: x.shape[-1] / x.shape[0])):
        yield Candidate(f"move:{name}", sentence(f"with {words}: LayerNorm centres each row on its mean, the sum "
                                                 "over D"), 36,
                        transformed("mean", lambda v, t, f=factor: v * f(t["call_args"][0])),
                        across_images=name == "sum_over_first_axis")
    yield Candidate("move:variance_over_D_again", sentence(
        "with the variance divided by D once more, mean((x − mean)²) / D: the mean already divides the sum of "
        "squares by D"), 36,
        transformed("var", lambda v, t: v / t["centred"].shape[t["norm_axis"]]))
    yield Candidate("move:centred_squared_in_place", sentence(
        "with the centred rows squared in place while the variance is taken (pow_ for pow): the numerator is then "
        "(x − mean)², not x − mean; an in-place operation changes the tensor the next line reads"), 36,
        maths.recomputed("normalized", lambda t: np.square(t["centred"]) / t["std"]))
    yield Candidate("move:eps_outside_root", sentence("with eps added after the square root; it goes inside: "
                                                       "√(var + eps)"), 36,
                    maths.recomputed("std", lambda t: np.sqrt(t["var"]) + t["eps"]))
    yield Candidate("move:uncentred_variance", sentence("with the variance taken of the uncentred rows, the mean "
                                                         "of x²; it is the mean of (x − mean)²"), 36,
                    maths.recomputed("var", lambda t: _row_mean(np.square(_uncentred(t)), t)))
    yield Candidate("move:uncentred_numerator", sentence(
        "with the uncentred rows divided by the standard deviation, x / σ: the mean is subtracted from the rows "
        "themselves too, (x − mean) / σ, not only inside the variance"), 36,
        maths.recomputed("normalized", lambda t: _uncentred(t) / t["std"]))
    yield _unit_length_rows()
    yield Candidate("move:rms_norm", sentence("without centring: each row divided by its root mean square "
                                               "(RMSNorm); LayerNorm subtracts the row's mean first, then divides "
                                               "by the standard deviation"), 36,
                    maths.recomputed("normalized", lambda t: _root_mean_square_normalized(_uncentred(t), t)))
    yield Candidate("move:mean_over_tokens", sentence("with each feature's mean over the tokens subtracted; "
                                                       "LayerNorm centres each token on the mean of its own "
                                                       "features"), 36,
                    maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, mean_axis=-2)))
    yield Candidate("move:variance_over_tokens", sentence("with each feature's variance over the tokens; "
                                                           "LayerNorm divides each token by the standard deviation "
                                                           "of its own features"), 36,
                    maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, var_axis=-2)))
    yield Candidate("move:mean_over_images", sentence(
        "with each feature's mean over the images of the batch subtracted (dim 0, as BatchNorm centres; with one "
        "image that mean is the row itself, and only the bias is left); LayerNorm centres each token on the mean "
        "of its own features"), 36,
        maths.recomputed("normalized", lambda t: _standardized(_uncentred(t), t, mean_axis=0)), across_images=True)
    yield Candidate("move:variance_over_images", sentence(
        "with each feature's variance over the images of the batch (dim 0): LayerNorm divides each token by the "
        "standard deviation of its own features, dim=-1"), 36,
        transformed("var", lambda v, t: np.broadcast_to(np.square(t["centred"]).mean(axis=0, keepdims=True),
                                                        t["centred"].shape)), across_images=True)
    yield Candidate("move:variance_over_everything", sentence(
        "with one variance for the whole tensor, over every image, token and feature (the mean of (x − mean)² "
        "taken without dim=-1): each row is centred on its own mean, then divided by the standard deviation of "
        "its own features"), 36,
        transformed("var", lambda v, t: np.broadcast_to(np.square(t["centred"]).mean(), v.shape)), across_images=True)
    yield Candidate("move:mean_over_image", sentence(
        "with each image's mean over all its tokens and features subtracted (dim=(-2, -1)): LayerNorm centres each "
        "token on the mean of its own features, dim=-1"), 36,
        transformed("centred", lambda v, t: (v + t["mean"]) - (v + t["mean"]).mean(axis=(-2, -1), keepdims=True)))
    yield Candidate("move:variance_over_image", sentence(
        "with one variance for each image, over all its tokens and features (dim=(-2, -1)): LayerNorm divides each "
        "token by the standard deviation of its own features, dim=-1"), 36,
        transformed("var", lambda v, t: np.broadcast_to(np.square(t["centred"]).mean(axis=(-2, -1), keepdims=True),
                                                        v.shape)))
    yield Candidate("move:global_mean", sentence("with the mean of the whole tensor subtracted from every row; "
                                                  "LayerNorm subtracts each row's own mean"), 36,
                    transformed("centred", lambda v, t: (v + t["mean"]) - (v + t["mean"]).mean()), across_images=True)


def _lower_median(x: Any, axis: int) -> Any:
    """torch.median along `axis`, kept as an axis of 1: of an even count, the lower of the two middle values."""
    return np.take(np.sort(x, axis=axis), [(x.shape[axis] - 1) // 2], axis=axis)


def _row_mean(value: Any, t: Any) -> Any:
    return value.mean(axis=t["norm_axis"], keepdims=True)


def _uncentred(t: Any) -> Any:
    """LayerNorm's input rows, as the centred rows plus their mean."""
    return t["centred"] + t["mean"]


def _standardized(x: Any, t: Any, mean_axis: int | None = None, var_axis: int | None = None) -> Any:
    """LayerNorm's rows with the mean, or the variance, taken along another axis than the features."""
    centred = x - x.mean(axis=t["norm_axis"] if mean_axis is None else mean_axis, keepdims=True)
    var = np.square(centred).mean(axis=t["norm_axis"] if var_axis is None else var_axis, keepdims=True)
    return centred / np.sqrt(var + t["eps"])


def _root_mean_square_normalized(x: Any, t: Any) -> Any:
    """RMSNorm's rows: x / √(mean(x²) + eps), nothing subtracted."""
    return x / np.sqrt(_row_mean(np.square(x), t) + t["eps"])


def _norm_parameter_moves() -> Iterator[Candidate]:
    yield Candidate("move:weight_bias_swapped", sentence("with LayerNorm's weight and bias swapped: the rows "
                                                          "scaled by the bias and shifted by the weight"), 36,
                    maths.recomputed("ln_out", lambda t: t["normalized"] * t["ln_bias"] + t["ln_weight"]))
    yield Candidate("move:weight_as_bias", sentence("with LayerNorm's weight passed as its bias too: the rows "
                                                     "scaled by the weight, then shifted by the weight instead of "
                                                     "the bias"), 36,
                    maths.recomputed("ln_out", lambda t: t["normalized"] * t["ln_weight"] + t["ln_weight"]))
    yield Candidate("move:bias_over_std", sentence(
        "with the bias divided by the standard deviation too, (centred·weight + bias) / σ: only the centred rows "
        "are divided, then scaled and shifted: (x − mean) / σ · weight + bias"), 36,
        maths.recomputed("ln_out", lambda t: t["normalized"] * t["ln_weight"] + t["ln_bias"] / t["std"]))
    yield Candidate("move:affine_before_normalizing", sentence(
        "with the weight and bias applied before the normalization, LN(x·weight + bias) without a scale or shift "
        "after it: LayerNorm normalizes first, then scales and shifts, (x − mean) / σ · weight + bias"), 36,
        maths.recomputed("ln_out", lambda t: _plain_layer_norm(_uncentred(t) * t["ln_weight"] + t["ln_bias"],
                                                               t["eps"])))
    yield Candidate("move:affine_twice", sentence(
        "with the weight and bias applied twice, (normalized · weight + bias) · weight + bias: LayerNorm scales and "
        "shifts its normalized rows once"), 36,
        transformed("ln_out", lambda v, t: v * t["ln_weight"] + t["ln_bias"]))
    yield Candidate("move:gain_plus_one", sentence(
        "with the rows scaled by 1 + weight, as norms whose stored gain is an offset from 1 (initialized at 0) "
        "scale them; this checkpoint stores the gain itself: normalized · weight + bias"), 36,
        maths.recomputed("ln_out", lambda t: t["normalized"] * (1 + t["ln_weight"]) + t["ln_bias"]))


def _position_moves() -> Iterator[Candidate]:
    yield Candidate("move:multiplied", sentence("with the position table multiplied into the tokens instead of "
                                                 "added: WHAT + WHERE"), 16,
                    maths.recomputed("with_position", lambda t: t["tokens"] * t["pos_table"]))


def _attention_moves() -> Iterator[Candidate]:
    def causal(v: Any, t: Any) -> Any:
        n = v.shape[-1]
        return v + np.triu(np.full((n, n), -np.inf), 1)
    yield Candidate("move:causal_mask", sentence("with a causal mask on the scores; ViT attends to every pair"), 30,
                    transformed("scores", causal))
    yield Candidate("move:upper_scores_zeroed", sentence(
        "with the scores above the diagonal set to 0 (.tril() before the softmax, a causal mask's habit), which "
        "still gives those keys weight: ViT masks nothing, every query attends to every key by its own score"), 30,
        transformed("scores", lambda v, t: np.tril(v)))
    yield Candidate("move:self_masked", sentence(
        "with each token's score with itself masked out (the diagonal set to −∞ before the softmax), so no token "
        "attends to itself; ViT attends to every pair, each token to itself too"), 30,
        transformed("scores", lambda v, t: v + np.diag(np.full(v.shape[-1], -np.inf))))
    yield Candidate("move:first_source_masked", sentence(
        "with the first token, CLS, masked out as a source (its column set to −∞ before the softmax), so no token "
        "attends to CLS and each row's weights share out over the others; ViT attends to every pair, CLS both "
        "ways"), 30, transformed("scores", _first_column_masked))
    yield Candidate("move:negative_distance_scores", sentence(
        "with each score minus the distance between query and key, −|q_i − k_j|/√d, nearer meaning larger: the "
        "score is their dot product, q_i·k_j/√d"), 28,
        maths.recomputed("scores", lambda t: -_pair_distances(t["q"], t["k"]) / t["sqrt_d"]))
    yield Candidate("move:exp2", sentence(
        "with 2^s where the softmax takes e^s (exp2 without the log2(e) its kernels multiply the scores by): the "
        "softmax of s·ln 2, flatter than the lecture's"), 28,
        maths.recomputed("A", lambda t: _row_normalized(np.exp2(_shifted(t["scores"], -1)))))
    yield Candidate("move:hard_attention", sentence(
        "with each row's weight all on its best key (a one-hot of the argmax): the softmax shares each row's "
        "weight out over every key, the larger scores getting more"), 28,
        transformed("A", lambda v, t: (v == v.max(axis=-1, keepdims=True)).astype(v.dtype)))
    yield Candidate("move:softmax_twice", sentence(
        "with the softmax applied a second time, to the weights it already gave: the weights are one softmax of "
        "the scores"), 28, transformed("A", lambda v, t: maths.ops_for(v).softmax(v, axis=-1)))
    yield Candidate("move:no_exp", sentence("without the softmax's exponential: the shifted scores divided by "
                                             "their row's sum"), 28,
                    maths.recomputed("A", lambda t: _shifted(t["scores"], -1) / _shifted(t["scores"], -1).sum(
                        axis=-1, keepdims=True)))
    yield Candidate("move:sum_over_everything", sentence(
        "with each row's exponentials divided by their sum over the whole tensor (every image, head and query) "
        "instead of the row's own sum: the whole tensor sums to 1 where each row should"), 28,
        maths.recomputed("A", lambda t: _all_normalized(np.exp(_shifted(t["scores"], -1)))), across_images=True)
    yield Candidate("move:softmax_over_everything", sentence(
        "with one softmax over the whole tensor (every image, head, query and key); the softmax runs over each "
        "query's row of keys"), 28,
        maths.recomputed("A", lambda t: _all_normalized(np.exp(t["scores"] - t["scores"].max()))), across_images=True)
    yield Candidate("move:divided_by_max", sentence(
        "with each row's scores divided by their largest score instead of having it subtracted: the softmax of "
        "rescaled scores (their order reversed in a row whose largest is negative); subtracting the largest only "
        "keeps the exponentials small, the weights stay as they are"), 28,
        maths.recomputed("A", lambda t: _row_normalized(np.exp(t["scores"] / t["scores"].max(axis=-1, keepdims=True)))))
    yield Candidate("move:row_maxima_along_columns", sentence(
        "with row j's largest score subtracted from column j (the maxima taken over dim=-1, then put back on the "
        "wrong axis, [:, :, None] instead of [..., None]): each row must have its own largest subtracted, which "
        "leaves its weights as they are"), 28,
        maths.recomputed("A", lambda t: _row_normalized(np.exp(t["scores"] - t["scores"].max(axis=-1)[..., None, :]))))
    yield Candidate("move:softmax_of_exponentials", sentence(
        "with a softmax taken of the exponentials, softmax(exp(s − max)), where they are divided by their row's "
        "sum: the exponential is taken twice, and the weights come out nearly flat"), 28,
        maths.recomputed("A", lambda t: maths.ops_for(t["scores"]).softmax(np.exp(_shifted(t["scores"], -1)),
                                                                             axis=-1)))
    yield Candidate("move:max_over_queries", sentence("with each key's (column's) largest score subtracted before "
                                                       "the exponential; the softmax subtracts each row's own"), 28,
                    maths.recomputed("A", lambda t: _row_normalized(np.exp(_shifted(t["scores"], -2)))))


def _pair_distances(q: Any, k: Any) -> Any:
    """(..., N, M): the Euclidean distance of every query row to every key row."""
    squared = (q * q).sum(-1)[..., :, None] + (k * k).sum(-1)[..., None, :] - 2 * q @ k.swapaxes(-1, -2)
    return np.sqrt(np.maximum(squared, 0))


def _first_column_masked(scores: Any, t: Any) -> Any:
    masked = scores.copy()
    masked[..., 0] = -np.inf  # (B, H, N, N): no query's weight for source 0
    return masked


def _shifted(scores: Any, axis: int) -> Any:
    return scores - scores.max(axis=axis, keepdims=True)


def _row_normalized(weights: Any) -> Any:
    return weights / weights.sum(axis=-1, keepdims=True)


def _all_normalized(weights: Any) -> Any:
    return weights / weights.sum()


def _logit_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("move:softmax", sentence("followed by a softmax: these are probabilities; return the logits"),
                    52, transformed("logits", lambda v, t: ops.softmax(v, axis=-1)))
    yield Candidate("move:log_softmax", sentence("followed by a log-softmax; return the raw logits"), 52,
                    transformed("logits", lambda v, t: np.log(ops.softmax(v, axis=-1))))
    yield Candidate("move:sigmoid", sentence("followed by a sigmoid, one probability per class; return the raw "
                                              "logits"), 52, transformed("logits", lambda v, t: _sigmoid(v)))
    yield Candidate("move:unit_h", sentence("with h scaled to length 1 before the head; the head reads h as the "
                                             "final LayerNorm left it"), 52,
                    maths.recomputed("logits",
                                     lambda t: _unit_length(_summary(t), -1) @ _head_weights(t) + t["b_head"]))
    yield Candidate("move:tanh_h", sentence("with tanh applied to h before the head, as the pre-logits layer of the "
                                             "original ViT's fine-tuning code; this checkpoint has none, its head "
                                             "reads h as the final LayerNorm left it"), 52,
                    maths.recomputed("logits", lambda t: np.tanh(_summary(t)) @ _head_weights(t) + t["b_head"]))
    yield Candidate("move:unit_class_vectors", sentence(
        "with every class vector w_c (a column of W_head) scaled to length 1, as a cosine classifier compares; "
        "the head's logit is h · w_c + b_c with the weights as trained"), 52,
        maths.recomputed("logits", lambda t: _summary(t) @ _unit_length(_head_weights(t), 0) + t["b_head"]))
    yield Candidate("move:cosine_logits", sentence(
        "with each class scored by the cosine of h and its weight vector w_c, plus the bias (F.cosine_similarity): "
        "the head's score is the dot product, h · w_c + b_c, whose sizes count too"), 52,
        maths.recomputed("logits", lambda t: _unit_length(_summary(t), -1) @ _unit_length(_head_weights(t), 0)
                         + t["b_head"]))
    yield Candidate("move:negative_distance", sentence(
        "with each class scored by minus the distance between h and its weight vector, plus the bias, as a "
        "nearest-prototype classifier scores; the head's score is the dot product, h · w_c + b_c"), 52,
        maths.recomputed("logits", lambda t: t["b_head"] - _distances(_summary(t), _head_weights(t))))


def _distances(h: Any, W: Any) -> Any:
    """(B, C): the Euclidean distance between each summary h (B, D) and each class's column of W (D, C)."""
    return np.sqrt(np.square(h[:, :, None] - W[None]).sum(axis=1))


def _summary(t: Any) -> Any:
    """h of the call: the CLS summary the ViT computed, or classify's first argument."""
    return t["h"] if "h" in t.values else t["call_args"][0]


def _unit_length(x: Any, axis: int) -> Any:
    """x with each vector along `axis` scaled to length 1 (rows: axis -1, columns: axis 0)."""
    return x / np.linalg.norm(x, axis=axis, keepdims=True)


def _head_weights(t: Any) -> Any:
    """W_head of the call: classify's second argument, or the ViT's."""
    args = t["call_args"]
    return args[1].W_head if hasattr(args[1], "W_head") else args[1]


def _read_moves() -> Iterator[Candidate]:
    yield Candidate("move:mean_pooling", sentence("with the mean of all normalized rows (mean pooling) where the "
                                                   "lecture reads the CLS row"), 38,
                    maths.recomputed("h", lambda t: t["normed"].mean(axis=1)))
    yield Candidate("move:no_final_norm", sentence("reading the CLS row before the final LayerNorm"), 38,
                    maths.recomputed("h", lambda t: t["encoded"][:, 0]))
    yield Candidate("move:max_pooling", sentence("with each feature's largest value over the tokens (max pooling) "
                                                  "where the lecture reads the CLS row"), 38,
                    maths.recomputed("h", lambda t: t["normed"].max(axis=1)))
    yield _unit_length_rows()
    yield Candidate("move:cls_and_first_patch_averaged", sentence(
        "with the final LayerNorm of the mean of rows 0 and 1, (CLS + P1) / 2, as distilled models average their "
        "two class tokens; this ViT has one, CLS, row 0"), 38,
        maths.recomputed("h", lambda t: _final_norm(t, t["encoded"][:, :2].mean(axis=1))))
    for name, pool in (("mean", np.mean), ("max", np.max)):
        yield Candidate(f"move:{name}_pooling_before_norm", sentence(
            f"with the final LayerNorm of each feature's {name} over the tokens ({name} pooling) where the lecture "
            "reads the CLS row"), 38,
            maths.recomputed("h", lambda t, f=pool: _final_norm(t, f(t["encoded"], axis=1))))
    yield Candidate("move:patch_mean_pooling", sentence(
        "with the mean of the normalized patch rows, CLS left out (the average pooling of ViTs trained without a "
        "CLS token), where this checkpoint reads the CLS row"), 38,
        maths.recomputed("h", lambda t: t["normed"][:, 1:].mean(axis=1)))
    yield Candidate("move:patch_mean_pooling_before_norm", sentence(
        "with the final LayerNorm of the patch rows' mean, CLS left out (average pooling), where this checkpoint "
        "reads the CLS row"), 38,
        maths.recomputed("h", lambda t: _final_norm(t, t["encoded"][:, 1:].mean(axis=1))))
    yield Candidate("move:cls_plus_patch_mean", sentence(
        "with the CLS row plus the mean of the patch rows, then normalized: the summary is the CLS row alone, "
        "which attention has already filled with what the patches say"), 38,
        maths.recomputed("h", lambda t: _final_norm(t, t["encoded"][:, 0] + t["encoded"][:, 1:].mean(axis=1))))
    yield Candidate("move:summary_is_norm_bias", sentence(
        "with every image's summary equal to the final LayerNorm's bias: the LayerNorm saw one number per image "
        "(which it normalizes to 0), as when the CLS rows taken with [:, 0] are handed on and row 0 is taken "
        "again; normalize every row over its D features, then read row 0"), 38,
        maths.recomputed("h", lambda t: np.broadcast_to(t["ln_bias"], t["encoded"][:, 0].shape).copy()))
    yield from _normalization_moves()
    yield from _norm_parameter_moves()


def _projected_otherwise(project: Callable[[Any, Any, Any], Any]) -> Any:
    """project's tokens computed by `project(patches, W_E, b_E)` from the call's own arguments."""
    return maths.recomputed("tokens", lambda t: project(*t["call_args"][:3]))


def _project_moves() -> Iterator[Candidate]:
    ops = maths.ops_for(np.zeros(1))
    yield Candidate("move:tokens_normalized", sentence(
        "with each token row normalized to mean 0 and variance 1 after the projection, a LayerNorm this "
        "checkpoint does not have there (CLIP's ln_pre); the tokens are X·W_E + b_E as they come"), 10,
        _projected_otherwise(lambda X, W_E, b_E: _plain_layer_norm(X @ W_E + b_E)))
    yield Candidate("move:pixels_scaled_again", sentence("with the patch rows divided by 255 once more: they are "
                                                          "already normalized to [-1, 1] (page 8); project them "
                                                          "as they are"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: (X / 255) @ W_E + b_E))
    yield Candidate("move:bias_multiplied", sentence("with b_E multiplied into each token's features instead "
                                                      "of added: X·W_E + b_E adds the bias"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: (X @ W_E) * b_E))
    yield Candidate("move:product_averaged", sentence(
        "with each token's products x_k·w_kd averaged over the patch row's values instead of summed: X·W_E / K + "
        "b_E for rows of K = 3·P·P values; the projection sums them"), 10,
        _projected_otherwise(lambda X, W_E, b_E: X @ W_E / X.shape[-1] + b_E))
    yield Candidate("move:product_over_sqrt_K", sentence(
        "with X·W_E divided by √K before the bias is added, K = 3·P·P values in a patch row: the 1/√d belongs to "
        "the attention scores (page 28); the projection is X·W_E + b_E"), 10,
        _projected_otherwise(lambda X, W_E, b_E: X @ W_E / np.sqrt(X.shape[-1]) + b_E))
    yield Candidate("move:patches_centred", sentence(
        "with each patch row's own mean subtracted before the projection; ViT projects the patch rows as they "
        "are"), 10, _projected_otherwise(lambda X, W_E, b_E: (X - X.mean(axis=-1, keepdims=True)) @ W_E + b_E))
    yield Candidate("move:bias_in_weights", sentence("with b_E added to every row of W_E instead of once to each "
                                                      "token: X(W_E + b_E) gives each patch b_E times the sum of "
                                                      "its values; the projection is X·W_E + b_E"), 10,
                    _projected_otherwise(lambda X, W_E, b_E: X @ (W_E + b_E)))
    yield Candidate("move:patches_normalized", sentence(
        "with each patch row normalized to mean 0 and variance 1 before the projection, a LayerNorm on the "
        "flattened patch that this checkpoint does not have; ViT projects the patch rows as they are"), 10,
        _projected_otherwise(lambda X, W_E, b_E: _plain_layer_norm(X) @ W_E + b_E))
    yield Candidate("move:patches_pixel_major", sentence(
        "with each patch row reordered pixel-major (R, G, B of its first pixel, then of the next) before the "
        "projection, W_E's rows left channel-major: patchify's rows are channel-major already, the order W_E's rows "
        "follow"), 9, _projected_otherwise(lambda X, W_E, b_E: _regrouped(X, 3) @ W_E + b_E))
    yield Candidate("move:patches_channel_major_again", sentence(
        "with each patch row read as pixel-major and reordered channel-major before the projection: patchify's rows "
        "are channel-major already, the order W_E's rows follow"), 9,
        _projected_otherwise(lambda X, W_E, b_E: _regrouped(X, -1) @ W_E + b_E))
    for name, words, activation in (("relu", "ReLU", ops.relu), ("gelu", "GELU", ops.gelu), ("tanh", "tanh", np.tanh)):
        yield Candidate(f"move:{name}_after_projection", sentence(
            f"followed by {words}; the patch projection is affine only"), 10,
            transformed("tokens", lambda v, t, f=activation: f(v)))


def _regrouped(rows: Any, groups: int) -> Any:
    """(..., K) rows read as (groups, K / groups) and written out by the other axis first: channel-major
    patch rows made pixel-major (groups 3), or pixel-major ones read channel-major (groups -1, K / 3 groups)."""
    return rows.reshape(*rows.shape[:-1], groups, -1 if groups != -1 else 3).swapaxes(-1, -2).reshape(rows.shape)


def _map_moves() -> Iterator[Candidate]:
    yield Candidate("move:absolute_change", sentence("with the size of each change, |covered − original|; the "
                                                      "map keeps the sign: drops are negative"), 44,
                    transformed("change", lambda v, t: np.abs(v)))
    yield Candidate("move:only_drops", sentence("with every rise set to 0 (the map clamped at 0): covering a patch "
                                                 "can raise the target's probability too, and the map keeps those "
                                                 "rises as positive values"), 44,
                    transformed("change", lambda v, t: np.minimum(v, 0)))
    # one of the two probabilities computed otherwise, the other as the lecture's
    yield Candidate("move:covers_softmax_over_batch", sentence(
        "with the covered images' softmax taken over the batch of covers; each image's softmax runs over its "
        "classes"), 43, maths.recomputed("covered_probabilities", lambda t: _covered(t, axis=0)))
    for shift in (-1, 1):
        yield Candidate(f"move:covers_target{shift:+d}", sentence(
            f"with the covered probabilities read for class target {'+' if shift > 0 else '-'} 1; the original's and "
            "the covered ones are both the target's"), 44,
            maths.recomputed("covered_probabilities", lambda t, s=shift: _covered(t, shift=s)))
    yield Candidate("move:covers_at_grid_index", sentence(
        "with cover (r, c) put at pixel (r, c) of the image; the cover of patch r, c starts at pixel "
        "(r·P, c·P), P pixels on from the one before"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, step=1)))
    yield Candidate("move:covers_from_one", sentence(
        "with the grid counted from 1: cover (r, c) put on patch (r + 1, c + 1), the last row and column of covers "
        "off the image; range(side) counts 0, 1, ..., side − 1"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, first=1)))
    for index, other, cell in (("row", "column", lambda r, c: (r, r)), ("column", "row", lambda r, c: (c, c))):
        letter = index[0]  # r or c
        yield Candidate(f"move:covers_on_{index}_diagonal", sentence(
            f"with cover (r, c) put at pixel ({letter}·P, {letter}·P), the {index}'s index written for the {other} "
            f"too: every cell of a {index} measures the same patch on the diagonal; cover (r, c) starts at pixel "
            "(r·P, c·P)"), 44, maths.recomputed("covered_probabilities", lambda t, f=cell: _covered_at(t, f)))
    yield Candidate("move:covers_accumulate", sentence(
        "with each cover drawn on the one before instead of on a fresh copy: cover k keeps the squares of all the "
        "covers before it, the last is all gray, and the original is measured on that; each of the 196 tests "
        "covers one patch of the untouched image"), 44, maths.recomputed("change", _accumulated_change))
    yield Candidate("move:covers_at_16_pixel_steps", sentence(
        "with covers placed 16 pixels apart, the lecture's patch size written in: cover (r, c) starts at pixel "
        "(r·P, c·P) for the patch size P given"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, step=16)))
    yield Candidate("move:covers_at_patch_centres", sentence(
        "with cover (r, c) starting at the patch's centre, pixel (r·P + P/2, c·P + P/2): each cover straddles four "
        "patches; cover (r, c) starts at the patch's corner, pixel (r·P, c·P)"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered_at(t, lambda r, c: (r + 0.5, c + 0.5))))
    yield Candidate("move:covers_at_grid_count_steps", sentence(
        "with cover (r, c) placed at pixel (r·n, c·n), n the grid's count of patches per side (14 for a 224-pixel "
        "image of 16-pixel patches) instead of the patch size P: the two numbers of page 7, 14 patches of 16 "
        "pixels; cover (r, c) starts at pixel (r·P, c·P)"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered(t, step=_grid_count(t))))
    yield Candidate("move:predicted_class_map", sentence(
        "with both probabilities read for the class the model predicts for the uncovered image (its argmax) instead "
        "of the target given: the map follows `target`, whatever the model predicts"), 44,
        maths.Edit((maths.Change("target", lambda v, t: _predicted_class(t)),)))
    yield Candidate("move:cover_side_grid_count", sentence(
        "with each cover as many pixels on a side as the grid has patches per side (14 for a 224-pixel image of "
        "16-pixel patches) instead of the patch size P: the two numbers of page 7, 14 patches of 16 pixels"), 44,
        maths.recomputed("covered_probabilities", lambda t: _covered_at(t, lambda r, c: (r, c), grid_count=True)))
    yield Candidate("move:only_the_patch_shown", sentence(
        "with each patch shown alone, the rest of the image mid-gray (the image minus its covered copy keeps the "
        "patch, not the rest): covering a patch keeps the rest of the image and sets that patch to mid-gray"), 44,
        maths.recomputed("covered_probabilities", lambda t: _probabilities(
            t["call_args"][0], t["call_args"][1] - t["covers"])[:, t["target"]]))
    yield Candidate("move:covered_logits", sentence(
        "with the covered images' target logits, before any softmax, minus the original probability: both sides "
        "of covered − original are probabilities, each image's softmax over its classes"), 44,
        maths.recomputed("covered_probabilities", lambda t: t["call_args"][0](t["covers"])[:, t["target"]]))
    yield Candidate("move:logit_change", sentence(
        "with the change of the target's logit, before any softmax; the map compares probabilities, the "
        "softmax of each image's logits"), 44, maths.recomputed("change", lambda t: _target_change(t, "logit")))
    yield Candidate("move:log_probability_change", sentence(
        "with the change of the target's log-probability (a log_softmax); the map compares the "
        "probabilities themselves"), 44, maths.recomputed("change", lambda t: _target_change(t, "log")))
    yield Candidate("move:original_top_class", sentence(
        "with the original image's largest probability subtracted, whatever its class: covered − original compares "
        "the target's probabilities, both read at [:, target]"), 44,
        maths.recomputed("original", lambda t: _probabilities(t["call_args"][0], t["call_args"][1]).max(axis=-1)))
    yield Candidate("move:original_logit", sentence("with the original image's target logit subtracted, where its "
                                                     "probability goes: covered − original compares probabilities"),
                    44, maths.recomputed("original", _original_logit))


def _target_change(t: Any, scale: str) -> Any:
    """(side, side): covered minus original of the target's logit or log-probability, not its probability."""
    model, image, target = t["call_args"][:3]
    logits = np.concatenate([model(image), model(t["covers"])])  # (1 + side², classes)
    if scale == "log":
        shifted = logits - logits.max(axis=-1, keepdims=True)
        logits = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    side = round(len(t["covers"]) ** 0.5)
    return (logits[1:, target] - logits[0, target]).reshape(side, side)


def _probabilities(model: Callable[[Any], Any], images: Any) -> Any:
    return maths.ops_for(images).softmax(model(images), axis=-1)  # (B, classes)


def _original_logit(t: Any) -> Any:
    model, image, target = t["call_args"][:3]
    return model(image)[:, target]


def _covered(t: Any, axis: int = -1, shift: int = 0, step: int | None = None, first: int = 0) -> Any:
    """The covers' probabilities of class target + shift, the softmax over `axis`; with `step` or `first`, of
    covers placed `step` pixels apart instead of a patch apart, or counted from grid place `first`."""
    model, image, target = t["call_args"][:3]
    if target + shift < 0:
        raise IndexError("no class before the first")
    covers = t["covers"]
    if step is not None or first:
        patch_size = _patch_size(t)
        covers = maths.patch_covers(image, patch_size, t["fill"], None, step, first)
    return maths.ops_for(covers).softmax(model(covers), axis=axis)[:, target + shift]


def _grid_count(t: Any) -> int:
    """The patches per side of the map's grid: the image's side over the patch size."""
    return t["call_args"][1].shape[-1] // _patch_size(t)


def _patch_size(t: Any) -> int:
    """occlusion_map's patch_size argument, 16 where the call leaves it at its default."""
    return t["call_args"][3] if len(t["call_args"]) > 3 else 16


def _predicted_class(t: Any) -> int:
    """The class the model gives the uncovered image the most probability."""
    model, image = t["call_args"][:2]
    return int(np.argmax(model(image)[0]))


def _accumulated_change(t: Any) -> Any:
    """(side, side): covers that pile up (cover k on cover k − 1), the original measured on the last one."""
    model, image, target = t["call_args"][:3]
    patch_size = _patch_size(t)
    covers = maths.ops_for(image).copy(t["covers"])  # (side², 3, H, W), one square each
    square = covers == t["fill"]
    for index in range(1, len(covers)):
        covers[index][square[index - 1]] = t["fill"]
        square[index] |= square[index - 1]
    probabilities = maths.ops_for(covers).softmax(model(covers), axis=-1)[:, target]
    side = image.shape[-1] // patch_size
    return (probabilities - probabilities[-1]).reshape(side, side)


def _covered_at(t: Any, cell: Callable[[int, int], tuple[int, int]], grid_count: bool = False) -> Any:
    """The covers' target probabilities, cover (r, c) placed on the patch cell(r, c) instead of its own; of side
    the grid's count of patches per side instead of P with `grid_count`."""
    model, image, target = t["call_args"][:3]
    patch_size = _patch_size(t)
    side = image.shape[-1] // patch_size
    size = side if grid_count else patch_size
    covers = maths.ops_for(image).copy(np.broadcast_to(image, (side * side, *image.shape[1:])))  # (side², 3, H, W)
    for index in range(side * side):
        top, left = (int(patch_size * i) for i in cell(*divmod(index, side)))
        covers[index, ..., top:top + size, left:left + size] = t["fill"]
    return maths.ops_for(covers).softmax(model(covers), axis=-1)[:, target]


def _quadrant_moves() -> Iterator[Candidate]:
    yield Candidate("move:top_class", sentence("with each covered image's largest probability, whatever its class; "
                                                "the target's is [:, target] of the softmax, however small"), 43,
                    maths.recomputed("probabilities", _top_class))
    yield Candidate("move:covers_normalized_again", sentence(
        "with the covered images normalized once more, (x − 0.5) / 0.5, before the model: they are normalized "
        "already and 0 is mid-gray (page 42); the model reads the covered copies as they are"), 43,
        maths.recomputed("probabilities", lambda t: _quadrant_probabilities(t, lambda covered: 2 * covered - 1)))
    yield Candidate("move:only_the_quarter_shown", sentence(
        "with each quarter shown alone, the rest of the image mid-gray (the image minus its covered copy keeps the "
        "quarter, not the rest): covering a quarter keeps the other three and sets that one to mid-gray"), 43,
        maths.recomputed("probabilities", lambda t: _quadrant_probabilities(t, lambda c: t["call_args"][1] - c)))
    yield Candidate("move:quadrants_softmax_over_everything", sentence(
        "with the exponentials of all four covers' logits divided by one sum over the whole batch: each cover's "
        "softmax runs over its own classes"), 43,
        maths.recomputed("probabilities", lambda t: _all_normalized(np.exp(t["cover_logits"] - t["cover_logits"].max()))
                         [:, t["target"]]))
    yield Candidate("move:quadrant_covers_full_side", sentence(
        "with each cover as many pixels on a side as the whole image (H, not H/2) from its quadrant's corner, cut at "
        "the image's edges: the top-left one grays everything; a quadrant's cover is H/2 pixels on a side"), 43,
        maths.recomputed("probabilities", lambda t: _quadrant_probabilities(t, lambda c: c,
                                                                            t["call_args"][1].shape[-1])))
    yield Candidate("move:predicted_class", sentence(
        "with the probabilities read for the class the model predicts for the uncovered image (its argmax) instead "
        "of the target given: each quadrant's value is [:, target], whatever the model predicts"), 43,
        maths.Edit((maths.Change("target", lambda v, t: _predicted_class(t)),)))
    yield Candidate("move:sigmoid_of_target", sentence(
        "with the sigmoid of the target's logit alone; a class's probability is the softmax over every class's "
        "logit, its [:, target]"), 43, maths.recomputed("probabilities", _target_sigmoid))


def _quadrant_probabilities(t: Any, shown: Callable[[Any], Any], side: int | None = None) -> Any:
    """(4,): the target's probability of `shown(covered)` for each quadrant's covered copy (the image minus
    it keeps the quarter alone, the rest 0); with `side`, each cover that many pixels on a side from the
    quadrant's corner, cut at the image's edges."""
    model, image, target = t["call_args"][:3]
    half, ops = t["quadrant_side"], maths.ops_for(image)
    covers = [maths.cover(image, q.row * half, q.column * half, side or half, t["fill"]) for q in t["quadrants"]]
    return ops.softmax(model(shown(ops.concat(covers, axis=0))), axis=-1)[:, target]


def _top_class(t: Any) -> Any:
    """(4,): each quadrant's cover's largest class probability."""
    logits = t["cover_logits"]  # (4, classes)
    return maths.ops_for(logits).softmax(logits, axis=-1).max(axis=-1)


def _target_sigmoid(t: Any) -> Any:
    """(4,): the sigmoid of each quadrant's cover's target logit, as if the class stood alone."""
    return _sigmoid(t["cover_logits"][:, t["call_args"][2]])


def _sigmoid(v: Any) -> Any:
    """σ(v) = 1 / (1 + e^(−v)), elementwise."""
    return 1 / (1 + np.exp(-v))


def _cls_moves() -> Iterator[Candidate]:
    def concat(*parts: Any) -> Any:
        return np.concatenate(parts, axis=1)
    yield Candidate("move:cls_last", sentence("with CLS appended after the patch rows; it goes first, at index 0"),
                    23, maths.recomputed("with_cls", lambda t: concat(t["tokens"], t["cls"])))
    yield Candidate("move:cls_zeros", sentence("with a row of zeros where the learned CLS vector goes"), 20,
                    transformed("cls", lambda v, t: v * 0))
    yield Candidate("move:cls_added", sentence("with CLS also added to every patch row; it is prepended as a "
                                                "row of its own"), 23,
                    maths.recomputed("with_cls", lambda t: concat(t["cls"], t["tokens"] + t["cls_token"])))


def _embed_moves() -> Iterator[Candidate]:
    yield from _cls_moves()
    yield from _position_moves()
    yield Candidate("move:cls_without_position", sentence("with no position row added to CLS; row 0 of the "
                                                           "table belongs to it"), 23,
                    transformed("embedded", lambda v, t: np.concatenate([t["cls"], v[:, 1:]], axis=1)))
    yield Candidate("move:position_before_cls", sentence(
        "with the position table's first N rows added to the patches before CLS is put in front: CLS gets no "
        "position and patch i the row of the token before it; CLS comes first, then the whole table is added "
        "(row 0 is CLS's)"), 23, maths.recomputed("embedded", _position_before_cls))
    yield Candidate("move:images_transposed", sentence(
        "with each image's height and width swapped before it is cut: every patch is the transposed square of "
        "another place, the patches read column by column; the images are (B, 3, H, W), cut row by row"), 9,
        maths.recomputed("embedded", lambda t: maths.embed(np.swapaxes(t["call_args"][0], -1, -2),
                                                           t["call_args"][1])))
    yield Candidate("move:embedded_normalized", sentence(
        "with the embedded rows normalized by the final LayerNorm (its weight and bias) before they are handed on, "
        "as CLIP's ln_pre does; this ViT's final norm comes once, after the last block (page 38)"), 23,
        transformed("embedded", lambda v, t: maths.layer_norm(v, t["call_args"][1].norm_weight,
                                                              t["call_args"][1].norm_bias)))
    yield Candidate("move:embedded_normalized_ln1", sentence(
        "with the embedded rows normalized by the first block's LN1 before they are handed on: each block "
        "normalizes its own sublayers' inputs, and the residual stream starts from the embedding as it is "
        "(page 34)"), 23,
        transformed("embedded", lambda v, t: maths.layer_norm(v, t["call_args"][1].blocks[0].ln1_weight,
                                                              t["call_args"][1].blocks[0].ln1_bias)))
    yield Candidate("move:normalized_again", sentence("with the images normalized again: embed's images are "
                                                       "already normalized to [-1, 1] (page 8); patchify them as "
                                                       "they are"), 8,
                    maths.recomputed("embedded", lambda t: maths.embed(maths.normalize(t["call_args"][0]),
                                                                        t["call_args"][1])))


def _position_before_cls(t: Any) -> Any:
    """[CLS, P1 + p_0, ..., PN + p_(N-1)]: the table's first rows added before CLS is prepended."""
    patches = t["tokens"]  # (B, N, D)
    return np.concatenate([t["cls"], patches + t["pos_table"][:patches.shape[1]]], axis=1)


def _normalize_moves() -> Iterator[Candidate]:
    def per_channel(values: tuple[float, ...]) -> Callable[[Any, Any], Any]:
        return lambda v, t: np.asarray(values).reshape(1, 3, 1, 1)
    yield Candidate("move:imagenet_stats", sentence("with ImageNet's mean and std; this checkpoint normalizes "
                                                     "with 0.5 and 0.5"), 8,
                    maths.Edit((maths.Change("pixel_mean", per_channel((0.485, 0.456, 0.406))),
                                maths.Change("pixel_std", per_channel((0.229, 0.224, 0.225))))))
    yield Candidate("move:clipped_to_unit_range", sentence(
        "with the result clipped to [0, 1]: every pixel darker than mid-gray comes out 0; the checkpoint's "
        "inputs span [-1, 1], 0 being mid-gray"), 8,
        transformed("pixels_normalized", lambda v, t: np.clip(v, 0.0, 1.0)))


def _conv_moves() -> Iterator[Candidate]:
    yield Candidate("move:reshape_no_transpose", sentence("with the kernel reshaped straight to (3·P·P, D) "
                                                           "without transposing it"), 10,
                    transformed("W_E", lambda v, t: t["kernel"].reshape(-1, t["kernel"].shape[0])))
    yield Candidate("move:first_channel_kernel", sentence(
        "with channel R's kernel for all three channels: W_E's G and B rows repeat the R rows; each channel's block "
        "of rows is that channel's own kernel, channel-major as patchify's rows (page 9)"), 10,
        transformed("W_E", lambda v, t: np.concatenate([v[:len(v) // 3]] * 3)))
    yield Candidate("move:pseudo_inverse", sentence(
        "with the pseudo-inverse of the (D, 3·P·P) kernel matrix where its transpose belongs: W_E holds the "
        "kernel's rows as its columns (the two agree only for orthonormal kernels)"), 10,
        transformed("W_E", lambda v, t: np.linalg.pinv(t["kernel_rows"])))


def _scale_by_D() -> Candidate:
    return Candidate("move:scale_by_D", sentence("with the scores divided by √D of all heads; the scale is √d "
                                                  "of one head"), 28,
                     transformed("sqrt_d", lambda v, t: v * np.sqrt(t["q"].shape[1])))


def _values_from_input(heads_at: int) -> Candidate:
    """v as the call's input x itself split into heads, without the value projection; the head count is
    argument `heads_at` of the call."""
    def compute(v: Any, t: Any) -> Any:
        x, heads = t["call_args"][0], t["call_args"][heads_at]
        B, N, D = x.shape
        return x.reshape(B, N, heads, D // heads).swapaxes(1, 2)  # (B, H, N, d)
    return Candidate("move:values_from_input", sentence(
        "with the values v taken from the input rows x themselves, split into heads: v is x·W_V + b_V, the last "
        "D columns of x·W_qkv + b_qkv, as q and k are theirs"), 26, transformed("v", compute))


def _first_head_everywhere(name: str) -> Candidate:
    """Every head computing with head 1's q, k or v (one head shared, as multi-query attention shares its keys
    and values); (B, H, N, d)."""
    return Candidate(f"move:first_head_{name}", sentence(
        f"with head 1's {name} used by every head, as if one {name} head were shared by all (multi-query "
        f"attention shares its keys and values); each head h computes with its own {name}, its own d columns"), 32,
        transformed(name, lambda v, t: np.broadcast_to(v[:, :1], v.shape).copy()))


def _qkv_moves() -> Iterator[Candidate]:
    yield _values_from_input(3)
    yield Candidate("move:product_over_sqrt_d", sentence(
        "with x·W_qkv divided by √d before the bias is added, q, k and v alike (addmm's alpha): the 1/√d belongs "
        "to the scores, q·kᵀ/√d (page 28); q, k and v are x·W + b as they come"), 28,
        maths.recomputed("qkv", lambda t: t["call_args"][0] @ t["call_args"][1]
                         / np.sqrt(t["call_args"][0].shape[-1] // t["call_args"][3]) + t["b_qkv"]))
    for name in ("q", "k", "v"):
        yield _first_head_everywhere(name)


def _passed_for(name: str, instead: str) -> Candidate:
    """The attention weights computed with `instead` (q, k or v) passed where `name` (q or k) goes."""
    query, key = (instead, "k") if name == "q" else ("q", instead)
    return Candidate(f"move:{instead}_for_{name}", sentence(
        f"with {instead} passed where {name} goes in the scores, which compare {query} with {key}: the scores are "
        "q·kᵀ/√d, queries against keys, and the values are what the weights then mix"), 28,
        maths.recomputed("A", lambda t: maths.attention_weights(t[query], t[key])))


def _weights_moves() -> Iterator[Candidate]:
    yield from _attention_moves()
    yield _scale_by_D()
    yield _passed_for("k", "q")
    yield _passed_for("q", "k")
    for name in ("q", "k"):
        yield _first_head_everywhere(name)
    yield Candidate("move:normalized_sigmoid", sentence(
        "with each row's weights the sigmoid of the scores (shifted by the row's largest) divided by their sum: "
        "the softmax takes the exponential, exp(s − max) / Σ exp(s − max)"), 28,
        transformed("A", lambda v, t: _row_normalized(_sigmoid(_shifted(t["scores"], -1)))))
    yield Candidate("move:summed_features_product", sentence(
        "with each score the sum of q's features times the sum of k's, (Σ_d q_d)·(Σ_e k_e) / √d, as an einsum with "
        "the key's feature index renamed ('bhid,bhje->bhij') computes: the dot product pairs the features, "
        "Σ_d q_d·k_d"), 28,
        maths.recomputed("scores", lambda t: t["q"].sum(axis=-1)[..., :, None] * t["k"].sum(axis=-1)[..., None, :]
                         / t["sqrt_d"]))
    yield Candidate("move:scores_symmetrized", sentence(
        "with the scores made symmetric, (q_i·k_j + q_j·k_i) / 2√d: query i's score for key j is q_i·k_j / √d "
        "alone, so that i may attend to j more than j to i"), 28,
        transformed("scores", lambda v, t: (v + v.swapaxes(-1, -2)) / 2))
    yield Candidate("move:cosine_scores", sentence(
        "with q and k scaled to length 1 before their dot product, the cosine of each pair: the score is the plain "
        "dot product q·k / √d, whose size counts too"), 28,
        maths.recomputed("scores", lambda t: _unit_length(t["q"], -1) @ _unit_length(t["k"], -1).swapaxes(-1, -2)
                         / t["sqrt_d"]))


def _multi_head_moves() -> Iterator[Candidate]:
    yield from _weights_moves()
    yield _values_from_input(5)
    yield _first_head_everywhere("v")
    yield _passed_for("k", "v")
    yield _passed_for("q", "v")
    yield Candidate("move:heads_joined_without_transpose", sentence(
        "with the heads joined without moving the head axis next to d: (B, H, N, d) must become (B, N, H, d) "
        "before the reshape"), 32, transformed("joined", lambda v, t: t["heads"].reshape(v.shape)))
    yield Candidate("move:heads_joined_from_feature_major", sentence(
        "with the heads joined after swapping their last two axes, (B, H, d, N) read as (B, N, D): (B, H, N, d) "
        "must become (B, N, H, d), the head axis moved next to d, before the reshape"), 32,
        transformed("joined", lambda v, t: t["heads"].swapaxes(-1, -2).reshape(v.shape)))
    yield Candidate("move:first_head_W_o", sentence(
        "with every head's message projected by W_o's first d rows, head 1's: head h's message meets rows "
        "h·d … (h+1)·d − 1 of W_o, as the joined heads @ W_o does"), 32,
        maths.recomputed("attn", lambda t: t["heads"].sum(axis=1) @ t["W_o"][:t["heads"].shape[-1]] + t["b_o"]))
    yield Candidate("move:input_normalized_again", sentence(
        "with its input normalized once more (a LayerNorm without weight or bias) before q, k and v: the block "
        "hands attention the normalized rows LN1(x) already"), 34,
        maths.recomputed("attn", lambda t: maths.multi_head_attention(_plain_layer_norm(t["call_args"][0]),
                                                                      *t["call_args"][1:6])))
    yield Candidate("move:sum_over_receivers", sentence(
        "with each token's own value scaled by its weights' sum over the queries, (Σ_i a_ij)·v_j: the weighted sum "
        "ran over the receivers i; query i's output mixes the values, Σ_j a_ij·v_j"), 30,
        transformed("heads", lambda v, t: t["A"].sum(axis=-2)[..., None] * t["v"]))
    yield Candidate("move:projection_of_input", sentence(
        "with W_o applied to the input x instead of to the joined heads: the heads' messages, joined side by side, "
        "are what the output projection mixes"), 32,
        maths.recomputed("attn", lambda t: t["call_args"][0] @ t["W_o"] + t["b_o"]))
    yield Candidate("move:residual_included", sentence("with the input x added to the update; the block adds "
                                                        "the residual, attention returns the update alone"), 34,
                    transformed("attn", lambda v, t: v + t["call_args"][0]))
    yield Candidate("move:weights_averaged_over_heads", sentence(
        "with the attention weights averaged over the heads, every head mixing its values by that one mean "
        "pattern; each head weighs its values by its own weights A"), 31,
        transformed("heads", lambda v, t: t["A"].mean(axis=1, keepdims=True) @ t["v"]))
    yield Candidate("move:one_head", sentence("with one head of all D features; the lecture splits them into H "
                                               "heads of d = D/H, each with its own weights A"), 32,
                    maths.recomputed("attn", lambda t: maths.multi_head_attention(*t["call_args"][:5], 1)))
    yield Candidate("move:head_size_as_count", sentence(
        "with the features split into D/H heads of H features: the head size d = D/H passed where the number "
        "of heads goes; the lecture splits them into H heads of d = D/H"), 32,
        maths.recomputed("attn", lambda t: maths.multi_head_attention(
            *t["call_args"][:5], t["call_args"][0].shape[-1] // t["call_args"][5])))


def _add_position_moves() -> Iterator[Candidate]:
    yield from _position_moves()
    yield Candidate("activation:gelu_after_position", sentence(
        "with GELU applied to the sum c_i + p_i: the embedding adds WHAT and WHERE and nothing more; GELU belongs "
        "to the MLP"), 16,
        maths.recomputed("with_position", lambda t: maths.ops_for(t["tokens"]).gelu(t["tokens"] + t["pos_table"])))
    yield Candidate("move:coordinatewise_maximum", sentence(
        "with the larger of c_i and p_i kept in each coordinate instead of their sum: WHAT + WHERE adds them, "
        "coordinate by coordinate"), 16,
        maths.recomputed("with_position", lambda t: np.maximum(t["tokens"], t["pos_table"])))
    yield Candidate("move:normalized_sum", sentence("with the sum c_i + p_i normalized (a LayerNorm, as some text "
                                                     "models' embeddings do); ViT adds the table and normalizes "
                                                     "only inside the blocks"), 16,
                    maths.recomputed("with_position", lambda t: _plain_layer_norm(t["tokens"] + t["pos_table"])))
    yield Candidate("move:tokens_scaled", sentence("with the tokens multiplied by √D before the position table "
                                                    "is added; ViT adds them as they are"), 16,
                    maths.recomputed("with_position", lambda t: t["tokens"] * np.sqrt(t["tokens"].shape[-1])
                                     + t["pos_table"]))
    yield Candidate("move:table_rows_repeated", sentence(
        "with each row of the position table repeated once per image in a row (repeat_interleave) before it is cut "
        "into one table per image: image b's token n gets row (b·N + n) // B; every image uses the same whole "
        "table, token n its row n (expand tiles it)"), 17, maths.recomputed("with_position", _rows_repeated),
        across_images=True)


def _rows_repeated(t: Any) -> Any:
    """(B, N, D): the table's rows each repeated B times in a row (repeat_interleave), cut into B tables."""
    tokens, table = t["tokens"], t["pos_table"]
    return tokens + np.repeat(table, tokens.shape[0], axis=0).reshape(tokens.shape)


def _plain_layer_norm(x: Any, eps: float = 1e-5) -> Any:
    """LayerNorm over the features with no weight or bias, at PyTorch's default eps 1e-5 unless given."""
    ones = np.ones(x.shape[-1])
    return maths.layer_norm(x, ones, ones * 0, eps)


def _head_moves() -> Iterator[Candidate]:
    """vit_forward's own quantities are the head's: how the CLS row is read, and the logits."""
    yield from _read_moves()
    yield from _logit_moves()
    yield Candidate("move:embedding_added_to_output", sentence(
        "with the embedding added to the last block's rows before the final LayerNorm: every block's residual has "
        "kept it already; the final norm reads the last block's rows as they are"), 38,
        transformed("encoded", lambda v, t: v + t["block_outputs"][0]))


#: Blocks an edit of vit_forward's loop may rerun: the checkpoint's block on 197 tokens costs about 0.1 CPU-s
#: in numpy, so reversing its 12 blocks would take a third of the budget for one edit; those orders are
#: searched on small encoders only, the block left out (no rerun) and the last block alone (one) on every one.
MAX_BLOCK_RERUNS = 4


def _block_loop_moves(trace: Any, every: bool = False) -> Iterator[Candidate]:
    """vit_forward's loop over the blocks done otherwise, rerun from the correct run's block outputs."""
    count = len(trace["block_outputs"]) - 1
    for name, words, order in BLOCK_ORDERS:
        blocks = order(count)
        if len(blocks) - _shared_start(blocks) > MAX_BLOCK_RERUNS and not every:
            continue
        yield Candidate(f"move:blocks_{name}", sentence(f"with {words}; the encoder runs blocks 1, 2, ..., L in "
                                                         "order, each on the one before's output"), 50,
                        transformed("normed", lambda v, t, b=blocks: _encoded_otherwise(t, b)))
    yield Candidate("move:final_norm_twice", sentence("with the final LayerNorm applied twice: read_cls normalizes "
                                                       "the CLS row itself, so vit_forward passes it the blocks' "
                                                       "rows as they are"), 38,
                    transformed("normed", lambda v, t: _final_norm(t, v)))
    yield Candidate("move:change_read", sentence(
        "with the blocks' change read, the final LayerNorm of (the last block's rows − the embedded rows): the "
        "head reads what the blocks made of the rows, the final LayerNorm of the last block's rows"), 38,
        transformed("normed", lambda v, t: _final_norm(t, t["encoded"] - t["block_outputs"][0])))
    yield Candidate("move:final_norm_ln2", sentence("with the last block's LN2 weight and bias in the final "
                                                     "LayerNorm; the encoder's final norm has its own"), 52,
                    transformed("normed", lambda v, t: _final_norm(t, t["encoded"], "ln2")))
    if count > MAX_BLOCK_RERUNS and not every:
        return
    yield Candidate("move:encoder_one_head", sentence("with every block's attention run as one head of all D "
                                                       "features; each block splits them into H heads of d = D/H"),
                    32, transformed("normed", lambda v, t: _encoder_rerun(t, heads=1)))
    params = trace["call_args"][1]
    if params.num_heads != 12 and trace["encoded"].shape[-1] % 12 == 0:
        yield Candidate("move:encoder_twelve_heads", sentence(
            "with every block's attention split into 12 heads (ViT-Base's count, or the encoder's 12 blocks); "
            f"this model's blocks have {params.num_heads} heads each, params.num_heads"), 32,
            transformed("normed", lambda v, t: _encoder_rerun(t, heads=12)))
    if params.num_heads != HEADS and trace["encoded"].shape[-1] % HEADS == 0:
        yield Candidate("move:encoder_lecture_heads", sentence(
            f"with every block's attention split into {HEADS} heads, the lecture's ViT-Ti count, written in; this "
            f"model's blocks have {params.num_heads} heads each: read them from params.num_heads"), 32,
            transformed("normed", lambda v, t: _encoder_rerun(t, heads=HEADS)))
    width = trace["encoded"].shape[-1]
    head_size = width // params.num_heads
    if head_size not in (1, params.num_heads) and width % head_size == 0:
        yield Candidate("move:encoder_head_size_as_count", sentence(
            f"with every block's attention split into {head_size} heads, the head size D / H passed where the head "
            f"count goes: this model's blocks have {params.num_heads} heads of {head_size} features, "
            "params.num_heads"), 32, transformed("normed", lambda v, t: _encoder_rerun(t, heads=head_size)))
    for name, words, page, rerun in ENCODER_RERUNS:
        yield Candidate(f"move:{name}", sentence(words), page,
                        transformed("normed", lambda v, t, how=rerun: _encoder_rerun(t, **how)))


#: The encoder's blocks rerun otherwise from the embedded rows: (name, what was done, page, how
#: `_encoder_rerun` does it).
ENCODER_RERUNS: tuple[tuple[str, str, int, dict[str, bool]], ...] = (
    ("norm_after_every_block", "with the final LayerNorm applied after every block: each block after the first "
     "reads normalized rows, and read_cls normalizes the last block's once more; the loop is x = block(x), the "
     "final norm comes once, after the last block", 52, {"norm_each": True}),
    ("final_norm_first", "with the final LayerNorm applied to the embedded rows before the blocks too (an ln_pre, "
     "as CLIP's image encoder has); this ViT's final norm comes once, after the last block", 52,
     {"norm_first": True}),
    ("encoder_without_cls", "with the blocks run on the patch rows alone, CLS left out, so that row 0 read at the "
     "end is P1's: CLS goes through every block with the patches, gathering what they say", 50,
     {"without_cls": True}),
    ("each_block_twice", "with every block applied twice in a row, block 1, block 1, block 2, block 2, ...: one "
     "block is both updates, attention then MLP, so the encoder's loop applies each block once", 34,
     {"twice": True}),
    ("position_each_block", "with the position table added to the rows entering every block: the embedding adds "
     "it once, and the blocks carry it on in the residual stream", 16, {"position_each": True}),
    ("cls_reset_each_block", "with the embedded CLS row put back in row 0 before every block: CLS is updated by "
     "every block like the patch rows, gathering what they say, and only read at the end", 38, {"cls_reset": True}),
    ("block_residual_again", "with each block applied as x + block(x): the block already adds its residuals, so "
     "the encoder's loop is x = block(x)", 34, {"residual": True}),
    ("cls_only_updated", "with only the CLS row taken from each block's output, the patch rows kept as they were "
     "embedded: CLS reads the patch rows as every block has updated them (page 22), so the loop is x = block(x) "
     "for all rows", 50, {"cls_only": True}),
    ("updates_in_parallel", "with every block run on the embedded rows and their changes added up, x + Σ (block(x) "
     "− x): each block reads the one before's output, x = block(x)", 50, {"parallel": True}),
    ("position_again", "with the position table added once more to the embedded rows, which hold it already: "
     "every row carries its position twice into the blocks", 16, {"position_again": True}),
    ("embedded_scaled", "with the embedded rows multiplied by √D before the blocks, as the original Transformer "
     "scales its token embeddings: ViT hands the blocks the embedding as it is", 23, {"embedded_scale": True}),
    ("embedding_after_every_block", "with the embedded rows added to every block's output, x = block(x) + embedded: "
     "each block adds its own residuals, and the encoder's loop is x = block(x)", 34, {"embedded_each": True}),
    ("images_normalized_twice", "with the images normalized once more, 2x − 1 as for pixels in [0, 1], before they "
     "are embedded: vit_forward's images are normalized to [−1, 1] already", 8, {"pixels_again": True}),
)


def _final_norm(t: Any, x: Any, which: str | None = None) -> Any:
    """The final LayerNorm of x, with its own weight and bias (as the trace recorded them, in read_cls
    and in vit_forward alike) or with the last block's LN1 or LN2 (vit_forward)."""
    if which is None:
        return maths.layer_norm(x, t["ln_weight"], t["ln_bias"])
    last = t["call_args"][1].blocks[-1]
    return maths.layer_norm(x, getattr(last, f"{which}_weight"), getattr(last, f"{which}_bias"))


def _encoder_rerun(t: Any, heads: int | None = None, residual: bool = False, norm_each: bool = False,
                   without_cls: bool = False, norm_first: bool = False, twice: bool = False,
                   position_each: bool = False, cls_reset: bool = False, pixels_again: bool = False,
                   cls_only: bool = False, embedded_each: bool = False, embedded_scale: bool = False,
                   parallel: bool = False, position_again: bool = False) -> Any:
    """The final LayerNorm after every block rerun from the embedded rows, with other heads, each block's
    output added to its input, each block's output (or the embedded rows) normalized by the final
    LayerNorm, CLS left out, each block applied twice, the position table added before every block, the
    embedded CLS row put back before every block, only CLS taken from each block's output, the embedded rows
    added to each block's output, the embedded rows scaled by √D or given their position twice, every block
    run on the embedded rows with its change added, or the images normalized again (2x − 1) before all
    that."""
    params = t["call_args"][1]
    embedded = maths.embed(2 * t["images"] - 1, params) if pixels_again else t["block_outputs"][0]  # (B, 1+N, D)
    x = embedded[:, 1:] if without_cls else embedded
    x = x * np.sqrt(x.shape[-1]) if embedded_scale else x
    x = x + params.pos_table if position_again else x
    x = _final_norm(t, x) if norm_first else x
    for p in params.blocks:
        x = x + params.pos_table if position_each else x
        x = np.concatenate([embedded[:, :1], x[:, 1:]], axis=1) if cls_reset else x
        out = maths.block(embedded if parallel else x, p, heads or params.num_heads)
        out = x + out - embedded if parallel else out
        out = maths.block(out, p, heads or params.num_heads) if twice else out
        x = x + out if residual else out
        x = x + embedded if embedded_each else x
        x = np.concatenate([x[:, :1], embedded[:, 1:]], axis=1) if cls_only else x
        x = _final_norm(t, x) if norm_each else x
    return _final_norm(t, x)


#: The encoder's loop over its L blocks done otherwise: (name, words, the blocks run, from the embedded rows).
BLOCK_ORDERS: tuple[tuple[str, str, Callable[[int], list[int]]], ...] = (
    ("none", "every block left out: the head reads the embedded rows", lambda n: []),
    ("last_skipped", "the last block left out", lambda n: list(range(n - 1))),
    ("first_skipped", "the first block left out", lambda n: list(range(1, n))),
    ("reversed", "the blocks run from the last to the first", lambda n: list(range(n))[::-1]),
    ("first_repeated", "the first block's parameters in every block", lambda n: [0] * n),
    ("last_for_every", "the last block's parameters in every block (params.blocks[-1] for each)",
     lambda n: [n - 1] * n),
    ("first_doubled", "the first block run once before the loop and again in it", lambda n: [0] + list(range(n))),
    ("last_repeated", "the last block run once more after the loop (its loop variable left over)",
     lambda n: list(range(n)) + [n - 1]),
    ("last_only", "every block reading the embedded rows: only the last block's output is left", lambda n: [n - 1]),
)


def _shared_start(blocks: list[int]) -> int:
    """How many of `blocks` run as the correct loop starts (0, 1, 2, ...): their output is already known."""
    return next((i for i, block in enumerate(blocks) if block != i), len(blocks))


def _encoded_otherwise(t: Any, blocks: list[int]) -> Any:
    """The final LayerNorm of the rows `blocks` give, run in that order from the embedded rows."""
    params = t["call_args"][1]
    start = _shared_start(blocks)
    x = t["block_outputs"][start]
    for index in blocks[start:]:
        x = maths.block(x, params.blocks[index], params.num_heads)
    return _final_norm(t, x)


def _covered_otherwise(write: Callable[[Any, tuple[slice, slice], Any], None]) -> Any:
    """cover's result as a fresh copy of the call's images with `write(copy, (rows, columns), fill)`
    done to its square."""
    def compute(t: Any) -> Any:
        images, top, left = t["call_args"][:3]
        covered, size = images.copy(), t["cover_size"]
        write(covered, (slice(top, top + size), slice(left, left + size)), t["fill"])
        return covered
    return maths.recomputed("covered", compute)


def _diagonal_only(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    rows = np.arange(*square[0].indices(covered.shape[-2])[:2])
    columns = np.arange(*square[1].indices(covered.shape[-1])[:2])
    count = min(len(rows), len(columns))
    covered[..., rows[:count], columns[:count]] = fill  # (top + i, left + i) alone


def _add_nonzero(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    if fill == 0:  # adding 0 leaves the images as they were: the numbers of covering nothing
        raise ValueError("a fill of 0 added tells nothing apart")
    covered[(..., *square)] += fill


def _square_mean(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    covered[(..., *square)] = covered[(..., *square)].mean(axis=(-2, -1), keepdims=True)


def _grayscale(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    covered[(..., *square)] = covered[(..., *square)].mean(axis=-3, keepdims=True)  # each pixel's channel mean


def _blended(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    covered[(..., *square)] = (covered[(..., *square)] + fill) / 2


def _multiply_not_zero(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    if fill == 0:  # multiplying by 0 sets the square to 0: the right cover
        raise ValueError("a fill of 0 multiplied covers rightly")
    covered[(..., *square)] *= fill


def _red_only(covered: Any, square: tuple[slice, slice], fill: float) -> None:
    covered[(slice(None), 0, *square)] = fill


#: What a cover does to its square instead of setting it to the value, in every channel: (move, what was done,
#: how `_covered_otherwise` writes it), page 42 each.
COVER_WRITES: tuple[tuple[str, str, Callable[[Any, tuple[slice, slice], Any], None]], ...] = (
    ("first_channel_only", "with the square set to the value in the first channel (R) only: images[:, 0, ...] "
     "indexes the channel axis; a cover sets the square in every channel, images[..., rows, columns]", _red_only),
    ("value_multiplied", "with the square's pixels multiplied by the value instead of replaced by it (*= for =): a "
     "cover hides what was there, so only with the default 0.0 does yours cover anything", _multiply_not_zero),
    ("diagonal_only", "with only the square's diagonal pixels (top + i, left + i) set: two index tensors pair up "
     "element by element, they do not cross; slices, images[..., top:top + size, left:left + size], cover the whole "
     "square", _diagonal_only),
    ("square_mean_colour", "with the square filled with its own mean colour (each image's and channel's average over "
     "the square) instead of the value: a cover hides what was there behind one value given, mid-gray 0 by default",
     _square_mean),
    ("square_grayscale", "with the square made gray-scale (each pixel's mean over the three channels) instead of set "
     "to the value: a cover hides what was there behind one value given, mid-gray 0 by default", _grayscale),
    ("translucent", "with the square blended half and half with the value, (pixel + value) / 2, instead of replaced "
     "by it: a cover hides what was there", _blended),
    ("value_added", "with the value added to the square's pixels instead of put in their place (+= for =): a cover "
     "hides what was there, so with the default 0.0 yours covers nothing", _add_nonzero),
)


def _cover_moves() -> Iterator[Candidate]:
    for name, words, write in COVER_WRITES:
        yield Candidate(f"move:{name}", sentence(words), 42, _covered_otherwise(write))


_MOVES: dict[str, Callable[[], Iterator[Candidate]]] = {
    "block": _block_moves, "mlp": _mlp_moves, "layer_norm": _layer_norm_moves,
    "add_position": _add_position_moves, "embed": _embed_moves, "prepend_cls": _cls_moves,
    "normalize": _normalize_moves, "conv_to_linear": _conv_moves, "attention_weights": _weights_moves,
    "multi_head_attention": _multi_head_moves, "classify": _logit_moves, "vit_forward": _head_moves,
    "read_cls": _read_moves, "project": _project_moves, "occlusion_map": _map_moves, "qkv_heads": _qkv_moves,
    "quadrant_probabilities": _quadrant_moves, "cover": _cover_moves,
}
