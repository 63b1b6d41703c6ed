"""Devices subtopic "account security": password hygiene, policy checks and two-factor."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    MEMBERS,
    SECURITY,
    account_query,
    breach_sizes,
    each_listed,
    extreme,
    spoken_account,
    unique_extreme,
)

METHODS = {
    "authenticator_app": "an authenticator app",
    "security_key": "a hardware security key",
    "sms": "text-message codes",
}
BREACH_TOOLS = {
    "get_breach": "the company's own filing",
    "get_breach_index": "BreachIndex",
    "get_breach_press": "LeakWire's reporting",
}


def _age(ctx: TemplateContext, acc: Any) -> int:
    found: int = ctx.read("get_account_security", account=acc.account_id)["password_age_days"]
    return found


def enable_2fa(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the account -> its security -> turn on two-factor."""
    acc = ctx.pick("accounts", lambda a: a.two_factor in ("none", "sms"))
    method = ctx.rng.choice([m for m in METHODS if m != acc.two_factor])
    prompt = ctx.say(
        "Lock down {who}: check how it's protected and switch its two-factor sign-in to {how}.",
        "Please turn on {how} as the second factor for {who}.",
        "{who_cap} only has weak sign-in protection. Set two-factor to {how}.",
        who=spoken_account(acc),
        who_cap=spoken_account(acc),
        how=METHODS[method],
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"}),
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(tool="enable_two_factor", args={"account": ref(1, "account_id"), "method": method}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def password_age_check(ctx: TemplateContext) -> Draft:
    """Sequential: search the account -> its security record -> policy check (age)."""
    acc = ctx.pick("accounts", lambda a: _age(ctx, a) > 60)
    limit = ctx.rng.choice([90, 180, 365, 730])
    prompt = ctx.say(
        "Our rule is to change passwords every {limit} days. How many days old is the "
        "password on {who}?",
        "Run a password check on {who} with a {limit}-day maximum age. How old is its "
        "password, in days?",
        "How many days has it been since the password on {who} was changed? Check it "
        "against a {limit}-day policy while you're at it.",
        limit=limit,
        who=spoken_account(acc),
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": acc.service, "member": acc.member}),
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="check_password_policy",
            args={"account": ref(1, "account_id"), "max_age_days": limit},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "password_age_days"]]))


def oldest_password(ctx: TemplateContext) -> Draft:
    """Parallel: security records of three accounts; the oldest or newest password age."""
    chosen = ctx.sample("accounts", 3, lambda a: _age(ctx, a) > 30)
    op, words = extreme(ctx, {"max": "the oldest", "min": "the most recently changed"})
    unique_extreme([_age(ctx, a) for a in chosen], op)
    prompt = ctx.say(
        "Among {a}, {b} and {c}, how many days old is {words} password?",
        "Password audit: check {a}, {b} and {c}. What's the age in days of {words} one?",
        words=words,
        a=spoken_account(chosen[0]),
        b=spoken_account(chosen[1]),
        c=spoken_account(chosen[2]),
    )
    steps = [
        RefStep(tool="get_account_security", args={"account": account_query(ctx, a)})
        for a in chosen
    ]
    refs = [[i, "password_age_days"] for i in range(3)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def breach_exposure_of_services(ctx: TemplateContext) -> Draft:
    """Parallel: three breached services from one source; total or largest record count."""
    return breach_sizes(
        ctx,
        BREACH_TOOLS,
        {
            "sum": "how many records were exposed across the three breaches",
            "max": "the record count of the largest of those breaches",
        },
        "I'm deciding which passwords to rotate first. {a}, {b} and {c} were all breached; "
        "per {source}, {words}?",
        "Using {source}: for the {a}, {b} and {c} breaches, {words}?",
        "Breach sizes for {a}, {b} and {c} according to {source} — {words}?",
    )


def no_2fa_oldest(ctx: TemplateContext) -> Draft:
    """Mixture: a member's accounts without two-factor -> security of each -> oldest age."""
    member = ctx.rng.choice(MEMBERS)
    method = ctx.rng.choice(["none", "sms"])
    listed = ctx.read("search_accounts", member=member, two_factor=method)["results"]
    if not 2 <= len(listed) <= 5:
        raise NoFit("need two to five accounts")
    op, words = extreme(ctx, {"max": "oldest", "min": "newest"})
    ages = [_age(ctx, ctx.world.table("accounts")[a["account_id"]]) for a in listed]
    unique_extreme(ages, op)
    which = {"none": "have no two-factor sign-in at all", "sms": "rely on text-message codes"}
    prompt = ctx.say(
        "Find {member}'s accounts that {which}. How old, in days, is the {words} password "
        "among them?",
        "{member} has some accounts that {which}. Check each one's password age and give "
        "me the {words} (days).",
        member=member,
        which=which[method],
        words=words,
    )
    return each_listed(
        prompt,
        RefStep(tool="search_accounts", args={"member": member, "two_factor": method}),
        len(listed),
        call=("get_account_security", "account", "account_id"),
        field="password_age_days",
        op=op,
    )


def enable_2fa_two(ctx: TemplateContext) -> Draft:
    """Mixture, writes: two accounts' security (independent) -> two-factor on both."""
    chosen = ctx.sample("accounts", 2, lambda a: a.two_factor != "authenticator_app")
    prompt = ctx.say(
        "Set up authenticator-app two-factor on {a} and on {b}.",
        "Please check {a} and {b} and switch both to an authenticator app for sign-in.",
        "Both {a} and {b} need stronger sign-in: use an authenticator app as the second factor.",
        a=spoken_account(chosen[0]),
        b=spoken_account(chosen[1]),
    )
    steps = [
        RefStep(tool="get_account_security", args={"account": account_query(ctx, a)})
        for a in chosen
    ]
    steps += [
        RefStep(
            tool="enable_two_factor",
            args={"account": ref(i, "account_id"), "method": "authenticator_app"},
        )
        for i in range(2)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


SUBTOPIC = Subtopic(
    name="account security",
    topic=SECURITY,
    templates={
        "sequential": [enable_2fa, password_age_check],
        "parallel": [oldest_password, breach_exposure_of_services],
        "mixture": [no_2fa_oldest, enable_2fa_two],
    },
)
