"""Docstrings and docs cite files in the repository, never one beside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|\.\./shared")
# The release's own tests and the README say where the release is laid: that is a place
# to put a file, not a document the code rests on.
ALLOWED = {"tests/suites/toolfailbench/test_tfb_release_v5.py", "README.md"}


def cited_outside(text: str) -> list[str]:
    """The citations of files outside the repository in ``text``, one per line."""
    return [line.strip() for line in text.splitlines() if OUTSIDE.search(line)]


def test_the_checker_finds_a_citation_of_a_file_outside_the_repo() -> None:
    assert cited_outside('"""Gates (DESIGN.md, invariant 5)."""\nx = 1') == [
        '"""Gates (DESIGN.md, invariant 5)."""'
    ]
    assert cited_outside("see docs/architecture.md, Invariants") == []


def test_no_source_or_doc_cites_a_file_outside_the_repo() -> None:
    files = [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/**/*.md"), ROOT / "README.md"]
    found = {
        rel: hits
        for path in files
        if (rel := path.relative_to(ROOT).as_posix()) not in ALLOWED
        and (hits := cited_outside(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_cited_sections_exist() -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "## Invariants" in architecture and "## Metrics" in architecture
    toolbench = (ROOT / "docs" / "toolbench-x.md").read_text(encoding="utf-8")
    assert "## Observability tiers" in toolbench and "## The validity gates" in toolbench
