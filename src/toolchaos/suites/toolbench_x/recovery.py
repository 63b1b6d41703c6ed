"""Recovery recipes as code: how each recipe action repairs a failed or drifted call.

A recipe is data on the task (a list of :class:`~toolchaos.core.types.RecoveryStep`). The
oracle baseline and the build's solvability check both apply it through this module, so
"the recipe recovers" is established by replaying it in the hazarded env, never by
reading it. The step being played is a :class:`StepState`; handlers answer with the next
calls to make, a finished result, or a failure.

The actions, and what each does, are :class:`~toolchaos.core.types.RecoveryAction`:
:func:`on_error` plays those that answer an error (``retry``, ``fallback``, ``adapt``,
``resolve``, ``verify_state``, ``consult``, ``probe``), :func:`normalize_result` and
:func:`on_result` those that repair a result (``realign`` calls again when a result is
for another day).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from toolchaos.core.reference import Unresolved, follow
from toolchaos.core.types import RecoveryAction, RecoveryStep
from toolchaos.hazards.base import map_field, map_records, transform_keys
from toolchaos.hazards.specification_drift import DATE_FORMATS, to_dmy, to_format
from toolchaos.suites.toolbench_x.changelog import CHANGELOG_TOOL


@dataclass
class Call:
    """A call the policy should make next, and what it is for."""

    tool: str
    arguments: dict[str, Any]
    purpose: str = "main"


@dataclass
class StepState:
    """Everything a policy knows about one reference step while playing it."""

    index: int
    tool: str
    arguments: dict[str, Any]
    attempts: int = 0
    done: set[str] = field(default_factory=set)
    pages: list[Any] = field(default_factory=list)
    primary: Any = None
    checks: dict[str, Any] = field(default_factory=dict)
    waiting: int = 0

    def main_call(self) -> Call:
        """The step's own call with its current tool and arguments."""
        return Call(self.tool, dict(self.arguments))


@dataclass
class Handled:
    """What to do after an observation: more calls, a finished result, or failure."""

    calls: list[Call] = field(default_factory=list)
    result: Any = None
    finished: bool = False
    failed: bool = False


def _once(state: StepState, action: str) -> bool:
    if action in state.done:
        return False
    state.done.add(action)
    return True


def adapt_arguments(arguments: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """Apply an ``adapt`` step's changes to call arguments."""
    out = dict(arguments)
    for old, new in params.get("rename_args", {}).items():
        if old in out:
            out[new] = out.pop(old)
    for name, mapping in params.get("map_values", {}).items():
        if out.get(name) in mapping:
            out[name] = mapping[out[name]]
    for name, how in params.get("reformat_args", {}).items():
        if how == "dmy" and isinstance(out.get(name), str):
            out[name] = to_dmy(out[name])
        elif how in DATE_FORMATS and isinstance(out.get(name), str):
            out[name] = to_format(out[name], how)
    for name, how in params.get("normalize_args", {}).items():
        if how == "upper" and isinstance(out.get(name), str):
            out[name] = out[name].strip().upper()
    for name, value in params.get("fill_args", {}).items():
        out.setdefault(name, value)
    return out


def on_error(recipe: list[RecoveryStep], state: StepState, call: Call) -> Handled:
    """Decide how to recover from an error returned to ``call``.

    The answer to a probe is read, and the recipe goes on with the step's own call.
    """
    if call.purpose not in ("main", "probe"):
        return Handled(failed=True)
    for step in recipe:
        p = step.params
        if step.action == RecoveryAction.CONSULT and _once(state, "consult"):
            return Handled(calls=[Call(CHANGELOG_TOOL, {"tool": state.tool}, "consult")])
        if step.action == RecoveryAction.PROBE and _once(state, "probe"):
            drop = set(p.get("drop", []))
            args = {k: v for k, v in state.arguments.items() if k not in drop}
            return Handled(calls=[Call(state.tool, {**args, **p.get("set", {})}, "probe")])
        if step.action == RecoveryAction.RETRY and state.attempts < int(p.get("max_attempts", 3)):
            return Handled(calls=[state.main_call()])
        if step.action == RecoveryAction.FALLBACK and state.tool != p["tool"]:
            state.arguments = {
                new: state.arguments[old]
                for new, old in p.get("args_map", {}).items()
                if old in state.arguments
            }
            state.tool = str(p["tool"])
            return Handled(calls=[state.main_call()])
        if step.action == RecoveryAction.ADAPT and _once(state, "adapt"):
            state.arguments = adapt_arguments(state.arguments, p)
            return Handled(calls=[state.main_call()])
        if step.action == RecoveryAction.RESOLVE and _once(state, "resolve"):
            query = {p["query_param"]: state.arguments[p["param"]]}
            return Handled(calls=[Call(str(p["tool"]), query, "resolve")])
        if step.action == RecoveryAction.VERIFY_STATE and _once(state, "verify"):
            args = {r: state.arguments[w] for r, w in p["args_map"].items() if w in state.arguments}
            return Handled(calls=[Call(str(p["tool"]), args, "verify")])
    return Handled(failed=True)


def has_key(value: Any, name: str) -> bool:
    """Whether key ``name`` appears anywhere in a JSON value."""
    if isinstance(value, dict):
        return name in value or any(has_key(v, name) for v in value.values())
    if isinstance(value, list):
        return any(has_key(v, name) for v in value)
    return False


def _to_number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            number = float(value.replace(",", ""))
        except ValueError:
            return value
        return int(number) if number.is_integer() and "." not in value else number
    return value


def _to_iso(value: Any) -> Any:
    if isinstance(value, str) and value.count(".") == 2:
        day, month, year = value.split(".")
        if len(year) == 4:
            return f"{year}-{month}-{day}"
    return value


def normalize_result(recipe: list[RecoveryStep], result: Any) -> Any:
    """Undo output drift in ``result`` as the recipe says (a no-op on an undrifted result)."""
    for step in recipe:
        p = step.params
        if (
            step.action == RecoveryAction.UNWRAP
            and isinstance(result, dict)
            and p.get("key", "data") in result
        ):
            result = result[p.get("key", "data")]
        elif step.action == RecoveryAction.NORMALIZE:
            result = transform_keys(result, _renamer(p.get("rename", {})))
        elif step.action == RecoveryAction.CONVERT:
            beyond = float(p["beyond"]) if "beyond" in p else None
            result = _convert_back(result, str(p["field"]), float(p["divide_by"]), beyond)
        elif step.action == RecoveryAction.COERCE:
            result = map_field(result, str(p["field"]), _to_number)
        elif step.action == RecoveryAction.REFORMAT:
            result = map_field(result, str(p["field"]), _to_iso)
    return result


def on_result(recipe: list[RecoveryStep], state: StepState, call: Call, content: Any) -> Handled:
    """Decide what a successful observation means for the step."""
    if call.purpose in ("consult", "probe"):  # read what it says: now apply the fix
        return on_error(recipe, state, state.main_call())
    if call.purpose == "resolve":
        params = _params(recipe, RecoveryAction.RESOLVE)
        if "probe" in params or "choose_by" in params:
            return _candidates(params, state, content)
        try:
            state.arguments[params["param"]] = follow({0: content}, [0, *params["id_path"]])
        except Unresolved:
            return Handled(failed=True)
        return Handled(calls=[state.main_call()])
    if call.purpose == "open":
        return _probed(_params(recipe, RecoveryAction.RESOLVE), state, call, content)
    if call.purpose == "verify":
        params = _params(recipe, RecoveryAction.VERIFY_STATE)
        listing = params.get("list", "results")
        records = content.get(listing, []) if isinstance(content, dict) else []
        wanted = {f: state.arguments.get(a) for f, a in params.get("match", {}).items()}
        # the newest matching record: the one the timed-out write would have created
        for record in reversed(records):
            if all(record.get(f) == v for f, v in wanted.items()):
                return Handled(result=record, finished=True)
        return Handled(calls=[state.main_call()])
    content = normalize_result(recipe, content)
    if call.purpose == "check":
        state.checks[call.tool] = content
        state.waiting -= 1
        if state.waiting > 0:
            return Handled()
        return Handled(
            result=_decide(_params(recipe, RecoveryAction.CROSS_CHECK), state), finished=True
        )
    for step in recipe:
        p = step.params
        again = step.action == RecoveryAction.REQUERY and _asks_again(p, state, content)
        if again and _once(state, "requery"):
            if p.get("flag"):  # the full record is asked for with an option
                state.arguments = {**state.arguments, str(p["flag"]): True}
            return Handled(calls=[state.main_call()])
        following = (
            _next_page(p, state, content) if step.action == RecoveryAction.NEXT_PAGE else None
        )
        if following is not None:
            state.pages.extend(content.get(p.get("list", "results"), []))
            args = {**state.arguments, p.get("param", "page"): following}
            return Handled(calls=[Call(state.tool, args)])
        if step.action == RecoveryAction.REALIGN and _once(state, "realign"):
            moved = realigned(state.arguments.get(str(p["param"])), _first(content, p["field"]))
            if moved is not None:
                state.arguments = {**state.arguments, str(p["param"]): moved}
                return Handled(calls=[state.main_call()])
        if step.action == RecoveryAction.CROSS_CHECK and _once(state, "cross_check"):
            state.primary = content
            calls = []
            for alt in p["alternatives"]:
                mapping = p.get("args_map", {}).get(alt, {})
                # a parameter the step left to its default is left to the alternative's
                args = {
                    new: state.arguments[old]
                    for new, old in mapping.items()
                    if old in state.arguments
                }
                calls.append(Call(alt, args, "check"))
            state.waiting = len(calls)
            return Handled(calls=calls)
    if state.pages and isinstance(content, dict):
        content = {**content, "results": state.pages + list(content.get("results", []))}
        for marker in ("next_page", "next_cursor", "has_more"):
            content.pop(marker, None)
    return Handled(result=content, finished=True)


def _candidates(params: dict[str, Any], state: StepState, content: Any) -> Handled:
    """A lookup's candidates: open each (``probe``), or pick by what the request says.

    ``probe`` names a detail tool whose record of each candidate shows the deciding
    field. ``choose_by`` is the text an agent was given (the request): the candidate it
    describes is taken, the one whose listing has a value the text says of that field
    ("whose member is Leo"), else the one with most values the text names as written (not
    its id, nor the name looked up); else the first, which an agent that does not look
    further takes.
    """
    path = [str(k) if not isinstance(k, int) else k for k in params["id_path"]]
    id_field = path[-1]
    try:
        listing = follow({0: content}, [0, *path[:-2]])
    except Unresolved:
        return Handled(failed=True)
    records = [r for r in listing if isinstance(r, dict)] if isinstance(listing, list) else []
    ids = [r.get(id_field) for r in records if r.get(id_field) is not None]
    if not ids:
        return Handled(failed=True)
    probe = params.get("probe")
    if probe:
        state.checks = {"probe": {}}
        state.waiting = len(ids)
        tool, param = str(probe["tool"]), str(probe["param"])
        fixed = dict(probe.get("args", {}))
        # "open", not "probe": a probe asks the failing tool what it now takes
        return Handled(calls=[Call(tool, {**fixed, param: i}, "open") for i in ids])
    asked = str(state.arguments.get(params["param"], "")).casefold()
    text = str(params["choose_by"])
    scores: dict[Any, tuple[int, int]] = {}
    for record in records:
        said = named = 0
        for key, value in record.items():
            if not isinstance(value, str) or key == id_field or value.casefold() == asked:
                continue
            if value.strip() and _names(value, text):
                named += 1
                said += _names(f"{key.replace('_', ' ')} is {value}", text)
        best = scores.get(record.get(id_field), (0, 0))
        scores[record.get(id_field)] = max(best, (said, named))
    top = max(scores.values())
    chosen = [i for i, score in scores.items() if score == top]
    state.arguments[params["param"]] = chosen[0] if top > (0, 0) and len(chosen) == 1 else ids[0]
    return Handled(calls=[state.main_call()])


def _names(value: str, text: str) -> bool:
    # as written: "IN" (India) is not named by the word "in"
    return re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", text) is not None


def _probed(params: dict[str, Any], state: StepState, call: Call, content: Any) -> Handled:
    """One candidate's record read: once all are, call again with the one that matches."""
    probe = params["probe"]
    seen = state.checks.setdefault("probe", {})
    seen[call.arguments.get(str(probe["param"]))] = content
    state.waiting -= 1
    if state.waiting > 0:
        return Handled()
    field, value = str(probe["field"]), probe["value"]
    matching = [i for i, r in seen.items() if isinstance(r, dict) and r.get(field) == value]
    if len(matching) != 1:
        return Handled(failed=True)
    state.arguments[params["param"]] = matching[0]
    return Handled(calls=[state.main_call()])


def _first(value: Any, name: Any) -> Any:
    """The first value stored under key ``name`` in a JSON value, outermost first."""
    if isinstance(value, dict):
        if name in value:
            return value[name]
        value = list(value.values())
    if isinstance(value, list):
        for inner in value:
            found = _first(inner, name)
            if found is not None:
                return found
    return None


def realigned(sent: Any, served: Any) -> str | None:
    """The ISO date to send so the backend serves ``sent``, given it served ``served``.

    None when both are the same day or either is no ISO date.
    """
    try:
        asked, got = date.fromisoformat(str(sent)), date.fromisoformat(str(served))
    except ValueError:
        return None
    return None if asked == got else (asked + (asked - got)).isoformat()


def _asks_again(params: dict[str, Any], state: StepState, content: Any) -> bool:
    """Whether a ``requery`` step calls again after ``content``.

    When ``field`` is missing from it; with ``equals_arg``, also when the result's own
    ``field`` is not the value the call passed as that argument (a response meant for
    another request).
    """
    name = str(params["field"])
    if not has_key(content, name):
        return True
    arg = params.get("equals_arg")
    if arg is None or not isinstance(content, dict) or name not in content:
        return False
    return bool(content[name] != state.arguments.get(str(arg)))


def _next_page(params: dict[str, Any], state: StepState, content: Any) -> Any:
    """The page (or cursor) to ask for after ``content``, or None when the list is whole.

    ``token`` names the result field that carries it (``next_page`` by default); with
    ``token`` None the result carries none, and the list is whole once it holds the
    ``total`` the result reports (pages are numbered from 1, all full but the last).
    """
    if not isinstance(content, dict):
        return None
    token = params.get("token", "next_page")
    if token is not None:
        return content.get(token) or None
    shown = content.get(params.get("list", "results"))
    total = content.get(str(params.get("total", "total")))
    if not (isinstance(shown, list) and shown and isinstance(total, int)):
        return None
    seen = len(state.pages) + len(shown)
    return seen // len(shown) + 1 if total > seen else None


def _params(recipe: list[RecoveryStep], action: RecoveryAction) -> dict[str, Any]:
    for step in recipe:
        if step.action == action:
            return step.params
    return {}


def _decide(params: dict[str, Any], state: StepState) -> Any:
    name = str(params["field"])
    sources: dict[str, Any] = {state.tool: state.primary, **state.checks}
    values = {t: r.get(name) for t, r in sources.items() if isinstance(r, dict)}
    prefer = params.get("prefer", "majority")
    if prefer == "fresh":
        time_field = str(params.get("time_field", "as_of"))
        freshest = max(sources, key=lambda t: str(sources[t].get(time_field, "")))
        chosen = values[freshest]
    elif prefer == "authoritative":
        chosen = values[str(params["authoritative"])]
    elif prefer == "settled":  # a figure not flagged provisional (cross_source.InferredRule)
        flag = str(params.get("flag", "provisional"))
        settled = [v for t, v in values.items() if sources[t].get(flag) is not True]
        numbers = [v for v in settled if isinstance(v, int | float)]
        chosen = statistics.median_low(numbers) if numbers else None
    else:
        numbers = [v for v in values.values() if isinstance(v, int | float)]
        chosen = statistics.median_low(numbers) if numbers else None
    return {**state.primary, name: chosen}


def _renamer(renames: dict[str, str]) -> Callable[[str, Any], tuple[str, Any] | None]:
    return lambda k, v: (renames[k], v) if k in renames else None


def _convert_back(value: Any, name: str, factor: float, beyond: float | None = None) -> Any:
    """Undo a unit change of field ``name`` where a ``units`` label names it.

    An unlabelled change (a silent unit change, a field whose meaning changed) leaves no
    label: with ``beyond``, a number is converted back where it lies past that bound in
    the direction the factor moves it (above it when the factor grows numbers, below it
    when it shrinks them), the magnitude no value in the documented unit reaches.
    """

    def implausible(number: float) -> bool:
        assert beyond is not None
        return abs(number) > beyond if factor > 1 else 0 < abs(number) < beyond

    def back(record: dict[str, Any]) -> dict[str, Any]:
        units = record.get("units")
        number = record.get(name)
        if isinstance(number, bool) or not isinstance(number, int | float):
            return record
        if beyond is not None:
            if not implausible(number):
                return record
            return {**record, name: round(number / factor, 4)}
        if not (isinstance(units, dict) and name in units):
            return record
        out = {**record, name: round(number / factor, 4)}
        rest = {k: v for k, v in units.items() if k != name}
        if rest:
            out["units"] = rest
        else:
            out.pop("units")
        return out

    return map_records(value, back)
