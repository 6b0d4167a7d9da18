"""float32 rounding: the one place the kit's numeric tolerances are derived from.

Two correct float32 evaluations of the same maths differ whenever they sum in another order:
another CPU's kernels (AVX-512, AVX2, SSE, ARM NEON), another thread count, another BLAS blocking,
another batch split. Each rounding of a sum of n terms errs by at most the unit roundoff
u = 2^-24 of the partial sum; over a whole sum these errors behave as independent random errors
of mean zero, so with overwhelming probability the sum errs by at most λ·√n·u·Σ|terms|
(Higham and Mary, "A new approach to probabilistic rounding error analysis", SIAM J. Sci.
Comput. 41(5), 2019; failure probability below 2·exp(-λ²/2) per value). The worst case n·u·Σ|terms|
is reached only by adversarial inputs and is far too loose to test anything.

Targets, relative to a test's tolerance (docs/numerics.md has the measured figures):
- a correct implementation computed another way errs by at most CORRECT_HEADROOM of it, so a
  machine with ten times this machine's float noise still grades right;
- every catalogued mistake errs by at least MISTAKE_SEPARATION times it somewhere in its step;
- a fixture rebuilt on another machine stays within REPRODUCIBLE of it.
"""
from __future__ import annotations

import math
from typing import Any

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
