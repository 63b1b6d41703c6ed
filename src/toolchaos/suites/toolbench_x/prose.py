"""The prompt checker: template glitches a reader notices at once in a ToolBench-X prompt.

Each check is a plain function from a prompt to the passages that show its glitch (an
empty list when it reads well), so a test can hold every check to sentences it must
catch and sentences it must pass, and another can run all of them over every shipped
prompt (tests/suites/toolbench_x/test_prompts.py). The glitches:

- a word or a list item said twice in a row ("the the", "a passport and a passport");
- an article stuck to a possessive or another article ("a my", "the a", "my a");
- an article before a person's possessive ("the Priya's XPS");
- a slot left unfilled ("{name}"), or leftovers of formatting (None, an enum value with
  underscores, doubled punctuation or spaces);
- a disambiguation tacked on after the request has ended ("... ? (I mean the Margaret
  whose relationship is parent.)"), where the telling detail belongs in the sentence, or
  two bracketed remarks in a row ("Back Bay (the one whose code is BBY) (Boston)");
- "I" with a third-person verb ("I has", "I needs");
- a sentence that starts in lower case ("... 'Annual plan'. what's the best ...");
- "how much" before a count noun ("How much calories");
- a plural written with "(s)" ("2 month(s)"), or a count and its unit that disagree
  ("1 days", "3 month").
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["CHECKS", "prompt_glitches", "said_where_named", "told_apart"]

_ARTICLES = "a|an|the"
_POSSESSIVES = "my|your|his|her|our|their|its"
_STRAY_ARTICLE = re.compile(
    rf"\b(?:(?:{_ARTICLES})\s+(?:{_ARTICLES}|{_POSSESSIVES})|(?:{_POSSESSIVES})\s+(?:{_ARTICLES}))\b",
    re.IGNORECASE,
)
# "the Priya's": an article before a capitalised name's possessive. An all-capitals word
# is an acronym ("the KPI's target" is right), and a name of two capitalised words is a
# business's ("the Corner Bakery's hours"), which the pattern does not reach.
_ARTICLE_BEFORE_NAME = re.compile(r"\bthe ([A-Z][a-z][\w-]*)'s\b")
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
# a disambiguation in a bracket after the request has ended ("...? (I mean the Margaret
# whose ...)"); a closing note on how to write the answer ("(Negative if I went over.)") is
# no glitch
_TACKED_ON = re.compile(r"[.?!]['\"]?\s*\([^()]*\bwhose\b[^()]*\)\s*$|\(I mean\b[^()]*\)")
# "I" then a verb in the third person; words ending in s that are no such verb are spared
_FIRST_PERSON_S = re.compile(
    r"\bI\s+(?:(?:also|still|just|only|really|usually|now|often|never)\s+)?"
    r"(has|is|does|(?!(?:was|always|perhaps|sometimes|nevertheless|afterwards)\b)"
    r"(?![a-z]*(?:ss|us|is)\b)[a-z]+s)\b"
)
# a sentence end, then a lower-case word; not after an abbreviation ("e.g.", "Co."), not
# inside a quotation ('"Well done!" to Ben'), and not an id, handle or email (they hold a
# digit, an underscore, an @ or a dot)
_LOWER_START = re.compile(
    r"(?:^|(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\betc)(?<!\bCo)(?<!\bInc)(?<!\bLtd)(?<!\bSt)"
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bJr)[.!?]\s+)"
    r"([a-z][a-z'-]*)(?![\w@.]*[0-9_@])(?![\w-]*\.\w)"
)
# "how much" before a plural count noun; mass nouns and verbs that end in s are spared
_HOW_MUCH_COUNT = re.compile(
    r"\b[Hh]ow much\s+(?!(?:is|was|does|has|this|less|plus|gas|news|fitness|progress|business"
    r"|access|stress|goes|remains|comes|costs|arrives|leaves|takes|gets|needs|pays|saves|owes|its|his)\b)(?![a-z]*ss\b)([a-z]+s)\b"
)
# two bracketed remarks in a row: "Kennedy Plaza (the one whose city is Providence) (Providence)"
_STACKED_BRACKETS = re.compile(r"\([^()]*\)\s*\([^()]*\)")
_OPTIONAL_PLURAL = re.compile(r"\w\(s\)")
_TIME_UNIT = r"(?:second|minute|hour|day|night|week|month|year|serving|dose|visit)"
# "1 days", or "3 month" not joined as a compound ("a 3-month plan", "3 month-old")
_DISAGREEING_COUNT = re.compile(
    rf"(?<![\w.,-])(?:1 {_TIME_UNIT}s\b|(?:0|[2-9]|[1-9][0-9]+) {_TIME_UNIT}\b(?![-'\w]))"
)


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


def articles_before_names(prompt: str) -> list[str]:
    """An article before a person's possessive ("on the Priya's XPS")."""
    return [m.group(0) for m in _ARTICLE_BEFORE_NAME.finditer(prompt)]


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


def stacked_brackets(prompt: str) -> list[str]:
    """Two bracketed remarks in a row ("Back Bay (the one whose code is BBY) (Boston)")."""
    return [m.group(0) for m in _STACKED_BRACKETS.finditer(prompt)]


def tacked_on(prompt: str) -> list[str]:
    """A bracketed remark after the request has ended, or an "(I mean ...)" anywhere."""
    return [m.group(0).strip() for m in _TACKED_ON.finditer(prompt)]


def first_person_agreement(prompt: str) -> list[str]:
    """The pronoun I with a third-person verb ("I has", "I needs")."""
    return [m.group(0) for m in _FIRST_PERSON_S.finditer(prompt)]


def lower_case_starts(prompt: str) -> list[str]:
    """A sentence that starts in lower case ("... in minutes. what's the most ...")."""
    return [m.group(1) for m in _LOWER_START.finditer(prompt)]


def how_much_counts(prompt: str) -> list[str]:
    """How much before a count noun ("How much calories", not "how much protein")."""
    return [m.group(0) for m in _HOW_MUCH_COUNT.finditer(prompt)]


def count_agreement(prompt: str) -> list[str]:
    """A plural written "(s)" ("2 month(s)"), or a count that disagrees ("1 days", "3 month")."""
    found = [m.group(0) for m in _OPTIONAL_PLURAL.finditer(prompt)]
    return found + [m.group(0) for m in _DISAGREEING_COUNT.finditer(prompt)]


CHECKS: dict[str, Callable[[str], list[str]]] = {
    "doubled word": doubled_words,
    "doubled list item": doubled_items,
    "stray article": stray_articles,
    "article before a name": articles_before_names,
    "unfilled slot": unfilled_slots,
    "format artefact": artefacts,
    "tacked-on remark": tacked_on,
    "stacked brackets": stacked_brackets,
    "first-person agreement": first_person_agreement,
    "lower-case sentence start": lower_case_starts,
    "how much with a count": how_much_counts,
    "count agreement": count_agreement,
}
"""Every check by the name a failure is reported under."""


def prompt_glitches(prompt: str) -> dict[str, list[str]]:
    """Every glitch of ``prompt``: check name -> the passages that show it (none if clean)."""
    return {name: hits for name, check in CHECKS.items() if (hits := check(prompt))}


# a bracketed qualifier right after a name: "Camden Yards (Baltimore)"
_QUALIFIER = re.compile(r" \((?P<inside>[^()]+)\)")
# the remark the ambiguous-entity hazard appends to the request (hazards/invocation_error.py)
_I_MEAN = re.compile(
    r"\s*\(I mean the (?P<name>[^()]+?) whose (?P<field>[^()]+?) is (?P<detail>[^()]*)\.\)\s*$"
)


def told_apart(prompt: str, name: str, field: str, detail: object) -> str:
    """``prompt`` with what tells the entity ``name`` apart said where it first names it.

    "... 'Pricing page social proof' (the one whose metric is trial starts), what's ...":
    the detail sits in the sentence, after the name (after its closing quote or its
    possessive), never tacked on after the request has ended. A name the template already
    qualifies in brackets ("Camden Yards (Baltimore)") takes the detail inside them
    ("Camden Yards (Baltimore, the one whose code is CMY)"), and a qualifier that already
    says the detail is left as it is. A prompt that does not name ``name`` comes back
    unchanged.

    Args:
        prompt: The task's prompt.
        name: The entity's name, which a namesake shares under the hazard.
        field: The field (or its words) of the entity's record that tells the two apart.
        detail: That field's value for the entity.
    """
    told = _told(prompt, name, field, detail)
    return prompt if told is None else told


def _told(prompt: str, name: str, field: str, detail: object) -> str | None:
    # None when the prompt does not name ``name``
    start = prompt.casefold().find(name.casefold())
    if start < 0:
        return None
    end = start + len(name)
    if start > 0 and prompt[start - 1] in "'\"" and prompt[end : end + 1] == prompt[start - 1]:
        end += 1  # 'Pricing page social proof' keeps its quotes together
    elif prompt[end : end + 2] == "'s":
        end += 2  # Margaret's (the one ...) prescription
    said = str(detail).strip().rstrip(".")
    remark = f"the one whose {field.replace('_', ' ')} is {said}"
    if qualifier := _QUALIFIER.match(prompt, end):
        if qualifier["inside"].strip().casefold() == said.casefold():
            return prompt  # "Temple Street Terminal (New Haven)" already tells it apart
        close = qualifier.end() - 1
        return f"{prompt[:close]}, {remark}{prompt[close:]}"
    return f"{prompt[:end]} ({remark}){prompt[end:]}"


def said_where_named(prompt: str) -> str:
    """``prompt`` with a tacked-on "(I mean the X whose Y is Z.)" moved to where X is named.

    The ambiguous-entity hazard ends the request with that remark; the build puts the
    detail after the name instead (:func:`told_apart`), where a person would say it. A
    prompt without the remark, or whose remark names nothing the request says, comes back
    unchanged (and the prompt checker then holds it to :func:`tacked_on`).
    """
    found = _I_MEAN.search(prompt)
    if found is None:
        return prompt
    head = prompt[: found.start()]
    moved = _told(head, found["name"], found["field"], found["detail"])
    return prompt if moved is None else moved
