"""Email inbox: finding messages, who sent them and how trustworthy, storage, labels."""

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
    findable,
    op_words,
    rep_pick,
    rep_source_words,
    unique_subject_email,
)

_REP_FIELDS = {
    "reputation_score": ("reputation score (0-100)", None),
    "complaint_rate_pct": ("spam-complaint rate (percent)", 2),
}


def _received(email: Any) -> bool:
    return bool(email.folder != "sent")


def sender_reputation_of_email(ctx: TemplateContext) -> Draft:
    """Sequential: find the email by subject -> open it -> its sender domain's reputation."""
    email = unique_subject_email(ctx, _received)
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    prompt = ctx.say(
        "I got an email titled '{subject}'. Before I click anything in it, what's the "
        "{words} of the domain it came from{source}?",
        "Can you check the message '{subject}' in my mailbox and tell me the sending "
        "domain's {words}{source}?",
        "Is the sender of '{subject}' trustworthy? Give me their domain's {words}{source}.",
        subject=email.subject,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [
        RefStep(tool="search_emails", args={"subject_contains": email.subject}),
        RefStep(tool="get_email", args={"email_id": ref(0, "results", 0, "email_id")}),
        RefStep(tool=tool, args={"domain": ref(1, "sender_domain")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


_LABELS = ("follow-up", "important", "travel", "finance", "receipts")


def _latest_from_contact(ctx: TemplateContext) -> tuple[Any, dict[str, Any]]:
    """A contact whose name finds them first, and the newest email they sent (found by it)."""
    senders = {e.sender_email for e in ctx.rows("emails") if e.folder != "sent"}
    person = ctx.pick("contacts", lambda c: c.email in senders)
    if not findable(ctx, person):
        raise NoFit("the name does not find the contact first")
    latest = ctx.read("search_emails", sender=person.email)["results"]
    if not latest or latest[0]["sender_email"] != person.email:
        raise NoFit("no email from that address first")
    return person, latest[0]


def label_latest_from_contact(ctx: TemplateContext) -> Draft:
    """Sequential, writes: contact -> their emails (newest first) -> label the latest."""
    person, latest = _latest_from_contact(ctx)
    label = ctx.rng.choice([x for x in _LABELS if x not in latest["labels"]])
    readout = ctx.rng.random() < 0.4
    prompt = ctx.say(
        "Find the most recent email {name} sent me and tag it '{label}'.{ask}",
        "Please add the label '{label}' to the latest message from {name}.{ask}",
        "The newest email from {name} needs the '{label}' label. Can you do that?{ask}",
        name=person.name,
        label=label,
        ask=" What's its subject line?" if readout else "",
    )
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="search_emails", args={"sender": ref(0, "results", 0, "email")}),
        RefStep(
            tool="label_email",
            args={"email_id": ref(1, "results", 0, "email_id"), "label": label},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "subject"]]) if readout else AnswerSpec(op="none")
    return Draft(prompt, steps, answer, writes=True)


def reputation_of_contacts_latest(ctx: TemplateContext) -> Draft:
    """Sequential: contact -> their emails (newest first) -> the sending domain's reputation."""
    person, _ = _latest_from_contact(ctx)
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    prompt = ctx.say(
        "The last email from {name} looked off. What's the {words} of the domain it came "
        "from{source}?",
        "Check the newest message {name} sent me: what {words} does its sending domain "
        "have{source}?",
        name=person.name,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="search_emails", args={"sender": ref(0, "results", 0, "email")}),
        RefStep(tool=tool, args={"domain": ref(1, "results", 0, "sender_domain")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def _domains(ctx: TemplateContext) -> list[str]:
    return sorted(
        {e.sender_domain for e in ctx.rows("emails") if e.sender_domain != "homemail.net"}
    )


def storage_by_sender_domain(ctx: TemplateContext) -> Draft:
    """Parallel: mailbox storage of k sending domains; total or largest."""
    k = ctx.count(3, 6)
    chosen = ctx.rng.sample(_domains(ctx), k)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how much mailbox space do they take up together, in KB",
        "max": "how many KB does the biggest of the three take up",
    }[op]
    prompt = ctx.say(
        "My mailbox is nearly full. Looking at mail from {all}: {question}?",
        "Storage check for messages sent from {all} — {question}?",
        "Tally the space used by email from the domains {all}; {question}?",
        all=listing(chosen),
        question=question,
    )
    steps = [RefStep(tool="mailbox_size_total", args={"sender_domain": d}) for d in chosen]
    answer = AnswerSpec(op=op, refs=[[i, "total_size_kb"] for i in range(k)])
    return Draft(prompt, steps, answer)


def reputation_of_three_domains(ctx: TemplateContext) -> Draft:
    """Parallel: one reputation service for k domains; best or worst."""
    k = ctx.count(3, 6)
    chosen = ctx.rng.sample([d for d in _domains(ctx) if d != "homemail.net"], k)
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "I'm cleaning up my inbox. Of the sending domains {all}, what's the "
        "{extreme} {words}{source}?",
        "Compare {all} as email senders{source}: give me the {extreme} {words}.",
        all=listing(chosen),
        extreme=extreme,
        words=words,
        source=rep_source_words(tool, named),
    )
    steps = [RefStep(tool=tool, args={"domain": d}) for d in chosen]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=digits)
    return Draft(prompt, steps, answer)


def attachments_in_a_folder_label(ctx: TemplateContext) -> Draft:
    """Mixture: search (folder, label, with attachments) -> open each -> biggest or total."""
    folder = ctx.rng.choice(["inbox", "archive"])
    label = ctx.rng.choice(["work", "personal", "travel", "finance", "receipts", "important"])
    found = ctx.read("search_emails", folder=folder, label=label, has_attachments=True)
    n = found["total"]
    if not 2 <= n <= 4:
        raise NoFit(f"{n} messages match")
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many KB of attachments do they carry in total",
        "max": "what's the largest attachment payload among them, in KB",
    }[op]
    prompt = ctx.say(
        "Look at the '{label}' emails in my {folder} that have attachments: {question}?",
        "For messages labelled '{label}' in the {folder} folder with files attached, {question}?",
        label=label,
        folder=folder,
        question=question,
    )
    steps = [
        RefStep(
            tool="search_emails",
            args={"folder": folder, "label": label, "has_attachments": True},
        )
    ]
    steps += [
        RefStep(tool="get_email", args={"email_id": ref(0, "results", i, "email_id")})
        for i in range(n)
    ]
    answer = AnswerSpec(op=op, refs=[[1 + i, "attachment_kb"] for i in range(n)])
    return Draft(prompt, steps, answer)


def reputation_of_two_emails(ctx: TemplateContext) -> Draft:
    """Mixture: find k emails by subject -> the reputation of each sender -> min or max."""
    k = ctx.count(2, 4)
    emails: list[Any] = []
    for _ in range(k):
        domains = {e.sender_domain for e in emails}
        emails.append(
            unique_subject_email(
                ctx, lambda e, domains=domains: _received(e) and e.sender_domain not in domains
            )
        )
    tool, field, words, digits, named = rep_pick(ctx, _REP_FIELDS)
    op, extreme = op_words(ctx, "higher", "lower") if k == 2 else op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "{N} emails look odd: {all}. Check their senders' domains{source} and tell me the "
        "{extreme} {words}.",
        "Among the senders of {all}, what's the {extreme} {words}{source}?",
        N=["Two", "Three", "Four"][k - 2],
        all=listing([e.subject for e in emails], "'"),
        source=rep_source_words(tool, named),
        extreme=extreme,
        words=words,
    )
    steps = [RefStep(tool="search_emails", args={"subject_contains": e.subject}) for e in emails]
    steps += [
        RefStep(tool=tool, args={"domain": ref(i, "results", 0, "sender_domain")}) for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, field] for i in range(k)], round=digits)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="email inbox",
    templates={
        "sequential": [
            sender_reputation_of_email,
            label_latest_from_contact,
            reputation_of_contacts_latest,
        ],
        "parallel": [storage_by_sender_domain, reputation_of_three_domains],
        "mixture": [attachments_in_a_folder_label, reputation_of_two_emails],
    },
)
