"""The sizes a call passes into an earlier step (a block's num_heads to the attention, embed's patch
size to patchify): noted by the worker as the call runs, checked as they cross the socket, and said
by the judge where they differ from the ones the case gave. Cheap, in-process halves of the story the
mutant catalogue tells end to end (test_mutants.py)."""
from __future__ import annotations

from types import SimpleNamespace

from grader.expected.store import load_cases
from grader.launch.step_worker import _passed
from grader.results import Finding
from grader.suites.feedback import Feedback
from grader.suites.returned import Returned
from grader.suites.support import _with_sizes_passed, sizes_given
from grader.worker import serving


def test_the_worker_notes_each_size_passed_and_whether_it_was_left_at_its_default() -> None:
    def multi_head_attention(x, W_qkv, b_qkv, W_o, b_o, num_heads=3):
        return x

    class Unreadable:  # a student's callable whose signature cannot be read: noted nothing, still called
        @property
        def __signature__(self):
            raise RuntimeError("no signature here")

        def __call__(self, *args, **kwargs):
            return "called"

    recorder = serving._StepRecorder("05_attention", SimpleNamespace(
        multi_head_attention=multi_head_attention, odd=Unreadable()))
    serving.LOG.clear()
    recorder.multi_head_attention(1, 2, 3, 4, 5, 2)
    recorder.multi_head_attention(1, 2, 3, 4, 5)
    recorder.multi_head_attention(1, 2, 3, 4, 5, num_heads=True)  # not a size: a bool is no head count
    assert recorder.odd(1, num_heads=2) == "called"
    assert serving.LOG.passed == {("multi_head_attention", "num_heads", 2, False),
                                  ("multi_head_attention", "num_heads", 3, True)}
    assert serving.LOG.used == {"05_attention"}
    serving.LOG.clear()
    assert not serving.LOG.passed and not serving.LOG.used


def test_entries_forged_on_the_socket_are_dropped() -> None:
    good = ["block", "num_heads", 3, False]
    forged = [good, ["block", "num_heads", "3", False], ["block", "num_heads", True, False], ["x"], "block", None,
              ["block", 7, 3, False], ["block", "num_heads", 3, 1]]
    assert _passed(forged) == [("block", "num_heads", 3, False)]
    assert _passed({"block": 3}) == [] and _passed(None) == []


def _case(step: str, function: str, words: str):
    return next(c for c in load_cases(step, "visible") if c.function == function and words in c.name)


def test_the_sizes_a_case_gives_are_its_own_arguments_and_its_small_vit_s_never_the_checkpoint_s() -> None:
    assert sizes_given(_case("06_block", "block", "2 heads")) == {"num_heads": (2, "num_heads")}
    tiny = sizes_given(_case("07_head", "vit_forward", "tiny ViT"))
    assert tiny == {"num_heads": (2, "params.num_heads"), "patch_size": (8, "params.patch_size")}
    assert sizes_given(_case("07_head", "vit_forward", "sample photo")) == {}  # the lecture's own sizes
    assert sizes_given(_case("01_flatten", "count_tokens", "112px")) == {"patch_size": (16, "patch_size")}


def test_a_size_other_than_the_case_s_is_said_with_both_values_and_only_then() -> None:
    case = _case("06_block", "block", "2 heads")

    def said(passed, finding=None, status="error"):
        feedback = Feedback("block raised RuntimeError: shape", status=status,
                            finding=finding or Finding("error.block.RuntimeError", "block raised RuntimeError"))
        return _with_sizes_passed(case, Returned(ok=False, passed=passed), feedback)

    written_in = said([("multi_head_attention", "num_heads", 3, False)])
    assert written_in.finding.id == "diagnosis.size_not_passed_on_call_failed" and written_in.finding.page == 32
    assert "block called multi_head_attention with num_heads = 3, but this case's num_heads is 2" in written_in.message
    defaulted = said([("multi_head_attention", "num_heads", 3, True)], status="failed")
    assert "with num_heads left at its default, 3" in defaulted.message
    assert defaulted.finding.id == "diagnosis.size_not_passed_on"  # wrong numbers, no failed call
    assert said([("multi_head_attention", "num_heads", 2, False)]).finding.id == "error.block.RuntimeError"
    assert "written in" not in said([("multi_head_attention", "num_heads", 3, False)], status="blocked").message
    known = Finding("known.post_ln", "post-LN", "You normalized after adding.", 34)
    beside = said([("multi_head_attention", "num_heads", 3, False)], finding=known)
    assert beside.finding is known and "num_heads = 3" in beside.message  # a known mistake stays the finding
