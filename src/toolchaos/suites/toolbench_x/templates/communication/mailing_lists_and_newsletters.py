"""Mailing lists and newsletters: who sends what, how trustworthy, and unsubscribing."""

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
    finds_first,
    op_words,
    rep_pick,
    rep_source_words,
)

_REP_FIELDS = {
    "reputation_score": ("sender reputation score", None),
    "complaint_rate_pct": ("spam-complaint rate (percent)", 2),
}


def _letters(ctx: TemplateContext, where: Any = None) -> list[Any]:
    """Newsletters passing ``where`` whose name finds them first in list_subscriptions."""
    return [
        letter
        for letter in ctx.rows("newsletters", where)
        if finds_first(ctx, "list_subscriptions", "list_id", letter.list_id, query=letter.name)
    ]


def _with_mail(ctx: TemplateContext, letter: Any) -> bool:
    return any(e.sender_domain == letter.sender_domain for e in ctx.rows("emails"))


def _issue(ctx: TemplateContext, letter: Any) -> Any:
    """An issue of ``letter`` in the mailbox whose subject finds only it."""
    issues = [e for e in ctx.rows("emails") if e.sender_domain == letter.sender_domain]
    if not issues:
        raise NoFit("no issue in the mailbox")
    email = ctx.rng.choice(issues)
    if ctx.read("search_emails", subject_contains=email.subject)["total"] != 1:
        raise NoFit("subject is not unique")
    return email


def unsubscribe_sender_of_email(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the issue -> its newsletter -> unsubscribe from it."""
    letter = ctx.rng.choice(_letters(ctx, lambda n: n.status != "unsubscribed"))
    email = _issue(ctx, letter)
    prompt = ctx.say(
        "I keep getting emails like '{subject}'. Unsubscribe me from whatever list sends them.",
        "Please get me off the mailing list behind the email '{subject}'.",
        "The message '{subject}' came from a newsletter I no longer read — unsubscribe me.",
        subject=email.subject,
    )
    steps = [
        RefStep(tool="search_emails", args={"subject_contains": email.subject}),
        RefStep(tool="list_subscriptions", args={"query": ref(0, "results", 0, "sender_name")}),
        RefStep(tool="unsubscribe_newsletter", args={"list_id": ref(1, "results", 0, "list_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def subscribed_since_of_email(ctx: TemplateContext) -> Draft:
    """Sequential: find the issue -> open it -> its subscription's start date."""
    letter = ctx.rng.choice(_letters(ctx, lambda n: n.status != "unsubscribed"))
    email = _issue(ctx, letter)
    prompt = ctx.say(
        "Since when have I been subscribed to the newsletter that sent '{subject}'? Give "
        "me the date.",
        "On what date did I sign up for the list behind the email '{subject}'?",
        "How long have I had the subscription that sends '{subject}'? I need the start date.",
        subject=email.subject,
    )
    steps = [
        RefStep(tool="search_emails", args={"subject_contains": email.subject}),
        RefStep(tool="get_email", args={"email_id": ref(0, "results", 0, "email_id")}),
        RefStep(tool="list_subscriptions", args={"query": ref(1, "sender_name")}),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "results", 0, "subscribed_since"]])
    return Draft(prompt, steps, answer)


def newsletter_reputation(ctx: TemplateContext) -> Draft:
    """Sequential: the newsletter -> its mail -> the sending domain's reputation."""
    letter = ctx.rng.choice(_letters(ctx, lambda n: _with_mail(ctx, n)))
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    prompt = ctx.say(
        "Is '{name}' a reputable sender? Find its emails and give me the {words} of the "
        "domain they come from{source}.",
        "Check the mail I get from the '{name}' newsletter: what's its sending domain's "
        "{words}{source}?",
        name=letter.name,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [
        RefStep(tool="list_subscriptions", args={"query": letter.name}),
        RefStep(tool="search_emails", args={"sender": ref(0, "results", 0, "sender_domain")}),
        RefStep(tool=tool, args={"domain": ref(1, "results", 0, "sender_domain")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def newsletter_volume(ctx: TemplateContext) -> Draft:
    """Parallel: k subscriptions by name; how much they send."""
    k = ctx.count(3, 6)
    letters = ctx.rng.sample(_letters(ctx), k)
    field, op, question = ctx.rng.choice(
        [
            ("emails_last_30d", "sum", "how many emails did they send me in the last 30 days, "
             "together"),
            ("emails_last_30d", "max", "what's the most emails any one of them sent me in the "
             "last 30 days"),
            ("frequency_per_week", "sum", "how many issues a week do they publish in total"),
            ("frequency_per_week", "max", "how many issues a week does the most frequent one "
             "publish"),
        ]
    )  # fmt: skip
    prompt = ctx.say(
        "About my subscriptions {all}: {question}?",
        "My inbox is flooded. For {all}, {question}?",
        all=listing([x.name for x in letters], "'"),
        question=question,
    )
    steps = [RefStep(tool="list_subscriptions", args={"query": x.name}) for x in letters]
    refs = [[i, "results", 0, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def newsletter_domains_reputation(ctx: TemplateContext) -> Draft:
    """Parallel: one service's reputation of k newsletter domains; best or worst."""
    k = ctx.count(3, 6)
    letters = ctx.rng.sample(ctx.rows("newsletters"), k)
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "Newsletters come to me from {all}. What's the {extreme} {words} among "
        "those domains{source}?",
        "Rate the sending domains {all}{source}: I want the {extreme} {words}.",
        all=listing([x.sender_domain for x in letters]),
        extreme=extreme,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [RefStep(tool=tool, args={"domain": x.sender_domain}) for x in letters]
    return Draft(
        prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=digits)
    )


def category_reputation(ctx: TemplateContext) -> Draft:
    """Mixture: subscriptions in a category or status -> each domain's reputation -> extreme."""
    if ctx.rng.random() < 0.6:
        category = ctx.rng.choice(sorted({n.category for n in ctx.rows("newsletters")}))
        args = {"category": category}
        group = f"{category} newsletters"
    else:
        status = ctx.rng.choice(["paused", "unsubscribed"])
        args = {"status": status}
        group = f"{status} newsletters"
    found = ctx.read("list_subscriptions", **args)["results"]
    if not 2 <= len(found) <= 6:
        raise NoFit(f"{len(found)} subscriptions match")
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "Across my {group}, what's the {extreme} {words} of their sending domains{source}?",
        "Check every one of my {group} and give me the {extreme} {words}{source}.",
        group=group,
        extreme=extreme,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [RefStep(tool="list_subscriptions", args=args)]
    steps += [
        RefStep(tool=tool, args={"domain": ref(0, "results", i, "sender_domain")})
        for i in range(len(found))
    ]
    refs = [[1 + i, field] for i in range(len(found))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=digits))


def two_newsletters_storage(ctx: TemplateContext) -> Draft:
    """Mixture: k subscriptions by name -> mailbox space of each domain -> total or most."""
    k = ctx.count(2, 4)
    letters = ctx.rng.sample(_letters(ctx, lambda n: _with_mail(ctx, n)), k)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "How many KB of my mailbox do their emails take up together?",
        "max": "How many KB does the biggest space hog among them use?",
    }[op]
    prompt = ctx.say(
        "I'm thinking of dropping one of {quoted}. " + question,
        "Mailbox space used by the newsletters {plain}: " + question,
        quoted=listing([x.name for x in letters], "'").replace(" and ", " or "),
        plain=listing([x.name for x in letters]),
    )
    steps = [RefStep(tool="list_subscriptions", args={"query": x.name}) for x in letters]
    steps += [
        RefStep(
            tool="mailbox_size_total",
            args={"sender_domain": ref(i, "results", 0, "sender_domain")},
        )
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, "total_size_kb"] for i in range(k)])
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="mailing lists and newsletters",
    templates={
        "sequential": [
            unsubscribe_sender_of_email,
            subscribed_since_of_email,
            newsletter_reputation,
        ],
        "parallel": [newsletter_volume, newsletter_domains_reputation],
        "mixture": [category_reputation, two_newsletters_storage],
    },
)
