"""What a reviewer sees of one ToolBench-X task, built by replaying it, in the terminal or HTML.

:func:`task_view` gathers everything a reviewer needs into one :class:`TaskView`: the
prompt and system prompt, the tools as the agent sees them in the hazard arm, what the
hazard changes (its variant and target, its parameters, where the docs and the backend
disagree), the recovery recipe in words, the reference path with the arguments it
resolves to when replayed in the clean world, and the reference answer, or for a task
that writes, the rows the reference writes. :func:`print_view` draws it with rich (it
wraps to the console's width; 80 columns is enough) and :func:`render_view_html` as one
self-contained page. Task text is data in both: rich markup and HTML in a prompt or a
tool result are shown as written, never interpreted. :class:`ToolBenchXDesk` offers them
to ``toolchaos review`` through the suite's ``review_desk``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jinja2
from pydantic import BaseModel
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from toolchaos.agents.native import opening_messages
from toolchaos.core.errors import ToolError
from toolchaos.core.reference import resolve
from toolchaos.core.types import (
    AnswerSpec,
    Episode,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    ToolCall,
    ToolSpec,
)
from toolchaos.domains import get_domain, make_world
from toolchaos.env.runtime import Env
from toolchaos.hazards import VARIANTS
from toolchaos.suites.toolbench_x.changelog import make_env
from toolchaos.suites.toolbench_x.review import CATEGORIES, content_key, task_logic
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference

RESULT_CHARS = 400
"""How much of a step's result the terminal shows (the HTML page shows all of it)."""
ENCOUNTER_CHARS = 1200
"""How much of what the hazard returned the terminal shows: what changed must be in it."""


class ParamDoc(BaseModel):
    """One documented parameter of a tool."""

    name: str
    type: str
    required: bool
    description: str


class ToolDoc(BaseModel):
    """A tool as its documentation presents it."""

    name: str
    kind: str
    description: str
    params: list[ParamDoc]


class Encounter(BaseModel):
    """One call the hazard hit while the oracle played under it, and what came back."""

    call: str
    detail: str
    observation: str


class HazardView(BaseModel):
    """What the task's hazard does, what the agent meets, and how the recipe gets past it.

    ``encounters`` come from playing the oracle (which follows the recipe) under the
    hazard; ``checks`` say whether the oracle and the naive baseline end where they should.
    """

    family: str
    variant: str
    tier: str | None
    what: str
    tool: str
    ordinals: str
    params: dict[str, Any]
    changes: list[str]
    encounters: list[Encounter]
    oracle_path: list[Encounter]
    checks: list[str]
    recovery: list[str]


class StepView(BaseModel):
    """One reference step with its resolved arguments and what it returned (clean world)."""

    number: int
    tool: str
    kind: str
    arguments: dict[str, Any]
    result: str


class TaskView(BaseModel):
    """Everything ``toolchaos review show`` shows of one task."""

    id: str
    key: str
    logic: str
    dataset: str
    dataset_sha256: str
    workflow: str
    domain: str
    topic: str
    subtopic: str
    world_date: str
    arm: str
    prompt: str
    system: str
    tools: list[ToolDoc]
    hazard: HazardView | None
    hints: list[str]
    steps: list[StepView]
    writes: bool
    answer: str
    aliases: list[str]
    rule: str
    end_state: str | None
    state_changes: list[str]
    problems: list[str]


# -- building the view ---------------------------------------------------------------------


def task_view(task: TaskSpec, dataset: str, dataset_sha256: str) -> TaskView:
    """Replay ``task``'s reference in the clean world and gather what a reviewer needs."""
    domain = get_domain(task.domain)
    arm = "hazard" if task.hazard is not None else "clean"
    env = make_env(task, arm, domain)
    problems: list[str] = []
    steps: list[StepView] = []
    changes: list[str] = []
    try:
        run = replay_reference(task)
    except (ValueError, ToolError, KeyError) as exc:  # as validate_task catches them
        problems.append(f"the reference path does not run in the clean world: {exc}")
    else:
        steps, changes, end_state = _replayed(task, run.results)
        if task.reference.writes and end_state != task.reference.end_state:
            problems.append("the replayed end state differs from the stored one")
        if not task.reference.writes and run.answer != task.reference.answer:
            problems.append(f"the replayed answer {run.answer!r} differs from the stored one")
    world = make_world(task, domain)
    return TaskView(
        id=task.id,
        key=content_key(task),
        logic=task_logic(task),
        dataset=dataset,
        dataset_sha256=dataset_sha256,
        workflow=task.workflow,
        domain=task.domain,
        topic=task.topic,
        subtopic=task.subtopic,
        world_date=f"{world.now():%A %Y-%m-%d %H:%M} UTC",
        arm=arm,
        prompt=task.prompt,
        system=opening_messages(task, arm)[0].content or "",
        tools=[_tool_doc(spec) for spec in env.toolbox()],
        hazard=_hazard_view(task, env),
        hints=_hints(task),
        steps=steps,
        writes=task.reference.writes,
        answer=task.reference.answer,
        aliases=list(task.reference.aliases),
        rule=answer_rule(task.reference.answer_spec),
        end_state=task.reference.end_state,
        state_changes=changes,
        problems=problems,
    )


def _replayed(task: TaskSpec, results: dict[int, Any]) -> tuple[list[StepView], list[str], str]:
    """The steps with resolved arguments, the rows they write, and the end state.

    The resolved calls are played once more in a fresh clean env, so the rows written
    can be compared with the world before them.
    """
    domain = get_domain(task.domain)
    env = make_env(task, "clean", domain)
    steps = []
    for index, step in enumerate(task.reference.steps):
        arguments = resolve(step.args, results)
        env.call(ToolCall(id=f"review_{index}", name=step.tool, arguments=json.dumps(arguments)))
        steps.append(
            StepView(
                number=index + 1,
                tool=step.tool,
                kind=domain.tools[step.tool].kind.value,
                arguments=arguments,
                result=json.dumps(results.get(index), ensure_ascii=False, sort_keys=True),
            )
        )
    before = make_world(task, domain)
    changes = []
    for table in sorted(env.world.written_tables()):
        old, new = before.table(table), env.world.table(table)
        for key in sorted(set(old) | set(new)):
            changes.extend(_row_change(table, key, old.get(key), new.get(key)))
    return steps, changes, env.end_state()


def _row_change(table: str, key: str, old: Any, new: Any) -> list[str]:
    if old is None and new is not None:
        return [f"{table}: new row {key}: {_compact(new.model_dump(mode='json'))}"]
    if new is None and old is not None:
        return [f"{table}: row {key} deleted"]
    if old is None or new is None:
        return []
    before, after = old.model_dump(mode="json"), new.model_dump(mode="json")
    return [
        f"{table}: row {key}: {name} {_compact(before.get(name))} -> {_compact(value)}"
        for name, value in after.items()
        if before.get(name) != value
    ]


def _tool_doc(spec: ToolSpec) -> ToolDoc:
    properties: dict[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    params = []
    for name, schema in properties.items():
        description = str(schema.get("description", ""))
        if "enum" in schema:
            description += f" One of: {', '.join(str(v) for v in schema['enum'])}."
        params.append(
            ParamDoc(
                name=name,
                type=_type_name(schema),
                required=name in required,
                description=description.strip(),
            )
        )
    return ToolDoc(
        name=spec.name, kind=spec.kind.value, description=reflow(spec.description), params=params
    )


def reflow(text: str) -> str:
    """Docstring text as paragraphs: the hard line breaks inside a paragraph become spaces.

    Lines that start a list item (``-``, ``*`` or ``1.``) keep their own line.
    """
    paragraphs = []
    for block in text.strip().split("\n\n"):
        lines: list[str] = []
        for line in block.splitlines():
            stripped = line.strip()
            if lines and not re.match(r"([-*]|\d+[.)])\s", stripped):
                lines[-1] += " " + stripped
            else:
                lines.append(stripped)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _type_name(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if kind == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_type_name(schema['items'])}"
    return str(kind)


def _hazard_view(task: TaskSpec, env: Env) -> HazardView | None:
    spec = task.hazard
    if spec is None or env.hazard is None:
        return None
    cls = VARIANTS.get((spec.family, spec.variant))
    what = cls.summary if cls is not None and cls.summary else ""
    if not what and cls is not None and cls.__doc__:
        what = cls.__doc__.strip().splitlines()[0]
    oracle = play_sync(task, "oracle", "hazard")
    tier = getattr(spec, "tier", None) or spec.params.get("tier") or task.metadata.get("tier")
    first = getattr(cls, "tiers", ())  # the tiers a variant plays at, where variants say
    if not tier and first:
        tier = f"not recorded; plays as {first[0]}, its variant's first tier"
    return HazardView(
        family=spec.family.value,
        variant=spec.variant,
        tier=str(tier) if tier else None,
        what=what,
        tool=spec.tool,
        ordinals="every call" if spec.ordinals == "all" else _ordinals(spec.ordinals),
        params=spec.params,
        changes=_doc_changes(task, env),
        encounters=_encounters(oracle),
        oracle_path=_encounters(oracle, every=True),
        checks=[
            f"the oracle, following the recipe, {_outcome(oracle, task)} under the hazard "
            f"in {len(oracle.trace)} calls (the clean reference: {len(task.reference.steps)})",
            f"the naive baseline {_outcome(play_sync(task, 'naive', 'hazard'), task)} "
            "under the hazard",
        ],
        recovery=[recovery_words(step) for step in spec.recovery],
    )


def _encounters(episode: Episode, every: bool = False) -> list[Encounter]:
    """The calls the hazard hit (``every``: all calls) and what came back."""
    out = []
    for entry in episode.trace:
        events = entry.observation.hazard_events
        if events or every:
            out.append(
                Encounter(
                    call=f"{entry.call.name} {_readable_json(entry.call.arguments)}",
                    detail="; ".join(e.detail for e in events),
                    observation=("error: " if not entry.observation.ok else "")
                    + _compact(entry.observation.content),
                )
            )
    return out


def _outcome(episode: Episode, task: TaskSpec) -> str:
    return "reaches the reference" if episode_correct(episode, task) else "fails"


def _ordinals(ordinals: list[int]) -> str:
    words = ", ".join(f"#{n}" for n in ordinals)
    return f"call{'s' if len(ordinals) > 1 else ''} {words}"


def _doc_changes(task: TaskSpec, env: Env) -> list[str]:
    """Where the hazard arm's docs differ from the clean docs, and the backend from the docs."""
    clean = {s.name: s for s in make_env(task, "clean", env.domain).toolbox()}
    out = []
    for spec in env.toolbox():
        before = clean.get(spec.name)
        if before is None:
            out.append(f"the docs add tool {spec.name}")
            continue
        out += [f"the docs of {spec.name} now: {c}" for c in schema_changes(before, spec)]
    for name in clean:
        if name not in {s.name for s in env.toolbox()}:
            out.append(f"the docs no longer list tool {name}")
    assert env.hazard is not None
    for spec in env.toolbox():
        backend = env.hazard.backend_spec(spec)
        differences = schema_changes(spec, backend)
        out += [f"the backend of {spec.name}, unlike its docs: {c}" for c in differences]
    return out


def schema_changes(documented: ToolSpec, other: ToolSpec) -> list[str]:
    """How ``other``'s parameters and description differ from ``documented``'s, in words."""
    a = documented.parameters.get("properties", {})
    b = other.parameters.get("properties", {})
    req_a = set(documented.parameters.get("required", []))
    req_b = set(other.parameters.get("required", []))
    out = []
    if documented.description != other.description:
        out.append("a different description")
    for name in a:
        if name not in b:
            out.append(f"no parameter '{name}'")
    for name in b:
        if name not in a:
            needed = "required" if name in req_b else "optional"
            out.append(f"a parameter '{name}' ({needed})")
    for name in a:
        if name not in b:
            continue
        if (name in req_a) != (name in req_b):
            out.append(f"'{name}' is {'required' if name in req_b else 'optional'}")
        if a[name].get("enum") != b[name].get("enum"):
            values = ", ".join(str(v) for v in b[name].get("enum", [])) or "any value"
            out.append(f"'{name}' takes {values}")
        elif a[name] != b[name]:
            out.append(f"'{name}' is described differently")
    return out


def _hints(task: TaskSpec) -> list[str]:
    if task.hints is None:
        return []
    when = "at the start" if task.hints.delivery == "start" else "on the first anomaly"
    out = [f"minimal ({when}): {task.hints.minimal}"]
    if task.hints.detailed:
        out.append(f"detailed: {task.hints.detailed}")
    return out


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _readable_json(text: str) -> str:
    """JSON text with spaces after its separators (so it wraps); other text as it is."""
    try:
        return _compact(json.loads(text))
    except ValueError:
        return text


def _names(mapping: dict[str, Any]) -> str:
    return ", ".join(f"'{k}' -> '{v}'" for k, v in mapping.items())


def recovery_words(step: RecoveryStep) -> str:
    """One recipe step as a sentence a reviewer can check against the hazard."""
    p = step.params
    action = step.action
    if action == RecoveryAction.RETRY:
        return f"Call again with the same arguments (up to {p.get('max_attempts', 3)} attempts)."
    if action == RecoveryAction.FALLBACK:
        mapping = p.get("args_map", {})
        passed = ", ".join(f"'{old}' as '{new}'" for new, old in mapping.items())
        return f"Switch to {p.get('tool')}, passing {passed or 'the same arguments'}."
    if action == RecoveryAction.ADAPT:
        parts = []
        if p.get("rename_args"):
            parts.append(f"rename arguments {_names(p['rename_args'])}")
        for name, values in p.get("map_values", {}).items():
            parts.append(f"send '{name}' values as {_names(values)}")
        for name, how in p.get("reformat_args", {}).items():
            form = "DD/MM/YYYY" if how == "dmy" else how
            parts.append(f"write '{name}' as {form}")
        for name, how in p.get("normalize_args", {}).items():
            form = "upper case, no spaces" if how == "upper" else how
            parts.append(f"write '{name}' in {form}")
        for name, value in p.get("fill_args", {}).items():
            parts.append(f"pass '{name}' = {_compact(value)} explicitly")
        return "Change the call and retry: " + ("; ".join(parts) or _compact(p)) + "."
    if action == RecoveryAction.RESOLVE:
        where = " -> ".join(str(k) for k in p.get("id_path", []))
        probe = p.get("probe")
        if isinstance(probe, dict):
            return (
                f"Look the '{p.get('param')}' name up with {p.get('tool')} "
                f"('{p.get('query_param')}'), open each candidate with {probe.get('tool')} "
                f"('{probe.get('param')}'), take the one whose {probe.get('field')} is "
                f"{_compact(probe.get('value'))} and call again with its id."
            )
        return (
            f"Look the '{p.get('param')}' name up with {p.get('tool')} "
            f"('{p.get('query_param')}'), take the id at {where} and call again with it."
        )
    if action == RecoveryAction.VERIFY_STATE:
        return (
            f"After the timeout, list with {p.get('tool')} whether the write went through "
            "before repeating it (never write twice)."
        )
    if action == RecoveryAction.CONSULT:
        return (
            f"Read the service changelog about {p.get('tool', 'the tool')} to learn what "
            "changed, then make the change it names."
        )
    if action == RecoveryAction.PROBE:
        left = ", ".join(f"'{n}'" for n in p.get("drop", []))
        sent = ", ".join(f"'{n}' = {_compact(v)}" for n, v in p.get("set", {}).items())
        how = " and ".join(x for x in (f"without {left}" if left else "", sent) if x)
        return (
            f"Call again {how or 'as it is'} and read from the backend's answer what it "
            "expects now (the docs and the changelog do not say)."
        )
    if action == RecoveryAction.REALIGN:
        return (
            f"Compare the day a result gives in '{p.get('field')}' with the '{p.get('param')}' "
            "sent; where they differ, move the date by the difference and call again."
        )
    if action == RecoveryAction.NORMALIZE:
        return f"Read renamed result fields back: {_names(p.get('rename', {}))}."
    if action == RecoveryAction.CONVERT:
        return (
            f"Convert '{p.get('field')}' back to the documented unit "
            f"(divide by {p.get('divide_by')})."
        )
    if action == RecoveryAction.COERCE:
        return f"Read '{p.get('field')}' as a number, though it arrives as text."
    if action == RecoveryAction.UNWRAP:
        return f"Take the result out of its '{p.get('key', 'data')}' envelope."
    if action == RecoveryAction.REFORMAT:
        return f"Read the dates in '{p.get('field')}' as DD.MM.YYYY."
    if action == RecoveryAction.REQUERY:
        if p.get("equals_arg"):
            return (
                f"If the result's '{p.get('field')}' is not the '{p.get('equals_arg')}' "
                "asked for, the response was meant for another request: call again."
            )
        return f"If '{p.get('field')}' is missing from the result, call again."
    if action == RecoveryAction.NEXT_PAGE:
        return (
            f"Fetch every page ('{p.get('param', 'page')}' = next_page) and join the "
            f"'{p.get('list', 'results')}' lists."
        )
    if action == RecoveryAction.CROSS_CHECK:
        alternatives = ", ".join(p.get("alternatives", []))
        prefer = p.get("prefer", "majority")
        rule = {
            "fresh": f"the freshest value (latest '{p.get('time_field', 'as_of')}')",
            "authoritative": f"the authoritative source's value ({p.get('authoritative')})",
            "majority": "the value most sources agree on",
        }.get(prefer, f"the {prefer} value")
        return f"Ask {alternatives} for the same item too and keep, for '{p.get('field')}', {rule}."
    return f"{action}: {_compact(p)}"


def answer_rule(spec: AnswerSpec) -> str:
    """How the reference answer is computed from the steps, in words."""
    if spec.op == "none":
        return "no answer is read out (the end state is scored)"
    refs = [f"step {int(r[0]) + 1} {'.'.join(str(k) for k in r[1:])}" for r in spec.refs]
    listed = ", ".join(refs)
    words = {
        "value": f"the value of {listed}",
        "sum": f"the sum of {listed}",
        "min": f"the smallest of {listed}",
        "max": f"the largest of {listed}",
        "count": f"the count of {listed}",
        "argmin": f"which of {_labels(spec)} has the smallest of {listed}",
        "argmax": f"which of {_labels(spec)} has the largest of {listed}",
    }[spec.op]
    if spec.round is not None:
        words += f", rounded to {spec.round} decimals"
    if spec.unit:
        words += f", in {spec.unit}"
    return words


def _labels(spec: AnswerSpec) -> str:
    return ", ".join(str(label) for label in spec.labels) or "the items"


# -- terminal ------------------------------------------------------------------------------


def _section(title: str, *body: Any) -> Panel:
    return Panel(Group(*body), title=escape(title), title_align="left", padding=(0, 1))


def _lines(items: list[str], numbered: bool = False) -> Text:
    text = Text()
    for index, item in enumerate(items, start=1):
        if index > 1:
            text.append("\n")
        text.append(f"{index}. " if numbered else "- ")
        text.append(item)
    return text


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def print_view(view: TaskView, console: Console) -> None:
    """Draw ``view`` on ``console``, wrapped to its width (80 columns fit)."""
    head = Text(view.id, style="bold")
    head.append(f"\n{view.workflow} · {view.topic} / {view.subtopic} · {view.domain}")
    head.append(f"\nworld date: {view.world_date}")
    head.append(f"\ndataset: {view.dataset} (sha256 {view.dataset_sha256[:12]})")
    head.append(f"\ncontent key: {view.key}" + (f" · logic: {view.logic}" if view.logic else ""))
    console.print(head)
    if view.problems:
        console.print(_section("Problems", _lines(view.problems)), style="red")
    console.print(_section("Prompt", Text(view.prompt)))
    console.print(_section(f"System prompt ({view.arm} arm)", Text(view.system)))
    tools: list[Any] = []
    target = view.hazard.tool if view.hazard is not None else None
    for tool in view.tools:
        mark = ", the hazard's target" if tool.name == target else ""
        tools.append(Text(f"{tool.name} ({tool.kind}{mark})", style="bold"))
        tools.append(Text(tool.description))
        if tool.params:
            table = Table(show_edge=False, pad_edge=False, expand=True)
            table.add_column("parameter", overflow="fold", ratio=2)
            table.add_column("type", overflow="fold", ratio=1)
            table.add_column("req", width=3)
            table.add_column("description", overflow="fold", ratio=5)
            for param in tool.params:
                table.add_row(
                    Text(param.name),
                    Text(param.type),
                    "yes" if param.required else "no",
                    Text(param.description),
                )
            tools.append(table)
        tools.append(Text(""))
    console.print(_section(f"Tools as the agent sees them ({view.arm} arm)", *tools[:-1]))
    if view.hazard is not None:
        hazard = view.hazard
        about = Text(f"{hazard.family} / {hazard.variant}", style="bold")
        about.append(f"\ntier: {hazard.tier or 'not recorded'}")
        about.append(f"\ntarget: {hazard.tool}, {hazard.ordinals}")
        if hazard.what:
            about.append(f"\nwhat it does: {hazard.what}")
        about.append(f"\nparameters: {_compact(hazard.params)}")
        body: list[Any] = [about]
        if hazard.changes:
            body += [Text("\nwhat the agent's docs and the backend say", style="bold")]
            body.append(_lines(hazard.changes))
        if hazard.encounters:
            body += [Text("\nwhat the agent meets (the oracle under the hazard)", style="bold")]
            for number, seen in enumerate(hazard.encounters, start=1):
                line = Text(f"{number}. {seen.call}\n   -> ")
                line.append(_short(seen.observation, ENCOUNTER_CHARS))
                line.append(f"\n   ({seen.detail})", style="dim")
                body.append(line)
        body += [Text(""), _lines(hazard.checks)]
        console.print(_section("Hazard", *body))
        console.print(_section("Recovery path", _lines(hazard.recovery, numbered=True)))
    if view.hints:
        console.print(_section("Hints (hint arm)", _lines(view.hints)))
    steps = []
    for step in view.steps:
        line = Text(f"{step.number}. {step.tool}", style="bold")
        line.append(f" ({step.kind}) ")
        line.append(_compact(step.arguments), style="")
        line.append("\n   -> ")
        line.append(_short(step.result, RESULT_CHARS))
        steps.append(line)
    console.print(_section("Reference path (replayed in the clean world)", *steps))
    answer = Text()
    if view.writes:
        answer.append("the task writes; scored on the end state", style="bold")
        answer.append(f"\nend state: {view.end_state}")
        answer.append("\nwhat the reference writes:\n")
        answer.append_text(_lines(view.state_changes or ["nothing"]))
        if view.answer:
            answer.append(f"\nanswer read out: {view.answer}")
    else:
        answer.append("answer: ", style="bold")
        answer.append(view.answer)
        answer.append(f"\naliases: {', '.join(view.aliases) if view.aliases else 'none'}")
        answer.append(f"\nrule: {view.rule}")
    console.print(_section("Reference", answer))


# -- HTML ----------------------------------------------------------------------------------


def render_view_html(view: TaskView) -> str:
    """The view as one self-contained HTML page; every task text is escaped."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("toolchaos.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["compact"] = _compact
    return env.get_template("review.html.j2").render(view=view)


# -- the desk ------------------------------------------------------------------------------


class ToolBenchXDesk:
    """ToolBench-X's side of ``toolchaos review`` (:class:`~toolchaos.suites.review.ReviewDesk`).

    Reviewers assign a hazard family; a task is known by its :func:`content_key`.
    """

    categories: tuple[str, ...] = CATEGORIES

    def content_key(self, task: TaskSpec) -> str:
        """The task's normalized-prompt key (see :func:`content_key`)."""
        return content_key(task)

    def category_of(self, task: TaskSpec) -> str | None:
        """The family of the task's own hazard."""
        return task.hazard.family.value if task.hazard is not None else None

    def show(self, task: TaskSpec, dataset: str, dataset_sha256: str, console: Console) -> None:
        """Replay the task and draw what a reviewer needs (see :func:`task_view`)."""
        print_view(task_view(task, dataset, dataset_sha256), console)

    def html(self, task: TaskSpec, dataset: str, dataset_sha256: str) -> str:
        """The same as one self-contained HTML page."""
        return render_view_html(task_view(task, dataset, dataset_sha256))
