"""Every subtopic's prompts read like a person's request.

A seeded sample of raw candidates from every subtopic of every domain (before screening,
so a glitch cannot hide behind a draft the build would drop anyway) is checked for the
template glitches a reader notices at once: a word or a list item said twice in a row,
an article stuck to a possessive or another article ("a my", "the a", "my a"), a slot
left unfilled, and leftovers of formatting (None, an enum value with underscores, doubled
punctuation or spaces). The checks are plain functions, tested on known good and bad
sentences below, so a check that never fires is caught too. Run one domain with
``-k <domain>``.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from toolchaos.domains import DOMAINS as REGISTERED
from toolchaos.suites.toolbench_x.generate import Candidate, raw_candidates, subtopics

SEED = 16
ATTEMPTS_PER_CELL = 6
DOMAINS = sorted(set(REGISTERED) - {"fixture"})

_ARTICLES = "a|an|the"
_POSSESSIVES = "my|your|his|her|our|their|its"
_STRAY_ARTICLE = re.compile(
    rf"\b(?:(?:{_ARTICLES})\s+(?:{_ARTICLES}|{_POSSESSIVES})|(?:{_POSSESSIVES})\s+(?:{_ARTICLES}))\b",
    re.IGNORECASE,
)
# an id that spells a word ("bill BILL-0117") is not a doubled word
_DOUBLED_WORD = re.compile(r"\b([A-Za-z]+)\s+\1\b(?!-)", re.IGNORECASE)
# the same item of one to four words twice in a row of a list: "a passport and a passport"
_DOUBLED_ITEM = re.compile(
    r"(?<![\w'-])((?:[\w'$.-]+ ){0,3}[\w'$.-]+)(?:,| and| or|;) (?:and |or )?\1"
    r"(?=[,.;:?!)]|\s+(?:and|or)\b|$)",
    re.IGNORECASE,
)
_SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
_ARTEFACT = re.compile(r"\bNone\b|\bnull\b|\.\.(?!\.)|,,|\s[,.;:?!]|  |\(\s*\)|''")
# an enum value written as it is stored (not_using_enough); ids, emails and hostnames
# legitimately hold underscores, and all of those hold a digit, an @ or a dot
_ENUM_WORD = re.compile(r"(?<![\w@.'-])[a-z]+(?:_[a-z]+)+(?![\w@'-])(?!\.\w)")

# words a person may repeat on purpose ("that that" is always a glitch; "had had" is not)
_ALLOWED_DOUBLES = {"had"}


def doubled_words(prompt: str) -> list[str]:
    """Words said twice in a row ("the the")."""
    return [
        m.group(0)
        for m in _DOUBLED_WORD.finditer(prompt)
        if m.group(1).lower() not in _ALLOWED_DOUBLES
    ]


def doubled_items(prompt: str) -> list[str]:
    """A list item repeated right after itself ("a driver's licence and a driver's licence")."""
    return [m.group(0) for m in _DOUBLED_ITEM.finditer(prompt)]


def stray_articles(prompt: str) -> list[str]:
    """An article next to a possessive or another article ("for my a CT scan", "the a")."""
    return [m.group(0) for m in _STRAY_ARTICLE.finditer(prompt)]


def unfilled_slots(prompt: str) -> list[str]:
    """Format slots left in the text ("{name}")."""
    return _SLOT.findall(prompt)


def artefacts(prompt: str) -> list[str]:
    """Leftovers of formatting: None, stored enum values, doubled punctuation or spaces."""
    found = [m.group(0) for m in _ARTEFACT.finditer(prompt)]
    found += [m.group(0) for m in _ENUM_WORD.finditer(prompt)]
    if prompt != prompt.strip():
        found.append("leading or trailing whitespace")
    return found


CHECKS = {
    "doubled word": doubled_words,
    "doubled list item": doubled_items,
    "stray article": stray_articles,
    "unfilled slot": unfilled_slots,
    "format artefact": artefacts,
}


@pytest.mark.parametrize(
    ("check", "bad"),
    [
        ("doubled word", "Book a seat on the the first train."),
        ("doubled list item", "We need a driver's licence and a driver's licence, routine."),
        ("doubled list item", "Parcels 1Z9, 1Z9 and 1Z4: how heavy?"),
        ("stray article", "Please book a slot for my a CT scan."),
        ("stray article", "What is the status of the my application?"),
        ("stray article", "Cancel the a subscription."),
        ("unfilled slot", "How late is trip {trip} today?"),
        ("format artefact", "I'm cancelling because not_using_enough."),
        ("format artefact", "My plan is None ."),
        ("format artefact", "What is the total ,  in USD?"),
    ],
)
def test_each_check_catches_its_glitch(check: str, bad: str) -> None:
    assert CHECKS[check](bad), f"{check} missed: {bad!r}"


@pytest.mark.parametrize(
    "good",
    [
        "I'm fatima_kowalski@gmail.com. Where is my parcel 1Z999AA10123456784?",
        "Compare the Living Room Thermostat, the Kitchen Light and the Office Plug.",
        "We need two passports and a driver's licence, expedited service.",
        "The device that joins our Wi-Fi as 'robot-vacuum' needs its firmware.",
        "Price a ride from Union Station (Washington) to Navy Yard; then from A to B.",
        "For Maya's StreamNest account, how many days old is its password?",
    ],
)
def test_the_checks_pass_a_well_formed_request(good: str) -> None:
    found = {name: hits for name, check in CHECKS.items() if (hits := check(good))}
    assert found == {}


@cache
def sampled() -> list[Candidate]:
    """A seeded sample of candidates from every subtopic of every domain."""
    return [c for c in raw_candidates(SEED, ATTEMPTS_PER_CELL) if c.draft is not None]


def test_the_sample_covers_every_subtopic_and_workflow() -> None:
    cells = {(c.subtopic.name, c.workflow) for c in sampled()}
    want = {(s.name, w) for s in subtopics() for w in s.templates if s.templates[w]}
    assert want - cells == set()


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("check", sorted(CHECKS))
def test_no_sampled_prompt_has_the_glitch(check: str, domain: str) -> None:
    found = {}
    for cand in sampled():
        if cand.subtopic.domain != domain:
            continue
        assert cand.draft is not None
        hits = CHECKS[check](cand.draft.prompt)
        if hits:
            found[f"{cand.subtopic.name}/{cand.template}"] = (hits, cand.draft.prompt)
    assert found == {}
