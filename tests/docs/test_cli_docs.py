"""The docs say what the CLI does: scripted baselines, rebuild commands, timings, JSON output."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from toolchaos.suites import get_suite
from toolchaos.suites.scripted import known_modes

REPO = Path(__file__).parents[2]
DOCS = REPO / "docs"


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )


def scripted_rows() -> dict[str, list[str]]:
    """docs/models.md's scripted-baselines table: policy -> (ToolBench-X, ToolFailBench)."""
    text = (DOCS / "models.md").read_text(encoding="utf-8")
    section = text.split("## Scripted baselines", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = re.match(r"\| `scripted/([\w-]+)` \|(.*)\|\s*$", line)
        if found:
            rows[found[1]] = [cell.strip() for cell in found[2].split("|")]
    return rows


def test_models_doc_lists_every_scripted_baseline_of_the_registry() -> None:
    rows = scripted_rows()
    assert list(rows) == list(known_modes())
    for suite, column in (("toolbench-x", 0), ("toolfailbench", 1)):
        played = get_suite(suite)
        for mode, cells in rows.items():
            cell = cells[column]
            # coin is every suite's (not a suite baseline): played alike everywhere
            if mode in played.baselines or mode == "coin":
                assert not cell.startswith("not played"), (suite, mode)
            elif played.baseline_fallback is not None:
                assert cell.startswith(f"as `{played.baseline_fallback}`"), (suite, mode, cell)
            else:
                assert cell.startswith("not played"), (suite, mode, cell)


def test_the_review_protocol_rebuilds_into_the_shipped_file() -> None:
    text = (DOCS / "review.md").read_text(encoding="utf-8")
    block = text.split("## The protocol", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    joined = block.replace("\\\n", " ")
    build = next(line for line in joined.splitlines() if line.startswith("toolchaos build"))
    words = shlex.split(build, comments=True)
    out = Path(words[words.index("--out") + 1])
    assert (REPO / out).resolve() == get_suite("toolbench-x").default_path().resolve()


def test_makefile_and_readme_give_the_same_make_run_time() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    times = re.findall(r"\d+ min \d+ s to \d+ min \d+ s", makefile)
    assert times, "the Makefile comment gives no make run time"
    assert all(t in readme for t in times), times


def test_tasks_json_is_what_its_help_says(tmp_path: Path) -> None:
    shown = toolchaos("tasks", "--help")
    assert "JSON Lines: one task object per line" in " ".join(shown.stdout.split())
    result = toolchaos("tasks", "toolbench-x", "--type", "parallel", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    tasks = [json.loads(line) for line in lines]
    assert len(tasks) == 358 and all(t["workflow"] == "parallel" for t in tasks)
    stats = toolchaos("tasks", "toolbench-x", "--stats", "--json")
    assert json.loads(stats.stdout)["n"] == 1106  # one object
