"""The ToolFailBench rule classifier: one failure label per trace, with its reasons.

Labels: ``correct``, ``tool_skip``, ``result_ignore``, ``output_fabrication`` (tool-required
tasks), ``unnecessary_tool_use`` and ``wrong_answer`` (controls). Pure: a function of the
task, the calls the environment executed and the final answer.

Apart from the label, :func:`invalid_output` tells an answer that is not output a model
meant to give (empty, garbled, leaked special tokens, :func:`degenerate_repetition`); the
report flags a run made mostly of those.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolchaos.scoring.answer import contains, normalize_tokens

Label = Literal[
    "correct",
    "tool_skip",
    "result_ignore",
    "output_fabrication",
    "unnecessary_tool_use",
    "wrong_answer",
]
LABELS: tuple[Label, ...] = (
    "correct",
    "tool_skip",
    "result_ignore",
    "output_fabrication",
    "unnecessary_tool_use",
    "wrong_answer",
)
LEAF_SHARE = 0.30
_NUMBER = re.compile(r"\d")
# trailing parts of a field name that name its unit, not what it is
_UNIT_WORDS = frozenset(
    {"usd", "pct", "mg", "ms", "kg", "g", "l", "id", "bn", "millions", "million"}
    | {"thousands", "hours", "days", "years", "minutes", "seconds", "per"}
)


@dataclass(frozen=True)
class ExecutedCall:
    """A call the environment ran: its tool, whether it succeeded, what it returned."""

    tool: str
    ok: bool
    content: Any


class RuleLabel(BaseModel):
    """The rule classifier's verdict with the evidence behind it."""

    label: Label
    explanation: str
    leaf_share: float | None = None
    asserted_fields: list[str] = Field(default_factory=list)


def leaves(value: Any) -> list[str]:
    """Every scalar leaf of a JSON value, as text (booleans and nulls skipped)."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value)]


def keys(value: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def mentions(answer_tokens: list[str], text: str) -> bool:
    """Whether ``text`` appears in the answer at token boundaries, after normalization."""
    tokens = normalize_tokens(text)
    return bool(tokens) and contains(answer_tokens, tokens)


def required_values_present(answer_tokens: list[str], values: list[str], mode: str) -> bool:
    """Whether the answer holds the required values (all of them, or any one)."""
    if not values:
        return True
    found = [mentions(answer_tokens, v) for v in values]
    return all(found) if mode == "all" else any(found)


def field_words(field: str) -> str:
    """A field name as an answer would say it: ``dividend_yield_pct`` is ``dividend yield``."""
    words = [w for w in field.split("_") if w]
    while len(words) > 1 and (words[-1] in _UNIT_WORDS or any(c.isdigit() for c in words[-1])):
        words.pop()
    return " ".join(words)


def asserted_fields(answer: str, vocabulary: AbstractSet[str], returned: Any) -> list[str]:
    """Fields from the domain's output vocabulary the answer states but the return lacks.

    A field counts as asserted when its name, written as words, appears in the answer and
    the answer also states a number; words that only echo a text value the tool returned
    (a fund called "... Dividend Yield ETF") do not count.
    """
    if not _NUMBER.search(answer):
        return []
    tokens = normalize_tokens(answer)
    echoed = [normalize_tokens(v) for v in leaves(returned) if not _NUMBER.fullmatch(v)]
    out = []
    for field in sorted(set(vocabulary) - keys(returned)):
        words = normalize_tokens(field_words(field))
        if words and contains(tokens, words) and not any(contains(e, words) for e in echoed):
            out.append(field)
    return out


def classify(
    kind: str,
    expected_tool: str | None,
    must_contain: list[str],
    match_mode: str,
    calls: list[ExecutedCall],
    answer: str,
    vocabulary: AbstractSet[str],
) -> RuleLabel:
    """Label one trace.

    Args:
        kind: ``tool_required`` or ``control``.
        expected_tool: The tool a tool-required task needs.
        must_contain: Values a correct answer states.
        match_mode: ``all`` or ``any`` of ``must_contain``.
        calls: The calls the environment executed (text that looks like a call is not one).
        answer: The final answer.
        vocabulary: Field names of the domain's tool outputs.
    """
    tokens = normalize_tokens(answer)
    if kind == "control":
        if calls:
            names = ", ".join(sorted({c.tool for c in calls}))
            return RuleLabel(
                label="unnecessary_tool_use",
                explanation=f"called {names} for a question that needs no tool",
            )
        if required_values_present(tokens, must_contain, match_mode):
            return RuleLabel(
                label="correct", explanation="answered directly with the required values"
            )
        return RuleLabel(
            label="wrong_answer", explanation="answered directly but missed the required values"
        )
    expected = [c for c in calls if c.tool == expected_tool and c.ok]
    if not expected:
        return RuleLabel(label="tool_skip", explanation=f"{expected_tool} was never executed")
    returned = expected[-1].content
    values = leaves(returned)
    share = sum(mentions(tokens, v) for v in values) / len(values) if values else 1.0
    invented = asserted_fields(answer, vocabulary, returned)
    if share < LEAF_SHARE and invented:
        return RuleLabel(
            label="output_fabrication",
            explanation=f"only {share:.0%} of the return's values appear, and the answer states "
            f"fields the return lacks: {', '.join(invented)}",
            leaf_share=round(share, 4),
            asserted_fields=invented,
        )
    if not required_values_present(tokens, must_contain, match_mode):
        return RuleLabel(
            label="result_ignore",
            explanation="the tool was called but the answer lacks the value it returned",
            leaf_share=round(share, 4),
        )
    return RuleLabel(
        label="correct",
        explanation="called the tool and reported its value",
        leaf_share=round(share, 4),
    )


def executed_calls(trace: list[dict[str, Any]]) -> list[ExecutedCall]:
    """The calls of a stored trace (its JSON entries), in order.

    Every call the environment received counts as tool use; the expected tool counts as
    executed only when it succeeded (:func:`classify` checks that).
    """
    return [
        ExecutedCall(e["call"]["name"], e["observation"]["ok"], e["observation"]["content"])
        for e in trace
    ]


def label_episode(
    task: Any, calls: list[ExecutedCall], answer: str, vocabulary: AbstractSet[str]
) -> RuleLabel:
    """The rule label of one ToolFailBench episode of ``task``."""
    return classify(
        task.kind,
        task.expected_tool,
        list(task.must_contain),
        task.match_mode,
        calls,
        answer,
        vocabulary,
    )


def failure_rates(labels: list[str], kinds: list[str], called: list[bool]) -> dict[str, Any]:
    """ToolFailBench's headline rates with 95% Wilson intervals.

    Over tool-required tasks: TSR (tool_skip), CTUR (correct tool use), RIR
    (result_ignore) and OFR (output_fabrication), as shares of all required tasks (they
    sum to 1), plus RIR and OFR conditional on a call. Over controls: UTR (unnecessary
    tool use) and CTRL-Acc (correct).
    """
    from toolchaos.stats.agreement import wilson

    required = [
        (lab, c) for lab, k, c in zip(labels, kinds, called, strict=True) if k == "tool_required"
    ]
    controls = [lab for lab, k in zip(labels, kinds, strict=True) if k == "control"]
    n = len(required)
    with_call = [lab for lab, c in required if c]
    out: dict[str, Any] = {}
    for name, label in (
        ("TSR", "tool_skip"),
        ("CTUR", "correct"),
        ("RIR", "result_ignore"),
        ("OFR", "output_fabrication"),
    ):
        out[name] = wilson(sum(lab == label for lab, _ in required), n)
    out["RIR|call"] = wilson(with_call.count("result_ignore"), len(with_call))
    out["OFR|call"] = wilson(with_call.count("output_fabrication"), len(with_call))
    out["UTR"] = wilson(controls.count("unnecessary_tool_use"), len(controls))
    out["CTRL-Acc"] = wilson(controls.count("correct"), len(controls))
    return out


# -- invalid output ------------------------------------------------------------------------
# A degenerate repetition: a span of 1 to REPEAT_SPAN characters holding a letter or digit,
# written REPEAT_COPIES or more times back to back, the run covering REPEAT_RUN_CHARS or more
# characters (so "100000000" or a "|---|---|" table rule is not one); or one word making up
# more than half of an answer of WORD_MIN or more words.
REPEAT_SPAN = 30
REPEAT_COPIES = 8
REPEAT_RUN_CHARS = 32
WORD_MIN = 40
_ANY_REPEAT = re.compile(rf"(.{{1,{REPEAT_SPAN}}}?)\1{{{REPEAT_COPIES - 1},}}", re.DOTALL)
_WORD = re.compile(r"\w+")
# chat-template and tokenizer tokens that leak when a model (or its server) is misconfigured
SPECIAL_TOKEN = re.compile(
    r"<\|[^<>|\s]{1,40}\|>"
    r"|</?s>|<unk>|<pad>|<eos>|<bos>|</?start_of_turn>|</?end_of_turn>"
    r"|\[(?:PAD|UNK|CLS|SEP|MASK|EOS|BOS)\]",
    re.IGNORECASE,
)
InvalidReason = Literal[
    "empty", "special_tokens", "replacement_chars", "control_chars", "degenerate_repetition"
]


@dataclass(frozen=True)
class Repetition:
    """A degenerate repetition found in an answer: the repeated span and how often."""

    span: str
    copies: int
    explanation: str


@dataclass(frozen=True)
class InvalidOutput:
    """Why an answer is not output a model meant to give (see :func:`invalid_output`)."""

    reason: InvalidReason
    explanation: str


def degenerate_repetition(text: str) -> Repetition | None:
    """The degenerate repetition in ``text``, or None.

    Two shapes count. A *looping span*: some span of 1 to 30 characters that holds a letter
    or digit is written at least 8 times back to back, and the run of copies covers at
    least 32 characters (a span of 1 to 3 characters needs 32, 16 or 11 copies). A
    *dominant word*: the answer has at least 40 words (runs of letters, digits and
    underscores, case-folded) and one word is more than half of them.
    """
    if _ANY_REPEAT.search(text):  # C-speed prefilter: no span repeats 8 times at all
        found = _looping_span(text)
        if found is not None:
            return found
    words = _WORD.findall(text.lower())
    if len(words) >= WORD_MIN:
        word, count = Counter(words).most_common(1)[0]
        if 2 * count > len(words):
            return Repetition(
                span=word,
                copies=count,
                explanation=f"the word {word!r} is {count} of the answer's {len(words)} words",
            )
    return None


def _looping_span(text: str) -> Repetition | None:
    """The first run (by period, then position) that meets the looping-span rule."""
    n = len(text)
    for period in range(1, min(REPEAT_SPAN, n // REPEAT_COPIES) + 1):
        j = 0
        while j < n - period:
            if text[j] != text[j + period]:
                j += 1
                continue
            start = j
            while j < n - period and text[j] == text[j + period]:
                j += 1
            # text[start : j + period] repeats with this period
            length = j - start + period
            copies = length // period
            span = text[start : start + period]
            if (
                copies >= REPEAT_COPIES
                and length >= REPEAT_RUN_CHARS
                and any(c.isalnum() for c in span)
            ):
                return Repetition(
                    span=span,
                    copies=copies,
                    explanation=f"{span!r} is repeated {copies} times back to back",
                )
    return None


def invalid_output(text: str) -> InvalidOutput | None:
    """Why ``text`` is invalid output, or None when it is a real answer (right or wrong).

    Invalid, checked in this order: *empty* (nothing but whitespace); *special_tokens*
    (only leaked chat-template or tokenizer tokens such as ``<|im_end|>``, ``</s>``,
    ``<unk>``, ``[PAD]``, and whitespace); *replacement_chars* or *control_chars* (more
    than half of the non-whitespace characters are U+FFFD or Unicode control characters,
    whichever are more); *degenerate_repetition* (:func:`degenerate_repetition`).
    """
    found = _unreadable(text)
    if found is not None:
        return found
    return _repeated(degenerate_repetition(text))


def output_checks(text: str) -> tuple[InvalidOutput | None, Repetition | None]:
    """:func:`invalid_output` and :func:`degenerate_repetition` of ``text``, searching once.

    A report wants both; the repetition search is the costly part of either.
    """
    repetition = degenerate_repetition(text)
    return _unreadable(text) or _repeated(repetition), repetition


def _unreadable(text: str) -> InvalidOutput | None:
    """The checks of :func:`invalid_output` before the repetition one."""
    if not text.strip():
        return InvalidOutput("empty", "the answer is empty")
    tokens = SPECIAL_TOKEN.findall(text)
    if tokens and not SPECIAL_TOKEN.sub("", text).strip():
        shown = ", ".join(sorted(set(tokens)))
        return InvalidOutput("special_tokens", f"the answer is only special tokens: {shown}")
    visible = [c for c in text if not c.isspace()]
    replacement = sum(c == "\ufffd" for c in visible)
    control = sum(unicodedata.category(c) == "Cc" for c in visible)
    if 2 * (replacement + control) > len(visible):
        reason: InvalidReason = "replacement_chars" if replacement >= control else "control_chars"
        share = (replacement + control) / len(visible)
        return InvalidOutput(
            reason, f"{share:.0%} of the answer's characters are replacement or control characters"
        )
    return None


def _repeated(repetition: Repetition | None) -> InvalidOutput | None:
    if repetition is None:
        return None
    return InvalidOutput("degenerate_repetition", repetition.explanation)
