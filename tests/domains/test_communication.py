"""Tests of the communication domain: the seeded world, the tools, writes and the notes."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from conftest import DomainTools, forks_of
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains.communication import DOMAIN
from toolchaos.domains.communication.world import CommunicationWorld

# Until the registry line is committed; a no-op afterwards.
DOMAINS.setdefault("communication", "toolchaos.domains.communication:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
RATE_TOOLS = ("get_roaming_rates", "get_roaming_rates_roamcompare", "get_roaming_rates_tariffwatch")
REP_TOOLS = (
    "check_sender_reputation",
    "check_sender_reputation_spamscope",
    "check_sender_reputation_senderbase",
)
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


def abroad(world: CommunicationWorld) -> Any:
    return next(
        c for c in sorted(world.contacts.values(), key=lambda c: c.contact_id) if c.country != "US"
    )


def free_room(world: CommunicationWorld) -> Any:
    return world.rooms["ROOM-05"]


def read_calls(world: CommunicationWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool, on records drawn from the world."""
    person = abroad(world)
    chat = next(iter(world.chats.values()))
    email = next(iter(world.emails.values()))
    return [
        ("search_contacts", {"query": person.name}),
        ("get_contact", {"contact": person.contact_id}),
        ("get_contact_v2", {"person": person.name}),
        ("list_groups", {}),
        ("search_emails", {"folder": "inbox"}),
        ("get_email", {"email_id": email.email_id}),
        ("mailbox_size_total", {"folder": "inbox"}),
        ("check_sender_reputation", {"domain": "gmail.com"}),
        ("check_sender_reputation_spamscope", {"domain": "gmail.com"}),
        ("check_sender_reputation_senderbase", {"domain": "gmail.com"}),
        ("list_chats", {}),
        ("get_chat_messages", {"chat": chat.title}),
        ("get_call_log", {}),
        ("get_call_log_device", {}),
        ("call_duration_total", {}),
        ("list_voicemails", {}),
        ("get_plan", {}),
        ("get_usage_summary", {"line": "Sam"}),
        ("list_daily_usage", {"line": "LN-01"}),
        ("project_data_usage", {"line": "Maya"}),
        ("get_roaming_rates", {"country": "France"}),
        ("get_roaming_rates_roamcompare", {"country": "FR"}),
        ("get_roaming_rates_tariffwatch", {"country": "fr"}),
        ("estimate_roaming_cost", {"country": "JP", "days": 4, "data_mb_per_day": 200}),
        ("estimate_roaming_cost_v2", {"destination": "JP", "trip_days": 4, "daily_data_mb": 200}),
        ("list_roaming_passes", {}),
        ("list_subscriptions", {}),
        ("list_scheduled_messages", {}),
        ("list_meeting_rooms", {}),
        ("list_meetings", {}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: CommunicationWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads
    results = domain_tools.read_results(base, read_calls(base))
    assert len(results) == len(reads)
    domain_tools.check_reads_change_nothing(base.fork(), read_calls(base))


@pytest.mark.parametrize("name", sorted(DOMAIN.tools))
def test_shared_phrases_are_filled_into_the_docs(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert "{" not in spec.description
    for prop, schema in spec.parameters["properties"].items():
        assert "{" not in schema["description"], f"{name}.{prop} has an unfilled phrase"


def test_tool_count_and_writes() -> None:
    writes = {n for n, t in DOMAIN.tools.items() if t.kind is ToolKind.WRITE}
    assert 25 <= len(DOMAIN.tools) <= 40
    assert len(writes) >= 4
    assert writes <= set(DOMAIN.notes.write_verifiers)


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = CommunicationWorld.build(seed)
    assert len(w.contacts) >= 50 and len(w.emails) >= 100 and len(w.calls) >= 100
    assert all(re.fullmatch(r"CT-\d{4}", k) for k in w.contacts)
    names = [c.name for c in w.contacts.values()]
    assert len(set(names)) == len(names)
    subjects = [e.subject for e in w.emails.values()]
    assert len(set(subjects)) == len(subjects)
    for contact in w.contacts.values():
        assert contact.country in w.countries
        assert contact.utc_offset_hours == w.countries[contact.country].utc_offset_hours
        assert set(contact.groups) <= set(w.groups)
    for chat in w.chats.values():
        assert set(chat.member_ids) <= set(w.contacts)
    for c in w.calls.values():
        assert (c.duration_sec == 0) == (c.direction == "missed")
    plan = w.current_plan()
    assert plan.cycle_start < w.now().date().isoformat() <= plan.cycle_end
    assert max(u.date for u in w.daily_usage.values()) < w.now().date().isoformat()
    for meeting in w.meetings.values():
        room = w.rooms[meeting.room_id]
        assert meeting.duration_min <= room.max_duration_min
        assert len(meeting.invitee_ids) + 1 <= room.capacity


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_sources_agree_in_the_clean_world(seed: int) -> None:
    w = CommunicationWorld.build(seed)
    fields = DOMAIN.notes.sources["get_roaming_rates"].fields
    for code in w.countries:
        if code == "US":
            continue
        readings = [call(w, t, country=code) for t in RATE_TOOLS]
        assert len({tuple(r[f] for f in fields) for r in readings}) == 1
        assert len({r["source"] for r in readings}) == 3
        assert all(r["as_of"].endswith("Z") for r in readings)
    rep_fields = DOMAIN.notes.sources["check_sender_reputation"].fields
    for domain in w.rep_mailtrust:
        readings = [call(w, t, domain=domain) for t in REP_TOOLS]
        assert len({tuple(r[f] for f in rep_fields) for r in readings}) == 1


def test_fallbacks_and_v2_return_the_same_keys(base: CommunicationWorld) -> None:
    for section in ("fallbacks", "v2"):
        for tool, entry in getattr(DOMAIN.notes, section).items():
            args = dict(
                next(a for n, a in read_calls(base) if n == tool)
                if tool != "get_contact"
                else {"contact": abroad(base).name}
            )
            if tool == "estimate_roaming_cost":
                args = {"country": "JP", "days": 4, "data_mb_per_day": 200.0}
            mine = call(base, tool, **args)
            alt_args = {new: args[old] for new, old in entry.args_map.items() if old in args}
            theirs = call(base, entry.tool, **alt_args)
            assert set(mine) - {"source", "reference", "as_of"} <= set(theirs)
            for key in set(mine) - {"source", "reference", "as_of"}:
                assert mine[key] == theirs[key], (tool, key)


def test_a_name_resolves_through_the_search_tool(base: CommunicationWorld) -> None:
    person = abroad(base)
    found = call(base, "search_contacts", query=person.name)
    assert found["results"][0]["contact_id"] == person.contact_id
    assert call(base, "get_contact", contact=person.name)["contact_id"] == person.contact_id
    first = person.name.split()[0]
    sharing = [c for c in base.contacts.values() if first in c.name]
    if len(sharing) > 1:
        refused(base.fork(), "get_contact", 409, contact=first)
    chat = next(c for c in base.chats.values() if c.kind == "group")
    assert call(base, "list_chats", query=chat.title)["results"][0]["chat_id"] == chat.chat_id


# -- custom logic --------------------------------------------------------------------------


def test_usage_projection(base: CommunicationWorld) -> None:
    for line in base.lines.values():
        usage = call(base, "get_usage_summary", line=line.owner)
        days = sorted(
            (u for u in base.daily_usage.values() if u.line_id == line.line_id),
            key=lambda u: u.date,
        )
        used = sum(u.data_mb for u in days)
        assert usage["data_used_mb"] == used and usage["days_elapsed"] == len(days)
        projection = call(base, "project_data_usage", line=line.line_id)
        average = used / len(days)
        expected = round((used + average * usage["days_remaining"]) / 1024, 2)
        assert projection["projected_gb"] == expected
        over = round(max(0.0, expected - usage["total_data_gb"]), 2)
        assert projection["projected_overage_usd"] == math.ceil(over) * 15.0
        assert (projection["recommended_addon"] is None) == (over == 0)
        recent = call(base, "project_data_usage", line=line.phone_number, method="last_week")
        assert recent["daily_average_mb"] == round(sum(u.data_mb for u in days[-7:]) / 7, 1)
    refused(base.fork(), "get_usage_summary", 404, line="Nobody")


def test_roaming_estimate_picks_the_cheaper_option(base: CommunicationWorld) -> None:
    rates = call(base, "get_roaming_rates", country="JP")
    est = call(
        base,
        "estimate_roaming_cost",
        country="Japan",
        days=3,
        data_mb_per_day=100.0,
        call_minutes=10,
        sms_count=4,
    )
    payg = (
        3 * 100 * rates["data_per_mb_usd"]
        + 10 * rates["roaming_call_per_min_usd"]
        + 4 * rates["sms_usd"]
    )
    assert est["pay_as_you_go_usd"] == round(payg, 2)
    assert est["day_pass_total_usd"] == 3 * rates["daypass_usd"]
    assert est["best_cost_usd"] == min(est["pay_as_you_go_usd"], est["day_pass_total_usd"])
    tiny = call(base, "estimate_roaming_cost", country="JP", days=1, data_mb_per_day=1.0)
    assert tiny["best_option"] == "pay_as_you_go"
    refused(base.fork(), "get_roaming_rates", 422, country="US")
    refused(base.fork(), "get_roaming_rates", 404, country="Atlantis")


def test_call_duration_total_sums_the_log(base: CommunicationWorld) -> None:
    person_id = next(c.contact_id for c in base.calls.values() if c.contact_id)
    total = call(base, "call_duration_total", contact=person_id)
    rows = [c for c in base.calls.values() if c.contact_id == person_id]
    assert total["call_count"] == len(rows)
    assert total["total_minutes"] == round(sum(c.duration_sec for c in rows) / 60, 2)


def test_email_search_filters(base: CommunicationWorld) -> None:
    found = call(base, "search_emails", folder="inbox", has_attachments=True)["results"]
    assert found and all(e["folder"] == "inbox" and e["attachment_count"] > 0 for e in found)
    assert [e["received_at"] for e in found] == sorted(
        (e["received_at"] for e in found), reverse=True
    )
    total = call(base, "mailbox_size_total", folder="spam")
    assert total["total_size_kb"] == sum(
        e.size_kb for e in base.emails.values() if e.folder == "spam"
    )
    refused(base.fork(), "search_emails", 422, received_after="02/03/2026")


# -- writes ----------------------------------------------------------------------------------


def test_schedule_message_reads_the_recipients_time_zone(base: CommunicationWorld) -> None:
    person = abroad(base)
    with forks_of(base) as (w, _):
        out = call(
            w,
            "schedule_message",
            contact=person.name,
            channel="sms",
            text="Hello!",
            send_at="2026-03-06T09:00",
        )
        expected = datetime(2026, 3, 6, 9, 0, tzinfo=UTC) - timedelta(hours=person.utc_offset_hours)
        assert out["send_at_utc"] == expected.strftime("%Y-%m-%dT%H:%M:%SZ")
        assert out["recipient_local"] == "2026-03-06T09:00"
        mine = call(
            w,
            "schedule_message",
            contact=person.contact_id,
            channel="email",
            text="Hi",
            send_at="2026-03-06T09:00",
            time_zone="mine",
        )
        assert mine["my_local"] == "2026-03-06T09:00"
        args = {"contact": person.contact_id, "text": "Hello!", "channel": "sms"}
        assert domain_tools.verified_records(w, "schedule_message", args)
        refused(
            w,
            "schedule_message",
            409,
            contact=person.name,
            channel="sms",
            text="Hello!",
            send_at="2026-03-06T09:00",
        )
        refused(
            w,
            "schedule_message",
            422,
            contact=person.name,
            channel="sms",
            text="x",
            send_at="2026-03-01T09:00",
        )
        cancelled = call(w, "cancel_scheduled_message", message_id=out["message_id"])
        assert cancelled["status"] == "cancelled"
        refused(w, "cancel_scheduled_message", 409, message_id=out["message_id"])


def test_meeting_then_chat_message(base: CommunicationWorld) -> None:
    room = free_room(base)
    chat = next(c for c in base.chats.values() if c.kind == "group")
    with forks_of(base) as (w, _):
        meeting = call(
            w,
            "create_meeting",
            title="Offsite prep",
            room=room.name,
            start_local="2026-03-20T07:00",
            duration_min=30,
        )
        assert meeting["start_utc"] == "2026-03-20T12:00:00Z" and meeting["participant_count"] == 1
        assert domain_tools.verified_records(
            w, "create_meeting", {"title": "Offsite prep", "duration_min": 30}
        )
        refused(
            w,
            "create_meeting",
            409,
            title="Clash",
            room=room.room_id,
            start_local="2026-03-20T07:15",
            duration_min=15,
        )
        refused(
            w,
            "create_meeting",
            422,
            title="Long",
            room="Huddle Room",
            start_local="2026-03-21T07:00",
            duration_min=600,
        )
        sent = call(w, "send_chat_message", chat=chat.chat_id, text=meeting["join_url"])
        assert domain_tools.verified_records(
            w, "send_chat_message", {"chat": chat.chat_id, "text": meeting["join_url"]}
        )
        assert sent["sender_id"] == "me"


def test_other_writes_and_their_verifiers(base: CommunicationWorld) -> None:
    with forks_of(base) as (w, _):
        bought = call(w, "buy_roaming_pass", country="Japan", start_date="2026-04-10", days=3)
        assert (
            bought["status"] == "upcoming"
            and bought["price_usd"] == 3 * w.rates_carrier["JP"].daypass_usd
        )
        assert domain_tools.verified_records(
            w, "buy_roaming_pass", {"country": "JP", "start_date": "2026-04-10", "days": 3}
        )
        refused(w, "buy_roaming_pass", 409, country="JP", start_date="2026-04-11", days=2)
        refused(w, "buy_roaming_pass", 422, country="Kenya", start_date="2026-04-11", days=2)
        addon = call(w, "buy_data_addon", line="Maya", addon_code="DATA10")
        args = {"addon_code": "DATA10", "line": addon["line_id"]}
        assert domain_tools.verified_records(w, "buy_data_addon", args)
        before = call(base, "get_usage_summary", line="Maya")["total_data_gb"]
        after = call(w, "get_usage_summary", line="Maya")["total_data_gb"]
        assert after == before + addon["extra_gb"]
        email = call(w, "send_email", to=abroad(w).name, subject="Trip notes", body="See you soon")
        assert email["folder"] == "sent" and email["to"] == abroad(w).email
        assert domain_tools.verified_records(w, "send_email", {"subject": "Trip notes"})
        inbox = next(e for e in w.emails.values() if "important" not in e.labels)
        call(w, "label_email", email_id=inbox.email_id, label="important")
        refused(w, "label_email", 409, email_id=inbox.email_id, label="important")
        refused(w, "label_email", 422, email_id=inbox.email_id, label="Bad Label!")
        subscribed = next(n for n in w.newsletters.values() if n.status == "subscribed")
        assert (
            call(w, "unsubscribe_newsletter", list_id=subscribed.list_id)["status"]
            == "unsubscribed"
        )
        refused(w, "unsubscribe_newsletter", 409, list_id=subscribed.list_id)
        person = next(c for c in w.contacts.values() if "GRP-03" not in c.groups)
        call(w, "add_contact_to_group", contact=person.contact_id, group="Book Club")
        assert domain_tools.verified_records(
            w, "add_contact_to_group", {"group": "GRP-03", "contact": person.contact_id}
        )
        refused(w, "add_contact_to_group", 409, contact=person.contact_id, group="GRP-03")
