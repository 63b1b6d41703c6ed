"""Proxies and adapters sharing one store: every episode kept, none overwritten."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from toolchaos.runner.store import Store

HERE = Path(__file__).resolve().parent
WRITERS = 6
EPISODES = 10
# One writer: waits for the go file, so every writer records at the same moment, then
# finishes EPISODES episodes of the same target, model and arm into the shared store.
WRITER = """
import sys, time
from pathlib import Path
from own_weather import TOOLS
from toolchaos.chaos import ChaosToolbox

store, go, episodes = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
box = ChaosToolbox(TOOLS, "everything", store=store, target="weather-agent", model="m")
Path(sys.argv[4]).touch()  # ready: the store is open
deadline = time.monotonic() + 60
while not go.exists() and time.monotonic() < deadline:
    time.sleep(0.005)
for _ in range(episodes):
    box.episode("clean").finish("21", passed=True)
box.engine.recorder.close()
"""


def test_writers_sharing_a_store_keep_every_episode(tmp_path: Path) -> None:
    store, go = tmp_path / "run", tmp_path / "go"
    writers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                str(store),
                str(go),
                str(EPISODES),
                str(tmp_path / f"ready-{number}"),
            ],
            cwd=HERE,
        )
        for number in range(WRITERS)
    ]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("ready-*"))) < WRITERS:  # every writer has the store open
        assert time.monotonic() < deadline and all(w.poll() is None for w in writers)
        time.sleep(0.01)
    go.touch()
    assert [w.wait(timeout=120) for w in writers] == [0] * WRITERS
    opened = Store.open_existing(store, read_only=True)
    rows = opened.summaries()
    opened.close()
    samples = sorted(row["sample"] for row in rows)
    assert samples == list(range(WRITERS * EPISODES))
    assert len({row["key"] for row in rows}) == WRITERS * EPISODES
