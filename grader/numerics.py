"""float32 numerics: every tolerance the kit compares numbers with, and the one comparison, `close`.

Two correct float32 evaluations of the same maths differ whenever they sum in another order:
another CPU's kernels (AVX-512, AVX2, SSE, ARM NEON), another thread count, another BLAS blocking,
another batch split. Each rounding of a sum of n terms errs by at most the unit roundoff
u = 2^-24 of the partial sum; over a whole sum these errors behave as independent random errors
of mean zero, so with overwhelming probability the sum errs by at most λ·√n·u·Σ|terms|
(Higham and Mary, "A new approach to probabilistic rounding error analysis", SIAM J. Sci.
Comput. 41(5), 2019; failure probability below 2·exp(-λ²/2) per value). The worst case n·u·Σ|terms|
is reached only by adversarial inputs and is far too loose to test anything.

A tolerance is (absolute, relative): `got` is close to `expected` where
|got − expected| <= absolute + relative·|expected|, everywhere (`close`; `allowed` is the right-hand
side). Every tolerance of the grader is defined here, from the bounds below or, where a chain is too
long for them to be useful, from the measured headroom (`vitgrade bench`, docs/numerics.md).

Targets, relative to a test's tolerance (docs/numerics.md has the measured figures):
- a correct implementation computed another way errs by at most CORRECT_HEADROOM of it, so a
  machine with ten times this machine's float noise still grades right;
- every catalogued mistake errs by at least MISTAKE_SEPARATION times it somewhere in its step;
- a fixture rebuilt on another machine stays within REPRODUCIBLE of it.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

UNIT_ROUNDOFF = 2.0 ** -24  # float32: 24-bit significand, round to nearest (≈ 6.0e-8)
LAMBDA = 6.0  # 2·exp(-λ²/2) ≈ 3e-8: a bound that fails for fewer than one value in 30 million
CORRECT_HEADROOM = 0.1
MISTAKE_SEPARATION = 10.0
REPRODUCIBLE = CORRECT_HEADROOM


def rounding_bound(terms: int, magnitude: float, evaluations: int = 2, unit: float = UNIT_ROUNDOFF) -> float:
    """How far apart float32 evaluations of the same sums can land, in any order of summation.

    Args:
        terms: how many terms are summed along the way to the value, all sums in series counted
            (a 192-term dot product through 12 blocks counts 12·192); their rounding errors add as
            independent errors, so the count enters under the square root.
        magnitude: Σ|terms| of the last sum, the size the relative errors are taken of; for a
            value that a chain of normalized layers produced, the value's own scale.
        evaluations: 2 compares two float32 evaluations with each other; 1 compares one float32
            evaluation with the exact (or float64) value.
        unit: the unit roundoff; 2^-53 for a float64 computation.

    Returns:
        λ·u·√(terms·evaluations)·magnitude: each evaluation errs by λ·u·√terms·magnitude at most,
        independently of the other.
    """
    return LAMBDA * unit * math.sqrt(terms * evaluations) * magnitude


def block_terms(width: int = 192, tokens: int = 197) -> int:
    """Terms summed in series through one encoder block (pages 25-37): LayerNorm's mean and
    variance (width each, twice), q, k, v (width), the scores (width/heads <= width), the weighted
    values (tokens), the output projection (width), the MLP's first layer (width), its second (4·width)."""
    return 4 * width + width + width + tokens + width + width + 4 * width


def vit_terms(depth: int = 12, width: int = 192, tokens: int = 197, patch_terms: int = 768) -> int:
    """Terms summed along the way from pixels to a ViT's logits (pages 10-40, ViT-Ti/16 sizes).

    The patch projection (patch_terms), `depth` blocks (`block_terms`) and the head (width).
    """
    return patch_terms + depth * block_terms(width, tokens) + width


def layer_norm_bound(x: Any, weight: Any, eps: float) -> float:
    """How far two float32 LayerNorms (pages 34-36) of the rows of `x` can differ.

    The row mean and variance sum 2·D terms of size max|x|; subtracting the mean leaves that error
    whole, and dividing by √(var + eps) amplifies it: rows that are nearly constant (a small variance
    on a large mean) amplify it most, by max|x| / √(var + eps); the weight scales it once more.

    Args:
        x: (..., D) the rows, a torch tensor.
        weight: (D,) the LayerNorm weight.
        eps: added to the variance.
    """
    spread = float((x.var(dim=-1, unbiased=False) + eps).sqrt().min())
    return rounding_bound(2 * x.shape[-1], float(x.abs().max()) * float(weight.abs().max()) / spread)


# ---------------------------------------------------------------- the comparison

#: (absolute, relative): |got − expected| <= absolute + relative·|expected|.
Tolerance = tuple[float, float]


def allowed(expected: Any, tolerance: Tolerance) -> Any:
    """How far from `expected` a value may land: absolute + relative·|expected|, elementwise."""
    absolute, relative = tolerance
    return absolute + relative * np.abs(expected)


def outside(got: Any, expected: Any, tolerance: Tolerance) -> np.ndarray:
    """Where `got` is not within the tolerance of `expected`, in float64; NaN counts as outside."""
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    return ~(np.abs(got - expected) <= allowed(expected, tolerance))


def close(got: Any, expected: Any, tolerance: Tolerance) -> bool:
    """`got` has `expected`'s shape and is within the tolerance of it everywhere."""
    return np.shape(got) == np.shape(expected) and not outside(got, expected, tolerance).any()


def in_tolerances(got: Any, expected: Any, tolerance: Tolerance) -> np.ndarray:
    """|got − expected| in units of the tolerance, elementwise: 1 is the edge of `close`."""
    got, expected = np.asarray(got, np.float64), np.asarray(expected, np.float64)
    return np.abs(got - expected) / allowed(expected, tolerance)


def stated(tolerance: Tolerance) -> str:
    """The tolerance as a failure message states it."""
    absolute, relative = tolerance
    return f"|got - expected| <= {absolute:g} + {relative:g}·|expected|"


class Closeness:
    """`close` with its tolerance bound, for checks that compare many pairs alike: `closeness(got, expected)`."""

    def __init__(self, tolerance: Tolerance) -> None:
        self.tolerance = tolerance

    def __call__(self, got: Any, expected: Any) -> bool:
        return close(got, expected, self.tolerance)


def at_scale(fraction: float, values: Any) -> Tolerance:
    """`fraction` of the scale of `values` (their largest magnitude, at least 1), the same for every
    element: rounding errors grow with Σ|terms| of the sums that made a tensor, not with each value,
    and an element near zero carries the error of the large terms that cancelled in it."""
    return fraction * max(1.0, float(np.abs(values).max(initial=0.0))), 0.0


# ---------------------------------------------------------------- the tolerances

#: Every graded comparison without a tolerance of its own. A graded function computes at most one
#: block from its fixture inputs, `block_terms()` = 2501 terms summed in series (LayerNorm's means
#: and variances, q, k, v, scores, values, projection, the MLP's 192 and 768 terms); two machines
#: summing them in other orders differ by λ·u·√(2·2501) ≈ 2.5e-5 of the sums' magnitude, so 1e-4
#: relative leaves a factor 4 above that bound and 1e-4 absolute covers values that cancel out of
#: sums of size ~1. For chains through the whole ViT (occlusion with the ViT) that bound is too loose
#: to be useful, and the tolerance rests on the measured headroom: `vitgrade bench` computes correct
#: code seven ways and measures it and every known mistake against this tolerance (docs/numerics.md).
DEFAULT_TOLERANCE: Tolerance = (1e-4, 1e-4)

#: vit_forward, the whole chain from pixels to logits: its bound, λ·u·√(2·vit_terms()) ≈ 8.9e-5 of the
#: head's sums, which reach ~66 on the stand-in's photographs (6e-3), is too loose to set it; it rests
#: on the measured headroom (docs/numerics.md).
VIT_TOLERANCE: Tolerance = (1e-3, DEFAULT_TOLERANCE[1])


def layer_norm_tolerance(x: Any, weight: Any, eps: float) -> Tolerance:
    """LayerNorm of rows that may be nearly constant: the derived `layer_norm_bound` absolute (the
    default's 1e-4 left correct code at 0.36 of it on such rows), the default relative part."""
    return layer_norm_bound(x, weight, eps), DEFAULT_TOLERANCE[1]


def zeros_fit(values: Any, tolerance: Tolerance) -> bool:
    """Whether zeros everywhere are `values` within the tolerance. Then every mistake whose numbers are near
    zero too (the probability of an unlikely class) fits them as well, and none may be named for them."""
    values = np.asarray(values, dtype=np.float64)
    return values.size > 0 and close(values, np.zeros_like(values), tolerance)


def case_tolerance(extra: Mapping[str, Any]) -> Tolerance:
    """The tolerance a fixture case is graded with: its own (`extra["tolerance"]`), else the default."""
    return tuple(extra.get("tolerance", DEFAULT_TOLERANCE))  # type: ignore[return-value]


#: A known mistake's (or an edit's) output is matched with its fingerprint within this fraction of
#: `at_scale`: a mistake made on another machine differs from the fingerprint computed at build time
#: by float32 noise only: at most `rounding_bound(vit_terms(), scale)` ≈ 8.9e-5 of the scale for the
#: ~31000 terms summed from pixels to logits (measured: 3.5e-5 at worst); the fingerprint keeps its
#: values as float16 of value / (their largest magnitude), within 2⁻¹² ≈ 2.4e-4 of that scale, so the
#: two together stay under 3.4e-4 and 1e-3 leaves a factor 3.
FINGERPRINT_TOLERANCE = 1e-3

#: Two outputs of the fixture builder are one output (a mistake that gives the answer's numbers, or
#: another mistake's) within this fraction of `at_scale`: the default tolerance's relative part.
SAME_OUTPUT = DEFAULT_TOLERANCE[1]

#: Two float64 reruns of the lecture's computation give the same numbers (one mistake, spelled twice)
#: within this fraction of `at_scale`: the longest computation the search reruns, a block, sums at
#: most `block_terms()` = 2501 terms in series, so two spellings of one computation differ by at most
#: 2501·2⁻⁵³ ≈ 2.8e-13 of the sums' magnitude; 1e-9 leaves a factor 3600 for LayerNorm's and the
#: softmax's divisions. Two different mistakes that merely agree within the test's float32 tolerance
#: are two mistakes.
SAME_NUMBERS = 1e-9


def near_a_step(value: Any, steps: Any) -> bool:
    """Whether a step function (floor, sign) of `value` is not reproducible: some value lies off its
    nearest step `steps` (a whole number, or 0) by no more than `DEFAULT_TOLERANCE`, the bound two
    machines' sums through a block stay within, so another correct float32 computation could put it on
    the other side and move the result by a whole step. A value exactly on its step (a pixel of 255
    normalized, a ReLU's 0) is exact arithmetic, the same on every machine."""
    distance = np.abs(np.asarray(value, np.float64) - steps)
    return bool(((distance > 0) & (distance <= allowed(value, DEFAULT_TOLERANCE))).any())


# ---------------------------------------------------------------- the diagnosis's fits

#: Rows that sum to 1, as a softmax's rows do (the diagnosis's probabilities and attention weights):
#: far above the rounding of such a sum, λ·u·√(2·197) ≈ 7e-6 for 197 keys, and far below what rows
#: that are not normalized sum to; the relative part is numpy's `allclose` default.
SUMS_TO_ONE: Tolerance = (1e-3, 1e-5)


def fit_tolerance(values: Any) -> Tolerance:
    """A structure fitted to an error (each LayerNorm row times a factor of its own): 1e-3 relative,
    1e-4 of the values' largest magnitude absolute. A detection threshold of the diagnosis, which
    only names what it fits: not derived from a rounding bound."""
    return 1e-4 * float(np.abs(values).max()), 1e-3


def inverse_tolerance(values: Any) -> Tolerance:
    """Rows recovered through a matrix inverse (the joined heads through W_o⁻¹), which amplifies the
    rounding of what it undoes by the matrix's condition number: 1e-3 relative and of the rows'
    largest magnitude. A detection threshold of the diagnosis: not derived from a rounding bound."""
    return 1e-3 * float(np.abs(values).max()), 1e-3
