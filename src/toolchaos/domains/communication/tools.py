"""The communication tools: contacts, mail, chats, calls, plan, roaming, lists, meetings.

They also cover sender reputation and scheduled messages.

Lookups, the mailbox size total and a few record-keeping writes are declared through the
shared shapes; searches with several filters, the usage projection, roaming estimates,
time-zone aware scheduling and meeting booking are written by hand. A ``contact``
parameter takes a contact id or the contact's full name or email; a ``chat`` a chat id or
its title; a ``room`` a room id or its name; a ``country`` an ISO code or the country's
name. Refusals are :class:`ToolError`: 404 for an unknown id or name, 409 for a record in
the wrong state or a clash, 422 for a request that breaks a rule.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    conflict,
    date_arg,
    enum_schema,
    find_key,
    int_arg,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    text_arg,
    unprocessable,
)
from toolchaos.domains._shapes import Filter, phrased_tool
from toolchaos.domains.communication import data
from toolchaos.domains.communication.world import (
    CHANNELS,
    EMAIL_FOLDERS,
    ME,
    SUBSCRIPTION_STATUSES,
    AddonPurchase,
    ChatMessage,
    CommunicationWorld,
    Contact,
    Email,
    Meeting,
    Newsletter,
    RoamingPass,
    ScheduledMessage,
)

MAX_SCHEDULE_DAYS = 30
MAX_PASS_DAYS = 30
MAX_TEXT_CHARS = 1000
MAX_TRIP_DAYS = 90
MAX_MINUTES = 100000
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"
LOCAL_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
LABEL_TEXT = re.compile(r"[a-z0-9][a-z0-9-]{0,29}")
EMAIL_TEXT = re.compile(r"[^@\s]+@[^@\s]+\.[a-z]{2,}")
HOME_TZ = timezone(timedelta(hours=data.HOME_OFFSET_HOURS))

CONTACT_DOC = (
    "A contact id (e.g. 'CT-1234'), or the contact's full name or email address. Use "
    "search_contacts to find the id when only part of a name is known."
)
CHAT_DOC = "A chat id (e.g. 'CH-123') or the chat's exact title (list_chats finds it)."
ROOM_DOC = "A room id (e.g. 'ROOM-03') or the room's name (list_meeting_rooms finds it)."
COUNTRY_DOC = "An ISO country code such as 'FR', or the country's name such as 'France'."
_RATES_DOC = (
    "country (ISO code), country_name, data_per_mb_usd (roaming data, US dollars per MB), "
    "roaming_call_per_min_usd (calls made or received while there, per minute), "
    "intl_call_per_min_usd (calling a number in that country from home, per minute), "
    "sms_usd (one text to a number there), daypass_usd (price of a one-day roaming "
    "pass, null where none is sold), as_of (UTC time the rates were last updated), "
    "reference and source"
)
_REP_DOC = (
    "domain, reputation_score (out of a hundred, higher is more trustworthy), complaint_rate_pct "
    "(share of recipients who reported its mail as spam, percent), verdict ('good' for "
    "trusted senders, 'neutral' or 'poor'), as_of (UTC time of the assessment), "
    "reference and source"
)
_EMAIL_DOC = (
    "email_id, folder, sender_name, sender_email, sender_domain, to, subject, labels, "
    "received_at (UTC), size_kb (whole message, kilobytes), attachment_count, "
    "attachment_kb and unread"
)

DOC_PHRASES = {
    "contact": CONTACT_DOC,
    "chat": CHAT_DOC,
    "room": ROOM_DOC,
    "country": COUNTRY_DOC,
    "rates": _RATES_DOC,
    "rep": _REP_DOC,
    "email": _EMAIL_DOC,
    "line": "A line id (e.g. 'LN-02'), the line owner's first name (e.g. 'Sam') or its "
    "phone number.",
}


def _comm(world: World) -> CommunicationWorld:
    return cast(CommunicationWorld, world)


_tool = phrased_tool(DOC_PHRASES)


# -- argument checks ---------------------------------------------------------------------------


def _local_moment(value: Any, param: str) -> datetime:
    text = value.strip() if isinstance(value, str) else ""
    if LOCAL_TIME.fullmatch(text) is None:
        raise unprocessable(f"{param} must be a local time written YYYY-MM-DDTHH:MM, got '{value}'")
    try:
        return datetime.strptime(text, LOCAL_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise unprocessable(f"{param} '{value}' is not a valid date and time") from None


def _amount(value: Any, param: str, high: float) -> float:
    if not is_number(value) or not 0 <= value <= high:
        raise unprocessable(f"{param} must be a number from 0 to {high:g}")
    return float(value)


# -- resolvers ---------------------------------------------------------------------------------


def resolve_contact(world: World, value: Any, param: str = "contact") -> Contact:
    """Return the contact an id, full name or email names, or raise 404/409/422."""
    contacts = _comm(world).contacts
    text = text_arg(value, param)
    key = find_key(contacts, text)
    if key is not None:
        return contacts[key]
    folded = text.casefold()
    found = [c for c in contacts.values() if folded in (c.name.casefold(), c.email.casefold())]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:  # pragma: no cover - names and emails are unique in generated worlds
        raise conflict(
            f"'{text}' matches {len(found)} contacts; pass a contact_id from search_contacts",
            candidates=sorted(c.contact_id for c in found),
        )
    partial = sorted(c.contact_id for c in contacts.values() if folded in c.name.casefold())
    if len(partial) > 1:
        raise conflict(
            f"'{text}' is ambiguous ({len(partial)} contacts match). Use the full name or a "
            "contact_id from search_contacts.",
            candidates=partial,
        )
    if len(partial) == 1:
        return contacts[partial[0]]
    raise not_found("Contact", text)


def resolve_country(world: World, value: Any, param: str = "country") -> str:
    """Return the ISO code of a country given by code or name, or raise 404/422."""
    countries = _comm(world).countries
    text = text_arg(value, param)
    key = find_key(countries, text)
    if key is not None:
        return key
    for row in countries.values():
        if row.name.casefold() == text.casefold():
            return row.code
    raise not_found("Country", text)


def _resolve_titled(
    world: World, table: str, value: Any, param: str, entity: str, title: str
) -> Any:
    rows = _comm(world).table(table)
    text = text_arg(value, param)
    key = find_key(rows, text)
    if key is not None:
        return rows[key]
    found = [r for r in rows.values() if getattr(r, title).casefold() == text.casefold()]
    if len(found) == 1:
        return found[0]
    raise not_found(entity, text)


def resolve_chat(world: World, value: Any, param: str = "chat") -> Any:
    """Return the chat an id or exact title names, or raise 404/422."""
    return _resolve_titled(world, "chats", value, param, "Chat", "title")


def resolve_room(world: World, value: Any, param: str = "room") -> Any:
    """Return the meeting room an id or name names, or raise 404/422."""
    return _resolve_titled(world, "rooms", value, param, "Room", "name")


def resolve_group(world: World, value: Any, param: str = "group") -> Any:
    """Return the contact group an id or name names, or raise 404/422."""
    return _resolve_titled(world, "groups", value, param, "Group", "name")


# -- contacts and groups -----------------------------------------------------------------------


def _contact_view(world: World, row: Row) -> dict[str, Any]:
    contact = cast(Contact, row)
    w = _comm(world)
    out = row_json(contact)
    out["country_name"] = w.countries[contact.country].name
    out["group_names"] = [w.groups[g].name for g in contact.groups if g in w.groups]
    return out


_CONTACT_FIELDS = (
    "contact_id, name, email, phone (international format), company (null for personal "
    "contacts), city, country (ISO code) and country_name, utc_offset_hours (the offset "
    "in effect now), groups (group ids) and group_names, favorite and created_at"
)


@_tool()
def search_contacts(
    world: CommunicationWorld,
    query: str | None = None,
    group: str | None = None,
    country: str | None = None,
    company: str | None = None,
) -> dict[str, Any]:
    """Search the address book. Every filter given must match.

    query matches part of the name or email (case-insensitive); an exact full-name match
    comes first, then the rest by name. Each result has contact_id, name, email, phone
    (international format), company (null for personal contacts), city, country (ISO
    code) and country_name, utc_offset_hours, groups (group ids) and group_names,
    favorite and created_at. Up to twenty-five in 'results', with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        query: Part of a name or email address.
        group: Only members of this group (a group id such as 'GRP-02' or its name).
        country: Only contacts in this country. {country}
        company: Only contacts at this company (case-insensitive, part of the name).
    """
    rows = sorted(world.contacts.values(), key=lambda c: (c.name, c.contact_id))
    if query is not None:
        text = text_arg(query, "query").casefold()
        rows = [c for c in rows if text in c.name.casefold() or text in c.email.casefold()]
        rows.sort(key=lambda c: c.name.casefold() != text)
    if group is not None:
        gid = resolve_group(world, group).group_id
        rows = [c for c in rows if gid in c.groups]
    if country is not None:
        code = resolve_country(world, country)
        rows = [c for c in rows if c.country == code]
    if company is not None:
        text = text_arg(company, "company").casefold()
        rows = [c for c in rows if c.company is not None and text in c.company.casefold()]
    return listing(rows, 25, lambda c: _contact_view(world, c))


@_tool()
def get_contact(world: CommunicationWorld, contact: str) -> dict[str, Any]:
    """Get one contact's card.

    Returns contact_id, name, email, phone (international format), company, city, country
    (ISO code) and country_name, utc_offset_hours, groups and group_names, favorite and
    created_at. get_contact_v2 is the newer version of this endpoint; this one still works.

    Args:
        world: The communication service (not shown to the agent).
        contact: {contact}
    """
    return _contact_view(world, resolve_contact(world, contact))


@_tool(name="get_contact_v2")
def get_contact_v2(world: CommunicationWorld, person: str) -> dict[str, Any]:
    """The newer version of get_contact: the same contact card, parameter renamed.

    Takes person (was contact); returns exactly the keys get_contact returns: contact_id,
    name, email, phone, company, city, country and country_name, utc_offset_hours, groups
    and group_names, favorite and created_at.

    Args:
        world: The communication service (not shown to the agent).
        person: {contact}
    """
    return _contact_view(world, resolve_contact(world, person, "person"))


@_tool()
def list_groups(world: CommunicationWorld) -> dict[str, Any]:
    """List the contact groups, sorted by name.

    Each has group_id, name, description, created_at and member_count. All groups are in
    'results', with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
    """
    rows = sorted(world.groups.values(), key=lambda g: g.name)

    def view(group: Any) -> dict[str, Any]:
        members = sum(group.group_id in c.groups for c in world.contacts.values())
        return {**row_json(group), "member_count": members}

    return listing(rows, 50, view)


@_tool(ToolKind.WRITE)
def add_contact_to_group(world: CommunicationWorld, contact: str, group: str) -> dict[str, Any]:
    """Add a contact to a group. Refused (409) if the contact is already a member.

    Returns the updated contact card (contact_id, name, ..., groups and group_names).

    Args:
        world: The communication service (not shown to the agent).
        contact: {contact}
        group: The group: a group id such as 'GRP-02' or the group's name.
    """
    person = resolve_contact(world, contact)
    found = resolve_group(world, group)
    if found.group_id in person.groups:
        raise conflict(
            f"{person.name} is already in the group '{found.name}'", group_id=found.group_id
        )
    new = world.update(
        "contacts", person.contact_id, groups=sorted([*person.groups, found.group_id])
    )
    return _contact_view(world, new)


# -- email -------------------------------------------------------------------------------------


def _email_view(world: World, row: Row) -> dict[str, Any]:
    out = row_json(row)
    out.pop("preview", None)
    return out


@_tool()
def search_emails(
    world: CommunicationWorld,
    folder: Literal["inbox", "archive", "sent", "spam"] | None = None,
    sender: str | None = None,
    subject_contains: str | None = None,
    label: str | None = None,
    unread: bool | None = None,
    has_attachments: bool | None = None,
    received_after: str | None = None,
    received_before: str | None = None,
) -> dict[str, Any]:
    """Search the mailbox, newest first. Every filter given must match.

    Each result has {email}. Up to thirty in 'results', with 'count' and 'total' (all
    matches).

    Args:
        world: The communication service (not shown to the agent).
        folder: Only messages in this folder.
        sender: Part of the sender's name or email address (case-insensitive).
        subject_contains: Part of the subject (case-insensitive).
        label: Only messages carrying this label, e.g. 'travel' or 'newsletter'.
        unread: true for unread messages only, false for read ones only.
        has_attachments: true for messages with attachments only, false for those without.
        received_after: Only messages received on or after this day, YYYY-MM-DD (UTC).
        received_before: Only messages received on or before this day, YYYY-MM-DD (UTC).
    """
    rows = list(world.emails.values())
    if folder is not None:
        rows = [e for e in rows if e.folder == folder]
    if sender is not None:
        text = text_arg(sender, "sender").casefold()
        rows = [
            e for e in rows if text in e.sender_name.casefold() or text in e.sender_email.casefold()
        ]
    if subject_contains is not None:
        text = text_arg(subject_contains, "subject_contains").casefold()
        rows = [e for e in rows if text in e.subject.casefold()]
    if label is not None:
        text = text_arg(label, "label").casefold()
        rows = [e for e in rows if text in e.labels]
    if unread is not None:
        rows = [e for e in rows if e.unread is unread]
    if has_attachments is not None:
        rows = [e for e in rows if (e.attachment_count > 0) is has_attachments]
    if received_after is not None:
        after = date_arg(received_after, "received_after", "a calendar date").isoformat()
        rows = [e for e in rows if e.received_at[:10] >= after]
    if received_before is not None:
        before = date_arg(received_before, "received_before", "a calendar date").isoformat()
        rows = [e for e in rows if e.received_at[:10] <= before]
    rows.sort(key=lambda e: (e.received_at, e.email_id), reverse=True)
    return listing(rows, 30, lambda e: _email_view(world, e))


get_email = shapes.lookup(
    "get_email",
    "emails",
    "email_id",
    "Email",
    f"Get one email by id: {_EMAIL_DOC}, plus preview (the first line of the body).",
    "The email id, e.g. 'EM-12345' (from search_emails).",
)

mailbox_size_total = shapes.aggregate(
    "mailbox_size_total",
    "emails",
    "Total storage used by the messages matching every filter given, in kilobytes "
    "(attachments included). Returns total_size_kb and matched (the number of messages "
    "counted); 404 if no message matches.",
    "size_kb",
    "sum",
    [
        Filter("folder", "folder", "Only this folder.", schema=enum_schema(EMAIL_FOLDERS)),
        Filter(
            "sender_domain",
            "sender_domain",
            "Only mail from this sending domain, e.g. 'gmail.com'.",
        ),
        Filter(
            "min_size_kb",
            "size_kb",
            "Only messages of at least this size, kilobytes.",
            schema={"type": "integer"},
            op="min",
        ),
    ],
    "total_size_kb",
)


@_tool(ToolKind.WRITE)
def label_email(world: CommunicationWorld, email_id: str, label: str) -> dict[str, Any]:
    """Add a label to an email; refused (409) if the email already carries it.

    Labels are lowercase letters, digits and dashes (at most thirty characters).
    Returns the email ({email}).

    Args:
        world: The communication service (not shown to the agent).
        email_id: The email id, e.g. 'EM-12345'.
        label: The label to add, e.g. 'follow-up'.
    """
    key = stored_key(world.emails, email_id, "Email")
    text = text_arg(label, "label").casefold()
    if LABEL_TEXT.fullmatch(text) is None:
        raise unprocessable("label must be 1-30 lowercase letters, digits or dashes")
    row = world.emails[key]
    if text in row.labels:
        raise conflict(f"Email {key} is already labelled '{text}'")
    return _email_view(world, world.update("emails", key, labels=sorted([*row.labels, text])))


def _build_email(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _comm(world)
    to = text_arg(args["to"], "to")
    if EMAIL_TEXT.fullmatch(to) is None:
        to = resolve_contact(w, to, "to").email
    subject = text_arg(args["subject"], "subject")
    body = text_arg(args["body"], "body")
    if len(subject) > 200 or len(body) > MAX_TEXT_CHARS:
        raise unprocessable(f"subject is limited to 200 and body to {MAX_TEXT_CHARS} characters")
    email_id = w.next_id("EM")
    row = Email(
        email_id=email_id,
        folder="sent",
        sender_name="Me",
        sender_email="me@homemail.net",
        sender_domain="homemail.net",
        to=to,
        subject=subject,
        labels=[],
        received_at=stamp(w.now()),
        size_kb=max(1, math.ceil(len(body.encode("utf-8")) / 1024)) + 3,
        attachment_count=0,
        attachment_kb=0,
        unread=False,
        preview=body[:80],
    )
    return email_id, row


send_email = shapes.create(
    "send_email",
    "emails",
    f"Send an email now; it is filed in the sent folder. Returns the sent message ({_EMAIL_DOC}).",
    [
        Param(
            "to",
            {"type": "string"},
            f"The recipient: an email address, or a contact. {CONTACT_DOC}",
        ),
        Param("subject", {"type": "string"}, "The subject line (at most 200 characters)."),
        Param("body", {"type": "string"}, f"The message text (at most {MAX_TEXT_CHARS} chars)."),
    ],
    _build_email,
    view=_email_view,
)


# -- sender reputation (three independent services) ---------------------------------------------


def _verdict(score: int) -> str:
    if score >= 80:
        return "good"
    return "neutral" if score >= 60 else "poor"


def _reputation(world: CommunicationWorld, source: shapes.Source, domain: str) -> dict[str, Any]:
    text = text_arg(domain, "domain").casefold()
    if "@" in text:
        text = text.split("@")[-1]
    rows = world.table(source.table)
    if text not in rows:
        raise not_found("Sending domain", text)
    out = row_json(rows[text])
    return {**out, "verdict": _verdict(out["reputation_score"]), "source": source.name}


def _reputation_source(tool_name: str, service: str, about: str) -> shapes.Source:
    """One reputation service: its table and name follow from its key in the data."""
    return shapes.Source(tool_name, f"rep_{service}", data.REPUTATION_SOURCES[service], about)


_DOMAIN_ARGS = """
    Args:
        world: The communication service (not shown to the agent).
        domain: The sending domain, e.g. 'brewdigest.news' (an email address also works).
    """

(
    check_sender_reputation,
    check_sender_reputation_spamscope,
    check_sender_reputation_senderbase,
) = shapes.source_tools(
    _reputation,
    _DOMAIN_ARGS,
    _reputation_source(
        "check_sender_reputation",
        "mailtrust",
        """Sender reputation of a mail domain from MailTrust, the mailbox provider's own service.

    MailTrust is the authoritative reference: when reputation services disagree, its
    assessment prevails. Returns {rep}. SpamScope (check_sender_reputation_spamscope) and
    SenderBase (check_sender_reputation_senderbase) report the same fields independently.
    """,
    ),
    _reputation_source(
        "check_sender_reputation_spamscope",
        "spamscope",
        """Sender reputation of a mail domain from SpamScope, an independent blocklist network.

    Returns {rep}. Not authoritative: MailTrust (check_sender_reputation) prevails where
    they disagree.
    """,
    ),
    _reputation_source(
        "check_sender_reputation_senderbase",
        "senderbase",
        """Sender reputation of a mail domain from SenderBase, an independent traffic monitor.

    Returns {rep}. Not authoritative: MailTrust (check_sender_reputation) prevails where
    they disagree.
    """,
    ),
    declare=_tool,
)


# -- chats -------------------------------------------------------------------------------------


def _chat_view(world: CommunicationWorld, chat: Any) -> dict[str, Any]:
    messages = [m for m in world.chat_messages.values() if m.chat_id == chat.chat_id]
    last = max((m.sent_at for m in messages), default=None)
    names = [world.contacts[c].name for c in chat.member_ids if c in world.contacts]
    return {
        **row_json(chat),
        "member_names": names,
        "member_count": len(chat.member_ids) + 1,
        "message_count": len(messages),
        "last_message_at": last,
    }


@_tool()
def list_chats(
    world: CommunicationWorld,
    query: str | None = None,
    kind: Literal["direct", "group"] | None = None,
    muted: bool | None = None,
) -> dict[str, Any]:
    """List chats, an exact title match first, then by title. Every filter given must match.

    Each has chat_id, title, kind ('direct' or 'group'), member_ids and member_names (the
    other people; the user is implied), member_count (including the user), muted,
    created_at, message_count and last_message_at (UTC). Up to forty in 'results', with
    'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        query: Part of the chat title (case-insensitive).
        kind: Only direct or only group chats.
        muted: true for muted chats only, false for the others.
    """
    rows = sorted(world.chats.values(), key=lambda c: (c.title, c.chat_id))
    if query is not None:
        text = text_arg(query, "query").casefold()
        rows = [c for c in rows if text in c.title.casefold()]
        rows.sort(key=lambda c: c.title.casefold() != text)
    if kind is not None:
        rows = [c for c in rows if c.kind == kind]
    if muted is not None:
        rows = [c for c in rows if c.muted is muted]
    return listing(rows, 40, lambda c: _chat_view(world, c))


@_tool()
def get_chat_messages(
    world: CommunicationWorld, chat: str, sender: str | None = None
) -> dict[str, Any]:
    """Messages of one chat, oldest first.

    Returns chat_id, title and 'results': messages with message_id, chat_id, sender_id (a
    contact id, or 'me'), sender_name, text and sent_at (UTC); up to 50, with 'count' and
    'total'.

    Args:
        world: The communication service (not shown to the agent).
        chat: {chat}
        sender: Only messages from this sender: a contact (id, full name or email) or 'me'.
    """
    found = resolve_chat(world, chat)
    rows = sorted(
        (m for m in world.chat_messages.values() if m.chat_id == found.chat_id),
        key=lambda m: (m.sent_at, m.message_id),
    )
    if sender is not None:
        who = ME if text_arg(sender, "sender").casefold() == ME else None
        if who is None:
            who = resolve_contact(world, sender, "sender").contact_id
        rows = [m for m in rows if m.sender_id == who]
    return listing(rows, 50, row_json, chat_id=found.chat_id, title=found.title)


@_tool(ToolKind.WRITE)
def send_chat_message(world: CommunicationWorld, chat: str, text: str) -> dict[str, Any]:
    """Post a message to a chat as the user.

    Returns the message (message_id, chat_id, sender_id 'me', sender_name, text, sent_at).

    Args:
        world: The communication service (not shown to the agent).
        chat: {chat}
        text: The message text (at most 1000 characters).
    """
    found = resolve_chat(world, chat)
    body = text_arg(text, "text")
    if len(body) > MAX_TEXT_CHARS:
        raise unprocessable(f"text must be at most {MAX_TEXT_CHARS} characters")
    message_id = world.next_id("MSG")
    row = ChatMessage(
        message_id=message_id,
        chat_id=found.chat_id,
        sender_id=ME,
        sender_name="Me",
        text=body,
        sent_at=stamp(world.now()),
    )
    world.insert("chat_messages", message_id, row)
    return row_json(row)


# -- calls and voicemail -----------------------------------------------------------------------


def _calls(
    world: CommunicationWorld,
    contact: str | None,
    direction: str | None,
    since: str | None,
    until: str | None,
) -> list[Any]:
    rows = list(world.calls.values())
    if contact is not None:
        cid = resolve_contact(world, contact).contact_id
        rows = [c for c in rows if c.contact_id == cid]
    if direction is not None:
        rows = [c for c in rows if c.direction == direction]
    if since is not None:
        start = date_arg(since, "since", "a calendar date").isoformat()
        rows = [c for c in rows if c.started_at[:10] >= start]
    if until is not None:
        end = date_arg(until, "until", "a calendar date").isoformat()
        rows = [c for c in rows if c.started_at[:10] <= end]
    return sorted(rows, key=lambda c: (c.started_at, c.call_id), reverse=True)


def _call_view(world: CommunicationWorld, call: Any) -> dict[str, Any]:
    person = world.contacts.get(call.contact_id) if call.contact_id else None
    return {**row_json(call), "contact_name": person.name if person else None}


_CALL_DOC = (
    "call_id, contact_id and contact_name (null for numbers not in the address book), "
    "number, direction (incoming, outgoing, missed), started_at (UTC), duration_sec "
    "(seconds, zero for a missed call) and country (ISO code of the other party)"
)
DOC_PHRASES["calls"] = _CALL_DOC


def _call_log(
    world: CommunicationWorld,
    source: shapes.Source,
    contact: str | None = None,
    direction: Literal["incoming", "outgoing", "missed"] | None = None,
    since: str | None = None,
    until: str | None = None,
) -> dict[str, Any]:
    rows = _calls(world, contact, direction, since, until)
    return {**listing(rows, 40, lambda c: _call_view(world, c)), "source": source.name}


_CALL_FILTER_ARGS = """
    Args:
        world: The communication service (not shown to the agent).
        contact: Only calls with this contact. {contact}
        direction: Only calls in this direction.
        since: Only calls on or after this day, YYYY-MM-DD (UTC).
        until: Only calls on or before this day, YYYY-MM-DD (UTC).
    """

# Both sources read the one call table; they differ in name and availability.
get_call_log, get_call_log_device = shapes.source_tools(
    _call_log,
    _CALL_FILTER_ARGS,
    shapes.Source(
        "get_call_log",
        "calls",
        "carrier",
        """The carrier's call records, newest first. Every filter given must match.

    Each call has {calls}. Up to forty in 'results', with 'count' and 'total'. If this
    service is unavailable, get_call_log_device returns the same calls under the same keys
    from the handset's own history.
    """,
    ),
    shapes.Source(
        "get_call_log_device",
        "calls",
        "device",
        """The handset's own call history, newest first: a backup for get_call_log.

    Same keys as get_call_log; each call has {calls}. Up to forty in 'results', with 'count'
    and 'total'.
    """,
    ),
    declare=_tool,
)


@_tool()
def call_duration_total(
    world: CommunicationWorld,
    contact: str | None = None,
    direction: Literal["incoming", "outgoing", "missed"] | None = None,
    since: str | None = None,
    until: str | None = None,
) -> dict[str, Any]:
    """Total talk time of the calls matching every filter given.

    Returns total_minutes (the sum of durations in minutes, two decimals), call_count (the
    calls counted, missed ones included) and longest_call_sec. A contact with no matching
    calls gives zero totals.

    Args:
        world: The communication service (not shown to the agent).
        contact: Only calls with this contact. {contact}
        direction: Only calls in this direction.
        since: Only calls on or after this day, YYYY-MM-DD (UTC).
        until: Only calls on or before this day, YYYY-MM-DD (UTC).
    """
    rows = _calls(world, contact, direction, since, until)
    seconds = sum(c.duration_sec for c in rows)
    return {
        "total_minutes": round(seconds / 60, 2),
        "call_count": len(rows),
        "longest_call_sec": max((c.duration_sec for c in rows), default=0),
    }


@_tool()
def list_voicemails(
    world: CommunicationWorld, contact: str | None = None, listened: bool | None = None
) -> dict[str, Any]:
    """Voicemails, newest first. Every filter given must match.

    Each has voicemail_id, contact_id and contact_name (null for unknown numbers), number,
    left_at (UTC), duration_sec (seconds), transcript and listened. Up to thirty in 'results',
    with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        contact: Only voicemails from this contact. {contact}
        listened: true for played voicemails only, false for new ones only.
    """
    rows = sorted(
        world.voicemails.values(), key=lambda v: (v.left_at, v.voicemail_id), reverse=True
    )
    if contact is not None:
        cid = resolve_contact(world, contact).contact_id
        rows = [v for v in rows if v.contact_id == cid]
    if listened is not None:
        rows = [v for v in rows if v.listened is listened]
    return listing(rows, 30, lambda v: _call_view(world, v))


# -- plan and usage ----------------------------------------------------------------------------

LINE_DOC = "A line id (e.g. 'LN-02'), the line owner's first name (e.g. 'Sam') or its phone number."


def resolve_line(world: World, value: Any, param: str = "line") -> Any:
    """Return the plan line an id, owner name or phone number names, or raise 404/422."""
    lines = _comm(world).lines
    text = text_arg(value, param)
    key = find_key(lines, text)
    if key is not None:
        return lines[key]
    digits = re.sub(r"\D", "", text)
    for line in lines.values():
        if line.owner.casefold() == text.casefold():
            return line
        if digits and re.sub(r"\D", "", line.phone_number) == digits:
            return line
    raise not_found("Line", text)


def _cycle(world: CommunicationWorld) -> tuple[date, date, date]:
    plan = world.current_plan()
    return (
        date.fromisoformat(plan.cycle_start),
        date.fromisoformat(plan.cycle_end),
        world.now().date(),
    )


def _allowance_gb(world: CommunicationWorld, line: Any) -> float:
    extra = sum(p.extra_gb for p in world.addon_purchases.values() if p.line_id == line.line_id)
    return round(float(line.data_allowance_gb) + extra, 2)


def _line_days(world: CommunicationWorld, line: Any) -> list[Any]:
    return sorted(
        (u for u in world.daily_usage.values() if u.line_id == line.line_id), key=lambda u: u.date
    )


@_tool()
def get_plan(world: CommunicationWorld) -> dict[str, Any]:
    """The family mobile plan, its lines and the billing cycle.

    Returns plan_name, monthly_fee_usd, overage_per_gb_usd (charged per started GB a line
    uses beyond its allowance), cycle_start and cycle_end (YYYY-MM-DD, inclusive),
    'lines' (line_id, owner, phone_number, data_allowance_gb and total_data_gb with this
    cycle's top-ups), 'addons' (top-ups bought this cycle: purchase_id, line_id,
    addon_code, name, extra_gb, price_usd, purchased_at) and 'available_addons'
    (addon_code, name, extra_gb, price_usd).

    Args:
        world: The communication service (not shown to the agent).
    """
    addons = sorted(world.addon_purchases.values(), key=lambda p: p.purchase_id)
    catalog = [
        {"addon_code": code, "name": name, "extra_gb": gb, "price_usd": price}
        for code, (name, gb, price) in data.DATA_ADDONS.items()
    ]
    lines = [
        {**row_json(line), "total_data_gb": _allowance_gb(world, line)}
        for line in sorted(world.lines.values(), key=lambda x: x.line_id)
    ]
    return {
        **row_json(world.current_plan()),
        "lines": lines,
        "addons": [row_json(p) for p in addons],
        "available_addons": catalog,
    }


def _usage(world: CommunicationWorld, line: Any) -> dict[str, Any]:
    start, end, today = _cycle(world)
    days = _line_days(world, line)
    used_mb = sum(u.data_mb for u in days)
    allowance = _allowance_gb(world, line)
    return {
        "line_id": line.line_id,
        "owner": line.owner,
        "cycle_start": start.isoformat(),
        "cycle_end": end.isoformat(),
        "days_elapsed": len(days),
        "days_remaining": (end - today).days + 1,
        "data_used_mb": used_mb,
        "data_used_gb": round(used_mb / 1024, 2),
        "total_data_gb": allowance,
        "data_remaining_gb": round(max(0.0, allowance - used_mb / 1024), 2),
        "minutes_used": sum(u.call_minutes for u in days),
        "sms_used": sum(u.sms_count for u in days),
    }


@_tool()
def get_usage_summary(world: CommunicationWorld, line: str) -> dict[str, Any]:
    """One line's usage so far in the current billing cycle.

    Only finished days count; today is not counted yet.
    Returns line_id, owner, cycle_start and cycle_end, days_elapsed (finished days),
    days_remaining (today to cycle_end inclusive), data_used_mb and data_used_gb (1 GB =
    1024 MB), total_data_gb (allowance with top-ups), data_remaining_gb, minutes_used and
    sms_used.

    Args:
        world: The communication service (not shown to the agent).
        line: {line}
    """
    return _usage(world, resolve_line(world, line))


@_tool()
def list_daily_usage(
    world: CommunicationWorld,
    line: str,
    from_date: str | None = None,
    to_date: str | None = None,
) -> dict[str, Any]:
    """One line's per-day usage in the current billing cycle, oldest first.

    Returns line_id, owner and 'results': days with date, data_mb (megabytes),
    call_minutes and sms_count; all matching days, with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        line: {line}
        from_date: First day to include, YYYY-MM-DD.
        to_date: Last day to include, YYYY-MM-DD.
    """
    found = resolve_line(world, line)
    rows = _line_days(world, found)
    if from_date is not None:
        first = date_arg(from_date, "from_date", "a calendar date").isoformat()
        rows = [u for u in rows if u.date >= first]
    if to_date is not None:
        last = date_arg(to_date, "to_date", "a calendar date").isoformat()
        rows = [u for u in rows if u.date <= last]

    def view(row: Any) -> dict[str, Any]:
        out = row_json(row)
        out.pop("line_id")
        return out

    return listing(rows, 40, view, line_id=found.line_id, owner=found.owner)


def _recommended(over_gb: float) -> str | None:
    if over_gb <= 0:
        return None
    for code, (_name, gb, _price) in data.DATA_ADDONS.items():
        if gb >= over_gb:
            return code
    return list(data.DATA_ADDONS)[-1]


@_tool()
def project_data_usage(
    world: CommunicationWorld,
    line: str,
    method: Literal["cycle_average", "last_week"] = "cycle_average",
) -> dict[str, Any]:
    """Project one line's data use to the end of the billing cycle.

    The line's daily average (over every finished day of the cycle, or over the last week's seven
    finished days) is assumed for each remaining day, today included. Returns line_id,
    owner, method, daily_average_mb, days_remaining, used_gb, projected_gb (used plus
    projected, 1 GB = 1024 MB, two decimals), total_data_gb (allowance with top-ups),
    projected_overage_gb (zero if within the allowance), projected_overage_usd (billed per
    started GB at the plan's overage_per_gb_usd) and recommended_addon (the smallest
    top-up code covering the projected overage, the largest if none does, null when no
    overage is projected).

    Args:
        world: The communication service (not shown to the agent).
        line: {line}
        method: Which days the average is taken over.
    """
    found = resolve_line(world, line)
    if method not in ("cycle_average", "last_week"):
        raise unprocessable("method must be one of: cycle_average, last_week")
    usage = _usage(world, found)
    days = _line_days(world, found)
    basis = days[-7:] if method == "last_week" else days
    if not basis:  # pragma: no cover - every generated cycle has finished days
        raise unprocessable("no finished day in this billing cycle yet")
    average = sum(u.data_mb for u in basis) / len(basis)
    projected_gb = round((usage["data_used_mb"] + average * usage["days_remaining"]) / 1024, 2)
    over = round(max(0.0, projected_gb - usage["total_data_gb"]), 2)
    rate = world.current_plan().overage_per_gb_usd
    return {
        "line_id": found.line_id,
        "owner": found.owner,
        "method": method,
        "daily_average_mb": round(average, 1),
        "days_remaining": usage["days_remaining"],
        "used_gb": usage["data_used_gb"],
        "projected_gb": projected_gb,
        "total_data_gb": usage["total_data_gb"],
        "projected_overage_gb": over,
        "projected_overage_usd": money(math.ceil(over) * rate),
        "recommended_addon": _recommended(over),
    }


def _build_addon(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _comm(world)
    line = resolve_line(w, args["line"])
    code = args["addon_code"]
    if code not in data.DATA_ADDONS:
        raise unprocessable(f"addon_code must be one of: {', '.join(data.DATA_ADDONS)}")
    name, gb, price = data.DATA_ADDONS[code]
    purchase_id = w.next_id("ADD")
    row = AddonPurchase(
        purchase_id=purchase_id,
        line_id=line.line_id,
        addon_code=code,
        name=name,
        extra_gb=gb,
        price_usd=price,
        purchased_at=stamp(w.now()),
    )
    return purchase_id, row


buy_data_addon = shapes.create(
    "buy_data_addon",
    "addon_purchases",
    "Buy a data top-up for one line for the current billing cycle; it is billed with the "
    "next invoice and its data is added to that line's allowance at once. Returns the "
    "purchase (purchase_id, line_id, addon_code, name, extra_gb, price_usd, purchased_at); "
    "get_plan lists it in 'addons'.",
    [
        Param("line", {"type": "string"}, f"The line to top up. {LINE_DOC}"),
        Param("addon_code", enum_schema(tuple(data.DATA_ADDONS)), "The top-up to buy."),
    ],
    _build_addon,
)


# -- roaming and international rates (three independent sources) -------------------------------


def _rates(world: CommunicationWorld, source: shapes.Source, country: str) -> dict[str, Any]:
    code = resolve_country(world, country)
    if code == data.HOME_COUNTRY:
        raise unprocessable("the United States is the home network: no roaming rates apply")
    return {**row_json(world.table(source.table)[code]), "source": source.name}


def _rate_source(tool_name: str, key: str, about: str) -> shapes.Source:
    """One rate source: its table and name follow from its key in the data."""
    return shapes.Source(tool_name, f"rates_{key}", data.RATE_SOURCES[key], about)


_COUNTRY_ARGS = """
    Args:
        world: The communication service (not shown to the agent).
        country: {country}
    """

# The carrier's tariff sheet also prices estimate_roaming_cost.
_CARRIER_RATES = _rate_source(
    "get_roaming_rates",
    "carrier",
    """Roaming and international rates for a country from the carrier's own tariff sheet.

    The carrier's tariff sheet is the authoritative reference: when rate sources
    disagree, it prevails and is what the bill uses. Returns {rates}. RoamCompare
    (get_roaming_rates_roamcompare) and TariffWatch (get_roaming_rates_tariffwatch)
    publish the same fields independently; if this service is unavailable, use
    RoamCompare.
    """,
)

(
    get_roaming_rates,
    get_roaming_rates_roamcompare,
    get_roaming_rates_tariffwatch,
) = shapes.source_tools(
    _rates,
    _COUNTRY_ARGS,
    _CARRIER_RATES,
    _rate_source(
        "get_roaming_rates_roamcompare",
        "roamcompare",
        """The carrier's roaming and international rates for a country, as listed by RoamCompare.

    An independent price-comparison site that re-checks tariffs several times a day.
    Returns {rates}. Not authoritative: the carrier's sheet (get_roaming_rates) prevails
    where they disagree.
    """,
    ),
    _rate_source(
        "get_roaming_rates_tariffwatch",
        "tariffwatch",
        """The carrier's roaming and international rates for a country, as surveyed by TariffWatch.

    An independent consumer survey of published tariffs. Returns {rates}. Not
    authoritative: the carrier's sheet (get_roaming_rates) prevails where they disagree.
    """,
    ),
    declare=_tool,
)


def _estimate(
    world: CommunicationWorld,
    country: str,
    days: Any,
    data_mb: Any,
    minutes: Any,
    sms: Any,
    names: tuple[str, str, str],
) -> dict[str, Any]:
    card = _rates(world, _CARRIER_RATES, country)
    trip = int_arg(days, names[1], 1, MAX_TRIP_DAYS)
    per_day = _amount(data_mb, names[2], 100000)
    talk = int_arg(minutes, "call_minutes", 0, MAX_MINUTES)
    texts = int_arg(sms, "sms_count", 0, MAX_MINUTES)
    payg = money(
        trip * per_day * card["data_per_mb_usd"]
        + talk * card["roaming_call_per_min_usd"]
        + texts * card["sms_usd"]
    )
    daypass = None if card["daypass_usd"] is None else money(trip * card["daypass_usd"])
    best = "pay_as_you_go" if daypass is None or payg <= daypass else "day_pass"
    return {
        "country": card["country"],
        "country_name": card["country_name"],
        "days": trip,
        "pay_as_you_go_usd": payg,
        "day_pass_total_usd": daypass,
        "best_option": best,
        "best_cost_usd": payg if best == "pay_as_you_go" else daypass,
    }


@_tool()
def estimate_roaming_cost(
    world: CommunicationWorld,
    country: str,
    days: int,
    data_mb_per_day: float,
    call_minutes: int = 0,
    sms_count: int = 0,
) -> dict[str, Any]:
    """Estimate what a trip abroad costs in roaming charges, at the carrier's rates.

    Pay-as-you-go is days x data_mb_per_day x data_per_mb_usd, plus call_minutes x
    roaming_call_per_min_usd, plus sms_count x sms_usd. A day pass covers all use at home
    rates for days x daypass_usd. Returns country, country_name, days, pay_as_you_go_usd,
    day_pass_total_usd (null where no pass is sold), best_option ('pay_as_you_go' or
    'day_pass', the cheaper; a tie goes to pay-as-you-go) and best_cost_usd.
    estimate_roaming_cost_v2 is the newer version; this one still works.

    Args:
        world: The communication service (not shown to the agent).
        country: Where the trip goes. {country}
        days: Trip length in days (at most ninety).
        data_mb_per_day: Expected mobile data per day, megabytes.
        call_minutes: Expected call minutes over the whole trip.
        sms_count: Expected texts sent over the whole trip.
    """
    return _estimate(
        world,
        country,
        days,
        data_mb_per_day,
        call_minutes,
        sms_count,
        ("country", "days", "data_mb_per_day"),
    )


@_tool(name="estimate_roaming_cost_v2")
def estimate_roaming_cost_v2(
    world: CommunicationWorld,
    destination: str,
    trip_days: int,
    daily_data_mb: float,
    call_minutes: int = 0,
    sms_count: int = 0,
) -> dict[str, Any]:
    """The newer version of estimate_roaming_cost: the same estimate, parameters renamed.

    Takes destination (was country), trip_days (was days) and daily_data_mb (was
    data_mb_per_day); returns exactly the keys estimate_roaming_cost returns: country,
    country_name, days, pay_as_you_go_usd, day_pass_total_usd, best_option and
    best_cost_usd.

    Args:
        world: The communication service (not shown to the agent).
        destination: Where the trip goes. {country}
        trip_days: Trip length in days (at most ninety).
        daily_data_mb: Expected mobile data per day, megabytes.
        call_minutes: Expected call minutes over the whole trip.
        sms_count: Expected texts sent over the whole trip.
    """
    return _estimate(
        world,
        destination,
        trip_days,
        daily_data_mb,
        call_minutes,
        sms_count,
        ("destination", "trip_days", "daily_data_mb"),
    )


@_tool()
def list_roaming_passes(
    world: CommunicationWorld,
    country: str | None = None,
    status: Literal["active", "upcoming", "expired", "cancelled"] | None = None,
) -> dict[str, Any]:
    """Roaming day passes bought for trips, by start date. Every filter given must match.

    Each has pass_id, country and country_name, start_date and end_date (YYYY-MM-DD,
    inclusive), days, price_usd, status and created_at. All in 'results', with 'count' and
    'total'.

    Args:
        world: The communication service (not shown to the agent).
        country: Only passes for this country. {country}
        status: Only passes in this status.
    """
    rows = shapes.filtered_rows(
        world.roaming_passes.values(),
        lambda p: (p.start_date, p.pass_id),
        shapes.Only("country", country, lambda v: resolve_country(world, v)),
        shapes.Only("status", status),
    )
    return listing(rows, 50, row_json)


def _build_pass(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _comm(world)
    code = resolve_country(w, args["country"])
    card = w.rates_carrier.get(code)
    if card is None or card.daypass_usd is None:
        raise unprocessable(f"no roaming day pass is sold for {w.countries[code].name}")
    start = date_arg(args["start_date"], "start_date", "a calendar date")
    days = int_arg(args["days"], "days", 1, MAX_PASS_DAYS)
    today = w.now().date()
    if start < today or start > today + timedelta(days=180):
        raise unprocessable("start_date must be from today up to 180 days ahead")
    end = start + timedelta(days=days - 1)
    for other in w.roaming_passes.values():
        if (
            other.country == code
            and other.status in ("active", "upcoming")
            and other.start_date <= end.isoformat()
            and start.isoformat() <= other.end_date
        ):
            raise conflict(
                f"Pass {other.pass_id} already covers {other.country_name} from "
                f"{other.start_date} to {other.end_date}",
                pass_id=other.pass_id,
            )
    pass_id = w.next_id("RP")
    row = RoamingPass(
        pass_id=pass_id,
        country=code,
        country_name=w.countries[code].name,
        start_date=start.isoformat(),
        end_date=end.isoformat(),
        days=days,
        price_usd=money(days * card.daypass_usd),
        status="active" if start == today else "upcoming",
        created_at=stamp(w.now()),
    )
    return pass_id, row


buy_roaming_pass = shapes.create(
    "buy_roaming_pass",
    "roaming_passes",
    "Buy a roaming day pass for consecutive days in one country, starting on start_date "
    "(today or later). Priced at the carrier's daypass_usd per day. Refused (422) where no "
    "pass is sold and (409) if an active or upcoming pass for that country overlaps. "
    "Returns the pass (pass_id, country, country_name, start_date, end_date, days, "
    "price_usd, status, created_at).",
    [
        Param("country", {"type": "string"}, f"Where the pass applies. {COUNTRY_DOC}"),
        Param("start_date", {"type": "string"}, "First day covered, YYYY-MM-DD."),
        Param("days", {"type": "integer"}, "Number of consecutive days (at most thirty)."),
    ],
    _build_pass,
)


# -- mailing lists and newsletters -------------------------------------------------------------

list_subscriptions = shapes.search(
    "list_subscriptions",
    "newsletters",
    "List mailing-list and newsletter subscriptions, sorted by name. Every filter given "
    "must match. Each has list_id, name, sender_domain, category, frequency_per_week "
    "(issues per week), status (subscribed, paused, unsubscribed), subscribed_since "
    "(YYYY-MM-DD) and emails_last_30d. All in 'results', with 'count' and 'total'.",
    [
        Filter("query", "name", "Part of the newsletter's name (case-insensitive).", op="contains"),
        Filter(
            "category",
            "category",
            "Only this category.",
            schema=enum_schema(data.NEWSLETTER_CATEGORIES),
        ),
        Filter("status", "status", "Only this status.", schema=enum_schema(SUBSCRIPTION_STATUSES)),
    ],
    sort_by="name",
    limit=50,
)


def _unsubscribe(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    letter = cast(Newsletter, row)
    if letter.status == "unsubscribed":
        raise conflict(f"Already unsubscribed from '{letter.name}'")
    return {"status": "unsubscribed"}


unsubscribe_newsletter = shapes.update(
    "unsubscribe_newsletter",
    "newsletters",
    "list_id",
    "Mailing list",
    "Unsubscribe from a mailing list or newsletter (subscribed or paused). Refused (409) "
    "if already unsubscribed. Returns the subscription with status 'unsubscribed'.",
    "The list id, e.g. 'NL-004' (from list_subscriptions).",
    [],
    _unsubscribe,
)


# -- scheduled messages and reminders ----------------------------------------------------------


def _scheduled_view(world: World, row: Row) -> dict[str, Any]:
    msg = cast(ScheduledMessage, row)
    w = _comm(world)
    at = datetime.fromisoformat(msg.send_at_utc.replace("Z", "+00:00"))
    person = w.contacts.get(msg.contact_id)
    return {
        **row_json(msg),
        "contact_name": person.name if person else None,
        "my_local": at.astimezone(HOME_TZ).strftime(LOCAL_FORMAT),
    }


@_tool(ToolKind.WRITE)
def schedule_message(
    world: CommunicationWorld,
    contact: str,
    channel: Literal["sms", "email"],
    text: str,
    send_at: str,
    time_zone: Literal["recipient", "mine"] = "recipient",
) -> dict[str, Any]:
    """Schedule an SMS or email to a contact for later, at a local time.

    send_at is read in the recipient's time zone (their utc_offset_hours) by default, or
    in the user's own zone (US Eastern, five hours behind UTC) with time_zone 'mine'. It
    must be in the future and at
    most thirty days ahead. Refused (409) if the same text is already scheduled to the same
    contact at the same moment. Returns the scheduled message: message_id, channel,
    contact_id, contact_name, recipient (phone or email), text, send_at_utc,
    recipient_local and my_local (YYYY-MM-DDTHH:MM), status and created_at.

    Args:
        world: The communication service (not shown to the agent).
        contact: Who receives it. {contact}
        channel: 'sms' (to the contact's phone) or 'email'.
        text: The message (at most 1000 characters).
        send_at: Local send time, YYYY-MM-DDTHH:MM.
        time_zone: Whose local time send_at is in: 'recipient' or 'mine'.
    """
    person = resolve_contact(world, contact)
    if channel not in CHANNELS:
        raise unprocessable("channel must be one of: sms, email")
    if time_zone not in ("recipient", "mine"):
        raise unprocessable("time_zone must be one of: recipient, mine")
    body = text_arg(text, "text")
    if len(body) > MAX_TEXT_CHARS:
        raise unprocessable(f"text must be at most {MAX_TEXT_CHARS} characters")
    local = _local_moment(send_at, "send_at")
    offset = person.utc_offset_hours if time_zone == "recipient" else data.HOME_OFFSET_HOURS
    moment = local.replace(tzinfo=timezone(timedelta(hours=offset))).astimezone(UTC)
    now = world.now()
    if moment <= now:
        raise unprocessable(f"send_at is in the past (it is {stamp(now)} UTC now)")
    if moment > now + timedelta(days=MAX_SCHEDULE_DAYS):
        raise unprocessable(f"messages can be scheduled at most {MAX_SCHEDULE_DAYS} days ahead")
    for other in world.scheduled.values():
        if (
            other.status == "scheduled"
            and other.contact_id == person.contact_id
            and other.text == body
            and other.send_at_utc == stamp(moment)
        ):
            raise conflict(
                f"This message is already scheduled as {other.message_id}",
                message_id=other.message_id,
            )
    message_id = world.next_id("SCH")
    there = moment.astimezone(timezone(timedelta(hours=person.utc_offset_hours)))
    row = ScheduledMessage(
        message_id=message_id,
        channel=channel,
        contact_id=person.contact_id,
        recipient=person.phone if channel == "sms" else person.email,
        text=body,
        send_at_utc=stamp(moment),
        recipient_local=there.strftime(LOCAL_FORMAT),
        status="scheduled",
        created_at=stamp(now),
    )
    world.insert("scheduled", message_id, row)
    return _scheduled_view(world, row)


@_tool()
def list_scheduled_messages(
    world: CommunicationWorld,
    contact: str | None = None,
    status: Literal["scheduled", "sent", "cancelled"] | None = None,
    channel: Literal["sms", "email"] | None = None,
) -> dict[str, Any]:
    """Scheduled messages, soonest first. Every filter given must match.

    Each has message_id, channel, contact_id, contact_name, recipient, text, send_at_utc,
    recipient_local and my_local (YYYY-MM-DDTHH:MM), status (scheduled, sent, cancelled)
    and created_at. Up to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        contact: Only messages to this contact. {contact}
        status: Only messages in this status.
        channel: Only this channel.
    """
    rows = shapes.filtered_rows(
        world.scheduled.values(),
        lambda m: (m.send_at_utc, m.message_id),
        shapes.Only("contact_id", contact, lambda v: resolve_contact(world, v).contact_id),
        shapes.Only("status", status),
        shapes.Only("channel", channel),
    )
    return listing(rows, 50, lambda m: _scheduled_view(world, m))


def _cancel(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    msg = cast(ScheduledMessage, row)
    if msg.status != "scheduled":
        raise conflict(f"Message {msg.message_id} is {msg.status} and cannot be cancelled")
    return {"status": "cancelled"}


cancel_scheduled_message = shapes.update(
    "cancel_scheduled_message",
    "scheduled",
    "message_id",
    "Scheduled message",
    "Cancel a message that has not been sent yet. Refused (409) if it was already sent or "
    "cancelled. Returns the message with status 'cancelled'.",
    "The scheduled message id, e.g. 'SCH-00004'.",
    [],
    _cancel,
    view=_scheduled_view,
)


# -- video meetings ----------------------------------------------------------------------------


list_meeting_rooms = shapes.search(
    "list_meeting_rooms",
    "rooms",
    "List video-conference rooms, sorted by name. Every filter given must match. Each has "
    "room_id, name, capacity (participants, organizer included), max_duration_min and "
    "recording (whether meetings can be recorded). All in 'results', with 'count' and "
    "'total'.",
    [
        Filter("query", "name", "Part of the room name (case-insensitive).", op="contains"),
        Filter(
            "min_capacity",
            "capacity",
            "Only rooms for at least this many participants.",
            schema={"type": "integer"},
            op="min",
        ),
    ],
    sort_by="name",
    limit=50,
)


def _meeting_view(world: World, row: Row) -> dict[str, Any]:
    meeting = cast(Meeting, row)
    w = _comm(world)
    start = datetime.fromisoformat(meeting.start_utc.replace("Z", "+00:00"))
    end = start + timedelta(minutes=meeting.duration_min)
    room = w.rooms.get(meeting.room_id)
    return {
        **row_json(meeting),
        "room_name": room.name if room else None,
        "invitee_names": [w.contacts[c].name for c in meeting.invitee_ids if c in w.contacts],
        "participant_count": len(meeting.invitee_ids) + 1,
        "start_local": start.astimezone(HOME_TZ).strftime(LOCAL_FORMAT),
        "end_local": end.astimezone(HOME_TZ).strftime(LOCAL_FORMAT),
    }


_MEETING_DOC = (
    "meeting_id, title, room_id and room_name, start_utc, start_local and end_local (the "
    "user's Eastern time, YYYY-MM-DDTHH:MM), duration_min, invitee_ids and invitee_names, "
    "participant_count (invitees plus the organizer), status (scheduled, cancelled), "
    "join_url and created_at"
)
DOC_PHRASES["meeting"] = _MEETING_DOC


@_tool()
def list_meetings(
    world: CommunicationWorld,
    room: str | None = None,
    from_date: str | None = None,
    to_date: str | None = None,
    title_contains: str | None = None,
    status: Literal["scheduled", "cancelled"] | None = None,
) -> dict[str, Any]:
    """Video meetings, by start time. Every filter given must match.

    Dates are the user's local days. Each meeting has {meeting}. Up to forty in
    'results', with 'count' and 'total'.

    Args:
        world: The communication service (not shown to the agent).
        room: Only meetings in this room. {room}
        from_date: Only meetings starting on or after this local day, YYYY-MM-DD.
        to_date: Only meetings starting on or before this local day, YYYY-MM-DD.
        title_contains: Part of the title (case-insensitive).
        status: Only meetings in this status.
    """
    rows = sorted(world.meetings.values(), key=lambda m: (m.start_utc, m.meeting_id))
    views = [_meeting_view(world, m) for m in rows]
    if room is not None:
        rid = resolve_room(world, room).room_id
        views = [v for v in views if v["room_id"] == rid]
    if from_date is not None:
        first = date_arg(from_date, "from_date", "a calendar date").isoformat()
        views = [v for v in views if v["start_local"][:10] >= first]
    if to_date is not None:
        last = date_arg(to_date, "to_date", "a calendar date").isoformat()
        views = [v for v in views if v["start_local"][:10] <= last]
    if title_contains is not None:
        text = text_arg(title_contains, "title_contains").casefold()
        views = [v for v in views if text in v["title"].casefold()]
    if status is not None:
        views = [v for v in views if v["status"] == status]
    return listing(views, 40, lambda v: v)


def _build_meeting(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _comm(world)
    title = text_arg(args["title"], "title")
    if len(title) > 120:
        raise unprocessable("title must be at most 120 characters")
    room = resolve_room(w, args["room"])
    local = _local_moment(args["start_local"], "start_local")
    duration = int_arg(args["duration_min"], "duration_min", 5, 24 * 60)
    if duration > room.max_duration_min:
        raise unprocessable(
            f"{room.name} allows meetings of at most {room.max_duration_min} minutes"
        )
    invitees: list[str] = []
    raw = args.get("invitees")
    if raw is not None:
        for part in text_arg(raw, "invitees").split(","):
            if part.strip():
                cid = resolve_contact(w, part.strip(), "invitees").contact_id
                if cid not in invitees:
                    invitees.append(cid)
    if len(invitees) + 1 > room.capacity:
        raise unprocessable(
            f"{room.name} holds {room.capacity} participants; this meeting has "
            f"{len(invitees) + 1} with the organizer"
        )
    start = local.replace(tzinfo=HOME_TZ).astimezone(UTC)
    if start <= w.now():
        raise unprocessable("start_local is in the past")
    end = start + timedelta(minutes=duration)
    for other in w.meetings.values():
        if other.room_id != room.room_id or other.status != "scheduled":
            continue
        o_start = datetime.fromisoformat(other.start_utc.replace("Z", "+00:00"))
        if o_start < end and start < o_start + timedelta(minutes=other.duration_min):
            raise conflict(
                f"{room.name} is booked by {other.meeting_id} ('{other.title}') at that time",
                meeting_id=other.meeting_id,
            )
    meeting_id = w.next_id("MTG")
    row = Meeting(
        meeting_id=meeting_id,
        title=title,
        room_id=room.room_id,
        start_utc=stamp(start),
        duration_min=duration,
        invitee_ids=sorted(invitees),
        status="scheduled",
        join_url=f"https://meet.example.com/{room.room_id.lower()}/{meeting_id.lower()}",
        created_at=stamp(w.now()),
    )
    return meeting_id, row


create_meeting = shapes.create(
    "create_meeting",
    "meetings",
    "Book a video meeting in a room. start_local is the user's own time (US Eastern, five "
    "hours behind UTC) and must be "
    "in the future. Refused (422) if the room is too small (invitees plus the organizer) or "
    "the meeting longer than the room allows, and (409) if the room is booked at that time. "
    f"Returns the meeting: {_MEETING_DOC}.",
    [
        Param("title", {"type": "string"}, "The meeting title (at most 120 characters)."),
        Param("room", {"type": "string"}, f"The room. {ROOM_DOC}"),
        Param("start_local", {"type": "string"}, "Start, the user's local time YYYY-MM-DDTHH:MM."),
        Param("duration_min", {"type": "integer"}, "Length in minutes."),
        Param(
            "invitees",
            {"type": "string"},
            "Who to invite: contacts (ids, full names or emails) separated by commas.",
            required=False,
        ),
    ],
    _build_meeting,
    view=_meeting_view,
)


TOOLS: list[Tool] = [
    search_contacts,
    get_contact,
    get_contact_v2,
    list_groups,
    add_contact_to_group,
    search_emails,
    get_email,
    mailbox_size_total,
    label_email,
    send_email,
    check_sender_reputation,
    check_sender_reputation_spamscope,
    check_sender_reputation_senderbase,
    list_chats,
    get_chat_messages,
    send_chat_message,
    get_call_log,
    get_call_log_device,
    call_duration_total,
    list_voicemails,
    get_plan,
    get_usage_summary,
    list_daily_usage,
    project_data_usage,
    buy_data_addon,
    get_roaming_rates,
    get_roaming_rates_roamcompare,
    get_roaming_rates_tariffwatch,
    estimate_roaming_cost,
    estimate_roaming_cost_v2,
    list_roaming_passes,
    buy_roaming_pass,
    list_subscriptions,
    unsubscribe_newsletter,
    schedule_message,
    list_scheduled_messages,
    cancel_scheduled_message,
    list_meeting_rooms,
    list_meetings,
    create_meeting,
]
