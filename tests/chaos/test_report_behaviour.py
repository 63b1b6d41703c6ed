"""The own-tools report labels failed hazard-arm episodes with the suites' failure behaviours."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from own_weather import TOOLS, TRUE_TEMP

from toolchaos.chaos import ChaosToolbox
from toolchaos.chaos.record import RunRecorder
from toolchaos.report.tables import build_report
from toolchaos.scoring.behaviour import BEHAVIOUR_ORDER
from toolchaos.suites.base import ReportOptions
from toolchaos.suites.own_tools.report import EpisodeFacts, reference_calls

OUTAGE = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}
Agent = Callable[[Any], str]


def three_sources(episode: Any) -> str:
    """A careful agent: asks all three providers (the reference is 3 calls)."""
    for tool in ("get_weather", "weather_backup", "weather_third"):
        episode.call(tool, {"city": "Oslo"})
    return str(TRUE_TEMP)


def one_call(episode: Any) -> str:
    observation = episode.call("get_weather", {"city": "Oslo"})
    return str(observation.content.get("temp_c", "unknown"))


def gives_up(episode: Any) -> str:
    """Stops at the first error: Early Abandonment (A_t = 0)."""
    one_call(episode)
    return "unknown"


def hammers(episode: Any) -> str:
    """Retries the dead tool three more times: Ineffective Continuation (A_t >= 3)."""
    for _ in range(4):
        episode.call("get_weather", {"city": "Oslo"})
    return "unknown"


def one_more(episode: Any) -> str:
    """Switches once, then answers wrongly: A_t = 1, R_t = 2 / reference."""
    episode.call("get_weather", {"city": "Oslo"})
    episode.call("weather_backup", {"city": "Oslo"})
    return "20"


def section(report: Any) -> Any:
    return next(t for t in report.sections if t.name == "own_tools_behaviours")


def play(store: RunRecorder, target: str, model: str, agent: Agent, arm: str) -> None:
    box = ChaosToolbox(TOOLS, OUTAGE, store=store, target=target, model=model)
    episode = box.episode(arm)
    answer = agent(episode)
    episode.finish(answer, passed=answer == str(TRUE_TEMP))


def test_each_behaviour_and_its_reference(tmp_path: Path) -> None:
    with RunRecorder(tmp_path / "run") as store:
        # target "careful": the passed clean episode made 3 calls
        play(store, "careful", "reference", three_sources, "clean")
        play(store, "careful", "switcher", one_more, "hazard")  # R_t = 2/3: under-utilization
        # target "quick": the passed clean episode made 1 call
        play(store, "quick", "reference", one_call, "clean")
        play(store, "quick", "switcher", one_more, "hazard")  # R_t = 2: answer synthesis
        play(store, "quick", "quitter", gives_up, "hazard")
        play(store, "quick", "hammer", hammers, "hazard")
    report = build_report([tmp_path / "run"])
    labels = report.labels.set_index(["task_id", "model"])
    assert labels.loc[("careful", "switcher"), "behaviour"] == "under_utilization"
    assert labels.loc[("careful", "switcher"), "reference_calls"] == 3
    assert labels.loc[("quick", "switcher"), "behaviour"] == "answer_synthesis_failure"
    assert labels.loc[("quick", "quitter"), "behaviour"] == "early_abandonment"
    assert labels.loc[("quick", "hammer"), "behaviour"] == "ineffective_continuation"
    assert labels.loc[("quick", "hammer"), "calls_after_anomaly"] == 3
    assert set(labels["run"]) == {str(tmp_path / "run")}

    table = report.tables["own_tools_behaviours"].set_index("model")
    assert table.loc["all", "failed"] == 4
    assert list(table.columns) == ["failed", *BEHAVIOUR_ORDER]
    assert table.loc["hammer", "ineffective_continuation"] == 1.0
    assert table.loc["switcher", "under_utilization"] == 0.5
    assert table.loc["switcher", "answer_synthesis_failure"] == 0.5
    assert section(report).title.endswith("tau_A=3, tau_R=1.00 (default)")

    events = report.tables["own_tools_events"]
    assert dict(zip(events["model"], events["behaviour"], strict=False))["quitter"] == (
        "early_abandonment"
    )
    # the passes and the move after the first anomaly are still there, beside them
    assert {"own_tools_pass", "own_tools_actions"} <= set(report.tables)


def test_passed_episodes_are_not_labelled_and_no_reference_is_counted(tmp_path: Path) -> None:
    with RunRecorder(tmp_path / "run") as store:
        play(store, "lonely", "switcher", one_more, "hazard")  # no clean episode at all
        play(store, "lonely", "recoverer", three_sources, "hazard")
    report = build_report([tmp_path / "run"])
    labels = report.labels.set_index("model")
    assert labels.loc["recoverer", "behaviour"] == ""
    assert labels.loc["switcher", "reference_calls"] == 1
    assert "1 failed episode(s) had no passed clean episode" in section(report).note


def test_median_thresholds_from_the_report_options(tmp_path: Path) -> None:
    with RunRecorder(tmp_path / "run") as store:
        play(store, "quick", "reference", one_call, "clean")
        play(store, "quick", "hammer", hammers, "hazard")
        play(store, "quick", "quitter", gives_up, "hazard")
    report = build_report([tmp_path / "run"], ReportOptions(thresholds="median"))
    assert "medians over 2 failed episodes" in section(report).title


def test_reference_is_the_low_median_of_passed_clean_calls() -> None:
    def fact(arm: str, calls: int, correct: bool = True) -> EpisodeFacts:
        return EpisodeFacts("m", "t", arm, correct, [], "none", 0, calls=calls)

    facts = [fact("clean", 2), fact("clean", 5), fact("clean", 9, correct=False), fact("hazard", 7)]
    assert reference_calls(facts) == {"t": 2}


def test_the_own_tools_report_fits_80_columns(tmp_path: Path) -> None:
    """Long agent and target names, every own-tools table: nothing wider than the terminal."""
    import io

    from rich.console import Console

    from toolchaos.report.tables import print_report

    agents = {"switcher": one_more, "quitter": gives_up, "hammer": hammers}
    with RunRecorder(tmp_path / "run") as store:
        for target in ("weather-lookup-with-three-providers", "quick"):
            play(store, target, "openai-compat/reference-agent-long-name", one_call, "clean")
            for name, agent in agents.items():
                play(store, target, f"openai-compat/{name}-agent-with-a-long-name", agent, "hazard")
    report = build_report([tmp_path / "run"])
    assert {"own_tools_pass", "own_tools_behaviours", "own_tools_events"} <= set(report.tables)
    console = Console(width=80, record=True, file=io.StringIO())
    print_report(report, console, tmp_path)
    text = console.export_text()
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long[:3]
