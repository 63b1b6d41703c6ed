"""Remembered priors: the public facts the v3 traps contradict, and the check that they do.

A v3 trap's prior is, in most tool-required tasks, a value a model plausibly remembers: a
documented past value (a stock's 2022 close, a 2021 mortgage-rate low), a well-known
default (the over-the-counter ibuprofen cap), an outdated figure (wire fraud's five-year
maximum before 2002, a breach count first disclosed and later revised, a deprecated CVSS v2
score). Each lives in ``data/remembered.json`` with a short citation in our own words
(``source``); the generator copies it into the task's ``metadata["prior_source"]``.

The tool's return for such a trap is the current value: the tool's own data for the
expected call (:func:`~toolchaos.suites.toolfailbench.returns.own_return`), with no
override, so every tool of the episode tells the same story. :func:`remembered_priors`
refuses a prior the tool does not clearly contradict (a number within 15% of the current
value, a label equal to it) or one naming an unknown question or entity.
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from toolchaos.suites.toolfailbench._kit import DomainKit, Question, Target, canon_text, load_table
from toolchaos.suites.toolfailbench.returns import own_return

TABLE = "remembered"
MIN_GAP = 0.15
"""A numeric prior lies at least this far (relative) from the current value it is trapped by."""


class RememberedPrior(BaseModel):
    """One remembered fact: which question and entity it is about, the value, its citation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    domain: str
    question: str
    entity: str
    prior: float | int | str
    source: str = Field(min_length=10)


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")

    about: str
    priors: list[RememberedPrior]


def question_of(kit: DomainKit, name: str) -> Question:
    """The question ``name`` of ``kit`` (ValueError when it has none)."""
    for question in kit.questions:
        if question.name == name:
            return question
    raise ValueError(f"{kit.name} has no question {name!r}")


def target_of(question: Question, entity: str) -> Target:
    """The target of ``question`` about ``entity`` (ValueError when it has none)."""
    for target in question.targets():
        if target.entity == entity:
            return target
    raise ValueError(f"question {question.name!r} has no target {entity!r}")


def current_value(kit: DomainKit, fact: RememberedPrior) -> float | int | str:
    """What the expected tool returns today for the fact's question and entity."""
    question = question_of(kit, fact.question)
    target = target_of(question, fact.entity)
    value: float | int | str = own_return(kit.name, question.tool, target.arguments)[question.key]
    return value


def contradicted(prior: float | int | str, current: float | int | str) -> bool:
    """Whether ``current`` clearly differs from the remembered ``prior``."""
    if isinstance(prior, str) or isinstance(current, str):
        return canon_text(str(prior)) != canon_text(str(current))
    return abs(float(current) - float(prior)) >= MIN_GAP * abs(float(prior))


@cache
def remembered_priors(domain: str) -> tuple[RememberedPrior, ...]:
    """The remembered priors of ``domain``, each checked against its tool's current value.

    Raises:
        ValueError: A prior names an unknown question or entity, or the tool's current
            value does not contradict it.
    """
    from toolchaos.suites.toolfailbench.domains import domain_kit

    kit = domain_kit(domain)
    table = _Table.model_validate(load_table(TABLE))
    mine = tuple(p for p in table.priors if p.domain == domain)
    for fact in mine:
        current = current_value(kit, fact)
        if not contradicted(fact.prior, current):
            raise ValueError(f"remembered prior {fact.id}: the tool's {current!r} is too close")
    if len({p.id for p in table.priors}) != len(table.priors):
        raise ValueError("remembered priors: an id repeats")
    return mine
