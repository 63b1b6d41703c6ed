"""What every LLM judge shares: reading a reply, asking again, and what the judge reads.

ToolFailBench's two judges (:mod:`toolchaos.suites.toolfailbench.judges`) and ToolBench-X's
scoring audit (:mod:`toolchaos.suites.toolbench_x.audit`) ask a model for one JSON verdict
at temperature 0, ask again after a reply that holds none, and never show the judge the
reasoning blocks a model wrote before its answer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from toolchaos.core.types import Message
from toolchaos.models.base import ModelClient, ModelRequest

T = TypeVar("T")

# reasoning blocks some models put in their answer: <think>..</think> and its kin
_REASONING_TAGS = ("think", "thinking", "reasoning", "reflection", "scratchpad")
_TAGS = "|".join(_REASONING_TAGS)
_CLOSED_BLOCK = re.compile(rf"<({_TAGS})\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_BRACKET_BLOCK = re.compile(r"\[THINK\].*?\[/THINK\]", re.IGNORECASE | re.DOTALL)
_OPEN_TAG = re.compile(rf"<({_TAGS})\b[^>]*>|\[THINK\]", re.IGNORECASE)
_CLOSE_TAG = re.compile(rf"</({_TAGS})\s*>|\[/THINK\]", re.IGNORECASE)


def strip_reasoning(text: str) -> str:
    """``text`` without the reasoning blocks a model wrote before (or in) its answer.

    Removed: every closed ``<think>...</think>`` block (also ``thinking``, ``reasoning``,
    ``reflection``, ``scratchpad``, and ``[THINK]...[/THINK]``); everything before a
    closing tag whose opening tag is missing (templates that open the block in the
    prompt); and everything from an opening tag that is never closed (reasoning cut off).
    """
    text = _BRACKET_BLOCK.sub("", _CLOSED_BLOCK.sub("", text))
    closing = list(_CLOSE_TAG.finditer(text))
    if closing:
        text = text[closing[-1].end() :]
    opening = _OPEN_TAG.search(text)
    if opening is not None:
        text = text[: opening.start()]
    return text.strip()


def last_json_object(text: str, key: str) -> dict[str, Any] | None:
    """The last JSON object in ``text`` (reasoning blocks dropped) that has ``key``, or None."""
    text = strip_reasoning(text) or text
    decoder = json.JSONDecoder()
    found: dict[str, Any] | None = None
    for start in (m.start() for m in re.finditer(r"\{", text)):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and key in value:
            found = value
    return found


VERDICT_MAX_TOKENS = 400
"""The output tokens a verdict request allows (a model entry's ``max_tokens`` overrides)."""


JUDGE_TEMPERATURE = 0.0
"""The temperature of every judge request (a judge is asked for its one best reading)."""


def provenance(
    spec: str, messages: list[Message], asked: Asked[Any], rubric: str, when: str
) -> dict[str, Any]:
    """Where one stored judge label came from, so it can be audited or redone.

    Args:
        spec: The judge's model spec as configured (``openai/gpt-4o``).
        messages: The messages it was first sent; ``prompt_sha256`` hashes all of them,
            ``rubric_version`` only the system message (the rubric, the same for every
            trace), so two labels under one rubric text share a version.
        asked: What the judge answered, with the model id its provider returned.
        rubric: The rubric's name.
        when: The time the label was stored (ISO 8601, UTC).
    """
    shown = [m.model_dump(mode="json", exclude_none=True) for m in messages]
    system = "".join(m.content or "" for m in messages if m.role == "system")
    return {
        "spec": spec,
        "model_id": asked.model,
        "prompt_sha256": hashlib.sha256(
            json.dumps(shown, sort_keys=True).encode("utf-8")
        ).hexdigest(),
        "rubric": rubric,
        "rubric_version": hashlib.sha256(system.encode("utf-8")).hexdigest()[:12],
        "temperature": JUDGE_TEMPERATURE,
        "time": when,
    }


async def ask_for_verdict(
    client: ModelClient,
    messages: list[Message],
    parse: Callable[[str | None], T | None],
    reply_format: str,
    retries: int,
    max_tokens: int = VERDICT_MAX_TOKENS,
) -> Asked[T]:
    """Ask a judge for a verdict; after a reply ``parse`` rejects, ask up to ``retries`` more.

    Every request is at temperature :data:`JUDGE_TEMPERATURE`.

    Returns:
        The parsed verdict (None when no reply held one) and the model id the last reply
        named.
    """
    served = ""
    for _ in range(1 + retries):
        response = await client.complete(
            ModelRequest(
                messages=messages,
                tool_choice="none",
                temperature=JUDGE_TEMPERATURE,
                max_tokens=max_tokens,
            )
        )
        served = response.model or served
        parsed = parse(response.message.content)
        if parsed is not None:
            return Asked(parsed, served)
        messages = [
            *messages,
            response.message,
            Message(role="user", content="That reply held no valid verdict. " + reply_format),
        ]
    return Asked(None, served)


@dataclass(frozen=True)
class Asked(Generic[T]):
    """What :func:`ask_for_verdict` got: the parsed verdict (or None) and who answered."""

    verdict: T | None
    model: str
    """The model id the provider said answered ("" where it says none)."""


@dataclass
class JudgeTally:
    """What one judging pass asked and how many replies held a verdict, per rater.

    Attributes:
        judged: The episodes judged in this pass.
        raters: Per rater (``judge_a``, ``scoring_audit``, ...), its model spec.
        labelled: Per rater, the episodes whose reply held a verdict.
    """

    judged: int
    raters: dict[str, str]
    labelled: dict[str, int] = field(default_factory=dict)

    def count(self, rater: str, label: str | None) -> None:
        """Count one stored verdict of ``rater`` (None: the reply held none)."""
        self.labelled[rater] = self.labelled.get(rater, 0) + (label is not None)

    @property
    def silent(self) -> list[str]:
        """The raters none of whose replies held a verdict (their labels are all null)."""
        return [r for r in self.raters if self.judged and not self.labelled.get(r, 0)]

    def line(self) -> str:
        """One line: how many of each rater's replies held a verdict."""
        parts = [
            f"{rater} ({spec}) {self.labelled.get(rater, 0)} of {self.judged}"
            for rater, spec in self.raters.items()
        ]
        return "verdicts: " + ", ".join(parts)
