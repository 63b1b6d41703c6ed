"""Generate ToolBench-X tasks from subtopic templates with a seed.

A template reads the seeded world through a :class:`TemplateContext`, picks entities and
returns a :class:`Draft`: the prompt, the reference path (with refs between steps) and how
the answer is computed. The answer and end state are never written by hand: they come
from replaying the path in the clean world. Hazards are then proposed where they fit and
kept only when the oracle recovers and the naive baseline does not.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import pkgutil
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from types import ModuleType
from typing import Any, Literal

from toolchaos.agents.native import DEFAULT_SYSTEM
from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import ref_steps
from toolchaos.core.types import AnswerSpec, Reference, RefStep, TaskSpec, ToolKind
from toolchaos.core.world import RELEASE, World
from toolchaos.core.writes import expected_writes, written_state
from toolchaos.domains import DOMAINS, Domain, get_domain
from toolchaos.scoring.aliases import answer_aliases, answer_distractors
from toolchaos.suites.toolbench_x.changelog import CHANGELOG_TOOL
from toolchaos.suites.toolbench_x.validate import ReferenceRun, replay_reference

SUITE = "toolbench-x"
# a slot at the start of a phrasing's sentence: "{q}?" or "... from {source}. {q}?"
_SENTENCE_SLOT = re.compile(r"(?:^|[.?!]\s+)\{([A-Za-z_]\w*)\}")
Workflow = Literal["sequential", "parallel", "mixture"]
WORKFLOWS: tuple[Workflow, ...] = ("sequential", "parallel", "mixture")

TEMPLATES_PACKAGE = "toolchaos.suites.toolbench_x.templates"
"""Where the subtopic templates live: one package per domain, named after the domain."""


@dataclass
class Draft:
    """What a template returns: a task before its reference answer is computed."""

    prompt: str
    steps: list[RefStep]
    answer: AnswerSpec
    writes: bool = False
    aliases: list[str] = field(default_factory=list)
    extra_tools: list[str] = field(default_factory=list)


class TemplateContext:
    """The read-only view a template gets: the seeded world and a seeded generator.

    Args:
        domain: The domain the template belongs to.
        world: The domain's base world (never written by a template).
        rng: The generator every choice must come from.
    """

    def __init__(self, domain: Domain, world: World, rng: random.Random) -> None:
        self.domain = domain
        self.world = world
        self.rng = rng

    def rows(self, table: str, where: Callable[[Any], bool] | None = None) -> list[Any]:
        """Rows of ``table`` passing ``where``, in key order."""
        data = self.world.table(table)
        return [data[k] for k in sorted(data) if where is None or where(data[k])]

    def pick(self, table: str, where: Callable[[Any], bool] | None = None) -> Any:
        """One row of ``table`` passing ``where``, chosen by the rng."""
        rows = self.rows(table, where)
        if not rows:
            raise NoFit(f"no {table} row fits")
        return self.rng.choice(rows)

    def sample(self, table: str, k: int, where: Callable[[Any], bool] | None = None) -> list[Any]:
        """``k`` distinct rows of ``table`` passing ``where``, chosen by the rng."""
        rows = self.rows(table, where)
        if len(rows) < k:
            raise NoFit(f"fewer than {k} {table} rows fit")
        return self.rng.sample(rows, k)

    def read(self, tool: str, **args: Any) -> Any:
        """Run a READ tool on a fork of the world (to choose entities that fit a template)."""
        found = self.domain.tools[tool]
        if found.kind is not ToolKind.READ:
            raise ValueError(f"templates may only read; {tool} writes")
        return found(self.world.fork(), **args)

    def today(self) -> date:
        """The world's current date."""
        return self.world.now().date()

    def day(self, offset: int) -> str:
        """The ISO date ``offset`` days from the world's today (negative: before it)."""
        return (self.today() + timedelta(days=offset)).isoformat()

    def say(self, *phrasings: str, **values: Any) -> str:
        """Pick one of several phrasings of a request and fill it in.

        A text value in a slot that starts a sentence of the phrasing starts upper-case
        ("... from {source}. {q}?" with "what's the best rate" reads "What's the best rate").
        """
        phrasing = self.rng.choice(phrasings)
        starting = {m[1] for m in _SENTENCE_SLOT.finditer(phrasing)}
        for name in starting & set(values):
            if isinstance(values[name], str):
                values[name] = values[name][:1].upper() + values[name][1:]
        return phrasing.format(**values)

    def say_source(self, named: bool, *phrasings: str, slot: str = "source", **values: Any) -> str:
        """:meth:`say` for a request about a source fact, naming the source only if ``named``.

        The phrasings name the source in ``slot``; for a request that names none they are
        rewritten by :func:`unnamed_phrasings` (those it cannot rewrite are left out, and
        if none is left the request names its source after all).
        """
        plain = () if named else unnamed_phrasings(phrasings, slot)
        return self.say(*(plain or phrasings), **values)

    def unnamed_source(self, tools: Iterable[str], share: float = 0.5) -> str | None:
        """With probability ``share``, a source of ``tools`` for a prompt that names none.

        Several tools serve one fact (the domain's ``notes.sources``) and agree on it in
        the clean world, so a prompt that names none can be answered from any of them.
        The reference path then reads one the docs do not call authoritative, which a
        cross-source hazard may corrupt (the coherence gate refuses a corrupted source the
        prompt names, and the authoritative one is never corrupted).

        Args:
            tools: The sources of one fact.
            share: How often to return a source (1.0: always, for a template that only
                has the unnamed form).

        Returns:
            The source tool to read, or None: the template keeps its named form.
        """
        notes = self.domain.notes.sources
        plain = sorted(t for t in tools if t in notes and notes[t].authoritative != t)
        if not plain or self.rng.random() >= share:
            return None
        return self.rng.choice(plain)

    def choose_source(
        self, tools: Iterable[str], weights: Sequence[float] | None = None
    ) -> tuple[str, bool]:
        """A source tool of one fact, and whether the prompt names it.

        About half the time (:meth:`unnamed_source`) a source the docs do not call
        authoritative, for a prompt that names none; otherwise one of ``tools`` (in name
        order, drawn with ``weights`` if given) for a prompt that names it.
        """
        unnamed = self.unnamed_source(tools)
        if unnamed is not None:
            return unnamed, False
        return str(self.rng.choices(sorted(tools), weights=weights)[0]), True

    def count(self, low: int, high: int) -> int:
        """How many entities a task of variable shape takes, from ``low`` to ``high``.

        A template that takes ``ctx.count(3, 6)`` entities yields up to four task logics
        (one per count), each with its own number of calls.
        """
        return self.rng.randint(low, high)


# how requests name a source in a slot {S}, and what the request says without it
_UNNAMING: tuple[tuple[str, str], ...] = (
    (r" \({S}(?: prices)?\)", ""),
    (
        r"(^|[.?!] )(?:Using|Per|According to|Going by|On|From|Via|By|Go by|Use) {S}"
        r"(?: prices)?, (\w)",
        "U",
    ),
    (r" (?:Use|Go by|Check) {S}(?: prices)?(?:\.|;)", ""),
    (
        r",? (?:by|per|from|using|via|going by|according to|on) {S}(?: prices)?(?=[.?;!,:]| and )",
        "",
    ),
    (r"\bCheck {S} for ", "Look up "),
    (r"{S} (?=\{|rating|score|stars)", ""),
)


def unnamed_phrasings(phrasings: Sequence[str], slot: str = "source") -> tuple[str, ...]:
    """The phrasings rewritten to name no source in ``slot``.

    "What's the wait, per {source}?" becomes "What's the wait?", "its {source} {words}"
    becomes "its {words}"; a phrasing still naming the source after the rewrite is left out.
    """
    out = []
    for phrasing in phrasings:
        text = phrasing
        for pattern, repl in _UNNAMING:
            found = re.compile(pattern.replace("{S}", re.escape("{" + slot + "}")))
            if repl == "U":
                text = found.sub(lambda m: m.group(1) + m.group(2).upper(), text)
            else:
                text = found.sub(repl, text)
        text = re.sub(r" {2,}", " ", text).strip()
        if "{" + slot + "}" not in text:
            out.append(text)
    return tuple(out)


def listing(items: list[str], quote: str = "") -> str:
    """Items as a person lists them: "A", "A and B", "A, B and C" (each in ``quote``)."""
    shown = [f"{quote}{item}{quote}" for item in items]
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def when(iso: str) -> str:
    """A date as people write it in a request: weekday and ISO date ("Friday 2026-03-06")."""
    return f"{date.fromisoformat(iso):%A} {iso}"


class NoFit(LookupError):
    """The world has nothing this template can use with this rng draw."""


Template = Callable[[TemplateContext], Draft]


@dataclass(frozen=True)
class Subtopic:
    """A subtopic: its name, its templates per workflow type, its topic and its domain.

    A subtopic module declares only its name and templates, and a topic when it is not
    its domain's: :func:`subtopics` fills in the domain, and the domain's topic where the
    module names none, so neither is written again in the templates.
    """

    name: str
    templates: dict[str, list[Template]]
    topic: str = ""
    domain: str = ""


def ref(step: int, *keys: Any) -> dict[str, list[Any]]:
    """A ref to ``keys`` inside the result of ``step``."""
    return {"$ref": [step, *keys]}


def slug(text: str) -> str:
    """A lowercase, dash-separated id fragment."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def template_package(domain: str) -> str:
    """The name of the package holding the subtopic templates of ``domain``."""
    return f"{TEMPLATES_PACKAGE}.{domain}"


def template_domain(module: str) -> str:
    """The domain whose template package holds ``module`` (a template module's ``__name__``)."""
    inside = module.removeprefix(f"{TEMPLATES_PACKAGE}.")
    if inside == module:
        raise ValueError(f"{module} is not inside {TEMPLATES_PACKAGE}")
    return inside.split(".")[0]


def subtopic_modules(package: ModuleType) -> list[str]:
    """The subtopic modules of a template package, in the order the build visits them.

    Every module of the package not starting with ``_`` is one subtopic, visited in name
    order unless the package fixes an order in ``SUBTOPIC_ORDER``. Every candidate of a
    build draws its generator from one seeded stream, so this order is part of what a
    seed reproduces; the shipped packages keep the order their subtopics were written in.

    Raises:
        ValueError: ``SUBTOPIC_ORDER`` does not list each module of the package once.
    """
    modules = pkgutil.iter_modules(package.__path__)
    found = sorted(m.name for m in modules if not m.name.startswith("_"))
    order = list(getattr(package, "SUBTOPIC_ORDER", found))
    if sorted(order) != found:
        raise ValueError(
            f"{package.__name__}.SUBTOPIC_ORDER must list each subtopic module once: "
            f"it lists {order}, the package holds {found}"
        )
    return order


def _declaring_module(domain: str) -> ModuleType:
    """The module whose attribute the domain registry names for ``domain``."""
    return importlib.import_module(DOMAINS[domain].partition(":")[0])


def _declared(domain: str) -> list[Subtopic]:
    """The subtopics ``domain``'s templates declare, as written (no defaults filled in).

    A shipped domain's templates are the package named after it (its domain module may
    not import this suite); a domain declared in one module outside the package, like
    docs/examples/library.py, may list its subtopics in ``SUBTOPICS`` next to its domain.
    A domain with neither (the tests' fixture domain) has no subtopics.
    """
    name = template_package(domain)
    if importlib.util.find_spec(name) is None:
        return list(getattr(_declaring_module(domain), "SUBTOPICS", []))
    package = importlib.import_module(name)
    return [importlib.import_module(f"{name}.{m}").SUBTOPIC for m in subtopic_modules(package)]


def subtopics(domains: list[str] | None = None) -> list[Subtopic]:
    """Every subtopic of the registered domains (or of ``domains``), in a stable order.

    Domains come in name order, and each domain's subtopics in the order its templates
    give (:func:`subtopic_modules`). Each subtopic comes back with its domain's name and,
    unless it names its own topic, its domain's topic.

    Raises:
        ValueError: A subtopic names another domain than the one whose templates hold it.
    """
    out: list[Subtopic] = []
    for name in sorted(DOMAINS):
        if domains is not None and name not in domains:
            continue
        topic = get_domain(name).topic
        for sub in _declared(name):
            if sub.domain not in ("", name):
                raise ValueError(f"subtopic {sub.name!r} of {name} names domain {sub.domain!r}")
            out.append(replace(sub, domain=name, topic=sub.topic or topic))
    return out


def shape(steps: list[RefStep], answer: AnswerSpec) -> str:
    """The shape of a reference path: its tools, how steps feed each other, how it answers.

    Two tasks of one template with the same shape differ only in their entities; a
    template whose drafts vary in length, wiring or answer op yields several shapes.
    """
    parts = [f"{s.tool}<{','.join(map(str, sorted(ref_steps(s.args))))}>" for s in steps]
    parts.append(f"{answer.op}/{len(answer.refs)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:10]


PROBE_TEXT = "Scoring probe: any text."
"""What :func:`free_text_fields` passes for an optional text argument to see what it sets."""


def world_date(world: World) -> str:
    """The system prompt's line giving the world's date, so relative dates are anchored.

    Only the ISO date and its weekday: a time of day would give away answers such as the
    first free slot, and a spelled-out date would give away small counts ("March 2").
    """
    now = world.now()
    return f"Today's date is {now.date().isoformat()} ({now:%A})."


def system_prompt(world: World) -> str:
    """A task's system prompt: standing instructions, the world's date, and the user.

    The user is named where the world has one (:meth:`~toolchaos.core.world.World.user`),
    so a request that says "I", "me" or "my" about a member can be resolved.
    """
    user = world.user()
    about = f'\n\nThe user is {user}: "I", "me" and "my" in a request mean {user}.' if user else ""
    return f"{DEFAULT_SYSTEM}\n\n{world_date(world)}{about}"


def _free_text(schema: dict[str, Any]) -> bool:
    """Whether a parameter's JSON schema takes any text (no enum, pattern or format)."""
    options = schema.get("anyOf", [schema])
    kinds = {o.get("type") for o in options}
    if "string" not in kinds or not kinds <= {"string", "null"}:
        return False
    return not any(k in o for o in options for k in ("enum", "pattern", "format", "const"))


def free_text_fields(task: TaskSpec, run: ReferenceRun) -> set[tuple[str, str]]:
    """The ``(table, field)`` pairs an optional text argument of a write sets.

    For every optional free-text parameter of a WRITE step that the reference leaves out
    (a memo, a note, a description), the path is replayed with that argument set; the
    fields it changes are the agent's to fill, not what the task is about. An argument
    the tool refuses (a pharmacy or room that must exist) is not free text.
    """
    domain = get_domain(task.domain)
    base = expected_writes(run.world)
    out: set[tuple[str, str]] = set()
    steps = task.reference.steps
    for index, step in enumerate(steps):
        tool = domain.tools[step.tool]
        if tool.kind is not ToolKind.WRITE:
            continue
        parameters = tool.spec.parameters
        required = set(parameters.get("required", []))
        for name, schema in parameters.get("properties", {}).items():
            if name in required or name in step.args or not _free_text(schema):
                continue
            probed_steps = list(steps)
            probed_steps[index] = step.model_copy(update={"args": {**step.args, name: PROBE_TEXT}})
            probed_ref = task.reference.model_copy(update={"steps": probed_steps})
            try:
                probed = replay_reference(task.model_copy(update={"reference": probed_ref}))
            except (ValueError, ToolError):
                continue
            changed = expected_writes(probed.world)
            if len(changed) != len(base):
                continue
            for before, after in zip(base, changed, strict=True):
                for field_name in set(before.fields) | set(after.fields):
                    if before.fields.get(field_name) != after.fields.get(field_name):
                        out.add((before.table, field_name))
    return out


def draft_to_task(
    draft: Draft,
    sub: Subtopic,
    workflow: str,
    task_id: str,
    world_seed: int,
    template: str = "",
) -> TaskSpec:
    """Turn a draft into a task whose reference comes from replaying it.

    The task's metadata records its ``logic`` (template and :func:`shape`), ``calls``
    (the reference path's length), so a build can count distinct logics and depth, and
    the ``release`` whose tool behaviour it replays on (``make_world``); the
    task also carries what scoring needs, computed from the same replay
    (:func:`with_scoring_fields`): the world's date in the system prompt, the answer's
    aliases and distractors, and a writing task's expected writes.
    """
    tools = list(
        dict.fromkeys([s.tool for s in draft.steps] + draft.extra_tools + [CHANGELOG_TOOL])
    )
    reference = Reference(
        steps=draft.steps, answer_spec=draft.answer, aliases=draft.aliases, writes=draft.writes
    )
    task = TaskSpec(
        id=task_id,
        suite=SUITE,
        domain=sub.domain,
        topic=sub.topic,
        subtopic=sub.name,
        workflow=workflow,
        prompt=draft.prompt,
        world_seed=world_seed,
        tools=tools,
        reference=reference,
        metadata={
            "logic": f"{template or 'draft'}:{shape(draft.steps, draft.answer)}",
            "calls": len(draft.steps),
            "release": RELEASE,
        },
    )
    run = replay_reference(task)
    reference = reference.model_copy(
        update={"answer": run.answer, "end_state": run.end_state if draft.writes else None}
    )
    task = task.model_copy(update={"reference": reference})
    return with_scoring_fields(task, run)


def with_scoring_fields(task: TaskSpec, run: ReferenceRun | None = None) -> TaskSpec:
    """``task`` with what v2 scoring needs, computed from replaying its reference path.

    The world's date in the system prompt (:func:`system_prompt`); aliases of the answer
    (:func:`answer_aliases`, after any the template gave) and the values it was chosen
    from (:func:`answer_distractors`); and, for a task that writes, the rows and fields
    its writes must produce (:func:`expected_writes`, without the fields an optional text
    argument sets, :func:`free_text_fields`) with the end state as those fields.

    Args:
        task: A task whose reference answer is computed.
        run: The replay of its reference path, when the caller has it.
    """
    run = run or replay_reference(task)
    reference = task.reference
    today = run.world.now().date()
    update: dict[str, Any] = {
        "aliases": answer_aliases(reference, run.results, task.prompt, today),
        "distractors": answer_distractors(reference, run.results),
    }
    if reference.writes:
        writes = expected_writes(run.world, free_text_fields(task, run))
        update |= {"expected_writes": writes, "end_state": written_state(run.world, writes)}
    return task.model_copy(
        update={
            "reference": reference.model_copy(update=update),
            "system": system_prompt(run.world),
        }
    )


@dataclass
class Candidate:
    """One template instantiation: where it came from and what it produced."""

    subtopic: Subtopic
    workflow: str
    number: int
    draft: Draft | None
    reason: str = ""
    template: str = ""

    @property
    def label(self) -> str:
        """A readable name for reports (not the final task id)."""
        return f"{slug(self.subtopic.name)}-{self.workflow[:3]}-candidate-{self.number:02d}"


def raw_candidates(
    seed: int, attempts_per_cell: int, domains: list[str] | None = None, world_seed: int = 0
) -> list[Candidate]:
    """Instantiate every subtopic's templates ``attempts_per_cell`` times per workflow type.

    Each instantiation gets its own generator drawn from one seeded stream, so the same
    seed always yields the same candidates in the same order.
    """
    rng = random.Random(seed)
    out: list[Candidate] = []
    for sub in subtopics(domains):
        domain = get_domain(sub.domain)
        world = domain.world(world_seed)
        for workflow in WORKFLOWS:
            templates = sub.templates.get(workflow, [])
            for attempt in range(attempts_per_cell if templates else 0):
                template = templates[attempt % len(templates)]
                ctx = TemplateContext(domain, world, random.Random(rng.getrandbits(64)))
                try:
                    draft: Draft | None = template(ctx)
                    reason = ""
                except NoFit as exc:
                    draft, reason = None, f"{template.__name__}: {exc}"
                except Exception as exc:  # a template bug drops its candidate, not the build
                    draft, reason = None, f"{template.__name__} raised {type(exc).__name__}: {exc}"
                out.append(Candidate(sub, workflow, attempt + 1, draft, reason, template.__name__))
    return out


def task_id(subtopic: str, workflow: str, number: int) -> str:
    """The shipped id of the ``number``-th task of a (subtopic, workflow) cell."""
    return f"tbx-{slug(subtopic)}-{workflow[:3]}-{number:02d}"


def normalized_prompt(text: str) -> str:
    """The prompt as compared for duplicates: lowercase words only."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def question_key(task: TaskSpec) -> str:
    """What makes two tasks the same question, however they are worded.

    The same calls (in any order), the same operation over the same fields, the same
    answer and the same writes: "the most days left on A, B and C" and "on B, A and C"
    are one question, whose second copy would only count a model's answer twice.
    """
    ref = task.reference
    return dumps(
        [
            task.domain,
            sorted(dumps([step.tool, step.args]) for step in ref.steps),
            ref.answer_spec.op,
            sorted(dumps(path[1:]) for path in ref.answer_spec.refs),
            ref.answer,
            ref.end_state if ref.writes else None,
        ]
    )


@dataclass
class Asked:
    """The prompts and questions of the tasks kept so far, each by the first to ask it.

    The build's screen and ``toolchaos validate`` both refuse a task that repeats one
    kept before: the same normalized prompt, or the same :func:`question_key`.
    """

    prompts: dict[str, str] = field(default_factory=dict)
    questions: dict[str, str] = field(default_factory=dict)

    def by_prompt(self, prompt: str) -> str | None:
        """The task kept before with this prompt (normalized), if any."""
        return self.prompts.get(normalized_prompt(prompt))

    def by_question(self, task: TaskSpec) -> str | None:
        """The task kept before that asks what ``task`` asks, if any."""
        return self.questions.get(question_key(task))

    def keep(self, task: TaskSpec, name: str) -> None:
        """Remember ``task`` (as ``name``) as the first to ask its prompt and question."""
        self.prompts.setdefault(normalized_prompt(task.prompt), name)
        self.questions.setdefault(question_key(task), name)
