"""The devices world: one household's gadgets, network, cloud storage and online accounts.

Tables (each keyed by the row's id unless noted):

- ``devices``: ~40 phones, laptops, lights, plugs, cameras ... with purchase date,
  warranty, installed firmware, draw and daily use, and their current state;
- ``releases``: every firmware release of every model, keyed ``"{model_key}:{version}"``;
- ``fw_vendor``, ``fw_mirror``, ``fw_community``: three independent sources of each
  model's newest firmware, keyed by model key; they agree in the clean world and stamp
  ``as_of``; the maker's release notes are authoritative;
- ``energy_hub``, ``energy_vendor``, ``energy_utility``: three independent meters of each
  device's energy over the last 30 days, keyed by device id (the hub is authoritative);
- ``repairs`` and ``updates``: repair requests and scheduled firmware updates (writes);
- ``drives``, ``folders``, ``backup_jobs``: cloud storage plans, their folders and the
  backup jobs that copy devices to them; ``usage_provider``, ``usage_client`` and
  ``usage_billing`` are three sources of each drive's used space (the provider's API is
  authoritative);
- ``clients``: what is connected to the home Wi-Fi; ``speed_router``, ``speed_app`` and
  ``speed_mlab`` are three speed tests per room (the router's own is authoritative);
- ``accounts``, ``logins``: members' online accounts and their sign-in history;
- ``breaches`` and ``breach_notice``, ``breach_index``, ``breach_press``: breaches of the
  services and three sources of each breach's affected-record count (the company's
  regulator filing is authoritative);
- ``permissions`` (what each app may access on each device) and ``privacy_requests``.

Dates are ISO ``YYYY-MM-DD`` and timestamps UTC ISO strings ending in ``Z``, relative to
:attr:`World.EPOCH`, the world's "now" at clock zero.
"""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import stamp
from toolchaos.domains.devices import data

ENERGY_DAYS = 30
STORAGE_CATEGORIES = ("phone", "laptop", "tablet", "nas")
APP_CATEGORIES = ("phone", "tablet", "laptop")


def version_key(version: str) -> tuple[int, ...]:
    """A firmware version as a tuple of integers, so '1.10.4' sorts after '1.9.12'."""
    return tuple(int(part) for part in version.split("."))


def add_months(day: date, months: int) -> date:
    """The same day ``months`` later, clamped to the month's last day (Jan 31 -> Feb 28)."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


# -- rows --------------------------------------------------------------------------------


class Device(Row):
    """A household device: what it is, where, whose, its warranty, firmware and state."""

    device_id: str
    name: str
    category: str
    brand: str
    model: str
    model_key: str
    room: str
    owner: str
    purchase_date: str
    retailer: str
    price_usd: float
    warranty_months: int
    protection_plan_months: int
    serial_number: str
    firmware_version: str
    power_w: float
    hours_per_day: float
    load: str | None
    storage_used_gb: float
    power_state: str
    brightness_pct: int | None
    target_temp_c: float | None
    online: bool


class Release(Row):
    """One firmware release of one model."""

    model_key: str
    version: str
    build: int
    release_date: str
    size_mb: float
    requires_version: str | None


class LatestFirmware(Row):
    """One source's view of a model's newest firmware."""

    model_key: str
    latest_version: str
    latest_build: int
    size_mb: float
    release_date: str
    as_of: str
    detail: int


class EnergyReading(Row):
    """One meter's view of a device's energy use over the last 30 days."""

    device_id: str
    energy_kwh_30d: float
    avg_power_w: float
    as_of: str
    detail: int


class RepairRequest(Row):
    """A repair or warranty claim for one device."""

    repair_id: str
    device_id: str
    issue: str
    dropoff_date: str
    covered: bool
    estimate_usd: float
    status: str
    created_at: str


class ScheduledUpdate(Row):
    """A firmware update scheduled for one device."""

    update_id: str
    device_id: str
    from_version: str
    to_version: str
    scheduled_for: str
    status: str
    created_at: str


class CloudDrive(Row):
    """A member's cloud storage plan."""

    drive_id: str
    label: str
    owner: str
    provider: str
    plan: str
    quota_gb: int
    growth_gb_per_month: float


class StorageUsage(Row):
    """One source's view of a drive's used space."""

    drive_id: str
    used_gb: float
    file_count: int
    as_of: str
    detail: int


class Folder(Row):
    """A top-level folder on a cloud drive."""

    folder_id: str
    drive_id: str
    path: str
    size_gb: float
    file_count: int
    last_modified: str


class BackupJob(Row):
    """A job that backs one device up to one cloud drive."""

    job_id: str
    device_id: str
    drive_id: str
    frequency: str
    status: str
    last_run_at: str | None
    last_size_gb: float
    created_at: str


class NetworkClient(Row):
    """A device connected (or known) to the home Wi-Fi."""

    client_id: str
    hostname: str
    device_id: str | None
    room: str
    ip_address: str
    mac_address: str
    band: str
    signal_dbm: int
    link_mbps: int
    data_gb_7d: float
    access: str
    connected_since: str


class SpeedTest(Row):
    """One speed test service's latest result in one room."""

    room: str
    download_mbps: float
    upload_mbps: float
    latency_ms: float
    as_of: str
    detail: int


class Account(Row):
    """A member's account with an online service, with its password hygiene."""

    account_id: str
    member: str
    service: str
    username: str
    created_on: str
    password_changed_on: str
    password_length: int
    password_strength: str
    reused: bool
    two_factor: str


class LoginEvent(Row):
    """One sign-in attempt to an account."""

    event_id: str
    account_id: str
    at: str
    city: str
    country: str
    latitude_deg: float
    longitude_deg: float
    ip_address: str
    client: str
    success: bool


class Breach(Row):
    """A data breach at a service: when, what was taken."""

    breach_id: str
    service: str
    breach_date: str
    disclosed_on: str
    data_classes: list[str]


class BreachCount(Row):
    """One source's count of the records a breach exposed."""

    breach_id: str
    records_affected: int
    as_of: str
    detail: int


class AppPermission(Row):
    """What one app may access on one device."""

    grant_id: str
    device_id: str
    app: str
    permission: str
    access: str
    last_used_at: str | None
    uses_30d: int


class PrivacyRequest(Row):
    """A data-export, deletion, correction or opt-out request to a service."""

    request_id: str
    account_id: str
    service: str
    kind: str
    status: str
    submitted_on: str
    due_date: str
    completed_on: str | None


# -- the world ---------------------------------------------------------------------------


class DevicesWorld(World):
    """A household's devices, network, cloud storage and online accounts."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "devices",
        "releases",
        "fw_vendor",
        "fw_mirror",
        "fw_community",
        "energy_hub",
        "energy_vendor",
        "energy_utility",
        "repairs",
        "updates",
        "drives",
        "usage_provider",
        "usage_client",
        "usage_billing",
        "folders",
        "backup_jobs",
        "clients",
        "speed_router",
        "speed_app",
        "speed_mlab",
        "accounts",
        "logins",
        "breaches",
        "breach_notice",
        "breach_index",
        "breach_press",
        "permissions",
        "privacy_requests",
    )

    rate_usd_per_kwh: float = 0.15
    plan_mbps: int = 500
    devices: dict[str, Device] = Field(default_factory=dict)
    releases: dict[str, Release] = Field(default_factory=dict)
    fw_vendor: dict[str, LatestFirmware] = Field(default_factory=dict)
    fw_mirror: dict[str, LatestFirmware] = Field(default_factory=dict)
    fw_community: dict[str, LatestFirmware] = Field(default_factory=dict)
    energy_hub: dict[str, EnergyReading] = Field(default_factory=dict)
    energy_vendor: dict[str, EnergyReading] = Field(default_factory=dict)
    energy_utility: dict[str, EnergyReading] = Field(default_factory=dict)
    repairs: dict[str, RepairRequest] = Field(default_factory=dict)
    updates: dict[str, ScheduledUpdate] = Field(default_factory=dict)
    drives: dict[str, CloudDrive] = Field(default_factory=dict)
    usage_provider: dict[str, StorageUsage] = Field(default_factory=dict)
    usage_client: dict[str, StorageUsage] = Field(default_factory=dict)
    usage_billing: dict[str, StorageUsage] = Field(default_factory=dict)
    folders: dict[str, Folder] = Field(default_factory=dict)
    backup_jobs: dict[str, BackupJob] = Field(default_factory=dict)
    clients: dict[str, NetworkClient] = Field(default_factory=dict)
    speed_router: dict[str, SpeedTest] = Field(default_factory=dict)
    speed_app: dict[str, SpeedTest] = Field(default_factory=dict)
    speed_mlab: dict[str, SpeedTest] = Field(default_factory=dict)
    accounts: dict[str, Account] = Field(default_factory=dict)
    logins: dict[str, LoginEvent] = Field(default_factory=dict)
    breaches: dict[str, Breach] = Field(default_factory=dict)
    breach_notice: dict[str, BreachCount] = Field(default_factory=dict)
    breach_index: dict[str, BreachCount] = Field(default_factory=dict)
    breach_press: dict[str, BreachCount] = Field(default_factory=dict)
    permissions: dict[str, AppPermission] = Field(default_factory=dict)
    privacy_requests: dict[str, PrivacyRequest] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.devices()
        gen.firmware()
        gen.energy()
        gen.repairs()
        gen.updates()
        gen.storage()
        gen.network()
        gen.accounts()
        gen.logins()
        gen.breaches()
        gen.permissions()
        gen.privacy()
        return cls(
            seed=seed,
            id_counters={
                "RPR": len(gen.tables["repairs"]),
                "UPD": len(gen.tables["updates"]),
                "BKP": len(gen.tables["backup_jobs"]),
                "PRV": len(gen.tables["privacy_requests"]),
            },
            rate_usd_per_kwh=gen.rate,
            plan_mbps=gen.plan,
            **gen.tables,
        )

    def today(self) -> date:
        """The world's current UTC calendar date."""
        return self.now().date()

    def model_releases(self, model_key: str) -> list[Release]:
        """A model's firmware releases, oldest first."""
        rows = [r for r in self.releases.values() if r.model_key == model_key]
        return sorted(rows, key=lambda r: version_key(r.version))


def _ip(rng: random.Random, taken: set[str]) -> str:
    while True:
        ip = f"192.168.4.{rng.randint(10, 250)}"
        if ip not in taken:
            taken.add(ip)
            return ip


def _mac(rng: random.Random) -> str:
    return ":".join(f"{rng.randint(0, 255):02x}" for _ in range(6))


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    tables: dict[str, dict[str, Row]] = field(default_factory=dict)
    rate: float = 0.15
    plan: int = 500

    def __post_init__(self) -> None:
        self.tables = {name: {} for name in DevicesWorld.TABLES}
        self.models = {m.key: m for m in data.MODELS}

    def _ago(self, low_min: int, high_min: int) -> str:
        return stamp(self.epoch - timedelta(minutes=self.rng.randint(low_min, high_min)))

    def devices(self) -> None:
        rng = self.rng
        self.rate = rng.choice(data.RATE_USD_PER_KWH)
        self.plan = rng.choice(data.ISP_PLAN_MBPS)
        numbers = rng.sample(range(1000, 10000), len(data.DEVICES))
        today = self.epoch.date()
        for number, spec in zip(numbers, data.DEVICES, strict=True):
            model = self.models[spec.model]
            device_id = f"DEV-{number}"
            bought = today - timedelta(days=rng.randint(40, 1300))
            releases = model.releases
            installed = rng.choice(releases[: len(releases) - (0 if rng.random() < 0.25 else 1)])
            if spec.load:
                power, hours = spec.load_w, spec.load_hours
            else:
                power, hours = model.power_w, model.hours_per_day
            power = round(power * rng.uniform(0.85, 1.15), 1)
            if hours < 24:
                hours = round(max(0.2, hours * rng.uniform(0.6, 1.5)), 1)
            storage = 0.0
            if model.category in STORAGE_CATEGORIES:
                top = {"phone": 220, "laptop": 450, "tablet": 180, "nas": 1800}[model.category]
                storage = round(rng.uniform(0.15, 0.85) * top, 1)
            plan = rng.choice((0, 0, 0, 12, 24)) if model.price_usd >= 500 else 0
            state = "on" if hours >= 24 or rng.random() < 0.45 else "off"
            self.tables["devices"][device_id] = Device(
                device_id=device_id,
                name=spec.name,
                category=model.category,
                brand=model.brand,
                model=model.name,
                model_key=model.key,
                room=spec.room,
                owner=spec.owner,
                purchase_date=bought.isoformat(),
                retailer=rng.choice(data.RETAILERS),
                price_usd=round(model.price_usd * rng.uniform(0.8, 1.05)) - 0.01,
                warranty_months=model.warranty_months,
                protection_plan_months=plan,
                serial_number=f"{model.brand[:2].upper()}{rng.randint(10**7, 10**8 - 1)}",
                firmware_version=installed,
                power_w=power,
                hours_per_day=hours,
                load=spec.load or None,
                storage_used_gb=storage,
                power_state=state,
                brightness_pct=rng.choice((30, 50, 70, 100)) if model.category == "light" else None,
                target_temp_c=rng.choice((19.5, 20.0, 20.5, 21.0, 21.5))
                if model.category == "thermostat"
                else None,
                online=rng.random() < 0.93,
            )

    def firmware(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        for model in data.MODELS:
            count = len(model.releases)
            day = today - timedelta(days=rng.randint(3, 40))
            days: list[date] = []
            for _ in range(count):
                days.append(day)
                day -= timedelta(days=rng.randint(45, 150))
            days.reverse()
            build = rng.randint(1000, 9000)
            size = rng.uniform(20, 900) if model.category not in ("light", "plug") else 2.0
            for index, (version, released) in enumerate(zip(model.releases, days, strict=True)):
                build += rng.randint(40, 400)
                needs = model.releases[model.bridge_from - 1] if index > model.bridge_from else None
                self.tables["releases"][f"{model.key}:{version}"] = Release(
                    model_key=model.key,
                    version=version,
                    build=build,
                    release_date=released.isoformat(),
                    size_mb=round(size * rng.uniform(0.9, 1.2), 1),
                    requires_version=needs,
                )
            last = self.tables["releases"][f"{model.key}:{model.releases[-1]}"]
            assert isinstance(last, Release)
            facts = {
                "model_key": model.key,
                "latest_version": last.version,
                "latest_build": last.build,
                "size_mb": last.size_mb,
                "release_date": last.release_date,
            }
            hour = self.epoch.replace(minute=0, second=0, microsecond=0)
            self.tables["fw_vendor"][model.key] = LatestFirmware(
                **facts, as_of=stamp(hour - timedelta(hours=1)), detail=rng.randint(1, 9)
            )
            self.tables["fw_mirror"][model.key] = LatestFirmware(
                **facts, as_of=self._ago(5, 40), detail=rng.randint(12, 80)
            )
            self.tables["fw_community"][model.key] = LatestFirmware(
                **facts, as_of=self._ago(90, 300), detail=rng.randint(20, 900)
            )

    def energy(self) -> None:
        rng = self.rng
        for device_id, row in self.tables["devices"].items():
            assert isinstance(row, Device)
            kwh = round(row.power_w * row.hours_per_day * ENERGY_DAYS / 1000, 2)
            facts = {
                "device_id": device_id,
                "energy_kwh_30d": kwh,
                "avg_power_w": round(kwh * 1000 / (ENERGY_DAYS * 24), 1),
            }
            hour = self.epoch.replace(minute=0, second=0, microsecond=0)
            self.tables["energy_hub"][device_id] = EnergyReading(
                **facts, as_of=stamp(hour - timedelta(minutes=15)), detail=rng.randint(700, 720)
            )
            self.tables["energy_vendor"][device_id] = EnergyReading(
                **facts, as_of=self._ago(3, 30), detail=rng.randint(1, 3)
            )
            self.tables["energy_utility"][device_id] = EnergyReading(
                **facts, as_of=self._ago(300, 900), detail=rng.randint(85, 99)
            )

    def repairs(self) -> None:
        rng = self.rng
        devices = sorted(self.tables["devices"])
        for number, device_id in enumerate(rng.sample(devices, 5), start=1):
            row = self.tables["devices"][device_id]
            assert isinstance(row, Device)
            status = ("completed", "completed", "open", "scheduled", "cancelled")[number - 1]
            created = self.epoch - timedelta(days=rng.randint(2, 120), minutes=rng.randint(0, 900))
            dropoff = created.date() + timedelta(days=rng.randint(1, 10))
            if status in ("open", "scheduled"):
                dropoff = self.epoch.date() + timedelta(days=rng.randint(2, 12))
            share = data.REPAIR_SHARE[row.category]
            repair_id = f"RPR-{number:05d}"
            self.tables["repairs"][repair_id] = RepairRequest(
                repair_id=repair_id,
                device_id=device_id,
                issue=rng.choice(data.REPAIR_ISSUES),
                dropoff_date=dropoff.isoformat(),
                covered=False,
                estimate_usd=round(row.price_usd * share, 2),
                status=status,
                created_at=stamp(created),
            )

    def updates(self) -> None:
        rng = self.rng
        behind = [
            d
            for d in self.tables["devices"].values()
            if isinstance(d, Device)
            and version_key(d.firmware_version) < version_key(self.models[d.model_key].releases[-1])
        ]
        for number, row in enumerate(rng.sample(sorted(behind, key=lambda d: d.device_id), 3), 1):
            releases = self.models[row.model_key].releases
            target = releases[releases.index(row.firmware_version) + 1]
            update_id = f"UPD-{number:05d}"
            self.tables["updates"][update_id] = ScheduledUpdate(
                update_id=update_id,
                device_id=row.device_id,
                from_version=row.firmware_version,
                to_version=target,
                scheduled_for=(self.epoch.date() + timedelta(days=rng.randint(1, 9))).isoformat(),
                status="scheduled",
                created_at=self._ago(60, 4000),
            )

    def storage(self) -> None:
        rng = self.rng
        numbers = rng.sample(range(100, 1000), 12)
        index = 0
        hour = self.epoch.replace(minute=0, second=0, microsecond=0)
        for member in data.MEMBERS:
            providers: set[str] = set()
            for plan in rng.sample(data.DRIVE_PLANS, rng.choice((2, 2, 3))):
                if plan.provider in providers:
                    continue
                providers.add(plan.provider)
                drive_id = f"DRV-{numbers[index]}"
                index += 1
                used = round(plan.quota_gb * rng.uniform(0.35, 0.92), 1)
                growth = round(plan.quota_gb * rng.uniform(0.006, 0.03), 1)
                self.tables["drives"][drive_id] = CloudDrive(
                    drive_id=drive_id,
                    label=f"{member}'s {plan.provider}",
                    owner=member,
                    provider=plan.provider,
                    plan=plan.plan,
                    quota_gb=plan.quota_gb,
                    growth_gb_per_month=growth,
                )
                files = int(used * rng.uniform(180, 420))
                facts = {"drive_id": drive_id, "used_gb": used, "file_count": files}
                self.tables["usage_provider"][drive_id] = StorageUsage(
                    **facts, as_of=stamp(hour - timedelta(minutes=30)), detail=rng.randint(1, 4)
                )
                self.tables["usage_client"][drive_id] = StorageUsage(
                    **facts, as_of=self._ago(2, 25), detail=rng.randint(1, 3)
                )
                self.tables["usage_billing"][drive_id] = StorageUsage(
                    **facts, as_of=self._ago(600, 1400), detail=rng.randint(1, 28)
                )
                names = rng.sample(data.FOLDER_NAMES, rng.randint(3, 5))
                shares = [rng.uniform(0.5, 3) for _ in names]
                for n, (name, share) in enumerate(zip(names, shares, strict=True), 1):
                    folder_id = f"FLD-{drive_id[4:]}{n:02d}"
                    size = round(used * 0.8 * share / sum(shares), 2)
                    self.tables["folders"][folder_id] = Folder(
                        folder_id=folder_id,
                        drive_id=drive_id,
                        path=f"/{name}",
                        size_gb=size,
                        file_count=int(size * rng.uniform(150, 500)) + 1,
                        last_modified=self._ago(30, 60 * 24 * 200),
                    )
        drives = sorted(self.tables["drives"])
        devices = sorted(
            k
            for k, d in self.tables["devices"].items()
            if isinstance(d, Device) and d.category in STORAGE_CATEGORIES
        )
        for number, device_id in enumerate(rng.sample(devices, 4), start=1):
            device = self.tables["devices"][device_id]
            assert isinstance(device, Device)
            owned = [
                k
                for k in drives
                if (d := self.tables["drives"][k]) is not None
                and isinstance(d, CloudDrive)
                and d.owner in (device.owner, data.MEMBERS[0])
            ]
            job_id = f"BKP-{number:05d}"
            self.tables["backup_jobs"][job_id] = BackupJob(
                job_id=job_id,
                device_id=device_id,
                drive_id=rng.choice(owned or drives),
                frequency=rng.choice(data.BACKUP_FREQUENCIES),
                status=rng.choice(("active", "active", "paused", "failing")),
                last_run_at=self._ago(60, 60 * 24 * 20),
                last_size_gb=round(device.storage_used_gb * rng.uniform(0.6, 0.95), 1),
                created_at=self._ago(60 * 24 * 30, 60 * 24 * 400),
            )

    def network(self) -> None:
        rng = self.rng
        taken: set[str] = set()
        number = 0
        for device_id, row in sorted(self.tables["devices"].items()):
            assert isinstance(row, Device)
            if row.category == "router" and row.name == "Main Router":
                continue
            number += 1
            obstacles = data.ROOM_OBSTACLES[row.room]
            band = "2.4GHz" if row.category in ("light", "plug", "lock", "camera") else None
            band = band or rng.choice(("5GHz", "5GHz", "6GHz") if obstacles < 3 else ("5GHz",))
            signal = -38 - obstacles * 7 - rng.randint(0, 9)
            top = {"2.4GHz": 144, "5GHz": 1201, "6GHz": 2402}[band]
            link = max(6, int(top * (1 - obstacles * 0.17) * rng.uniform(0.6, 0.95)))
            usage = {"tv": 60, "console": 45, "laptop": 25, "phone": 12, "tablet": 10}
            data_gb = round(usage.get(row.category, 0.3) * rng.uniform(0.5, 1.6), 2)
            slug = row.name.lower().replace("'", "").replace(" ", "-")
            client_id = f"CLI-{number:03d}"
            self.tables["clients"][client_id] = NetworkClient(
                client_id=client_id,
                hostname=slug,
                device_id=device_id,
                room=row.room,
                ip_address=_ip(rng, taken),
                mac_address=_mac(rng),
                band=band,
                signal_dbm=signal,
                link_mbps=link,
                data_gb_7d=data_gb,
                access="allowed",
                connected_since=self._ago(30, 60 * 24 * 14),
            )
        for hostname in rng.sample(data.GUEST_CLIENTS, 4):
            number += 1
            client_id = f"CLI-{number:03d}"
            self.tables["clients"][client_id] = NetworkClient(
                client_id=client_id,
                hostname=hostname,
                device_id=None,
                room=rng.choice(data.ROOMS),
                ip_address=_ip(rng, taken),
                mac_address=_mac(rng),
                band=rng.choice(data.WIFI_BANDS[:2]),
                signal_dbm=-50 - rng.randint(0, 30),
                link_mbps=rng.choice((72, 144, 286, 573)),
                data_gb_7d=round(rng.uniform(0.1, 9), 2),
                access=rng.choice(("allowed", "allowed", "blocked")),
                connected_since=self._ago(30, 60 * 24 * 3),
            )
        hour = self.epoch.replace(minute=0, second=0, microsecond=0)
        for room in data.ROOMS:
            loss = 1 - data.ROOM_OBSTACLES[room] * 0.14
            facts = {
                "room": room,
                "download_mbps": round(self.plan * loss * rng.uniform(0.7, 0.95), 1),
                "upload_mbps": round(self.plan * 0.1 * loss * rng.uniform(0.6, 0.95), 1),
                "latency_ms": round(rng.uniform(8, 14) + data.ROOM_OBSTACLES[room] * 2.5, 1),
            }
            self.tables["speed_router"][room] = SpeedTest(
                **facts, as_of=stamp(hour - timedelta(minutes=45)), detail=rng.randint(1, 4)
            )
            self.tables["speed_app"][room] = SpeedTest(
                **facts, as_of=self._ago(5, 30), detail=rng.randint(10, 90)
            )
            self.tables["speed_mlab"][room] = SpeedTest(
                **facts, as_of=self._ago(120, 400), detail=rng.randint(1, 40)
            )

    def accounts(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        numbers = rng.sample(range(1000, 10000), 40)
        index = 0
        for member in data.MEMBERS:
            count = rng.randint(6, 8)
            for service in rng.sample(data.SERVICES, count):
                created = today - timedelta(days=rng.randint(200, 3000))
                changed = max(created, today - timedelta(days=rng.randint(5, 1100)))
                length = rng.choice((6, 8, 8, 10, 12, 14, 16, 20))
                strength = data.STRENGTHS[min(4, max(0, (length - 6) // 3 + rng.randint(-1, 1)))]
                account_id = f"ACC-{numbers[index]}"
                index += 1
                domain = rng.choice(data.EMAIL_DOMAINS)
                self.tables["accounts"][account_id] = Account(
                    account_id=account_id,
                    member=member,
                    service=service.name,
                    username=f"{member.lower()}.{rng.randint(10, 99)}@{domain}",
                    created_on=created.isoformat(),
                    password_changed_on=changed.isoformat(),
                    password_length=length,
                    password_strength=strength,
                    reused=rng.random() < 0.3,
                    two_factor=rng.choice(data.TWO_FACTOR),
                )

    def logins(self) -> None:
        rng = self.rng
        number = 0
        home = data.HOME_CITY
        for account_id, row in sorted(self.tables["accounts"].items()):
            assert isinstance(row, Account)
            moment = self.epoch - timedelta(minutes=rng.randint(20, 600))
            events: list[tuple[datetime, data.City, bool]] = []
            for _ in range(rng.randint(4, 7)):
                roll = rng.random()
                city = home if roll < 0.6 else rng.choice(data.NEAR_CITIES)
                events.append((moment, city, rng.random() < 0.92))
                moment -= timedelta(minutes=rng.randint(600, 60 * 24 * 6))
            if rng.random() < 0.35:  # a sign-in from far away soon after a home one
                at = events[0][0] - timedelta(minutes=rng.randint(40, 400))
                events.insert(1, (at, rng.choice(data.FAR_CITIES), rng.random() < 0.7))
                events.sort(key=lambda e: e[0], reverse=True)
            for at, city, ok in events:
                number += 1
                event_id = f"LGN-{number:05d}"
                self.tables["logins"][event_id] = LoginEvent(
                    event_id=event_id,
                    account_id=account_id,
                    at=stamp(at),
                    city=city.name,
                    country=city.country,
                    latitude_deg=city.latitude_deg,
                    longitude_deg=city.longitude_deg,
                    ip_address=f"{rng.randint(23, 220)}.{rng.randint(0, 255)}."
                    f"{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                    client=rng.choice(data.LOGIN_CLIENTS),
                    success=ok,
                )

    def breaches(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        services = rng.sample(data.SERVICES, 10)
        numbers = rng.sample(range(100, 1000), len(services))
        for number, service in zip(numbers, services, strict=True):
            breach_id = f"BR-{number}"
            happened = today - timedelta(days=rng.randint(30, 900))
            disclosed = happened + timedelta(days=rng.randint(10, 120))
            if disclosed > today - timedelta(days=3):
                disclosed = today - timedelta(days=rng.randint(3, 8))
            self.tables["breaches"][breach_id] = Breach(
                breach_id=breach_id,
                service=service.name,
                breach_date=happened.isoformat(),
                disclosed_on=disclosed.isoformat(),
                data_classes=sorted(rng.sample(data.DATA_CLASSES, rng.randint(2, 5))),
            )
            count = rng.randint(20, 9000) * 1000 + rng.randint(0, 999)
            filed = datetime.combine(disclosed, self.epoch.timetz())
            self.tables["breach_notice"][breach_id] = BreachCount(
                breach_id=breach_id,
                records_affected=count,
                as_of=stamp(filed + timedelta(hours=rng.randint(1, 20))),
                detail=rng.randint(1, 3),
            )
            self.tables["breach_index"][breach_id] = BreachCount(
                breach_id=breach_id,
                records_affected=count,
                as_of=stamp(filed + timedelta(days=1, hours=rng.randint(1, 20))),
                detail=rng.randint(1, 400),
            )
            self.tables["breach_press"][breach_id] = BreachCount(
                breach_id=breach_id,
                records_affected=count,
                as_of=stamp(filed - timedelta(hours=rng.randint(1, 20))),
                detail=rng.randint(1, 12),
            )

    def permissions(self) -> None:
        rng = self.rng
        number = 0
        for device_id, row in sorted(self.tables["devices"].items()):
            assert isinstance(row, Device)
            if row.category not in APP_CATEGORIES:
                continue
            for app in rng.sample(data.APPS, rng.randint(3, 5)):
                for permission in rng.sample(data.PERMISSIONS, rng.randint(1, 3)):
                    number += 1
                    access = rng.choice(data.ACCESS_LEVELS)
                    uses = 0 if access == "denied" else rng.randint(0, 240)
                    grant_id = f"GRT-{number:04d}"
                    self.tables["permissions"][grant_id] = AppPermission(
                        grant_id=grant_id,
                        device_id=device_id,
                        app=app,
                        permission=permission,
                        access=access,
                        last_used_at=self._ago(10, 60 * 24 * 60) if uses else None,
                        uses_30d=uses,
                    )

    def privacy(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        services = {s.name: s for s in data.SERVICES}
        accounts = sorted(self.tables["accounts"])
        for number, account_id in enumerate(rng.sample(accounts, 6), start=1):
            account = self.tables["accounts"][account_id]
            assert isinstance(account, Account)
            kind = rng.choice(data.PRIVACY_KINDS)
            status = ("completed", "completed", "in_progress", "submitted", "rejected", "submitted")
            submitted = today - timedelta(days=rng.randint(3, 80))
            due = submitted + timedelta(days=services[account.service].response_days)
            done = None
            if status[number - 1] in ("completed", "rejected"):
                done = min(today, submitted + timedelta(days=rng.randint(2, 25))).isoformat()
            request_id = f"PRV-{number:05d}"
            self.tables["privacy_requests"][request_id] = PrivacyRequest(
                request_id=request_id,
                account_id=account_id,
                service=account.service,
                kind=kind,
                status=status[number - 1],
                submitted_on=submitted.isoformat(),
                due_date=due.isoformat(),
                completed_on=done,
            )
