"""The eight lecture steps and each step's rules, in one table that everything else reads.

A step's rules are its points, its functions with their weights, the library work it may not leave
to a library (operator families, as the worker's dispatcher watch sees them, and Python names, as the
worker's wrappers and the static scan see them) and what exercises may import from the kit. A later
step builds on the earlier ones, so it may not call their library functions either: `forbidden`
computes that accumulation, once, from the table.
"""
from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class OperatorFamily:
    """ATen operators that do one library computation, matched by their dispatcher names."""

    pattern: re.Pattern[str]
    """Searched in an operator's name with `aten::` left off, e.g. `native_layer_norm`."""
    label: str
    """What the family does, as a report names it."""

    def matches(self, operator: str) -> bool:
        """Whether the operator (its name without `aten::`) belongs to the family."""
        return self.pattern.search(operator) is not None


# Under `torch.inference_mode` composite operators arrive whole (`layer_norm`), otherwise as their
# kernels (`native_layer_norm`): each family names both.
IM2COL = OperatorFamily(re.compile(r"im2col$"), "im2col, the work of F.unfold")
CONVOLUTION = OperatorFamily(re.compile(r"conv(olution|_|\d)|^_?slow_conv|^thnn_conv"), "convolution")
ATTENTION = OperatorFamily(re.compile(r"scaled_dot_product|^_native_multi_head_attention$"
                                      r"|^_transformer_encoder_layer|^_masked_softmax"), "fused attention")
NORMALIZATION = OperatorFamily(re.compile(r"^_?(native_)?(layer|group|batch|instance|rms)_norm"
                                          r"|^_native_batch_norm|^_batch_norm|^_fused_rms_norm"),
                               "a library normalization")

#: The functions whose lecture computation normalizes nothing, with the page that shows what they compute:
#: a library normalization called there is a computation too many (a LayerNorm inside the MLP), not the
#: step's own work left to a library.
WITHOUT_NORMALIZATION: Mapping[str, int] = MappingProxyType({
    "normalize": 8, "patchify": 7, "conv_to_linear": 10, "project": 10, "add_position": 16, "prepend_cls": 20,
    "embed": 23, "qkv_heads": 26, "attention_weights": 28, "multi_head_attention": 31, "mlp": 36, "classify": 52})

#: The sizes a function passes on to an earlier step's function as it was given them (a block's
#: num_heads to the attention, embed's params.patch_size to patchify), with the lecture page that says
#: what each is: the worker notes the values each call passes, the judge says one other than the case's.
SIZES_PASSED_ON: Mapping[str, int] = MappingProxyType({"num_heads": 32, "patch_size": 7})

#: Seconds each step may run unless the user says otherwise: a pure-Python loop implementation still fits.
DEFAULT_TIMEOUT = 90.0
#: Bytes of heap each worker may take unless the user says otherwise: a batch of 196 ViT-Ti forwards
#: needs about 1.4 GB.
DEFAULT_MEMORY = 4 << 30

#: What exercises may import from the kit (the parameter containers and `earlier_step`), as dotted
#: names. A listed module below the package (`grader.params`) is public with all it defines; from the
#: package itself only the listed names, `*` included: `grader.__all__` is exactly those three.
KIT_IMPORTS: tuple[str, ...] = ("grader", "grader.params", "grader.student", "grader.BlockParams",
                                "grader.ViTParams", "grader.earlier_step", "grader.*")


def _read_only(mapping: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Step:
    """One lecture step: a stub file students fill in, a hidden suite that grades it, and its rules."""

    id: str
    """File name without `.py`, as typed on the command line, e.g. `05_attention`."""
    title: str
    """What the step builds, in the lecture's words."""
    pages: str
    """Lecture pages (vision1.pdf) that teach the step."""
    points: int
    """Full marks for the step."""
    weights: Mapping[str, int] = field(compare=False)
    """The functions the stub asks for, in the order the lecture introduces them, each with the
    weight of one of its test cases: the step's points are shared out in this proportion."""
    operators: tuple[OperatorFamily, ...] = ()
    """Operator families that do this step's own computation (earlier steps' are added by `forbidden`)."""
    names: tuple[str, ...] = ()
    """Dotted Python names of library functions and modules that do this step's own computation."""
    kit_imports: tuple[str, ...] = KIT_IMPORTS
    """What the step's file may import from the kit (see `KIT_IMPORTS`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "weights", _read_only(self.weights))  # frozen all the way down

    @property
    def number(self) -> int:
        return int(self.id[:2])

    @property
    def functions(self) -> tuple[str, ...]:
        """The functions the stub asks for, in the lecture's order."""
        return tuple(self.weights)

    def may_import(self, dotted: str) -> bool:
        """Whether the step's file may import `dotted` (`grader.params`, `grader.ViTParams`): any
        name outside the kit, a listed name, or anything inside a listed module below the package."""
        if dotted != "grader" and not dotted.startswith("grader."):
            return True
        return dotted in self.kit_imports or any(
            dotted.startswith(public + ".") for public in self.kit_imports if public != "grader")


STEPS: tuple[Step, ...] = (
    Step("01_flatten", "Normalize pixels and flatten 16x16 patches", "6-9, 48-49", points=10,
         weights={"normalize": 2, "patchify": 3, "count_tokens": 1},
         operators=(IM2COL, CONVOLUTION),
         names=("torch.nn.functional.unfold", "torch.nn.Unfold", "torch.ops.aten.im2col")),
    Step("02_project", "Project each patch to 192 features", "10-13", points=10,
         weights={"conv_to_linear": 2, "project": 2},
         operators=(CONVOLUTION, IM2COL),
         names=("torch.nn.functional.conv2d", "torch.nn.Conv2d", "torch.ops.aten.convolution")),
    Step("03_position", "Add the learned position table", "15-17", points=10,
         weights={"add_position": 1}),
    Step("04_cls", "Prepend CLS and build the token sequence", "18-23", points=10,
         weights={"prepend_cls": 1, "embed": 2}),
    Step("05_attention", "Multi-head self-attention", "25-34", points=20,
         weights={"qkv_heads": 1, "attention_weights": 1, "multi_head_attention": 1},
         operators=(ATTENTION,),
         names=("torch.nn.functional.scaled_dot_product_attention",
                "torch.nn.functional.multi_head_attention_forward", "torch.nn.MultiheadAttention",
                "torch.ops.aten._native_multi_head_attention")),
    Step("06_block", "LayerNorm, MLP and the pre-LN block", "34-37", points=15,
         weights={"layer_norm": 1, "mlp": 1, "block": 2},
         operators=(NORMALIZATION,),
         names=("torch.nn.functional.layer_norm", "torch.layer_norm", "torch.nn.LayerNorm",
                "torch.ops.aten.native_layer_norm", "torch.nn.functional.group_norm", "torch.nn.GroupNorm",
                "torch.nn.functional.batch_norm", "torch.nn.TransformerEncoderLayer")),
    Step("07_head", "Final CLS, class head and the whole ViT", "38-40, 50-52, 54", points=15,
         weights={"read_cls": 1, "classify": 1, "vit_forward": 2},
         names=("torchvision.models.VisionTransformer",)),
    Step("08_occlusion", "Occlusion: cover pixels, measure the change", "41-44", points=10,
         weights={"cover": 1, "quadrant_probabilities": 2, "occlusion_map": 2}),
)

STEP_IDS: tuple[str, ...] = tuple(step.id for step in STEPS)
_BY_ID = {step.id: step for step in STEPS}


@dataclass(frozen=True)
class Forbidden:
    """What a step may not leave to a library: its own computation and every earlier step's."""

    operators: tuple[OperatorFamily, ...]
    names: tuple[str, ...]


@functools.cache
def forbidden(step_id: str) -> Forbidden:
    """The step's forbidden work with every earlier step's added: a later step builds on the earlier
    ones (`vit_forward` is the lecture's six lines, not a library's forward). Nothing for an unknown id."""
    upto = STEPS[: STEP_IDS.index(step_id) + 1] if step_id in _BY_ID else ()
    operators = tuple(dict.fromkeys(family for step in upto for family in step.operators))
    names = tuple(dict.fromkeys(name for step in upto for name in step.names))
    return Forbidden(operators, names)


#: Every forbidden Python name of every step, for wrappers installed once per worker.
ALL_FORBIDDEN_NAMES: tuple[str, ...] = forbidden(STEP_IDS[-1]).names


def short_name(dotted: str) -> str:
    """A library name as code usually writes it: `torch.nn.functional.unfold` -> `F.unfold`."""
    for prefix, short in (("torch.nn.functional.", "F."), ("torch.nn.", "nn.")):
        if dotted.startswith(prefix):
            return short + dotted[len(prefix):]
    return dotted


#: The forbidden names that are a library normalization, dotted and as code writes them (`F.layer_norm`).
NORMALIZATION_NAMES: frozenset[str] = frozenset(
    name for dotted in ALL_FORBIDDEN_NAMES if "norm" in dotted.lower() for name in (dotted, short_name(dotted)))


class UnknownStep(ValueError):
    """A step id that is not in the registry; the message suggests the closest one."""


def get_step(step_id: str) -> Step:
    """Look a step up by id, by its number (`5`, `05`) or by its name (`attention`)."""
    if step_id in _BY_ID:
        return _BY_ID[step_id]
    for step in STEPS:
        if step_id.lstrip("0") == str(step.number) or step_id == step.id[3:]:
            return step
    close = difflib.get_close_matches(step_id, STEP_IDS, n=1, cutoff=0.3)
    hint = f" Did you mean {close[0]}?" if close else ""
    raise UnknownStep(f"unknown step '{step_id}'.{hint} Steps: {', '.join(STEP_IDS)}")
