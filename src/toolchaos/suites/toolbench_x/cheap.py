"""What the cheap-strategy policies read off the docs and results an agent is shown.

A capable model rarely diagnoses a failure when a shortcut gets it through: it prefers
the tool whose documentation claims authority, passes a name where an id is asked, copies
the argument shape a doc example shows, retries and pages, or takes a figure an earlier
result already gave. Each function here reads one of those shortcuts from what an agent
sees (the tool specs offered, a result, the request's own arguments), never from a task's
hazard or recipe, so the policies in :mod:`~toolchaos.suites.toolbench_x.baselines` that
use them stand in for that model (docs/toolbench-x.md, "Cheap strategies").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolchaos.core.types import RecoveryAction, RecoveryStep, ToolSpec

_AUTHORITY = re.compile(
    r"\b(authoritative|prevails?|primary|official|freshest|most up-to-date|real-time)\b",
    re.IGNORECASE,
)
_NOT_AUTHORITY = re.compile(r"\bnot (?:the )?(authoritative|primary|official)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.;:])\s+")
_EXAMPLE = re.compile(r"\be\.g\.,? '([^']+)'|\(e\.g\. ([^\s,;)]+)")
_NAME_WORDS = re.compile(r"\b(name|email|e-mail|also works|title)\b", re.IGNORECASE)
_ID_KEY = re.compile(r"(^|_)(id|code|ref|number)$")
_DEFAULT = re.compile(r"\(default:? '?([\w.-]+)'?\)", re.IGNORECASE)


def _names_in(text: str, names: Iterator[str] | list[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text)]


def names_tool(text: str, tool: str) -> bool:
    """Whether ``text`` names ``tool`` as a word (``get_x`` is not named by ``get_x_v2``)."""
    return bool(_names_in(text, [tool]))


def authority_of(tool: str, docs: Mapping[str, ToolSpec]) -> str | None:
    """The offered tool that ``tool``'s docs, or the other docs, say is authoritative.

    A sentence of ``tool``'s own docs that claims authority for another offered tool
    ("MailTrust (check_sender_reputation) prevails where they disagree") names it; one that
    claims it for ``tool`` itself keeps ``tool``. Otherwise the one other offered tool whose
    own docs claim authority, primary status or freshness for itself, and that takes the
    same parameters, is the authority. None when no doc claims it.
    """
    if tool not in docs:
        return None
    others = [n for n in docs if n != tool]
    for sentence in _SENTENCE.split(docs[tool].description):
        if not _AUTHORITY.search(sentence):
            continue
        named = _names_in(sentence, others)
        if named:
            return named[0]
        if not _NOT_AUTHORITY.search(sentence):
            return tool
    params = set(docs[tool].parameters.get("properties", {}))
    claimants = [
        name
        for name in others
        if set(docs[name].parameters.get("properties", {})) == params
        and _claims_itself(docs[name].description, [*others, tool])
    ]
    return claimants[0] if len(claimants) == 1 else None


def _claims_itself(description: str, names: list[str]) -> bool:
    for sentence in _SENTENCE.split(description):
        if (
            _AUTHORITY.search(sentence)
            and not _NOT_AUTHORITY.search(sentence)
            and not _names_in(sentence, names)
        ):
            return True
    return False


def accepts_name(spec: ToolSpec, param: str) -> bool:
    """Whether ``spec``'s docs say ``param`` also takes a name or an email, not only an id."""
    prop = spec.parameters.get("properties", {}).get(param)
    return isinstance(prop, dict) and bool(_NAME_WORDS.search(str(prop.get("description", ""))))


def id_like(path: list[Any]) -> bool:
    """Whether a ref path ends at an id-like field (``person_id``, ``code``)."""
    return bool(path) and isinstance(path[-1], str) and bool(_ID_KEY.search(path[-1]))


def documented_defaults(spec: ToolSpec) -> dict[str, Any]:
    """Each optional parameter's documented default (a schema ``default`` or "(default X)")."""
    out: dict[str, Any] = {}
    required = set(spec.parameters.get("required", []))
    for name, prop in spec.parameters.get("properties", {}).items():
        if name in required or not isinstance(prop, dict):
            continue
        if "default" in prop:
            out[name] = prop["default"]
        elif m := _DEFAULT.search(str(prop.get("description", ""))):
            text = m[1]
            out[name] = int(text) if prop.get("type") == "integer" and text.isdigit() else text
    return out


def example_of(spec: ToolSpec, param: str) -> str | None:
    """The example value ``param``'s docs show ("e.g. 'LN-123456'"), if any."""
    prop = spec.parameters.get("properties", {}).get(param)
    if not isinstance(prop, dict):
        return None
    m = _EXAMPLE.search(str(prop.get("description", "")))
    return (m[1] or m[2]) if m else None


def shaped_like(value: str, example: str) -> str:
    """``value`` written the way ``example`` is: its case, and no spaces where it has none.

    Only the shape is copied (an upper-case id example makes an id upper-case); a value
    that already has that shape comes back unchanged.
    """
    out = value
    letters = [c for c in example if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        out = out.upper()
    elif letters and all(c.islower() for c in letters):
        out = out.lower()
    if " " not in example:
        out = out.strip()
        if "-" in example:
            out = re.sub(r"\s+", "-", out)
    return out


def as_documented(arguments: dict[str, Any], spec: ToolSpec) -> dict[str, Any]:
    """``arguments`` with every string in its doc example's shape and defaults filled in."""
    out = dict(arguments)
    for name, value in arguments.items():
        example = example_of(spec, name)
        if isinstance(value, str) and example is not None:
            out[name] = shaped_like(value, example)
    for name, default in documented_defaults(spec).items():
        out.setdefault(name, default)
    return out


_FULL_NAME = re.compile(r"^(detail|details|detailed|full|verbose|expand|expanded|include_all)$")
_FULL_WORDS = re.compile(
    r"\b(full|complete|entire|whole)\b[^.;]*\b(record|response|details?|fields?)\b"
    r"|\b(every|all)\b[^.;]*\bfields?\b",
    re.IGNORECASE,
)


def full_record_option(spec: ToolSpec, arguments: Mapping[str, Any]) -> str | None:
    """A boolean option of ``spec`` that promises the whole record, not yet passed.

    One named like ``detail``, ``full`` or ``verbose``, or whose docs speak of the full
    record or every field: what a model asks for when a result lacks a field it needs.
    """
    for name, prop in spec.parameters.get("properties", {}).items():
        if not isinstance(prop, dict) or prop.get("type") != "boolean" or name in arguments:
            continue
        if _FULL_NAME.match(name) or _FULL_WORDS.search(str(prop.get("description", ""))):
            return str(name)
    return None


def paging_step(content: Any) -> RecoveryStep | None:
    """A ``next_page`` step when a result says more exist and the tool takes a page.

    A ``next_page`` or ``next_cursor`` token, or a ``total`` above the results shown, is
    what says so (the token's own parameter, else ``page``, is asked for next).
    """
    if not isinstance(content, dict):
        return None
    lists = [k for k, v in content.items() if isinstance(v, list)]
    listing = "results" if "results" in lists else (lists[0] if len(lists) == 1 else None)
    if listing is None:
        return None
    for token, param in (("next_page", "page"), ("next_cursor", "cursor")):
        if content.get(token):
            return RecoveryStep(
                action=RecoveryAction.NEXT_PAGE,
                params={"param": param, "list": listing, "token": token},
            )
    total = content.get("total")
    shown = content.get(listing)
    if isinstance(total, int) and isinstance(shown, list) and shown and total > len(shown):
        return RecoveryStep(
            action=RecoveryAction.NEXT_PAGE,
            params={"param": "page", "list": listing, "token": None, "total": "total"},
        )
    return None


def records(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside ``value``, outermost first."""
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from records(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from records(inner)


def earlier_value(
    field: str,
    about: Mapping[str, Any],
    results: Mapping[int, Any],
    before: int,
    since: int = 0,
) -> tuple[bool, Any]:
    """The value of ``field`` an earlier result already gave for the entity ``about`` names.

    ``about`` is the arguments the later step would be called with. A record of a result
    of a step from ``since`` (the last write before it: what came before a write may be
    out of date) to before ``before`` that holds ``field`` and, for every argument, a key
    of the same name (``kpi`` matches ``kpi`` or ``kpi_id``) with the same value is about
    the same entity; (True, value) when such records agree on one value.
    """
    if not about:
        return False, None
    found = []
    for step, result in results.items():
        if step >= before or step < since:
            continue
        for record in records(result):
            if field not in record or isinstance(record[field], dict | list):
                continue
            if all(_holds(record, name, value) for name, value in about.items()):
                found.append(record[field])
    if found and all(v == found[0] for v in found):
        return True, found[0]
    return False, None


def _holds(record: dict[str, Any], name: str, value: Any) -> bool:
    keys = [k for k in record if k == name or k.startswith(f"{name}_")]
    return any(record[k] == value for k in keys)


def put(tree: Any, path: list[Any], value: Any) -> Any:
    """``tree`` with ``value`` placed at ``path`` (the objects and lists on the way made)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    if isinstance(key, int):
        items = list(tree) if isinstance(tree, list) else []
        while len(items) <= key:
            items.append({})
        items[key] = put(items[key], rest, value)
        return items
    record = dict(tree) if isinstance(tree, dict) else {}
    record[key] = put(record.get(key), rest, value)
    return record


_PASSING = re.compile(r"time(?:d)? ?out|unavailable|try again|temporar|overloaded", re.IGNORECASE)


def reads_as_passing(error: Any) -> bool:
    """Whether an error result reads as a passing failure worth a retry.

    A 5xx, a 408 or a 429, or a message about a timeout or a service unavailable for now.
    """
    body = error.get("error", error) if isinstance(error, dict) else {}
    if not isinstance(body, dict):
        return False
    code = body.get("code")
    if isinstance(code, int) and (code >= 500 or code in (408, 429)):
        return True
    return bool(_PASSING.search(str(body.get("message", ""))))
