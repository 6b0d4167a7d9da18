"""Mistakes the kit has never seen: realistic wrong ideas that grader/mistakes deliberately does not
know, one per idea across all eight steps, and correct styles that must keep full marks.

Each wrong mutant names the structural finding its feedback must contain (`finding`, a phrase of
grader/suites/diagnosis.py), or None where no structure of the output can name it (it must still
lose points, and get no invented finding). Every `old` must differ from every catalogue entry's edit: these are not in the
catalogue, so only the structure of the error can name them.
"""
from __future__ import annotations

from dataclasses import dataclass

from grader.paths import SOLUTIONS
from mutants.catalogue import Mutant


@dataclass(frozen=True)
class Unseen(Mutant):
    """A mutant with the finding its feedback must contain."""

    finding: str | None = None
    """A phrase of the expected structural finding, or None when the output shows no structure."""
    hidden: bool = False
    """Whether only a hidden case shows the mistake (the visible ones are graded otherwise)."""

    @property
    def function(self) -> str:
        return edited_function(self)


def edited_function(mutant: Mutant) -> str:
    """The step function whose body the mutant's edit changes: the one whose tests it must affect."""
    solution = (SOLUTIONS / f"{mutant.step}.py").read_text()
    first_line = mutant.old.split("\n", 1)[0]  # an edit may start at the `def` line itself
    before = solution[: solution.index(mutant.old) + len(first_line)]
    return before[before.rindex("\ndef ") + 5:].split("(", 1)[0]


def unseen(step: str, name: str, finding: str | None, what: str, old: str, new: str,
           hidden: bool = False) -> Unseen:
    return Unseen(step, name, None, what, old, new, finding, hidden)


UNSEEN = [
    unseen('01_flatten', 'half_range', 'Every value is 0.5 ×',
           'normalize maps to [-0.5, 0.5]: it subtracts 0.5 but forgets to divide by 0.5.',
           '    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5\n',
           '    return pixels.to(torch.float32) / 255 - 0.5\n'),
    unseen('01_flatten', 'float16', 'a computation in float16',
           'normalize computes in half precision to save memory.',
           '    return (pixels.to(torch.float32) / 255 - 0.5) / 0.5\n',
           '    return ((pixels.to(torch.float16) / 255 - 0.5) / 0.5).float()\n'),
    unseen('01_flatten', 'patches_reversed', 'reversed',
           'patchify walks the grid of patches from the bottom-right corner, so P196 comes first.',
           '    grid = grid.permute(0, 2, 4, 1, 3, 5)  # (B, rows, cols, C, P, P): channel-major inside a patch\n',
           '    grid = grid.flip(2, 4).permute(0, 2, 4, 1, 3, 5)  # (B, rows, cols, C, P, P)\n'),
    unseen('02_project', 'bgr', 'in blocks of 256, taken in the order 3, 2, 1',
           "conv_to_linear reverses the colour channels (OpenCV's BGR), so W_E's R and B rows trade places.",
           '    return conv_weight.reshape(D, -1).T.contiguous()  # (3*P*P, D): PyTorch stores (out, in)\n',
           '    return conv_weight.flip(1).reshape(D, -1).T.contiguous()  # (3*P*P, D), BGR\n'),
    unseen('02_project', 'bias_twice', '`b_E` is added twice',
           'project adds b_E twice (once "for the batch", once per row).',
           '    return patches @ W_E + b_E  # (B, N, D)\n',
           '    return patches @ W_E + b_E + b_E  # (B, N, D)\n'),
    unseen('03_position', 'first_row_skipped', 'Only 1 of 196 patches is wrong',
           "add_position leaves token 0 alone, believing row 0 always belongs to CLS (it does not here: "
           "the tokens are the 196 patches).",
           '    return tokens + pos_table  # (N, D) broadcasts over the batch: (B, N, D)\n',
           '    out = tokens.clone()\n    out[:, 1:] += pos_table[1:]  # row 0 is CLS\'s\n    return out\n'),
    unseen('03_position', 'multiplied', 'content and position are multiplied',
           'add_position multiplies content and position instead of adding them.',
           '    return tokens + pos_table  # (N, D) broadcasts over the batch: (B, N, D)\n',
           '    return tokens * pos_table  # WHAT scaled by WHERE\n'),
    unseen('04_cls', 'cls_is_mean', 'the mean of the other rows',
           'prepend_cls starts CLS as the mean of the patch tokens instead of the learned vector.',
           '    cls = cls_token.expand(B, 1, D)  # (B, 1, D): the same start for every image\n',
           '    cls = tokens.mean(dim=1, keepdim=True)  # (B, 1, D): a summary of the patches\n'),
    unseen('04_cls', 'cls_rolled', 'moved down by 1 place',
           'embed rolls the sequence by one after adding position, to "make room" for CLS at the end.',
           '    return position.add_position(tokens, params.pos_table)  # (B, 197, D): CLS gets row 0\n',
           '    return position.add_position(tokens, params.pos_table).roll(1, dims=1)  # (B, 197, D)\n'),
    unseen('05_attention', 'heads_reversed', 'reversed',
           'qkv_heads numbers the heads from the end: head 1 takes the last 64 features of q, k and v.',
           '    q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)  # each (B, H, N, d)\n',
           '    q, k, v = qkv.flip(3).permute(2, 0, 3, 1, 4).unbind(0)  # each (B, H, N, d)\n'),
    unseen('05_attention', 'scale_by_d', 'softmax of the right scores times',
           'attention_weights divides the scores by d = 64 instead of √d.',
           '    scores = (q * d**-0.5) @ k.transpose(-2, -1)  # (B, H, N, N): query rows, key columns; scaling\n',
           '    scores = (q / d) @ k.transpose(-2, -1)  # (B, H, N, N): query rows, key columns; scaling\n'),
    unseen('05_attention', 'scores_returned', 'these are scores, not weights',
           'attention_weights returns the scaled scores and leaves the softmax for later.',
           '    return scores.softmax(dim=-1)  # over keys; full attention, so no causal mask (page 30)\n',
           '    return scores  # the softmax comes later\n'),
    unseen('05_attention', 'global_softmax', 'not 1',
           "attention_weights normalizes each head's whole 197 x 197 table at once, not each row.",
           '    return scores.softmax(dim=-1)  # over keys; full attention, so no causal mask (page 30)\n',
           '    return scores.flatten(-2).softmax(dim=-1).reshape(scores.shape)  # (B, H, N, N)\n'),
    unseen('05_attention', 'no_output_bias', '`b_o` is left out',
           'multi_head_attention projects the joined heads with W_o but forgets b_o.',
           '    return F.linear(joined, W_o.T, b_o)  # (B, N, D) = joined @ W_o + b_o, in one fused kernel\n',
           '    return joined @ W_o  # (B, N, D)\n'),
    unseen('05_attention', 'heads_joined_reversed', 'joined in the order 3, 2, 1',
           'multi_head_attention joins the heads last to first.',
           "    joined = messages.transpose(1, 2).reshape(B, N, D)  # (B, N, H*d): each row's heads side by side\n",
           '    joined = messages.flip(1).transpose(1, 2).reshape(B, N, D)  # (B, N, H*d)\n'),
    unseen('06_block', 'sigmoid_gelu', 'the numbers are approximate',
           "mlp uses the sigmoid approximation of GELU, z·σ(1.702 z).",
           '    hidden = F.gelu(hidden)  # exact (erf) GELU, z·Φ(z); not the tanh fit (approximate="tanh")\n',
           '    hidden = hidden * torch.sigmoid(1.702 * hidden)  # GELU, the fast way\n'),
    unseen('06_block', 'eps_outside_sqrt', 'the division by the standard deviation is off',
           'layer_norm adds eps to the standard deviation instead of the variance.',
           '    return centred * torch.rsqrt(var + eps) * weight + bias  # one pass fewer than / sqrt\n',
           '    return centred / (var.sqrt() + eps) * weight + bias\n'),
    unseen('06_block', 'residual_twice', 'your input `x` itself',
           'block adds the input x to the output once more ("the residual stream").',
           '    return u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)\n',
           '    return x + u + mlp(layer_norm(u, p.ln2_weight, p.ln2_bias), p.W_1, p.b_1, p.W_2, p.b_2)\n'),
    unseen('07_head', 'log_softmax', 'log-probabilities',
           'classify returns log-probabilities (log_softmax), "for numerical stability".',
           '    return h @ W_head + b_head  # (B, 1000)\n',
           '    return (h @ W_head + b_head).log_softmax(dim=-1)  # (B, 1000)\n'),
    unseen('07_head', 'second_row', 'Your result is row P1 [index 1] after the final LayerNorm',
           'read_cls reads row 1, believing CLS was appended after the patches and row 0 is P1.',
           '    return encoder.layer_norm(x, norm_weight, norm_bias)[:, 0]  # (B, D)\n',
           '    return encoder.layer_norm(x, norm_weight, norm_bias)[:, 1]  # (B, D)\n'),
    unseen('08_occlusion', 'off_by_one', 'Your cover spans',
           'cover includes the end row and column, top..top+size inclusive.',
           '    covered[:, :, top:top + size, left:left + size] = value\n',
           '    covered[:, :, top:top + size + 1, left:left + size + 1] = value\n'),
    unseen('08_occlusion', 'image_mean', "the image's mean",
           "cover fills with the image's mean, a \"neutral\" colour, ignoring `value`.",
           '    covered[:, :, top:top + size, left:left + size] = value\n',
           '    covered[:, :, top:top + size, left:left + size] = images.mean()\n'),
    unseen('08_occlusion', 'clockwise', 'bottom-right',
           'quadrant_probabilities goes round clockwise: top-left, top-right, bottom-right, bottom-left.',
           '    corners = [(0, 0), (0, half), (half, 0), (half, half)]  # TL, TR, BL, BR as (top, left)\n',
           '    corners = [(0, 0), (0, half), (half, half), (half, 0)]  # clockwise\n'),
    unseen('08_occlusion', 'covered_probability', 'Every value is off by the same constant',
           'occlusion_map returns the covered probability itself, not its change.',
           '    change = _target_probability(model, covered, target) - _target_probability(model, image, target)\n',
           '    change = _target_probability(model, covered, target)\n'),
]

#: Correct implementations in other styles: each must keep full marks.
STYLES = [
    Mutant('01_flatten', 'tensor_unfold', None, 'patchify with Tensor.unfold (a view), not F.unfold.',
           '    grid = images.reshape(B, C, H // P, P, W // P, P)  # (B, C, rows, P, cols, P)\n'
           '    grid = grid.permute(0, 2, 4, 1, 3, 5)  # (B, rows, cols, C, P, P): channel-major inside a patch\n',
           '    grid = images.unfold(2, P, P).unfold(3, P, P)  # (B, C, rows, cols, P, P)\n'
           '    grid = grid.permute(0, 2, 3, 1, 4, 5)  # (B, rows, cols, C, P, P)\n'),
    Mutant('02_project', 'dot_t', None, 'conv_to_linear with .t() and no .contiguous().',
           '    return conv_weight.reshape(D, -1).T.contiguous()  # (3*P*P, D): PyTorch stores (out, in)\n',
           '    return conv_weight.reshape(D, -1).t()  # (3*P*P, D)\n'),
    Mutant('05_attention', 'einsum_manual_softmax', None,
           'attention_weights with einsum and a hand-written, max-subtracted softmax.',
           '    scores = (q * d**-0.5) @ k.transpose(-2, -1)  # (B, H, N, N): query rows, key columns; scaling\n',
           '    scores = torch.einsum("bhid,bhjd->bhij", q, k) / d**0.5  # (B, H, N, N)\n'
           '    scores = (scores - scores.amax(-1, keepdim=True)).exp()\n'
           '    return scores / scores.sum(-1, keepdim=True)\n'),
    Mutant('05_attention', 'loop_over_heads', None,
           'multi_head_attention looping over the heads and concatenating their messages.',
           '    messages = attention_weights(q, k) @ v  # (B, H, N, d): one message per head and receiver\n'
           "    joined = messages.transpose(1, 2).reshape(B, N, D)  # (B, N, H*d): each row's heads side by side\n",
           '    joined = torch.cat([attention_weights(q[:, h:h + 1], k[:, h:h + 1])[:, 0] @ v[:, h]\n'
           '                        for h in range(num_heads)], dim=-1)  # (B, N, H*d)\n'),
    Mutant('07_head', 'norm_cls_only', None, 'read_cls normalizing the CLS row only.',
           '    return encoder.layer_norm(x, norm_weight, norm_bias)[:, 0]  # (B, D)\n',
           '    return encoder.layer_norm(x[:, 0], norm_weight, norm_bias)  # (B, D)\n'),
]

#: What each mistake really has, in the kinds of mutants.fresh.CLAIMS: a message may claim only these.
CLAIMS: dict[str, frozenset[str]] = {name: frozenset(kinds.split()) for name, kinds in {
    "01_flatten/half_range": "scale shift", "01_flatten/float16": "approximate type",
    "01_flatten/patches_reversed": "order", "02_project/bgr": "order", "02_project/bias_twice": "term shift",
    "03_position/first_row_skipped": "part term", "03_position/multiplied": "term",
    "04_cls/cls_is_mean": "part term", "04_cls/cls_rolled": "order", "05_attention/heads_reversed": "order",
    "05_attention/scale_by_d": "term", "05_attention/scores_returned": "activation term",
    "05_attention/global_softmax": "axis", "05_attention/no_output_bias": "term shift",
    "05_attention/heads_joined_reversed": "order", "06_block/sigmoid_gelu": "approximate activation",
    "06_block/eps_outside_sqrt": "term scale", "06_block/residual_twice": "term inputs",
    "07_head/log_softmax": "activation term", "07_head/second_row": "term part",
    "08_occlusion/off_by_one": "part", "08_occlusion/image_mean": "fill",
    "08_occlusion/clockwise": "order", "08_occlusion/covered_probability": "shift term",
}.items()}
