"""The own-tools part of a report: pass rates clean vs under hazard, and what the agent did.

Every table is a function of the stored episodes: the hazard events of each call, what the
agent saw there, its next move after the first anomaly, the caller's verdict, and for the
failed hazard-arm episodes their failure behaviour (:mod:`toolchaos.scoring.behaviour`, the
rules ToolBench-X labels with).

Own tools have no recovery recipe, so ``R_t``'s reference is measured: the tool calls of
the target's passed clean-arm episodes (their low median, every agent pooled, so agents
are compared against the same reference, as a suite's recipe does). A target without a
passed clean episode has no reference; its failed episodes use 1, which leaves
Under-utilization out of reach (any call after an anomaly makes ``R_t >= 1``), and the
table's note counts them.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from toolchaos.scoring.answer import normalize, score_answer
from toolchaos.scoring.behaviour import (
    ThresholdRule,
    Thresholds,
    TraceFacts,
    behaviour_table,
    diagnose,
    diagnostics_frame,
    resolve_thresholds,
    trace_facts,
)
from toolchaos.scoring.tables import episode_record, scorable, scorable_mask
from toolchaos.stats.agreement import wilson
from toolchaos.suites.base import Contribution, EpisodeReader, ReportTable, RunData
from toolchaos.suites.own_tools.task import SUITE_NAME, VERDICT_FAIL, VERDICT_PASS, OwnToolsTask

ACTIONS = ("retry_same", "retry_changed", "switch", "terminate")
SEEN_CHARS = 160


def has_verdict(end_state: str | None, task: OwnToolsTask | None) -> bool:
    """Whether an episode can be scored: the caller gave a verdict, or the target an answer.

    A proxy episode carries neither, so it is counted as unscored, never as failed.
    """
    return end_state in (VERDICT_PASS, VERDICT_FAIL) or bool(task is not None and task.answer)


def verdict(end_state: str | None, final_answer: str, task: OwnToolsTask | None) -> bool:
    """Whether an episode passed: the caller's verdict, else the reference answer."""
    if end_state in (VERDICT_PASS, VERDICT_FAIL):
        return end_state == VERDICT_PASS
    if task is not None and task.answer:
        return score_answer(final_answer, task.answer, []).correct
    return False


@dataclass
class EpisodeFacts:
    """What one stored episode shows about the agent under its hazards."""

    model: str
    task_id: str
    arm: str
    correct: bool
    families: list[str]
    action: str
    after: int
    events: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    run: str = ""
    scored: bool = True
    """False when the episode has no verdict and its target no answer (e.g. a proxy's)."""
    trace: TraceFacts | None = None
    """The generic trajectory facts (hazard arm only), before the reference is known."""


def _parsed(raw: Any) -> Any:
    try:
        return json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return raw


def next_move(trace: Sequence[Mapping[str, Any]], index: int) -> str:
    """The agent's move after the anomaly at ``trace[index]``.

    ``retry_same`` / ``retry_changed``: the same tool again, with the same or other
    arguments; ``switch``: another tool; ``terminate``: no further call.
    """
    if index + 1 >= len(trace):
        return "terminate"
    here, there = trace[index]["call"], trace[index + 1]["call"]
    if there["name"] != here["name"]:
        return "switch"
    same = _parsed(there["arguments"]) == _parsed(here["arguments"])
    return "retry_same" if same else "retry_changed"


def observe(
    episode: Mapping[str, Any], correct: bool, run: str = "", scored: bool = True
) -> EpisodeFacts:
    """The facts of one episode (its stored JSON); ``scored`` False: it has no verdict."""
    trace = episode.get("trace", [])
    first = next(
        (
            i
            for i, entry in enumerate(trace)
            if not entry["observation"]["ok"] or entry["observation"].get("hazard_events")
        ),
        None,
    )
    events = []
    for i, entry in enumerate(trace):
        seen = json.dumps(entry["observation"]["content"], sort_keys=True)
        for event in entry["observation"].get("hazard_events", []):
            events.append(
                {
                    **event,
                    "seen": seen[:SEEN_CHARS],
                    "next": next_move(trace, i),
                }
            )
    families = sorted({e["family"] for e in events})
    arm = str(episode["arm"])
    generic = None
    if arm != "clean" and scored:
        # the reference is only known once every run is read (see reference_calls)
        family = "+".join(families) or "none"
        generic = trace_facts(episode, reference_calls=1, family=family, correct=correct)
    return EpisodeFacts(
        model=str(episode["model"]),
        task_id=str(episode["task_id"]),
        arm=str(episode["arm"]),
        correct=correct,
        families=families,
        action="none" if first is None else next_move(trace, first),
        after=0 if first is None else len(trace) - first - 1,
        events=events,
        calls=len(trace),
        run=run,
        scored=scored,
        trace=generic,
    )


def reference_calls(facts: Sequence[EpisodeFacts]) -> dict[str, int]:
    """``R_t``'s reference per target: the low median of its passed clean episodes' calls.

    The low median is a count some clean episode actually made; every agent is pooled,
    so the reference is the target's, not one agent's.
    """
    clean: dict[str, list[int]] = {}
    for fact in facts:
        if fact.arm == "clean" and fact.correct:
            clean.setdefault(fact.task_id, []).append(fact.calls)
    return {target: int(statistics.median_low(calls)) for target, calls in clean.items()}


def with_reference(facts: TraceFacts, reference: int) -> TraceFacts:
    """``facts`` with ``R_t`` measured against ``reference`` calls (at least 1)."""
    reference = max(1, reference)
    return facts.model_copy(
        update={"reference_calls": reference, "call_ratio": facts.tool_calls / reference}
    )


def _rate_columns(k: int, n: int) -> dict[str, Any]:
    rate = wilson(k, n)
    return {
        "n": n,
        "passed": k,
        "pass_rate": None if rate.rate is None else round(rate.rate, 4),
        "ci_low": None if rate.low is None else round(rate.low, 4),
        "ci_high": None if rate.high is None else round(rate.high, 4),
    }


class OwnToolsReport:
    """Pass rates per arm and hazard family, post-anomaly moves, and the hazard event log."""

    def __init__(self, thresholds: ThresholdRule | None = None) -> None:
        self.rule: ThresholdRule = thresholds or Thresholds()
        self.facts: list[EpisodeFacts] = []

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: EpisodeReader
    ) -> pd.DataFrame:
        """One row per episode; ``correct`` is the caller's verdict (or the answer's match)."""
        records = []
        for row in summaries:
            task = tasks.get(row["task_id"])
            finished = row["status"] == "finished"
            correct = finished and verdict(row["end_state"], row["final_answer"], task)
            unscored = finished and not has_verdict(row["end_state"], task)
            families = sorted({h.family.value for h in task.hazards}) if task else []
            records.append(
                episode_record(
                    row,
                    bool(correct),
                    vote_key=row["end_state"] or normalize(row["final_answer"]),
                    workflow="own-tools",
                    family="+".join(families) if row["arm"] != "clean" and families else "none",
                    n_events=row["n_events"],
                    unscored=int(unscored),
                )
            )
        return pd.DataFrame.from_records(records)

    def read_run(self, data: RunData) -> None:
        """Observe every finished own-tools episode of the run."""
        frame = data.frame
        if frame.empty:
            return
        mine = frame[(frame["suite"] == SUITE_NAME) & scorable_mask(frame)]
        correct = dict(zip(mine["key"], mine["correct"].astype(bool), strict=True))
        unscored = dict(zip(mine["key"], mine["unscored"].astype(bool), strict=True))
        for key, text in data.store.episode_json(keys=list(correct)):
            facts = observe(json.loads(text), correct[key], data.run, not unscored[key])
            self.facts.append(facts)

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """The own-tools tables over every run."""
        out = Contribution()
        finished = scorable(frame)
        rows = []
        for (model, task_id, arm), group in finished.groupby(["model", "task_id", "arm"]):
            scored = group[group["unscored"] == 0]
            k, n = int(scored["correct"].sum()), len(scored)
            rate = {"model": model, "target": task_id, "arm": arm, **_rate_columns(k, n)}
            rate["unscored"] = len(group) - n
            rows.append(rate)
        unscored = sum(r["unscored"] for r in rows)
        if not unscored:
            rows = [{k: v for k, v in r.items() if k != "unscored"} for r in rows]
        else:
            out.notes.append(
                f"Own tools: {unscored} episode(s) carry no verdict and their target no "
                "reference answer (a proxy records none): they are unscored, counted in "
                "no pass rate; pass a verdict (finish(passed=...)) or give the plan an answer."
            )
        out.tables.append(
            ReportTable(
                "own_tools_pass",
                "Own tools: pass rate clean vs under hazard (95% Wilson interval)",
                pd.DataFrame(rows),
                _link,
            )
        )
        # an unscored episode (no verdict) shows its moves and events, never a pass or fail
        moved = [f for f in self.facts if f.arm != "clean"]
        hazarded = [f for f in moved if f.scored]
        by_family: dict[tuple[str, str], list[bool]] = {}
        for fact in hazarded:
            for family in fact.families or ["none fired"]:
                by_family.setdefault((fact.model, family), []).append(fact.correct)
        family_rows = [
            {"model": m, "family": fam, **_rate_columns(sum(v), len(v))}
            for (m, fam), v in sorted(by_family.items())
        ]
        out.tables.append(
            ReportTable(
                "own_tools_families",
                "Own tools: pass rate per hazard family that fired (95% Wilson interval)",
                pd.DataFrame(family_rows),
                _link,
            )
        )
        action_rows = []
        for model in sorted({f.model for f in moved}):
            mine = [f for f in moved if f.model == model and f.action != "none"]
            if not mine:
                continue
            row: dict[str, Any] = {"model": model, "anomalies": len(mine)}
            for action in ACTIONS:
                row[action] = round(sum(f.action == action for f in mine) / len(mine), 4)
            judged = [f for f in mine if f.scored]
            row["recovered"] = (
                round(sum(f.correct for f in judged) / len(judged), 4) if judged else None
            )
            row["calls_after"] = round(sum(f.after for f in mine) / len(mine), 2)
            action_rows.append(row)
        out.tables.append(
            ReportTable(
                "own_tools_actions",
                "Own tools: the agent's move after the first anomaly",
                pd.DataFrame(action_rows),
                _link,
                note="Shares of the hazarded episodes that met an anomaly; recovered = passed "
                "(over the episodes with a verdict).",
            )
        )
        behaviours, labels, note = self._behaviours(hazarded)
        out.labels = labels
        if note:
            out.notes.append(note)
        out.tables.append(behaviours)
        behaviour_of = dict(zip(labels.get("key", []), labels.get("behaviour", []), strict=True))
        event_rows = [
            {
                "model": f.model,
                "target": f.task_id,
                "arm": f.arm,
                "tool": e["tool"],
                "ordinal": e["ordinal"],
                "family": e["family"],
                "variant": e["variant"],
                "detail": e["detail"],
                "agent_saw": e["seen"],
                "next_move": e["next"],
                "passed": int(f.correct) if f.scored else None,
                "behaviour": behaviour_of.get(f.trace.key if f.trace else "", ""),
            }
            for f in moved
            for e in f.events
        ]
        out.tables.append(
            ReportTable(
                "own_tools_events",
                "Own tools: every hazard event, what the agent saw and its next move",
                pd.DataFrame(event_rows),
                _link,
            )
        )
        return out

    def _behaviours(
        self, hazarded: Sequence[EpisodeFacts]
    ) -> tuple[ReportTable, pd.DataFrame, str]:
        """The failure-behaviour table, the per-episode labels and the thresholds note."""
        references = reference_calls(self.facts)
        facts, runs, missing = [], [], 0
        for fact in hazarded:
            if fact.trace is None:
                continue
            reference = references.get(fact.task_id)
            missing += reference is None and not fact.correct
            facts.append(with_reference(fact.trace, reference or 1))
            runs.append(fact.run)
        thresholds = resolve_thresholds(facts, self.rule)
        labels = diagnostics_frame(diagnose(facts, thresholds)) if facts else pd.DataFrame()
        if not labels.empty:
            labels.insert(0, "run", runs)
        note = (
            "Shares of the failed hazard-arm episodes; 'all' pools every agent. R_t's "
            "reference: the tool calls of the target's passed clean episodes (low median)."
        )
        if missing:
            note += f" {missing} failed episode(s) had no passed clean episode and use 1."
        table = ReportTable(
            "own_tools_behaviours",
            "Own tools: failure behaviour of the failed episodes under hazard; "
            + thresholds.describe(),
            behaviour_table(labels),
            _link,
            note=note,
        )
        return table, labels, f"Own-tools failure-behaviour thresholds: {thresholds.describe()}."


def _link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    found = {k: str(row[k]) for k in ("model", "arm", "family") if k in row}
    return found or None
