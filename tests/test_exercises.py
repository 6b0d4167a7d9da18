"""The stubs: they import, every function raises NotImplementedError, each reads as an exercise.

A stub is its signature, a docstring citing the lecture and one example, then
`raise NotImplementedError` (STYLE.md, "For this kit"); its API is exactly the solution's.
"""
from __future__ import annotations

import ast
import inspect
import re

import pytest
import torch

from grader import BlockParams, ViTParams
from grader.paths import EXERCISES, SOLUTIONS
from grader.steps import STEP_IDS, STEPS
from grader.student import load_step_file

PAGE = re.compile(r"\bpages? \d+")
FUNCTIONS = [(step.id, name) for step in STEPS for name in step.functions]
FUNCTION_IDS = [f"{step_id}.{name}" for step_id, name in FUNCTIONS]

# A tiny ViT is enough: a stub must raise before it looks at its arguments.
D, H, P, SIDE = 8, 2, 4, 8  # width, heads, patch side, image side: 4 patches
_random = torch.Generator().manual_seed(0)


def rand(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=_random)


def tiny_block() -> BlockParams:
    return BlockParams(ln1_weight=rand(D), ln1_bias=rand(D), W_qkv=rand(D, 3 * D),
                       b_qkv=rand(3 * D), W_o=rand(D, D), b_o=rand(D), ln2_weight=rand(D),
                       ln2_bias=rand(D), W_1=rand(D, 4 * D), b_1=rand(4 * D), W_2=rand(4 * D, D),
                       b_2=rand(D))


def tiny_params() -> ViTParams:
    conv = rand(D, 3, P, P)
    return ViTParams(conv_weight=conv, W_E=conv.reshape(D, -1).T, b_E=rand(D), cls_token=rand(D),
                     pos_table=rand(5, D), blocks=(tiny_block(),), norm_weight=rand(D),
                     norm_bias=rand(D), W_head=rand(D, 1000), b_head=rand(1000), patch_size=P,
                     num_heads=H)


def plausible_args(name: str) -> tuple:
    images, x, q = rand(2, 3, SIDE, SIDE), rand(2, 5, D), rand(2, H, 5, D // H)
    p = tiny_block()
    model = lambda batch: rand(batch.shape[0], 1000)  # noqa: E731
    return {
        "normalize": (torch.randint(0, 256, (2, 3, SIDE, SIDE), dtype=torch.uint8),),
        "patchify": (images, P),
        "count_tokens": (224, 16),
        "conv_to_linear": (rand(D, 3, P, P),),
        "project": (rand(2, 4, 3 * P * P), rand(3 * P * P, D), rand(D)),
        "add_position": (x, rand(5, D)),
        "prepend_cls": (rand(2, 4, D), rand(D)),
        "embed": (images, tiny_params()),
        "qkv_heads": (x, p.W_qkv, p.b_qkv, H),
        "attention_weights": (q, q),
        "multi_head_attention": (x, p.W_qkv, p.b_qkv, p.W_o, p.b_o, H),
        "layer_norm": (x, rand(D), rand(D)),
        "mlp": (x, p.W_1, p.b_1, p.W_2, p.b_2),
        "block": (x, p, H),
        "read_cls": (x, rand(D), rand(D)),
        "classify": (rand(2, D), rand(D, 1000), rand(1000)),
        "vit_forward": (images, tiny_params()),
        "cover": (rand(1, 3, 224, 224), 0, 0, 112),
        "quadrant_probabilities": (model, rand(1, 3, 224, 224), 256),
        "occlusion_map": (model, rand(1, 3, 224, 224), 256),
    }[name]


def stub(step_id: str):
    return load_step_file(EXERCISES / f"{step_id}.py")


def function_node(step_id: str, name: str) -> ast.FunctionDef:
    tree = ast.parse((EXERCISES / f"{step_id}.py").read_text())
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_stub_imports_and_cites_the_lecture(step_id):
    module = stub(step_id)
    assert module.__doc__ and PAGE.search(module.__doc__), f"{step_id}: its docstring cites no page"


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_raises_not_implemented(step_id, name):
    with pytest.raises(NotImplementedError, match=name):
        getattr(stub(step_id), name)(*plausible_args(name))


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_docstring_cites_a_page_and_shows_one_example(step_id, name):
    doc = inspect.getdoc(getattr(stub(step_id), name))
    assert doc and PAGE.search(doc), f"{step_id}.{name}: the docstring cites no lecture page"
    assert "Args:" in doc and "Returns:" in doc, f"{step_id}.{name}: no Args/Returns"
    examples = [line for line in doc.splitlines() if line.lstrip().startswith(">>>")]
    assert examples, f"{step_id}.{name}: the docstring shows no example"


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_body_is_only_the_docstring_and_the_raise(step_id, name):
    body = function_node(step_id, name).body
    assert len(body) == 2, f"{step_id}.{name}: the body has {len(body)} statements, expected 2"
    docstring, statement = body
    assert isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
    assert isinstance(statement, ast.Raise) and isinstance(statement.exc, ast.Call)
    assert ast.unparse(statement.exc) == f"NotImplementedError({name!r})"


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_signature_is_the_solutions(step_id, name):
    solution = load_step_file(SOLUTIONS / f"{step_id}.py")
    expected = inspect.signature(getattr(solution, name))
    assert inspect.signature(getattr(stub(step_id), name)) == expected


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_example_is_the_solutions(step_id, name):
    """The solutions run these examples as doctests, so a stub's example is known to be true."""
    solution = load_step_file(SOLUTIONS / f"{step_id}.py")

    def example(module) -> list[str]:
        doc = inspect.getdoc(getattr(module, name))
        return doc[doc.index("Example:"):].splitlines()

    assert example(stub(step_id)) == example(solution)


def _read_fields(function: ast.FunctionDef, parameter: str) -> set[str]:
    """The attributes a function's body reads from one of its parameters, e.g. {"W_qkv", "b_o"}."""
    return {node.attr for node in ast.walk(function) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == parameter}


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_names_every_field_of_its_parameters_the_solution_reads(step_id, name):
    """`block(x, p, num_heads)` says what `p` holds: every `p.field` the solution reads is named."""
    tree = ast.parse((SOLUTIONS / f"{step_id}.py").read_text())
    solution = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    doc = inspect.getdoc(getattr(stub(step_id), name))
    containers = [a.arg for a in solution.args.args
                  if a.annotation is not None and ast.unparse(a.annotation) in ("BlockParams", "ViTParams")]
    unnamed = [f"{parameter}.{field}" for parameter in containers for field in _read_fields(solution, parameter)
               if f"{parameter}.{field}" not in doc]
    assert not unnamed, f"{step_id}.{name}: the docstring does not name {unnamed}"


#: A parenthesised shape or size in a docstring's Args/Returns, with what stands before and after it.
_GROUP = re.compile(r"(?P<before>e\.g\. )?\((?P<inside>[^()]*)\)(?P<after> for ViT-Ti/16| in the lecture)?")


@pytest.mark.parametrize("step_id, name", FUNCTIONS, ids=FUNCTION_IDS)
def test_stub_writes_sizes_symbolically_with_the_lectures_as_examples(step_id, name):
    """The hidden tests change image and patch sizes, depth, heads and classes: a size such as 14,
    197, 12 or 1000 stands in Args/Returns only as the lecture's example, never as the rule."""
    doc = inspect.getdoc(getattr(stub(step_id), name))
    sections = doc[doc.index("Args:"):doc.index("Example:")]
    example = re.compile(r"lecture|ViT-Ti|^(pages?|step) ")  # (page 17), (step 5): references, not sizes
    fixed = [match.group(0) for match in _GROUP.finditer(" ".join(sections.split()))
             if any(int(n) > 4 for n in re.findall(r"\d+", match["inside"]))
             and not (match["before"] or match["after"] or example.search(match["inside"]))]
    assert not fixed, f"{step_id}.{name}: sizes fixed to the lecture's: {fixed}"
