"""Where a hazard fits a task: each variant proposes the hazard specs it could plan.

A variant fits only where it makes sense: a fallback needs a real alternative tool, a
renamed field must be one the task's path reads, a unit change must feed a number the
answer reports. The build picks among the proposals and keeps one only if the oracle
recovers and the naive baseline fails under it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.reference import Unresolved, follow, is_ref, ref_steps, resolve
from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep, TaskSpec, ToolKind
from toolchaos.core.values import ISO_DATE, is_number
from toolchaos.domains import Domain, make_world


@dataclass
class Proposal:
    """A candidate hazard for a task.

    It carries the tools the toolbox must gain for it and any change the task needs so the
    hazard can bite (e.g. an id written loosely in the prompt).
    """

    spec: HazardSpec
    extra_tools: list[str] = field(default_factory=list)
    task_update: dict[str, Any] = field(default_factory=dict)


Results = dict[int, Any]
Proposer = Callable[[TaskSpec, Domain, random.Random, Results], list[Proposal]]
PROPOSERS: dict[tuple[HazardFamily, str], Proposer] = {}


def proposes(family: HazardFamily, variant: str) -> Callable[[Proposer], Proposer]:
    """Register the proposer of one hazard variant."""

    def decorate(fn: Proposer) -> Proposer:
        PROPOSERS[(family, variant)] = fn
        return fn

    return decorate


def step_tools(task: TaskSpec) -> list[str]:
    """The distinct tools of the task's reference path, in order."""
    seen: list[str] = []
    for step in task.reference.steps:
        if step.tool not in seen:
            seen.append(step.tool)
    return seen


def read_paths(task: TaskSpec) -> list[list[Any]]:
    """Every ref path the task's path reads: argument refs and answer refs."""
    paths: list[list[Any]] = []

    def walk(value: Any) -> None:
        if is_ref(value):
            paths.append(list(value["$ref"]))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for step in task.reference.steps:
        walk(step.args)
    paths.extend(list(r) for r in task.reference.answer_spec.refs)
    walk(task.reference.answer_spec.labels)
    return paths


# -- helpers ---------------------------------------------------------------------------------

ID_LIKE = re.compile(r"^(?=.*[A-Z])(?=.*\d)[A-Z0-9][A-Z0-9-]*$")
NUMERIC_OPS = ("value", "sum", "min", "max")
"""Answer ops whose answer is a number read from a result field."""


def _tool_count(task: TaskSpec, tool: str) -> int:
    return sum(step.tool == tool for step in task.reference.steps)


def _spec(
    family: HazardFamily,
    variant: str,
    tool: str,
    params: dict[str, Any],
    recovery: list[RecoveryStep],
    ordinals: list[int] | None = None,
) -> HazardSpec:
    return HazardSpec(
        family=family,
        variant=variant,
        tool=tool,
        ordinals=ordinals if ordinals is not None else "all",
        params=params,
        recovery=recovery,
    )


def _value_at(results: Results, path: list[Any]) -> Any:
    try:
        return follow(results, path)
    except Unresolved:
        return None


def _answer_fields(task: TaskSpec, results: Results) -> list[tuple[int, str, Any]]:
    """(step, field, clean value) for every answer ref that ends in a field name."""
    out = []
    for path in task.reference.answer_spec.refs:
        if isinstance(path[-1], str):
            out.append((int(path[0]), str(path[-1]), _value_at(results, list(path))))
    return out


# -- specification drift ----------------------------------------------------------------------


@proposes(HazardFamily.SPECIFICATION_DRIFT, "renamed_parameter")
def _renamed_param(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for step in task.reference.steps:
        for name in step.args:
            if (step.tool, name) in seen:
                continue
            seen.add((step.tool, name))
            new = _camel(name) if "_" in name else f"{name}_value"
            params = {"param": name, "to": new}
            recipe = [RecoveryStep(action="adapt", params={"rename_args": {name: new}})]
            out.append(
                Proposal(
                    _spec(
                        HazardFamily.SPECIFICATION_DRIFT,
                        "renamed_parameter",
                        step.tool,
                        params,
                        recipe,
                    )
                )
            )
    return out


def _swap_case(value: str) -> str:
    return value.lower() if value != value.lower() else value.upper()


@proposes(HazardFamily.SPECIFICATION_DRIFT, "changed_enum")
def _changed_enum(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    for step in task.reference.steps:
        props = domain.tools[step.tool].spec.parameters["properties"]
        for name, value in step.args.items():
            values = props.get(name, {}).get("enum")
            if not values or value not in values or not isinstance(value, str):
                continue
            mapping = {str(v): _swap_case(str(v)) for v in values}
            recipe = [RecoveryStep(action="adapt", params={"map_values": {name: mapping}})]
            spec = _spec(
                HazardFamily.SPECIFICATION_DRIFT,
                "changed_enum",
                step.tool,
                {"param": name, "mapping": mapping},
                recipe,
            )
            out.append(Proposal(spec))
    return out


@proposes(HazardFamily.SPECIFICATION_DRIFT, "deprecated_tool")
def _deprecated(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    versions: dict[str, Any] = domain.notes.get("v2", {})
    out = []
    for tool in step_tools(task):
        if tool in versions:
            v2 = versions[tool]
            recipe = [RecoveryStep(action="fallback", params=dict(v2))]
            spec = _spec(
                HazardFamily.SPECIFICATION_DRIFT,
                "deprecated_tool",
                tool,
                {"v2": v2["tool"]},
                recipe,
            )
            out.append(Proposal(spec, extra_tools=[v2["tool"]]))
    return out


@proposes(HazardFamily.SPECIFICATION_DRIFT, "parameter_format")
def _param_format(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for step in task.reference.steps:
        try:
            args = resolve(step.args, results)
        except Unresolved:
            continue
        for name, value in args.items():
            if (
                not (isinstance(value, str) and ISO_DATE.fullmatch(value))
                or (step.tool, name) in seen
            ):
                continue
            seen.add((step.tool, name))
            recipe = [RecoveryStep(action="adapt", params={"reformat_args": {name: "dmy"}})]
            spec = _spec(
                HazardFamily.SPECIFICATION_DRIFT,
                "parameter_format",
                step.tool,
                {"param": name, "format": "DD/MM/YYYY"},
                recipe,
            )
            out.append(Proposal(spec))
    return out


# -- invocation error ------------------------------------------------------------------------


@proposes(HazardFamily.INVOCATION_ERROR, "strict_format")
def _strict(task: TaskSpec, domain: Domain, rng: random.Random, results: Results) -> list[Proposal]:
    out = []
    for index, step in enumerate(task.reference.steps):
        for name, value in step.args.items():
            if not (isinstance(value, str) and ID_LIKE.match(value) and value in task.prompt):
                continue
            loose = value.lower()
            steps = [
                s.model_copy(update={"args": {**s.args, name: loose}}) if i == index else s
                for i, s in enumerate(task.reference.steps)
            ]
            reference = task.reference.model_copy(update={"steps": steps})
            update = {"prompt": task.prompt.replace(value, loose), "reference": reference}
            recipe = [RecoveryStep(action="adapt", params={"normalize_args": {name: "upper"}})]
            spec = _spec(
                HazardFamily.INVOCATION_ERROR,
                "strict_format",
                step.tool,
                {"param": name, "rule": "upper-case id"},
                recipe,
            )
            out.append(Proposal(spec, task_update=update))
    return out


@proposes(HazardFamily.INVOCATION_ERROR, "missing_field")
def _missing_arg(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for step in task.reference.steps:
        props = domain.tools[step.tool].spec.parameters["properties"]
        for name, schema in props.items():
            if name in step.args or "default" not in schema or (step.tool, name) in seen:
                continue
            seen.add((step.tool, name))
            recipe = [RecoveryStep(action="adapt", params={"fill_args": {name: schema["default"]}})]
            spec = _spec(
                HazardFamily.INVOCATION_ERROR, "missing_field", step.tool, {"param": name}, recipe
            )
            out.append(Proposal(spec))
    return out


@proposes(HazardFamily.INVOCATION_ERROR, "ambiguous_entity")
def _ambiguous(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    resolvers: dict[str, Any] = domain.notes.get("resolvers", {})
    out = []
    for step in task.reference.steps:
        how = resolvers.get(step.tool)
        if how is None:
            continue
        value = step.args.get(how["param"])
        if not isinstance(value, str):
            continue
        world = make_world(task, domain)
        try:
            found = domain.tools[how["tool"]](world, **{how["query_param"]: value})
            expected = follow({0: found}, [0, *how["id_path"]])
        except (ToolError, Unresolved):
            continue
        if str(expected).casefold() == value.casefold():
            continue
        recipe = [RecoveryStep(action="resolve", params=dict(how))]
        params = {
            "param": how["param"],
            "name": value,
            "expected_id": expected,
            "resolver": how["tool"],
        }
        spec = _spec(HazardFamily.INVOCATION_ERROR, "ambiguous_entity", step.tool, params, recipe)
        out.append(Proposal(spec, extra_tools=[how["tool"]]))
    return out


# -- execution failure -------------------------------------------------------------------------


@proposes(HazardFamily.EXECUTION_FAILURE, "transient")
def _transient(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    for tool in step_tools(task):
        k = rng.choice([1, 2])
        error = rng.choice(["503", "timeout", "rate_limit"])
        recipe = [RecoveryStep(action="retry", params={"max_attempts": k + 1})]
        spec = _spec(
            HazardFamily.EXECUTION_FAILURE,
            "transient",
            tool,
            {"error": error, "k": k},
            recipe,
            ordinals=list(range(1, k + 1)),
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.EXECUTION_FAILURE, "outage")
def _outage(task: TaskSpec, domain: Domain, rng: random.Random, results: Results) -> list[Proposal]:
    fallbacks: dict[str, Any] = domain.notes.get("fallbacks", {})
    out = []
    for tool in step_tools(task):
        if tool not in fallbacks:
            continue
        backup = fallbacks[tool]
        recipe = [
            RecoveryStep(
                action="fallback", params={"tool": backup["tool"], "args_map": backup["args_map"]}
            )
        ]
        spec = _spec(
            HazardFamily.EXECUTION_FAILURE, "outage", tool, {"fallback": backup["tool"]}, recipe
        )
        out.append(Proposal(spec, extra_tools=[backup["tool"]]))
    return out


@proposes(HazardFamily.EXECUTION_FAILURE, "paginated")
def _paginated(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[str] = set()
    for path in read_paths(task):
        if len(path) < 3 or path[1] != "results" or not isinstance(path[2], int) or path[2] < 1:
            continue
        tool = task.reference.steps[int(path[0])].tool
        if tool in seen or _tool_count(task, tool) != 1:
            continue
        seen.add(tool)
        items = _value_at(results, [path[0], "results"])
        if isinstance(items, list) and -(-len(items) // int(path[2])) > 5:
            continue  # more pages than an agent can fetch within its turn budget
        recipe = [RecoveryStep(action="next_page", params={"param": "page", "list": "results"})]
        spec = _spec(
            HazardFamily.EXECUTION_FAILURE, "paginated", tool, {"page_size": int(path[2])}, recipe
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.EXECUTION_FAILURE, "timeout_after_write")
def _timeout_write(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    verifiers: dict[str, Any] = domain.notes.get("write_verifiers", {})
    out = []
    steps = task.reference.steps
    for index, step in enumerate(steps):
        tool = domain.tools[step.tool]
        if tool.kind is not ToolKind.WRITE or step.tool not in verifiers:
            continue
        if _tool_count(task, step.tool) != 1:
            continue
        # the write must feed a later write, or a naive agent that stops still "succeeds"
        if not any(
            index in ref_steps(later.args) and domain.tools[later.tool].kind is ToolKind.WRITE
            for later in steps[index + 1 :]
        ):
            continue
        how = verifiers[step.tool]
        recipe = [RecoveryStep(action="verify_state", params=dict(how))]
        spec = _spec(
            HazardFamily.EXECUTION_FAILURE,
            "timeout_after_write",
            step.tool,
            {},
            recipe,
            ordinals=[1],
        )
        out.append(Proposal(spec, extra_tools=[how["tool"]]))
    return out


# -- output drift -----------------------------------------------------------------------------


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest) if rest else f"{name}Value"


@proposes(HazardFamily.OUTPUT_DRIFT, "renamed_field")
def _renamed(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for path in read_paths(task):
        keys = [k for k in path[1:] if isinstance(k, str)]
        if not keys:
            continue
        tool = task.reference.steps[int(path[0])].tool
        name = keys[-1]
        if (tool, name) in seen:
            continue
        seen.add((tool, name))
        new = _camel(name)
        recipe = [RecoveryStep(action="normalize", params={"rename": {new: name}})]
        spec = _spec(
            HazardFamily.OUTPUT_DRIFT, "renamed_field", tool, {"field": name, "to": new}, recipe
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "unit_change")
def _unit(task: TaskSpec, domain: Domain, rng: random.Random, results: Results) -> list[Proposal]:
    conversions: dict[str, Any] = domain.notes.get("unit_conversions", {})
    answer = task.reference.answer_spec
    if answer.op not in NUMERIC_OPS:
        return []
    out = []
    for path in answer.refs:
        name = path[-1]
        if not isinstance(name, str) or name not in conversions:
            continue
        conv = conversions[name]
        tool = task.reference.steps[int(path[0])].tool
        back = {"field": name, "divide_by": conv["factor"], "unit": conv["to_unit"]}
        recipe = [RecoveryStep(action="convert", params=back)]
        params = {"field": name, "factor": conv["factor"], "unit": conv["to_unit"]}
        spec = _spec(HazardFamily.OUTPUT_DRIFT, "unit_change", tool, params, recipe)
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "number_as_string")
def _number_string(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    if task.reference.answer_spec.op not in ("sum", "min", "max", "argmin", "argmax"):
        return []
    out = []
    seen: set[tuple[str, str]] = set()
    for step, name, value in _answer_fields(task, results):
        tool = task.reference.steps[step].tool
        if not is_number(value) or (tool, name) in seen:
            continue
        seen.add((tool, name))
        recipe = [RecoveryStep(action="coerce", params={"field": name})]
        spec = _spec(HazardFamily.OUTPUT_DRIFT, "number_as_string", tool, {"field": name}, recipe)
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "nested_shape")
def _nested(task: TaskSpec, domain: Domain, rng: random.Random, results: Results) -> list[Proposal]:
    tools = {task.reference.steps[int(path[0])].tool for path in read_paths(task)}
    out = []
    for tool in sorted(tools):
        recipe = [RecoveryStep(action="unwrap", params={"key": "data"})]
        spec = _spec(HazardFamily.OUTPUT_DRIFT, "nested_shape", tool, {"key": "data"}, recipe)
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "missing_field")
def _missing_output(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for path in read_paths(task):
        if not isinstance(path[-1], str):
            continue
        tool = task.reference.steps[int(path[0])].tool
        name = str(path[-1])
        if (tool, name) in seen or _tool_count(task, tool) != 1:
            continue
        if domain.tools[tool].kind is ToolKind.WRITE:
            continue  # asking a write again would write twice
        seen.add((tool, name))
        recipe = [RecoveryStep(action="requery", params={"field": name})]
        spec = _spec(
            HazardFamily.OUTPUT_DRIFT, "missing_field", tool, {"field": name}, recipe, ordinals=[1]
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "locale_date")
def _locale_date(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    if task.reference.answer_spec.op != "value":
        return []
    out = []
    for step, name, value in _answer_fields(task, results):
        if not (isinstance(value, str) and ISO_DATE.fullmatch(value)):
            continue
        tool = task.reference.steps[step].tool
        recipe = [RecoveryStep(action="reformat", params={"field": name, "from": "DD.MM.YYYY"})]
        spec = _spec(HazardFamily.OUTPUT_DRIFT, "locale_date", tool, {"field": name}, recipe)
        out.append(Proposal(spec))
    return out


# -- cross-source conflict ----------------------------------------------------------------------


def _conflicts(task: TaskSpec, domain: Domain, results: Results, variant: str) -> list[Proposal]:
    sources: dict[str, Any] = domain.notes.get("sources", {})
    if task.reference.answer_spec.op not in NUMERIC_OPS:
        return []
    out = []
    seen: set[tuple[str, str]] = set()
    for path in task.reference.answer_spec.refs:
        if len(path) != 2 or not isinstance(path[1], str):
            continue
        step = task.reference.steps[int(path[0])]
        if (step.tool, path[1]) in seen:
            continue
        seen.add((step.tool, path[1]))
        how = sources.get(step.tool)
        if how is None or path[1] not in how.get("fields", []):
            continue
        if not is_number(_value_at(results, list(path))):
            continue
        authority = str(how.get("authoritative", ""))
        alternatives = [a for a in how["alternatives"] if a != step.tool]
        time_field = str(how.get("time_field", "as_of"))
        if variant == "stale_source":
            chosen, prefer, factor = alternatives[:1], "fresh", 1.2
        elif variant == "corrupted_outlier":
            chosen, prefer, factor = alternatives[:2], "majority", 3.5
            if len(chosen) < 2:
                continue
        elif step.tool == authority or authority not in alternatives:
            continue
        else:
            chosen, prefer, factor = [authority], "authoritative", 1.25
        check = {
            "alternatives": chosen,
            "args_map": {a: how["args_map"][a] for a in chosen},
            "field": path[1],
            "prefer": prefer,
            "time_field": time_field,
            "authoritative": authority,
        }
        recipe = [RecoveryStep(action="cross_check", params=check)]
        params = {"field": path[1], "factor": factor, "time_field": time_field}
        spec = _spec(HazardFamily.CROSS_SOURCE_CONFLICT, variant, step.tool, params, recipe)
        out.append(Proposal(spec, extra_tools=chosen))
    return out


@proposes(HazardFamily.CROSS_SOURCE_CONFLICT, "stale_source")
def _stale(task: TaskSpec, domain: Domain, rng: random.Random, results: Results) -> list[Proposal]:
    return _conflicts(task, domain, results, "stale_source")


@proposes(HazardFamily.CROSS_SOURCE_CONFLICT, "corrupted_outlier")
def _outlier(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    return _conflicts(task, domain, results, "corrupted_outlier")


@proposes(HazardFamily.CROSS_SOURCE_CONFLICT, "authoritative")
def _authoritative(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    return _conflicts(task, domain, results, "authoritative")


def proposals(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> dict[HazardFamily, list[Proposal]]:
    """Every fitting proposal for ``task``, grouped by family.

    ``results`` are the reference steps' results in the clean world.
    """
    out: dict[HazardFamily, list[Proposal]] = {}
    for (family, _variant), proposer in sorted(PROPOSERS.items()):
        found = proposer(task, domain, rng, results)
        if found:
            out.setdefault(family, []).extend(found)
    return out
