"""Helpers and constants shared by the personal finance subtopic templates."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import RefStep
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext, ref

# rate tool -> (its parameter for the currency priced, for the currency it is priced in,
# how a prompt names it); the three serve one fixing, the reference rate is authoritative
RATE_SOURCES = {
    "get_reference_rate": ("base", "quote", "the reference rate"),
    "get_market_rate": ("from_currency", "to_currency", "the market rate"),
    "get_bank_board_rate": ("sell_currency", "buy_currency", "the rate board"),
}


def _choice(ctx: TemplateContext, items: list[Any], what: str) -> Any:
    """One of ``items`` chosen by the rng, or NoFit when there is none."""
    if not items:
        raise NoFit(f"no {what} fits")
    return ctx.rng.choice(items)


def _usd(amount: float) -> str:
    return f"${amount:,.2f}"


def rate_source(ctx: TemplateContext, named: str) -> tuple[str, bool]:
    """The rate tool a template reads, and whether its prompt names it.

    About half the time (``ctx.unnamed_source``) a rate source the docs do not call
    authoritative, for a prompt that asks for the exchange rate without naming a source;
    otherwise ``named``, the source the template's prompt names.
    """
    unnamed = ctx.unnamed_source(RATE_SOURCES)
    return (named, True) if unnamed is None else (unnamed, False)


def rate_step(tool: str, priced: Any, into: Any) -> RefStep:
    """A read of rate ``tool``: units of ``into`` that one unit of ``priced`` buys."""
    first, second, _ = RATE_SOURCES[tool]
    return RefStep(tool=tool, args={first: priced, second: into})


def unnamed_rate(ctx: TemplateContext) -> str:
    """A rate source the docs do not call authoritative, for a request that names none."""
    return ctx.unnamed_source(RATE_SOURCES, share=1.0) or "get_market_rate"


def home_rate(account_id: str, tool: str, into_home: bool) -> list[RefStep]:
    """An account -> its holder -> ``tool``'s rate between dollars and their home currency.

    Dollars into the home currency if ``into_home``, else the reverse; the rate is step 2.
    """
    home = ref(1, "home_currency")
    return [
        RefStep(tool="get_account", args={"account_id": account_id}),
        RefStep(tool="get_holder", args={"holder_id": ref(0, "holder_id")}),
        rate_step(tool, "USD", home) if into_home else rate_step(tool, home, "USD"),
    ]
