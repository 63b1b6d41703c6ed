"""How templates draw the source of a fact several tools serve (TemplateContext).

A cross-source conflict may only corrupt a source the prompt does not name and the docs do
not call authoritative, so the templates that read such a fact name no source in about half
their requests and read a non-authoritative source for those.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.suites.toolbench_x.coherence import named_sources
from toolchaos.suites.toolbench_x.generate import (
    TemplateContext,
    raw_candidates,
    unnamed_phrasings,
)

# the domains whose source-fact templates offer an unnamed form
DOMAINS = [
    "commerce",
    "communication",
    "devices",
    "government",
    "health",
    "lifestyle",
    "media",
    "personal_finance",
    "productivity",
    "transportation",
    "weather",
]


def _ctx(domain: str, seed: int) -> TemplateContext:
    found = get_domain(domain)
    return TemplateContext(found, found.world(0), random.Random(seed))


def test_an_unnamed_source_is_never_the_authoritative_one() -> None:
    notes = get_domain("government").notes.sources
    tools = sorted(notes)
    drawn = Counter(_ctx("government", seed).unnamed_source(tools) for seed in range(400))
    assert notes["get_office_wait_time"].authoritative == "get_office_wait_time"
    assert "get_office_wait_time" not in drawn
    assert set(drawn) == {None, "get_office_wait_time_311", "get_office_wait_time_crowd"}
    assert 0.4 < drawn[None] / 400 < 0.6


def test_share_one_always_gives_a_source_and_none_without_a_plain_one() -> None:
    tools = ["get_office_wait_time", "get_office_wait_time_311"]
    assert all(_ctx("government", s).unnamed_source(tools, share=1.0) for s in range(50))
    assert _ctx("government", 0).unnamed_source(["get_office_wait_time"], share=1.0) is None
    assert _ctx("government", 0).unnamed_source(["search_offices"], share=1.0) is None


def test_choose_source_names_every_source_it_reads_from_the_authority_too() -> None:
    tools = sorted(get_domain("government").notes.sources)
    drawn = Counter(_ctx("government", s).choose_source(tools) for s in range(400))
    assert ("get_office_wait_time", False) not in drawn
    assert {tool for tool, named in drawn if named} == set(tools)


@pytest.mark.parametrize("domain", DOMAINS)
def test_source_fact_requests_come_unnamed_on_a_non_authoritative_path(domain: str) -> None:
    """Candidates read a non-authoritative source for a prompt naming no source."""
    notes = get_domain(domain).notes.sources
    unnamed = 0
    for cand in raw_candidates(0, 6, [domain]):
        if cand.draft is None:
            continue
        plain = {s.tool for s in cand.draft.steps} & {
            t for t, n in notes.items() if n.authoritative != t
        }
        if not plain:
            continue
        task = TaskSpec.model_construct(domain=domain, prompt=cand.draft.prompt)
        if not named_sources(task) & plain:
            unnamed += 1
    assert unnamed >= 5, unnamed


@pytest.mark.parametrize(
    ("named", "plain"),
    [
        ("What's the wait at {clinic}, per {source}?", "What's the wait at {clinic}?"),
        ("Price it at {store} ({source}).", "Price it at {store}."),
        (
            "Using {source}, look up {names}; what's the total?",
            "Look up {names}; what's the total?",
        ),
        ("Which has the {word} {source} {words}?", "Which has the {word} {words}?"),
        ("Total? Go by {source}, one bag each.", "Total? One bag each."),
        (
            "Look up {titles} on {source} and tell me the {word}.",
            "Look up {titles} and tell me the {word}.",
        ),
        ("Check {source} for {titles}: which is best?", "Look up {titles}: which is best?"),
    ],
)
def test_unnamed_phrasings_drop_the_source_and_keep_the_request(named: str, plain: str) -> None:
    assert unnamed_phrasings([named]) == (plain,)


def test_a_phrasing_that_cannot_drop_its_source_is_left_out() -> None:
    kept = ["Of {names}, give me the rating {guide} shows.", "Rate {names} on {guide}?"]
    assert unnamed_phrasings(kept, "guide") == ("Rate {names}?",)
    assert unnamed_phrasings(kept[:1], "guide") == ()
    ctx = _ctx("media", 0)
    assert ctx.say_source(False, kept[0], slot="guide", names="A", guide="G") == (
        "Of A, give me the rating G shows."
    )
