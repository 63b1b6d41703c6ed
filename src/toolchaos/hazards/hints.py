"""Reliability hints: what the ``hint`` arm tells the agent about a task's hazard.

Each variant has a minimal hint (at most 90 words) and a detailed one (at most 220). They
name the kind of trouble and the way out, never a value from the answer.
"""

from __future__ import annotations

from toolchaos.core.types import HazardFamily, HazardSpec, Hint

_TEMPLATES: dict[tuple[HazardFamily, str], tuple[str, str]] = {
    (HazardFamily.EXECUTION_FAILURE, "transient"): (
        "The {tool} service is flaky right now: a call may fail with a temporary error. "
        "If it does, call it again with the same arguments.",
        "Reliability notice. The {tool} service is having intermittent trouble: the first "
        "call or two may come back with a temporary error such as 503, a gateway timeout or "
        "a rate limit. These errors do not mean your request was wrong. Wait if the error "
        "says so, then repeat the same call with the same arguments; it will succeed. Do "
        "not give up on the task or guess the data the tool would have returned.",
    ),
    (HazardFamily.EXECUTION_FAILURE, "outage"): (
        "The {tool} service may be down. If it fails, use {fallback}, which returns the "
        "same information.",
        "Reliability notice. The {tool} service may be unavailable for the whole session; "
        "retrying it will not help. Its documentation names an alternative, {fallback}, "
        "which serves the same facts from an independent source and takes the same "
        "identifier. If {tool} reports that it is unavailable, switch to {fallback} and "
        "carry on with the task using its result.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "renamed_field"): (
        "The {tool} service may return the field '{field}' under a different name. Read the "
        "result carefully rather than relying on the documented field names.",
        "Reliability notice. The {tool} service recently changed its response format: the "
        "field documented as '{field}' may come back under another, similar name. The value "
        "itself is unchanged. Inspect each result, map the renamed field back to the "
        "documented one, and continue with the task as planned. Do not conclude that the "
        "information is missing.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "unit_change"): (
        "The {tool} service may report '{field}' in a different unit. Check the units "
        "label in the result and convert before using the number.",
        "Reliability notice. The {tool} service may report the numeric field '{field}' in a "
        "unit other than the documented one. When it does, the result carries a 'units' "
        "object naming the unit it used. Convert the value back to the documented unit "
        "before comparing, adding or reporting it, and give your final answer in the "
        "documented unit.",
    ),
    (HazardFamily.EXECUTION_FAILURE, "paginated"): (
        "The {tool} service now returns long result lists one page at a time. If a result "
        "says there is a next page, ask for it with the page parameter before you use the "
        "list.",
        "Reliability notice. The {tool} service has started paginating its results: a "
        "response may hold only the first part of the list, together with a note and a "
        "'next_page' number. The rest of the records exist; they are on the following "
        "pages. Call {tool} again with the same arguments plus page set to the next page "
        "number, repeat until no next page is reported, and work with the combined list. "
        "Do not assume the first page is everything.",
    ),
    (HazardFamily.EXECUTION_FAILURE, "timeout_after_write"): (
        "The {tool} service may time out after it has already saved your change. Before "
        "repeating a change that timed out, check whether it went through.",
        "Reliability notice. Calls to {tool} can report a gateway timeout even though the "
        "change was saved on the server before the connection dropped. Repeating the call "
        "blindly can apply the same change twice. If {tool} times out, first look the "
        "records up with the matching listing tool and check whether your change is "
        "already there. Only if it is missing should you make the call again; if it is "
        "there, continue with the record you find.",
    ),
    (HazardFamily.SPECIFICATION_DRIFT, "renamed_parameter"): (
        "The {tool} service renamed one of its parameters and the documentation is out of "
        "date. Read its error message for the new name and call it again.",
        "Reliability notice. The backend of {tool} was updated and one of its parameters "
        "now goes by a different name than the documentation shows. A call with the old "
        "name is rejected with an error that states the parameter's new name. Keep the "
        "same value, send it under the new name, and carry on with the task. The data "
        "returned is unchanged.",
    ),
    (HazardFamily.SPECIFICATION_DRIFT, "changed_enum"): (
        "The {tool} service changed the allowed values of one parameter. Use the values its "
        "error message lists.",
        "Reliability notice. One of the parameters of {tool} that takes a fixed set of "
        "values now expects them written differently from the documentation. A call with "
        "a documented value is rejected, and the error lists the values the service "
        "accepts now. Pick the listed value that means the same thing as the one you "
        "intended and repeat the call.",
    ),
    (HazardFamily.SPECIFICATION_DRIFT, "deprecated_tool"): (
        "The {tool} tool has been retired. Use its replacement, {v2}, instead.",
        "Reliability notice. {tool} has been retired and now answers every call with a "
        "'gone' error. Its successor, {v2}, provides the same information; its parameters "
        "may be named differently, so read its description and map your arguments onto "
        "it. Use {v2} for the rest of the task.",
    ),
    (HazardFamily.SPECIFICATION_DRIFT, "parameter_format"): (
        "The {tool} service now expects dates in '{param}' as DD/MM/YYYY, whatever its "
        "documentation says.",
        "Reliability notice. The documentation of {tool} says the '{param}' parameter takes "
        "an ISO date (YYYY-MM-DD), but the service now rejects that and expects the day "
        "first: DD/MM/YYYY. Rewrite the same date in the new format and repeat the call; "
        "the rest of the request stays as it was.",
    ),
    (HazardFamily.INVOCATION_ERROR, "strict_format"): (
        "The {tool} service validates '{param}' strictly: identifiers must be upper case "
        "with no spaces.",
        "Reliability notice. The {tool} service has switched on strict input validation for "
        "'{param}'. Identifiers are accepted only in their canonical form: upper-case "
        "letters, digits and dashes, with no surrounding spaces. An identifier written in "
        "lower case, as a person might type it, is rejected. Normalize it and call again.",
    ),
    (HazardFamily.INVOCATION_ERROR, "missing_field"): (
        "The {tool} service now insists on the '{param}' parameter even though the "
        "documentation marks it optional. Send it explicitly.",
        "Reliability notice. The {tool} service rejects calls that leave out '{param}', "
        "although the documentation says it is optional and gives a default. When you call "
        "{tool}, include '{param}' explicitly; if you have no reason to choose another "
        "value, send the documented default.",
    ),
    (HazardFamily.INVOCATION_ERROR, "ambiguous_entity"): (
        "The {tool} service may say a name is ambiguous. Look the entity up with {resolver} "
        "and pass its id instead of the name.",
        "Reliability notice. When {tool} is given a name in '{param}', it may refuse it as "
        "ambiguous, because more than one record carries that name. Use {resolver} to look "
        "the name up, take the identifier of the record that matches the request, and call "
        "{tool} again with that identifier in '{param}'.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "number_as_string"): (
        "The {tool} service may return the number '{field}' as text. Convert it to a number "
        "before calculating with it.",
        "Reliability notice. The {tool} service has started to send the numeric field "
        "'{field}' as a string of digits instead of a number. The value itself is right. "
        "Read it as a number before you add, compare or otherwise calculate with it, and "
        "report the result as a number.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "nested_shape"): (
        "The {tool} service now wraps its response in an envelope; the documented fields "
        "are inside '{key}'.",
        "Reliability notice. Responses from {tool} now come wrapped: the documented result "
        "sits inside a '{key}' object, next to a 'meta' object with version details. Look "
        "inside '{key}' for the fields you need; their names and values are unchanged.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "missing_field"): (
        "The {tool} service sometimes leaves '{field}' out of a response. If it is missing, "
        "call the tool again.",
        "Reliability notice. A response from {tool} may arrive without the '{field}' field, "
        "because of a caching problem on the provider's side. The field is not gone: "
        "repeating the same call returns the complete record. Do not guess the missing "
        "value and do not give up; ask again.",
    ),
    (HazardFamily.OUTPUT_DRIFT, "locale_date"): (
        "The {tool} service may write dates in '{field}' as DD.MM.YYYY. Convert them to "
        "YYYY-MM-DD before answering.",
        "Reliability notice. The {tool} service has begun formatting the dates in "
        "'{field}' in a European style, day first with dots (DD.MM.YYYY), instead of the "
        "documented ISO format. Read the day and month carefully, convert the date back to "
        "YYYY-MM-DD, and use that form in your answer.",
    ),
    (HazardFamily.CROSS_SOURCE_CONFLICT, "stale_source"): (
        "The {tool} source may serve out-of-date data. Compare it with another source and "
        "trust the one with the newer timestamp.",
        "Reliability notice. The data from {tool} may be stale: its '{time_field}' "
        "timestamp can lag behind other providers of the same figures. Check the same "
        "item with another source available to you, compare the '{time_field}' stamps, "
        "and use the value from the most recently updated source.",
    ),
    (HazardFamily.CROSS_SOURCE_CONFLICT, "corrupted_outlier"): (
        "One data source may return a corrupted value. Check '{field}' against the other "
        "sources and go with the value most of them agree on.",
        "Reliability notice. One of the providers of '{field}' is returning corrupted "
        "figures that are far off the true value. Ask every available source for the same "
        "item, compare the answers, and keep the value that the majority agrees on; treat "
        "a lone outlier as an error.",
    ),
    (HazardFamily.CROSS_SOURCE_CONFLICT, "authoritative"): (
        "Sources may disagree about '{field}'. When they do, use the source the "
        "documentation names as authoritative.",
        "Reliability notice. The providers of '{field}' do not always agree. The tool "
        "documentation names one of them as the authoritative reference. If the source "
        "you used gives a different figure from the authoritative one, the authoritative "
        "source is right: check it and use its value.",
    ),
}


def register_hints(family: HazardFamily, variant: str, minimal: str, detailed: str) -> None:
    """Register the hint texts of a new variant (``{tool}`` and its params may be used)."""
    _TEMPLATES[(family, variant)] = (minimal, detailed)


def hint_for(spec: HazardSpec, delivery: str = "start") -> Hint | None:
    """Return the hint texts for ``spec``, or None when the variant has none."""
    pair = _TEMPLATES.get((spec.family, spec.variant))
    if pair is None:
        return None
    values = {"tool": spec.tool, **{k: str(v) for k, v in spec.params.items()}}
    for step in spec.recovery:
        values.setdefault("resolver", str(step.params.get("tool", "")))
    minimal, detailed = (text.format(**values) for text in pair)
    return Hint(
        minimal=minimal,
        detailed=detailed,
        delivery="start" if delivery == "start" else "first_anomaly",
    )
