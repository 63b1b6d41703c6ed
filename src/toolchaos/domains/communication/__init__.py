"""The communication domain (topic "communication"): mail, chats, calls, plan, meetings.

It covers the mailbox, contacts and groups, chats, calls and voicemail, the family mobile
plan and roaming, newsletters, scheduled messages and video meetings.

It gives every hazard variant a real place to fit:

- roaming and international rates come from three independent sources that agree in the
  clean world and stamp ``as_of`` (``get_roaming_rates``, the carrier's tariff sheet and
  authoritative; ``get_roaming_rates_roamcompare``; ``get_roaming_rates_tariffwatch``);
  sender reputation likewise (``check_sender_reputation``, MailTrust, authoritative;
  ``..._spamscope``; ``..._senderbase``). Calls abroad, texts, trips, meetings with
  people abroad, mail and newsletters all read one of them;
- the carrier's rates fall back to RoamCompare, MailTrust to SpamScope, and the carrier's
  call records (``get_call_log``) to the handset's own history (``get_call_log_device``),
  each with the same keys;
- ``get_contact`` and ``estimate_roaming_cost`` have a v2 with renamed parameters and the
  same result keys (v1 still works);
- ``contact``, ``chat`` and ``room`` parameters take a name or an id, and
  ``search_contacts``, ``list_chats`` and ``list_meeting_rooms`` return the id;
- every write that creates or changes a record has a read that lists it; a meeting's
  ``join_url`` feeds a chat message or a scheduled reminder, so a write can time out after
  committing and be verified before it is repeated;
- sizes, durations, data volumes and prices are numeric fields a unit change can drift;
  dates (``received_at`` days, ``start_date``, ``cycle_end``) are read into answers.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import CENTS, FRACTION, SECONDS, resolver, same_params, sources
from toolchaos.domains.communication.tools import TOOLS
from toolchaos.domains.communication.world import CommunicationWorld

_RATE_TOOLS = (
    "get_roaming_rates",
    "get_roaming_rates_roamcompare",
    "get_roaming_rates_tariffwatch",
)
_REP_TOOLS = (
    "check_sender_reputation",
    "check_sender_reputation_spamscope",
    "check_sender_reputation_senderbase",
)
RATE_FIELDS = [
    "data_per_mb_usd",
    "roaming_call_per_min_usd",
    "intl_call_per_min_usd",
    "sms_usd",
    "daypass_usd",
]
REP_FIELDS = ["reputation_score", "complaint_rate_pct"]


_CALL_FILTERS = {"contact": "contact", "direction": "direction", "since": "since", "until": "until"}
_USD_TO_EUR = UnitConversion(to_unit="EUR", factor=0.92, fixed=False)


def _contact(param: str) -> Resolver:
    return resolver(param, "search_contacts", "contact_id")


DOMAIN = Domain(
    name="communication",
    topic="communication",
    world_type=CommunicationWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_roaming_rates": Fallback(
                tool="get_roaming_rates_roamcompare", args_map={"country": "country"}
            ),
            "check_sender_reputation": Fallback(
                tool="check_sender_reputation_spamscope", args_map={"domain": "domain"}
            ),
            "get_call_log": Fallback(tool="get_call_log_device", args_map=dict(_CALL_FILTERS)),
        },
        v2={
            "get_contact": V2Tool(tool="get_contact_v2", args_map={"person": "contact"}),
            "estimate_roaming_cost": V2Tool(
                tool="estimate_roaming_cost_v2",
                args_map={
                    "destination": "country",
                    "trip_days": "days",
                    "daily_data_mb": "data_mb_per_day",
                    "call_minutes": "call_minutes",
                    "sms_count": "sms_count",
                },
            ),
        },
        unit_conversions={
            "total_size_kb": UnitConversion(to_unit="MB", factor=1 / 1024),
            "size_kb": UnitConversion(to_unit="MB", factor=1 / 1024),
            "duration_sec": UnitConversion(to_unit="min", factor=1 / 60),
            "total_minutes": UnitConversion(to_unit="h", factor=1 / 60),
            "data_used_gb": UnitConversion(to_unit="MB", factor=1024.0),
            "projected_gb": UnitConversion(to_unit="MB", factor=1024.0),
            "data_mb": UnitConversion(to_unit="GB", factor=1 / 1024),
            "best_cost_usd": _USD_TO_EUR,
            "pay_as_you_go_usd": _USD_TO_EUR,
            "price_usd": _USD_TO_EUR,
            "projected_overage_usd": _USD_TO_EUR,
            **dict.fromkeys(
                ("sms_usd", "intl_call_per_min_usd", "roaming_call_per_min_usd", "data_per_mb_usd"),
                CENTS,
            ),
            **dict.fromkeys(("complaint_rate_pct",), FRACTION),
            **dict.fromkeys(("minutes_used",), SECONDS),
        },
        resolvers={
            **{
                name: _contact("contact")
                for name in (
                    "get_contact",
                    "add_contact_to_group",
                    "get_call_log",
                    "get_call_log_device",
                    "call_duration_total",
                    "list_voicemails",
                    "schedule_message",
                    "list_scheduled_messages",
                )
            },
            "get_contact_v2": _contact("person"),
            "get_chat_messages": resolver("chat", "list_chats", "chat_id"),
            "send_chat_message": resolver("chat", "list_chats", "chat_id"),
            "list_meetings": resolver("room", "list_meeting_rooms", "room_id"),
            "create_meeting": resolver("room", "list_meeting_rooms", "room_id"),
        },
        write_verifiers={
            "add_contact_to_group": WriteVerifier(
                tool="search_contacts", args_map={"group": "group"}, match={"contact_id": "contact"}
            ),
            "label_email": WriteVerifier(
                tool="search_emails", args_map={"label": "label"}, match={"email_id": "email_id"}
            ),
            "send_email": WriteVerifier(
                tool="search_emails",
                args_map={"subject_contains": "subject"},
                match={"subject": "subject"},
            ),
            "send_chat_message": WriteVerifier(
                tool="get_chat_messages", args_map={"chat": "chat"}, match={"text": "text"}
            ),
            "buy_data_addon": WriteVerifier(
                tool="get_plan",
                args_map={},
                records_key="addons",
                match={"addon_code": "addon_code", "line_id": "line"},
            ),
            "buy_roaming_pass": WriteVerifier(
                tool="list_roaming_passes",
                args_map={"country": "country"},
                match={"start_date": "start_date", "days": "days"},
            ),
            "unsubscribe_newsletter": WriteVerifier(
                tool="list_subscriptions", args_map={}, match={"list_id": "list_id"}
            ),
            "schedule_message": WriteVerifier(
                tool="list_scheduled_messages",
                args_map={"contact": "contact"},
                match={"text": "text", "channel": "channel"},
            ),
            "cancel_scheduled_message": WriteVerifier(
                tool="list_scheduled_messages", args_map={}, match={"message_id": "message_id"}
            ),
            "create_meeting": WriteVerifier(
                tool="list_meetings",
                args_map={"title_contains": "title"},
                match={"title": "title", "duration_min": "duration_min"},
            ),
        },
        sources={
            **sources(same_params(_RATE_TOOLS, "country"), RATE_FIELDS),
            **sources(same_params(_REP_TOOLS, "domain"), REP_FIELDS),
        },
    ),
)

__all__ = ["DOMAIN", "CommunicationWorld"]
