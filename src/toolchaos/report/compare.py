"""Paired comparison of two models on the same episodes, with McNemar's test.

Episodes are paired by (suite, task, arm, sample); a pair counts only when both episodes
finished (a harness error leaves its pair out). McNemar's test asks whether the two
discordant counts differ more than chance allows (McNemar, 1947; statsmodels'
``mcnemar``): the exact binomial test when fewer than :data:`EXACT_BELOW` pairs are
discordant, else the chi-square statistic with continuity correction.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from pydantic import BaseModel

from toolchaos.core.errors import BadInput
from toolchaos.report.tables import load_frame
from toolchaos.scoring.tables import scorable_mask
from toolchaos.stats.agreement import McNemar, mcnemar_test

PAIR_KEY = ["suite", "task_id", "arm", "sample"]


class Flip(BaseModel):
    """One pair whose outcome differs between the two models."""

    suite: str
    task_id: str
    arm: str
    sample: int
    a_correct: bool
    b_correct: bool


class Comparison(BaseModel):
    """Model A against model B, pooled over arms and per arm, with every flipped task."""

    dir_a: str
    dir_b: str
    model_a: str
    model_b: str
    unpaired_a: int
    unpaired_b: int
    overall: McNemar
    by_arm: dict[str, McNemar]
    flipped: list[Flip]


def _test(pairs: pd.DataFrame) -> McNemar:
    a, b = pairs["correct_a"] == 1, pairs["correct_b"] == 1
    return mcnemar_test(
        int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum())
    )


def _pick(frame: pd.DataFrame, directory: Path, model: str | None, flag: str) -> str:
    models = sorted(str(m) for m in frame["model"].unique()) if not frame.empty else []
    if not models:
        raise BadInput(f"{directory} holds no episodes to compare")
    if model is None:
        if len(models) == 1:
            return models[0]
        listed = ", ".join(models) or "none"
        raise BadInput(f"{directory} holds {len(models)} models ({listed}); name one with {flag}")
    if model not in models:
        raise BadInput(
            f"{directory} holds no episodes of model {model!r} (it has {', '.join(models)})"
        )
    return model


def compare(
    dir_a: Path, dir_b: Path, model_a: str | None = None, model_b: str | None = None
) -> Comparison:
    """Compare model A (in ``dir_a``) with model B (in ``dir_b``) task by task.

    Args:
        dir_a: A run directory.
        dir_b: A run directory (may be ``dir_a`` when it holds both models).
        model_a: The model of ``dir_a``; needed when it holds more than one.
        model_b: The model of ``dir_b``; needed when it holds more than one.

    Raises:
        BadInput: A model is ambiguous or missing, or no episode pairs up.
    """
    frame_a, frame_b = load_frame([dir_a]), load_frame([dir_b])
    model_a = _pick(frame_a, dir_a, model_a, "--model-a")
    model_b = _pick(frame_b, dir_b, model_b, "--model-b")
    if dir_a.resolve() == dir_b.resolve() and model_a == model_b:
        raise BadInput(f"both sides are {model_a} in {dir_a}; name two models to compare")
    side_a = frame_a[(frame_a["model"] == model_a) & scorable_mask(frame_a)]
    side_b = frame_b[(frame_b["model"] == model_b) & scorable_mask(frame_b)]
    columns = [*PAIR_KEY, "correct"]
    pairs = side_a[columns].merge(side_b[columns], on=PAIR_KEY, suffixes=("_a", "_b"))
    if pairs.empty:
        raise BadInput(
            f"no finished episodes of {model_a} in {dir_a} and {model_b} in {dir_b} share a "
            "(suite, task, arm, sample)"
        )
    pairs = pairs.sort_values(PAIR_KEY, kind="stable")
    flips = pairs[pairs["correct_a"] != pairs["correct_b"]]
    return Comparison(
        dir_a=str(dir_a),
        dir_b=str(dir_b),
        model_a=model_a,
        model_b=model_b,
        unpaired_a=len(frame_a[frame_a["model"] == model_a]) - len(pairs),
        unpaired_b=len(frame_b[frame_b["model"] == model_b]) - len(pairs),
        overall=_test(pairs),
        by_arm={str(arm): _test(group) for arm, group in pairs.groupby("arm", sort=True)},
        flipped=[
            Flip(
                suite=str(row["suite"]),
                task_id=str(row["task_id"]),
                arm=str(row["arm"]),
                sample=int(row["sample"]),
                a_correct=bool(row["correct_a"]),
                b_correct=bool(row["correct_b"]),
            )
            for row in flips.to_dict(orient="records")
        ],
    )
