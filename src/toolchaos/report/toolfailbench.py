"""ToolFailBench's part of a report: rule labels, the leaderboard, per-domain RIR, figures.

Each episode gets its rule-classifier label from its stored trace and answer. The
leaderboard gives, per model, TSR, CTUR, RIR and OFR as shares of the tool-required tasks
(they sum to 100%), RIR and OFR conditional on a call, and UTR and CTRL-Acc over the
controls, each with its 95% Wilson interval; a second table tests CTUR between models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, partial
from itertools import combinations
from typing import Any

import pandas as pd

from toolchaos.report.suites import Contribution
from toolchaos.report.tables import FigureSpec, ReportTable, RunData
from toolchaos.runner.store import Store
from toolchaos.scoring.answer import normalize
from toolchaos.scoring.toolfailbench import (
    ExecutedCall,
    executed_calls,
    failure_rates,
    keys,
    label_episode,
)
from toolchaos.stats.agreement import two_proportion_test, wilson
from toolchaos.suites.toolfailbench.domains import get_domain
from toolchaos.suites.toolfailbench.importer import RELEASE_DOMAIN

RATES = ("TSR", "CTUR", "RIR", "OFR", "RIR|call", "OFR|call", "UTR", "CTRL-Acc")


class ToolFailReport:
    """The ToolFailBench contributor (see :mod:`toolchaos.report.suites`)."""

    suite = "toolfailbench"

    def __init__(self) -> None:
        self.judgements: list[dict[str, Any]] = []

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: Store
    ) -> pd.DataFrame:
        """Label every episode with the rule classifier, from its stored trace."""
        traces: dict[str, list[ExecutedCall]] = {}
        keys = {row["key"] for row in summaries}
        for key, text in store.episode_json(keys=keys):
            episode = json.loads(text)
            traces[key] = executed_calls(episode.get("trace", []))
        records = []
        for row in summaries:
            task = tasks[row["task_id"]]
            finished = row["status"] == "finished"
            calls = traces.get(row["key"], [])
            verdict = None
            if finished:
                verdict = label_episode(task, calls, row["final_answer"], vocabulary(task))
            records.append(
                {
                    **{k: row[k] for k in ("key", "suite", "model", "protocol", "arm", "task_id")},
                    "sample": row["sample"],
                    "status": row["status"],
                    "error": int(not finished),
                    "correct": int(verdict is not None and verdict.label == "correct"),
                    "label": verdict.label if verdict else "error",
                    "explanation": verdict.explanation if verdict else row["error"],
                    "called": any(c.tool == task.expected_tool and c.ok for c in calls),
                    "kind": task.kind,
                    "domain": task.domain,
                    "mode": task.target_failure_mode,
                    "workflow": task.kind,
                    "family": "none",
                    "variant": "none",
                    "vote_key": normalize(row["final_answer"]),
                    "claims_call": bool(finished and claims_call(row["final_answer"], task)),
                    "n_calls": row["n_calls"],
                    "input_tokens": row["input_tokens"],
                    "output_tokens": row["output_tokens"],
                    "latency_s": row["latency_s"],
                    "model_calls": row["model_calls"],
                    "bad_calls": row["bad_calls"],
                }
            )
        return pd.DataFrame.from_records(records)

    def read_run(self, data: RunData) -> None:
        """Collect the judges' labels stored for this run (``toolchaos judge``)."""
        for row in data.store.judgements():
            self.judgements.append({**row, "run": data.run})

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """The leaderboard, CTUR tests between models, per-domain RIR and two figures."""
        out = Contribution()
        finished = frame[frame["error"] == 0]
        if finished.empty:
            return out
        board = leaderboard(finished)
        out.tables.append(
            ReportTable(
                "toolfailbench_leaderboard",
                "ToolFailBench: failure rates with 95% Wilson intervals",
                board,
                _model_link,
                note="TSR, CTUR, RIR and OFR are shares of the tool-required tasks (they sum "
                "to 1); RIR|call and OFR|call are over tasks where the tool ran; UTR and "
                "CTRL-Acc are over the controls.",
            )
        )
        tests = ctur_tests(finished)
        if not tests.empty:
            out.tables.append(
                ReportTable("toolfailbench_ctur_tests", "ToolFailBench: CTUR between models", tests)
            )
        per_domain = domain_rir(finished)
        out.tables.append(
            ReportTable("toolfailbench_rir_by_domain", "ToolFailBench: RIR per domain", per_domain)
        )
        out.figures += [
            FigureSpec("toolfailbench_utr_ctur", "UTR against CTUR", partial(draw_utr_ctur, board)),
            FigureSpec("toolfailbench_rir_domain", "RIR per domain", partial(draw_rir, per_domain)),
        ]
        if self.judgements:
            raters = rater_frame(finished, pd.DataFrame(self.judgements))
            out.tables.append(
                ReportTable(
                    "toolfailbench_agreement",
                    "ToolFailBench: rater agreement (Cohen's and Fleiss' kappa)",
                    agreement_table(raters),
                    note="Over episodes every rater labelled; a judge without a label leaves "
                    "the episode out of its pairs.",
                )
            )
            voted = finished.merge(raters[["run", "key", "ensemble"]], on=["run", "key"])
            voted = voted.assign(label=voted["ensemble"])
            out.tables.append(
                ReportTable(
                    "toolfailbench_leaderboard_ensemble",
                    "ToolFailBench: failure rates by the ensemble (rule, judge A, judge B)",
                    leaderboard(voted),
                    _model_link,
                )
            )
        claimed = finished[(finished["label"] == "tool_skip") & finished["claims_call"]]
        if not claimed.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_claimed_calls",
                    "ToolFailBench: answers citing a tool that never ran (counted as tool_skip)",
                    claimed[["model", "task_id", "domain"]].reset_index(drop=True),
                    _model_link,
                )
            )
        # the viewer filters on "behaviour": for this suite, the failure label
        labels = finished[["run", "key", "model", "arm", "task_id", "label", "explanation"]]
        labels = labels.rename(columns={"label": "behaviour"}).reset_index(drop=True)
        labels.insert(4, "action", "")
        out.labels = labels
        return out


def leaderboard(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per model: every headline rate with its interval."""
    rows = []
    for model, group in frame.groupby("model", sort=True):
        rates = failure_rates(list(group["label"]), list(group["kind"]), list(group["called"]))
        row: dict[str, Any] = {"model": model}
        row["required"] = int((group["kind"] == "tool_required").sum())
        row["controls"] = int((group["kind"] == "control").sum())
        for name in RATES:
            rate = rates[name]
            row[name] = None if rate.rate is None else round(rate.rate, 4)
            row[f"{name} 95% CI"] = (
                "-" if rate.low is None else f"[{rate.low:.3f}, {rate.high:.3f}]"
            )
        rows.append(row)
    return pd.DataFrame(rows)


def ctur_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Two-proportion z-tests of CTUR between every pair of models."""
    required = frame[frame["kind"] == "tool_required"]
    counts = {
        str(m): (int((g["label"] == "correct").sum()), len(g)) for m, g in required.groupby("model")
    }
    rows = []
    for a, b in combinations(sorted(counts), 2):
        p_value = two_proportion_test(*counts[a], *counts[b])
        rows.append(
            {
                "model_a": a,
                "model_b": b,
                "ctur_a": round(counts[a][0] / counts[a][1], 4) if counts[a][1] else None,
                "ctur_b": round(counts[b][0] / counts[b][1], 4) if counts[b][1] else None,
                "p_value": None if p_value is None else round(p_value, 6),
            }
        )
    return pd.DataFrame(rows)


def domain_rir(frame: pd.DataFrame) -> pd.DataFrame:
    """RIR per model and domain over the tool-required tasks."""
    required = frame[frame["kind"] == "tool_required"]
    rows = []
    for (model, domain), group in required.groupby(["model", "domain"], sort=True):
        rate = wilson(int((group["label"] == "result_ignore").sum()), len(group))
        rows.append(
            {
                "model": model,
                "domain": domain,
                "n": rate.n,
                "RIR": None if rate.rate is None else round(rate.rate, 4),
                "95% CI": "-" if rate.low is None else f"[{rate.low:.3f}, {rate.high:.3f}]",
            }
        )
    return pd.DataFrame(rows)


def draw_utr_ctur(board: pd.DataFrame, figure: Any) -> None:
    """UTR (x) against CTUR (y) per model, with Wilson interval bars."""
    axes = figure.subplots()
    for _, row in board.iterrows():
        x, y = row["UTR"], row["CTUR"]
        if x is None or y is None or pd.isna(x) or pd.isna(y):
            continue
        xlow, xhigh = _interval(row["UTR 95% CI"], x)
        ylow, yhigh = _interval(row["CTUR 95% CI"], y)
        axes.errorbar(x, y, xerr=[[x - xlow], [xhigh - x]], yerr=[[y - ylow], [yhigh - y]], fmt="o")
        axes.annotate(
            str(row["model"]), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8
        )
    axes.set_xlim(-0.02, 1.02)
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlabel("UTR (controls with a needless call)")
    axes.set_ylabel("CTUR (tool-required tasks done right)")


def draw_rir(table: pd.DataFrame, figure: Any) -> None:
    """Grouped bars: RIR per domain (x) and model (bars)."""
    axes = figure.subplots()
    models = sorted(str(m) for m in table["model"].unique())
    domains = sorted(str(d) for d in table["domain"].unique())
    width = 0.8 / max(1, len(models))
    for i, model in enumerate(models):
        mine = table[table["model"] == model].set_index("domain")
        values = [float(mine["RIR"].get(d, 0.0) or 0.0) for d in domains]
        axes.bar([j + i * width for j in range(len(domains))], values, width, label=model)
    axes.set_xticks([j + 0.4 - width / 2 for j in range(len(domains))], domains, fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_ylabel("RIR")
    axes.legend(fontsize=7)


def _interval(text: str, value: float) -> tuple[float, float]:
    if text == "-":
        return value, value
    low, high = (float(v) for v in text.strip("[]").split(","))
    return low, high


def _model_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    return {"model": str(row["model"])}


def rater_frame(frame: pd.DataFrame, judgements: pd.DataFrame) -> pd.DataFrame:
    """One row per episode: rule, judge_a and judge_b labels and the ensemble."""
    from toolchaos.scoring.judges import ensemble

    wide = judgements.pivot_table(
        index=["run", "key"], columns="rater", values="label", aggfunc="first"
    ).reset_index()
    wide.columns.name = None
    for rater in ("judge_a", "judge_b"):
        if rater not in wide:
            wide[rater] = None
    base = frame[["run", "key", "model", "domain", "mode", "label"]].rename(
        columns={"label": "rule"}
    )
    out = base.merge(wide, on=["run", "key"], how="left")
    out = out.astype({"judge_a": object, "judge_b": object}).where(out.notna(), None)
    out["ensemble"] = [
        ensemble(r, a, b)
        for r, a, b in zip(out["rule"], out["judge_a"], out["judge_b"], strict=True)
    ]
    return out


def agreement_table(raters: pd.DataFrame) -> pd.DataFrame:
    """Kappas per rater pair and over all three, overall and by domain and failure mode."""
    from toolchaos.stats.agreement import cohen, fleiss

    def kappas(group: pd.DataFrame) -> dict[str, Any]:
        row: dict[str, Any] = {"n": len(group)}
        for a, b in (("rule", "judge_a"), ("rule", "judge_b"), ("judge_a", "judge_b")):
            both = group[group[a].notna() & group[b].notna()]
            value = cohen(list(both[a]), list(both[b])) if len(both) else None
            row[f"kappa {a}~{b}"] = None if value is None else round(value, 4)
        full = group[group["judge_a"].notna() & group["judge_b"].notna()]
        value = (
            fleiss(list(full["rule"]), list(full["judge_a"]), list(full["judge_b"]))
            if len(full)
            else None
        )
        row["fleiss"] = None if value is None else round(value, 4)
        return row

    rows = [{"stratum": "all", "value": "all", **kappas(raters)}]
    for column in ("domain", "mode", "model"):
        for value, group in raters.groupby(column, sort=True):
            rows.append({"stratum": column, "value": value, **kappas(group)})
    return pd.DataFrame(rows)


def claims_call(answer: str, task: Any) -> bool:
    """Whether an answer cites a tool ("Per get_stock_quote, ...") or shows a call as text."""
    names = _tool_names(task.domain) | _release(task)[1]
    lowered = answer.lower()
    return any(name in lowered for name in names) or lowered.startswith(
        ("per the tool", "according to the tool")
    )


def vocabulary(task: Any) -> frozenset[str]:
    """The field names an answer could only have taken from a tool, for this task.

    The built-in domain's tool output fields; for a task imported from a v5 release (whose
    tools declare no output schemas) also the fields of the release's mock returns.
    """
    return _vocabulary(task.domain) | _release(task)[0]


def _release(task: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(return fields, tool names) a release task adds; empty for built-in tasks."""
    release = task.metadata.get(RELEASE_DOMAIN)
    if release is None:
        return frozenset(), frozenset()
    names = frozenset(t["name"].lower() for t in release.get("tools", []))
    return frozenset(keys(task.trap_return or {})), names


@cache
def _vocabulary(domain: str) -> frozenset[str]:
    return frozenset(get_domain(domain).field_vocabulary())


@cache
def _tool_names(domain: str) -> frozenset[str]:
    return frozenset(tool.name.lower() for tool in get_domain(domain).tools)
