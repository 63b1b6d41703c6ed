"""Lifestyle subtopic "household chores": the rota, turns, time spent and supplies."""

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
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    _basket_total,
    _list_at_stores,
    _stores,
)


def done_and_next_turn(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the chore -> mark it done today -> the coming rota."""
    today = ctx.day(0)
    chore = ctx.pick("chores", lambda c: c.last_done < today)
    turns = ctx.rng.choice([3, 4, 5, 6, 8])
    prompt = ctx.say(
        "'{chore}' got done today. Tick it off and show me who's up for the next {n} turns.",
        "Mark '{chore}' as done today so the rota moves on, then list the next {n} turns.",
        "We finished '{chore}' this morning. Record it and give me the upcoming {n}-turn rota.",
        chore=chore.name,
        n=turns,
    )
    steps = [
        RefStep(tool="list_chores", args={"name_contains": chore.name}),
        RefStep(
            tool="complete_chore",
            args={"chore": ref(0, "results", 0, "chore_id"), "done_on": today},
        ),
        RefStep(tool="get_chore_rota", args={"chore": ref(1, "chore_id"), "occurrences": turns}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def next_turn_holder_load(ctx: TemplateContext) -> Draft:
    """Sequential: a chore -> its coming turns -> whoever has turn k -> their chores' minutes.

    The user names the chore and which turn; the person comes from the rota, and their
    chores (with the minutes each takes) from the chore list filtered to them.
    """
    chore = ctx.pick("chores", lambda c: len(set(c.rota)) >= 2)
    k = ctx.rng.randint(1, 4)
    rota = ctx.read("get_chore_rota", chore=chore.chore_id, occurrences=k)["schedule"]
    holder = rota[k - 1]["member_name"]
    theirs = ctx.read("list_chores", member=holder)["results"]
    if len(theirs) < 2:
        raise NoFit("the person has one chore only")
    nth = {1: "next", 2: "second", 3: "third", 4: "fourth"}[k]
    prompt = ctx.say(
        "Whoever does the {nth} upcoming turn of '{chore}': add up the minutes of every "
        "chore they're on the rota for (one turn of each).",
        "Look at the rota of '{chore}' and find who has its {nth} coming turn. How many "
        "minutes do all the chores on that person's rota take, once each?",
        nth=nth,
        chore=chore.name,
    )
    steps = [
        RefStep(tool="list_chores", args={"name_contains": chore.name}),
        RefStep(
            tool="get_chore_rota",
            args={"chore": ref(0, "results", 0, "chore_id"), "occurrences": k},
        ),
        RefStep(tool="list_chores", args={"member": ref(1, "schedule", k - 1, "member_name")}),
    ]
    refs = [[2, "results", i, "minutes"] for i in range(len(theirs))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs))


def minutes_for_member(ctx: TemplateContext) -> Draft:
    """Parallel: the rota of three to six chores; one member's total minutes."""
    member = ctx.pick("members")
    mine = [c for c in ctx.rows("chores") if member.member_id in c.rota]
    if len(mine) < 3:
        raise NoFit("fewer than three chores")
    chores = ctx.rng.sample(mine, ctx.count(3, min(6, len(mine))))
    prompt = ctx.say(
        "Over the next four turns each of {chores}, how many minutes will {who} spend on "
        "them in total?",
        "{who} is on the rota for {chores}. Across the next four turns of each, what's "
        "their total time in minutes?",
        chores=listing([c.name for c in chores], "'"),
        who=member.name,
    )
    steps = [RefStep(tool="get_chore_rota", args={"chore": c.name}) for c in chores]
    refs = [[i, "minutes_by_member_id", member.member_id] for i in range(len(chores))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs))


def cleaning_supplies(ctx: TemplateContext) -> Draft:
    """Parallel: three to six cleaning supplies at one store; the total."""
    return _basket_total(
        ctx,
        "household",
        "Chore day supplies: {items} from {store}. Total for one of each ({source})?",
        "Before the big clean I need {items}. What's that at {store}, by {source}?",
    )


def member_weekly_minutes(ctx: TemplateContext) -> Draft:
    """Mixture: the member's chores -> each chore's rota -> the member's total minutes."""
    member = ctx.pick("members")
    chores = ctx.read("list_chores", member=member.name)["results"]
    if len(chores) < 2:
        raise NoFit("too few chores")
    prompt = ctx.say(
        "Across every chore {who} is on the rota for, how many minutes will they put in over "
        "the next four turns of each?",
        "Add up {who}'s chore time: all their chores, next four turns apiece, in minutes.",
        who=member.name,
    )
    steps = [RefStep(tool="list_chores", args={"member": member.name})]
    steps += [
        RefStep(tool="get_chore_rota", args={"chore": ref(0, "results", i, "chore_id")})
        for i in range(len(chores))
    ]
    refs = [[1 + i, "minutes_by_member_id", member.member_id] for i in range(len(chores))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs))


def restock_cleaning_list(ctx: TemplateContext) -> Draft:
    """Mixture: the cleaning list -> its cost at two to five stores -> the cheapest."""
    lst = ctx.pick("shopping_lists", lambda s: "clean" in s.name.casefold())
    stores = _stores(ctx, ctx.count(2, 5))
    prompt = ctx.say(
        "I could shop at {stores}. Where's my '{name}' list cheapest? Just the lowest total.",
        "Price my '{name}' list at {stores} and tell me the best total.",
        name=lst.name,
        stores=listing([s.name for s in stores]),
    )
    refs = [[1 + i, "total_usd"] for i in range(len(stores))]
    answer = AnswerSpec(op="min", refs=refs, round=2)
    return Draft(prompt, _list_at_stores(lst, stores), answer)


SUBTOPIC = Subtopic(
    name="household chores",
    templates={
        "sequential": [done_and_next_turn, next_turn_holder_load],
        "parallel": [minutes_for_member, cleaning_supplies],
        "mixture": [member_weekly_minutes, restock_cleaning_list],
    },
)
