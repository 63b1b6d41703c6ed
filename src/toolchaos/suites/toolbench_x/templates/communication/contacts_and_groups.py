"""Contacts and groups: looking people up, group membership, where and when they are."""

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
from toolchaos.suites.toolbench_x.templates.communication._helpers import (
    CALL_RATE,
    SMS_RATE,
    abroad,
    city_by_offset,
    findable,
    op_words,
    pick_contact,
    rate_pick,
    rate_source_words,
    rates_via_cards,
    single_extreme_offset,
)

_RATE_WORDS = {
    CALL_RATE: "per-minute price of calling",
    SMS_RATE: "price of one text message to",
}


def call_rate_to_contact(ctx: TemplateContext) -> Draft:
    """Sequential: search the contact -> their card -> the rate to their country."""
    person = pick_contact(ctx, abroad)
    tool, field, named = rate_pick(ctx, _RATE_WORDS)
    prompt = ctx.say(
        "What's the {what} {name} from home, in dollars{source}?",
        "I want to reach {name} on their mobile. Look up where they live and tell me the "
        "{what} them{source}.",
        "How much is the {what} my contact {name}{source}?",
        what=_RATE_WORDS[field],
        name=person.name,
        source=rate_source_words(tool, named),
    )
    card, refs = rates_via_cards(tool, field, [ref(0, "results", 0, "contact_id")], 1)
    steps = [RefStep(tool="search_contacts", args={"query": person.name}), *card]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=refs, round=2))


def add_contact_to_a_group(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the contact -> their card -> add them to a group."""
    group = ctx.pick("groups")
    person = pick_contact(ctx, lambda c: group.group_id not in c.groups)
    prompt = ctx.say(
        "Please add {name} to my '{group}' group.",
        "{name} just joined us — put them in the {group} group in my contacts.",
        "Can you find {name} in my address book and add them to '{group}'?",
        name=person.name,
        group=group.name,
    )
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="get_contact", args={"contact": ref(0, "results", 0, "contact_id")}),
        RefStep(
            tool="add_contact_to_group",
            args={"contact": ref(1, "contact_id"), "group": group.name},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def furthest_ahead_in_time(ctx: TemplateContext) -> Draft:
    """Parallel: k contact cards by name; the city of whoever is furthest ahead/behind."""
    k = ctx.count(3, 6)
    people = ctx.sample("contacts", k, lambda c: findable(ctx, c))
    op = single_extreme_offset(ctx, [p.utc_offset_hours for p in people])
    words = {"argmax": "furthest ahead", "argmin": "furthest behind"}[op]
    prompt = ctx.say(
        "I need to ring {all} today. Whoever's local clock is {words} of UTC "
        "— which city do they live in?",
        "Among my contacts {all}, one lives in the time zone {words}. Which city is that?",
        "Of {all}, find the person {words} in time and tell me their city.",
        all=listing([x.name for x in people]),
        words=words,
    )
    steps = [RefStep(tool="get_contact", args={"contact": p.name}) for p in people]
    return Draft(prompt, steps, city_by_offset(op, 0, k))


def biggest_group(ctx: TemplateContext) -> Draft:
    """Parallel: members of k groups; the size of the largest or smallest."""
    k = ctx.count(3, 5)
    groups = ctx.sample("groups", k)
    op, words = op_words(ctx, "largest", "smallest")
    prompt = ctx.say(
        "How many people are in the {words} of my contact groups {all}?",
        "Between the {all} groups, how many members does the {words} one have?",
        "Count the members of my groups {all}; what's the {words} headcount?",
        all=listing([x.name for x in groups], "'"),
        words=words,
    )
    steps = [RefStep(tool="search_contacts", args={"group": g.name}) for g in groups]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "total"] for i in range(k)]))


def group_members_abroad_rates(ctx: TemplateContext) -> Draft:
    """Mixture: members of a group -> the rate to each one abroad -> dearest or cheapest."""
    group = ctx.pick("groups")
    members = ctx.read("search_contacts", group=group.group_id)["results"]
    far = [i for i, m in enumerate(members) if m["country"] != "US"]
    if not 2 <= len(far) <= 6:
        raise NoFit(f"{len(far)} members abroad")
    tool, field, named = rate_pick(ctx, _RATE_WORDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "For the members of my '{group}' group who live outside the US, what's the "
        "{extreme} {what} one of them{source}?",
        "Some people in '{group}' are abroad. Of those, what is the {extreme} {what} them "
        "from home{source}?",
        group=group.name,
        extreme=extreme,
        what=_RATE_WORDS[field],
        source=rate_source_words(tool, named),
    )
    steps = [RefStep(tool="search_contacts", args={"group": group.name})]
    steps += [RefStep(tool=tool, args={"country": ref(0, "results", i, "country")}) for i in far]
    refs = [[1 + k, field] for k in range(len(far))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def two_contacts_text_cost(ctx: TemplateContext) -> Draft:
    """Mixture: k contact cards by name -> the rate to each country -> total or dearest."""
    k = ctx.count(2, 4)
    people = ctx.sample("contacts", k, lambda c: abroad(c) and findable(ctx, c))
    tool, field, named = rate_pick(ctx, _RATE_WORDS)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        ("sum", SMS_RATE): "what does it cost in total to send each of them one text",
        ("max", SMS_RATE): "what's the dearest of their per-text prices",
        ("sum", CALL_RATE): "what do their per-minute calling rates add up to",
        ("max", CALL_RATE): "what's the highest of their per-minute calling rates",
    }[(op, field)]
    prompt = ctx.say(
        "{all} {every} live abroad. From home, {question}{source}?",
        "Looking at my contacts {all}: {question}, in dollars{source}?",
        all=listing([p.name for p in people]),
        every="both" if k == 2 else "all",
        question=question,
        source=rate_source_words(tool, named),
    )
    steps, refs = rates_via_cards(tool, field, [p.name for p in people], 0)
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="contacts and groups",
    templates={
        "sequential": [call_rate_to_contact, add_contact_to_a_group],
        "parallel": [furthest_ahead_in_time, biggest_group],
        "mixture": [group_members_abroad_rates, two_contacts_text_cost],
    },
)
