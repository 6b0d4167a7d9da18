"""The lecture's measured numbers (pages 3, 13, 17, 33, 40, 43, 44, 49), read from the fixtures.

Each test reads one quantity from the fixtures' expected outputs and compares it with a table:
- `lecture`: the values the transcript states, with their pages. They hold only for the real
  checkpoint (`vit_tiny_patch16_224.augreg_in21k_ft_in1k`) on the lecture's photograph
  (newfoundland_31); otherwise these tests are skipped, saying which is missing.
- `own`: the same quantities for the checkpoint and sample photograph the fixtures were built
  from (the stand-in, as committed), computed here independently of the fixture builder: timm's
  model holding the checkpoint file's weights, the photograph through timm's own eval transform,
  attention written out from the block's modules, the covers of page 42. These always run, so a
  change that breaks a fact (the occlusion case on another grid, the P74/P60 indexing) fails today,
  not on the day the real checkpoint arrives. Their numbers are the checkpoint's, never the lecture's.
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

import numpy as np
import pytest

from grader import paths
from grader.expected.build import LECTURE_FACTS
from grader.expected.store import load_cases, load_manifest
from grader.numerics import rounding_bound, vit_terms
from together import early_script, script_outcome, write_outcome

MANIFEST = load_manifest()
SAMPLE = next(name for name, photo in MANIFEST["photos"].items() if photo["role"] == "sample")
QUADRANTS = ((0, 0), (0, 112), (112, 0), (112, 112))  # top-left, top-right, bottom-left, bottom-right
COVER, PATCH = 112, 16


@dataclass(frozen=True)
class Facts:
    """One table: the same quantities, from the lecture or computed from the fixtures' checkpoint."""

    source: str
    top_class: int
    top_probability: float
    p63_features: tuple[float, ...]  # the first three of P63's 192 projected features
    p74_to_p60: float  # block 4, head 1: the weight query P74 gives source P60
    p74_to_cls: float
    quadrants: tuple[float, ...]  # top-class probability with each 112 x 112 quarter covered
    largest_drop_patch: int  # one-based: the patch whose cover lowers the top class most
    largest_drop: float  # that change of probability (negative)
    tokens: int  # CLS + 14 x 14 patches
    scores: int  # attention scores per head: tokens x tokens


#: The precision the lecture states each number with (half its last digit). A tolerance is never
#: below float32 rounding either: see `tolerance`.
STATED = {"top_probability": 5e-11, "p63_features": 5e-4, "p74_to_p60": 5e-9, "p74_to_cls": 5e-9,
          "quadrants": 5e-5, "largest_drop": 5e-9}

LECTURE = Facts(
    source="the lecture (vision1.pdf)",
    top_class=256,  # Newfoundland, page 42
    top_probability=0.9572675228,  # pages 3 and 40
    p63_features=(-0.852, 1.339, 0.504),  # page 13
    p74_to_p60=0.09088265,  # page 33: 9.088265 %
    p74_to_cls=0.02089876,  # page 33: 2.089876 %
    quadrants=(0.8300, 0.7962, 0.8454, 0.8216),  # page 43
    largest_drop_patch=78,  # page 44: P78
    largest_drop=-0.03836018,  # page 44: 3.836018 points
    tokens=197,  # pages 17, 23
    scores=38_809,  # page 49: 197 squared
)


def _lecture_skipped() -> str | None:
    if MANIFEST["checkpoint"]["kind"] != "real":
        return ("fixtures come from the seeded stand-in, not the lecture's checkpoint: rebuild with "
                "`vitgrade fixtures build --checkpoint vit_tiny_patch16_224.augreg_in21k_ft_in1k "
                "--photo newfoundland_31.jpg`")
    if "newfoundland_31" not in SAMPLE:
        return f"the sample photograph is {SAMPLE}, not the lecture's newfoundland_31 (Oxford-IIIT Pet)"
    return None


#: The float32 rounding bound of each quantity (`_own`), read from the own table's run by `table`.
BOUNDS: dict[str, float] = {}


def tolerance(name: str) -> float:
    """The larger of the precision the lecture states and how far float32 evaluations of the
    quantity on two machines can differ (`_own`); the same for both tables."""
    return max(STATED[name], BOUNDS[name])


def _probability_bound(probability: float, logit_bound: float) -> float:
    """Softmax: dp_t = p_t·(dz_t - Σ_j p_j·dz_j), so |dp_t| <= 2·p_t·max|dz| (pages 39-40)."""
    return 2 * probability * logit_bound


def _own() -> tuple[Facts, dict[str, float]]:
    """The table's quantities for the fixtures' own checkpoint and sample photograph, by timm, and
    the float32 rounding bound of each (grader.numerics: every sum on the way, in another order)."""
    import timm
    import torch
    from PIL import Image
    from safetensors.torch import load_file
    from timm.data import create_transform, resolve_data_config

    with torch.device("meta"):  # no random initialisation: every weight comes from the file
        model = timm.create_model("vit_tiny_patch16_224", pretrained=False)
    weights = load_file(paths.FIXTURES / MANIFEST["checkpoint"]["file"])  # the stand-in is stored in float16
    model.load_state_dict({name: tensor.float() for name, tensor in weights.items()}, strict=True, assign=True)
    model.eval()
    transform = create_transform(**resolve_data_config(model=model))  # the checkpoint's eval transform
    with Image.open(paths.FIXTURES / "photos" / SAMPLE) as photo:
        image = transform(photo.convert("RGB")).unsqueeze(0)  # (1, 3, 224, 224)

    with torch.inference_mode():
        logits, head_sum = _logits(model, image)
        probabilities = logits.softmax(-1)[0]
        top = int(probabilities.argmax())
        weights, score_sum = _block_4_attention(model, image)  # (1, H, 197, 197)
        grid = range(0, 224, PATCH)
        covered = torch.cat([_covered(image, top_, left, COVER) for top_, left in QUADRANTS]
                            + [_covered(image, row, col, PATCH) for row in grid for col in grid])  # (4 + 196, ...)
        covered_logits, covered_sums = zip(*(_logits(model, chunk) for chunk in covered.split(50)))
        covered_probabilities = torch.cat(covered_logits).softmax(-1)[:, top]
        quadrants, drops = covered_probabilities[:4].tolist(), covered_probabilities[4:] - probabilities[top]
        patches = torch.nn.functional.unfold(image, PATCH, stride=PATCH).transpose(1, 2)  # (1, 196, 768)
        projection = model.patch_embed.proj
        p63_sums = patches[0, 62].abs() @ projection.weight.flatten(1)[:3].abs().T + projection.bias[:3].abs()  # (3,)
    logit_bound = rounding_bound(vit_terms(), max(head_sum, *covered_sums))
    p74 = weights[0, 0, 74]
    score_bound = rounding_bound(vit_terms(depth=3) + model.blocks[3].attn.head_dim, score_sum)
    worst_drop = int(drops.argmin())
    bounds = {
        "top_probability": _probability_bound(float(probabilities[top]), logit_bound),
        "p63_features": rounding_bound(patches.shape[-1], float(p63_sums.max())),
        "p74_to_p60": _probability_bound(float(p74[60]), score_bound),
        "p74_to_cls": _probability_bound(float(p74[0]), score_bound),
        "quadrants": _probability_bound(max(quadrants), logit_bound),
        "largest_drop": _probability_bound(float(covered_probabilities[4 + worst_drop] + probabilities[top]),
                                           logit_bound),
    }
    facts = Facts(
        source=f"{MANIFEST['checkpoint']['id']} ({MANIFEST['checkpoint']['kind']}) on {SAMPLE}, by timm",
        top_class=top,
        top_probability=float(probabilities[top]),
        p63_features=tuple(model.patch_embed(image)[0, 62, :3].tolist()),  # P63 is patch index 62
        p74_to_p60=float(weights[0, 0, 74, 60]),  # token 0 is CLS, so token k is patch Pk
        p74_to_cls=float(weights[0, 0, 74, 0]),
        quadrants=tuple(quadrants),
        largest_drop_patch=worst_drop + 1,
        largest_drop=float(drops.min()),
        tokens=int(model.pos_embed.shape[1]),
        scores=int(weights.shape[-2] * weights.shape[-1]),
    )
    return facts, bounds


def _logits(model, images):
    """Logits (B, classes), and the head's largest Σ|h_i·W_ic| + |b_c|: the magnitude of the last sum."""
    features = model.forward_head(model.forward_features(images), pre_logits=True)  # (B, D)
    sums = features.abs() @ model.head.weight.abs().T + model.head.bias.abs()  # (B, classes)
    return model.head(features), float(sums.max())


def _block_4_attention(model, image):
    """Softmax(q kᵀ / √d) of block 4, written out from its own modules (page 28), and the largest
    Σ|q_i·k_i|/√d of query P74's scores: the magnitude of the sums its weights are made from."""
    x = model._pos_embed(model.patch_embed(image))  # (1, 197, 192): CLS prepended, position added
    for block in model.blocks[:3]:
        x = block(x)
    attention = model.blocks[3].attn
    B, N, D = x.shape
    qkv = attention.qkv(model.blocks[3].norm1(x))  # (B, N, 3D): [q | k | v]
    q, k, _ = qkv.reshape(B, N, 3, attention.num_heads, -1).permute(2, 0, 3, 1, 4)  # each (B, H, N, d)
    scale = q.shape[-1] ** -0.5
    score_sums = (q[0, 0, 74].abs() @ k[0, 0].abs().T) * scale  # (N,): head 1, query P74
    return (q @ k.transpose(-2, -1) * scale).softmax(-1), float(score_sums.max())


def _covered(image, top: int, left: int, size: int):
    covered = image.clone()  # page 42: a fresh copy; normalized 0 is mid-gray
    covered[:, :, top:top + size, left:left + size] = 0
    return covered


OWN_TABLE = "lecture facts: the own table, by timm"
#: The tests that compare a table (both tables: the lecture's tolerances need the own table's bounds).
TABLE_TESTS = ("test_top_class_and_its_probability", "test_p63_first_features",
               "test_p74_attends_to_p60_in_block_4_head_1", "test_token_count", "test_quadrant_table",
               "test_largest_single_patch_drop")


# The own table (201 timm forwards) in a process of its own, this file run as a script, from the
# session's start: beside the session's other tests rather than among them.
early_script(OWN_TABLE, __file__, *TABLE_TESTS)


@pytest.fixture(scope="module")
def own(early_runs) -> Facts:
    """The own table as the early run wrote it; its rounding bounds go to BOUNDS."""
    data = script_outcome(early_runs, OWN_TABLE)
    BOUNDS.update(data["bounds"])
    return Facts(**{name: tuple(value) if isinstance(value, list) else value
                    for name, value in data["facts"].items()})


@pytest.fixture(params=[pytest.param("own", marks=pytest.mark.slow), "lecture"])  # own: timm on the photo
def table(request) -> Facts:
    if request.param == "lecture":
        if (why := _lecture_skipped()) is not None:
            pytest.skip(why)
        request.getfixturevalue("own")  # its bounds are the lecture table's tolerances too
        return LECTURE
    return request.getfixturevalue("own")


def _case(step: str, function: str, contains: str = ""):
    return next(c for c in load_cases(step, "visible") + load_cases(step, "hidden")
                if c.function == function and contains in c.name)


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@pytest.mark.slow
def test_top_class_and_its_probability(table):  # pages 3 and 40
    probabilities = _softmax(_case("07_head", "vit_forward", "sample").expected.astype(np.float64))[0]
    assert int(probabilities.argmax()) == table.top_class
    assert probabilities[table.top_class] == pytest.approx(table.top_probability, abs=tolerance("top_probability"))


def test_p63_first_features(table):  # page 13
    projected = _case("02_project", "project", "sample").expected  # (1, 196, 192)
    np.testing.assert_allclose(projected[0, 62, :3], table.p63_features, atol=tolerance("p63_features"))


def test_p74_attends_to_p60_in_block_4_head_1(table):  # page 33
    weights = _case("05_attention", "attention_weights", "block 4").expected  # (1, 3, 197, 197)
    assert weights[0, 0, 74, 60] == pytest.approx(table.p74_to_p60, abs=tolerance("p74_to_p60"))
    assert weights[0, 0, 74, 0] == pytest.approx(table.p74_to_cls, abs=tolerance("p74_to_cls"))
    assert weights.shape[-2] * weights.shape[-1] == table.scores  # page 49


def test_token_count(table):  # pages 17, 23
    case = _case("01_flatten", "count_tokens", "224px, 16px patches, cls=True")
    assert case.expected == table.tokens


def test_quadrant_table(table):  # page 43
    case = _case("08_occlusion", "quadrant_probabilities", "ViT")
    assert f"class {table.top_class}" in case.name  # the target is the photograph's top class
    np.testing.assert_allclose(case.expected, table.quadrants, atol=tolerance("quadrants"))


def _lecture_facts() -> dict[str, np.ndarray]:
    """The builder's record of what no graded case holds, checked against the manifest first."""
    from safetensors.numpy import load

    data = (paths.FIXTURES / LECTURE_FACTS).read_bytes()
    assert hashlib.sha256(data).hexdigest() == MANIFEST["files"][LECTURE_FACTS]["sha256"]
    return load(data)


def test_largest_single_patch_drop(table):  # page 44
    facts = _lecture_facts()
    assert int(facts["target"][0]) == table.top_class
    occlusion = facts["occlusion_map/vit/sample"]  # (14, 14), row by row: one-patch covers
    assert int(occlusion.argmin()) + 1 == table.largest_drop_patch
    assert occlusion.min() == pytest.approx(table.largest_drop, abs=tolerance("largest_drop"))


def _percent(value: float, digits: int) -> str:
    return f"{100 * value:.{digits}f} %"  # as docs/fixtures.md writes them


def test_the_docs_state_the_lecture_table():
    """The instructors' table in docs/fixtures.md and LECTURE above say the same numbers."""
    page = (paths.KIT_ROOT / "docs" / "fixtures.md").read_text(encoding="utf-8")
    section = page[page.index("## Reproduce the lecture's numbers"):].split("\n## ")[0]
    stated = [f"class {LECTURE.top_class}", _percent(LECTURE.top_probability, 2), str(LECTURE.top_probability),
              *(f"{v:.3f}".replace("-", "−") for v in LECTURE.p63_features),
              _percent(LECTURE.p74_to_p60, 6), _percent(LECTURE.p74_to_cls, 6),
              *(_percent(q, 2) for q in LECTURE.quadrants), f"P{LECTURE.largest_drop_patch}",
              f"{-100 * LECTURE.largest_drop:.6f}", f"| {LECTURE.tokens} |", f"| {LECTURE.scores:,} |",
              "vitgrade fixtures build --checkpoint vit_tiny_patch16_224.augreg_in21k_ft_in1k"
              " --photo newfoundland_31.jpg"]
    assert [s for s in stated if s not in section] == []


if __name__ == "__main__":  # the early run of OWN_TABLE
    facts, bounds = _own()
    write_outcome({"facts": dataclasses.asdict(facts), "bounds": bounds})
