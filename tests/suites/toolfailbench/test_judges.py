import asyncio

from toolchaos.core.types import Message, Usage
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.suites.toolfailbench.judges import ensemble, judge, parse_verdict


class Scripted:
    """A scripted judge: answers from a list, one reply per request."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        text = self.replies[min(len(self.requests) - 1, len(self.replies) - 1)]
        return ModelResponse(message=Message(role="assistant", content=text), usage=Usage())


def test_verdicts_are_parsed_strictly() -> None:
    assert parse_verdict('{"label": "tool_skip", "rationale": "no call"}') == (
        "tool_skip",
        "no call",
    )
    assert parse_verdict('Verdict: {"label": "correct"}') == ("correct", "")
    assert parse_verdict('{"label": "maybe"}') is None
    assert parse_verdict("tool_skip") is None


def test_malformed_output_is_retried_then_no_label() -> None:
    good_second = Scripted(["I think it is a skip", '{"label": "tool_skip", "rationale": "x"}'])
    verdict = asyncio.run(judge(good_second, "a", "decision-tree", "trace"))
    assert verdict.label == "tool_skip" and len(good_second.requests) == 2
    never = Scripted(["nope"])
    verdict = asyncio.run(judge(never, "b", "evidence", "trace"))
    assert verdict.label is None and len(never.requests) == 3


def test_the_rubrics_share_a_base_and_differ_by_overlay() -> None:
    a, b = Scripted(['{"label": "correct"}']), Scripted(['{"label": "correct"}'])
    asyncio.run(judge(a, "a", "decision-tree", "T"))
    asyncio.run(judge(b, "b", "evidence", "T"))
    sa, sb = a.requests[0].messages[0].content or "", b.requests[0].messages[0].content or ""
    assert sa.split("\n\n")[0] == sb.split("\n\n")[0] and sa != sb


def test_ensemble_majority_ties_and_missing_labels() -> None:
    assert ensemble("tool_skip", "correct", "correct") == "correct"
    assert ensemble("tool_skip", "tool_skip", "correct") == "tool_skip"
    assert ensemble("tool_skip", "correct", "result_ignore") == "tool_skip"  # three-way tie
    assert ensemble("tool_skip", None, "correct") == "tool_skip"  # one each: tie to the rule
    assert ensemble("tool_skip", None, None) == "tool_skip"
    assert ensemble("correct", "result_ignore", None) == "correct"
