"""The communication world: a mailbox, contacts, chats, calls, a phone plan and meetings.

Tables (each keyed by the row's id unless noted):

- ``countries``: the countries contacts live in and travellers roam to, keyed by ISO code;
- ``contacts`` and ``groups``: the address book; a contact lists the ids of its groups;
- ``emails``: the mailbox (inbox, archive, sent, spam) with labels, sizes and attachments;
- ``rates_carrier``, ``rates_roamcompare``, ``rates_tariffwatch``: roaming and
  international rates per country from three independent sources, keyed by country code.
  In the clean world they agree on every rate; each stamps its own ``as_of``. The
  carrier's own tariff sheet is authoritative;
- ``rep_mailtrust``, ``rep_spamscope``, ``rep_senderbase``: sender-reputation scores of
  every sending domain from three independent services (MailTrust is authoritative);
- ``chats`` and ``chat_messages``: direct and group conversations;
- ``calls`` and ``voicemails``: the call log (the carrier's records) and voicemail box;
- ``plan`` (one row, key ``"current"``), ``lines`` (the phones on the family plan),
  ``daily_usage`` (keyed ``"{line_id}:{date}"``, one row per line and finished day of
  the billing cycle) and ``addon_purchases``: the mobile plan;
- ``roaming_passes``: roaming day passes bought for trips;
- ``newsletters``: mailing-list subscriptions;
- ``scheduled``: messages (SMS or email) scheduled to send later;
- ``rooms`` and ``meetings``: video-conference rooms and the meetings booked in them.

Timestamps are UTC ISO strings ending in ``Z``, relative to :attr:`World.EPOCH`. The user
lives at UTC-5 (``HOME_OFFSET_HOURS``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import people, stamp
from toolchaos.domains.communication import data

EMAIL_FOLDERS = ("inbox", "archive", "sent", "spam")
CALL_DIRECTIONS = ("incoming", "outgoing", "missed")
CHANNELS = ("sms", "email")
SCHEDULE_STATUSES = ("scheduled", "sent", "cancelled")
SUBSCRIPTION_STATUSES = ("subscribed", "paused", "unsubscribed")
PASS_STATUSES = ("active", "upcoming", "expired", "cancelled")
ME = "me"
MEET_URL = "https://meet.example.com"


class CountryRow(Row):
    """A country: ISO code, name, dialling code and UTC offset at the world's epoch."""

    code: str
    name: str
    dial_code: str
    utc_offset_hours: float


class Contact(Row):
    """One address-book entry."""

    contact_id: str
    name: str
    email: str
    phone: str
    company: str | None
    city: str
    country: str
    utc_offset_hours: float
    groups: list[str]
    favorite: bool
    created_at: str


class Group(Row):
    """A contact group."""

    group_id: str
    name: str
    description: str
    created_at: str


class Email(Row):
    """One message in the mailbox."""

    email_id: str
    folder: str
    sender_name: str
    sender_email: str
    sender_domain: str
    to: str
    subject: str
    labels: list[str]
    received_at: str
    size_kb: int
    attachment_count: int
    attachment_kb: int
    unread: bool
    preview: str


class RateCard(Row):
    """One source's roaming and international rates for a country (US dollars)."""

    country: str
    country_name: str
    data_per_mb_usd: float
    roaming_call_per_min_usd: float
    intl_call_per_min_usd: float
    sms_usd: float
    daypass_usd: float | None
    as_of: str
    reference: str


class Reputation(Row):
    """One service's reputation of a sending domain."""

    domain: str
    reputation_score: int
    complaint_rate_pct: float
    as_of: str
    reference: str


class Chat(Row):
    """A direct or group conversation; ``member_ids`` are contact ids (the user is implied)."""

    chat_id: str
    title: str
    kind: str
    member_ids: list[str]
    muted: bool
    created_at: str


class ChatMessage(Row):
    """One message in a chat; ``sender_id`` is a contact id or ``"me"``."""

    message_id: str
    chat_id: str
    sender_id: str
    sender_name: str
    text: str
    sent_at: str


class Call(Row):
    """One call in the carrier's call records."""

    call_id: str
    contact_id: str | None
    number: str
    direction: str
    started_at: str
    duration_sec: int
    country: str


class Voicemail(Row):
    """One voicemail."""

    voicemail_id: str
    contact_id: str | None
    number: str
    left_at: str
    duration_sec: int
    transcript: str
    listened: bool


class Plan(Row):
    """The family mobile plan and current billing cycle (dates inclusive)."""

    plan_name: str
    monthly_fee_usd: float
    overage_per_gb_usd: float
    cycle_start: str
    cycle_end: str


class Line(Row):
    """One phone line on the plan, with its own monthly data allowance."""

    line_id: str
    owner: str
    phone_number: str
    data_allowance_gb: float


class DailyUsage(Row):
    """One line's usage on one finished day of the billing cycle."""

    line_id: str
    date: str
    data_mb: int
    call_minutes: int
    sms_count: int


class AddonPurchase(Row):
    """A data top-up bought for one line in the current cycle."""

    purchase_id: str
    line_id: str
    addon_code: str
    name: str
    extra_gb: float
    price_usd: float
    purchased_at: str


class RoamingPass(Row):
    """A roaming day pass bought for a trip (dates inclusive)."""

    pass_id: str
    country: str
    country_name: str
    start_date: str
    end_date: str
    days: int
    price_usd: float
    status: str
    created_at: str


class Newsletter(Row):
    """A mailing-list subscription."""

    list_id: str
    name: str
    sender_domain: str
    category: str
    frequency_per_week: float
    status: str
    subscribed_since: str
    emails_last_30d: int


class ScheduledMessage(Row):
    """A message scheduled to send later; ``recipient_local`` is the send time there."""

    message_id: str
    channel: str
    contact_id: str
    recipient: str
    text: str
    send_at_utc: str
    recipient_local: str
    status: str
    created_at: str


class Room(Row):
    """A video-conference room."""

    room_id: str
    name: str
    capacity: int
    max_duration_min: int
    recording: bool


class Meeting(Row):
    """A meeting booked in a room."""

    meeting_id: str
    title: str
    room_id: str
    start_utc: str
    duration_min: int
    invitee_ids: list[str]
    status: str
    join_url: str
    created_at: str


class CommunicationWorld(World):
    """Mailbox, address book, chats, calls, plan and roaming, lists, schedules, meetings."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "countries",
        "contacts",
        "groups",
        "emails",
        "rates_carrier",
        "rates_roamcompare",
        "rates_tariffwatch",
        "rep_mailtrust",
        "rep_spamscope",
        "rep_senderbase",
        "chats",
        "chat_messages",
        "calls",
        "voicemails",
        "plan",
        "lines",
        "daily_usage",
        "addon_purchases",
        "roaming_passes",
        "newsletters",
        "scheduled",
        "rooms",
        "meetings",
    )

    countries: dict[str, CountryRow] = Field(default_factory=dict)
    contacts: dict[str, Contact] = Field(default_factory=dict)
    groups: dict[str, Group] = Field(default_factory=dict)
    emails: dict[str, Email] = Field(default_factory=dict)
    rates_carrier: dict[str, RateCard] = Field(default_factory=dict)
    rates_roamcompare: dict[str, RateCard] = Field(default_factory=dict)
    rates_tariffwatch: dict[str, RateCard] = Field(default_factory=dict)
    rep_mailtrust: dict[str, Reputation] = Field(default_factory=dict)
    rep_spamscope: dict[str, Reputation] = Field(default_factory=dict)
    rep_senderbase: dict[str, Reputation] = Field(default_factory=dict)
    chats: dict[str, Chat] = Field(default_factory=dict)
    chat_messages: dict[str, ChatMessage] = Field(default_factory=dict)
    calls: dict[str, Call] = Field(default_factory=dict)
    voicemails: dict[str, Voicemail] = Field(default_factory=dict)
    plan: dict[str, Plan] = Field(default_factory=dict)
    lines: dict[str, Line] = Field(default_factory=dict)
    daily_usage: dict[str, DailyUsage] = Field(default_factory=dict)
    addon_purchases: dict[str, AddonPurchase] = Field(default_factory=dict)
    roaming_passes: dict[str, RoamingPass] = Field(default_factory=dict)
    newsletters: dict[str, Newsletter] = Field(default_factory=dict)
    scheduled: dict[str, ScheduledMessage] = Field(default_factory=dict)
    rooms: dict[str, Room] = Field(default_factory=dict)
    meetings: dict[str, Meeting] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.countries()
        gen.contacts()
        gen.rates()
        gen.newsletters()
        gen.emails()
        gen.reputation()
        gen.chats()
        gen.calls()
        gen.plan()
        gen.roaming_passes()
        gen.scheduled()
        gen.meetings()
        return cls(seed=seed, id_counters=gen.counters, **gen.tables)

    def current_plan(self) -> Plan:
        """The user's plan row."""
        return self.plan["current"]


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    tables: dict[str, dict[str, Row]] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    def _put(self, table: str, key: str, row: Row) -> None:
        self.tables.setdefault(table, {})[key] = row

    def _ago(self, days_low: int, days_high: int) -> datetime:
        return self.epoch - timedelta(
            days=self.rng.randint(days_low, days_high), minutes=self.rng.randint(0, 1439)
        )

    def countries(self) -> None:
        for c in data.COUNTRIES:
            row = CountryRow(
                code=c.code, name=c.name, dial_code=c.dial_code, utc_offset_hours=c.utc_offset_hours
            )
            self._put("countries", c.code, row)

    def _phone(self, country: data.Country) -> str:
        digits = "".join(str(self.rng.randint(0, 9)) for _ in range(9))
        return f"{country.dial_code} {self.rng.randint(2, 9)}{digits}"

    def contacts(self) -> None:
        rng = self.rng
        for number, (name, description) in enumerate(data.GROUPS, start=1):
            gid = f"GRP-{number:02d}"
            self._put(
                "groups",
                gid,
                Group(
                    group_id=gid,
                    name=name,
                    description=description,
                    created_at=stamp(self._ago(200, 900)),
                ),
            )
        group_ids = sorted(self.tables["groups"])
        countries = [c for c in data.COUNTRIES if c.code != data.HOME_COUNTRY]
        home = data.COUNTRIES[0]
        gen = people(rng, data.FIRST_NAMES, data.LAST_NAMES, data.PERSONAL_DOMAINS)
        numbers = rng.sample(range(1000, 10000), 64)
        for number in numbers:
            name, personal = next(gen)
            country = home if rng.random() < 0.4 else rng.choice(countries)
            company: str | None = None
            email = personal
            if rng.random() < 0.45:
                company, domain = rng.choice(data.COMPANIES)
                email = f"{personal.split('@')[0]}@{domain}"
            groups = sorted(rng.sample(group_ids, rng.choice((0, 1, 1, 2))))
            if company is not None and "GRP-02" not in groups and rng.random() < 0.7:
                groups = sorted([*groups, "GRP-02"])
            cid = f"CT-{number}"
            self._put(
                "contacts",
                cid,
                Contact(
                    contact_id=cid,
                    name=name,
                    email=email,
                    phone=self._phone(country),
                    company=company,
                    city=rng.choice(country.cities),
                    country=country.code,
                    utc_offset_hours=country.utc_offset_hours,
                    groups=groups,
                    favorite=rng.random() < 0.2,
                    created_at=stamp(self._ago(30, 1500)),
                ),
            )

    def rates(self) -> None:
        rng = self.rng
        sheet = f"TS-{self.epoch:%Y}-{rng.randint(1, 2):02d}"
        for c in data.COUNTRIES:
            scale = rng.choice((0.9, 1.0, 1.0, 1.1))
            facts = {
                "country": c.code,
                "country_name": c.name,
                "data_per_mb_usd": round(c.data_per_mb * scale, 2),
                "roaming_call_per_min_usd": round(c.roaming_call_per_min * scale, 2),
                "intl_call_per_min_usd": round(c.intl_call_per_min * scale, 2),
                "sms_usd": round(c.sms * scale, 2),
                "daypass_usd": c.daypass,
            }
            stamps = {
                "rates_carrier": self.epoch - timedelta(days=rng.randint(1, 6)),
                "rates_roamcompare": self.epoch - timedelta(hours=rng.randint(2, 20)),
                "rates_tariffwatch": self.epoch - timedelta(days=rng.randint(2, 12)),
            }
            refs = {
                "rates_carrier": sheet,
                "rates_roamcompare": f"crawl-{rng.randint(10000, 99999)}",
                "rates_tariffwatch": f"survey-{rng.randint(100, 999)}",
            }
            for table, when in stamps.items():
                card = RateCard(**facts, as_of=stamp(when), reference=refs[table])
                self._put(table, c.code, card)

    def newsletters(self) -> None:
        rng = self.rng
        statuses = ["subscribed"] * 12 + ["paused"] * 3 + ["unsubscribed"] * 3
        rng.shuffle(statuses)
        for number, ((name, domain, category, weekly), status) in enumerate(
            zip(data.NEWSLETTERS, statuses, strict=True), start=1
        ):
            lid = f"NL-{number:03d}"
            received = 0 if status != "subscribed" else max(1, round(weekly * 30 / 7))
            self._put(
                "newsletters",
                lid,
                Newsletter(
                    list_id=lid,
                    name=name,
                    sender_domain=domain,
                    category=category,
                    frequency_per_week=weekly,
                    status=status,
                    subscribed_since=self._ago(40, 1200).date().isoformat(),
                    emails_last_30d=received,
                ),
            )

    def emails(self) -> None:
        rng = self.rng
        contacts = list(self.tables["contacts"].values())
        subjects: set[str] = set()
        rows: list[dict[str, object]] = []
        for _ in range(110):
            label = rng.choice(data.EMAIL_LABELS)
            subject = ""
            for _attempt in range(40):
                pattern = rng.choice(data.SUBJECT_PATTERNS[label])
                subject = pattern.format(topic=rng.choice(data.SUBJECT_TOPICS))
                if subject not in subjects:
                    break
            if subject in subjects:
                continue
            subjects.add(subject)
            person = rng.choice(contacts)
            assert isinstance(person, Contact)
            folder = rng.choices(("inbox", "archive", "sent", "spam"), weights=(6, 3, 2, 0.4))[0]
            labels = sorted({label, *rng.sample(data.EMAIL_LABELS, rng.choice((0, 0, 1)))})
            rows.append({"person": person, "folder": folder, "labels": labels, "subject": subject})
        newsletters = [n for n in self.tables["newsletters"].values() if isinstance(n, Newsletter)]
        for letter in newsletters:
            if letter.status == "unsubscribed":
                continue
            for issue in range(rng.randint(1, 3)):
                rows.append(
                    {
                        "letter": letter,
                        "folder": "inbox" if rng.random() < 0.85 else "spam",
                        "labels": ["newsletter"],
                        "subject": f"{letter.name}: issue #{rng.randint(40, 400) + issue}",
                    }
                )
        numbers = rng.sample(range(10000, 100000), len(rows))
        for number, spec in zip(numbers, rows, strict=True):
            eid = f"EM-{number}"
            attachments = rng.choice((0, 0, 0, 1, 1, 2, 3))
            attach_kb = 0
            for _ in range(attachments):
                _kind, low, high = rng.choice(data.ATTACHMENT_KINDS)
                attach_kb += rng.randint(low, high)
            body_kb = rng.randint(4, 90)
            when = self._ago(0, 60)
            who = spec.get("person")
            if isinstance(who, Contact):
                sender_name, sender_email = who.name, who.email
                to = "me@homemail.net"
                if spec["folder"] == "sent":
                    sender_name, sender_email, to = "Me", "me@homemail.net", who.email
            else:
                issuer = spec["letter"]
                assert isinstance(issuer, Newsletter)
                sender_name = issuer.name
                sender_email = f"news@{issuer.sender_domain}"
                to = "me@homemail.net"
            folder = str(spec["folder"])
            subject = str(spec["subject"])
            self._put(
                "emails",
                eid,
                Email(
                    email_id=eid,
                    folder=folder,
                    sender_name=sender_name,
                    sender_email=sender_email,
                    sender_domain=sender_email.split("@")[1],
                    to=to,
                    subject=subject,
                    labels=list(spec["labels"]),  # type: ignore[call-overload]
                    received_at=stamp(when),
                    size_kb=body_kb + attach_kb,
                    attachment_count=attachments,
                    attachment_kb=attach_kb,
                    unread=folder in ("inbox", "spam") and rng.random() < 0.35,
                    preview=f"{subject} - {rng.choice(data.CHAT_LINES)}",
                ),
            )

    def reputation(self) -> None:
        rng = self.rng
        domains = sorted(
            {e.sender_domain for e in self.tables["emails"].values() if isinstance(e, Email)}
            | {d for _, d in data.COMPANIES}
            | set(data.PERSONAL_DOMAINS)
            | {n[1] for n in data.NEWSLETTERS}
        )
        domains = [d for d in domains if d != "homemail.net"]
        for domain in domains:
            spammy = domain.endswith((".biz", ".shop"))
            score = rng.randint(35, 62) if spammy else rng.randint(68, 99)
            complaints = round(rng.uniform(0.3, 1.8) if spammy else rng.uniform(0.01, 0.25), 2)
            stamps = {
                "rep_mailtrust": self.epoch - timedelta(hours=rng.randint(1, 30)),
                "rep_spamscope": self.epoch - timedelta(hours=rng.randint(2, 72)),
                "rep_senderbase": self.epoch - timedelta(hours=rng.randint(4, 120)),
            }
            for table, when in stamps.items():
                ref = f"{table.split('_')[1][:2].upper()}-{rng.randint(100000, 999999)}"
                row = Reputation(
                    domain=domain,
                    reputation_score=score,
                    complaint_rate_pct=complaints,
                    as_of=stamp(when),
                    reference=ref,
                )
                self._put(table, domain, row)

    def chats(self) -> None:
        rng = self.rng
        contacts = [c for c in self.tables["contacts"].values() if isinstance(c, Contact)]
        chats: list[Chat] = []
        numbers = rng.sample(range(100, 1000), len(data.GROUP_CHAT_TITLES) + 12)
        for number, title in zip(numbers, data.GROUP_CHAT_TITLES, strict=False):
            members = sorted(c.contact_id for c in rng.sample(contacts, rng.randint(3, 7)))
            chats.append(
                Chat(
                    chat_id=f"CH-{number}",
                    title=title,
                    kind="group",
                    member_ids=members,
                    muted=rng.random() < 0.25,
                    created_at=stamp(self._ago(40, 700)),
                )
            )
        direct = rng.sample(contacts, 12)
        for number, person in zip(numbers[len(data.GROUP_CHAT_TITLES) :], direct, strict=True):
            chats.append(
                Chat(
                    chat_id=f"CH-{number}",
                    title=person.name,
                    kind="direct",
                    member_ids=[person.contact_id],
                    muted=False,
                    created_at=stamp(self._ago(40, 700)),
                )
            )
        names = {c.contact_id: c.name for c in contacts}
        count = 0
        for chat in chats:
            self._put("chats", chat.chat_id, chat)
            for _ in range(rng.randint(6, 16)):
                count += 1
                sender = rng.choice([*chat.member_ids, ME])
                mid = f"MSG-{count:05d}"
                self._put(
                    "chat_messages",
                    mid,
                    ChatMessage(
                        message_id=mid,
                        chat_id=chat.chat_id,
                        sender_id=sender,
                        sender_name="Me" if sender == ME else names[sender],
                        text=rng.choice(data.CHAT_LINES),
                        sent_at=stamp(self._ago(0, 20)),
                    ),
                )
        self.counters["MSG"] = count

    def calls(self) -> None:
        rng = self.rng
        contacts = [c for c in self.tables["contacts"].values() if isinstance(c, Contact)]
        frequent = rng.sample(contacts, 18)
        by_code = {c.code: c for c in data.COUNTRIES}
        numbers = rng.sample(range(100000, 1000000), 190)
        for index, number in enumerate(numbers[:170]):
            person: Contact | None = rng.choice(frequent) if index % 9 else None
            if person is None:
                country = by_code[data.HOME_COUNTRY]
                phone, code = self._phone(country), country.code
            else:
                phone, code = person.phone, person.country
            direction = rng.choices(CALL_DIRECTIONS, weights=(5, 5, 2))[0]
            duration = 0 if direction == "missed" else rng.randint(25, 2400)
            cid = f"CALL-{number}"
            self._put(
                "calls",
                cid,
                Call(
                    call_id=cid,
                    contact_id=person.contact_id if person else None,
                    number=phone,
                    direction=direction,
                    started_at=stamp(self._ago(0, 45)),
                    duration_sec=duration,
                    country=code,
                ),
            )
        for number in numbers[170:]:
            person = rng.choice(frequent) if rng.random() < 0.8 else None
            phone = person.phone if person else self._phone(by_code[data.HOME_COUNTRY])
            vid = f"VM-{number}"
            self._put(
                "voicemails",
                vid,
                Voicemail(
                    voicemail_id=vid,
                    contact_id=person.contact_id if person else None,
                    number=phone,
                    left_at=stamp(self._ago(0, 30)),
                    duration_sec=rng.randint(8, 180),
                    transcript=rng.choice(data.VOICEMAIL_LINES),
                    listened=rng.random() < 0.5,
                ),
            )

    def plan(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        start = today - timedelta(days=rng.randint(8, 20))
        end = start + timedelta(days=29)
        home = data.COUNTRIES[0]
        self._put(
            "plan",
            "current",
            Plan(**data.PLAN, cycle_start=start.isoformat(), cycle_end=end.isoformat()),
        )
        for number, (owner, allowance, typical) in enumerate(data.LINES, start=1):
            line_id = f"LN-{number:02d}"
            self._put(
                "lines",
                line_id,
                Line(
                    line_id=line_id,
                    owner=owner,
                    phone_number=self._phone(home),
                    data_allowance_gb=allowance,
                ),
            )
            heavy = typical * rng.uniform(0.7, 1.5)
            day = start
            while day < today:
                weekend = day.weekday() >= 5
                mb = max(20, round(rng.gauss(heavy * (1.3 if weekend else 1.0), heavy * 0.3)))
                self._put(
                    "daily_usage",
                    f"{line_id}:{day.isoformat()}",
                    DailyUsage(
                        line_id=line_id,
                        date=day.isoformat(),
                        data_mb=mb,
                        call_minutes=rng.randint(0, 70),
                        sms_count=rng.randint(0, 40),
                    ),
                )
                day += timedelta(days=1)
        purchases = rng.choice((0, 1))
        for number in range(1, purchases + 1):
            name, gb, price = data.DATA_ADDONS["DATA1"]
            pid = f"ADD-{number:05d}"
            when = datetime.combine(start, self.epoch.timetz()) + timedelta(days=rng.randint(1, 5))
            self._put(
                "addon_purchases",
                pid,
                AddonPurchase(
                    purchase_id=pid,
                    line_id="LN-01",
                    addon_code="DATA1",
                    name=name,
                    extra_gb=gb,
                    price_usd=price,
                    purchased_at=stamp(when),
                ),
            )
        self.tables.setdefault("addon_purchases", {})
        self.counters["ADD"] = purchases

    def roaming_passes(self) -> None:
        rng = self.rng
        sold = [c for c in data.COUNTRIES if c.daypass is not None]
        today = self.epoch.date()
        plans = [("expired", -40, -30), ("expired", -20, -12), ("upcoming", 6, 20)]
        for number, (status, low, high) in enumerate(plans, start=1):
            country = rng.choice(sold)
            assert country.daypass is not None
            start = today + timedelta(days=rng.randint(low, high))
            days = rng.randint(3, 8)
            pid = f"RP-{number:05d}"
            self._put(
                "roaming_passes",
                pid,
                RoamingPass(
                    pass_id=pid,
                    country=country.code,
                    country_name=country.name,
                    start_date=start.isoformat(),
                    end_date=(start + timedelta(days=days - 1)).isoformat(),
                    days=days,
                    price_usd=round(country.daypass * days, 2),
                    status=status,
                    created_at=stamp(self._ago(45, 60)),
                ),
            )
        self.counters["RP"] = len(plans)

    def scheduled(self) -> None:
        rng = self.rng
        contacts = [c for c in self.tables["contacts"].values() if isinstance(c, Contact)]
        statuses = ["scheduled"] * 9 + ["sent"] * 3 + ["cancelled"] * 2
        texts = (
            "Happy birthday! Hope you have a great day.",
            "Reminder: dentist appointment tomorrow at 9.",
            "Don't forget the book club meeting tonight.",
            "Good luck with the presentation today!",
            "Your turn to bring snacks on Sunday.",
            "Call me when you land.",
            "Rent is due on Friday.",
        )
        for number, status in enumerate(statuses, start=1):
            person = rng.choice(contacts)
            channel = rng.choice(CHANNELS)
            if status == "scheduled":
                at = self.epoch + timedelta(days=rng.randint(0, 12), minutes=rng.randint(60, 1439))
            else:
                at = self._ago(1, 20)
            local = at + timedelta(hours=person.utc_offset_hours)
            mid = f"SCH-{number:05d}"
            self._put(
                "scheduled",
                mid,
                ScheduledMessage(
                    message_id=mid,
                    channel=channel,
                    contact_id=person.contact_id,
                    recipient=person.phone if channel == "sms" else person.email,
                    text=rng.choice(texts),
                    send_at_utc=stamp(at),
                    recipient_local=local.strftime("%Y-%m-%dT%H:%M"),
                    status=status,
                    created_at=stamp(min(at, self.epoch) - timedelta(days=rng.randint(1, 9))),
                ),
            )
        self.counters["SCH"] = len(statuses)

    def meetings(self) -> None:
        rng = self.rng
        for number, (name, capacity, longest, recording) in enumerate(data.MEETING_ROOMS, 1):
            rid = f"ROOM-{number:02d}"
            self._put(
                "rooms",
                rid,
                Room(
                    room_id=rid,
                    name=name,
                    capacity=capacity,
                    max_duration_min=longest,
                    recording=recording,
                ),
            )
        rooms = [r for r in self.tables["rooms"].values() if isinstance(r, Room)]
        contacts = sorted(self.tables["contacts"])
        count = 0
        for _ in range(26):
            room = rng.choice(rooms)
            day = self.epoch.date() + timedelta(days=rng.randint(-6, 13))
            start = datetime.combine(day, self.epoch.timetz()).replace(
                hour=rng.randint(13, 22), minute=rng.choice((0, 30))
            )
            if any(
                m.room_id == room.room_id and m.start_utc[:13] == stamp(start)[:13]
                for m in self.tables.get("meetings", {}).values()
                if isinstance(m, Meeting)
            ):
                continue
            duration = rng.choice(
                [d for d in (15, 30, 45, 60, 90, 120) if d <= room.max_duration_min]
            )
            invitees = sorted(rng.sample(contacts, rng.randint(1, min(6, room.capacity - 1))))
            count += 1
            mid = f"MTG-{count:05d}"
            status = "cancelled" if rng.random() < 0.1 else "scheduled"
            self._put(
                "meetings",
                mid,
                Meeting(
                    meeting_id=mid,
                    title=rng.choice(data.MEETING_TITLES),
                    room_id=room.room_id,
                    start_utc=stamp(start),
                    duration_min=duration,
                    invitee_ids=invitees,
                    status=status,
                    join_url=f"{MEET_URL}/{room.room_id.lower()}/{rng.randint(100000, 999999)}",
                    created_at=stamp(min(start, self.epoch) - timedelta(days=rng.randint(1, 20))),
                ),
            )
        self.counters["MTG"] = count
