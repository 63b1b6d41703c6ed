"""Lifestyle subtopic "home maintenance": upkeep due dates, pros, quotes and ratings."""

from __future__ import annotations

from datetime import timedelta

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    ref,
)
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    RATING_SOURCES,
    _a,
    _book_listed,
    _quotes,
    _rate_each,
    _rate_each_found,
    _source,
)

_HOME_TRADES = ("plumbing", "hvac", "electrical", "lawn care", "cleaning")


def done_and_book_next(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: find the task -> mark it done -> next-due slots -> book."""
    task = ctx.pick(
        "maintenance", lambda t: t.provider_category is not None and t.interval_days <= 365
    )
    listed = ctx.read("list_maintenance_tasks", appliance=task.appliance)["results"]
    j = [r["task_id"] for r in listed].index(task.task_id)
    provider = ctx.pick("providers", lambda p: p.category == task.provider_category)
    services = ctx.read("list_services", provider=provider.provider_id)["results"]
    k_all = [i for i, s in enumerate(services) if s["name"].casefold() in task.task.casefold()]
    if not k_all:
        k_all = list(range(len(services)))
    k = ctx.rng.choice(k_all)
    back = ctx.rng.randint(0, 3)
    done = ctx.today() - timedelta(days=back)
    if done.isoformat() < task.last_done:
        raise NoFit("done before the last time")
    due = done + timedelta(days=task.interval_days)
    if due.weekday() > 4:
        raise NoFit("next due date falls on a weekend")
    times = ctx.read("list_services", provider=provider.provider_id, date=due.isoformat())
    if not times["results"][k]["available_times"]:
        raise NoFit("no free time on the due date")
    when = {0: "today", 1: "yesterday"}.get(back, f"on {done.isoformat()}")
    prompt = ctx.say(
        "We did the '{task}' for the {appl} {when}. Log it, then book {pro}'s {svc} for the "
        "day it's next due, earliest slot.",
        "Mark '{task}' ({appl}) as done {when} and schedule {pro} to do {a_svc} on its next "
        "due date, first available time.",
        task=task.task,
        appl=task.appliance.lower(),
        when=when,
        pro=provider.name,
        svc=services[k]["name"].lower(),
        a_svc=_a(services[k]["name"].lower()),
    )
    steps = [
        RefStep(tool="list_maintenance_tasks", args={"appliance": task.appliance}),
        RefStep(
            tool="complete_maintenance_task",
            args={"task_id": ref(0, "results", j, "task_id"), "done_on": done.isoformat()},
        ),
        RefStep(
            tool="list_services",
            args={"provider": provider.name, "date": ref(1, "next_due")},
        ),
        _book_listed(2, k, ref(1, "next_due")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def rating_of_local_pro(ctx: TemplateContext) -> Draft:
    """Sequential: the task -> providers of its trade in a neighborhood -> a rating."""
    task = ctx.pick("maintenance", lambda t: t.provider_category is not None)
    listed = ctx.read("list_maintenance_tasks", appliance=task.appliance)["results"]
    j = [r["task_id"] for r in listed].index(task.task_id)
    provider = ctx.pick("providers", lambda p: p.category == task.provider_category)
    hood = provider.neighborhood
    tool, guide, named = _source(ctx, RATING_SOURCES)
    prompt = ctx.say_source(
        named,
        "For the '{task}' on our {appl}, find the right kind of pro based in {hood} (first "
        "one alphabetically) and tell me their {guide} rating.",
        "Who could do the {appl}'s '{task}' from {hood}? Take the first match by name and "
        "give me its {guide} stars.",
        task=task.task,
        appl=task.appliance.lower(),
        hood=hood,
        slot="guide",
        guide=guide,
    )
    steps = [
        RefStep(tool="list_maintenance_tasks", args={"appliance": task.appliance}),
        RefStep(
            tool="search_providers",
            args={
                "category": ref(0, "results", j, "provider_category"),
                "neighborhood": hood,
            },
        ),
        RefStep(tool=tool, args={"business": ref(1, "results", 0, "provider_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "rating_stars"]], round=1))


def cheapest_quote(ctx: TemplateContext) -> Draft:
    """Parallel: three to five providers' service lists; the lowest price of one service."""
    return _quotes(
        ctx,
        _HOME_TRADES,
        ("lowest", "highest"),
        "Getting quotes for {a_svc}: what's the {words} price among {names}?",
        "What's the {words} price for {a_svc} among {names}, before call-out fees?",
    )


def trade_ratings(ctx: TemplateContext) -> Draft:
    """Parallel: one guide's rating of three to five tradespeople; the best or worst."""
    trade = ctx.rng.choice(_HOME_TRADES[:4])
    pros = ctx.sample("providers", ctx.count(3, 5), lambda p: p.category == trade)
    return _rate_each(
        ctx,
        pros,
        ("worst", "best"),
        "I have {n} {trade} quotes. What's the {words} {guide} rating among {names}?",
        "Check {names} on {guide}; I want the {words} rating among them.",
        trade=trade,
        n=len(pros),
    )


def best_rated_trade(ctx: TemplateContext) -> Draft:
    """Mixture: every provider of a trade -> one guide's rating of each -> max or min."""
    trade = ctx.rng.choice(_HOME_TRADES)
    found = ctx.read("search_providers", category=trade)["results"]
    return _rate_each_found(
        ctx,
        RefStep(tool="search_providers", args={"category": trade}),
        "provider_id",
        len(found),
        ("lowest", "top"),
        "What's the {words} {guide} rating among all the {trade} companies in the directory?",
        "Rate-check every {trade} provider on {guide} and give me the {words} score.",
        trade=trade,
    )


SUBTOPIC = Subtopic(
    name="home maintenance",
    templates={
        "sequential": [done_and_book_next, rating_of_local_pro],
        "parallel": [cheapest_quote, trade_ratings],
        "mixture": [best_rated_trade],
    },
)
