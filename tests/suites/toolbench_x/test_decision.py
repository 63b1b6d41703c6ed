import asyncio

from conftest import HAZARDS, make_task
from toolchaos.agents.native import LoopConfig
from toolchaos.core.types import Episode
from toolchaos.env.runtime import Env
from toolchaos.suites.scripted import ScriptedFactory
from toolchaos.suites.toolbench_x.decision import parse_decision, run_decision
from toolchaos.suites.toolbench_x.validate import episode_correct


def play(mode: str, variant: str, arm: str) -> tuple[bool, Episode]:
    task = make_task(hazard=HAZARDS[variant]())
    env = Env(task, arm)
    client = ScriptedFactory(mode).for_episode(task, arm, 0)
    result = asyncio.run(run_decision(task, arm, env, client, LoopConfig()))
    episode = Episode(
        key="k",
        suite="toolbench-x",
        task_id=task.id,
        model=mode,
        protocol="decision",
        arm=arm,
        messages=result.messages,
        final_answer=result.final_answer,
        end_state=env.end_state(),
    )
    return episode_correct(episode, task), episode


def test_decisions_are_parsed_strictly() -> None:
    assert parse_decision('{"action": "call_tool", "tool": "get_weather"}') == {
        "action": "call_tool",
        "tool": "get_weather",
    }
    assert parse_decision('Sure! {"action": "finish", "answer": "42"}')["answer"] == "42"
    assert parse_decision('{"action": "call_tool"}') is None  # no tool named
    assert parse_decision('{"action": "dance", "tool": "x"}') is None
    assert parse_decision("I will call get_weather") is None
    assert parse_decision(None) is None


def test_baselines_under_the_decision_protocol() -> None:
    for variant in ("transient", "outage", "renamed_field"):
        assert play("oracle", variant, "hazard")[0]
        assert play("naive", variant, "clean")[0]
        assert not play("naive", variant, "hazard")[0]
    _, episode = play("oracle", "outage", "hazard")
    decisions = [m.content for m in episode.messages if m.role == "assistant" and m.content]
    assert any('"fallback"' in d for d in decisions)
    assert any('"finish"' in d for d in decisions)
