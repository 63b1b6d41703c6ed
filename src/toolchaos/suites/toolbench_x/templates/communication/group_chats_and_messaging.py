"""Group chats and messaging: who said what, posting, and reaching chat members abroad."""

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
from toolchaos.suites.toolbench_x.templates.communication._helpers import (
    CALL_RATE,
    SMS_RATE,
    contact_row,
    finds_first,
    group_chats,
    op_words,
    rate_pick,
    rate_source_words,
    rates_via_cards,
)

_RATE_WORDS = {CALL_RATE: "per-minute call rate", SMS_RATE: "price of a text"}


def _titled_first(ctx: TemplateContext, chat: Any) -> bool:
    return finds_first(ctx, "list_chats", "chat_id", chat.chat_id, query=chat.title)


def _chat(ctx: TemplateContext) -> Any:
    chat = ctx.rng.choice(group_chats(ctx))
    if not _titled_first(ctx, chat):
        raise NoFit(f"{chat.title!r} does not find itself first")
    return chat


def last_poster_rate(ctx: TemplateContext) -> Draft:
    """Sequential: find the chat -> its messages -> last other poster's card -> their rate."""
    chat = _chat(ctx)
    messages = ctx.read("get_chat_messages", chat=chat.chat_id)["results"]
    others = [i for i, m in enumerate(messages) if m["sender_id"] != "me"]
    if not others:
        raise NoFit("nobody else wrote")
    k = others[-1]
    person = contact_row(ctx, messages[k]["sender_id"])
    if person.country == "US":
        raise NoFit("the last poster lives at home")
    tool, field, named = rate_pick(ctx, _RATE_WORDS)
    prompt = ctx.say(
        "Whoever posted last in '{chat}' (not counting me) — I want to reach them directly. "
        "What's the {what} to their country{source}?",
        "Check the '{chat}' group chat: the most recent message from someone other than me. "
        "What's the {what} to where that person lives{source}?",
        "I'd like to phone the last person who wrote in {chat}, apart from me. Give me the "
        "{what} to their country{source}.",
        chat=chat.title,
        what=_RATE_WORDS[field],
        source=rate_source_words(tool, named),
    )
    card, refs = rates_via_cards(tool, field, [ref(1, "results", k, "sender_id")], 2)
    steps = [
        RefStep(tool="list_chats", args={"query": chat.title}),
        RefStep(tool="get_chat_messages", args={"chat": ref(0, "results", 0, "chat_id")}),
        *card,
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=refs, round=2))


_POSTS = (
    "Running a bit late, start without me!",
    "Thanks everyone, see you next week.",
    "I can bring the drinks this time.",
    "Count me in for Saturday.",
    "Could someone share the notes from last time?",
)


def post_in_chat(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the chat -> read it -> post a message there."""
    chat = _chat(ctx)
    text = ctx.rng.choice(_POSTS)
    prompt = ctx.say(
        "Open my '{chat}' chat, catch up on it, and post: \"{text}\"",
        'Please send "{text}" to the {chat} group.',
        "In the '{chat}' conversation, reply with the message \"{text}\".",
        chat=chat.title,
        text=text,
    )
    steps = [
        RefStep(tool="list_chats", args={"query": chat.title}),
        RefStep(tool="get_chat_messages", args={"chat": ref(0, "results", 0, "chat_id")}),
        RefStep(tool="send_chat_message", args={"chat": ref(1, "chat_id"), "text": text}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def busiest_of_three_chats(ctx: TemplateContext) -> Draft:
    """Parallel: the messages of k chats by title; most, fewest or total."""
    k = ctx.count(3, 6)
    chats = ctx.rng.sample(group_chats(ctx), k)
    op = ctx.rng.choice(["max", "min", "sum"])
    question = {
        "max": "how many messages are in the busiest of them",
        "min": "how many messages does the quietest one have",
        "sum": "how many messages are there across all of them",
    }[op]
    prompt = ctx.say(
        "Looking at my chats {all}: {question}?",
        "I've been away. Between {all}, {question}?",
        "Chat activity check for {all} — {question}?",
        all=listing([x.title for x in chats], "'"),
        question=question,
    )
    steps = [RefStep(tool="get_chat_messages", args={"chat": c.title}) for c in chats]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "total"] for i in range(k)]))


def largest_chat(ctx: TemplateContext) -> Draft:
    """Parallel: k chats found by title; the largest or smallest membership."""
    k = ctx.count(3, 6)
    chats = ctx.rng.sample(group_chats(ctx), k)
    if not all(_titled_first(ctx, chat) for chat in chats):
        raise NoFit("a title does not find its chat first")
    op, words = op_words(ctx, "largest", "smallest")
    prompt = ctx.say(
        "How many people (me included) are in the {words} of my group chats {all}?",
        "Of the chats {all}, what's the member count of the {words} one, counting me?",
        all=listing([x.title for x in chats], "'"),
        words=words,
    )
    steps = [RefStep(tool="list_chats", args={"query": c.title}) for c in chats]
    answer = AnswerSpec(op=op, refs=[[i, "results", 0, "member_count"] for i in range(k)])
    return Draft(prompt, steps, answer)


def chat_members_abroad_rate(ctx: TemplateContext) -> Draft:
    """Mixture: find the chat -> each member abroad's card -> their rates -> max or min."""
    chat = _chat(ctx)
    far = [j for j, cid in enumerate(chat.member_ids) if contact_row(ctx, cid).country != "US"]
    if not 2 <= len(far) <= 4:
        raise NoFit(f"{len(far)} members abroad")
    tool, field, named = rate_pick(ctx, _RATE_WORDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "Some people in my '{chat}' chat live abroad. Among them, what's the {extreme} "
        "{what} from here to their country{source}?",
        "For the members of '{chat}' outside the US, give me the {extreme} {what} I'd pay "
        "to reach one of them{source}.",
        chat=chat.title,
        extreme=extreme,
        what=_RATE_WORDS[field],
        source=rate_source_words(tool, named),
    )
    members = [ref(0, "results", 0, "member_ids", j) for j in far]
    cards, refs = rates_via_cards(tool, field, members, 1)
    steps = [RefStep(tool="list_chats", args={"query": chat.title}), *cards]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def my_posts_in_two_chats(ctx: TemplateContext) -> Draft:
    """Mixture: find k chats -> my messages in each -> total or most."""
    k = ctx.count(2, 4)
    chats = ctx.rng.sample(group_chats(ctx), k)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "How many messages have I posted in them altogether?",
        "max": "In whichever of them I post the most, how many messages are mine?",
    }[op]
    prompt = ctx.say(
        "I feel like I talk too much in {quoted}. " + question,
        "Count my own messages in the chats {plain}. " + question,
        quoted=listing([c.title for c in chats], "'"),
        plain=listing([c.title for c in chats]),
    )
    steps = [RefStep(tool="list_chats", args={"query": c.title}) for c in chats]
    steps += [
        RefStep(
            tool="get_chat_messages",
            args={"chat": ref(i, "results", 0, "chat_id"), "sender": "me"},
        )
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[k + i, "total"] for i in range(k)]))


SUBTOPIC = Subtopic(
    name="group chats and messaging",
    templates={
        "sequential": [last_poster_rate, post_in_chat],
        "parallel": [busiest_of_three_chats, largest_chat],
        "mixture": [chat_members_abroad_rate, my_posts_in_two_chats],
    },
)
