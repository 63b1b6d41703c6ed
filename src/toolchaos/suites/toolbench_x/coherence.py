"""Coherence checks a ToolBench-X task must pass to ship (docs/toolbench-x.md, validity gates).

A task is coherent when its prompt, its tools' documentation and its reference agree:

- a cross-source task never corrupts a source the prompt names (the user asked for that
  source's figure, so the corrupted value would be the right answer), never corrupts
  the source its documentation calls authoritative, and never sits on a task that reads
  several sources of the fact itself (comparing sources is then what it asks);
- every parameter a hazard touches is one the documented schema requires, so no agent can
  step around it by leaving an optional argument out;
- a prompt that speaks of relative time ("tomorrow", "the next three days") comes with the
  date it is relative to, in the system prompt;
- a prompt that asks how much time is left ("days left", "how many days until") is about
  things still ahead: none of the values it compares is past (a deadline 4 days gone is
  not "4 days left", nor the "furthest away" of three missed ones), unless the prompt
  says how a past one is written ("negative if the deadline has passed").
"""

from __future__ import annotations

import importlib
import re
from functools import cache

from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import VARIANTS
from toolchaos.suites.base import Problem
from toolchaos.suites.toolbench_x.generate import subtopic_modules, template_package

RELATIVE_TIME = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|this (?:week|month|year|weekend|morning|evening)"
    r"|next (?:week|month|year|weekend|\w+ days|\d+ days)|last (?:week|month|year|\w+ days)"
    r"|(?:past|coming) (?:\w+ )?(?:days|weeks|months)|upcoming|right now|currently)\b",
    re.IGNORECASE,
)
ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
TIME_LEFT = re.compile(
    r"\b(?:days?|hours?|weeks?|months?|minutes?|time) (?:left|remaining|away|to go)\b"
    r"|\bhow (?:long|many \w+) (?:until|till|before)\b|\b(?:days?|time) until\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# a prompt that says how to write a time already past has asked for it
_SAYS_PAST = re.compile(r"\b(?:negative|minus)\b", re.IGNORECASE)


@cache
def source_phrases(domain: str) -> dict[str, tuple[str, ...]]:
    """How the domain's templates name each source tool in a prompt ("the agency portal").

    Read from the template modules' own tables of source names: any module-level dict whose
    keys are source tools (the domain's ``notes.sources``) and whose values are the phrase,
    or a tuple ending in it.
    """
    tools = set(get_domain(domain).notes.sources)
    out: dict[str, set[str]] = {}
    package_name = template_package(domain)
    try:
        package = importlib.import_module(package_name)
    except ModuleNotFoundError:
        return {}
    modules = [
        package_name + "._helpers",
        *(f"{package_name}.{m}" for m in subtopic_modules(package)),
    ]
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for value in vars(module).values():
            if not (isinstance(value, dict) and value and set(value) <= tools):
                continue
            for tool, phrase in value.items():
                text = phrase[-1] if isinstance(phrase, tuple) and phrase else phrase
                if isinstance(text, str) and text:
                    out.setdefault(tool, set()).add(text)
    return {tool: tuple(sorted(phrases)) for tool, phrases in out.items()}


def _bare(phrase: str) -> str:
    return re.sub(r"^(the|a|an)\s+", "", phrase.strip(), flags=re.IGNORECASE).lower()


def named_sources(task: TaskSpec) -> set[str]:
    """The source tools the task's prompt names (by the phrases its templates use)."""
    prompt = task.prompt.lower()
    named = set()
    for tool, phrases in source_phrases(task.domain).items():
        if any(re.search(rf"\b{re.escape(_bare(p))}\b", prompt) for p in phrases):
            named.add(tool)
    return named


def coherence_problems(task: TaskSpec) -> list[Problem]:
    """Where the task's prompt, docs and hazard disagree (empty when coherent)."""
    hazard = task.hazard
    if hazard is None:
        return []
    problems: list[Problem] = []

    def fail(reason: str) -> None:
        problems.append(Problem(task_id=task.id, check="coherence", reason=reason))

    domain = get_domain(task.domain)
    variant = VARIANTS.get((hazard.family, hazard.variant))
    if hazard.family is HazardFamily.CROSS_SOURCE_CONFLICT:
        if hazard.tool in named_sources(task):
            fail(f"the prompt names the corrupted source {hazard.tool}")
        how = domain.notes.sources.get(hazard.tool)
        labels = variant is None or getattr(variant, "names_authority", True)
        if labels and how is not None and how.authoritative == hazard.tool:
            fail(f"the corrupted source {hazard.tool} is the one its docs call authoritative")
        family = {hazard.tool, *(how.alternatives if how is not None else ())}
        read = {step.tool for step in task.reference.steps} & family
        if len(read) > 1:  # the task compares sources itself: a corrupted one is its subject
            fail(f"the task itself reads several sources of the fact ({', '.join(sorted(read))})")
    param = hazard.params.get("param")
    optional_matters = variant is None or variant.steps_around_optional
    if optional_matters and isinstance(param, str) and hazard.tool in domain.tools:
        required = domain.tools[hazard.tool].spec.parameters.get("required", [])
        if param not in required:
            fail(f"the hazard touches {hazard.tool}'s optional parameter {param!r}")
    return problems


def time_problems(task: TaskSpec) -> list[Problem]:
    """What the prompt says of time that the task does not back.

    Relative time ("tomorrow") with no date given in the system prompt, or the time left
    on something already past.
    """
    problems = []
    found = RELATIVE_TIME.search(task.prompt)
    if found and not ISO_DAY.search(task.system):
        reason = f"the prompt says {found.group(0)!r} but the agent is not told today's date"
        problems.append(Problem(task_id=task.id, check="relative-date", reason=reason))
    asks = TIME_LEFT.search(task.prompt)
    if asks and not _SAYS_PAST.search(task.prompt):
        # the answer and the values it was chosen from (a min or max keeps the others as
        # distractors)
        values = [task.reference.answer, *task.reference.distractors]
        past = [v for v in values if (n := _NUMBER.match(v.strip())) and float(n[0]) < 0]
        if past:
            reason = f"the prompt asks for {asks.group(0)!r} but {past[0]} is already past"
            problems.append(Problem(task_id=task.id, check="time-left", reason=reason))
    return problems
