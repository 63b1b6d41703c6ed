"""The leaderboard site's files: one page per model, safe names, inert text, the CLI."""

from __future__ import annotations

import html
import re
from pathlib import Path

import markupsafe
import pytest
from scripted_runs import EVIL_MODEL, HOSTILE_ANSWER, make_hostile, play
from typer.testing import CliRunner

from toolchaos.cli import app
from toolchaos.report.site import page_name, write_site
from toolchaos.report.tables import build_report

MODELS = ["scripted/oracle", "scripted/naive", "scripted/retry"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = play(tmp_path_factory.mktemp("site") / "run", MODELS, ["clean", "hazard"], subset=6)
    make_hostile(run)
    out = run.parent / "site"
    write_site(build_report([run]), out, max_episodes=100)
    return out


@pytest.mark.parametrize(
    ("first", "second"),
    [("a/b", "a-b"), ("a/b", "a?b"), ("x" * 70, "x" * 71), ("../../etc", "etc")],
)
def test_two_models_never_share_a_page_and_no_name_leaves_the_folder(
    first: str, second: str
) -> None:
    assert page_name(first) != page_name(second)
    for name in (first, second, EVIL_MODEL):
        page = page_name(name)
        assert re.fullmatch(r"[A-Za-z0-9._-]+\.html", page), page
        assert not page.startswith(".")
    assert page_name("scripted/oracle") == page_name("scripted/oracle")  # stable


def test_the_site_has_an_index_a_page_per_model_and_the_viewer(site: Path) -> None:
    pages = sorted(p.name for p in (site / "models").iterdir())
    assert pages == sorted(page_name(m) for m in [*MODELS, EVIL_MODEL])
    index = (site / "index.html").read_text()
    for model in MODELS:
        assert f'href="models/{page_name(model)}"' in index
    # every ranked line but the last says how it stands over the next one, and so does
    # the test of each adjacent pair under the board
    lines = index.count('<tr class="line"')
    orders = index.count('class="order decisive"') + index.count('class="order not-decisive"')
    assert lines == len(MODELS) + 1 and orders == 2 * (lines - 1)
    assert (site / "viewer.html").stat().st_size > 10_000
    # every viewer link of a model page points at the viewer beside the index
    oracle = (site / "models" / page_name("scripted/oracle")).read_text()
    links = re.findall(r'href="([^"]*#filter=[^"]*)"', oracle)
    assert links and all(link.startswith("../viewer.html#filter=") for link in links)
    assert "model:scripted%2Foracle" in html.unescape(links[0])


def test_hostile_text_is_escaped_on_every_page(site: Path) -> None:
    for page in [site / "index.html", *(site / "models").iterdir()]:
        text = page.read_text()
        assert "<img src=x" not in text, page
        assert "<script>window" not in text, page
        assert "<script" not in text, page  # no script at all on the index and model pages
    evil = (site / "models" / page_name(EVIL_MODEL)).read_text()
    assert str(markupsafe.escape(EVIL_MODEL)) in evil
    assert HOSTILE_ANSWER not in (site / "viewer.html").read_text()


def test_the_command_writes_the_site_and_refuses_bad_input(site: Path, tmp_path: Path) -> None:
    run = site.parent / "run"
    out = tmp_path / "web"
    result = CliRunner().invoke(
        app, ["leaderboard", str(run), "--out", str(out), "-m", "scripted/oracle,scripted/naive"]
    )
    assert result.exit_code == 0, result.output
    assert f"open {out / 'index.html'}" in result.output.replace("\n", "")
    assert sorted(p.name for p in (out / "models").iterdir()) == sorted(
        page_name(m) for m in ["scripted/oracle", "scripted/naive"]
    )
    for args, says in [
        ([str(tmp_path / "nothing"), "--out", str(out)], "does not exist"),
        ([str(run), "--out", str(out), "-m", "scripted/absent"], "scripted/absent"),
        ([str(run), "--out", str(out), "--html-episodes", "-1"], "--html-episodes"),
        ([str(run), "--out", "/proc/no-site"], "cannot write the site"),
    ]:
        result = CliRunner().invoke(app, ["leaderboard", *args])
        assert result.exit_code == 2, (args, result.output)
        assert says in result.output
        assert "Traceback" not in result.output
