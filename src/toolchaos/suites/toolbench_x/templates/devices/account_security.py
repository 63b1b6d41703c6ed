"""Devices subtopic "account security": password hygiene, policy checks and two-factor."""

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
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    MEMBERS,
    SECURITY,
    account_query,
    breach_sizes,
    each_listed,
    extreme,
    pick_account,
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
    acc, who, finder = pick_account(ctx, lambda a: a.two_factor in ("none", "sms"))
    method = ctx.rng.choice([m for m in METHODS if m != acc.two_factor])
    prompt = ctx.say(
        "Lock down {who}: check how it's protected and switch its two-factor sign-in to {how}.",
        "Please turn on {how} as the second factor for {who}.",
        "{who_cap} only has weak sign-in protection. Set two-factor to {how}.",
        who=who,
        who_cap=who[0].upper() + who[1:],
        how=METHODS[method],
    )
    steps = [
        finder,
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(tool="enable_two_factor", args={"account": ref(1, "account_id"), "method": method}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def password_age_check(ctx: TemplateContext) -> Draft:
    """Sequential: search the account -> its security record -> policy check (age)."""
    _, who, finder = pick_account(ctx, lambda a: _age(ctx, a) > 60)
    limit = ctx.rng.choice([90, 180, 365, 730])
    prompt = ctx.say(
        "Our rule is to change passwords every {limit} days. How many days old is the "
        "password on {who}?",
        "Run a password check on {who} with a {limit}-day maximum age. How old is its "
        "password, in days?",
        "How many days has it been since the password on {who} was changed? Check it "
        "against a {limit}-day policy while you're at it.",
        limit=limit,
        who=who,
    )
    steps = [
        finder,
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="check_password_policy",
            args={"account": ref(1, "account_id"), "max_age_days": limit},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "password_age_days"]]))


def breached_account_password_age(ctx: TemplateContext) -> Draft:
    """Sequential: a member's breach notice -> the breached account -> a policy check or 2FA.

    The notice names the account, so the member never needs its id.
    """
    member = ctx.rng.choice(MEMBERS)
    notice = ctx.rng.choice(ctx.read("list_breach_notices", member=member)["results"])
    service = notice["service"]
    if ctx.read("list_breach_notices", member=member, service=service)["total"] != 1:
        raise NoFit("the member must have exactly one notice about the service")
    steps = [
        RefStep(tool="list_breach_notices", args={"member": member, "service": service}),
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
    ]
    if ctx.rng.random() < 0.5:
        limit = ctx.rng.choice([90, 180, 365])
        prompt = ctx.say(
            "{member} got a data-breach notice about {service}. Check the breached account's "
            "password against our {limit}-day policy: how many days old is it?",
            "{member}'s {service} account was caught in a breach. Find it from the notice, "
            "run the {limit}-day password policy check and tell me the password's age in days.",
            member=member,
            service=service,
            limit=limit,
        )
        steps.append(
            RefStep(
                tool="check_password_policy",
                args={"account": ref(1, "account_id"), "max_age_days": limit},
            )
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "password_age_days"]]))
    account = ctx.world.table("accounts")[notice["account_id"]]
    method = ctx.rng.choice([m for m in METHODS if m != account.two_factor])
    prompt = ctx.say(
        "{member} got a data-breach notice about {service}. Secure the breached account: set "
        "its two-factor sign-in to {how}.",
        "{member}'s {service} account was caught in a breach. Find it from the notice and "
        "switch its second factor to {how}.",
        member=member,
        service=service,
        how=METHODS[method],
    )
    steps.append(
        RefStep(tool="enable_two_factor", args={"account": ref(1, "account_id"), "method": method})
    )
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def oldest_password(ctx: TemplateContext) -> Draft:
    """Parallel: security records of k accounts; the oldest or newest password age."""
    k = ctx.count(3, 6)
    chosen = ctx.sample("accounts", k, lambda a: _age(ctx, a) > 30)
    op, words = extreme(ctx, {"max": "the oldest", "min": "the most recently changed"})
    unique_extreme([_age(ctx, a) for a in chosen], op)
    prompt = ctx.say(
        "Among {all}, how many days old is {words} password?",
        "Password audit: check {all}. What's the age in days of {words} one?",
        words=words,
        all=listing([spoken_account(a) for a in chosen]),
    )
    steps = [
        RefStep(tool="get_account_security", args={"account": account_query(ctx, a)})
        for a in chosen
    ]
    refs = [[i, "password_age_days"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def breach_exposure_of_services(ctx: TemplateContext) -> Draft:
    """Parallel: three to six breached services from one source; total or largest count."""
    return breach_sizes(
        ctx,
        BREACH_TOOLS,
        {
            "sum": "how many records were exposed across those breaches",
            "max": "the record count of the largest of those breaches",
        },
        (
            "I'm deciding which passwords to rotate first. {all} were all breached; per "
            "{source}, {words}?",
            "Using {source}: for the {all} breaches, {words}?",
            "Breach sizes for {all} according to {source}: {words}?",
        ),
        (
            "I'm deciding which passwords to rotate first. {all} were all breached; {words}?",
            "For the {all} breaches, {words}?",
        ),
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
    """Mixture, writes: k accounts' security (independent) -> two-factor on each."""
    k = ctx.count(2, 4)
    chosen = ctx.sample("accounts", k, lambda a: a.two_factor != "authenticator_app")
    prompt = ctx.say(
        "Set up authenticator-app two-factor on {all}.",
        "Please check {all} and switch {each} to an authenticator app for sign-in.",
        "{All} need stronger sign-in: use an authenticator app as the second factor.",
        all=listing([spoken_account(a) for a in chosen]),
        All=listing([spoken_account(a) for a in chosen]),
        each="both" if k == 2 else "each of them",
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
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


SUBTOPIC = Subtopic(
    name="account security",
    topic=SECURITY,
    templates={
        "sequential": [enable_2fa, password_age_check, breached_account_password_age],
        "parallel": [oldest_password, breach_exposure_of_services],
        "mixture": [no_2fa_oldest, enable_2fa_two],
    },
)
