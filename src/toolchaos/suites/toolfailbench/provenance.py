"""Auditing the judges: where labels came from, self-contradictions, what re-judging moved.

Every label ``toolchaos judge`` stores carries its provenance in the judgement's
``detail`` (:func:`toolchaos.scoring.judging.provenance`: the judge's spec, the model id
its provider returned, a hash of the prompt, the rubric and its version, the temperature
and the time) and, where its rationale argues for another label, that label
(``contradicts``, :func:`toolchaos.suites.toolfailbench.judges.contradicting_label`).
``toolchaos judge --rejudge`` keeps the labels it replaces
(:meth:`toolchaos.runner.store.Store.keep_as_earlier`); the tables here compare the two
rounds per rater and model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from toolchaos.suites.toolfailbench.judges import RATERS

JUDGES = tuple(name for name, _ in RATERS)
"""The two judges' rater names."""


def provenance_table(judgements: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per rater and judge: how many labels, the model ids served, rubric, version, time span.

    Labels stored before provenance was kept count under ``unrecorded``.
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in judgements:
        groups.setdefault((str(row["rater"]), str(row["model"])), []).append(row)
    rows = []
    for (rater, spec), members in sorted(groups.items()):
        found = [(m.get("detail") or {}).get("provenance") for m in members]
        known = [p for p in found if isinstance(p, dict)]
        times = sorted(str(p.get("time", "")) for p in known if p.get("time"))

        def values(name: str, known: list[dict[str, Any]] = known) -> str:
            seen = sorted({str(p.get(name, "")) for p in known} - {""})
            return ", ".join(seen) or "-"

        rows.append(
            {
                "rater": rater,
                "judge": spec,
                "labels": len(members),
                "unrecorded": len(members) - len(known),
                "model id served": values("model_id"),
                "rubric": values("rubric"),
                "rubric version": values("rubric_version"),
                "temperature": values("temperature"),
                "prompts": len({p.get("prompt_sha256") for p in known}),
                "first": times[0] if times else "-",
                "last": times[-1] if times else "-",
            }
        )
    return pd.DataFrame(rows)


def contradiction_table(judgements: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per rater and judge: the labels whose rationale names another label, and the commonest.

    Empty when no stored label contradicts its rationale.
    """
    counts: Counter[tuple[str, str]] = Counter()
    flagged: dict[tuple[str, str], Counter[str]] = {}
    for row in judgements:
        if row.get("label") is None:
            continue
        key = (str(row["rater"]), str(row["model"]))
        counts[key] += 1
        other = (row.get("detail") or {}).get("contradicts")
        if other:
            flagged.setdefault(key, Counter())[f"{row['label']} -> {other}"] += 1
    rows = []
    for key, pairs in sorted(flagged.items()):
        n = sum(pairs.values())
        rows.append(
            {
                "rater": key[0],
                "judge": key[1],
                "labels": counts[key],
                "contradicting": n,
                "contradicting %": round(100 * n / counts[key], 2),
                "commonest": ", ".join(f"{p} ({k})" for p, k in pairs.most_common(3)),
            }
        )
    return pd.DataFrame(rows)


def rejudge_tables(
    now: pd.DataFrame,
    before: pd.DataFrame,
    ctur: Callable[[pd.DataFrame, str], float | None],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What re-judging changed: per model and rater the flips and the CTUR move; the flips.

    Args:
        now: The rater frame (``rater_frame``) of the current labels.
        before: The rater frame of the earlier labels (those ``--rejudge`` replaced).
        ctur: CTUR (%) of a rater frame's tool-required rows by one rater (``judge_a``,
            ``judge_b`` or ``ensemble``), as the per-rater CTUR table counts it.

    Returns:
        ``moves``: per model and rater (the two judges and the ensemble), the earlier and
        current judge, the episodes both rounds labelled (n), how many flipped, and CTUR
        before, now and the move in points, each over the model's tool-required episodes;
        ``flips``: per rater, each (from, to) label pair that flipped and its count.
    """
    paired = now.merge(
        before[["run", "key", *JUDGES, *(f"{r}_model" for r in JUDGES), "ensemble"]],
        on=["run", "key"],
        suffixes=("", "_before"),
    )
    moves, flips = [], []
    for rater in (*JUDGES, "ensemble"):
        both = paired[paired[rater].notna() & paired[f"{rater}_before"].notna()]
        changed = both[both[rater] != both[f"{rater}_before"]]
        for (old, new), group in changed.groupby([f"{rater}_before", rater], sort=True):
            flips.append({"rater": rater, "from": old, "to": new, "n": len(group)})
        for model, group in paired.groupby("model", sort=True):
            mine = both[both["model"] == model]
            was = group.drop(columns=[*JUDGES, "ensemble"]).rename(
                columns={f"{r}_before": r for r in (*JUDGES, "ensemble")}
            )
            earlier, current = ctur(was, rater), ctur(group, rater)
            model_column = f"{rater}_model" if rater != "ensemble" else None
            moves.append(
                {
                    "model": model,
                    "rater": rater,
                    "judge before": _specs(group, f"{model_column}_before")
                    if model_column
                    else "-",
                    "judge now": _specs(group, model_column) if model_column else "-",
                    "n": len(mine),
                    "flipped": int((mine[rater] != mine[f"{rater}_before"]).sum()),
                    "CTUR before %": earlier,
                    "CTUR now %": current,
                    "move pp": None
                    if earlier is None or current is None
                    else round(current - earlier, 2),
                }
            )
    return pd.DataFrame(moves), pd.DataFrame(flips)


def _specs(frame: pd.DataFrame, column: str) -> str:
    return ", ".join(sorted({str(v) for v in frame[column].dropna()})) or "-"
