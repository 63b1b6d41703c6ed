"""Lab results: values against reference ranges, comparing results, booking a blood draw."""

from __future__ import annotations

from typing import Any

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    book_first_slot,
    find_member,
    finish,
    member,
    owner,
    require_free_slot,
    subject,
    then_each,
    wait_at_each_clinic,
    who,
    window,
)
from toolchaos.suites.toolbench_x.templates.health.appointments import WAIT_SOURCES


def _tests_of(ctx: TemplateContext, member_id: str, code: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = ctx.read("list_lab_results", member=member_id, test_code=code)[
        "results"
    ]
    return found


def earlier_result(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> their results for a test -> one result's details."""
    result = ctx.pick("lab_results")
    m = ctx.world.table("members")[result.member_id]
    history = _tests_of(ctx, m.member_id, result.test_code)
    i = [r["result_id"] for r in history].index(result.result_id)
    if i > 1:
        raise NoFit("only the latest and the one before are asked about")
    which = {0: "most recent", 1: "previous (second most recent)"}[i]
    ask = ctx.rng.choice(["value", "collected_on", "collected_on"])
    question = {
        "value": "what was the value",
        "collected_on": "on what date was the sample collected",
    }[ask]
    prompt = ctx.say(
        "For {whose} {which} {test} result, " + question + "?",
        "Pull up {whose} lab history for {test}. Looking at the {which} one, " + question + "?",
        whose=owner(m),
        which=which,
        test=result.test_name,
    )
    steps = [
        *find_member(m, "list_lab_results", test_code=result.test_code),
        RefStep(tool="get_lab_result", args={"result_id": ref(1, "results", i, "result_id")}),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]])))


def flagged_test_before(ctx: TemplateContext) -> Draft:
    """Sequential: a member's flagged results -> that test's history -> the result before.

    The user knows only that their latest out-of-range result was flagged; the test and
    the earlier result come from the lab history.
    """
    flag = ctx.rng.choice(["high", "low"])

    def fits(p: Any) -> bool:
        flagged = ctx.read("list_lab_results", member=p.member_id, flag=flag)["results"]
        if not flagged:
            return False
        history = _tests_of(ctx, p.member_id, str(flagged[0]["test_code"]))
        return bool(history[-1]["result_id"] != flagged[0]["result_id"])

    m = member(ctx, fits)
    latest = ctx.read("list_lab_results", member=m.member_id, flag=flag)["results"][0]
    history = _tests_of(ctx, m.member_id, str(latest["test_code"]))
    before = [r["result_id"] for r in history].index(latest["result_id"]) + 1
    ask = ctx.rng.choice(["value", "collected_on"])
    question = {
        "value": "what was the value of that test the time before it",
        "collected_on": "when was the sample of that test before it collected",
    }[ask]
    prompt = ctx.say(
        "{Whose} most recent lab result flagged {flag}: " + question + "?",
        "Find the latest {flag}-flagged lab result for {name}, then look at the same test's "
        "history: " + question + "?",
        Whose=owner(m).capitalize(),
        name=who(m),
        flag=flag,
    )
    steps = [
        RefStep(tool="list_lab_results", args={"member": m.first_name, "flag": flag}),
        RefStep(
            tool="list_lab_results",
            args={
                "member": ref(0, "results", 0, "member_id"),
                "test_code": ref(0, "results", 0, "test_code"),
            },
        ),
        RefStep(tool="get_lab_result", args={"result_id": ref(1, "results", before, "result_id")}),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]])))


def book_blood_draw(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the lab clinic -> its draw slots -> book the first."""
    clinic = ctx.pick("clinics", lambda c: "lab draw" in c.specialties)
    d1, d2 = window(ctx, (1, 7), (2, 5))
    require_free_slot(ctx, "lab draw", clinic.clinic_id, (d1, d2), "draw slot")
    result = ctx.pick("lab_results", lambda r: r.flag != "normal")
    m = ctx.world.table("members")[result.member_id]
    reason = f"repeat {result.test_name} test"
    prompt = ctx.say(
        "{Whose} {test} came back {flag}, so the doctor wants a repeat. Book the first "
        "lab-draw slot at {clinic} between {d1} and {d2}.",
        "Schedule a blood draw for {name} at {clinic}, earliest opening from {d1} to {d2}, "
        "to repeat the {flag} {test}.",
        Whose=owner(m).capitalize(),
        name=who(m),
        test=result.test_name,
        flag=result.flag,
        clinic=clinic.name,
        d1=d1,
        d2=d2,
    )
    search = {"query": clinic.name, "specialty": "lab draw"}
    steps = book_first_slot(search, "lab draw", (d1, d2), m.first_name, reason)
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def family_latest(ctx: TemplateContext) -> Draft:
    """Parallel: three to five members' results for one test; the highest or lowest latest."""
    code = ctx.rng.choice(sorted({r.test_code for r in ctx.rows("lab_results")}))
    people = ctx.sample(
        "members", ctx.count(3, 5), lambda p: bool(_tests_of(ctx, p.member_id, code))
    )
    name = next(r.test_name for r in ctx.rows("lab_results") if r.test_code == code)
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "highest", "min": "lowest"}[op]
    prompt = ctx.say(
        "Of the latest {test} results for {names}, which value is {words}?",
        "Compare the most recent {test} readings of {names} and give me the {words} value.",
        test=name,
        words=words,
        names=listing([p.first_name for p in people]),
    )
    steps = [
        RefStep(tool="list_lab_results", args={"member": p.first_name, "test_code": code})
        for p in people
    ]
    refs = [[i, "results", 0, "value"] for i in range(len(people))]
    answer = AnswerSpec(op=op, refs=refs, round=2)
    return finish(Draft(prompt, steps, answer))


def draw_site_waits(ctx: TemplateContext) -> Draft:
    """Parallel: the wait at three to five lab-draw sites; the shortest or longest."""
    clinics = ctx.sample("clinics", ctx.count(3, 5), lambda c: "lab draw" in c.specialties)
    tool, named = ctx.choose_source(WAIT_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        *(
            (
                "I need a fasting blood draw this morning. According to {source}, what's the "
                "{words} wait among {names}?",
                "Among the lab-draw sites {names}, how long is the {words} queue right now "
                "({source})? Tell me the minutes.",
            )
            if named
            else (
                "I need a fasting blood draw this morning. What's the {words} wait among {names}?",
                "Among the lab-draw sites {names}, how long is the {words} queue right now? "
                "Tell me the minutes.",
            )
        ),
        source=WAIT_SOURCES[tool],
        words=words,
        names=listing([c.name for c in clinics]),
    )
    steps = [RefStep(tool=tool, args={"clinic": c.name}) for c in clinics]
    refs = [[i, "wait_minutes"] for i in range(len(clinics))]
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs)))


def draw_sites_in_city(ctx: TemplateContext) -> Draft:
    """Mixture: lab-draw clinics -> wait at each -> the shortest."""
    clinics = ctx.read("search_clinics", specialty="lab draw")["results"]
    tool, named = ctx.choose_source(WAIT_SOURCES)
    m = member(ctx)
    prompt = ctx.say(
        *(
            (
                "{Name} needs blood work done today. Check every lab-draw clinic with {source} "
                "and tell me the shortest wait.",
                "What's the shortest current wait at any clinic that does lab draws? Use "
                "{source}; it's for {whose} blood test.",
            )
            if named
            else (
                "{Name} needs blood work done today. Check every lab-draw clinic and tell me "
                "the shortest wait.",
                "What's the shortest current wait at any clinic that does lab draws? It's for "
                "{whose} blood test.",
            )
        ),
        Name=subject(m),
        whose=owner(m),
        source=WAIT_SOURCES[tool],
    )
    steps, refs = wait_at_each_clinic(tool, "lab draw", len(clinics))
    return finish(Draft(prompt, steps, AnswerSpec(op="min", refs=refs)))


def flagged_results(ctx: TemplateContext) -> Draft:
    """Mixture: find the member -> flagged results -> the largest value among them."""
    flag = ctx.rng.choice(["high", "low"])
    m = member(
        ctx,
        lambda p: len(ctx.read("list_lab_results", member=p.member_id, flag=flag)["results"]) >= 2,
    )
    code = ctx.rng.choice(
        sorted(
            {
                r["test_code"]
                for r in ctx.read("list_lab_results", member=m.member_id, flag=flag)["results"]
            }
        )
    )
    history = _tests_of(ctx, m.member_id, code)
    if len(history) < 2:
        raise NoFit("a single result")
    name = history[0]["test_name"]
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "highest", "min": "lowest"}[op]
    prompt = ctx.say(
        "{Whose} {test} has been flagged {flag} before. What's the {words} {test} value on "
        "record for {name}?",
        "Over all of {whose} {test} results, what is the {words} value?",
        Whose=owner(m).capitalize(),
        whose=owner(m),
        name=who(m),
        test=name,
        flag=flag,
        words=words,
    )
    lead = find_member(m, "list_lab_results", test_code=code)
    results = [{"result_id": ref(1, "results", i, "result_id")} for i in range(len(history))]
    steps, refs = then_each(lead, "get_lab_result", results, "value")
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2)))


SUBTOPIC = Subtopic(
    name="lab results",
    templates={
        "sequential": [earlier_result, book_blood_draw, flagged_test_before],
        "parallel": [family_latest, draw_site_waits],
        "mixture": [draw_sites_in_city, flagged_results],
    },
)
