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

UNIT_ROUNDOFF = 2.0 ** -24  # float32: 24-bit significand, round to nearest (≈ 6.0e-8)
LAMBDA = 6.0  # 2·exp(-λ²/2) ≈ 3e-8: a bound that fails for fewer than one value in 30 million
CORRECT_HEADROOM = 0.1
MISTAKE_SEPARATION = 10.0
REPRODUCIBLE = CORRECT_HEADROOM


def rounding_bound(terms: int, magnitude: float, evaluations: int = 2) -> float:
    """How far apart float32 evaluations of the same sums can land, in any order of summation.

    Args:
        terms: how many terms are summed along the way to the value, all sums in series counted
            (a 192-term dot product through 12 blocks counts 12·192); their rounding errors add as
            independent errors, so the count enters under the square root.
        magnitude: Σ|terms| of the last sum, the size the relative errors are taken of; for a
            value that a chain of normalized layers produced, the value's own scale.
        evaluations: 2 compares two float32 evaluations with each other; 1 compares one float32
            evaluation with the exact (or float64) value.

    Returns:
        λ·u·√(terms·evaluations)·magnitude: each evaluation errs by λ·u·√terms·magnitude at most,
        independently of the other.
    """
    return LAMBDA * UNIT_ROUNDOFF * math.sqrt(terms * evaluations) * magnitude


def vit_terms(depth: int = 12, width: int = 192, tokens: int = 197, patch_terms: int = 768) -> int:
    """Terms summed along the way from pixels to a ViT's logits (pages 10-40, ViT-Ti/16 sizes).

    Per block: q, k, v (width), scores q·k (width/heads ≤ width), the weighted sum of values (tokens),
    the output projection (width), the MLP's first layer (width) and second (4·width); then the
    patch projection (patch_terms) before the blocks and the head (width) after them.
    """
    per_block = width + width + tokens + width + width + 4 * width
    return patch_terms + depth * per_block + width
