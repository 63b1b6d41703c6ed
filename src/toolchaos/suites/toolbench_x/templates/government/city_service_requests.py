"""City service requests (311): target dates, overdue requests, reporting problems."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.government._helpers import (
    found_by_name,
    office_kind_parallel,
    office_waits_mixture,
    resident,
    resident_office_wait,
)

LABELS = {
    "pothole": "a pothole",
    "streetlight_out": "a broken streetlight",
    "graffiti": "graffiti",
    "missed_collection": "a missed trash pickup",
    "abandoned_vehicle": "an abandoned car",
    "tree_trimming": "an overgrown street tree",
    "sidewalk_repair": "a cracked sidewalk",
    "noise_complaint": "a noise problem",
}


def my_open_request_target(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their requests in a status -> the first one's target."""
    status = ctx.rng.choice(["open", "in_progress"])

    def has(res: object) -> bool:
        found = ctx.read("list_service_requests", resident_id=res.resident_id, status=status)  # type: ignore[attr-defined]
        return bool(found["total"] >= 1)

    res = resident(ctx, has)
    field = ctx.rng.choice(["target_date", "business_days_overdue"])
    words = {
        "target_date": "by what date the city promised to resolve it",
        "business_days_overdue": "how many business days past its target date it is",
    }[field]
    first = ctx.read("list_service_requests", resident_id=res.resident_id, status=status)
    if field == "business_days_overdue" and not first["results"][0]["business_days_overdue"]:
        raise NoFit("not overdue")
    prompt = ctx.say(
        "I'm {name}. For my earliest {st} 311 request, {w}?",
        "{name} reported something to 311 that is still {st}. Taking the first such request, {w}?",
        name=res.name,
        st=status.replace("_", " "),
        w=words,
    )
    steps = [
        *found_by_name(res, "list_service_requests", "resident_id", status=status),
        RefStep(
            tool="get_service_request", args={"request_id": ref(1, "results", 0, "request_id")}
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def report_at_home(ctx: TemplateContext) -> Draft:
    """Sequential, writes: resident -> open a request at their address -> read it back."""
    category = ctx.rng.choice(sorted(LABELS))
    res = resident(ctx)
    if any(
        r.category == category and r.status != "closed" and r.address == res.address
        for r in ctx.rows("service_requests")
    ):
        raise NoFit("already reported")
    prompt = ctx.say(
        "I'm {name}. Please report {what} outside my house to 311 and confirm the request went in.",
        "File a 311 request for {name} about {what} at their home address, then check it "
        "was logged.",
        name=res.name,
        what=LABELS[category],
    )
    steps = [
        RefStep(tool="get_resident", args={"resident": res.name}),
        RefStep(
            tool="create_service_request",
            args={
                "resident": ref(0, "resident_id"),
                "category": category,
                "address": ref(0, "address"),
            },
        ),
        RefStep(tool="get_service_request", args={"request_id": ref(1, "request_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def open_request_on_my_street(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> open requests on their street -> that request."""
    open_rows = ctx.rows("service_requests", lambda r: r.status == "open")

    def alone(res: Any) -> bool:
        return sum(res.street in r.address for r in open_rows) == 1

    res = resident(ctx, alone)
    field, asks = ctx.rng.choice(
        [
            ("target_date", "by what date is the city supposed to fix it"),
            ("business_days_overdue", "how many business days overdue is it"),
            ("opened_on", "when was it opened"),
        ]
    )
    prompt = ctx.say(
        "I'm {name}. There's one open 311 request on my street; {asks}?",
        "This is {name}. Someone reported a problem on my street that's still open. {Asks}?",
        name=res.name,
        asks=asks,
        Asks=asks[0].upper() + asks[1:],
    )
    steps = [
        RefStep(tool="search_residents", args={"query": res.name}),
        RefStep(
            tool="list_service_requests",
            args={"address_contains": ref(0, "results", 0, "street"), "status": "open"},
        ),
        RefStep(
            tool="get_service_request", args={"request_id": ref(1, "results", 0, "request_id")}
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def three_requests_overdue(ctx: TemplateContext) -> Draft:
    """Parallel: k requests by number; total or worst business days overdue."""
    k = ctx.count(3, 6)
    rows = ctx.sample("service_requests", k, lambda r: r.status != "closed")
    values = [
        ctx.read("get_service_request", request_id=r.request_id)["business_days_overdue"]
        for r in rows
    ]
    if sum(values) == 0:
        raise NoFit("none overdue")
    op = ctx.rng.choice(["sum", "max"])
    q = {
        "sum": "how many business days overdue are they in total",
        "max": "what's the most business days any of them is overdue",
    }[op]
    prompt = ctx.say(
        "As the ward councillor's aide I'm chasing 311 tickets {all}: {q}?",
        "Check 311 requests {all}. {q}?",
        all=listing([x.request_id for x in rows]),
        q=q,
    )
    steps = [RefStep(tool="get_service_request", args={"request_id": r.request_id}) for r in rows]
    refs = [[i, "business_days_overdue"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


service_center_queue = office_kind_parallel(
    "city_services",
    "I need to sort out a 311 issue in person at the {a}, the {b} or the {c}.",
    "service_center_queue",
)

service_center_waits = office_waits_mixture(
    "city_services",
    (
        "I want to talk to someone about an unresolved 311 report.",
        "I'm buying a residential parking permit at a neighbourhood service center.",
    ),
    "service_center_waits",
)


def street_open_requests(ctx: TemplateContext) -> Draft:
    """Mixture: open requests of a category -> each one's details -> worst overdue days."""
    category = ctx.rng.choice(sorted(LABELS))
    found = ctx.read("list_service_requests", category=category, status="open")
    if not 2 <= found["total"] <= 5:
        raise NoFit("not a small batch")
    op = ctx.rng.choice(["max", "sum"])
    q = {"max": "the worst delay", "sum": "the total delay"}[op]
    prompt = ctx.say(
        "Pull up every open 311 request about {what} and check each one. In business days "
        "past target, what's {q}?",
        "For all open {what} reports, what is {q} (business days overdue)?",
        what=LABELS[category],
        q=q,
    )
    steps = [RefStep(tool="list_service_requests", args={"category": category, "status": "open"})]
    steps += [
        RefStep(tool="get_service_request", args={"request_id": ref(0, "results", i, "request_id")})
        for i in range(found["total"])
    ]
    refs = [[1 + i, "business_days_overdue"] for i in range(found["total"])]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


my_appointment_office_wait = resident_office_wait(
    "appointments",
    "list_appointments",
    lambda appointment: appointment.service.replace("_", " "),
    (
        "I'm {name} and I have an appointment booked for {thing}; I might walk in earlier instead.",
        "This is {name}. Before my {thing} appointment I want to know how busy that office is.",
    ),
    "my_appointment_office_wait",
)


SUBTOPIC = Subtopic(
    name="city service requests",
    templates={
        "sequential": [
            my_open_request_target,
            report_at_home,
            open_request_on_my_street,
            my_appointment_office_wait,
        ],
        "parallel": [three_requests_overdue, service_center_queue],
        "mixture": [service_center_waits, street_open_requests],
    },
)
