"""Fitness tracking: steps and distance, workouts, heart-rate zones, logging exercise."""

from __future__ import annotations

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    find_member,
    finish,
    member,
    owner,
    subject,
    then_each,
    when,
    who,
)

ACTIVITY_FIELDS = {
    "steps": "steps",
    "distance_km": "distance walked or run (km)",
    "calories_burned_kcal": "calories burned (kcal)",
    "active_minutes": "active minutes",
}
SNACKS = ("Protein bar", "Banana", "Greek yogurt, plain nonfat", "Almonds", "Apple")


def zone_of_workout(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> the workout on a day -> the zone of its heart rate."""
    workout = ctx.pick("workouts")
    m = ctx.world.table("members")[workout.member_id]
    same = ctx.read(
        "list_workouts",
        member=m.member_id,
        type=workout.type,
        from_date=workout.date,
        to_date=workout.date,
    )["results"]
    if len(same) != 1:
        raise NoFit("more than one workout of that type that day")
    ask = ctx.rng.choice(["zone_high_bpm", "percent_of_max"])
    question = {
        "zone_high_bpm": "what's the upper bound (bpm) of the training zone the average "
        "heart rate fell in",
        "percent_of_max": "what percent of {whose} maximum heart rate was the average",
    }[ask]
    prompt = ctx.say(
        "For {whose} {type} on {day}, " + question + "?",
        "Looking at the {type} workout {name} logged on {day}: " + question + "?",
        whose=owner(m),
        name=subject(m),
        type=workout.type,
        day=when(workout.date),
    )
    steps = [
        *find_member(
            m, "list_workouts", type=workout.type, from_date=workout.date, to_date=workout.date
        ),
        RefStep(
            tool="compute_heart_rate_zone",
            args={
                "member": ref(1, "results", 0, "member_id"),
                "heart_rate_bpm": ref(1, "results", 0, "avg_hr_bpm"),
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]], round=1)))


def latest_workout_day(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> workouts of a type -> the latest one's day or zone.

    The user does not know the date: it comes from the workout list. The last step reads
    the day's activity totals, or the training zone of that workout's average heart rate.
    """
    workout = ctx.pick("workouts")
    m = ctx.world.table("members")[workout.member_id]
    history = ctx.read("list_workouts", member=m.member_id, type=workout.type)["results"]
    last = len(history) - 1
    if len({w["date"] for w in history}) != len(history):
        raise NoFit("two workouts of that type on one day")
    ask = ctx.rng.choice(["activity", "zone"])
    steps = find_member(m, "list_workouts", type=workout.type)
    if ask == "activity":
        field = ctx.rng.choice(sorted(ACTIVITY_FIELDS))
        question = "what did the tracker log that whole day for " + ACTIVITY_FIELDS[field]
        steps.append(
            RefStep(
                tool="get_daily_activity",
                args={
                    "member": ref(0, "results", 0, "member_id"),
                    "date": ref(1, "results", last, "date"),
                },
            )
        )
    else:
        field = ctx.rng.choice(["zone_high_bpm", "percent_of_max"])
        question = {
            "zone_high_bpm": "what's the upper bound (bpm) of the training zone its average "
            "heart rate fell in",
            "percent_of_max": "what percent of the maximum heart rate was its average",
        }[field]
        steps.append(
            RefStep(
                tool="compute_heart_rate_zone",
                args={
                    "member": ref(0, "results", 0, "member_id"),
                    "heart_rate_bpm": ref(1, "results", last, "avg_hr_bpm"),
                },
            )
        )
    prompt = ctx.say(
        "Look at {whose} most recent {type} workout: " + question + "?",
        "{Name} logged a {type} session lately; for the latest one, " + question + "?",
        whose=owner(m),
        Name=subject(m),
        type=workout.type,
    )
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1)))


def log_workout_and_snack(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: find the member -> log a workout -> log a snack that day."""
    m = member(ctx, lambda p: p.relationship != "child")
    kind = ctx.rng.choice(["run", "walk", "cycle", "strength", "yoga", "swim"])
    minutes = ctx.rng.choice([25, 30, 40, 45, 50, 60])
    offset = ctx.rng.randint(0, 3)
    snack = ctx.rng.choice(SNACKS)
    time = ctx.rng.choice(["10:15", "16:30", "18:45", "08:20"])
    distance = {"run": 6.2, "walk": 4.5, "cycle": 18.0, "swim": 1.5}.get(kind)
    dist_text = f" covering {distance} km" if distance else ""
    prompt = ctx.say(
        "Log a {minutes}-minute {kind}{dist} for {name} on {day}, and add the {snack} "
        "{they} had afterwards at {time} as a snack that same day.",
        "{Name} did {minutes} minutes of {kind}{dist} on {day}. Record it, then log one "
        "{snack} as a snack at {time} on the same date.",
        minutes=minutes,
        kind=kind,
        dist=dist_text,
        name=who(m),
        Name=subject(m),
        they="I" if m.relationship == "self" else "they",
        day=when(ctx.day(-offset)),
        snack=snack.split(",")[0].lower(),
        time=time,
    )
    workout = {
        "member": ref(0, "results", 0, "member_id"),
        "date": ctx.day(-offset),
        "type": kind,
        "duration_min": minutes,
    }
    if distance is not None:
        workout["distance_km"] = distance
    steps = [
        RefStep(tool="search_members", args={"query": m.first_name}),
        RefStep(tool="log_workout", args=workout),
        RefStep(
            tool="log_meal",
            args={
                "member": ref(1, "member_id"),
                "date": ref(1, "date"),
                "meal": "snack",
                "time": time,
                "food": snack,
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def three_day_totals(ctx: TemplateContext) -> Draft:
    """Parallel: one member's activity on three to seven days; total or best of one field."""
    m = member(ctx)
    offsets = sorted(ctx.rng.sample(range(1, 15), ctx.count(3, 7)))
    dates = [ctx.day(-k) for k in offsets]
    field = ctx.rng.choice(sorted(ACTIVITY_FIELDS))
    op = ctx.rng.choice(["sum", "max"])
    words = {"sum": "the total", "max": "the highest single-day"}[op]
    prompt = ctx.say(
        "What's {words} {what} for {name} across {days}?",
        "Pull {whose} tracker data for each of {days}; what's {words} {what}?",
        words=words,
        what=ACTIVITY_FIELDS[field],
        name=who(m),
        whose=owner(m),
        days=listing(dates),
    )
    steps = [
        RefStep(tool="get_daily_activity", args={"member": m.first_name, "date": d}) for d in dates
    ]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(dates))], round=2)
    return finish(Draft(prompt, steps, answer))


def family_step_race(ctx: TemplateContext) -> Draft:
    """Parallel: three to five members' activity on one day; the most (or least) of a field."""
    people = ctx.sample("members", ctx.count(3, 5))
    d = ctx.day(-ctx.rng.randint(1, 14))
    field = ctx.rng.choice(["steps", "distance_km", "active_minutes"])
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "the most", "min": "the fewest"}[op]
    prompt = ctx.say(
        "Family step challenge for {day}: among {names}, what was {words} {what} anyone logged?",
        "On {day}, who moved least or most doesn't matter, just tell me {words} {what} "
        "recorded by any of {names}.",
        day=when(d),
        words=words,
        what=ACTIVITY_FIELDS[field],
        names=listing([p.first_name for p in people]),
    )
    steps = [
        RefStep(tool="get_daily_activity", args={"member": p.first_name, "date": d}) for p in people
    ]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(people))], round=2)
    return finish(Draft(prompt, steps, answer))


def steps_on_workout_days(ctx: TemplateContext) -> Draft:
    """Mixture: list workouts of a type -> the activity of each workout day -> aggregate."""
    workout = ctx.pick("workouts")
    m = ctx.world.table("members")[workout.member_id]
    listing = ctx.read("list_workouts", member=m.member_id, type=workout.type)["results"]
    if not 2 <= len(listing) <= 6 or len({w["date"] for w in listing}) != len(listing):
        raise NoFit("need two to six workouts on distinct days")
    field = ctx.rng.choice(["steps", "distance_km", "calories_burned_kcal"])
    op = ctx.rng.choice(["sum", "max"])
    words = {"sum": "in total", "max": "at most on any one of those days"}[op]
    prompt = ctx.say(
        "On the days {name} did a {type} workout, how many {what} did the tracker log {words}?",
        "Take every {type} session in {whose} workout history; looking at the daily "
        "tracker totals for those days, what are the {what} {words}?",
        name=subject(m),
        whose=owner(m),
        type=workout.type,
        what=ACTIVITY_FIELDS[field],
        words=words,
    )
    lead = [RefStep(tool="list_workouts", args={"member": m.first_name, "type": workout.type})]
    days = [
        {"member": m.first_name, "date": ref(0, "results", i, "date")} for i in range(len(listing))
    ]
    steps, refs = then_each(lead, "get_daily_activity", days, field)
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2)))


def week_distance(ctx: TemplateContext) -> Draft:
    """Mixture: find the member -> activity on three to seven days -> total of one field."""
    m = member(ctx)
    span = ctx.count(3, 7)
    start = ctx.rng.randint(span, 14)
    dates = [ctx.day(-(start - k)) for k in range(span)]
    field = ctx.rng.choice(["distance_km", "steps", "calories_burned_kcal"])
    prompt = ctx.say(
        "Add up {whose} {what} over the {n} days {d1} to {d3}.",
        "How much did {name} rack up in {what} from {d1} through {d3}, all together?",
        whose=owner(m),
        name=subject(m),
        what=ACTIVITY_FIELDS[field],
        n=span,
        d1=dates[0],
        d3=dates[-1],
    )
    lead = [RefStep(tool="search_members", args={"query": m.first_name})]
    days = [{"member": ref(0, "results", 0, "member_id"), "date": d} for d in dates]
    steps, refs = then_each(lead, "get_daily_activity", days, field)
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2)))


SUBTOPIC = Subtopic(
    name="fitness tracking",
    templates={
        "sequential": [zone_of_workout, log_workout_and_snack, latest_workout_day],
        "parallel": [three_day_totals, family_step_race],
        "mixture": [steps_on_workout_days, week_distance],
    },
)
