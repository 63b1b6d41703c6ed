"""ToolFailBench's part of a report: the paper's leaderboard and its companion tables.

Every episode gets its rule-classifier label (rule set ``toolchaos`` or ``paper``,
:class:`~toolchaos.suites.base.ReportOptions`) from its stored trace and answer. With
judge labels (``toolchaos judge``) the headline tables use the ensemble of rule, judge A
and judge B (:func:`~toolchaos.suites.toolfailbench.judges.ensemble`) over the episodes
both judges labelled; the others are left out of them, never mixed in with rule labels.
Without judge labels they use the rule labels, and say so.

Headline tables (percent, 95% Wilson intervals), over unflagged runs:

- ``toolfailbench_leaderboard``: one row per model ranked by CTUR (the ensemble's, with
  the rule's beside it over the same episodes), TSR, RIR and OFR (the release's
  denominators) with RIR|required and OFR|required (over all tool-required tasks) beside
  them, RIR|call, OFR|call, UTR, CTRL-Acc and the model's archetype (:func:`archetype`).
- ``toolfailbench_ctur_tests``: two-proportion tests of CTUR between models.
- ``toolfailbench_by_mode``: label shares by the failure mode a task targets.
- ``toolfailbench_rir_by_domain`` and ``toolfailbench_median_rir``: RIR per model and
  domain, and its median across models per domain (RIR and OFR use the release's
  denominators, :func:`~toolchaos.suites.toolfailbench.rules.failure_rates`, with the
  all-tool-required variant beside them).

Always: ``toolfailbench_archetypes`` (each model's calling profile and archetype, from the
traces, flagged runs included) and ``toolfailbench_schema_violations`` (per model, the
expected calls whose arguments broke the tool's schema, from the trace entries). With
judge labels: ``toolfailbench_ctur_by_rater`` (CTUR by the rule, each judge and the
ensemble), ``toolfailbench_votes`` (unanimous, one dissent, joint overrule and three-way
tie rates), ``toolfailbench_agreement`` (kappas by
domain, mode, model and tier) and ``toolfailbench_same_family``. When a model ran at
several temperatures, ``toolfailbench_temperature``.

A (run, model) whose finished answers are at least half invalid output (empty, garbled,
leaked special tokens, degenerate repetition; :func:`invalid_output`) is flagged: listed
in ``toolfailbench_flagged_runs`` and left out of the headline tables, the per-rater CTUR
and the same-family check.
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
from toolchaos.core.errors import BadInput
from toolchaos.models.base import is_scripted
from toolchaos.models.config import ModelEntry
from toolchaos.scoring.answer import normalize
from toolchaos.scoring.tables import (
    USAGE_COLUMNS,
    indeterminate_counts,
    scorable,
    status_columns,
)
from toolchaos.stats.agreement import Rate, cohen, fleiss, two_proportion_test, wilson
from toolchaos.suites.base import Contribution, EpisodeReader, FigureSpec, ReportTable, RunData
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.importer import release_tool_names, release_vocabulary
from toolchaos.suites.toolfailbench.judge_entries import read_judge_entries
from toolchaos.suites.toolfailbench.judges import SCORES, ensemble, score_table, vote_pattern
from toolchaos.suites.toolfailbench.provenance import (
    JUDGES,
    contradiction_table,
    provenance_table,
    rejudge_tables,
)
from toolchaos.suites.toolfailbench.rules import (
    DEFAULT_RULE_SET,
    REPEAT_COPIES,
    REPEAT_RUN_CHARS,
    REPEAT_SPAN,
    RULE_SETS,
    WORD_MIN,
    ExecutedCall,
    RuleSet,
    executed_calls,
    failure_rates,
    label_episode,
    output_checks,
    rule_set,
)

RATES = (
    "CTUR",
    "TSR",
    "RIR",
    "RIR|required",
    "OFR",
    "OFR|required",
    "RIR|call",
    "OFR|call",
    "UTR",
    "CTRL-Acc",
)
INDETERMINATE_NOTE = (
    " 'indeterminate' counts episodes decided by a fault toolchaos did not inject (the "
    "model's provider failed after its retries): they are out of every rate here, and "
    "toolchaos run --retry-errors plays them again."
)
DENOMINATOR_NOTE = (
    "RIR and OFR use the release's denominators: the tool-required tasks not labelled "
    "tool_skip; RIR|required and OFR|required are the same labels over all tool-required "
    "tasks (TSR, CTUR, RIR|required and OFR|required sum to 100); RIR|call and OFR|call "
    "are over tasks where the expected tool ran."
)
# a (run, model) is flagged when at least this share of its finished answers is invalid
FLAG_SHARE = 0.5
# the temperature of a model entry that sets none: what the protocols send by default
DEFAULT_TEMPERATURE = LoopConfig().temperature
_SPEC_TOKEN = re.compile(r"[-:]")

# Archetypes (see archetype()): shares of a model's answers.
ARCHETYPE_INVALID = 0.25  # of finished answers invalid output -> "invalid output"
ARCHETYPE_PHANTOM = 0.25  # of tool-required answers showing a call that never ran
ALWAYS_CALL_UTR = 0.50  # UTR at or above -> "Always-Call"
NEVER_CALL_TSR = 0.50  # TSR at or above -> "Never-Call"
DISCIPLINED_UTR = 0.10  # UTR at or below, and
DISCIPLINED_CTRL = 0.80  # CTRL-Acc at or above -> "disciplined"
ARCHETYPE_NOTE = (
    "Archetype, checked in this order over every finished answer of the model (rule labels "
    f"from the traces, flagged runs included): 'invalid output' when at least "
    f"{ARCHETYPE_INVALID:.0%} of its answers are invalid output; 'Phantom-Call' when at "
    f"least {ARCHETYPE_PHANTOM:.0%} of its tool-required answers show or cite a call that "
    f"never ran; 'Always-Call' when UTR is at least {ALWAYS_CALL_UTR:.0%}; 'Never-Call' "
    f"when TSR is at least {NEVER_CALL_TSR:.0%}; 'disciplined' when UTR is at most "
    f"{DISCIPLINED_UTR:.0%} and CTRL-Acc at least {DISCIPLINED_CTRL:.0%}; else 'mixed'. "
    "An archetype describes when a model calls tools, not whether it uses what they "
    "return (CTUR, RIR and OFR say that)."
)


class ToolFailReport:
    """The ToolFailBench contributor (see :mod:`toolchaos.suites.toolbench_x.report`).

    Args:
        rules: The rule set the rule classifier labels with (``toolchaos`` or ``paper``).
    """

    suite = "toolfailbench"

    def __init__(self, rules: str = DEFAULT_RULE_SET) -> None:
        if rules not in RULE_SETS:
            shown = ", ".join(RULE_SETS)
            raise BadInput(f"--rules must be one of {shown}, not {rules!r}")
        self.rules: RuleSet = rule_set(rules)
        self.judgements: list[dict[str, Any]] = []
        self.earlier: list[dict[str, Any]] = []
        """The labels a re-judging replaced (``toolchaos judge --rejudge``)."""
        self.entries: dict[str, dict[str, ModelEntry]] = {}
        self.judge_entries: dict[str, ModelEntry] = {}

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: EpisodeReader
    ) -> pd.DataFrame:
        """Label every episode with the rule classifier, from its stored trace."""
        traces: dict[str, list[ExecutedCall]] = {}
        entries: dict[str, list[dict[str, Any]]] = {}
        wanted = {row["key"] for row in summaries}
        for key, text in store.episode_json(keys=wanted):
            episode = json.loads(text)
            entries[key] = episode.get("trace", [])
            traces[key] = executed_calls(entries[key])
        records = []
        for row in summaries:
            task = tasks[row["task_id"]]
            finished = row["status"] == "finished"
            calls = traces.get(row["key"], [])
            checked = schema_checks(entries.get(row["key"], []), task.expected_tool)
            verdict = invalid = repetition = None
            if finished:
                answer = row["final_answer"]
                verdict = label_episode(task, calls, answer, vocabulary(task), self.rules)
                invalid, repetition = output_checks(answer)
            records.append(
                {
                    **{k: row[k] for k in ("key", "suite", "model", "protocol", "arm", "task_id")},
                    "sample": row["sample"],
                    "status": row["status"],
                    **status_columns(str(row["status"])),
                    "correct": int(verdict is not None and verdict.label == "correct"),
                    "label": verdict.label if verdict else str(row["status"]),
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
                    **checked,
                    **{name: row[name] for name in USAGE_COLUMNS},
                }
            )
        return pd.DataFrame.from_records(records)

    def read_run(self, data: RunData) -> None:
        """Collect the run's model entries and the judges' labels (``toolchaos judge``)."""
        self.entries[data.run] = data.entries
        for spec, entry in read_judge_entries(data.store).items():
            self.judge_entries.setdefault(spec, entry)
        for row in data.store.judgements():
            if row["rater"] in JUDGES:  # other suites' raters (a scoring audit) are not ours
                self.judgements.append({**row, "run": data.run})
        for row in data.store.judgements(earlier=True):
            if row["rater"] in JUDGES:
                self.earlier.append({**row, "run": data.run})

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """The leaderboard and its companions, agreement, the judge and temperature checks."""
        out = Contribution()
        finished = scorable(frame)
        if finished.empty:
            return out
        finished = self._with_entries(finished)
        out.notes.append(
            f"ToolFailBench rule labels come from the rule set '{self.rules}': "
            f"{RULE_SETS[self.rules]}. Choose one with --rules {'|'.join(RULE_SETS)}."
        )
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
        profiles = archetype_table(finished)
        raters = rater_frame(finished, pd.DataFrame(self.judgements)) if self.judgements else None
        kept = None if raters is None else raters.merge(headline[["run", "key"]])
        voted, source = headline.assign(rule=headline["label"]), "rule"
        if kept is not None:
            judged = kept[kept["ensemble"].notna()]
            if judged.empty:
                out.notes.append(
                    "ToolFailBench: no episode on the leaderboard has both judges' labels; "
                    "its tables use the rule labels."
                )
            else:
                voted = headline.merge(judged[["run", "key", "ensemble"]], on=["run", "key"])
                voted = voted.assign(rule=voted["label"], label=voted["ensemble"])
                source = "ensemble"
        if not voted.empty:
            archetypes = dict(zip(profiles["model"], profiles["archetype"], strict=True))
            missing = len(headline) - len(voted)
            absent = sorted(set(map(str, headline["model"])) - set(map(str, voted["model"])))
            if absent:
                left_out += (
                    f" No episode of {', '.join(absent)} has both judges' labels: "
                    "see the per-rater CTUR table for its rule CTUR."
                )
            set_aside = indeterminate_counts(frame)
            self._headline(voted, source, archetypes, missing, left_out, set_aside, out)
        out.tables.append(
            ReportTable(
                "toolfailbench_archetypes",
                "ToolFailBench: each model's calling profile and archetype (%)",
                profiles,
                _model_link,
                note=ARCHETYPE_NOTE + " 'phantom %' counts tool-required answers that show or "
                "cite a call although the expected tool never ran.",
            )
        )
        if raters is not None and kept is not None:
            self._judge_tables(raters, kept, out)
            self._audit_tables(finished, raters, out)
        scores = score_table(finished, self.judgements)
        if not scores.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_judge_scores",
                    "ToolFailBench: the judges' 1-5 scores, mean per model and judge",
                    scores,
                    _model_link,
                    note="Each release-rubric judgement rates the reply 1 (worst) to 5 (best) "
                    f"on {', '.join(SCORES)}; n counts the judgements that gave scores.",
                )
            )
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
                    "pooled. n counts tool-required episodes; CTUR is by the rule labels, in "
                    "percent, and p is a two-proportion z-test of it. 'degenerate' counts "
                    "finished answers with a degenerate repetition "
                    f"(a span of 1-{REPEAT_SPAN} characters {REPEAT_COPIES}+ times back to back "
                    f"over {REPEAT_RUN_CHARS}+ characters, or one word over half of a "
                    f"{WORD_MIN}+ word answer). Flagged runs are included.",
                )
            )
        out.tables.append(
            ReportTable(
                "toolfailbench_schema_violations",
                "ToolFailBench: calls of the expected tool whose arguments broke its schema",
                schema_violation_table(finished),
                _model_link,
                note=SCHEMA_NOTE,
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

    def _headline(
        self,
        voted: pd.DataFrame,
        source: str,
        archetypes: Mapping[str, str],
        missing: int,
        left_out: str,
        indeterminate: dict[str, int] | None,
        out: Contribution,
    ) -> None:
        """The leaderboard, CTUR tests, rates by mode, RIR per domain and their figures.

        ``indeterminate``: each model's episodes a fault toolchaos did not inject decided
        (None when the run has none: the leaderboard then has no such column).
        """
        board = leaderboard(
            voted, archetypes, with_rule=source == "ensemble", indeterminate=indeterminate
        )
        if not board.empty:
            width = max(len(str(m)) for m in board["model"])
            out.headline = [f"ToolFailBench CTUR (correct tool use, % of tool-required; {source}):"]
            out.headline += [
                f"  {model!s:<{width}}  {'-' if pd.isna(ctur) else f'{ctur:.1f}%'}"
                for model, ctur in zip(board["model"], board["CTUR %"], strict=True)
            ]
        if source == "ensemble":
            ranked = "ranked by the ensemble's CTUR (majority of rule, judge A, judge B)"
            where = (
                "Labels: the ensemble, over the episodes both judges labelled; 'rule CTUR %' "
                "is the rule classifier's CTUR over the same episodes."
            )
            if missing:
                where += (
                    f" {missing} episode(s) without a label from both judges are left out "
                    "(never counted with their rule label)."
                )
        else:
            ranked = "ranked by the rule classifier's CTUR (no judge labels)"
            where = (
                "Labels: the rule classifier (no judge labels: run toolchaos judge for the "
                "ensemble)."
            )
        where += f" Rule set: {self.rules}."
        out.tables.append(
            ReportTable(
                "toolfailbench_leaderboard",
                f"ToolFailBench leaderboard, {ranked}, in % with 95% Wilson intervals",
                board,
                _model_link,
                note=f"{where} TSR and CTUR are shares of the tool-required tasks. "
                f"{DENOMINATOR_NOTE} UTR and CTRL-Acc are over the controls. Archetypes: see "
                "the archetypes table." + (INDETERMINATE_NOTE if indeterminate else "") + left_out,
            )
        )
        tests = ctur_tests(voted)
        if not tests.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_ctur_tests",
                    f"ToolFailBench: CTUR between models ({source} labels, %)",
                    tests,
                    note="p is a two-proportion z-test ('-' when both rates are 0 or 100).",
                )
            )
        out.tables.append(
            ReportTable(
                "toolfailbench_by_mode",
                f"ToolFailBench: outcomes by the failure mode a task targets ({source} labels, %)",
                mode_table(voted),
                _model_link,
                note="Per model (and all models pooled) and target mode: 'correct %' is CTUR "
                "for a trap mode and CTRL-Acc for controls; TSR, RIR and OFR apply to the "
                "tool-required modes, UTR and 'wrong %' to the controls.",
            )
        )
        per_domain = domain_rir(voted)
        out.tables.append(
            ReportTable(
                "toolfailbench_rir_by_domain",
                f"ToolFailBench: RIR per model and domain ({source} labels, %)",
                per_domain,
                _model_link,
                note="'RIR %' is over the tool-required tasks of the domain not labelled "
                "tool_skip (n, the release's denominator); 'RIR|required %' over all of them "
                "(required).",
            )
        )
        out.tables.append(
            ReportTable(
                "toolfailbench_median_rir",
                f"ToolFailBench: median RIR per domain across models ({source} labels, %)",
                median_rir(per_domain),
                note="Each model's RIR in the domain (over its tool-required tasks there not "
                "labelled tool_skip, the release's denominator), then the median, lowest and "
                "highest across the models that have one; 'median RIR|required %' is the "
                "median of RIR over all tool-required tasks of the domain.",
            )
        )
        out.figures += [
            FigureSpec("toolfailbench_utr_ctur", "UTR against CTUR", partial(draw_utr_ctur, board)),
            FigureSpec("toolfailbench_rir_domain", "RIR per domain", partial(draw_rir, per_domain)),
        ]

    def _judge_tables(self, raters: pd.DataFrame, kept: pd.DataFrame, out: Contribution) -> None:
        """Per-rater CTUR, the vote patterns, agreement and the same-family check."""
        out.tables.append(
            ReportTable(
                "toolfailbench_ctur_by_rater",
                "ToolFailBench: CTUR of every model by each rater (%)",
                rater_ctur_table(kept),
                _model_link,
                note="Over each model's tool-required episodes (flagged runs left out): the "
                "rule and each judge over all of them (n), a judge's missing label replaced "
                "by the rule's, as the release counts it ('labelled' says how many the judge "
                "labelled); the ensemble over those both judges labelled (its n).",
            )
        )
        out.tables.append(
            ReportTable(
                "toolfailbench_votes",
                "ToolFailBench: how rule, judge A and judge B voted (%)",
                votes_table(raters),
                _model_link,
                note="Over episodes both judges labelled (flagged runs included, as in the "
                "agreement table): unanimous; one dissent (the rule and one judge agree); "
                "joint overrule (both judges agree against the rule, which the ensemble then "
                "overrules); three-way tie (three labels; the rule's stands). 'unlabelled' "
                "counts episodes a judge gave no label, left out of these rates.",
            )
        )
        out.tables.append(
            ReportTable(
                "toolfailbench_agreement",
                "ToolFailBench: rater agreement (Cohen's and Fleiss' kappa)",
                agreement_table(raters),
                note="Each kappa is over the episodes both of its raters labelled (Fleiss': "
                "those both judges labelled); a judge without a label leaves the episode out "
                "of its pairs, and 'n a~b' / 'n fleiss' give each kappa's count. Tier is the "
                "model entry's (unset when the run gave none). Flagged runs are included.",
            )
        )
        specs = sorted({str(m) for m in pd.DataFrame(self.judgements)["model"]})
        families = {spec: self.judge_family(spec) for spec in specs}
        same, notes = same_family_table(kept, families)
        out.tables.append(
            ReportTable(
                "toolfailbench_same_family",
                "ToolFailBench: CTUR of the judges' own model family, as each judge labels it",
                same,
                note=" ".join(
                    [
                        "Per judge, over the tool-required episodes it was asked about "
                        "(flagged runs left out), in %: n and the CTUR columns are those of "
                        "the evaluated models of its family, 'other n' the rest. A missing "
                        "judge label keeps the rule's, as in per-judge CTUR. 'own-family gap "
                        "pp' is this judge's CTUR minus the other judge's on its own family, "
                        "'other-family gap pp' the same on the other models, 'own - other "
                        "pp' their difference. A family is the 'family' of the judge's entry "
                        "in toolchaos judge --models-file, else of a run's model entry, else "
                        "spec_family() of the spec (source column).",
                        *notes,
                    ]
                ),
            )
        )
        out.notes += notes

    def _audit_tables(
        self, finished: pd.DataFrame, raters: pd.DataFrame, out: Contribution
    ) -> None:
        """The judges' provenance, self-contradicting labels, and what a re-judging moved."""
        out.tables.append(
            ReportTable(
                "toolfailbench_judge_provenance",
                "ToolFailBench: where the judges' labels came from",
                provenance_table(self.judgements),
                note="Per rater and judge spec: the labels stored, those stored before "
                "toolchaos kept provenance ('unrecorded'), the model ids the provider said "
                "answered, the rubric and its version (a hash of its text), the temperature, "
                "the distinct prompts, and the first and last time a label was stored (UTC).",
            )
        )
        contradictions = contradiction_table(self.judgements)
        if not contradictions.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_judge_contradictions",
                    "ToolFailBench: labels whose rationale argues for another label",
                    contradictions,
                    note="A label is flagged when its rationale names one other label (any "
                    "spelling, not negated: 'not a tool skip' is no claim) and never its own; "
                    "'commonest' gives label -> named label pairs. Read them before trusting "
                    "the judge.",
                )
            )
            out.notes.append(
                "ToolFailBench: "
                + "; ".join(
                    f"{r['judge']} ({r['rater']}) gave {r['contradicting']} label(s) its own "
                    "rationale contradicts"
                    for r in contradictions.to_dict(orient="records")
                )
                + " (see the contradictions table)."
            )
        if not self.earlier:
            return
        before = rater_frame(finished, pd.DataFrame(self.earlier))
        moves, flips = rejudge_tables(raters, before, _rater_ctur)
        out.tables.append(
            ReportTable(
                "toolfailbench_rejudge",
                "ToolFailBench: what re-judging with other judges moved",
                moves,
                _model_link,
                note="toolchaos judge --rejudge kept the labels it replaced. Per model and "
                "rater: the judges before and now, the episodes both rounds labelled (n) and "
                "how many flipped; CTUR before and now over the model's tool-required episodes "
                "(a judge's missing label keeps the rule's; the ensemble over those both judges "
                "labelled), and the move in points.",
            )
        )
        if not flips.empty:
            out.tables.append(
                ReportTable(
                    "toolfailbench_label_flips",
                    "ToolFailBench: labels that flipped between the two judgings",
                    flips,
                    note="Per rater, each earlier label -> current label pair and its count.",
                )
            )

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
        """A spec's family and where it came from.

        In this order: the ``family`` of a judge entry a run stored (``judge entry``: from
        ``toolchaos judge --models-file``), of a run's model entry (``model entry``), else
        :func:`spec_family` (``spec name``). Used for the judges, and for an evaluated
        model whose own run's entry gives none.
        """
        judge = self.judge_entries.get(spec)
        if judge is not None and judge.family:
            return judge.family.lower(), "judge entry"
        for entries in self.entries.values():
            entry = entries.get(spec)
            if entry is not None and entry.family:
                return entry.family.lower(), "model entry"
        return spec_family(spec), "spec name"

    def temperature(self, run: str, spec: str) -> float | None:
        """The sampling temperature of the model in ``run``; None for a scripted policy."""
        if is_scripted(spec):
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
    """Per judge: does it rate its own model family apart from how it rates the others?

    A judge might favour (or be harder on) its own family. For each judge (rater and model
    spec) with family F, the tool-required episodes it was asked about are split into
    those of evaluated models of family F (``own``) and the rest (``other``). Over each
    part CTUR is the share labelled ``correct`` by the rule, judge A and judge B, a
    missing judge label keeping the rule's (:func:`judged_or_rule`, as per-judge CTUR).
    The ``own-family gap pp`` is this judge's CTUR minus the other judge's over ``own``,
    the ``other-family gap pp`` the same over ``other``; ``own - other pp`` is their
    difference, the part of the gap that only the judge's own family gets.

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
        other_judge = next(j for j in JUDGES if j != rater)
        specs = sorted({str(s) for s in raters[f"{rater}_model"] if s is not None})
        for spec in specs:
            family, source = families[spec]
            asked = raters[(raters[f"{rater}_model"] == spec) & (raters["kind"] == "tool_required")]
            parts = {
                "own": asked[asked["model_family"] == family],
                "other": asked[asked["model_family"] != family],
            }
            rates = {
                (part, r): _percent(judged_or_rule(group, r) == "correct")
                for part, group in parts.items()
                for r in ("rule", *JUDGES)
            }
            gaps = {part: _gap(rates[(part, rater)], rates[(part, other_judge)]) for part in parts}
            models = sorted({str(m) for m in parts["own"]["model"]})
            rows.append(
                {
                    "judge": rater,
                    "judge_model": spec,
                    "family": family,
                    "source": source,
                    "models": ", ".join(models) or "-",
                    "n": len(parts["own"]),
                    "CTUR rule %": rates[("own", "rule")],
                    "CTUR judge_a %": rates[("own", "judge_a")],
                    "CTUR judge_b %": rates[("own", "judge_b")],
                    "own-family gap pp": gaps["own"],
                    "other n": len(parts["other"]),
                    "other CTUR judge_a %": rates[("other", "judge_a")],
                    "other CTUR judge_b %": rates[("other", "judge_b")],
                    "other-family gap pp": gaps["other"],
                    "own - other pp": _gap(gaps["own"], gaps["other"]),
                }
            )
            if not models:
                notes.append(
                    f"No evaluated model shares the family of {rater} ({spec}, family {family})."
                )
    return pd.DataFrame(rows), notes


def _gap(a: float | None, b: float | None) -> float | None:
    """``a - b`` in percentage points, 2 decimals (None when either is missing)."""
    return None if a is None or b is None else round(a - b, 2)


def temperature_table(frame: pd.DataFrame) -> pd.DataFrame:
    """CTUR (%) and degenerate repetitions of each model between its temperatures.

    Args:
        frame: Finished episodes with ``temperature`` (None for a scripted policy, which is
            left out), ``kind``, ``label`` (the rule's) and ``degenerate``.

    Returns:
        One row per model and pair of temperatures (A below B): tool-required episodes n,
        CTUR, ``CTUR B - A pp``, the two-proportion p-value and degenerate answers at each.
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
            ctur = {side: _percent_of(*counts[side]) for side in ("A", "B")}
            p_value = two_proportion_test(*counts["A"], *counts["B"])
            a, b = ctur["A"], ctur["B"]
            rows.append(
                {
                    "model": model,
                    "temperature A": low,
                    "temperature B": high,
                    "n A": counts["A"][1],
                    "n B": counts["B"][1],
                    "CTUR A %": a,
                    "CTUR B %": b,
                    "CTUR B - A pp": None if a is None or b is None else round(b - a, 2),
                    "p_value": _p_cell(p_value),
                    "degenerate A": counts["degenerate A"][0],
                    "degenerate B": counts["degenerate B"][0],
                    "answers A": counts["degenerate A"][1],
                    "answers B": counts["degenerate B"][1],
                }
            )
    return pd.DataFrame(rows)


def _percent(hits: pd.Series) -> float | None:
    return _percent_of(int(hits.sum()), len(hits))


def _percent_of(k: int, n: int) -> float | None:
    """``k`` of ``n`` in percent, 2 decimals (None when ``n`` is 0)."""
    return round(100 * k / n, 2) if n else None


def _p_cell(p_value: float | None) -> float | None:
    # significant digits, not decimals: a small p stays small (it is shown as 2.3e-09)
    return None if p_value is None else float(f"{p_value:.6g}")


def _percent_cells(rate: Rate) -> tuple[float | None, str]:
    """A rate as its two table cells in percent: the value and its interval (``-``: none)."""
    value = None if rate.rate is None else round(100 * rate.rate, 2)
    if rate.low is None or rate.high is None:
        return value, "-"
    return value, f"[{100 * rate.low:.2f}, {100 * rate.high:.2f}]"


def leaderboard(
    frame: pd.DataFrame,
    archetypes: Mapping[str, str] | None = None,
    with_rule: bool = False,
    indeterminate: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """One row per model, ranked by CTUR: every headline rate in % with its interval.

    Args:
        frame: Finished episodes with ``label`` (the labels ranked by), ``kind``,
            ``called`` and, with ``with_rule``, ``rule`` (the rule label).
        archetypes: Each model's archetype (:func:`archetype_table`).
        with_rule: Add ``rule CTUR %``, the rule's CTUR over the same episodes.
        indeterminate: Each model's indeterminate episodes (decided by a fault toolchaos
            did not inject, so out of ``frame``): given, they are the ``indeterminate``
            column after the task counts.

    Returns:
        The rows from the highest CTUR down (ties share a rank; a model without
        tool-required tasks comes last, unranked). CTUR and its interval come first, then
        TSR, RIR, RIR|required, OFR, OFR|required, UTR, CTRL-Acc, the archetype, RIR|call,
        OFR|call and the task counts (:func:`failure_rates` gives the denominators), then
        the other intervals (a narrow terminal shows the rates first).
    """
    rows = []
    for model, group in frame.groupby("model", sort=True):
        rates = failure_rates(list(group["label"]), list(group["kind"]), list(group["called"]))
        row: dict[str, Any] = {"model": model}
        row["CTUR %"], row["CTUR 95% CI"] = _percent_cells(rates["CTUR"])
        required = group[group["kind"] == "tool_required"]
        if with_rule:
            row["rule CTUR %"] = _percent(required["rule"] == "correct")
        intervals = {}
        shown = ("TSR", "RIR", "RIR|required", "OFR", "OFR|required", "UTR", "CTRL-Acc")
        for name in (*shown, "RIR|call", "OFR|call"):
            if name == "RIR|call":
                row["archetype"] = (archetypes or {}).get(str(model), "-")
            row[f"{name} %"], intervals[f"{name} 95% CI"] = _percent_cells(rates[name])
        row["required"] = len(required)
        row["controls"] = int((group["kind"] == "control").sum())
        if indeterminate is not None:
            row["indeterminate"] = int(indeterminate.get(str(model), 0))
        rows.append({**row, **intervals})
    board = pd.DataFrame(rows)
    if board.empty:
        return board
    board = board.sort_values(
        ["CTUR %", "model"], ascending=[False, True], na_position="last", kind="stable"
    ).reset_index(drop=True)
    rank = board["CTUR %"].rank(method="min", ascending=False)
    board.insert(0, "rank", [None if pd.isna(r) else int(r) for r in rank])
    board["rank"] = board["rank"].astype(object)
    return board


def ctur_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Two-proportion z-tests of CTUR (%) between every pair of models."""
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
                "CTUR a %": _percent_of(*counts[a]),
                "CTUR b %": _percent_of(*counts[b]),
                "p_value": _p_cell(p_value),
            }
        )
    return pd.DataFrame(rows)


MODE_ORDER = ("tool_skip", "result_ignore", "output_fabrication", "control")
_MODE_LABELS = {
    "TSR %": "tool_skip",
    "RIR %": "result_ignore",
    "OFR %": "output_fabrication",
    "UTR %": "unnecessary_tool_use",
    "wrong %": "wrong_answer",
}
POOLED = "all models"


def mode_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Label shares (%) by the failure mode a task targets, per model and pooled.

    Rows: every model and all models pooled (``all models``, first), each target mode in
    :data:`MODE_ORDER`. ``correct %`` (with its interval) is CTUR for a trap mode and
    CTRL-Acc for controls; ``TSR %``, ``RIR %`` and ``OFR %`` are shown for trap modes,
    ``UTR %`` and ``wrong %`` for controls.
    """
    rows = []
    groups = [(POOLED, frame), *((str(m), g) for m, g in frame.groupby("model", sort=True))]
    for model, episodes in groups:
        for mode in MODE_ORDER:
            group = episodes[episodes["mode"] == mode]
            if group.empty:
                continue
            labels = list(group["label"])
            row: dict[str, Any] = {"model": model, "mode": mode, "n": len(group)}
            row["correct %"], row["95% CI"] = _percent_cells(
                wilson(labels.count("correct"), len(labels))
            )
            for column, label in _MODE_LABELS.items():
                applies = (label in ("unnecessary_tool_use", "wrong_answer")) == (mode == "control")
                row[column] = _percent_of(labels.count(label), len(labels)) if applies else None
            rows.append(row)
    return pd.DataFrame(rows)


def domain_rir(frame: pd.DataFrame) -> pd.DataFrame:
    """RIR (%) per model and domain, by the release's denominator and over all required tasks.

    ``RIR %`` is over the model's tool-required tasks in the domain not labelled tool_skip
    (``n``), as the release computes it; ``RIR|required %`` over all of them
    (``required``).
    """
    required = frame[frame["kind"] == "tool_required"]
    rows = []
    for (model, domain), group in required.groupby(["model", "domain"], sort=True):
        ignored = int((group["label"] == "result_ignore").sum())
        attempted = int((group["label"] != "tool_skip").sum())
        value, interval = _percent_cells(wilson(ignored, attempted))
        every, every_interval = _percent_cells(wilson(ignored, len(group)))
        rows.append(
            {
                "model": model,
                "domain": domain,
                "n": attempted,
                "RIR %": value,
                "95% CI": interval,
                "required": len(group),
                "RIR|required %": every,
                "RIR|required 95% CI": every_interval,
            }
        )
    return pd.DataFrame(rows)


def median_rir(per_domain: pd.DataFrame) -> pd.DataFrame:
    """Per domain: the median, lowest and highest RIR (%) across the models.

    The release's RIR (``RIR %``, over tasks not labelled tool_skip) gives the median,
    lowest and highest; a model that skipped every task of the domain has none and is not
    counted in ``models``. ``median RIR|required %`` is the median of RIR over all
    tool-required tasks, beside it.

    Args:
        per_domain: :func:`domain_rir` rows.
    """
    rows: list[dict[str, Any]] = []
    if per_domain.empty:
        return pd.DataFrame(rows)
    for domain, group in per_domain.groupby("domain", sort=True):
        values = group["RIR %"].dropna().astype(float)
        every = group["RIR|required %"].dropna().astype(float)
        rows.append(
            {
                "domain": domain,
                "models": len(values),
                "median RIR %": round(float(values.median()), 2) if len(values) else None,
                "lowest %": round(float(values.min()), 2) if len(values) else None,
                "highest %": round(float(values.max()), 2) if len(values) else None,
                "median RIR|required %": round(float(every.median()), 2) if len(every) else None,
            }
        )
    return pd.DataFrame(rows)


def archetype(
    invalid: float | None,
    phantom: float | None,
    tsr: float | None,
    utr: float | None,
    ctrl_acc: float | None,
) -> str:
    """A model's archetype from its calling profile (shares from 0 to 1; None: no tasks).

    Checked in this order: ``invalid output`` (invalid share at least
    :data:`ARCHETYPE_INVALID`), ``Phantom-Call`` (share of tool-required answers that show
    or cite a call that never ran at least :data:`ARCHETYPE_PHANTOM`), ``Always-Call``
    (UTR at least :data:`ALWAYS_CALL_UTR`), ``Never-Call`` (TSR at least
    :data:`NEVER_CALL_TSR`), ``disciplined`` (UTR at most :data:`DISCIPLINED_UTR` and
    CTRL-Acc at least :data:`DISCIPLINED_CTRL`), else ``mixed``.
    """
    if invalid is not None and invalid >= ARCHETYPE_INVALID:
        return "invalid output"
    if phantom is not None and phantom >= ARCHETYPE_PHANTOM:
        return "Phantom-Call"
    if utr is not None and utr >= ALWAYS_CALL_UTR:
        return "Always-Call"
    if tsr is not None and tsr >= NEVER_CALL_TSR:
        return "Never-Call"
    if (
        utr is not None
        and ctrl_acc is not None
        and utr <= DISCIPLINED_UTR
        and ctrl_acc >= DISCIPLINED_CTRL
    ):
        return "disciplined"
    return "mixed"


def archetype_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Each model's calling profile (%) and :func:`archetype`, over its finished answers.

    Args:
        frame: Finished episodes with the rule ``label``, ``kind``, ``called``,
            ``claims_call`` and ``invalid`` (flagged runs included).
    """
    rows = []
    for model, group in frame.groupby("model", sort=True):
        required = group[group["kind"] == "tool_required"]
        controls = group[group["kind"] == "control"]
        shares = {
            "invalid": _fraction((group["invalid"] != "").sum(), len(group)),
            "phantom": _fraction(
                (~required["called"] & required["claims_call"]).sum(), len(required)
            ),
            "tsr": _fraction((required["label"] == "tool_skip").sum(), len(required)),
            "utr": _fraction((controls["label"] == "unnecessary_tool_use").sum(), len(controls)),
            "ctrl_acc": _fraction((controls["label"] == "correct").sum(), len(controls)),
        }
        rows.append(
            {
                "model": model,
                "answers": len(group),
                "invalid %": _scaled(shares["invalid"]),
                "phantom %": _scaled(shares["phantom"]),
                "TSR %": _scaled(shares["tsr"]),
                "UTR %": _scaled(shares["utr"]),
                "CTRL-Acc %": _scaled(shares["ctrl_acc"]),
                "archetype": archetype(**shares),
            }
        )
    return pd.DataFrame(rows)


def _fraction(k: Any, n: int) -> float | None:
    return int(k) / n if n else None


def _scaled(share: float | None) -> float | None:
    return None if share is None else round(100 * share, 2)


def judged_or_rule(raters: pd.DataFrame, rater: str) -> pd.Series:
    """A rater's labels, where a judge gave none the rule's (the release's per-judge rule).

    Args:
        raters: :func:`rater_frame` rows.
        rater: ``rule``, ``judge_a`` or ``judge_b``.
    """
    if rater == "rule":
        return raters["rule"]
    labels = raters[rater].astype(object)
    return labels.where(labels.notna(), raters["rule"])


def _rater_ctur(raters: pd.DataFrame, rater: str) -> float | None:
    """CTUR (%) by one rater as :func:`rater_ctur_table` counts it, over all models."""
    required = raters[raters["kind"] == "tool_required"]
    if rater == "ensemble":
        labelled = required[required["ensemble"].notna()]
        return _percent(labelled["ensemble"] == "correct")
    return _percent(judged_or_rule(required, rater) == "correct")


def rater_ctur_table(raters: pd.DataFrame) -> pd.DataFrame:
    """CTUR (%) of every model by the rule, judge A, judge B and the ensemble.

    The rule and each judge are counted over all the model's tool-required episodes
    (``n``): where a judge gave no label the rule's label stands
    (:func:`judged_or_rule`), as the release counts per-judge CTUR; ``labelled`` is how
    many of them the judge did label. The ensemble is over the episodes both judges
    labelled (its ``n``), as on the leaderboard.
    """
    rows = []
    required = raters[raters["kind"] == "tool_required"]
    for model, group in required.groupby("model", sort=True):
        row: dict[str, Any] = {"model": model}
        row["rule n"] = len(group)
        row["rule CTUR %"] = _percent(group["rule"] == "correct")
        for rater in JUDGES:
            row[f"{rater} n"] = len(group)
            row[f"{rater} labelled"] = int(group[rater].notna().sum())
            row[f"{rater} CTUR %"] = _percent(judged_or_rule(group, rater) == "correct")
        labelled = group[group["ensemble"].notna()]
        row["ensemble n"] = len(labelled)
        row["ensemble CTUR %"] = _percent(labelled["ensemble"] == "correct")
        rows.append(row)
    return pd.DataFrame(rows)


VOTE_COLUMNS = {
    "unanimous": "unanimous %",
    "one_dissent": "one dissent %",
    "joint_overrule": "joint overrule %",
    "three_way_tie": "three-way tie %",
}


def votes_table(raters: pd.DataFrame) -> pd.DataFrame:
    """How the three raters voted (:func:`vote_pattern`), overall and per model.

    Over the episodes both judges labelled: the share (%) of each pattern, and the counts
    of joint overrules and three-way ties; ``unlabelled`` counts the episodes left out
    because a judge gave no label.
    """
    patterns = [
        vote_pattern(r, a, b)
        for r, a, b in zip(raters["rule"], raters["judge_a"], raters["judge_b"], strict=True)
    ]
    frame = raters.assign(pattern=pd.Series(patterns, index=raters.index, dtype=object))
    rows = []
    groups = [("all", frame), *((str(m), g) for m, g in frame.groupby("model", sort=True))]
    for model, group in groups:
        seen = Counter(p for p in group["pattern"] if p is not None)
        judged = sum(seen.values())
        row: dict[str, Any] = {"model": model, "judged": judged}
        for pattern, column in VOTE_COLUMNS.items():
            row[column] = _percent_of(seen[pattern], judged)
        row["joint overrules"] = seen["joint_overrule"]
        row["ties"] = seen["three_way_tie"]
        row["unlabelled"] = len(group) - judged
        rows.append(row)
    return pd.DataFrame(rows)


def draw_utr_ctur(board: pd.DataFrame, figure: Any) -> None:
    """UTR (x) against CTUR (y) per model in %, with Wilson interval bars.

    Models at the same point (to 0.5 points) share one label, their names one per line, so
    labels never overlap each other there.
    """
    axes = figure.subplots()
    at: dict[tuple[float, float], list[str]] = {}
    for _, row in board.iterrows():
        x, y = row["UTR %"], row["CTUR %"]
        if x is None or y is None or pd.isna(x) or pd.isna(y):
            continue
        xlow, xhigh = _interval(row["UTR 95% CI"], x)
        ylow, yhigh = _interval(row["CTUR 95% CI"], y)
        axes.errorbar(x, y, xerr=[[x - xlow], [xhigh - x]], yerr=[[y - ylow], [yhigh - y]], fmt="o")
        at.setdefault((round(float(x) * 2) / 2, round(float(y) * 2) / 2), []).append(
            str(row["model"])
        )
    for (x, y), names in at.items():
        # right of the point, or left of it near the right edge; above it, or below near the top
        axes.annotate(
            "\n".join(names),
            (x, y),
            textcoords="offset points",
            xytext=(6 if x < 70 else -6, 4 if y < 80 else -4),
            ha="left" if x < 70 else "right",
            va="bottom" if y < 80 else "top",
            fontsize=8,
        )
    axes.set_xlim(-2, 102)
    axes.set_ylim(-2, 102)
    axes.set_xlabel("UTR, % (controls with a needless call)")
    axes.set_ylabel("CTUR, % (tool-required tasks done right)")


def draw_rir(table: pd.DataFrame, figure: Any) -> None:
    """Grouped bars: RIR (%) per domain (x) and model (bars)."""
    axes = figure.subplots()
    models = sorted(str(m) for m in table["model"].unique())
    domains = sorted(str(d) for d in table["domain"].unique())
    width = 0.8 / max(1, len(models))
    for i, model in enumerate(models):
        mine = table[table["model"] == model].set_index("domain")
        values = [float(mine["RIR %"].get(d, 0.0) or 0.0) for d in domains]
        axes.bar([j + i * width for j in range(len(domains))], values, width, label=model)
    axes.set_xticks([j + 0.4 - width / 2 for j in range(len(domains))], domains, fontsize=8)
    axes.set_ylim(0, 100)
    axes.set_ylabel("RIR, %")
    # below the axes, never over a bar
    figure.legend(loc="outside lower center", ncols=min(4, len(models)), frameon=False, fontsize=7)


def _interval(text: str, value: float) -> tuple[float, float]:
    if text == "-":
        return value, value
    low, high = (float(v) for v in text.strip("[]").split(","))
    return low, high


def _model_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    model = str(row.get("model", ""))
    return None if model in ("", "all", POOLED) else {"model": model}


def rater_frame(frame: pd.DataFrame, judgements: pd.DataFrame) -> pd.DataFrame:
    """One row per episode: rule, judge_a and judge_b labels (and judge models), the ensemble.

    The ensemble is None where a judge gave no label (:func:`ensemble`). Also carries what
    the strata and the same-family check read: domain, mode, kind, tier and model family.
    """
    wide = judgements.pivot_table(
        index=["run", "key"], columns="rater", values="label", aggfunc="first"
    ).reset_index()
    wide.columns.name = None
    judges = judgements.pivot_table(
        index=["run", "key"], columns="rater", values="model", aggfunc="first"
    )
    judges.columns = [f"{c}_model" for c in judges.columns]
    # an episode both judges left unlabelled has no label row: keep its judges' models
    wide = wide.merge(judges.reset_index(), on=["run", "key"], how="outer")
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
    out["ensemble"] = pd.Series(
        [
            ensemble(r, a, b)
            for r, a, b in zip(out["rule"], out["judge_a"], out["judge_b"], strict=True)
        ],
        index=out.index,
        dtype=object,
    )
    return out


RATER_PAIRS = (("rule", "judge_a"), ("rule", "judge_b"), ("judge_a", "judge_b"))


def agreement_table(raters: pd.DataFrame) -> pd.DataFrame:
    """Kappas per rater pair and over all three, overall and per stratum.

    Each pair's Cohen's kappa is over the rows both of its raters labelled (the rule
    labels every row; for judge A and judge B, the rows both judges labelled), Fleiss'
    kappa over the rows both judges labelled; ``n a~b`` and ``n fleiss`` are those row
    counts, ``n`` the stratum's episodes. The strata are domain, failure mode, model and
    model tier (``unset`` when a run's model entry gives none).
    """

    def kappas(group: pd.DataFrame) -> dict[str, Any]:
        row: dict[str, Any] = {"n": len(group)}
        for a, b in RATER_PAIRS:
            both = group[group[a].notna() & group[b].notna()]
            value = cohen(list(both[a]), list(both[b])) if len(both) else None
            row[f"kappa {a}~{b}"] = None if value is None else round(value, 4)
            row[f"n {a}~{b}"] = len(both)
        full = group[group["judge_a"].notna() & group["judge_b"].notna()]
        value = (
            fleiss(list(full["rule"]), list(full["judge_a"]), list(full["judge_b"]))
            if len(full)
            else None
        )
        row["fleiss"] = None if value is None else round(value, 4)
        row["n fleiss"] = len(full)
        return row

    rows = [{"stratum": "all", "value": "all", **kappas(raters)}]
    for column in ("domain", "mode", "model", "tier"):
        if column not in raters:
            continue
        for value, group in raters.groupby(column, sort=True):
            rows.append({"stratum": column, "value": value, **kappas(group)})
    return pd.DataFrame(rows)


SCHEMA_NOTE = (
    "Per model, over its finished episodes (flagged runs included): 'expected calls' are the "
    "calls of the task's expected tool, 'schema violations' those whose arguments broke the "
    "tool's parameter schema, 'rules broken' the schema rules they broke (a call can break "
    "several) and 'episodes' the episodes with such a call. A release task's expected "
    "tool serves such a call anyway, as the release's harness does; a built-in tool refuses "
    "it with a 400. The violations are stored on each trace entry; episodes stored before "
    "they were count none. 'bad_calls' in the accuracy table counts these calls too."
)


def schema_checks(trace: list[dict[str, Any]], expected_tool: str | None) -> dict[str, int]:
    """The expected tool's calls in a stored trace, and the schema violations they carried.

    Args:
        trace: The episode's stored trace entries (JSON); an entry stored before
            ``violations`` existed has none.
        expected_tool: The task's expected tool (None for a control: no call is expected).

    Returns:
        ``expected_calls``, ``schema_violations`` (those with a violation) and
        ``schema_rules_broken`` (how many schema rules they broke in all).
    """
    expected = [e for e in trace if expected_tool and e["call"]["name"] == expected_tool]
    broken = [len(e.get("violations") or ()) for e in expected]
    return {
        "expected_calls": len(expected),
        "schema_violations": sum(1 for n in broken if n),
        "schema_rules_broken": sum(broken),
    }


def schema_violation_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per model: its expected calls, those that broke the tool's schema, the rules broken.

    Args:
        frame: Finished episodes with :func:`schema_checks`' columns.
    """
    rows = []
    for model, group in frame.groupby("model", sort=True):
        rows.append(
            {
                "model": model,
                "expected calls": int(group["expected_calls"].sum()),
                "schema violations": int(group["schema_violations"].sum()),
                "rules broken": int(group["schema_rules_broken"].sum()),
                "episodes": int((group["schema_violations"] > 0).sum()),
            }
        )
    return pd.DataFrame(rows)


def claims_call(answer: str, task: Any) -> bool:
    """Whether an answer cites a tool ("Per get_stock_quote, ...") or shows a call as text.

    The tools are the task's own: the built-in domain's, or a release task's release tools.
    """
    names = release_tool_names(task)
    lowered = answer.lower()
    return any(name in lowered for name in names or _tool_names(task.domain)) or (
        lowered.startswith(("per the tool", "according to the tool"))
    )


def vocabulary(task: Any) -> frozenset[str]:
    """The field names an answer could only have taken from a tool, for this task.

    A built-in task: its domain's tool output fields. A task imported from a v5 release:
    the release's own return fields only (:func:`release_vocabulary`).
    """
    release = release_vocabulary(task)
    return _vocabulary(task.domain) if release is None else release


@cache
def _vocabulary(domain: str) -> frozenset[str]:
    return frozenset(fail_domain(domain).field_vocabulary())


@cache
def _tool_names(domain: str) -> frozenset[str]:
    return frozenset(tool.name.lower() for tool in fail_domain(domain).tools)
