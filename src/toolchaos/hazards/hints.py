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
}


def hint_for(spec: HazardSpec, delivery: str = "start") -> Hint | None:
    """Return the hint texts for ``spec``, or None when the variant has none."""
    pair = _TEMPLATES.get((spec.family, spec.variant))
    if pair is None:
        return None
    values = {"tool": spec.tool, **{k: str(v) for k, v in spec.params.items()}}
    minimal, detailed = (text.format(**values) for text in pair)
    return Hint(
        minimal=minimal,
        detailed=detailed,
        delivery="start" if delivery == "start" else "first_anomaly",
    )
