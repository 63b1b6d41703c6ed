"""The leaderboard site in headless Chromium: ranked, linked, and hostile text inert.

Screenshots of the index, a model page and the viewer a model page links to go into the
test output folder (the ``test_output`` fixture: ``test-output/`` unless
``$TOOLCHAOS_TEST_OUTPUT`` says otherwise). Needs Chromium, as tests/report/test_html_browser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from scripted_runs import EVIL_MODEL, HOSTILE_ANSWER, make_hostile, play

from toolchaos.report.site import page_name, write_site
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both suites; ToolBench-X with two models that differ and two that tie."""
    root = tmp_path_factory.mktemp("site-browser")
    tbx = play(
        root / "tbx",
        ["scripted/oracle", "scripted/naive", "scripted/retry"],
        ["clean", "hazard", "hint"],
        subset=10,
    )
    make_hostile(tbx)
    models = ["scripted/oracle", "scripted/skip", "scripted/fabricate"]
    run(
        RunConfig(suite="toolfailbench", models=models, subset=10),
        root / "tfb",
        Console(quiet=True),
    )
    out = root / "site"
    write_site(build_report([tbx, root / "tfb"]), out, max_episodes=300)
    return out


def _shot(browser: Any, path: Path) -> None:
    """A full-page screenshot (the window stretched to the page, then put back)."""
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1400, min(int(height), 8000))
    try:
        browser.save_screenshot(str(path))
    finally:
        browser.set_window_size(1280, 1600)
    assert path.stat().st_size > 10_000


def _lines(browser: Any, suite: str, arm: str) -> list[tuple[str, str]]:
    table = browser.find_element(
        "css selector", f'table.board[data-suite="{suite}"][data-arm="{arm}"]'
    )
    rows = table.find_elements("css selector", "tr.line")
    return [
        (r.get_attribute("data-model"), r.find_element("css selector", "td.order").text)
        for r in rows
    ]


def test_the_index_ranks_with_intervals_and_decisiveness(
    browser: Any, site: Path, test_output: Path
) -> None:
    browser.get((site / "index.html").as_uri())
    assert browser.title == "toolchaos leaderboard"
    # ToolFailBench: the oracle's 7 of 7 against fabricate's 0 of 7 is decisive
    assert _lines(browser, "toolfailbench", "clean")[0] == ("scripted/oracle", "decisive")
    # ToolBench-X: naive and retry both fail every hazard task, a tie that is not decisive;
    # the oracle's next line is the hostile model, which shares one task with it: neither
    lines = _lines(browser, "toolbench-x", "hazard")
    assert lines[0] == ("scripted/oracle", "not decisive")
    assert ("scripted/naive", "not decisive") in lines
    bars = browser.find_elements("css selector", "table.board .bar-track")
    assert len(bars) == len(browser.find_elements("css selector", "table.board tr.line"))
    assert browser.find_elements(
        "css selector", 'table.data[data-table="toolfailbench_leaderboard"]'
    )
    assert browser.find_elements("css selector", 'table.data[data-table="arms"]')
    _shot(browser, test_output / "leaderboard-index.png")


def test_a_model_page_holds_its_results_and_opens_its_episodes(
    browser: Any, site: Path, test_output: Path
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get((site / "index.html").as_uri())
    link = browser.find_element(
        "css selector", f'table.board a.model[href$="{page_name("scripted/naive")}"]'
    )
    browser.execute_script("arguments[0].click()", link)
    WebDriverWait(browser, 10).until(lambda b: b.title.startswith("scripted/naive"))
    assert browser.find_element("id", "model-name").text == "scripted/naive"
    names = {
        t.get_attribute("data-table") for t in browser.find_elements("css selector", "table.data")
    }
    assert {"by_family", "by_tier", "behaviours", "actions", "recovery_cost"} <= names
    place = browser.find_element("css selector", 'p.place[data-suite="toolbench-x"]').text
    assert "rank 2 of 4" in place, place  # oracle, then the hostile, naive and retry tied
    _shot(browser, test_output / "leaderboard-model-scripted-naive.png")
    # a family cell opens the viewer filtered to this model's episodes of that family
    cell = browser.find_element(
        "css selector", 'table[data-table="by_family"] a[href*="family:invocation_error"]'
    )
    browser.execute_script("arguments[0].click()", cell)
    WebDriverWait(browser, 10).until(lambda b: b.title == "toolchaos report")
    shown = browser.find_elements("css selector", "#episodes details.episode")
    assert shown
    assert {e.get_attribute("data-model") for e in shown} == {"scripted/naive"}
    assert {e.get_attribute("data-family") for e in shown} <= {"invocation_error"}
    assert "in the runs" in browser.find_element("id", "count").text
    _shot(browser, test_output / "leaderboard-viewer-from-model-page.png")


def test_hostile_model_text_is_inert_on_the_site(browser: Any, site: Path) -> None:
    browser.get((site / "index.html").as_uri())
    names = [a.text for a in browser.find_elements("css selector", "#models a")]
    assert EVIL_MODEL in names  # shown as text
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert not browser.find_elements("css selector", "main img, main script")
    evil = next(
        a for a in browser.find_elements("css selector", "#models a") if a.text == EVIL_MODEL
    )
    browser.execute_script("arguments[0].click()", evil)
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda b: EVIL_MODEL in b.title)
    assert browser.find_element("id", "model-name").text == EVIL_MODEL
    assert not browser.find_elements("css selector", "img, script")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    # its episodes in the viewer: the hostile answer shown as text, nothing run
    everything = browser.find_element("id", "all-episodes")
    browser.execute_script("arguments[0].click()", everything)
    WebDriverWait(browser, 10).until(lambda b: b.title == "toolchaos report")
    shown = browser.find_elements("css selector", "#episodes details.episode")
    assert len(shown) == 1
    shown[0].find_element("css selector", "summary").click()
    WebDriverWait(browser, 10).until(lambda _: shown[0].get_attribute("data-built") == "1")
    assert "<script>window.__pwned=1</script>" in shown[0].text
    assert HOSTILE_ANSWER.split(" and ")[0] in shown[0].text
    assert not browser.find_elements("css selector", "#episodes img, #episodes script")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
