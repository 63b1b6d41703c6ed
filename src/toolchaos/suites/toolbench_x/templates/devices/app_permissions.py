"""Devices subtopic "app permissions": what apps may access on phones, tablets and laptops."""

from __future__ import annotations

from collections import Counter
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
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    SECURITY,
    extreme,
    find_device,
    the,
)

ACCESS_WORDS = {
    "denied": "deny it",
    "ask": "make it ask every time",
    "while_using": "allow it only while the app is open",
}


def _device_name(ctx: TemplateContext, grant: Any) -> str:
    name: str = ctx.world.table("devices")[grant.device_id].name
    return name


def restrict_permission(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the device -> the app's grant -> change its access."""
    grant = ctx.pick("permissions", lambda g: g.access in ("always", "while_using"))
    access = ctx.rng.choice([a for a in ACCESS_WORDS if a != grant.access])
    device = ctx.world.table("devices")[grant.device_id]
    spoken, finder = find_device(ctx, device)
    prompt = ctx.say(
        "On {device}, {app} has {permission} access. Please {how}.",
        "I don't like {app} using the {permission} on {device}. Change it: {how}.",
        "Privacy tweak for {device}: for {app}'s {permission} permission, {how}.",
        device=spoken,
        app=grant.app,
        permission=grant.permission,
        how=ACCESS_WORDS[access],
    )
    steps = [
        finder,
        RefStep(
            tool="list_app_permissions",
            args={
                "device": ref(0, "results", 0, "device_id"),
                "app": grant.app,
                "permission": grant.permission,
            },
        ),
        RefStep(
            tool="set_app_permission",
            args={
                "device": ref(1, "results", 0, "device_id"),
                "app": ref(1, "results", 0, "app"),
                "permission": ref(1, "results", 0, "permission"),
                "access": access,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def uses_of_grant(ctx: TemplateContext) -> Draft:
    """Sequential: search the device -> its record -> the app's use of one permission."""
    grant = ctx.pick("permissions", lambda g: g.uses_30d >= 11)
    spoken, finder = find_device(ctx, ctx.world.table("devices")[grant.device_id])
    prompt = ctx.say(
        "How many times did {app} access the {permission} on {device} in the last 30 days?",
        "On {device}, how often has {app} used its {permission} permission this past "
        "month (30 days)?",
        "Check {device}: number of {permission} accesses by {app} over 30 days?",
        app=grant.app,
        permission=grant.permission,
        device=spoken,
    )
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(
            tool="list_app_permissions",
            args={
                "device": ref(1, "device_id"),
                "app": grant.app,
                "permission": grant.permission,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", 0, "uses_30d"]]))


def _grants(ctx: TemplateContext, app: str, permission: str) -> list[Any]:
    return ctx.rows("permissions", lambda g: g.app == app and g.permission == permission)


def app_uses_across_devices(ctx: TemplateContext) -> Draft:
    """Parallel: app permissions on k devices; total, top or lowest uses in 30 days."""
    k = ctx.count(3, 6)
    grants = ctx.sample("permissions", k, lambda g: g.uses_30d >= 11)
    if len({g.device_id for g in grants}) != k:
        raise NoFit("two grants on one device")
    op, words = extreme(
        ctx,
        {
            "sum": "how many accesses in total",
            "max": "the highest single count",
            "min": "the lowest single count",
        },
    )
    parts = [f"{g.app}'s {g.permission} use on {the(_device_name(ctx, g))}" for g in grants]
    prompt = ctx.say(
        "Over the last 30 days, looking at {all}: {words}?",
        "Permission usage report for {semi}. Give me {words} (last 30 days).",
        all=listing(parts),
        semi="; ".join(parts[:-1]) + "; and " + parts[-1],
        words=words,
    )
    steps = [
        RefStep(
            tool="list_app_permissions",
            args={"device": _device_name(ctx, g), "app": g.app, "permission": g.permission},
        )
        for g in grants
    ]
    refs = [[i, "results", 0, "uses_30d"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def deny_everywhere(ctx: TemplateContext) -> Draft:
    """Mixture, writes: list an app's grants for a permission -> deny each one."""
    combos = Counter(
        (g.app, g.permission, g.access) for g in ctx.rows("permissions") if g.access != "denied"
    )
    app, permission, access = ctx.rng.choice(sorted(k for k, n in combos.items() if 2 <= n <= 4))
    listed = ctx.read("list_app_permissions", app=app, permission=permission, access=access)
    rows = listed["results"]
    words = {"always": "always", "while_using": "while in use", "ask": "ask-first"}[access]
    prompt = ctx.say(
        "Wherever {app} has {words} access to {permission}, deny it.",
        "Find every device where {app}'s {permission} permission is set to {words} and "
        "switch those to denied.",
        "Revoke {app}'s {permission} access on all devices where it's currently {words}.",
        app=app,
        permission=permission,
        words=words,
    )
    steps = [
        RefStep(
            tool="list_app_permissions",
            args={"app": app, "permission": permission, "access": access},
        )
    ]
    steps += [
        RefStep(
            tool="set_app_permission",
            args={
                "device": ref(0, "results", i, "device_id"),
                "app": app,
                "permission": permission,
                "access": "denied",
            },
        )
        for i in range(len(rows))
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def busiest_app_on_device(ctx: TemplateContext) -> Draft:
    """Mixture: k devices (independent searches) -> one app's grant on each -> top uses."""
    grant = ctx.pick("permissions", lambda g: g.uses_30d >= 11)
    others = [
        g
        for g in ctx.rows("permissions")
        if g.app == grant.app
        and g.permission == grant.permission
        and g.device_id != grant.device_id
        and g.uses_30d >= 11
    ]
    if not others:
        raise NoFit("the app has this permission on one device only")
    k = ctx.count(2, min(4, 1 + len(others)))
    pair = [grant, *ctx.rng.sample(others, k - 1)]
    op, words = extreme(ctx, {"sum": "combined", "max": "higher" if k == 2 else "highest"})
    prompt = ctx.say(
        "{app} uses the {permission} on {all}. What's the {words} number of accesses "
        "over the last 30 days?",
        "Compare {app}'s {permission} use on {all} (30 days): {words} count?",
        app=grant.app,
        permission=grant.permission,
        all=listing([the(_device_name(ctx, g)) for g in pair]),
        words=words,
    )
    steps = [RefStep(tool="search_devices", args={"query": _device_name(ctx, g)}) for g in pair]
    steps += [
        RefStep(
            tool="list_app_permissions",
            args={
                "device": ref(i, "results", 0, "device_id"),
                "app": grant.app,
                "permission": grant.permission,
            },
        )
        for i in range(k)
    ]
    refs = [[k + i, "results", 0, "uses_30d"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="app permissions",
    topic=SECURITY,
    templates={
        "sequential": [restrict_permission, uses_of_grant],
        "parallel": [app_uses_across_devices],
        "mixture": [deny_everywhere, busiest_app_on_device],
    },
)
