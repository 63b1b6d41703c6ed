from pathlib import Path

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.core.types import Episode, EpisodeStatus
from toolchaos.runner.store import Store


def test_put_replaces_an_error_episode(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    store.put(
        Episode(
            key="k",
            suite="s",
            task_id="t",
            model="m",
            protocol="p",
            arm="clean",
            status=EpisodeStatus.ERROR,
            error="boom",
        )
    )
    assert store.keys(EpisodeStatus.ERROR) == {"k"}
    store.put(
        Episode(
            key="k", suite="s", task_id="t", model="m", protocol="p", arm="clean", final_answer="42"
        )
    )
    assert store.keys(EpisodeStatus.ERROR) == set()
    assert [e.final_answer for e in store.episodes()] == ["42"]
    assert store.count() == 1


def test_a_file_that_is_not_sqlite_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "episodes.sqlite"
    path.write_text("this is not a database, just text " * 100)
    with pytest.raises(BadInput, match="not a usable toolchaos store"):
        Store(path)


def test_missing_run_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="holds no toolchaos run"):
        Store.open_existing(tmp_path)
