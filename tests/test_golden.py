"""Restructuring must not change behaviour: every baseline scores as recorded."""

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from toolchaos.runner.run import RunSummary

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.slow
@pytest.mark.xdist_group("baselines")
def test_every_scripted_baseline_reports_exactly_as_recorded(
    tmp_path: Path, baseline_run: Callable[[str], RunSummary]
) -> None:
    sys.path.insert(0, str(GOLDEN))
    try:
        from snapshot import MODELS, snapshot
    finally:
        sys.path.remove(str(GOLDEN))
    recorded = json.loads((GOLDEN / "baselines.json").read_text(encoding="utf-8"))
    runs = {suite: Path(baseline_run(suite).out) for suite in MODELS}
    now = json.loads(json.dumps(snapshot(tmp_path, runs)))
    for suite in recorded:
        assert now[suite]["dataset_sha256"] == recorded[suite]["dataset_sha256"], suite
        for name, text in recorded[suite]["tables"].items():
            assert now[suite]["tables"][name] == text, f"{suite}: {name} changed"
        assert set(now[suite]["tables"]) == set(recorded[suite]["tables"]), suite
