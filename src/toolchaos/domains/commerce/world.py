"""The commerce world: a small online shop with its carrier, a parcel aggregator and billing.

Tables (all keyed by the row's id):

- ``customers``, ``products``, ``orders`` (with line items), ``invoices`` (one per order);
- ``shipments``: the primary carrier's records, one per shipped or delivered order;
- ``backup_tracking``: a parcel aggregator's own records of the same parcels, keyed by
  tracking number. They are generated from the same facts, so ``status``,
  ``last_location`` and ``eta`` agree with the carrier, but the other fields are the
  aggregator's own (its parcel id, its scan log summary);
- ``returns`` and ``refunds``, ``coupons`` (keyed by code), ``subscriptions``.

Dates are ISO strings (``YYYY-MM-DD``) and timestamps are UTC ISO strings ending in ``Z``;
both are relative to :attr:`World.EPOCH`, the world's "now" at clock zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from itertools import islice
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import dec, money, people, stamp
from toolchaos.domains.commerce import data

N_CUSTOMERS = 40
N_PRODUCTS = 60
N_ORDERS = 120
RETURN_WINDOW_DAYS = 30
FREE_SHIPPING_MIN_USD = 35.0
FLAT_SHIPPING_USD = 5.99

ORDER_STATUSES = ("pending", "processing", "shipped", "delivered", "cancelled")
OPEN_ORDER_STATUSES = ("pending", "processing")
SHIPMENT_STATUSES = ("label_created", "in_transit", "out_for_delivery", "delivered", "exception")
RETURN_STATUSES = ("requested", "approved", "rejected", "refunded")
SUBSCRIPTION_STATUSES = ("active", "paused", "cancelled")
INVOICE_STATUSES = ("open", "paid", "void")
CARRIER = "UPS"
AGGREGATOR = "ParcelTrail"


def place(city: str, state: str) -> str:
    """Format a location the way the carrier and the aggregator both report it."""
    return f"{city}, {state}, US"


# -- rows --------------------------------------------------------------------------------


class Address(Row):
    """A US postal address."""

    line1: str
    city: str
    state: str
    postal_code: str
    country: str = "US"


class Customer(Row):
    """A shop customer."""

    customer_id: str
    name: str
    email: str
    phone: str
    address_line1: str
    city: str
    state: str
    postal_code: str
    member_since: str


class Product(Row):
    """A catalogue product with its current list price."""

    product_id: str
    name: str
    category: str
    brand: str
    price_usd: float
    weight_kg: float
    stock_qty: int


class LineItem(Row):
    """One line of an order, at the unit price the customer paid."""

    product_id: str
    product_name: str
    qty: int
    unit_price_usd: float


class Order(Row):
    """An order with its line items, money breakdown and shipping address."""

    order_id: str
    customer_id: str
    status: str
    placed_at: str
    items: tuple[LineItem, ...]
    subtotal_usd: float
    discount_usd: float
    shipping_usd: float
    tax_rate_pct: float
    tax_usd: float
    total_usd: float
    coupon_code: str | None
    shipping_address: Address
    tracking_number: str | None
    invoice_id: str


class Shipment(Row):
    """The primary carrier's record of one parcel."""

    tracking_number: str
    order_id: str
    carrier: str
    service_level: str
    status: str
    last_location: str
    eta: str
    weight_kg: float
    shipped_on: str
    delivered_on: str | None
    destination: str


class BackupTracking(Row):
    """The parcel aggregator's record of one parcel (an independent second source)."""

    tracking_number: str
    parcel_id: str
    carrier_name: str
    status: str
    last_location: str
    eta: str
    last_scan_at: str
    scan_count: int
    destination: str
    source: str


class ReturnRequest(Row):
    """A return of some units of one product of an order."""

    return_id: str
    order_id: str
    customer_id: str
    product_id: str
    qty: int
    unit_price_usd: float
    reason: str
    status: str
    created_at: str
    refund_id: str | None


class Refund(Row):
    """Money sent back for an approved return."""

    refund_id: str
    return_id: str
    order_id: str
    customer_id: str
    amount_usd: float
    method: str
    status: str
    created_at: str


class Coupon(Row):
    """A promotion code: a percentage or a fixed amount off, maybe for one category."""

    code: str
    description: str
    discount_type: str
    percent_off: int
    amount_off_usd: float
    category: str | None
    min_subtotal_usd: float
    starts_on: str
    expires_on: str
    max_redemptions: int | None
    times_redeemed: int
    active: bool


class Subscription(Row):
    """A recurring plan a customer pays for."""

    subscription_id: str
    customer_id: str
    plan: str
    billing_interval: str
    price_usd: float
    status: str
    started_on: str
    next_billing_date: str | None
    cancelled_on: str | None
    cancellation_reason: str | None


class Invoice(Row):
    """The bill of one order."""

    invoice_id: str
    order_id: str
    customer_id: str
    issued_on: str
    subtotal_usd: float
    discount_usd: float
    shipping_usd: float
    tax_usd: float
    amount_usd: float
    status: str


# -- the world ---------------------------------------------------------------------------


class CommerceWorld(World):
    """An online shop: catalogue, customers, orders, shipping, returns and billing."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "customers",
        "products",
        "orders",
        "shipments",
        "backup_tracking",
        "returns",
        "refunds",
        "coupons",
        "subscriptions",
        "invoices",
    )

    customers: dict[str, Customer] = Field(default_factory=dict)
    products: dict[str, Product] = Field(default_factory=dict)
    orders: dict[str, Order] = Field(default_factory=dict)
    shipments: dict[str, Shipment] = Field(default_factory=dict)
    backup_tracking: dict[str, BackupTracking] = Field(default_factory=dict)
    returns: dict[str, ReturnRequest] = Field(default_factory=dict)
    refunds: dict[str, Refund] = Field(default_factory=dict)
    coupons: dict[str, Coupon] = Field(default_factory=dict)
    subscriptions: dict[str, Subscription] = Field(default_factory=dict)
    invoices: dict[str, Invoice] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.customers()
        gen.products()
        gen.coupons()
        gen.orders()
        gen.coupon_counters()
        gen.returns()
        gen.subscriptions()
        return cls(
            seed=seed,
            id_counters={"RET": len(gen.returns_), "RF": len(gen.refunds_)},
            customers=gen.customers_,
            products=gen.products_,
            orders=gen.orders_,
            shipments=gen.shipments_,
            backup_tracking=gen.backup_,
            returns=gen.returns_,
            refunds=gen.refunds_,
            coupons=gen.coupons_,
            subscriptions=gen.subscriptions_,
            invoices=gen.invoices_,
        )


def order_discount_usd(
    coupon: Coupon, items: tuple[LineItem, ...], categories: dict[str, str]
) -> Decimal:
    """Return the discount ``coupon`` gives on ``items`` (0 when no item is eligible).

    Args:
        coupon: The coupon to apply.
        items: The order's line items.
        categories: Product id to category, for category-restricted coupons.
    """
    eligible = sum(
        (
            dec(it.unit_price_usd) * it.qty
            for it in items
            if coupon.category is None or categories.get(it.product_id) == coupon.category
        ),
        Decimal(0),
    )
    if coupon.discount_type == "percent":
        return dec(money(eligible * coupon.percent_off / 100))
    return min(dec(coupon.amount_off_usd), eligible)


def tax_usd(taxable: Decimal, rate_pct: float) -> float:
    """Return the sales tax on ``taxable`` dollars at ``rate_pct`` percent, rounded to cents."""
    return money(taxable * dec(rate_pct) / 100)


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    customers_: dict[str, Customer] = field(default_factory=dict)
    products_: dict[str, Product] = field(default_factory=dict)
    coupons_: dict[str, Coupon] = field(default_factory=dict)
    orders_: dict[str, Order] = field(default_factory=dict)
    shipments_: dict[str, Shipment] = field(default_factory=dict)
    backup_: dict[str, BackupTracking] = field(default_factory=dict)
    invoices_: dict[str, Invoice] = field(default_factory=dict)
    returns_: dict[str, ReturnRequest] = field(default_factory=dict)
    refunds_: dict[str, Refund] = field(default_factory=dict)
    subscriptions_: dict[str, Subscription] = field(default_factory=dict)
    _coupon_uses: dict[str, int] = field(default_factory=dict)
    _exhausted: set[str] = field(default_factory=set)
    _categories: dict[str, str] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.epoch.date()

    @property
    def categories(self) -> dict[str, str]:
        """Product id to category, once the catalogue exists."""
        if len(self._categories) != len(self.products_):
            self._categories = {p.product_id: p.category for p in self.products_.values()}
        return self._categories

    def days_ago(self, days: int) -> str:
        return (self.today - timedelta(days=days)).isoformat()

    def at(self, day: date, first_hour: int = 0, last_hour: int = 23) -> datetime:
        """A random UTC moment on ``day`` between the given hours, never after the epoch."""
        if day >= self.today:
            day, last_hour = self.today, min(last_hour, self.epoch.hour - 1)
            first_hour = min(first_hour, last_hour)
        moment = time(self.rng.randint(first_hour, last_hour), self.rng.randint(0, 59))
        return datetime.combine(day, moment, tzinfo=UTC)

    # -- people and catalogue ----------------------------------------------------------
    def customers(self) -> None:
        rng = self.rng
        drawn = people(rng, data.FIRST_NAMES, data.LAST_NAMES, data.EMAIL_DOMAINS)
        for number, (name, email) in enumerate(islice(drawn, N_CUSTOMERS), start=1):
            city = rng.choice(data.CITIES)
            street = f"{rng.randint(12, 9876)} {rng.choice(data.STREET_NAMES)} "
            street += rng.choice(data.STREET_SUFFIXES)
            cid = f"C-{number:04d}"
            self.customers_[cid] = Customer(
                customer_id=cid,
                name=name,
                email=email,
                phone=f"+1-{city.area_code}-555-{rng.randint(100, 9999):04d}",
                address_line1=street,
                city=city.name,
                state=city.state,
                postal_code=f"{city.zip_prefix}{rng.randint(1, 99):02d}",
                member_since=self.days_ago(rng.randint(30, 1800)),
            )

    def products(self) -> None:
        rng = self.rng
        categories = list(data.CATALOG)
        seen: set[str] = set()
        while len(self.products_) < N_PRODUCTS:
            category = rng.choice(categories)
            item = rng.choice(data.CATALOG[category])
            brand = rng.choice(data.BRANDS)
            name = f"{brand} {item.noun}"
            if name in seen:
                continue
            seen.add(name)
            dollars = rng.randint(item.price_lo, item.price_hi)
            cents = rng.choice((99, 95, 49, 79, 29, 50))
            pid = f"P-{len(self.products_) + 1:04d}"
            self.products_[pid] = Product(
                product_id=pid,
                name=name,
                category=category,
                brand=brand,
                price_usd=money(Decimal(dollars) + Decimal(cents) / 100),
                weight_kg=round(rng.uniform(item.weight_lo, item.weight_hi), 2),
                stock_qty=rng.choice((0, rng.randint(1, 20), rng.randint(20, 250))),
            )

    def coupons(self) -> None:
        rng = self.rng
        kinds = ["sitewide"] * 3 + ["category"] * 5 + ["fixed"] * 2
        kinds += ["expired"] * 2 + ["upcoming", "inactive", "exhausted"]
        words = rng.sample(data.COUPON_WORDS, len(kinds))
        categories = list(data.CATALOG)
        for word, kind in zip(words, kinds, strict=True):
            starts = rng.randint(10, 150)
            expires = -rng.randint(30, 300)
            if kind == "expired":
                starts, expires = rng.randint(120, 200), rng.randint(1, 60)
            elif kind == "upcoming":
                starts, expires = -rng.randint(3, 30), -rng.randint(60, 120)
            category = rng.choice(categories) if kind == "category" else None
            max_uses = (
                rng.randint(50, 200) if kind == "exhausted" else rng.choice((None, 500, 1000))
            )
            if kind == "fixed":
                amount = rng.choice((5, 10, 15, 20))
                code, pct, minimum = f"{word}{amount}", 0, float(amount * 5)
                description = f"${amount} off orders of ${amount * 5} or more"
            else:
                pct = rng.choice((5, 10, 15, 20, 25))
                amount, code = 0, f"{word}{pct}"
                minimum = 0.0 if kind == "sitewide" else rng.choice((0.0, 25.0, 50.0))
                description = f"{pct}% off " + (category if category else "sitewide")
            if kind == "exhausted":
                self._exhausted.add(code)
            self.coupons_[code] = Coupon(
                code=code,
                description=description,
                discount_type="fixed" if kind == "fixed" else "percent",
                percent_off=pct,
                amount_off_usd=float(amount),
                category=category,
                min_subtotal_usd=minimum,
                starts_on=self.days_ago(starts),
                expires_on=self.days_ago(expires),
                max_redemptions=max_uses,
                times_redeemed=0,
                active=kind != "inactive",
            )
            self._coupon_uses[code] = 0

    # -- orders, shipping, billing -----------------------------------------------------
    def orders(self) -> None:
        rng = self.rng
        stages = ["pending"] * 4 + ["processing"] * 5 + ["shipped"] * 14 + ["cancelled"] * 7
        stages += ["delivered"] * (N_ORDERS - len(stages))
        rng.shuffle(stages)
        minutes = {
            "pending": (20, 18 * 60),
            "processing": (18 * 60, 2 * 1440),
            "shipped": (2 * 1440 + 60, 7 * 1440),
            "delivered": (6 * 1440, 150 * 1440),
            "cancelled": (1440, 120 * 1440),
        }
        customers = list(self.customers_.values())
        products = list(self.products_.values())
        drafts = []
        for stage in stages:
            placed = self.epoch - timedelta(minutes=rng.randint(*minutes[stage]))
            customer = rng.choice(customers)
            count = rng.choices((1, 2, 3, 4), weights=(45, 30, 17, 8))[0]
            items = tuple(
                LineItem(
                    product_id=p.product_id,
                    product_name=p.name,
                    qty=rng.choices((1, 2, 3), weights=(70, 22, 8))[0],
                    unit_price_usd=p.price_usd,
                )
                for p in rng.sample(products, count)
            )
            drafts.append((placed, stage, customer, items))
        drafts.sort(key=lambda d: d[0])
        shipper = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXY0123456789") for _ in range(6))
        for number, (placed, stage, customer, items) in enumerate(drafts, start=10001):
            self._order(f"O-{number}", placed, stage, customer, items, shipper)

    def _pick_coupon(self, placed: datetime, items: tuple[LineItem, ...]) -> Coupon | None:
        if self.rng.random() >= 0.2:
            return None
        day = placed.date().isoformat()
        subtotal = sum((dec(i.unit_price_usd) * i.qty for i in items), Decimal(0))
        usable = [
            c
            for c in self.coupons_.values()
            if c.active
            and c.starts_on <= day <= c.expires_on
            and subtotal >= dec(c.min_subtotal_usd)
            and (c.max_redemptions is None or self._coupon_uses[c.code] < c.max_redemptions)
            and order_discount_usd(c, items, self.categories) > 0
        ]
        return self.rng.choice(usable) if usable else None

    def _order(
        self,
        order_id: str,
        placed: datetime,
        stage: str,
        customer: Customer,
        items: tuple[LineItem, ...],
        shipper: str,
    ) -> None:
        city = next(c for c in data.CITIES if c.name == customer.city)
        subtotal = sum((dec(i.unit_price_usd) * i.qty for i in items), Decimal(0))
        coupon = self._pick_coupon(placed, items)
        discount = Decimal(0)
        if coupon is not None:
            discount = order_discount_usd(coupon, items, self.categories)
            self._coupon_uses[coupon.code] += 1
        shipping = 0.0 if subtotal >= dec(FREE_SHIPPING_MIN_USD) else FLAT_SHIPPING_USD
        tax = tax_usd(subtotal - discount, city.tax_rate_pct)
        total = money(subtotal - discount + dec(shipping) + dec(tax))
        invoice_id = "INV-" + order_id.removeprefix("O-")
        address = Address(
            line1=customer.address_line1,
            city=customer.city,
            state=customer.state,
            postal_code=customer.postal_code,
        )
        tracking = None
        if stage in ("shipped", "delivered"):
            tracking = self._shipment(order_id, placed, stage, address, items, shipper)
        self.orders_[order_id] = Order(
            order_id=order_id,
            customer_id=customer.customer_id,
            status=stage,
            placed_at=stamp(placed),
            items=items,
            subtotal_usd=money(subtotal),
            discount_usd=money(discount),
            shipping_usd=shipping,
            tax_rate_pct=city.tax_rate_pct,
            tax_usd=tax,
            total_usd=total,
            coupon_code=coupon.code if coupon else None,
            shipping_address=address,
            tracking_number=tracking,
            invoice_id=invoice_id,
        )
        status = {"cancelled": "void", "pending": "open", "processing": "open"}.get(stage, "paid")
        self.invoices_[invoice_id] = Invoice(
            invoice_id=invoice_id,
            order_id=order_id,
            customer_id=customer.customer_id,
            issued_on=placed.date().isoformat(),
            subtotal_usd=money(subtotal),
            discount_usd=money(discount),
            shipping_usd=shipping,
            tax_usd=tax,
            amount_usd=total,
            status=status,
        )

    def _tracking_number(self, shipper: str, service_code: str) -> str:
        while True:
            number = f"1Z{shipper}{service_code}{self.rng.randint(0, 10**8 - 1):08d}"
            if number not in self.shipments_:
                return number

    def _shipment(
        self,
        order_id: str,
        placed: datetime,
        stage: str,
        address: Address,
        items: tuple[LineItem, ...],
        shipper: str,
    ) -> str:
        rng = self.rng
        service = rng.choices(data.SERVICES, weights=(75, 18, 7))[0]
        number = self._tracking_number(shipper, service.code)
        shipped_on = placed.date() + timedelta(days=1)
        eta = shipped_on + timedelta(days=rng.randint(service.min_days, service.max_days))
        destination = place(address.city, address.state)
        delivered_on: date | None = None
        if stage == "delivered":
            delivered_on = min(eta + timedelta(days=rng.choice((0, 0, 0, 1))), self.today)
            status, location, eta = "delivered", destination, delivered_on
            last_scan = self.at(delivered_on, 14, 23)
            scans = 4 + (delivered_on - shipped_on).days
        elif rng.random() < 0.1:
            status, location = "label_created", rng.choice(data.FULFILLMENT_CENTERS)
            eta = self.today + timedelta(days=service.max_days + 1)
            last_scan, scans = self.at(shipped_on, 12, 23), 1
        elif eta > self.today:
            status, location = "in_transit", rng.choice(data.CARRIER_HUBS)
            last_scan = self.epoch - timedelta(minutes=rng.randint(30, 20 * 60))
            scans = 2 + (self.today - shipped_on).days
        elif eta == self.today:
            status, location = "out_for_delivery", destination
            last_scan = self.at(self.today)
            scans = 3 + (self.today - shipped_on).days
        else:
            # A parcel past its eta and still moving: the carrier flags an exception and
            # re-estimates delivery.
            status, location = "exception", rng.choice(data.CARRIER_HUBS)
            eta = self.today + timedelta(days=rng.randint(1, 3))
            last_scan = self.epoch - timedelta(minutes=rng.randint(60, 30 * 60))
            scans = 2 + (self.today - shipped_on).days
        weight = sum(self.products_[i.product_id].weight_kg * i.qty for i in items) + 0.25
        self.shipments_[number] = Shipment(
            tracking_number=number,
            order_id=order_id,
            carrier=CARRIER,
            service_level=service.name,
            status=status,
            last_location=location,
            eta=eta.isoformat(),
            weight_kg=round(weight, 2),
            shipped_on=shipped_on.isoformat(),
            delivered_on=delivered_on.isoformat() if delivered_on else None,
            destination=destination,
        )
        self.backup_[number] = BackupTracking(
            tracking_number=number,
            parcel_id=f"PT{rng.randint(0, 10**10 - 1):010d}",
            carrier_name=CARRIER,
            status=status,
            last_location=location,
            eta=eta.isoformat(),
            last_scan_at=stamp(last_scan),
            scan_count=scans,
            destination=destination,
            source=AGGREGATOR,
        )
        return number

    # -- after-sales -------------------------------------------------------------------
    def returns(self) -> None:
        rng = self.rng
        delivered = [o for o in self.orders_.values() if o.status == "delivered"]
        statuses = ["approved"] * 3 + ["refunded"] * 4 + ["requested"] * 2 + ["rejected"]
        drafts = []
        for order, status in zip(rng.sample(delivered, len(statuses)), statuses, strict=True):
            assert order.tracking_number is not None
            delivered_on = self.shipments_[order.tracking_number].delivered_on
            assert delivered_on is not None
            day = date.fromisoformat(delivered_on)
            day += timedelta(
                days=rng.randint(0, min(RETURN_WINDOW_DAYS - 1, (self.today - day).days))
            )
            item = rng.choice(order.items)
            drafts.append((self.at(day), order, item, status))
        drafts.sort(key=lambda d: d[0])
        refunds = []
        for n, (created, order, item, status) in enumerate(drafts, start=1):
            return_id = f"RET-{n:05d}"
            row = ReturnRequest(
                return_id=return_id,
                order_id=order.order_id,
                customer_id=order.customer_id,
                product_id=item.product_id,
                qty=rng.randint(1, item.qty),
                unit_price_usd=item.unit_price_usd,
                reason=rng.choice(data.RETURN_REASONS),
                status=status,
                created_at=stamp(created),
                refund_id=None,
            )
            self.returns_[return_id] = row
            if status == "refunded":
                refunded = min(created + timedelta(days=rng.randint(1, 3)), self.epoch)
                refunds.append((refunded, row))
        refunds.sort(key=lambda r: r[0])
        for n, (created, ret) in enumerate(refunds, start=1):
            refund_id = f"RF-{n:05d}"
            self.returns_[ret.return_id] = ret.model_copy(update={"refund_id": refund_id})
            self.refunds_[refund_id] = Refund(
                refund_id=refund_id,
                return_id=ret.return_id,
                order_id=ret.order_id,
                customer_id=ret.customer_id,
                amount_usd=money(dec(ret.unit_price_usd) * ret.qty),
                method="original_payment",
                status="issued",
                created_at=stamp(created),
            )

    def subscriptions(self) -> None:
        rng = self.rng
        statuses = ["active"] * 19 + ["paused"] * 4 + ["cancelled"] * 7
        rng.shuffle(statuses)
        customers = list(self.customers_)
        drafts = []
        for status in statuses:
            plan = rng.choice(data.PLANS)
            age = rng.randint(20, 700)
            next_billing = cancelled_on = reason = None
            if status == "active":
                ahead = rng.randint(1, 30 if plan.billing_interval == "monthly" else 365)
                next_billing = self.days_ago(-ahead)
            elif status == "cancelled":
                cancelled_on = self.days_ago(age - rng.randint(1, age - 1))
                reason = rng.choice(data.CANCELLATION_REASONS)
            drafts.append(
                (age, rng.choice(customers), plan, status, next_billing, cancelled_on, reason)
            )
        drafts.sort(key=lambda d: -d[0])
        for n, (age, customer_id, plan, status, next_billing, cancelled_on, reason) in enumerate(
            drafts, start=1
        ):
            sid = f"SUB-{n:04d}"
            self.subscriptions_[sid] = Subscription(
                subscription_id=sid,
                customer_id=customer_id,
                plan=plan.name,
                billing_interval=plan.billing_interval,
                price_usd=plan.price_usd,
                status=status,
                started_on=self.days_ago(age),
                next_billing_date=next_billing,
                cancelled_on=cancelled_on,
                cancellation_reason=reason,
            )

    def coupon_counters(self) -> None:
        """Set each coupon's redemption count: this shop's orders plus earlier history."""
        rng = self.rng
        for code, uses in self._coupon_uses.items():
            coupon = self.coupons_[code]
            if coupon.max_redemptions is None:
                redeemed = uses + rng.randint(0, 400)
            elif code in self._exhausted:
                redeemed = coupon.max_redemptions
            else:
                redeemed = min(coupon.max_redemptions - 1, uses + rng.randint(0, 300))
            self.coupons_[code] = coupon.model_copy(update={"times_redeemed": redeemed})
