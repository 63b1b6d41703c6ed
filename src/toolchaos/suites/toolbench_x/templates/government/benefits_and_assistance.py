"""Benefits and assistance: eligibility from income and household size, applying."""

from __future__ import annotations

from collections import Counter
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
)


def _eligible_for_some(ctx: TemplateContext, res: Any, program_ids: list[str]) -> None:
    """NoFit unless ``res`` is eligible for at least one of the programmes."""
    values = [
        ctx.read("check_benefit_eligibility", resident=res.resident_id, program=p)[
            "monthly_benefit_usd"
        ]
        for p in program_ids
    ]
    if not any(values):
        raise NoFit("eligible for none")


def income_limit_for_me(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their record -> eligibility for one programme."""
    res = resident(ctx)
    program = ctx.pick("programs")
    field = ctx.rng.choice(["income_limit_usd", "monthly_benefit_usd"])
    if field == "monthly_benefit_usd":
        check = ctx.read(
            "check_benefit_eligibility", resident=res.resident_id, program=program.program_id
        )
        if not check["eligible"]:
            raise NoFit("not eligible")
    words = {
        "income_limit_usd": "what the annual income limit is for a household my size",
        "monthly_benefit_usd": "how much I'd receive each month",
    }[field]
    prompt = ctx.say(
        "I'm {name}. For the {prog} programme, {w}?",
        "Could you check {name}'s household against {prog} and tell me {w}?",
        "{name} asking about {prog}: given my household, {w}?",
        name=res.name,
        prog=program.name,
        w=words,
    )
    steps = [
        *found_by_name(res, "get_resident"),
        RefStep(
            tool="check_benefit_eligibility",
            args={"resident": ref(1, "resident_id"), "program": program.program_id},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def check_then_apply(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the resident -> eligibility -> apply."""
    program = ctx.pick("programs")

    def fits(res: object) -> bool:
        rid = res.resident_id  # type: ignore[attr-defined]
        ok = ctx.read("check_benefit_eligibility", resident=rid, program=program.program_id)
        apps = ctx.read("list_benefit_applications", resident=rid)["results"]
        taken = any(a["program_id"] == program.program_id and a["status"] != "denied" for a in apps)
        return bool(ok["eligible"]) and not taken

    res = resident(ctx, fits)
    readout = ctx.rng.choice([None, "decision_due", "monthly_benefit_usd"])
    prompt = ctx.say(
        "Please check whether {name} qualifies for {prog} and, since I think they do, "
        "submit the application.{ask}",
        "{name} would like to apply for {prog}. Confirm eligibility first, then apply.{ask}",
        name=res.name,
        prog=program.name,
        ask={
            None: "",
            "decision_due": " By when is a decision due?",
            "monthly_benefit_usd": " What monthly benefit does the application show?",
        }[readout],
    )
    steps = [
        *found_by_name(res, "check_benefit_eligibility", program=program.program_id),
        RefStep(
            tool="apply_for_benefit",
            args={"resident": ref(1, "resident_id"), "program": ref(1, "program_id")},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, readout]], round=2) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def my_application_check(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their one benefit application -> its eligibility."""
    applied = Counter(a.resident_id for a in ctx.rows("benefit_applications"))
    res = resident(ctx, lambda r: applied[r.resident_id] == 1)
    field, asks = ctx.rng.choice(
        [
            ("income_limit_usd", "what is the programme's income limit for my household, in USD"),
            ("monthly_benefit_usd", "what monthly benefit does the eligibility check estimate"),
        ]
    )
    prompt = ctx.say(
        "I'm {name} and I have one benefit application in. Re-run the eligibility check for "
        "that programme: {asks}?",
        "This is {name}. For the programme I applied to, {asks}?",
        name=res.name,
        asks=asks,
    )
    steps = found_by_name(res, "list_benefit_applications")
    steps.append(
        RefStep(
            tool="check_benefit_eligibility",
            args={
                "resident": ref(0, "results", 0, "resident_id"),
                "program": ref(1, "results", 0, "program_id"),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def monthly_support_total(ctx: TemplateContext) -> Draft:
    """Parallel: one resident against k programmes; total monthly benefit."""
    k = ctx.count(3, 6)
    res = resident(ctx)
    programs = ctx.sample("programs", k)
    _eligible_for_some(ctx, res, [p.program_id for p in programs])
    op = ctx.rng.choice(["sum", "max"])
    q = {"sum": "how much per month would that add up to", "max": "which pays the most per month"}
    prompt = ctx.say(
        "I'm {name}. If I qualify, I'd apply to {all}. Counting only those I'm eligible for, {q}?",
        "Screen {name} for {all}. Among the estimated monthly benefits (zero "
        "where ineligible), {q}?",
        name=res.name,
        all=listing([x.name for x in programs]),
        q=q[op],
    )
    steps = [
        RefStep(
            tool="check_benefit_eligibility",
            args={"resident": res.name, "program": p.program_id},
        )
        for p in programs
    ]
    answer = AnswerSpec(op=op, refs=[[i, "monthly_benefit_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


benefits_office_queue = office_kind_parallel(
    "benefits",
    "I can get to the {a}, the {b} or the {c} this afternoon.",
    "benefits_office_queue",
)

benefits_office_waits = office_waits_mixture(
    "benefits",
    (
        "I need to hand in proof of income at a benefits office.",
        "My caseworker said any of the city's benefits offices can process my renewal.",
    ),
    "benefits_office_waits",
)


def category_programs_for_me(ctx: TemplateContext) -> Draft:
    """Mixture: programmes of a category -> eligibility for each -> total or best benefit."""
    category = ctx.rng.choice(["food", "utilities", "housing"])
    programs = ctx.read("list_benefit_programs", category=category)["results"]
    if len(programs) < 2:
        raise NoFit("one programme only")
    res = resident(ctx)
    _eligible_for_some(ctx, res, [p["program_id"] for p in programs])
    op = ctx.rng.choice(["sum", "max"])
    q = {"sum": "the combined monthly amount", "max": "the largest single monthly amount"}[op]
    prompt = ctx.say(
        "Go through every {cat} assistance programme and check {name} against each. What's "
        "{q} they could receive (0 where not eligible)?",
        "{name} needs help with {cat} costs. Across all {cat} programmes, what is {q} they "
        "qualify for?",
        cat=category,
        name=res.name,
        q=q,
    )
    steps = [RefStep(tool="list_benefit_programs", args={"category": category})]
    steps += [
        RefStep(
            tool="check_benefit_eligibility",
            args={"resident": res.name, "program": ref(0, "results", i, "program_id")},
        )
        for i in range(len(programs))
    ]
    refs = [[1 + i, "monthly_benefit_usd"] for i in range(len(programs))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="benefits and assistance",
    templates={
        "sequential": [income_limit_for_me, check_then_apply, my_application_check],
        "parallel": [monthly_support_total, benefits_office_queue],
        "mixture": [benefits_office_waits, category_programs_for_me],
    },
)
