"""Tax filing and refunds: tax owed from brackets, refunds, deposit dates, scenarios."""

from __future__ import annotations

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
    NUMBERS,
    found_by_name,
    office_waits_mixture,
    resident,
    residents,
)

STATUS_WORDS = {
    "single": "single",
    "married_joint": "married filing jointly",
    "head_of_household": "head of household",
}


def rate_on_my_return(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> estimate the return -> rates on its taxable income."""
    res = resident(ctx)
    field = ctx.rng.choice(["marginal_rate_pct", "effective_rate_pct", "tax_usd"])
    words = {
        "marginal_rate_pct": "my marginal tax rate (percent)",
        "effective_rate_pct": "my effective tax rate (percent, of taxable income)",
        "tax_usd": "the federal tax on my taxable income, in dollars",
    }[field]
    prompt = ctx.say(
        "I'm {name}. Work out my 2025 taxable income from my records and then tell me {w}.",
        "{name} here: based on my 2025 income and deductions, what is {w}?",
        "Using the brackets for my filing status, what's {w}? My name is {name}.",
        name=res.name,
        w=words,
    )
    steps = [
        *found_by_name(res, "estimate_tax_return"),
        RefStep(
            tool="calculate_tax",
            args={
                "taxable_income_usd": ref(1, "taxable_income_usd"),
                "filing_status": ref(1, "filing_status"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def refund_deposit_date(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> return estimate -> refund status (deposit date)."""

    def waiting(res: object) -> bool:
        status = ctx.read("get_refund_status", resident=res.resident_id)  # type: ignore[attr-defined]
        return status["expected_deposit_date"] is not None

    res = resident(ctx, waiting)
    prompt = ctx.say(
        "My name is {name}. Check how big my 2025 refund is and on what date it should land "
        "in my bank account.",
        "When should {name}'s federal refund be deposited? Please look up the return first.",
        "{name} filed for 2025 and is owed money back. What's the expected deposit date?",
        name=res.name,
    )
    steps = [
        *found_by_name(res, "estimate_tax_return"),
        RefStep(tool="get_refund_status", args={"resident": ref(1, "resident_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "expected_deposit_date"]]))


def bracket_scenarios(ctx: TemplateContext) -> Draft:
    """Parallel: tax on k taxable incomes under one status; sum or the highest."""
    k = ctx.count(3, 6)
    status = ctx.rng.choice(sorted(STATUS_WORDS))
    incomes = sorted(ctx.rng.sample(range(18, 240), k))
    amounts = [i * 1000 + ctx.rng.choice((0, 250, 500, 750)) for i in incomes]
    op = ctx.rng.choice(["sum", "max", "min"])
    question = {
        "sum": "What's the combined tax across those scenarios",
        "max": "What is the largest tax bill among them",
        "min": "What's the smallest tax bill among them",
    }[op]
    prompt = ctx.say(
        "Filing as {st}, compare federal tax on taxable incomes of {all}. {q}?",
        "{N} what-ifs for a {st} filer: {any} of taxable income. {q}?",
        st=STATUS_WORDS[status],
        all=listing([f"${a:,}" for a in amounts]),
        any=listing([f"${a:,}" for a in amounts]).replace(" and ", " or "),
        N=NUMBERS[k].capitalize(),
        q=question,
    )
    steps = [
        RefStep(tool="calculate_tax", args={"taxable_income_usd": a, "filing_status": status})
        for a in amounts
    ]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "tax_usd"] for i in range(k)], round=2))


def household_refunds(ctx: TemplateContext) -> Draft:
    """Parallel: k residents' estimated returns; total refund or largest amount owed."""
    k = ctx.count(3, 6)
    field = ctx.rng.choice(["refund_usd", "amount_owed_usd", "withheld_usd"])
    people = residents(ctx, k)
    values = [ctx.read("estimate_tax_return", resident=p.resident_id)[field] for p in people]
    if sum(values) == 0:
        raise NoFit("nothing to add up")
    op = ctx.rng.choice(["sum", "max"])
    words = {
        "refund_usd": "refund",
        "amount_owed_usd": "balance owed",
        "withheld_usd": "federal tax withheld",
    }[field]
    question = {"sum": f"total {words} across them", "max": f"largest single {words}"}[op]
    prompt = ctx.say(
        "I volunteer at a tax clinic. For {all}, estimate each 2025 return: what's the {q}?",
        "Estimate the 2025 returns of {all} and give me the {q}.",
        all=listing([x.name for x in people]),
        q=question,
    )
    steps = [RefStep(tool="estimate_tax_return", args={"resident": p.name}) for p in people]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


tax_help_waits = office_waits_mixture(
    "tax",
    (
        "I want help with my return at one of the taxpayer assistance offices.",
        "Tax season: I'm choosing between the city's tax help offices.",
    ),
    "tax_help_waits",
)


def refund_and_status(ctx: TemplateContext) -> Draft:
    """Mixture: find the resident -> (return estimate, refund status) -> the refund amount."""
    res = resident(ctx, lambda r: r.household_size <= 3)
    field = ctx.rng.choice(["refund_usd", "taxable_income_usd", "deduction_used_usd"])
    words = {
        "refund_usd": "how much refund I should get",
        "taxable_income_usd": "what my taxable income is",
        "deduction_used_usd": "how large a deduction is applied (standard or itemized)",
    }[field]
    prompt = ctx.say(
        "I'm {name}. Look up where my 2025 return stands and tell me {w}.",
        "Hi, {name} here. Check my return status and estimate, and tell me {w}.",
        name=res.name,
        w=words,
    )
    steps = [
        *found_by_name(res, "get_refund_status"),
        RefStep(tool="estimate_tax_return", args={"resident": ref(0, "results", 0, "resident_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def add_deduction_for_unfiled(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the resident -> refund status -> add a deduction."""

    def unfiled(res: object) -> bool:
        return bool(
            ctx.read("get_refund_status", resident=res.resident_id)["return_status"]  # type: ignore[attr-defined]
            == "not_filed"
        )

    res = resident(ctx, unfiled)
    kind = ctx.rng.choice(["charitable", "medical", "mortgage_interest"])
    amount = ctx.rng.randint(40, 900) * 5
    words = {
        "charitable": "charitable donations",
        "medical": "medical expenses",
        "mortgage_interest": "mortgage interest",
    }[kind]
    again = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "I'm {name} and I haven't filed yet. Add ${amt:,} of {w} as an itemized deduction "
        "to my 2025 return.{ask}",
        "Before {name} files for 2025, claim a {w} deduction of ${amt:,} on the return.{ask}",
        name=res.name,
        amt=amount,
        w=words,
        ask=" Then estimate the return again: what taxable income does it come to now?"
        if again
        else "",
    )
    steps = [
        *found_by_name(res, "get_refund_status"),
        RefStep(
            tool="add_tax_deduction",
            args={"resident": ref(1, "resident_id"), "kind": kind, "amount_usd": amount},
        ),
    ]
    if not again:
        return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)
    steps.append(RefStep(tool="estimate_tax_return", args={"resident": ref(2, "resident_id")}))
    answer = AnswerSpec(op="value", refs=[[3, "taxable_income_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


SUBTOPIC = Subtopic(
    name="tax filing and refunds",
    templates={
        "sequential": [rate_on_my_return, refund_deposit_date, add_deduction_for_unfiled],
        "parallel": [bracket_scenarios, household_refunds],
        "mixture": [tax_help_waits, refund_and_status],
    },
)
