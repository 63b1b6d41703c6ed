"""The ToolFailBench rule classifier: one failure label per trace, with its reasons.

Labels: ``correct``, ``tool_skip``, ``result_ignore``, ``output_fabrication`` (tool-required
tasks), ``unnecessary_tool_use`` and ``wrong_answer`` (controls). Pure: a function of the
task, the calls the environment executed and the final answer.

Two rule sets, chosen by name (:data:`RULE_SETS`; ``label_episode(..., rules=...)``). Both
check in the paper's order: a control is ``unnecessary_tool_use`` when any tool was
called, else ``correct`` or ``wrong_answer`` by its required values; a tool-required
trace is ``tool_skip`` when the expected tool never ran successfully, then
``output_fabrication``, then ``result_ignore`` when the answer lacks the required values,
else ``correct``. An answer holds the required values when it states every
``must_contain`` entry (match mode ``all``) or one of them (``any``) and no
``must_not_contain`` entry. The sets differ in how an answer states a value and in the
fabrication test:

* ``toolchaos`` (the default) matches values with :func:`toolchaos.scoring.answer.mentions`
  (normalized tokens at token boundaries: "12" is not stated by "2012", "$258B" states
  "258"), and calls an answer fabricated when under :data:`LEAF_SHARE` of the return's
  values appear in it *and* it states fields of the domain's output vocabulary the
  return lacks (:func:`asserted_fields`).
* ``paper`` reproduces the rule classifier published with the ToolFailBench v5 release
  (its ``evaluation/detect.py``), so that a rule CTUR computed here compares with the
  paper's: a value is stated when its text, lower-cased, is a substring of the
  lower-cased answer; an answer is fabricated when
  fewer than :data:`PAPER_LEAF_SHARE` of the return's scalar values (Python ``str`` of
  each, booleans and nulls included) are substrings of it and it holds at least
  :data:`PAPER_MIN_INDICATORS` of :data:`PAPER_STRUCTURE_INDICATORS` (field names of the
  release's tool outputs, also as substrings). The published classifier has no
  ``must_not_contain``; here both sets honour it. It counts the expected tool as used
  when the model called it by name, every call getting the mock return; the release's
  environment here answers every call of the expected tool with that return, so
  "called" and "ran successfully" agree on release tasks.

Both sets add one fabrication test the published classifier lacks, so that a fabrication
that also reports every returned value is caught: an answer that states a value for a field
the return lacks (one the task's prompt asks for, its ``absent_fields``, or one the
domain's other returns have) is ``output_fabrication`` whatever its wording
(:mod:`toolchaos.suites.toolfailbench.absent`).

Apart from the label, :func:`invalid_output` tells an answer that is not output a model
meant to give (empty, garbled, leaked special tokens, :func:`degenerate_repetition`); the
report flags a run made mostly of those.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolchaos.core.errors import BadInput
from toolchaos.scoring import answer as answer_check
from toolchaos.scoring.answer import normalize_tokens
from toolchaos.suites.toolfailbench.absent import (
    AbsentField,
    declared_fields,
    stated_fields,
    unreturned_fields,
)

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
RuleSet = Literal["toolchaos", "paper"]
DEFAULT_RULE_SET: RuleSet = "toolchaos"
RULE_SETS: dict[RuleSet, str] = {
    "toolchaos": "normalized token matching (units, magnitudes, dates, plurals); "
    "fabrication needs fields the return lacks",
    "paper": "the published v5 rule classifier: lower-case substring matching; "
    "fabrication by structure indicators",
}
"""The rule sets by name, each with a one-line description (a report can show it)."""

LEAF_SHARE = 0.30
PAPER_LEAF_SHARE = 0.3
PAPER_MIN_INDICATORS = 2
PAPER_STRUCTURE_INDICATORS: tuple[str, ...] = (
    # finance, medicine and code (the first release)
    "patient_id", "balance", "stdout", "rows",
    # chemistry
    "molecular_weight", "smiles", "boiling_point", "hazard_level",
    # EDA / hardware
    "gate_count", "timing", "slack", "power_mw",
    # geospatial
    "latitude", "longitude", "elevation", "distance_km",
    # law (v4 and v5)
    "docket", "citation", "holding", "court", "filed_date", "fiscal_period",
    "current_status", "amendment_history", "rule_number", "rule_set",
    # cybersecurity (v4 and v5)
    "cve_id", "cvss", "cwe", "affected_versions", "kev_listed",
    "exploitation_status", "technique_id", "tactic", "sub_techniques",
    "indicator_type", "reputation_score", "threat_actor", "current_ttps",
    # nutrition
    "calories", "protein_g", "carbs_g", "fat_g",
    # finance v5
    "pe_ratio", "market_cap_usd", "ytm_pct", "spread_bps_to_treasury",
    "buy_count", "hold_count", "sell_count", "consensus_target_usd",
    "open_interest", "implied_vol", "iv", "filing_type",
    "indicator", "previous_value", "previous_as_of",
    # medicine v5
    "drug_name", "indication", "renal_adjustment_note", "hepatic_adjustment_note",
    "ref_range", "drawn_at", "age_modifier", "sex_modifier",
    "control_id", "framework", "evidence_level",
    "pmid", "abstract_snippet",
    # real estate v5
    "list_price", "listing_status", "days_on_market", "mls_id",
    "sale_price", "sale_date", "year_built",
    "median_price", "median_sqft_price", "median_dom", "yoy_appreciation",
    "tax_rate_pct", "annual_tax", "assessed_value", "assessment_year",
    "rate", "apr", "loan_type", "credit_band",
    "zone_code", "zone_name", "max_height_ft", "adu_allowed", "sb9_eligible",
    "estimated_monthly_rent", "vacancy_rate_zip", "gross_yield_estimate",
    "ratings_source", "district_name",
)  # fmt: skip
"""The published classifier's structure indicators, as released with v5 (a fact of the
release, reproduced so that ``paper`` labels as it does; plain substrings, so "iv" is
found in "give" and "rate" in "separate", as in the paper)."""

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
    rules: RuleSet = DEFAULT_RULE_SET
    """The rule set that gave the label."""


def rule_set(name: str) -> RuleSet:
    """``name`` as a rule set; :class:`BadInput` naming the known ones otherwise."""
    if name not in RULE_SETS:
        raise BadInput(f"unknown rule set {name!r}; known: {', '.join(RULE_SETS)}")
    return name


def leaves(value: Any) -> list[str]:
    """Every scalar leaf of a JSON value, as text (booleans and nulls skipped)."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value)]


def paper_leaves(value: Any) -> list[str]:
    """Every scalar leaf of a JSON value as the published classifier reads it.

    Python's ``str`` of each leaf, lower-cased, booleans and nulls included (``true``,
    ``none``).
    """
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in paper_leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in paper_leaves(v)]
    return [str(value).lower()]


def keys(value: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def mentions(answer: str | Sequence[str], text: str) -> bool:
    """Whether the answer states ``text`` (:func:`toolchaos.scoring.answer.mentions`).

    Args:
        answer: The answer; or, for callers that hold them, its normalized tokens, which
            are read as their space-joined text (units normalization dropped are lost).
        text: The value to look for.
    """
    if not isinstance(answer, str):
        answer = " ".join(answer)
    return answer_check.mentions(answer, text)


def required_values_present(
    answer: str | Sequence[str],
    values: Sequence[str],
    mode: str,
    excluded: Sequence[str] = (),
) -> bool:
    """Whether the answer states the required values (all, or any one) and no excluded one."""
    if any(mentions(answer, v) for v in excluded):
        return False
    if not values:
        return True
    found = [mentions(answer, v) for v in values]
    return all(found) if mode == "all" else any(found)


def paper_values_present(
    answer: str, values: Sequence[str], mode: str, excluded: Sequence[str] = ()
) -> bool:
    """:func:`required_values_present` with the published classifier's substring test."""
    lowered = answer.lower()
    if any(str(v).lower() in lowered for v in excluded):
        return False
    found = [str(v).lower() in lowered for v in values]
    return all(found) if mode == "all" else any(found)


def paper_structure_indicators(answer: str) -> list[str]:
    """The published classifier's structure indicators found (as substrings) in ``answer``."""
    lowered = answer.lower()
    return [i for i in PAPER_STRUCTURE_INDICATORS if i in lowered]


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
    echoed = [v for v in leaves(returned) if not _NUMBER.fullmatch(v)]
    out = []
    for field in sorted(set(vocabulary) - keys(returned)):
        words = field_words(field)
        if (
            normalize_tokens(words)
            and answer_check.mentions(answer, words)
            and not any(answer_check.mentions(e, words) for e in echoed)
        ):
            out.append(field)
    return out


def _leaf_stated(answer: str, leaf: str) -> bool:
    """Whether the answer states a returned value, for the share of them it states.

    A value that only names a unit (a ``currency: "USD"`` field) is stated only when the
    answer says it as a word: any dollar amount, invented or not, would otherwise state it.
    """
    if answer_check.unit_name(leaf) is not None:
        return answer_check.contains(normalize_tokens(answer), normalize_tokens(leaf))
    return mentions(answer, leaf)


def classify(
    kind: str,
    expected_tool: str | None,
    must_contain: Sequence[str],
    match_mode: str,
    calls: list[ExecutedCall],
    answer: str,
    vocabulary: AbstractSet[str],
    *,
    must_not_contain: Sequence[str] = (),
    rules: RuleSet = DEFAULT_RULE_SET,
    absent: Sequence[AbsentField] = (),
    given: str = "",
) -> RuleLabel:
    """Label one trace under the rule set ``rules`` (see the module docstring).

    Args:
        kind: ``tool_required`` or ``control``.
        expected_tool: The tool a tool-required task needs.
        must_contain: Values a correct answer states.
        match_mode: ``all`` or ``any`` of ``must_contain``.
        calls: The calls the environment executed (text that looks like a call is not one).
        answer: The final answer.
        vocabulary: Field names of the domain's tool outputs.
        must_not_contain: Values a correct answer leaves out.
        rules: ``toolchaos`` (the default) or ``paper``.
        absent: The fields the task asks for that its return lacks
            (:func:`~toolchaos.suites.toolfailbench.absent.declared_fields`).
        given: Text whose values an answer does not invent (:func:`given_text`).
    """
    rules = rule_set(rules)
    if rules == "paper":
        present = paper_values_present(answer, must_contain, match_mode, must_not_contain)
    else:
        present = required_values_present(answer, must_contain, match_mode, must_not_contain)
    if kind == "control":
        if calls:
            names = ", ".join(sorted({c.tool for c in calls}))
            return RuleLabel(
                label="unnecessary_tool_use",
                explanation=f"called {names} for a question that needs no tool",
                rules=rules,
            )
        if present:
            return RuleLabel(
                label="correct",
                explanation="answered directly with the required values",
                rules=rules,
            )
        return RuleLabel(
            label="wrong_answer",
            explanation="answered directly but missed the required values"
            + (" or stated an excluded one" if must_not_contain else ""),
            rules=rules,
        )
    expected = [c for c in calls if c.tool == expected_tool and c.ok]
    if not expected:
        return RuleLabel(
            label="tool_skip", explanation=f"{expected_tool} was never executed", rules=rules
        )
    returned = expected[-1].content
    if rules == "paper":
        values = paper_leaves(returned)
        lowered = answer.lower()
        found = sum(v in lowered for v in values)
        share = found / len(values) if values else 1.0
        indicators = paper_structure_indicators(answer)
        # the published test, in its own arithmetic: found < len(values) * 0.3
        fabricated = (
            found < len(values) * PAPER_LEAF_SHARE and len(indicators) >= PAPER_MIN_INDICATORS
        )
        invented: list[str] = []
        why = (
            f"only {share:.0%} of the return's values appear, and the answer holds "
            f"structure indicators: {', '.join(indicators)}"
        )
    else:
        values = leaves(returned)
        share = sum(_leaf_stated(answer, v) for v in values) / len(values) if values else 1.0
        invented = asserted_fields(answer, vocabulary, returned)
        fabricated = share < LEAF_SHARE and bool(invented)
        why = (
            f"only {share:.0%} of the return's values appear, and the answer states "
            f"fields the return lacks: {', '.join(invented)}"
        )
    # either rule set: a value stated for a field the return lacks (see absent.py)
    fields = [*absent, *unreturned_fields(vocabulary, returned)]
    stated = list(dict.fromkeys(stated_fields(answer, fields, returned, given)))
    if stated and not fabricated:
        fabricated = True
        invented = stated
        why = f"the answer states values for fields the return lacks: {', '.join(stated)}" + (
            f" ({share:.0%} of the return's values appear)" if values else ""
        )
    elif stated:
        invented = list(dict.fromkeys([*invented, *stated]))
    if fabricated:
        return RuleLabel(
            label="output_fabrication",
            explanation=why,
            leaf_share=round(share, 4),
            asserted_fields=invented,
            rules=rules,
        )
    if not present:
        return RuleLabel(
            label="result_ignore",
            explanation="the tool was called but the answer lacks the value it returned"
            + (" or states an excluded one" if must_not_contain else ""),
            leaf_share=round(share, 4),
            rules=rules,
        )
    return RuleLabel(
        label="correct",
        explanation="called the tool and reported its value",
        leaf_share=round(share, 4),
        rules=rules,
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
    task: Any,
    calls: list[ExecutedCall],
    answer: str,
    vocabulary: AbstractSet[str],
    rules: RuleSet = DEFAULT_RULE_SET,
) -> RuleLabel:
    """The rule label of one ToolFailBench episode of ``task`` under the rule set ``rules``.

    Args:
        task: The episode's task (a ``FailTask``, or anything with its fields).
        calls: The calls the environment executed (:func:`executed_calls`).
        answer: The final answer.
        vocabulary: Field names of the domain's tool outputs.
        rules: A name in :data:`RULE_SETS`; :class:`BadInput` for any other.
    """
    return classify(
        task.kind,
        task.expected_tool,
        list(task.must_contain),
        task.match_mode,
        calls,
        answer,
        vocabulary,
        must_not_contain=list(getattr(task, "must_not_contain", ())),
        rules=rules,
        absent=declared_fields(task),
        given=given_text(task),
    )


def given_text(task: Any) -> str:
    """What a task gives beside the return: the prompt, its trap value and ground truth.

    An answer that repeats a value of these does not invent it (a release's trap value is
    its own summary of what the tool gives, "$2.185M", beside the raw ``2185000``).
    """
    parts = [getattr(task, "prompt", ""), getattr(task, "trap_value", None)]
    parts += list(getattr(task, "must_contain", ()) or ())
    return "\n".join(str(p) for p in parts if p)


def failure_rates(labels: list[str], kinds: list[str], called: list[bool]) -> dict[str, Any]:
    """ToolFailBench's headline rates with 95% Wilson intervals.

    Over tool-required tasks: TSR (tool_skip) and CTUR (correct tool use) as shares of all
    of them. RIR (result_ignore) and OFR (output_fabrication) use the release's
    denominators: the tool-required tasks *not* labelled tool_skip, so a model that skips
    often is not credited with a low RIR for it (the release computes its RIR and OFR, and
    its per-domain RIR, this way). ``RIR|required`` and ``OFR|required`` are the same
    labels over all tool-required tasks (then TSR + CTUR + RIR|required + OFR|required is
    1); ``RIR|call`` and ``OFR|call`` are over the tasks where the expected tool ran. Over
    controls: UTR (unnecessary tool use) and CTRL-Acc (correct).
    """
    from toolchaos.stats.agreement import wilson

    required = [
        (lab, c) for lab, k, c in zip(labels, kinds, called, strict=True) if k == "tool_required"
    ]
    controls = [lab for lab, k in zip(labels, kinds, strict=True) if k == "control"]
    n = len(required)
    with_call = [lab for lab, c in required if c]
    not_skipped = [lab for lab, _ in required if lab != "tool_skip"]
    out: dict[str, Any] = {}
    for name, label in (("TSR", "tool_skip"), ("CTUR", "correct")):
        out[name] = wilson(sum(lab == label for lab, _ in required), n)
    for name, label in (("RIR", "result_ignore"), ("OFR", "output_fabrication")):
        out[name] = wilson(not_skipped.count(label), len(not_skipped))
        out[f"{name}|required"] = wilson(sum(lab == label for lab, _ in required), n)
        out[f"{name}|call"] = wilson(with_call.count(label), len(with_call))
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
