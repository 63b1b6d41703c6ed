"""The HTML report in headless Chromium: it renders, filters, and keeps hostile text inert.

Needs Debian's chromium and chromium-driver and the selenium package. Where they are
missing the session installs them once (as root, with apt-get, under a file lock);
where it cannot, these tests skip and say why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripted_runs import EVIL_MODEL, HOSTILE_TOOL, make_hostile, play

from toolchaos.report.html import write_html
from toolchaos.report.tables import build_report


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = play(
        tmp_path_factory.mktemp("html") / "run",
        ["scripted/oracle", "scripted/naive", "scripted/retry"],
        ["clean", "hazard", "hint"],
        subset=10,
    )
    make_hostile(run)
    return write_html(build_report([run]), run / "report.html", max_episodes=200)


def _open(browser: Any, page: Path, fragment: str = "") -> None:
    browser.get("about:blank")  # a new document, so a changed fragment reloads
    browser.get(page.as_uri() + fragment)


def _episodes(browser: Any) -> list[Any]:
    return browser.find_elements("css selector", "#episodes details.episode")


def _expand(browser: Any, episode: Any) -> str:
    """Open one episode and return its text once the page has built the trace.

    The trace is built on the ``toggle`` event, which the browser fires after the
    click returns, so the test waits for it rather than racing it.
    """
    from selenium.webdriver.support.ui import WebDriverWait

    episode.find_element("css selector", "summary").click()
    WebDriverWait(browser, 10).until(lambda _: episode.get_attribute("data-built") == "1")
    return str(episode.text)


def test_the_page_renders_tables_and_figures(browser: Any, page: Path) -> None:
    _open(browser, page)
    assert browser.title == "toolchaos report"
    tables = browser.find_elements("css selector", "table.data")
    assert len(tables) >= 6
    names = {t.get_attribute("data-table") for t in tables}
    assert {"accuracy", "actions", "behaviours"} <= names
    images = browser.find_elements("css selector", "figure img")
    assert len(images) == 4  # family accuracy, actions, behaviours, cost of recovery
    for image in images:
        assert browser.execute_script("return arguments[0].complete", image)
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 0
    assert _episodes(browser)  # the viewer lists episodes with no filter


def test_filtering_by_model_and_arm_shows_only_matching_episodes(browser: Any, page: Path) -> None:
    _open(browser, page, "#filter=model:scripted%2Fretry;arm:hazard")
    shown = _episodes(browser)
    assert shown
    for item in shown:
        assert item.get_attribute("data-model") == "scripted/retry"
        assert item.get_attribute("data-arm") == "hazard"
    assert browser.find_element("id", "f-model").get_attribute("value") == "scripted/retry"
    # choosing in the selects filters too, and writes the filter into the address
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "f-arm")).select_by_value("clean")
    Select(browser.find_element("id", "f-model")).select_by_value("scripted/oracle")
    shown = _episodes(browser)
    assert shown and {
        (e.get_attribute("data-model"), e.get_attribute("data-arm")) for e in shown
    } == {("scripted/oracle", "clean")}
    assert browser.execute_script("return location.hash") == (
        "#filter=model:scripted%2Foracle;arm:clean"
    )


def test_a_table_cell_link_opens_its_episodes(browser: Any, page: Path) -> None:
    _open(browser, page)
    link = browser.find_element(
        "css selector", 'table[data-table="behaviours"] a[href*="label:early_abandonment"]'
    )
    target = link.get_attribute("href").split("#", 1)[1]
    browser.execute_script("arguments[0].click()", link)
    assert browser.execute_script("return location.hash") == "#" + target
    shown = _episodes(browser)
    assert shown
    for item in shown:
        assert "early_abandonment" in item.get_attribute("data-labels").split()
    assert "in the runs" in browser.find_element("id", "count").text


def test_hostile_text_is_shown_as_text_and_never_runs(browser: Any, page: Path) -> None:
    _open(browser, page)
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    models = [
        o.get_attribute("value") for o in browser.find_elements("css selector", "#f-model option")
    ]
    assert EVIL_MODEL in models
    # the evil model's name is a table cell, as text
    cells = [
        c.text for c in browser.find_elements("css selector", 'table[data-table="accuracy"] td')
    ]
    assert EVIL_MODEL in cells
    browser.execute_script(
        "var box = document.getElementById('f-model'); box.value = arguments[0];"
        "box.dispatchEvent(new Event('change'));",
        EVIL_MODEL,
    )
    shown = _episodes(browser)
    assert len(shown) == 1
    text = _expand(browser, shown[0])
    assert "<script>window.__pwned=1</script>" in text
    assert '<img src=x onerror="window.__pwned=2">' in text
    assert "\u241b[31mred\u241b[0m\u2407" in text  # ESC and BEL shown as symbols
    assert HOSTILE_TOOL in text
    assert not browser.find_elements("css selector", "#episodes img, #episodes script")
    assert browser.execute_script("return typeof window.__pwned") == "undefined"


@pytest.fixture(scope="module")
def two_suites_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One model in both suites: the viewer must keep their episodes apart."""
    from rich.console import Console

    from toolchaos.runner.run import RunConfig, run

    root = tmp_path_factory.mktemp("html-suites")
    tbx = play(root / "tbx", ["scripted/oracle"], ["clean", "hazard"], subset=8)
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=8)
    run(config, root / "tfb", Console(quiet=True))
    return write_html(build_report([tbx, root / "tfb"]), root / "report.html")


def test_a_table_link_opens_only_its_suites_episodes(browser: Any, two_suites_page: Path) -> None:
    _open(browser, two_suites_page)
    href = "#filter=suite:toolbench-x;model:scripted%2Foracle;arm:clean"
    links = browser.find_elements("css selector", f'table[data-table="accuracy"] a[href="{href}"]')
    assert links
    n = next(int(a.text) for a in links if a.text.isdigit())  # the row's n (before bad_calls)
    browser.execute_script("arguments[0].click()", links[0])
    shown = _episodes(browser)
    assert shown
    assert {e.get_attribute("data-suite") for e in shown} == {"toolbench-x"}
    assert browser.find_element("id", "f-suite").get_attribute("value") == "toolbench-x"
    assert len(shown) == n
    # a clean-arm episode says no hazard fired
    assert all("no hazard" in e.find_element("css selector", "summary").text for e in shown)


def test_the_suite_filter_and_the_task_search(browser: Any, two_suites_page: Path) -> None:
    from selenium.webdriver.support.ui import Select

    _open(browser, two_suites_page)
    Select(browser.find_element("id", "f-suite")).select_by_value("toolfailbench")
    shown = _episodes(browser)
    assert shown and {e.get_attribute("data-suite") for e in shown} == {"toolfailbench"}
    wanted = shown[0].get_attribute("data-task")
    search = browser.find_element("id", "f-task")
    search.send_keys(wanted.upper())  # a part of an id, in any case
    shown = _episodes(browser)
    assert [e.get_attribute("data-task") for e in shown] == [wanted]
    assert browser.execute_script("return location.hash").endswith(
        "task:" + wanted.upper().replace("/", "%2F")
    )
    _open(browser, two_suites_page, "#filter=task:" + wanted)  # the address does the same
    assert [e.get_attribute("data-task") for e in _episodes(browser)] == [wanted]


@pytest.fixture(scope="module")
def leaderboard_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both suites, several models each: the widest tables the report writes."""
    from rich.console import Console

    from toolchaos.runner.run import RunConfig, run

    root = tmp_path_factory.mktemp("html-wide")
    tbx = play(root / "tbx", ["scripted/oracle", "scripted/naive"], ["clean", "hazard"], subset=6)
    models = ["scripted/oracle", "scripted/skip", "scripted/fabricate", "scripted/ignore"]
    run(
        RunConfig(suite="toolfailbench", models=models, subset=10),
        root / "tfb",
        Console(quiet=True),
    )
    return write_html(build_report([tbx, root / "tfb"]), root / "report.html")


def test_the_headline_comes_first_and_every_table_fits_1400_px(
    browser: Any, leaderboard_page: Path, test_output: Path
) -> None:
    browser.set_window_size(1400, 1000)
    try:
        _open(browser, leaderboard_page)
        blocks = browser.find_elements("css selector", "#headline .headline-block")
        titles = [b.find_element("css selector", "h3").text for b in blocks]
        assert [t.split()[0] for t in titles] == ["ToolBench-X", "ToolFailBench"], titles
        assert "scripted/oracle" in blocks[1].text and "100.0%" in blocks[1].text
        first_table = browser.find_element("css selector", "table.data")
        assert blocks[0].location["y"] < first_table.location["y"]  # read before any table
        # nothing wider than the window: neither the page nor any table in it
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        overflowing = browser.execute_script(
            "return [...document.querySelectorAll('table.data')]"
            ".filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth)"
            ".map(t => t.dataset.table)"
        )
        assert overflowing == []
        # every table says which suite it belongs to, and the groups follow the suites
        tags = browser.find_elements("css selector", "#tables h3 .suite-tag")
        assert len(tags) == len(browser.find_elements("css selector", "table.data"))
        groups = [
            g.get_attribute("data-suite")
            for g in browser.find_elements("css selector", "h2.suite-group")
        ]
        assert groups == ["all suites", "toolbench-x", "toolfailbench", "all suites"]
        # the usage table keeps the suites apart; figures carry their title once (in the image)
        usage = browser.find_element("css selector", 'table[data-table="usage"]').text
        assert "toolbench-x" in usage and "toolfailbench" in usage
        assert not browser.find_elements("css selector", "figcaption")
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1400, min(int(height), 12000))
        shot = test_output / "report-1400px.png"
        browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        browser.set_window_size(1280, 1600)
