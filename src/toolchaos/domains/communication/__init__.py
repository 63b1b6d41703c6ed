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

from typing import Any

from toolchaos.domains import Domain, tool_map
from toolchaos.domains._notes import resolver, same_params, sources
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
_USD_TO_EUR = {"to_unit": "EUR", "factor": 0.92}


def _contact(param: str) -> dict[str, Any]:
    return resolver(param, "search_contacts", "contact_id")


DOMAIN = Domain(
    name="communication",
    topic="communication",
    world_type=CommunicationWorld,
    tools=tool_map(TOOLS),
    notes={
        "fallbacks": {
            "get_roaming_rates": {
                "tool": "get_roaming_rates_roamcompare",
                "args_map": {"country": "country"},
            },
            "check_sender_reputation": {
                "tool": "check_sender_reputation_spamscope",
                "args_map": {"domain": "domain"},
            },
            "get_call_log": {"tool": "get_call_log_device", "args_map": dict(_CALL_FILTERS)},
        },
        "v2": {
            "get_contact": {"tool": "get_contact_v2", "args_map": {"person": "contact"}},
            "estimate_roaming_cost": {
                "tool": "estimate_roaming_cost_v2",
                "args_map": {
                    "destination": "country",
                    "trip_days": "days",
                    "daily_data_mb": "data_mb_per_day",
                    "call_minutes": "call_minutes",
                    "sms_count": "sms_count",
                },
            },
        },
        "unit_conversions": {
            "total_size_kb": {"to_unit": "MB", "factor": 1 / 1024},
            "size_kb": {"to_unit": "MB", "factor": 1 / 1024},
            "duration_sec": {"to_unit": "min", "factor": 1 / 60},
            "total_minutes": {"to_unit": "h", "factor": 1 / 60},
            "data_used_gb": {"to_unit": "MB", "factor": 1024.0},
            "projected_gb": {"to_unit": "MB", "factor": 1024.0},
            "data_mb": {"to_unit": "GB", "factor": 1 / 1024},
            "best_cost_usd": dict(_USD_TO_EUR),
            "pay_as_you_go_usd": dict(_USD_TO_EUR),
            "price_usd": dict(_USD_TO_EUR),
            "projected_overage_usd": dict(_USD_TO_EUR),
        },
        "resolvers": {
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
        "write_verifiers": {
            "add_contact_to_group": {
                "tool": "search_contacts",
                "args_map": {"group": "group"},
                "list": "results",
                "match": {"contact_id": "contact"},
            },
            "label_email": {
                "tool": "search_emails",
                "args_map": {"label": "label"},
                "list": "results",
                "match": {"email_id": "email_id"},
            },
            "send_email": {
                "tool": "search_emails",
                "args_map": {"subject_contains": "subject"},
                "list": "results",
                "match": {"subject": "subject"},
            },
            "send_chat_message": {
                "tool": "get_chat_messages",
                "args_map": {"chat": "chat"},
                "list": "results",
                "match": {"text": "text"},
            },
            "buy_data_addon": {
                "tool": "get_plan",
                "args_map": {},
                "list": "addons",
                "match": {"addon_code": "addon_code", "line_id": "line"},
            },
            "buy_roaming_pass": {
                "tool": "list_roaming_passes",
                "args_map": {"country": "country"},
                "list": "results",
                "match": {"start_date": "start_date", "days": "days"},
            },
            "unsubscribe_newsletter": {
                "tool": "list_subscriptions",
                "args_map": {},
                "list": "results",
                "match": {"list_id": "list_id"},
            },
            "schedule_message": {
                "tool": "list_scheduled_messages",
                "args_map": {"contact": "contact"},
                "list": "results",
                "match": {"text": "text", "channel": "channel"},
            },
            "cancel_scheduled_message": {
                "tool": "list_scheduled_messages",
                "args_map": {},
                "list": "results",
                "match": {"message_id": "message_id"},
            },
            "create_meeting": {
                "tool": "list_meetings",
                "args_map": {"title_contains": "title"},
                "list": "results",
                "match": {"title": "title", "duration_min": "duration_min"},
            },
        },
        "sources": {
            **sources(same_params(_RATE_TOOLS, "country"), RATE_FIELDS),
            **sources(same_params(_REP_TOOLS, "domain"), REP_FIELDS),
        },
    },
)

__all__ = ["DOMAIN", "CommunicationWorld"]
