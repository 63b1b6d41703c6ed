"""Survey analysis: mean scores, top-box shares and NPS by question and segment."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.productivity._helpers import (
    DATA,
    combined,
    read_each,
)

STATS = {
    "mean_score": "average score",
    "top_box_pct": "top-box share (%)",
    "bottom_box_pct": "bottom-box share (%)",
    "nps": "NPS",
}


def _segments(ctx: TemplateContext, survey: Any) -> list[str]:
    return sorted(
        {r.segment for r in ctx.rows("survey_responses", lambda r: r.survey_id == survey.survey_id)}
    )


def _stat(ctx: TemplateContext, question: Any) -> str:
    options = ["mean_score", "top_box_pct", "bottom_box_pct"]
    if question.scale_max == 10:
        options.append("nps")
    return str(ctx.rng.choice(options))


def segment_of_question(ctx: TemplateContext) -> Draft:
    """Sequential: find a survey -> stats of one question -> the same question in one segment."""
    survey = ctx.pick("surveys")
    index = ctx.rng.randrange(len(survey.questions))
    question = survey.questions[index]
    segment = ctx.rng.choice(_segments(ctx, survey))
    field = _stat(ctx, question)
    prompt = ctx.say(
        "In the '{survey}' survey, question {qid} (\"{text}\"): check the overall numbers, "
        "then tell me the {stat} among {segment} respondents.",
        "For '{survey}', {qid} asks \"{text}\". What is the {stat} for the {segment} segment?",
        survey=survey.name,
        qid=question.question_id,
        text=question.text,
        stat=STATS[field],
        segment=segment,
    )
    steps = [
        RefStep(tool="list_surveys", args={"query": survey.name}),
        RefStep(
            tool="survey_question_stats",
            args={
                "survey": ref(0, "results", 0, "survey_id"),
                "question_id": ref(0, "results", 0, "questions", index, "question_id"),
            },
        ),
        RefStep(
            tool="survey_question_stats",
            args={
                "survey": ref(1, "survey_id"),
                "question_id": ref(1, "question_id"),
                "segment": segment,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def segments_compared(ctx: TemplateContext) -> Draft:
    """Parallel: one question's statistic in three to six segments; the best or worst."""
    survey = ctx.pick("surveys")
    segments = _segments(ctx, survey)
    if len(segments) < 3:
        raise NoFit("fewer than three segments")
    chosen = ctx.rng.sample(segments, ctx.count(3, min(6, len(segments))))
    question = ctx.rng.choice(survey.questions)
    field = _stat(ctx, question)
    op = ctx.rng.choice(["max", "min"])
    prompt = ctx.say(
        "'{survey}', {qid}: compare the {stat} of {names}. What's the {w} value?",
        "Among the {names} segments in '{survey}', which has the {w} {stat} on "
        "question {qid}? Give me the value.",
        survey=survey.name,
        qid=question.question_id,
        stat=STATS[field],
        names=listing(chosen),
        w={"max": "highest", "min": "lowest"}[op],
    )
    steps = [
        RefStep(
            tool="survey_question_stats",
            args={"survey": survey.name, "question_id": question.question_id, "segment": s},
        )
        for s in chosen
    ]
    return Draft(prompt, steps, combined(op, field, range(len(chosen))))


def surveys_nps(ctx: TemplateContext) -> Draft:
    """Parallel: the 0-10 recommendation question of three or more surveys; best or worst."""
    surveys = ctx.sample("surveys", ctx.count(3, len(ctx.rows("surveys"))))
    questions = [next(q for q in s.questions if q.scale_max == 10) for s in surveys]
    field = ctx.rng.choice(["nps", "mean_score"])
    op = ctx.rng.choice(["max", "min"])
    prompt = ctx.say(
        "Each of {names} has a 0-10 recommendation question. What's the {w} {stat} across them?",
        "Recommendation scores (the 0-10 question) in {names}: give me the {w} {stat}.",
        names=listing([s.name for s in surveys], "'"),
        w={"max": "highest", "min": "lowest"}[op],
        stat=STATS[field],
    )
    steps = [
        RefStep(
            tool="survey_question_stats", args={"survey": s.survey_id, "question_id": q.question_id}
        )
        for s, q in zip(surveys, questions, strict=True)
    ]
    return Draft(prompt, steps, combined(op, field, range(len(surveys))))


def weakest_question(ctx: TemplateContext) -> Draft:
    """Mixture: find a survey -> stats of each 1-5 question -> the lowest or highest."""
    survey = ctx.pick("surveys")
    indexes = [i for i, q in enumerate(survey.questions) if q.scale_max == 5]
    if len(indexes) < 2:
        raise NoFit("fewer than two 1-5 questions")
    segment = ctx.rng.choice([None, *_segments(ctx, survey)])
    field = ctx.rng.choice(["mean_score", "top_box_pct"])
    op = ctx.rng.choice(["max", "min"])
    who = f" among {segment} respondents" if segment else ""
    prompt = ctx.say(
        "In '{survey}', look at every 1-5 question{who}. What's the {w} {stat} of any question?",
        "Across the 1-to-5 questions of the '{survey}' survey{who}, give me the {w} {stat}.",
        survey=survey.name,
        who=who,
        w={"max": "highest", "min": "lowest"}[op],
        stat=STATS[field],
    )
    steps = [RefStep(tool="list_surveys", args={"query": survey.name})]
    for i in indexes:
        args: dict[str, Any] = {
            "survey": ref(0, "results", 0, "survey_id"),
            "question_id": ref(0, "results", 0, "questions", i, "question_id"),
        }
        if segment:
            args["segment"] = segment
        steps.append(RefStep(tool="survey_question_stats", args=args))
    return Draft(prompt, steps, combined(op, field, range(1, 1 + len(indexes))))


def two_segments_one_question(ctx: TemplateContext) -> Draft:
    """Mixture: find a survey -> one question in two to four segments -> the max or min."""
    survey = ctx.pick("surveys")
    every = _segments(ctx, survey)
    if len(every) < 2:
        raise NoFit("fewer than two segments")
    segments = ctx.rng.sample(every, ctx.count(2, min(4, len(every))))
    index = ctx.rng.randrange(len(survey.questions))
    question = survey.questions[index]
    field = _stat(ctx, question)
    asked = {"survey": survey.survey_id, "question_id": question.question_id}
    values = read_each(ctx, "survey_question_stats", field, "segment", segments, **asked)
    op = ctx.rng.choice(["max", "min"])
    best = max(values) if op == "max" else min(values)
    if values.count(best) > 1:
        raise NoFit("a tie")
    prompt = ctx.say(
        "Survey '{survey}', question {qid}: {versus}. Report the {w} {stat} among them.",
        "How do {names} differ on {qid} of '{survey}'? I just need the {w} {stat}.",
        survey=survey.name,
        qid=question.question_id,
        versus=" versus ".join(segments),
        names=listing(segments),
        w={"max": "highest", "min": "lowest"}[op],
        stat=STATS[field],
    )
    steps = [RefStep(tool="list_surveys", args={"query": survey.name})]
    steps += [
        RefStep(
            tool="survey_question_stats",
            args={
                "survey": ref(0, "results", 0, "survey_id"),
                "question_id": question.question_id,
                "segment": s,
            },
        )
        for s in segments
    ]
    return Draft(prompt, steps, combined(op, field, range(1, 1 + len(segments))))


SUBTOPIC = Subtopic(
    name="survey analysis",
    topic=DATA,
    templates={
        "sequential": [segment_of_question],
        "parallel": [segments_compared, surveys_nps],
        "mixture": [weakest_question, two_segments_one_question],
    },
)
