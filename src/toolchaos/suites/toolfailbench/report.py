"""ToolFailBench's part of a report: rule labels, the leaderboard, per-domain RIR, figures.

Each episode gets its rule-classifier label from its stored trace and answer. The
leaderboard gives, per model, TSR, CTUR, RIR and OFR as shares of the tool-required tasks
(they sum to 100%), RIR and OFR conditional on a call, and UTR and CTRL-Acc over the
controls, each with its 95% Wilson interval; a second table tests CTUR between models.

A (run, model) whose finished answers are at least half invalid output (empty, garbled,
leaked special tokens, degenerate repetition; :func:`invalid_output`) is flagged: listed
in ``toolfailbench_flagged_runs`` and left out of the leaderboard, the CTUR tests, RIR per
domain, the ensemble leaderboard and the same-family judge check. With judge labels the
report adds rater agreement (by domain, mode, model and tier) and the same-family check;
when a model was run at several temperatures, the temperature ablation.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from functools import cache, partial
from itertools import combinations
from typing import Any

import pandas as pd

from toolchaos.agents.native import LoopConfig
from toolchaos.models.config import ModelEntry
from toolchaos.scoring.answer import normalize
from toolchaos.stats.agreement import Rate, cohen, fleiss, two_proportion_test, wilson
from toolchaos.suites.base import Contribution, EpisodeReader, FigureSpec, ReportTable, RunData
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.importer import RELEASE_DOMAIN
from toolchaos.suites.toolfailbench.judges import ensemble
from toolchaos.suites.toolfailbench.rules import (
    REPEAT_COPIES,
    REPEAT_RUN_CHARS,
    REPEAT_SPAN,
    WORD_MIN,
    ExecutedCall,
    executed_calls,
    failure_rates,
    keys,
    label_episode,
    output_checks,
)

RATES = ("TSR", "CTUR", "RIR", "OFR", "RIR|call", "OFR|call", "UTR", "CTRL-Acc")
JUDGES = ("judge_a", "judge_b")
# a (run, model) is flagged when at least this share of its finished answers is invalid
FLAG_SHARE = 0.5
# the temperature of a model entry that sets none: what the protocols send by default
DEFAULT_TEMPERATURE = LoopConfig().temperature
_SPEC_TOKEN = re.compile(r"[-:]")


class ToolFailReport:
    """The ToolFailBench contributor (see :mod:`toolchaos.suites.toolbench_x.report`)."""

    suite = "toolfailbench"

    def __init__(self) -> None:
        self.judgements: list[dict[str, Any]] = []
        self.entries: dict[str, dict[str, ModelEntry]] = {}

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: EpisodeReader
    ) -> pd.DataFrame:
        """Label every episode with the rule classifier, from its stored trace."""
        traces: dict[str, list[ExecutedCall]] = {}
        wanted = {row["key"] for row in summaries}
        for key, text in store.episode_json(keys=wanted):
            episode = json.loads(text)
            traces[key] = executed_calls(episode.get("trace", []))
        records = []
        for row in summaries:
            task = tasks[row["task_id"]]
            finished = row["status"] == "finished"
            calls = traces.get(row["key"], [])
            verdict = invalid = repetition = None
            if finished:
                verdict = label_episode(task, calls, row["final_answer"], vocabulary(task))
                invalid, repetition = output_checks(row["final_answer"])
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
                    "invalid": invalid.reason if invalid else "",
                    "degenerate": repetition is not None,
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
        """Collect the run's model entries and the judges' labels (``toolchaos judge``)."""
        self.entries[data.run] = data.entries
        for row in data.store.judgements():
            self.judgements.append({**row, "run": data.run})

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """The leaderboard and its companions, agreement, the judge and temperature checks."""
        out = Contribution()
        finished = frame[frame["error"] == 0]
        if finished.empty:
            return out
        finished = self._with_entries(finished)
        flags = flagged_runs(finished)
        headline = unflagged(finished, flags)
        left_out = ""
        if not flags.empty:
            left_out = (
                f" {len(flags)} (run, model) pair(s) with mostly invalid output are left out "
                "(see the flagged runs table)."
            )
            out.tables.append(
                ReportTable(
                    "toolfailbench_flagged_runs",
                    "ToolFailBench: runs flagged for invalid output (left out of the leaderboard)",
                    flags,
                    _model_link,
                    note=f"A (run, model) is flagged when at least {FLAG_SHARE:.0%} of its "
                    "finished answers are invalid: empty, only leaked special tokens, mostly "
                    "replacement or control characters, or a degenerate repetition. 'reason' is "
                    "the commonest kind; 'reasons' counts each.",
                )
            )
        if not headline.empty:
            self._headline(headline, left_out, out)
        if self.judgements:
            judgements = pd.DataFrame(self.judgements)
            raters = rater_frame(finished, judgements)
            out.tables.append(
                ReportTable(
                    "toolfailbench_agreement",
                    "ToolFailBench: rater agreement (Cohen's and Fleiss' kappa)",
                    agreement_table(raters),
                    note="Over episodes every rater labelled; a judge without a label leaves "
                    "the episode out of its pairs. Tier is the model entry's (unset when the "
                    "run gave none). Flagged runs are included.",
                )
            )
            kept = raters.merge(headline[["run", "key"]], on=["run", "key"])
            if not kept.empty:
                voted = headline.merge(kept[["run", "key", "ensemble"]], on=["run", "key"])
                voted = voted.assign(label=voted["ensemble"])
                out.tables.append(
                    ReportTable(
                        "toolfailbench_leaderboard_ensemble",
                        "ToolFailBench: failure rates by the ensemble (rule, judge A, judge B)",
                        leaderboard(voted),
                        _model_link,
                        note=left_out.strip(),
                    )
                )
            specs = sorted({str(m) for m in judgements["model"]})
            families = {spec: self.judge_family(spec) for spec in specs}
            same, notes = same_family_table(kept, families)
            out.tables.append(
                ReportTable(
                    "toolfailbench_same_family",
                    "ToolFailBench: CTUR of the judges' own model family, as each judge labels it",
                    same,
                    note=" ".join(
                        [
                            "Per judge: the evaluated models of its family (flagged runs left "
                            "out), over their tool-required episodes both judges labelled; "
                            "'A - B' is judge A's CTUR minus judge B's. A family is the model "
                            "entry's 'family', else spec_family() of the spec (source column).",
                            *notes,
                        ]
                    ),
                )
            )
            out.notes += notes
        ablation = temperature_table(finished)
        if not ablation.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_temperature",
                    "ToolFailBench: the same model at different sampling temperatures",
                    ablation,
                    _model_link,
                    note="Temperatures are the runs' stored model entries (unset is the "
                    f"protocol default, {DEFAULT_TEMPERATURE:g}); runs at one temperature are "
                    "pooled. n counts tool-required episodes; p is a two-proportion z-test of "
                    "CTUR. 'degenerate' counts finished answers with a degenerate repetition "
                    f"(a span of 1-{REPEAT_SPAN} characters {REPEAT_COPIES}+ times back to back "
                    f"over {REPEAT_RUN_CHARS}+ characters, or one word over half of a "
                    f"{WORD_MIN}+ word answer). Flagged runs are included.",
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

    def _headline(self, headline: pd.DataFrame, left_out: str, out: Contribution) -> None:
        """The leaderboard, CTUR tests, RIR per domain and their figures (unflagged runs)."""
        board = leaderboard(headline)
        out.tables.append(
            ReportTable(
                "toolfailbench_leaderboard",
                "ToolFailBench: failure rates with 95% Wilson intervals",
                board,
                _model_link,
                note="TSR, CTUR, RIR and OFR are shares of the tool-required tasks (they sum "
                "to 1); RIR|call and OFR|call are over tasks where the tool ran; UTR and "
                "CTRL-Acc are over the controls." + left_out,
            )
        )
        tests = ctur_tests(headline)
        if not tests.empty:
            out.tables.append(
                ReportTable("toolfailbench_ctur_tests", "ToolFailBench: CTUR between models", tests)
            )
        per_domain = domain_rir(headline)
        out.tables.append(
            ReportTable("toolfailbench_rir_by_domain", "ToolFailBench: RIR per domain", per_domain)
        )
        out.figures += [
            FigureSpec("toolfailbench_utr_ctur", "UTR against CTUR", partial(draw_utr_ctur, board)),
            FigureSpec("toolfailbench_rir_domain", "RIR per domain", partial(draw_rir, per_domain)),
        ]

    def _with_entries(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with each (run, model)'s tier, model family and temperature."""
        pairs = frame[["run", "model"]].drop_duplicates()
        found = [
            (self.tier(r, m), self.family(r, m), self.temperature(r, m))
            for r, m in zip(pairs["run"], pairs["model"], strict=True)
        ]
        tier, family, temperature = zip(*found, strict=True)
        pairs = pairs.assign(
            tier=list(tier),
            model_family=list(family),
            temperature=pd.Series(temperature, index=pairs.index, dtype=object),
        )
        return frame.merge(pairs, on=["run", "model"], how="left").set_axis(frame.index)

    def entry(self, run: str, spec: str) -> ModelEntry | None:
        """The model entry ``run`` stored for ``spec``, if any."""
        return self.entries.get(run, {}).get(spec)

    def tier(self, run: str, spec: str) -> str:
        """The model's tier in ``run``; ``unset`` when its entry gives none."""
        entry = self.entry(run, spec)
        return entry.tier if entry is not None and entry.tier else "unset"

    def family(self, run: str, spec: str) -> str:
        """The model's family: its entry's (in ``run``, else any run's), else from the spec."""
        entry = self.entry(run, spec)
        if entry is not None and entry.family:
            return entry.family.lower()
        return self.judge_family(spec)[0]

    def judge_family(self, spec: str) -> tuple[str, str]:
        """A spec's family in any run and where it came from (``model entry`` or ``spec name``).

        Used for the judges, and for an evaluated model whose own run's entry gives none.
        """
        for entries in self.entries.values():
            entry = entries.get(spec)
            if entry is not None and entry.family:
                return entry.family.lower(), "model entry"
        return spec_family(spec), "spec name"

    def temperature(self, run: str, spec: str) -> float | None:
        """The sampling temperature of the model in ``run``; None for a scripted policy."""
        if spec.startswith("scripted/"):
            return None
        entry = self.entry(run, spec)
        if entry is None or entry.temperature is None:
            return DEFAULT_TEMPERATURE
        return entry.temperature


def spec_family(spec: str) -> str:
    """The family a model spec names when no model entry gives one.

    The provider and any organisation path are stripped (the text after the last ``/``),
    then the first token before ``-`` or ``:`` is kept, lowercased: ``openai/gpt-4o-mini``
    is ``gpt``, ``anthropic/claude-3-5-haiku`` is ``claude``,
    ``openai-compat/qwen2.5-7b-instruct`` is ``qwen2.5``, ``local/llama3.2:3b`` is
    ``llama3.2``.
    """
    name = spec.rsplit("/", 1)[-1]
    return _SPEC_TOKEN.split(name, maxsplit=1)[0].lower() or name.lower()


def flagged_runs(frame: pd.DataFrame) -> pd.DataFrame:
    """The (run, model) pairs whose finished answers are at least half invalid output.

    Args:
        frame: Finished episodes with ``run``, ``model`` and ``invalid`` (the
            :func:`invalid_output` reason, empty for a valid answer).
    """
    rows = []
    for (run, model), group in frame.groupby(["run", "model"], sort=True):
        reasons = Counter(str(r) for r in group["invalid"] if r)
        invalid = sum(reasons.values())
        share = invalid / len(group)
        if not invalid or share < FLAG_SHARE:
            continue
        rows.append(
            {
                "run": run,
                "model": model,
                "finished": len(group),
                "invalid": invalid,
                "share": round(share, 4),
                "reason": reasons.most_common(1)[0][0],
                "reasons": ", ".join(f"{r} {n}" for r, n in sorted(reasons.items())),
            }
        )
    return pd.DataFrame(rows)


def unflagged(frame: pd.DataFrame, flags: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without the episodes of flagged (run, model) pairs."""
    if flags.empty:
        return frame
    flagged = set(zip(flags["run"], flags["model"], strict=True))
    keep = [(r, m) not in flagged for r, m in zip(frame["run"], frame["model"], strict=True)]
    return frame[keep]


def same_family_table(
    raters: pd.DataFrame, families: Mapping[str, tuple[str, str]]
) -> tuple[pd.DataFrame, list[str]]:
    """Per judge: CTUR of the evaluated models of its own family, as each rater labels it.

    A judge might favour its own family. For each judge (rater and model spec) the
    evaluated models whose ``model_family`` is the judge's family are taken; over their
    tool-required episodes that both judges labelled, CTUR is the share labelled
    ``correct`` by the rule, by judge A and by judge B, and ``A - B`` their difference.

    Args:
        raters: :func:`rater_frame` rows (with ``kind``, ``model_family`` and each judge's
            model) of the episodes to count.
        families: Each judge spec's (family, source).

    Returns:
        The table and a note for each judge whose family no evaluated model shares.
    """
    rows = []
    notes = []
    for rater in JUDGES:
        specs = sorted({str(s) for s in raters[f"{rater}_model"] if s is not None})
        for spec in specs:
            family, source = families[spec]
            own = raters[raters["model_family"] == family]
            models = sorted({str(m) for m in own["model"]})
            both = own[
                (own["kind"] == "tool_required") & own["judge_a"].notna() & own["judge_b"].notna()
            ]
            both = both[both[f"{rater}_model"] == spec]
            rates = {r: _share(both[r] == "correct") for r in ("rule", *JUDGES)}
            a, b = rates["judge_a"], rates["judge_b"]
            rows.append(
                {
                    "judge": rater,
                    "judge_model": spec,
                    "family": family,
                    "source": source,
                    "models": ", ".join(models) or "-",
                    "n": len(both),
                    "CTUR rule": rates["rule"],
                    "CTUR judge_a": a,
                    "CTUR judge_b": b,
                    "A - B": None if a is None or b is None else round(a - b, 4),
                }
            )
            if not models:
                notes.append(
                    f"No evaluated model shares the family of {rater} ({spec}, family {family})."
                )
    return pd.DataFrame(rows), notes


def temperature_table(frame: pd.DataFrame) -> pd.DataFrame:
    """CTUR and degenerate repetitions of each model between the temperatures it ran at.

    Args:
        frame: Finished episodes with ``temperature`` (None for a scripted policy, which is
            left out), ``kind``, ``label`` and ``degenerate``.

    Returns:
        One row per model and pair of temperatures (A below B): tool-required episodes n,
        CTUR, ``CTUR B - A``, the two-proportion p-value and degenerate answers at each.
    """
    sampled = frame[frame["temperature"].notna()]
    rows = []
    for model, group in sampled.groupby("model", sort=True):
        by_temperature = {
            float(t): group[group["temperature"] == t] for t in set(group["temperature"])
        }
        for low, high in combinations(sorted(by_temperature), 2):
            counts = {}
            for side, t in (("A", low), ("B", high)):
                episodes = by_temperature[t]
                required = episodes[episodes["kind"] == "tool_required"]
                counts[side] = (int((required["label"] == "correct").sum()), len(required))
                counts[f"degenerate {side}"] = (int(episodes["degenerate"].sum()), len(episodes))
            ctur = {side: _share_of(*counts[side]) for side in ("A", "B")}
            p_value = two_proportion_test(*counts["A"], *counts["B"])
            rows.append(
                {
                    "model": model,
                    "temperature A": low,
                    "temperature B": high,
                    "n A": counts["A"][1],
                    "n B": counts["B"][1],
                    "CTUR A": ctur["A"],
                    "CTUR B": ctur["B"],
                    "CTUR B - A": None
                    if ctur["A"] is None or ctur["B"] is None
                    else round(ctur["B"] - ctur["A"], 4),
                    "p_value": _p_cell(p_value),
                    "degenerate A": counts["degenerate A"][0],
                    "degenerate B": counts["degenerate B"][0],
                    "answers A": counts["degenerate A"][1],
                    "answers B": counts["degenerate B"][1],
                }
            )
    return pd.DataFrame(rows)


def _share(hits: pd.Series) -> float | None:
    return _share_of(int(hits.sum()), len(hits))


def _share_of(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _p_cell(p_value: float | None) -> float | None:
    return None if p_value is None else round(p_value, 6)


def _rate_cells(rate: Rate) -> tuple[float | None, str]:
    """A rate as its two table cells: the value and its interval (``-`` when undefined)."""
    value = None if rate.rate is None else round(rate.rate, 4)
    if rate.low is None or rate.high is None:
        return value, "-"
    return value, f"[{rate.low:.3f}, {rate.high:.3f}]"


def leaderboard(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per model: every headline rate with its interval."""
    rows = []
    for model, group in frame.groupby("model", sort=True):
        rates = failure_rates(list(group["label"]), list(group["kind"]), list(group["called"]))
        row: dict[str, Any] = {"model": model}
        row["required"] = int((group["kind"] == "tool_required").sum())
        row["controls"] = int((group["kind"] == "control").sum())
        for name in RATES:
            row[name], row[f"{name} 95% CI"] = _rate_cells(rates[name])
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
                "ctur_a": _share_of(*counts[a]),
                "ctur_b": _share_of(*counts[b]),
                "p_value": _p_cell(p_value),
            }
        )
    return pd.DataFrame(rows)


def domain_rir(frame: pd.DataFrame) -> pd.DataFrame:
    """RIR per model and domain over the tool-required tasks."""
    required = frame[frame["kind"] == "tool_required"]
    rows = []
    for (model, domain), group in required.groupby(["model", "domain"], sort=True):
        rate = wilson(int((group["label"] == "result_ignore").sum()), len(group))
        value, interval = _rate_cells(rate)
        rows.append(
            {"model": model, "domain": domain, "n": rate.n, "RIR": value, "95% CI": interval}
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
    """One row per episode: rule, judge_a and judge_b labels (and judge models), the ensemble.

    Also carries what the strata and the same-family check read: domain, mode, kind, tier
    and model family.
    """
    wide = judgements.pivot_table(
        index=["run", "key"], columns="rater", values="label", aggfunc="first"
    ).reset_index()
    wide.columns.name = None
    judges = judgements.pivot_table(
        index=["run", "key"], columns="rater", values="model", aggfunc="first"
    )
    judges.columns = [f"{c}_model" for c in judges.columns]
    wide = wide.merge(judges.reset_index(), on=["run", "key"])
    for rater in JUDGES:
        for column in (rater, f"{rater}_model"):
            if column not in wide:
                wide[column] = None
    columns = ["run", "key", "model", "domain", "mode", "kind", "tier", "model_family", "label"]
    # tier and model family come from the runs' model entries (ToolFailReport.finish)
    known = frame.assign(**{c: "unset" for c in ("tier", "model_family") if c not in frame})
    base = known[columns].rename(columns={"label": "rule"})
    out = base.merge(wide, on=["run", "key"], how="left")
    judge_columns = [*JUDGES, *(f"{r}_model" for r in JUDGES)]
    out = out.astype(dict.fromkeys(judge_columns, object)).where(out.notna(), None)
    out["ensemble"] = [
        ensemble(r, a, b)
        for r, a, b in zip(out["rule"], out["judge_a"], out["judge_b"], strict=True)
    ]
    return out


def agreement_table(raters: pd.DataFrame) -> pd.DataFrame:
    """Kappas per rater pair and over all three, overall and per stratum.

    The strata are domain, failure mode, model and model tier (``unset`` when a run's
    model entry gives none).
    """

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
    for column in ("domain", "mode", "model", "tier"):
        if column not in raters:
            continue
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
    return frozenset(fail_domain(domain).field_vocabulary())


@cache
def _tool_names(domain: str) -> frozenset[str]:
    return frozenset(tool.name.lower() for tool in fail_domain(domain).tools)
