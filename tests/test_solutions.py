"""The solutions against timm's forward of the same checkpoint, stage by stage.

Each stage of timm's `VisionTransformer` is recorded by hooks (big_vision's named intermediates)
and compared with the solution function that computes it, fed timm's own input to that stage, so a
failure points at one function. The whole chain is then compared on the logits.
"""
from __future__ import annotations

import dataclasses
import doctest

import pytest
import torch
import torch.nn.functional as F

from grader.checkpoint import load_checkpoint
from grader.paths import SOLUTIONS
from grader.photos import SAMPLE, SECOND, load_image, load_pixels
from grader.numerics import block_terms, rounding_bound, vit_terms
from grader.steps import STEP_IDS, STEPS
from grader.student import load_step_file

DEPTH, HEADS = 12, 3


def solution(step_id: str):
    return load_step_file(SOLUTIONS / f"{step_id}.py")


# The names the solutions themselves use for the steps they build on.
flatten = solution("01_flatten")
projection = solution("02_project")
position = solution("03_position")
embedding = solution("04_cls")
attention = solution("05_attention")
encoder = solution("06_block")
head = solution("07_head")
occlusion = solution("08_occlusion")


# Tolerances: only float32 rounding separates a solution from timm fed the same input, so each is
# `rounding_bound(terms, magnitude)` (grader.numerics): the terms summed in series on the way, and
# Σ|terms| of the stage's last sum, computed from the tensors at hand.

def sums(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor) -> float:
    """The largest Σ|x_i·W_ij| + |b_j| of `x @ W + b`: the magnitude rounding errors scale with."""
    with torch.no_grad():  # a bound from the weights at hand (timm's are parameters), not a graph
        return float((x.abs() @ W.abs() + b.abs()).max())


def head_sums(model, images: torch.Tensor) -> float:
    """The head's largest Σ|h_i·W_ic| + |b_c| on `images`, with timm's own CLS features h."""
    with torch.inference_mode():
        h = model.forward_head(model.forward_features(images), pre_logits=True)  # (B, D)
    return sums(h, model.head.weight.T, model.head.bias)


def probability_tolerance(probabilities: torch.Tensor, logit_bound: float) -> float:
    """Softmax: |dp_t| <= 2·p_t·max|dz|, for the largest probability compared."""
    return 2 * float(probabilities.max()) * logit_bound


def assert_close(actual: torch.Tensor, expected: torch.Tensor, tol: float, what: str) -> None:
    assert actual.shape == expected.shape, \
        f"{what}: shape {tuple(actual.shape)}, expected {tuple(expected.shape)}"
    worst = (actual - expected).abs().max().item()
    assert worst <= tol, f"{what}: max |difference| {worst:.3g} > {tol:g}"


# --- the checkpoint, its timm model and timm's intermediates ------------------------------------

@pytest.fixture(scope="module")
def checkpoint():
    return load_checkpoint("stand-in")


@pytest.fixture(scope="module")
def params(checkpoint):
    return checkpoint.params()


@pytest.fixture(scope="module")
def model(checkpoint):
    return checkpoint.timm_model()


@pytest.fixture(scope="module")
def photos() -> torch.Tensor:
    return torch.cat([load_image(SAMPLE.path), load_image(SECOND.path)])  # (2, 3, 224, 224)


def random_batch() -> torch.Tensor:
    """Three seeded images spanning the normalized range [-1, 1]."""
    generator = torch.Generator().manual_seed(0)
    return torch.rand(3, 3, 224, 224, generator=generator) * 2 - 1


@pytest.fixture(scope="module")
def trace(checkpoint, photos) -> dict[str, torch.Tensor]:
    """timm's named intermediates for both photographs, attention unfused so its weights exist."""
    model = checkpoint.timm_model()
    record: dict[str, torch.Tensor] = {}

    def output(name):
        return lambda module, args, result: record.__setitem__(name, result)

    def first_input(name):
        return lambda module, args: record.__setitem__(name, args[0])

    hooks = [model.patch_embed.register_forward_hook(output("patch_embed")),
             model.pos_drop.register_forward_hook(output("pos_embed")),
             model.norm.register_forward_hook(output("norm"))]
    for i, blk in enumerate(model.blocks):
        blk.attn.fused_attn = False  # the weights only exist as a tensor on the unfused path
        hooks += [blk.register_forward_pre_hook(first_input(f"{i}.in")),
                  blk.norm1.register_forward_hook(output(f"{i}.ln1")),
                  blk.attn.attn_drop.register_forward_hook(output(f"{i}.weights")),
                  blk.attn.register_forward_hook(output(f"{i}.attn")),
                  blk.norm2.register_forward_pre_hook(first_input(f"{i}.u")),
                  blk.norm2.register_forward_hook(output(f"{i}.ln2")),
                  blk.mlp.register_forward_hook(output(f"{i}.mlp")),
                  blk.register_forward_hook(output(f"{i}.out"))]
    with torch.inference_mode():
        record["logits"] = model(photos)
    for hook in hooks:
        hook.remove()
    return record


BLOCKS = pytest.mark.parametrize("i", range(DEPTH), ids=[f"block{i + 1}" for i in range(DEPTH)])


# --- 01 flatten ---------------------------------------------------------------------------------

@pytest.mark.parametrize("image_size, patch_size, cls, expected", [
    (224, 16, True, 197), (224, 32, True, 50), (224, 8, True, 785),  # pages 6, 48-49
    (224, 16, False, 196), (224, 32, False, 49), (224, 8, False, 784),
])
def test_count_tokens(image_size, patch_size, cls, expected):
    assert flatten.count_tokens(image_size, patch_size, cls) == expected


def test_count_tokens_rejects_a_grid_that_does_not_fit():
    with pytest.raises(ValueError):
        flatten.count_tokens(224, 15)


def test_normalize_is_the_checkpoint_transform(model):
    pixels = load_pixels(SAMPLE.path)  # (1, 3, 224, 224) uint8
    assert model.pretrained_cfg["mean"] == model.pretrained_cfg["std"] == (0.5, 0.5, 0.5)
    normalized = flatten.normalize(pixels)
    assert normalized.dtype == torch.float32
    assert torch.equal(normalized, load_image(SAMPLE.path))
    assert flatten.normalize(torch.tensor([0, 255], dtype=torch.uint8)).tolist() == [-1.0, 1.0]


def test_patchify_reads_patches_row_by_row_and_channels_one_at_a_time():
    c, y, x = torch.meshgrid(torch.arange(3), torch.arange(224), torch.arange(224), indexing="ij")
    image = (c * 100_000 + y * 1000 + x).float()[None]  # (1, 3, 224, 224): values name pixels
    p63 = flatten.patchify(image)[0, 62]  # P63: zero-based grid row 4, column 6 (page 8)
    c, i, j = torch.meshgrid(torch.arange(3), torch.arange(16), torch.arange(16), indexing="ij")
    expected = (c * 100_000 + (4 * 16 + i) * 1000 + (6 * 16 + j)).float().flatten()  # R, G, B
    assert torch.equal(p63, expected)


@pytest.mark.parametrize("patch_size", [8, 16, 32])
def test_patchify_matches_unfold(patch_size):
    images = random_batch()
    expected = F.unfold(images, patch_size, stride=patch_size).transpose(1, 2)  # page 9: as Unfold
    patches = flatten.patchify(images, patch_size)
    assert patches.shape == (3, flatten.count_tokens(224, patch_size, cls=False), 3 * patch_size**2)
    assert torch.equal(patches, expected)


# --- 02 project ---------------------------------------------------------------------------------

def test_conv_to_linear_matches_the_loader(params):
    assert torch.equal(projection.conv_to_linear(params.conv_weight), params.W_E)


def test_conv_to_linear_reproduces_conv2d(params):
    """Page 53's lab, in float64 so that only the summation order can differ."""
    images, weight, bias = random_batch().double(), params.conv_weight.double(), params.b_E.double()
    conv = F.conv2d(images, weight, bias, stride=16).flatten(2).transpose(1, 2)  # (B, 196, D)
    linear = projection.project(flatten.patchify(images), projection.conv_to_linear(weight), bias)
    tolerance = rounding_bound(768, sums(flatten.patchify(images), weight.flatten(1).T, bias), unit=2.0**-53)
    assert_close(linear, conv, tolerance, "patchify @ conv_to_linear vs Conv2d")


def test_project_matches_patch_embed(params, photos, trace):
    patches = flatten.patchify(photos)
    tokens = projection.project(patches, params.W_E, params.b_E)
    tolerance = rounding_bound(patches.shape[-1], sums(patches, params.W_E, params.b_E))
    assert_close(tokens, trace["patch_embed"], tolerance, "project(patchify(x))")


# --- 03 position, 04 cls ------------------------------------------------------------------------

def test_add_position_adds_the_same_table_to_every_image(params, trace):
    tokens = torch.cat([params.cls_token.expand(2, 1, -1), trace["patch_embed"]], dim=1)
    assert torch.equal(position.add_position(tokens, params.pos_table), tokens + params.pos_table)


def test_prepend_cls_puts_cls_at_index_0(params, trace):
    tokens = embedding.prepend_cls(trace["patch_embed"], params.cls_token)
    assert tokens.shape == (2, 197, 192)
    assert torch.equal(tokens[:, 0], params.cls_token.expand(2, -1))
    assert torch.equal(tokens[:, 1:], trace["patch_embed"])


def test_embed_matches_pos_embed(params, photos, trace):
    patches = flatten.patchify(photos)  # the projection is the only sum; adding CLS and position is exact
    tolerance = rounding_bound(patches.shape[-1], sums(patches, params.W_E, params.b_E))
    assert_close(embedding.embed(photos, params), trace["pos_embed"], tolerance, "embed")


# --- 05 attention, 06 block ---------------------------------------------------------------------

@BLOCKS
def test_qkv_heads_match_timms_split(i, params, model, trace):
    x = trace[f"{i}.ln1"]
    B, N, D = x.shape
    with torch.inference_mode():
        fused = model.blocks[i].attn.qkv(x)  # (B, N, 3D)
    expected = fused.reshape(B, N, 3, HEADS, D // HEADS).permute(2, 0, 3, 1, 4)  # as timm splits it
    p = params.blocks[i]
    tolerance = rounding_bound(D, sums(x, p.W_qkv, p.b_qkv))
    for name, got, want in zip("qkv", attention.qkv_heads(x, p.W_qkv, p.b_qkv, HEADS), expected):
        assert_close(got, want, tolerance, f"block {i + 1} {name}")


@BLOCKS
def test_attention_weights_match_timm(i, params, trace):
    p = params.blocks[i]
    q, k, _ = attention.qkv_heads(trace[f"{i}.ln1"], p.W_qkv, p.b_qkv, HEADS)
    weights = attention.attention_weights(q, k)
    d = q.shape[-1]
    score_sums = float((q.abs() @ k.abs().transpose(-2, -1)).max()) * d**-0.5  # of q·k/√d
    tolerance = probability_tolerance(weights, rounding_bound(q.shape[-1] + d, score_sums))  # q (D terms), q·k
    assert_close(weights, trace[f"{i}.weights"], tolerance, f"block {i + 1} attention weights")


@BLOCKS
def test_multi_head_attention_matches_timm(i, params, trace):
    p = params.blocks[i]
    x = trace[f"{i}.ln1"]
    update = attention.multi_head_attention(x, p.W_qkv, p.b_qkv, p.W_o, p.b_o, HEADS)
    B, N, D = x.shape
    terms = D + D // HEADS + N + D  # q, k, v; scores; weighted values; projection, in series
    tolerance = rounding_bound(terms, _attention_sums(i, p, trace))
    assert_close(update, trace[f"{i}.attn"], tolerance, f"block {i + 1} attention update")


def _attention_sums(i: int, p, trace) -> float:
    """The largest Σ|terms| of the attention's output projection."""
    x = trace[f"{i}.ln1"]
    B, N, D = x.shape
    _, _, v = attention.qkv_heads(x, p.W_qkv, p.b_qkv, HEADS)  # (B, H, N, d)
    joined = (trace[f"{i}.weights"].abs() @ v.abs()).transpose(1, 2).reshape(B, N, D)  # Σ|w·v| per head
    return sums(joined, p.W_o, p.b_o)


@BLOCKS
def test_layer_norms_match_timm(i, params, trace):
    p = params.blocks[i]
    ln1 = encoder.layer_norm(trace[f"{i}.in"], p.ln1_weight, p.ln1_bias)
    ln2 = encoder.layer_norm(trace[f"{i}.u"], p.ln2_weight, p.ln2_bias)
    # The mean and variance (D terms each) err relative to the row's own scale, which normalizing
    # maps to |weight|; the bias is added after.
    for name, got, want, w, b in (("LN1", ln1, trace[f"{i}.ln1"], p.ln1_weight, p.ln1_bias),
                                  ("LN2", ln2, trace[f"{i}.ln2"], p.ln2_weight, p.ln2_bias)):
        tolerance = rounding_bound(2 * w.shape[0], float(((want - b).abs() + w.abs()).max()))
        assert_close(got, want, tolerance, f"block {i + 1} {name}")


@BLOCKS
def test_mlp_matches_timm(i, params, trace):
    p = params.blocks[i]
    update = encoder.mlp(trace[f"{i}.ln2"], p.W_1, p.b_1, p.W_2, p.b_2)
    tolerance = rounding_bound(p.W_1.shape[0] + p.W_2.shape[0], _mlp_sums(i, p, trace))  # D, then 4D terms
    assert_close(update, trace[f"{i}.mlp"], tolerance, f"block {i + 1} MLP update")


def _mlp_sums(i: int, p, trace) -> float:
    """The largest Σ|terms| of the MLP's second layer."""
    hidden = F.gelu(trace[f"{i}.ln2"] @ p.W_1 + p.b_1)  # (B, N, 4D)
    return sums(hidden, p.W_2, p.b_2)


@BLOCKS
def test_block_matches_timm(i, params, trace):
    p = params.blocks[i]
    rows = encoder.block(trace[f"{i}.in"], p, HEADS)
    # The whole block in series; the residual stream adds the input, the attention and the MLP.
    magnitude = float(trace[f"{i}.in"].abs().max()) + _attention_sums(i, p, trace) + _mlp_sums(i, p, trace)
    assert_close(rows, trace[f"{i}.out"], rounding_bound(block_terms(), magnitude), f"block {i + 1} output")


# --- 07 head ------------------------------------------------------------------------------------

def test_read_cls_is_the_final_norm_of_token_0(params, trace):
    h = head.read_cls(trace[f"{DEPTH - 1}.out"], params.norm_weight, params.norm_bias)
    want = trace["norm"][:, 0]
    scale = float(((want - params.norm_bias).abs() + params.norm_weight.abs()).max())  # as in the blocks' LayerNorms
    tolerance = rounding_bound(2 * want.shape[-1], scale)
    assert_close(h, want, tolerance, "final CLS")


def test_classify_matches_the_head(params, trace):
    h = trace["norm"][:, 0]
    logits = head.classify(h, params.W_head, params.b_head)
    tolerance = rounding_bound(h.shape[-1], sums(h, params.W_head, params.b_head))
    assert_close(logits, trace["logits"], tolerance, "logits from timm's final CLS")


@pytest.mark.parametrize("images", ["cat", "coffee", "random3"])
def test_vit_forward_matches_timm(images, params, model):
    x = {"cat": lambda: load_image(SAMPLE.path), "coffee": lambda: load_image(SECOND.path),
         "random3": random_batch}[images]()
    with torch.inference_mode():
        expected = model(x)  # timm's default path: fused attention
        logits = head.vit_forward(x, params)
    assert_close(logits, expected, rounding_bound(vit_terms(), head_sums(model, x)), f"vit_forward on {images}")


# --- 08 occlusion -------------------------------------------------------------------------------

class PooledLinear:
    """A cheap classifier for occlusion tests: seeded, linear in the patch means; counts calls."""

    def __init__(self) -> None:
        generator = torch.Generator().manual_seed(0)
        self.W = torch.randn(3 * 196, 1000, generator=generator) * 0.3  # logits of a few units
        self.batch_sizes: list[int] = []

    def __call__(self, images: torch.Tensor) -> torch.Tensor:
        self.batch_sizes.append(images.shape[0])
        return F.avg_pool2d(images, 16).flatten(1) @ self.W  # (B, 3*196) -> (B, 1000)

    def logit_bound(self, images: torch.Tensor) -> float:
        """Patch means (256 terms), then 588 terms: the logits' rounding bound on `images`."""
        pooled = F.avg_pool2d(images, 16).flatten(1)  # (B, 588)
        return rounding_bound(256 + pooled.shape[-1], sums(pooled, self.W, torch.zeros(1)))


def target_probability(model, images: torch.Tensor, target: int) -> torch.Tensor:
    """Page 42's measurement, one image per call."""
    with torch.inference_mode():
        return torch.stack([model(x[None]).softmax(-1)[0, target] for x in images])


def covered_by_hand(image: torch.Tensor, top: int, left: int, size: int,
                    value: float = 0.0) -> torch.Tensor:
    covered = image.clone()  # page 42's code
    covered[:, :, top:top + size, left:left + size] = value
    return covered


def quadrant_covers(image: torch.Tensor) -> torch.Tensor:
    """Page 43's four covers, each on a fresh copy: TL, TR, BL, BR."""
    corners = [(0, 0), (0, 112), (112, 0), (112, 112)]
    return torch.cat([covered_by_hand(image, top, left, 112) for top, left in corners])


def test_cover_returns_a_fresh_copy():
    images = random_batch()
    original = images.clone()
    covered = occlusion.cover(images, 16, 32, 48, value=-1.0)
    assert torch.equal(images, original)
    assert torch.equal(covered, covered_by_hand(images, 16, 32, 48, value=-1.0))
    assert torch.equal(occlusion.cover(images, 0, 0, 112), covered_by_hand(images, 0, 0, 112))


def test_quadrant_probabilities_match_separate_forwards():
    model, image = PooledLinear(), load_image(SAMPLE.path)
    target = int(model(image).argmax())
    expected = target_probability(model, quadrant_covers(image), target)
    got = occlusion.quadrant_probabilities(model, image, target)
    tolerance = probability_tolerance(expected, model.logit_bound(quadrant_covers(image)))
    assert_close(got, expected, tolerance, "quadrant probabilities")
    assert torch.equal(image, load_image(SAMPLE.path))


def test_quadrant_probabilities_with_the_vit(model):
    image = load_image(SECOND.path)
    with torch.inference_mode():
        target = int(model(image).argmax())
    expected = target_probability(model, quadrant_covers(image), target)
    tolerance = probability_tolerance(expected, rounding_bound(vit_terms(), head_sums(model, quadrant_covers(image))))
    assert_close(occlusion.quadrant_probabilities(model, image, target), expected, tolerance,
                 "quadrant probabilities with the ViT")


def test_occlusion_map_matches_separate_forwards():
    model, image = PooledLinear(), load_image(SAMPLE.path)
    target = int(model(image).argmax())
    covered = torch.cat([covered_by_hand(image, 16 * (n // 14), 16 * (n % 14), 16)
                         for n in range(196)])  # P1..P196, row by row
    covered_probabilities = target_probability(model, covered, target)
    original = target_probability(model, image, target)
    expected = covered_probabilities - original
    change = occlusion.occlusion_map(model, image, target)
    assert change.shape == (14, 14)
    # A difference of two probabilities: each errs by at most 2·p·max|dz| (softmax).
    logit_bound = model.logit_bound(torch.cat([covered, image]))
    tolerance = probability_tolerance(covered_probabilities.max() + original, logit_bound)
    assert_close(change.flatten(), expected, tolerance, "occlusion map, patches row by row")
    # P78 (page 44) is zero-based grid row 5, column 7.
    assert_close(change[5, 7], expected[77], tolerance, "P78")


def test_occlusion_map_batches_its_covers():
    model, image = PooledLinear(), load_image(SAMPLE.path)
    occlusion.occlusion_map(model, image, 0)
    assert sorted(model.batch_sizes) == [1, 196], f"model called with batches {model.batch_sizes}"


# --- all steps ----------------------------------------------------------------------------------

def calls(params, trace):
    """One plausible call of every solution function, by name."""
    p, x, ln1 = params.blocks[0], trace["0.in"], trace["0.ln1"]
    q, k, _ = attention.qkv_heads(ln1, p.W_qkv, p.b_qkv, HEADS)
    image = load_image(SAMPLE.path)
    return {
        "normalize": (flatten.normalize, (load_pixels(SAMPLE.path),)),
        "patchify": (flatten.patchify, (image,)),
        "count_tokens": (flatten.count_tokens, (224, 16)),
        "conv_to_linear": (projection.conv_to_linear, (params.conv_weight,)),
        "project": (projection.project, (flatten.patchify(image), params.W_E, params.b_E)),
        "add_position": (position.add_position, (x, params.pos_table)),
        "prepend_cls": (embedding.prepend_cls, (trace["patch_embed"], params.cls_token)),
        "embed": (embedding.embed, (image, params)),
        "qkv_heads": (attention.qkv_heads, (ln1, p.W_qkv, p.b_qkv, HEADS)),
        "attention_weights": (attention.attention_weights, (q, k)),
        "multi_head_attention": (attention.multi_head_attention,
                                 (ln1, p.W_qkv, p.b_qkv, p.W_o, p.b_o, HEADS)),
        "layer_norm": (encoder.layer_norm, (x, p.ln1_weight, p.ln1_bias)),
        "mlp": (encoder.mlp, (ln1, p.W_1, p.b_1, p.W_2, p.b_2)),
        "block": (encoder.block, (x, p, HEADS)),
        "read_cls": (head.read_cls, (x, params.norm_weight, params.norm_bias)),
        "classify": (head.classify, (x[:, 0], params.W_head, params.b_head)),
        "vit_forward": (head.vit_forward, (image, params)),
        "cover": (occlusion.cover, (image, 0, 0, 112)),
        "quadrant_probabilities": (occlusion.quadrant_probabilities, (PooledLinear(), image, 3)),
        "occlusion_map": (occlusion.occlusion_map, (PooledLinear(), image, 3)),
    }


def tensors_in(args) -> list[torch.Tensor]:
    """Every tensor an argument list holds, including those inside ViTParams and BlockParams."""
    found = []
    for arg in args:
        if isinstance(arg, torch.Tensor):
            found.append(arg)
        elif dataclasses.is_dataclass(arg):
            found += tensors_in(getattr(arg, f.name) for f in dataclasses.fields(arg))
        elif isinstance(arg, tuple):
            found += tensors_in(arg)
    return found


@pytest.mark.parametrize("name", [name for step in STEPS for name in step.functions])
def test_inputs_are_left_untouched(name, params, trace):
    function, args = calls(params, trace)[name]
    before = [t.clone() for t in tensors_in(args)]
    function(*args)
    for now, then in zip(tensors_in(args), before):
        assert torch.equal(now, then), f"{name} changed an input in place"


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_docstring_examples_hold(step_id, params):
    """Each docstring's one example (the stubs show the same ones) is true of the solution."""
    globs = {"torch": torch, "params": params, "model": PooledLinear(), "image": load_image(SAMPLE.path)}
    result = doctest.testmod(solution(step_id), extraglobs=globs, verbose=False, report=False)
    assert result.attempted > 0 and result.failed == 0, f"{step_id}: {result}"
