"""The registry of the eight lecture steps: ids, titles, lecture pages, points and functions."""
from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One lecture step: a stub file students fill in and a hidden suite that grades it."""

    id: str
    """File name without `.py`, as typed on the command line, e.g. `05_attention`."""
    title: str
    """What the step builds, in the lecture's words."""
    pages: str
    """Lecture pages (vision1.pdf) that teach the step."""
    functions: tuple[str, ...]
    """The functions the stub asks for, in the order the lecture introduces them."""
    points: int
    """Full marks for the step."""

    @property
    def number(self) -> int:
        return int(self.id[:2])


STEPS: tuple[Step, ...] = (
    Step("01_flatten", "Normalize pixels and flatten 16x16 patches", "6-9, 48-49",
         ("normalize", "patchify", "count_tokens"), 10),
    Step("02_project", "Project each patch to 192 features", "10-13",
         ("conv_to_linear", "project"), 10),
    Step("03_position", "Add the learned position table", "15-17",
         ("add_position",), 10),
    Step("04_cls", "Prepend CLS and build the token sequence", "18-23",
         ("prepend_cls", "embed"), 10),
    Step("05_attention", "Multi-head self-attention", "25-34",
         ("qkv_heads", "attention_weights", "multi_head_attention"), 20),
    Step("06_block", "LayerNorm, MLP and the pre-LN block", "34-37",
         ("layer_norm", "mlp", "block"), 15),
    Step("07_head", "Final CLS, class head and the whole ViT", "38-40, 50-52, 54",
         ("read_cls", "classify", "vit_forward"), 15),
    Step("08_occlusion", "Occlusion: cover pixels, measure the change", "41-44",
         ("cover", "quadrant_probabilities", "occlusion_map"), 10),
)

STEP_IDS: tuple[str, ...] = tuple(step.id for step in STEPS)
_BY_ID = {step.id: step for step in STEPS}


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
