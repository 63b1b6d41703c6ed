"""The toolchaos command line: one typer app."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from toolchaos._clihelp import Typer
from toolchaos.core.errors import BadInput

app = Typer(add_completion=False)  # its help: the docstring of _main
# where stderr is a log or a pipe, a sentence stays on one line (no wrapping at 80 columns)
err = Console(stderr=True, soft_wrap=not sys.stderr.isatty())
out = Console()


def _say(console: Console, text: str) -> None:
    """Print text as it is: no markup read in it, no highlighting (it may be a model's)."""
    console.print(text, markup=False, highlight=False)


FIRST_STEPS = """\
toolchaos {version}: how tool-using LLM agents hold up when tools are unreliable.

Try it in seconds, no key and no server (two scripted baselines, 20 tasks):
  toolchaos run toolbench-x -m scripted/oracle,scripted/naive --subset 20 \\
      --out runs/first
  toolchaos report runs/first --html runs/first/report.html --summary

Then a real model:
  toolchaos run toolbench-x -m openai/gpt-4o-mini --subset 30 --out runs/gpt
  toolchaos run toolfailbench -m local/qwen2.5-coder-0.5b --subset 30 \\
      --out runs/local          (needs pip install 'toolchaos[local]')
  make run                      (the embedded model and the baselines on both
                                 suites, then one HTML report)

Look at the tasks:   toolchaos tasks toolbench-x --stats
Every command:       toolchaos --help  (each command's --help has an example)
"""


def _flag(*names: str, help: str) -> Any:
    """A boolean option shown without a value placeholder in --help."""
    return typer.Option(*names, help=help, metavar="")


def _version(value: bool) -> None:
    if value:
        from toolchaos._version import __version__

        out.print(f"toolchaos {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
            metavar="",
        ),
    ] = False,
) -> None:
    """Measure how tool-using LLM agents hold up when their tools are unreliable.

    `toolchaos` alone prints what to try first; each command's --help ends with an
    example, and docs/cli.md lists every command and option.

    Example: toolchaos run toolbench-x -m scripted/oracle,scripted/naive --subset 20
    --out runs/first
    """
    if ctx.invoked_subcommand is None:
        from toolchaos._version import __version__

        sys.stdout.write(FIRST_STEPS.format(version=__version__))


F = TypeVar("F", bound=Callable[..., Any])


def clean_errors(fn: F) -> F:
    """Turn BadInput into one sentence on stderr and exit code 2."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BadInput as exc:
            err.print(f"[bold red]error:[/] {exc}", markup=True, highlight=False)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def _task_file(suite: str, tasks: Path | None, dataset: str | None) -> str | None:
    """The task file ``--tasks`` or ``--dataset`` names (None: the suite's shipped set)."""
    if dataset is None:
        return str(tasks) if tasks else None
    if tasks is not None:
        raise BadInput("give --tasks or --dataset, not both")
    from toolchaos.suites import get_suite

    return str(get_suite(suite).version_path(dataset))


def _split(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


V = TypeVar("V")


def _old_name(name: str, new: str) -> Any:
    """An option's old name, kept for a release: accepted, not shown in --help."""
    return typer.Option(name, hidden=True, help=f"The old name of {new}.")


def _renamed(new: V | None, old: V | None, new_name: str, old_name: str) -> V | None:
    """The value given under an option's name or under its old one (docs/cli.md).

    The old name still works, silently (scripts and logs of earlier versions keep
    running); both at once is refused.
    """
    if old is None or old == []:
        return new
    if new is not None and new != []:
        raise BadInput(f"{old_name} is the old name of {new_name}: give {new_name} only")
    return old


@app.command()
@clean_errors
def run(
    suite: Annotated[str, typer.Argument(help="The suite to run, e.g. toolbench-x.")],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="The run directory.")],
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model",
            "-m",
            help="Model spec: scripted/<policy>, a baseline, with policy one of oracle, naive, "
            "retry, no-tool, lenient, follower, bypasser (ToolBench-X's gate policies), "
            "changelog-reader, authority-seeker, name-passer, retry-twice, doc-example, "
            "prior-step, capable (its cheap strategies, docs/toolbench-x.md), skip, "
            "ignore, fabricate, fabricate-plausible, overuse (a suite plays a policy it lacks "
            "as its fallback), coin[-PERCENT][@SEED] (oracle or no-tool at random per "
            "episode, seeded); "
            "openai/<model>, openai-compat/<model>, anthropic/<model>, local/<name>. Repeat or "
            "comma-separate.",
        ),
    ] = None,
    models_file: Annotated[
        Path | None,
        typer.Option("--models-file", help="A YAML file naming many models (see docs/models.md)."),
    ] = None,
    base_url: Annotated[
        list[str] | None,
        typer.Option(
            "--base-url", help="Endpoint /v1 URL for openai-compat models; repeat to round-robin."
        ),
    ] = None,
    prompt_mode: Annotated[
        bool | None,
        typer.Option(
            "--prompt-mode/--native-tools",
            help="Describe tools in the prompt and parse calls from text, or use the API's tools "
            "(default: native for API models, prompt mode for local ones).",
            metavar="",
        ),
    ] = None,
    cache: Annotated[
        Path | None,
        typer.Option(help="A response cache file; rerunning with it replays offline."),
    ] = None,
    arms: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated arms. Defaults per suite: toolbench-x clean,hazard (it also "
            "plays hint and oracle-label); toolfailbench clean (its only arm); own-tools "
            "clean,hazard."
        ),
    ] = None,
    max_tasks: Annotated[
        int | None, typer.Option("--max-tasks", help="Run only the first N tasks (N >= 1).")
    ] = None,
    rate_limit: Annotated[
        list[str] | None,
        typer.Option(
            "--rate-limit",
            help="PROVIDER=N (comma-separated, repeatable): at most N requests to that "
            "provider (or model spec) in flight across every worker, e.g. "
            "openai=40,anthropic=20; a models file may also give 'limits:'.",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None, _old_name("--limit", "--max-tasks N and --rate-limit PROVIDER=N")
    ] = None,
    subset: Annotated[
        int | None,
        typer.Option(
            help="Run N tasks spread over the suite's strata (ToolBench-X: workflow types and "
            "hazard families; ToolFailBench: domains and target failure modes)."
        ),
    ] = None,
    samples: Annotated[int, typer.Option(help="Samples per task and arm.")] = 1,
    concurrency: Annotated[int, typer.Option(help="Episodes played at once.")] = 8,
    workers: Annotated[
        int,
        typer.Option(
            help="Processes to spread API-model episodes over (this one commits); with "
            "--executor dask-local, the LocalCluster's workers."
        ),
    ] = 1,
    shard: Annotated[
        str | None,
        typer.Option(
            help="Play only slice I of N of the plan (I from 1), e.g. 2/8 for one job of a "
            "batch array; join the shards' directories with `toolchaos merge`."
        ),
    ] = None,
    executor: Annotated[
        str,
        typer.Option(
            help="local (this machine; default), dask (an existing cluster, --scheduler) or "
            "dask-local (a LocalCluster on 127.0.0.1 with --workers processes)."
        ),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(help="The dask scheduler address for --executor dask (tcp://host:8786)."),
    ] = None,
    tasks: Annotated[
        Path | None, typer.Option(help="A task file to run instead of the shipped set.")
    ] = None,
    dataset: Annotated[
        str | None,
        typer.Option(
            help="A shipped task set by version instead of the current one "
            "(ToolBench-X and ToolFailBench: v3, the default, v2 or v1)."
        ),
    ] = None,
    max_turns: Annotated[
        int,
        typer.Option(help="ToolBench-X: tool-loop turns before the final prompt (native loop)."),
    ] = 10,
    protocol: Annotated[
        str,
        typer.Option(
            help="native (tool loop) or decision (ToolBench-X); two-step (ToolFailBench). "
            "Default: the suite's own."
        ),
    ] = "",
    rounds: Annotated[
        int, typer.Option(help="ToolFailBench: tool rounds before the answer (the paper: 1).")
    ] = 1,
    retry_errors: Annotated[
        bool,
        _flag(
            "--retry-errors",
            help="Play again the episodes stored as error or indeterminate (decided by a "
            "fault toolchaos did not inject, such as a model provider failing mid-episode).",
        ),
    ] = False,
    dry_run: Annotated[
        bool,
        _flag(
            "--dry-run",
            help="Play nothing: print per model the episodes to play, the requests, tokens "
            "and cost (from the models file's prices) they would take.",
        ),
    ] = False,
    gguf: Annotated[
        Path | None, typer.Option(help="A GGUF file for local/<name> models instead of a pull.")
    ] = None,
    local_engine: Annotated[
        str | None,
        typer.Option(
            help="What runs local/<name> models: xllamacpp (a prebuilt wheel, the local "
            "extra) or llama-cpp-python (compiled, the llama-cpp extra). Default: "
            "$TOOLCHAOS_LOCAL_ENGINE, else xllamacpp."
        ),
    ] = None,
    task_option: Annotated[
        list[str] | None,
        typer.Option(
            "--task-option",
            "-T",
            help="KEY=VALUE: one of the suite's own options (repeatable), e.g. -T budget=3 "
            "(docs/extending.md); an unknown key is refused with the suite's options listed. "
            "The suites shipped here take their settings as the flags above.",
        ),
    ] = None,
    temperature: Annotated[
        float | None,
        typer.Option(
            help="Sampling temperature, 0 to 2, for every API and local model of the run "
            "(overrides a models file; scripted models ignore it). Unset: each entry's own, "
            "else the protocol's 0. A run directory keeps one temperature per model; the "
            "report compares runs of a model at different temperatures."
        ),
    ] = None,
) -> None:
    """Play every task x arm x sample with each model and store the episodes in --out.

    Rerunning with the same --out resumes: stored episodes are skipped (Ctrl-C keeps what
    is stored).

    Example: toolchaos run toolbench-x -m scripted/oracle,scripted/naive --subset 20
    --arms clean,hazard,hint --out runs/first
    """
    from toolchaos.agents.native import LoopConfig
    from toolchaos.models.base import is_local, is_scripted
    from toolchaos.models.config import ModelEntry, load_models_file
    from toolchaos.runner.run import RunConfig, RunInterrupted
    from toolchaos.runner.run import run as run_plan
    from toolchaos.runner.shard import Shard

    entries = load_models_file(models_file) if models_file else []
    overrides: dict[str, Any] = {}
    if base_url:
        overrides["base_urls"] = base_url
    if prompt_mode is not None:
        overrides["prompt_mode"] = prompt_mode
    if gguf is not None:
        overrides["gguf"] = str(gguf)
    entries += [ModelEntry(spec=spec, **overrides) for spec in _split(model or [])]
    if not entries:
        raise BadInput("name at least one model with --model or --models-file")
    if local_engine is not None:
        entries = [
            e.model_copy(update={"engine": local_engine}) if is_local(e.spec) else e
            for e in entries
        ]
    if temperature is not None:
        if not 0.0 <= temperature <= 2.0:
            raise BadInput(f"--temperature must be between 0 and 2, not {temperature:g}")
        entries = [
            e if is_scripted(e.spec) else e.model_copy(update={"temperature": temperature})
            for e in entries
        ]
    task_limit, rate_limits = _run_limits(max_tasks, rate_limit or [], limit or [], models_file)
    chosen: dict[str, Any] = {} if arms is None else {"arms": _split([arms])}
    config = RunConfig(
        suite=suite,
        models=entries,
        **chosen,
        samples=samples,
        limit=task_limit,
        subset=subset,
        concurrency=concurrency,
        workers=workers,
        tasks_path=_task_file(suite, tasks, dataset),
        loop=LoopConfig(max_turns=max_turns, rounds=rounds),
        retry_errors=retry_errors,
        cache_path=str(cache) if cache else None,
        protocol=protocol,
        suite_options=task_options(task_option or []),
        shard=Shard.parse(shard) if shard is not None else None,
        executor=executor,
        scheduler=scheduler,
        rate_limits=rate_limits,
    )
    if dry_run:
        _print_estimate(config, out_dir)
        return
    try:
        summary = run_plan(config, out_dir, err)
    except RunInterrupted as stop:
        _say(err, str(stop))
        raise typer.Exit(130) from None
    line = (
        f"{summary.played} episodes played, {summary.skipped} already stored, "
        f"{summary.errors} harness errors, "
        + (f"{summary.indeterminate} indeterminate, " if summary.indeterminate else "")
        + f"in {summary.seconds:.1f}s -> {summary.out}"
    )
    if summary.stored_errors:
        line += (
            f" ({summary.stored_errors} of the stored ones are harness errors or "
            "indeterminate: add "
            "--retry-errors to play them again)"
        )
    _say(err, line)
    if summary.played and summary.errors == summary.played:
        _say(
            err,
            f"error: every one of the {summary.played} episodes played ended in a harness "
            f"error, so nothing usable was stored; the first: {summary.first_error}",
        )
        raise typer.Exit(1)


def _print_estimate(config: Any, out_dir: Path) -> None:
    """``run --dry-run``: per model, the episodes to play, requests, tokens and cost."""
    from toolchaos.runner.estimate import estimate

    rows = estimate(config, out_dir)
    _say(out, f"dry run: nothing is played or written ({out_dir})")
    for row in rows:
        line = f"  {row.model}: {row.to_play} of {row.planned} episodes to play"
        if row.stored:
            line += f" ({row.stored} stored)"
        if row.requests[1]:
            line += "; " + _bounds(row.requests, row.input_tokens, row.output_tokens, row.cost_usd)
        elif row.to_play:
            line += " (scripted: no requests, no cost)"
        _say(out, line)
    _say(out, "the bounds are explained in docs/cli.md (run --dry-run)")


def _bounds(
    requests: tuple[int, int],
    input_tokens: tuple[int, int],
    output_tokens: int,
    cost: tuple[float, float] | None,
) -> str:
    """A dry run's bounds in words: requests, input and output tokens, and the cost."""
    text = (
        f"{requests[0]:,}-{requests[1]:,} requests, {input_tokens[0]:,}-{input_tokens[1]:,} "
        f"input tokens, at most {output_tokens:,} output tokens"
    )
    if cost is None:
        return text + "; no prices in the models file, so no cost"
    return text + f"; {_dollars(cost[0])}-{_dollars(cost[1])}"


def _dollars(value: float) -> str:
    return f"${value:,.2f}" if value >= 1 else f"${value:.4f}"


def task_options(values: list[str]) -> dict[str, str]:
    """``-T KEY=VALUE`` flags as a dict (the suite's options model checks the values)."""
    found: dict[str, str] = {}
    for value in values:
        key, sep, given = value.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BadInput(f"-T {value!r}: give a suite option as KEY=VALUE, e.g. -T budget=3")
        if key in found:
            raise BadInput(f"-T {key} is given twice")
        found[key] = given.strip()
    return found


def _run_limits(
    max_tasks: int | None, rate_limit: list[str], old_limit: list[str], models_file: Path | None
) -> tuple[int | None, dict[str, int]]:
    """The task limit (``--max-tasks N``) and the provider limits (``--rate-limit NAME=N``).

    ``old_limit`` holds the values of ``--limit``, the old name of both: a number is a
    task limit, ``NAME=N`` a provider limit.
    """
    from toolchaos.runner.limits import load_limits, parse_limits

    def is_number(value: str) -> bool:
        return value.strip().removeprefix("-").isdigit()

    numbers = [int(v) for v in old_limit if is_number(v)]
    flag = "--limit" if numbers else "--max-tasks"  # the name the user gave
    numbers += [] if max_tasks is None else [max_tasks]
    if len(numbers) > 1:
        raise BadInput("give --max-tasks N (a number of tasks) once")
    if numbers and numbers[0] < 1:
        raise BadInput(f"{flag} {numbers[0]}: the number of tasks must be at least 1")
    rates = load_limits(models_file) if models_file else {}
    rates |= parse_limits([v for v in old_limit if not is_number(v)] + rate_limit)
    return (numbers[0] if numbers else None), rates


@app.command()
@clean_errors
def report(
    directories: Annotated[list[Path], typer.Argument(help="One or more run directories.")],
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model",
            "-m",
            help="Report only this model's episodes (a spec as stored, e.g. scripted/oracle); "
            "repeat or comma-separate.",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        _flag(
            "--json",
            help="Print one JSON object instead of tables: every table (name, title, suite, "
            "columns, rows), the accuracy rows, notes, headline and files.",
        ),
    ] = False,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Where to write report.md, report.tex, CSVs and figures/ (default: DIR for "
            "one run; for several, a 'report' folder in the folder they share).",
        ),
    ] = None,
    write: Annotated[Path | None, _old_name("--write", "--out")] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write one self-contained HTML report to this file."),
    ] = None,
    html_episodes: Annotated[
        int,
        typer.Option(
            "--html-episodes",
            help="Most episodes the HTML trace viewer holds (spread over models, arms, "
            "labels and, for ToolBench-X, hazard families).",
        ),
    ] = 1000,
    thresholds: Annotated[
        str,
        typer.Option(
            "--thresholds",
            help="Failure-behaviour thresholds (ToolBench-X and own tools): default "
            "(tau_A=3, tau_R=1.00), median (medians over the failed episodes) or two numbers "
            "tau_A,tau_R.",
        ),
    ] = "default",
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            help="ToolFailBench: the rule set of the rule classifier, toolchaos (normalized "
            "matching, the default) or paper (the published v5 classifier's substring rules). "
            "The report names the one used.",
        ),
    ] = "toolchaos",
    figures: Annotated[
        bool,
        typer.Option("--figures/--no-figures", help="Draw the figures (PNG and SVG).", metavar=""),
    ] = True,
    summary: Annotated[
        bool,
        _flag(
            "--summary",
            help="Print only the notes, the headline numbers (ToolBench-X accuracy clean -> "
            "hazard, ToolFailBench CTUR, per model) and where the files are; the files are "
            "written in full.",
        ),
    ] = False,
) -> None:
    """Score the stored episodes and print the tables; write markdown, LaTeX, CSV, figures.

    Several run directories are reported side by side (many models in one table). The
    terminal shows every table fitted to its width (a wide one folded into parts); the
    written files keep each table whole. The report ends with the headline numbers.

    Example: toolchaos report runs/a runs/b --html runs/report.html --summary
    """
    from toolchaos.report.tables import (
        build_report,
        print_headline,
        print_report,
        report_destination,
        write_report,
    )
    from toolchaos.suites.base import ReportOptions

    if html_episodes < 0:
        raise BadInput("--html-episodes must be 0 or more")
    options = ReportOptions(thresholds=thresholds, rules=rules)
    result = build_report(directories, options, _split(model or []))
    written = _renamed(out_dir, write, "--out", "--write") or report_destination(directories)
    try:
        paths = write_report(result, written, figures=figures)
    except OSError as exc:  # unwritable, a file in the way, a missing parent under /proc
        where = exc.filename or written
        raise BadInput(f"cannot write the report into {where}: {exc.strerror or exc}") from None
    if html is not None:
        from toolchaos.report.html import write_html

        try:
            paths.append(write_html(result, html, html_episodes))
        except OSError as exc:
            raise BadInput(f"cannot write {html}: {exc.strerror}") from None
    if as_json:
        from toolchaos.report.tables import report_json

        sys.stdout.write(json.dumps(report_json(result, paths), indent=2) + "\n")
        return
    if summary:
        for note in result.notes:
            _say(out, note)
    else:
        print_report(result, out, written)
        for line in _wrote_lines(paths, err.width):
            _say(err, line)
    print_headline(result, out, written, html)


def _wrote_lines(paths: list[Path], width: int) -> list[str]:
    """``wrote in DIR: a, b, ...`` per folder, in the order written, wrapped between names."""
    import textwrap

    folders: dict[Path, list[str]] = {}
    for path in paths:
        folders.setdefault(path.parent, []).append(path.name)
    lines = []
    for folder, names in folders.items():
        # the folder stays on the line that says "wrote in", however long it is
        lines += textwrap.wrap(
            ", ".join(names),
            width - 1,
            initial_indent=f"wrote in {folder}/: ",
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return lines


@app.command("runs")
@clean_errors
def runs_command(
    folders: Annotated[
        list[Path] | None,
        typer.Argument(help="Run directories, or folders to look for them in (default: runs)."),
    ] = None,
    as_json: Annotated[
        bool, _flag("--json", help="Print one JSON object per run directory, one a line.")
    ] = False,
) -> None:
    """List run directories: suite, models, arms, episodes, errors, indeterminate, start.

    Every folder is searched at any depth; a run stopped or still playing says so.

    Example: toolchaos runs runs/main runs/gpt
    """
    from toolchaos.runner.listing import list_runs

    folders = folders or [Path("runs")]
    listed = list_runs(folders)
    if as_json:
        for run in listed:
            sys.stdout.write(run.model_dump_json() + "\n")
        return
    if not listed:
        _say(err, f"no run directories in {', '.join(str(f) for f in folders)}")
        return
    for run in listed:
        started = (run.started or "?")[:16].replace("T", " ")
        if (run.started or "").endswith("+00:00"):
            started += " UTC"
        state = "unfinished (stopped, or still playing)" if run.ended is None else "finished"
        _say(out, run.directory)
        extra = f", {run.indeterminate} indeterminate" if run.indeterminate else ""
        _say(out, f"  {run.suite}: {run.episodes} episodes, {run.errors} harness errors{extra}")
        _say(out, f"  started {started}, {state}")
        _say(out, f"  models: {', '.join(run.models) or '-'}")
        _say(out, f"  arms: {', '.join(run.arms) or '-'}")


@app.command()
@clean_errors
def view(
    directories: Annotated[list[Path], typer.Argument(help="One or more run directories.")],
    port: Annotated[
        int, typer.Option("--port", help="The port to serve on (0: any free port).")
    ] = 8765,
    host: Annotated[
        str,
        typer.Option("--host", help="The address to serve on; 127.0.0.1 keeps it on this machine."),
    ] = "127.0.0.1",
    html_episodes: Annotated[
        int, typer.Option("--html-episodes", help="Most episodes each report page holds.")
    ] = 1000,
    rules: Annotated[
        str, typer.Option("--rules", help="ToolFailBench rule set: toolchaos or paper.")
    ] = "toolchaos",
) -> None:
    """Serve the runs, their reports and trace viewer in a browser, live while they play.

    The runs page lists each directory (suite, models, arms, episodes stored of planned,
    errors, whether it is playing); /report puts every run side by side and /run/N shows
    one. Pages of a playing run reload every few seconds. Stop with Ctrl-C.

    Example: toolchaos view runs/main --port 8765
    """
    from toolchaos.report.view import Viewer, make_server
    from toolchaos.suites.base import ReportOptions

    if not 0 <= port <= 65535:
        raise BadInput(f"--port must be between 0 and 65535, not {port}")
    viewer = Viewer(directories, ReportOptions(rules=rules), html_episodes)
    try:
        server = make_server(viewer, host, port)
    except OSError as exc:
        raise BadInput(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    bound_host, bound_port = server.server_address[:2]
    address = f"http://{bound_host!s}:{bound_port}/"
    _say(out, f"serving {len(directories)} run(s) on {address} (Ctrl-C stops)")
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    # a shell without job control starts background commands with SIGINT ignored, and
    # Python keeps it so: set both stop signals here, however the command was started
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        _say(err, "stopped")
    finally:
        server.server_close()


@app.command("leaderboard")
@clean_errors
def leaderboard_command(
    directories: Annotated[list[Path], typer.Argument(help="One or more run directories.")],
    out_dir: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The folder to write the site into (created): index.html, models/, viewer.html.",
        ),
    ],
    model: Annotated[
        list[str] | None,
        typer.Option("--model", "-m", help="Only this model's episodes; repeat or comma-separate."),
    ] = None,
    html_episodes: Annotated[
        int,
        typer.Option("--html-episodes", help="Most episodes the trace viewer page holds."),
    ] = 1000,
    thresholds: Annotated[
        str,
        typer.Option(
            "--thresholds",
            help="Failure-behaviour thresholds: default, median or tau_A,tau_R (as report).",
        ),
    ] = "default",
    rules: Annotated[
        str, typer.Option("--rules", help="ToolFailBench rule set: toolchaos or paper.")
    ] = "toolchaos",
) -> None:
    """Write a static leaderboard site: a ranked index, a page per model, the trace viewer.

    The index ranks each leaderboard (per suite, protocol and arm) with bootstrap
    intervals, run-to-run spread, the noise MDD and whether each line ranks above the
    next decisively (Holm-corrected paired tests). Each model's page holds its results
    per hazard family and tier, failure behaviours and cost of recovery, every cell
    linked to its episodes in viewer.html. Open DIR/index.html; nothing is fetched.

    Example: toolchaos leaderboard runs/a runs/b --out site
    """
    from toolchaos.report.site import write_site
    from toolchaos.report.tables import build_report
    from toolchaos.suites.base import ReportOptions

    if html_episodes < 0:
        raise BadInput("--html-episodes must be 0 or more")
    options = ReportOptions(thresholds=thresholds, rules=rules)
    result = build_report(directories, options, _split(model or []))
    if result.frame.empty:
        raise BadInput("the runs hold no scored episode; there is nothing to rank")
    try:
        paths = write_site(result, out_dir, html_episodes)
    except OSError as exc:
        raise BadInput(
            f"cannot write the site into {exc.filename or out_dir}: {exc.strerror or exc}"
        ) from None
    pages = len(paths) - 2
    _say(
        out,
        f"wrote the site in {out_dir}/: index.html, {pages} model page(s) in models/, "
        f"viewer.html; open {paths[0]}",
    )


@app.command("plan-size")
@clean_errors
def plan_size(
    directories: Annotated[list[Path], typer.Argument(help="One or more pilot run directories.")],
    difference: Annotated[
        float,
        typer.Option(
            "--difference",
            help="The difference in accuracy to detect, a share: 0.05 for 5 points.",
        ),
    ],
    samples: Annotated[
        str,
        typer.Option("--samples", help="Comma-separated samples per task to plan for."),
    ] = "1,3,5,10",
    as_json: Annotated[bool, _flag("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """How many tasks a leaderboard needs to tell a difference apart at 80% power.

    From a pilot run's per-task variance: for each pair of adjacent models on each
    leaderboard, and each model against a rerun of itself, the tasks needed at each number
    of samples per task (paired test, alpha 0.05; docs/scoring.md, Noise floor).

    Example: toolchaos plan-size runs/pilot --difference 0.05 --samples 1,5
    """
    from toolchaos.report.noise import plan_size as plan
    from toolchaos.report.tables import cell_text, load_frame, render_table

    try:
        counts = [int(part) for part in samples.split(",") if part.strip()]
    except ValueError:
        raise BadInput(
            f"--samples must be comma-separated whole numbers, not {samples!r}"
        ) from None
    if not counts:
        raise BadInput("--samples must name at least one number of samples")
    for directory in directories:
        if not directory.is_dir():
            raise BadInput(f"{directory} is not a run directory")
    rows = plan(load_frame(directories), difference, counts)
    if as_json:
        sys.stdout.write(rows.to_json(orient="records", indent=2) + "\n")
        return
    headers = [str(c) for c in rows.columns]
    cells = [[cell_text(v, c) for v in rows[c]] for c in rows.columns]
    title = f"Tasks needed to detect {difference:.1%} at 80% power (alpha 0.05)"
    out.print(render_table(title, headers, cells))


@app.command()
@clean_errors
def compare(
    dir_a: Annotated[Path, typer.Argument(help="The run directory of model A.")],
    dir_b: Annotated[Path, typer.Argument(help="The run directory of model B (may be DIR_A).")],
    model_a: Annotated[
        str | None, typer.Option("--model-a", help="Model A, when DIR_A holds several.")
    ] = None,
    model_b: Annotated[
        str | None, typer.Option("--model-b", help="Model B, when DIR_B holds several.")
    ] = None,
    as_json: Annotated[bool, _flag("--json", help="Print one JSON object.")] = False,
) -> None:
    """Compare two models task by task: the paired 2x2 table, McNemar's test, what flipped.

    Episodes pair up by (suite, task, arm, sample); harness errors are left out.

    Examples (two runs, or two models of one run):
    toolchaos compare runs/gpt runs/local
    toolchaos compare runs/all runs/all --model-a scripted/oracle --model-b scripted/naive
    """
    from rich.markup import escape
    from rich.table import Table

    from toolchaos.report.compare import compare as run_compare

    result = run_compare(dir_a, dir_b, model_a, model_b)
    if as_json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
        return
    _say(
        out,
        f"A = {result.model_a} ({result.dir_a})\nB = {result.model_b} ({result.dir_b})\n"
        f"{result.overall.pairs} paired episodes",
    )
    view = Table()
    for column in ("", "B correct", "B wrong"):
        view.add_column(column)
    (both, only_a), (only_b, neither) = result.overall.table
    view.add_row("A correct", str(both), str(only_a))
    view.add_row("A wrong", str(only_b), str(neither))
    out.print(view)
    for name, test in [("all arms", result.overall), *result.by_arm.items()]:
        kind = "exact binomial" if test.exact else f"chi-square {test.statistic:.3f}"
        discordant = test.table[0][1] + test.table[1][0]
        out.print(
            f"{escape(name)}: McNemar p = {test.p_value:.4g} ({kind}; {test.pairs} pairs, "
            f"{discordant} discordant)",
            highlight=False,
        )
    if result.unpaired_a or result.unpaired_b:
        out.print(
            f"left out: {result.unpaired_a} episodes of A and {result.unpaired_b} of B "
            "without a finished partner",
            highlight=False,
        )
    out.print(f"{len(result.flipped)} flipped:", highlight=False)
    for flip in result.flipped:
        way = "A only" if flip.a_correct else "B only"
        _say(out, f"  {flip.task_id}  {flip.arm}  sample {flip.sample}: correct for {way}")


@app.command()
@clean_errors
def export(
    directory: Annotated[Path, typer.Argument(help="A run directory.")],
    fmt: Annotated[str, typer.Option("--format", help="The format: openai-jsonl.")],
    out_file: Annotated[
        Path | None, typer.Option("--out", "-o", help="The file to write (default: stdout).")
    ] = None,
) -> None:
    """Export the stored trajectories, one JSON line per episode.

    openai-jsonl: an object with "messages" (the chat-completions wire format) and
    "metadata" (key, model, task, arm, sample, status, correct, hazard, usage).

    Example: toolchaos export runs/first --format openai-jsonl --out first.jsonl
    """
    from toolchaos.report.export import check_format
    from toolchaos.report.export import export as run_export
    from toolchaos.runner.store import Store

    check_format(fmt)
    # refuse a directory without a run before writing anything
    Store.open_existing(directory, read_only=True).close()
    if out_file is None:
        count = run_export(directory, fmt, sys.stdout)
        err.print(f"{count} episodes exported", highlight=False)
        return
    try:
        out_file.parent.mkdir(parents=True, exist_ok=True)
        with out_file.open("w", encoding="utf-8") as handle:
            count = run_export(directory, fmt, handle)
    except OSError as exc:
        raise BadInput(f"cannot write {out_file}: {exc.strerror}") from None
    _say(err, f"{count} episodes -> {out_file}")


@app.command()
@clean_errors
def build(
    suite: Annotated[str, typer.Argument(help="The suite to build: toolbench-x or toolfailbench.")],
    out_file: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The JSONL task file to write (default: SUITE.jsonl)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="The generation seed.")] = 0,
    per_cell: Annotated[
        int, typer.Option(help="ToolBench-X: tasks per (subtopic, workflow type), at most 5.")
    ] = 5,
    keep_all: Annotated[
        bool,
        _flag(
            "--all",
            help="ToolBench-X: keep every validated task instead of selecting the v1 size "
            "(378 sequential, 358 parallel, 370 mixture).",
        ),
    ] = False,
) -> None:
    """Generate, screen, cap, assign hazards, validate and select a task set.

    Writes the JSONL task file and, beside it, the build report (FILE.build.json) with the
    count after every stage and the reason for every drop. With the defaults this is
    the task set of its size as shipped: `toolchaos build toolbench-x --seed 0`
    (ToolBench-X v3 at the paper's size, every cheap-strategy gate on), or
    `toolchaos build toolfailbench --seed 0`.

    Example: toolchaos build toolbench-x --seed 0 --out toolbench-x.jsonl
    """
    from toolchaos.suites import get_suite
    from toolchaos.suites.base import BuildOptions, to_jsonl

    built = get_suite(suite).build(BuildOptions(seed=seed, per_cell=per_cell, keep_all=keep_all))
    out_file = out_file or Path(f"{suite}.jsonl")
    report_path = out_file.with_suffix(".build.json")
    try:
        out_file.parent.mkdir(parents=True, exist_ok=True)
        out_file.write_text(to_jsonl(built.tasks), encoding="utf-8")
        report_path.write_text(built.report_json, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {out_file}: {exc.strerror}") from None
    err.print(built.summary, highlight=False)
    err.print(f"{len(built.tasks)} tasks -> {out_file}; build report -> {report_path}")
    for warning in built.warnings:
        err.print(f"warning: {warning}", style="yellow")


@app.command()
@clean_errors
def validate(
    targets: Annotated[
        list[str],
        typer.Argument(
            help="The suite (default: the 'suite' of the file's first task; needed for a "
            "release folder, e.g. toolfailbench), then a JSONL task file of any suite or a "
            "release folder.",
            metavar="[SUITE] TASK_FILE",
            show_default=False,
        ),
    ],
    old_suite: Annotated[str | None, _old_name("--suite", "the SUITE argument")] = None,
) -> None:
    """Run the shipping validators on every task of a file; exit 1 if any fails.

    ToolBench-X files are also checked as a set: a task that repeats an earlier one (the
    same prompt, or the same calls and answer in other words) fails.

    Example: toolchaos validate my-tasks.jsonl
    """
    from toolchaos.suites import get_suite, suite_of_file

    named, rest = _leading_suite(targets, old_suite, "TASK_FILE")
    if len(rest) != 1:
        raise BadInput("give one task file: toolchaos validate [SUITE] TASK_FILE")
    task_file = Path(rest[0])
    suite = get_suite(named or suite_of_file(task_file))
    tasks = suite.load(task_file)
    failing: set[str] = set()

    def show(problems: list[Any]) -> None:
        for problem in problems:
            failing.add(problem.task_id)
            _say(out, f"{problem.task_id}: {problem.check}: {problem.reason}")

    for task in tasks:
        show(suite.validate(task))
    show(suite.validate_set(tasks))  # a task that repeats another (ToolBench-X)
    out.print(f"{len(tasks) - len(failing)} of {len(tasks)} tasks pass")
    if failing:
        raise typer.Exit(1)


def _known(flag: str, value: str, known: set[str]) -> None:
    """Refuse a filter value that no task has, naming the closest ones."""
    if value in known:
        return
    import difflib

    close = difflib.get_close_matches(value, sorted(known), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise BadInput(f"no task has {flag} {value!r}{hint}")


@app.command()
@clean_errors
def tasks(
    suite: Annotated[str, typer.Argument(help="The suite, e.g. toolbench-x or toolfailbench.")],
    kind: Annotated[
        str | None,
        typer.Option(
            "--type",
            help="ToolBench-X: sequential, parallel or mixture; ToolFailBench: tool_required "
            "or control.",
        ),
    ] = None,
    hazard: Annotated[
        str | None, typer.Option(help="ToolBench-X: a hazard family or variant.")
    ] = None,
    subtopic: Annotated[str | None, typer.Option(help="ToolBench-X: a subtopic name.")] = None,
    domain: Annotated[
        str | None, typer.Option(help="ToolFailBench: a domain, e.g. finance.")
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            help="ToolFailBench: the target failure mode, tool_skip, result_ignore, "
            "output_fabrication or control."
        ),
    ] = None,
    stats: Annotated[bool, _flag("--stats", help="Print counts instead of tasks.")] = False,
    as_json: Annotated[
        bool,
        _flag(
            "--json",
            help="Print JSON Lines: one task object per line (with --stats, one JSON object).",
        ),
    ] = False,
    task_file: Annotated[Path | None, typer.Option("--tasks", help="A task file.")] = None,
    dataset: Annotated[
        str | None,
        typer.Option(help="A shipped task set by version (v3, the default, v2 or v1)."),
    ] = None,
) -> None:
    """List a suite's tasks (filtered), or print counts with --stats.

    ToolBench-X counts workflow types, hazard families and variants, topics and
    subtopics; ToolFailBench counts kinds, domains, target modes, registers and trap kinds.

    Example: toolchaos tasks toolbench-x --type parallel --hazard transient
    """
    from rich.markup import escape

    from toolchaos.suites import get_suite

    chosen = get_suite(suite)
    found = _task_file(suite, task_file, dataset)
    selected = chosen.load(Path(found) if found else None)
    filters = {"type": kind, "hazard": hazard, "subtopic": subtopic, "domain": domain}
    filters["mode"] = mode
    for name, value in filters.items():
        if value is None:
            continue
        facets = [chosen.task_facets(t) for t in selected]
        if not any(name in f for f in facets):
            raise BadInput(f"suite {chosen.name} has no --{name} filter")
        wanted = value.casefold()
        _known(f"--{name}", wanted, {v.casefold() for f in facets for v in f.get(name, ())})
        selected = [
            t
            for t, f in zip(selected, facets, strict=True)
            if wanted in {v.casefold() for v in f.get(name, ())}
        ]
    if stats:
        counts = chosen.task_stats(selected)
        if as_json:
            sys.stdout.write(json.dumps(counts, indent=2, sort_keys=True) + "\n")
        else:
            out.print(_stats_table(chosen.name, counts))
        return
    if as_json:
        for task in selected:
            sys.stdout.write(task.model_dump_json() + "\n")
        return
    for task in selected:
        headline, *details = chosen.describe(task) or [""]
        out.print(f"[bold]{escape(task.id)}[/]  {escape(headline)}", highlight=False)
        for line in details:
            _say(out, f"  {line}")
    if not selected:
        out.print("no tasks match")


def _stats_table(suite: str, counts: dict[str, Any]) -> Any:
    """The counts of ``tasks --stats`` as one table: a section per facet, most tasks first."""
    from rich.markup import escape
    from rich.table import Table

    view = Table(title=f"{suite}: {counts.get('n', 0)} tasks", show_edge=False)
    view.add_column("facet", no_wrap=True)
    view.add_column("value", overflow="fold")
    view.add_column("tasks", justify="right", no_wrap=True)
    for facet, values in counts.items():
        if not isinstance(values, dict):
            continue
        ranked = sorted(values.items(), key=lambda item: (-item[1], str(item[0])))
        for i, (value, n) in enumerate(ranked):
            view.add_row(escape(facet) if i == 0 else "", escape(str(value)), str(n))
        view.add_section()
    return view


models_app = Typer(
    help="Embedded local models: list and pull.\n\nExample: toolchaos models pull "
    "qwen2.5-coder-0.5b",
    no_args_is_help=True,
)
app.add_typer(models_app, name="models")


@models_app.command("list")
@clean_errors
def models_list() -> None:
    """List the local models toolchaos knows and whether each is pulled.

    Example: toolchaos models list
    """
    from toolchaos.models.pull import KNOWN, model_path

    for name, model in sorted(KNOWN.items()):
        path = model_path(name)
        state = f"pulled: {path}" if path.is_file() else "not pulled"
        _say(out, f"{name}  {model.description}  ({state})")


@models_app.command("pull")
@clean_errors
def models_pull(
    name: Annotated[str, typer.Argument(help="A known local model, e.g. qwen2.5-coder-0.5b.")],
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Directory to keep it in (default: the user cache)."),
    ] = None,
    old_dest: Annotated[Path | None, _old_name("--dest", "--out")] = None,
) -> None:
    """Download a local model's GGUF, check its SHA-256 and keep it (once).

    Example: toolchaos models pull qwen2.5-coder-0.5b
    """
    from toolchaos.models.pull import model_path, pull

    dest = _renamed(out_dir, old_dest, "--out", "--dest")
    target = model_path(name, dest)
    if target.is_file():
        err.print(f"{name} is already pulled: {target}")
        return
    with err.status(f"pulling {name} ..."):
        path = pull(name, dest)
    err.print(f"{name} -> {path} (sha256 verified)")


@app.command("judge")
@clean_errors
def judge_command(
    directory: Annotated[
        Path, typer.Argument(help="A run directory holding ToolFailBench episodes.")
    ],
    judges: Annotated[
        list[str],
        typer.Option(
            "--judge",
            help="Judge model spec; give two (judge A: decision tree, judge B: evidence) or one "
            "for both.",
        ),
    ],
    base_url: Annotated[
        list[str] | None, typer.Option("--base-url", help="Endpoint URL for openai-compat judges.")
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Judge requests at once.")] = 8,
    max_episodes: Annotated[
        int | None, typer.Option("--max-episodes", help="Judge only the first N episodes.")
    ] = None,
    limit: Annotated[int | None, _old_name("--limit", "--max-episodes")] = None,
    models_file: Annotated[
        Path | None,
        typer.Option(
            "--models-file",
            help="A models file (docs/models.md) with an entry for a judge's spec: its "
            "family (for the same-family check), endpoint and sampling are taken from it.",
        ),
    ] = None,
    rubric: Annotated[
        str,
        typer.Option(
            help="Judge rubric: release (the published rubric in meaning: five scores, one "
            "attempt) or toolchaos (this project's first rubric, which re-asks)."
        ),
    ] = "release",
    dry_run: Annotated[
        bool,
        _flag(
            "--dry-run",
            help="Ask nothing: print per judge the episodes, requests, tokens and cost "
            "(from the models file's prices) judging would take.",
        ),
    ] = False,
    rejudge: Annotated[
        bool,
        _flag(
            "--rejudge",
            help="Label a run other judges labelled; their labels are kept, and the report "
            "shows which flipped and how CTUR moved.",
        ),
    ] = False,
) -> None:
    """Have two LLM judges label every ToolFailBench episode; the agent is never rerun.

    Example: toolchaos judge runs/tfb --judge openai/gpt-4o-mini --judge
    anthropic/claude-3-5-haiku-latest
    """
    from toolchaos.models.config import ModelEntry, load_models_file
    from toolchaos.suites import get_suite

    specs = _split(judges)
    if not 1 <= len(specs) <= 2:
        raise BadInput("give one or two --judge models")
    known = {e.spec: e for e in load_models_file(models_file)} if models_file else {}
    missing = [s for s in specs if models_file and s not in known]
    if missing:
        raise BadInput(
            f"judge {missing[0]} is not in the models file {models_file} "
            f"(it names {', '.join(sorted(known))})"
        )
    entries = [known.get(s) or ModelEntry(spec=s) for s in specs]
    if base_url:
        entries = [e.model_copy(update={"base_urls": base_url}) for e in entries]
    most = _renamed(max_episodes, limit, "--max-episodes", "--limit")
    if most is not None and most < 1:
        raise BadInput(f"--max-episodes {most}: the number of episodes must be at least 1")
    if dry_run:
        from toolchaos.suites.toolfailbench import judge_estimate

        _say(out, f"dry run: no judge is asked, nothing is written ({directory})")
        for row in judge_estimate(directory, entries, most, rubric):
            bounds = _bounds(row.requests, row.input_tokens, row.output_tokens, row.cost_usd)
            _say(out, f"  {row.rater} {row.model}: {row.episodes} episodes; {bounds}")
        return
    suite = get_suite("toolfailbench")
    tally = suite.judge(directory, entries, concurrency, most, rubric, err, rejudge)
    _say(err, f"{tally.judged} episodes judged -> {directory}; {tally.line()}")
    if tally.silent:
        _say(
            err,
            f"error: no reply of {' or '.join(tally.silent)} held a verdict (one JSON object "
            "with a label), so every label stored is empty and the report has no ensemble; "
            "judge with a model that answers the rubric in JSON",
        )
        raise typer.Exit(1)
    unlabelled = sum(tally.judged - n for n in tally.labelled.values())
    if unlabelled:
        _say(err, f"warning: {unlabelled} replies held no verdict; those labels are empty")


@app.command("audit-scoring")
@clean_errors
def audit_scoring_command(
    directory: Annotated[
        Path, typer.Argument(help="A run directory holding ToolBench-X episodes.")
    ],
    judges: Annotated[
        list[str],
        typer.Option(
            "--judge", help="A judge model spec; repeat (or comma-separate) to audit with each."
        ),
    ],
    base_url: Annotated[
        list[str] | None,
        typer.Option("--base-url", help="Endpoint URL for an openai-compat judge."),
    ] = None,
    sample: Annotated[
        int, typer.Option(help="Episodes to audit, spread over family x workflow.")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the sample.")] = 0,
    concurrency: Annotated[int, typer.Option(help="Judge requests at once.")] = 8,
) -> None:
    """Agreement of the answer rule (and of exact match and containment) with an LLM judge.

    The judge reads a stratified sample of the run's finished ToolBench-X episodes; its
    verdicts are stored in the run, so a second audit asks only about new ones.

    Example: toolchaos audit-scoring runs/gpt --judge openai/gpt-4o --sample 100
    """
    from toolchaos.models.config import ModelEntry
    from toolchaos.suites.toolbench_x import audit_scoring, report_lines

    silent = []
    for judge in _split(judges):
        entry = ModelEntry(spec=judge, base_urls=base_url or [])
        report = audit_scoring(
            directory, entry, sample=sample, seed=seed, concurrency=concurrency, console=err
        )
        for line in report_lines(report):
            _say(out, line)
        if not report.judged:
            silent.append(judge)
            _say(
                err,
                f"error: none of the {report.sampled} replies of {judge} held a verdict (one "
                "JSON object with 'correct'), so there is no agreement to report",
            )
        elif report.judged < report.sampled:
            missing = report.sampled - report.judged
            _say(err, f"warning: {missing} of {report.sampled} replies held no verdict")
    if silent:
        raise typer.Exit(1)


@app.command("merge")
@clean_errors
def merge_command(
    directories: Annotated[
        list[Path], typer.Argument(help="Run directories of one run (its shards) to merge.")
    ],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="The merged run directory.")],
) -> None:
    """Merge the stores of one run's shards into one run directory.

    Stores of different datasets, configs or toolchaos versions are refused; an episode
    stored twice alike is kept once, two different episodes of one key are refused.

    Example: toolchaos merge runs/s1 runs/s2 --out runs/all
    """
    from toolchaos.runner.merge import merge

    summary = merge(directories, out_dir)
    _say(
        err,
        f"{summary.added} episodes merged from {summary.sources} stores "
        f"({summary.duplicates} duplicates dropped, {summary.replaced_errors} errors "
        f"superseded); {summary.episodes} episodes in {summary.out}",
    )


@app.command("import-inspect")
@clean_errors
def import_inspect_command(
    logs: Annotated[list[Path], typer.Argument(help="Inspect eval logs (.eval or .json).")],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="The run directory to write.")],
) -> None:
    """Turn Inspect eval logs of toolchaos tasks into a run store for `toolchaos report`.

    Example: toolchaos import-inspect logs/run.eval --out runs/inspect
    """
    try:
        from toolchaos.integrations.inspect.importer import import_logs
    except ImportError as exc:
        raise BadInput(
            f"import-inspect needs the optional extra: pip install 'toolchaos[inspect]' "
            f"({exc.name} is not installed)"
        ) from None
    summary = import_logs(logs, out_dir)
    _say(err, f"{summary.episodes} episodes from {summary.logs} logs -> {summary.out}")


@app.command("proxy")
@clean_errors
def proxy_command(
    upstream: Annotated[
        list[str], typer.Argument(help="After --: the upstream MCP server's URL or command.")
    ],
    plan: Annotated[str, typer.Option("--plan", help="A profile name or a plan file.")],
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Store the episode in this run directory."),
    ] = None,
    store: Annotated[Path | None, _old_name("--store", "--out")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Override the plan's seed.")] = None,
    arm: Annotated[str, typer.Option("--arm", help="hazard (the plan) or clean.")] = "hazard",
    model: Annotated[
        str, typer.Option("--model", "-m", help="The agent's name in the store.")
    ] = "agent",
    restart_upstream: Annotated[
        int,
        typer.Option(
            "--restart-upstream",
            metavar="N",
            help="Respawn an upstream that dies up to N times (0: the proxy exits with 1).",
        ),
    ] = 0,
    serve: Annotated[
        str,
        typer.Option(
            "--serve", help="stdio (one session) or http (streamable HTTP, many sessions)."
        ),
    ] = "stdio",
    port: Annotated[
        int | None, typer.Option("--port", help="The port of --serve http (on 127.0.0.1).")
    ] = None,
    target: Annotated[
        str | None,
        typer.Option("--target", help="The id episodes are stored under (default: the plan's)."),
    ] = None,
) -> None:
    """Serve an MCP server that forwards to UPSTREAM and applies a hazard plan.

    On stdio (one client session, one episode) or, with --serve http --port P, as a
    streamable-HTTP server at http://127.0.0.1:P/mcp (one episode per client session).
    Every call is stored as it is answered; a host gives its verdict on a session with the
    notification notifications/toolchaos/verdict {"passed": true, "answer": "..."}
    (docs/own-tools.md). SIGTERM, SIGHUP and SIGINT stop the stdio proxy at once (exit
    128 + the signal's number), an upstream lost for good with exit 1.

    Example: toolchaos proxy --plan drift -- python my_mcp_server.py
    """
    if arm not in ("hazard", "clean"):
        raise BadInput(f"--arm must be hazard or clean, not {arm!r}")
    if restart_upstream < 0:
        raise BadInput(f"--restart-upstream must be 0 or more, not {restart_upstream}")
    if serve not in ("stdio", "http"):
        raise BadInput(f"--serve must be stdio or http, not {serve!r}")
    if serve == "http" and (port is None or not 0 < port < 65536):
        raise BadInput("--serve http needs --port P, a port from 1 to 65535")
    if serve == "stdio" and port is not None:
        raise BadInput("--port is for --serve http; a stdio proxy has no port")
    try:
        import anyio

        from toolchaos.chaos.proxy import serve_http, serve_stdio
    except ImportError as exc:
        raise BadInput(
            f"proxy needs the optional extra: pip install 'toolchaos[mcp]' "
            f"({exc.name} is not installed)"
        ) from None
    upstream_ = upstream[0] if len(upstream) == 1 else upstream
    stored = _renamed(out_dir, store, "--out", "--store")
    options: dict[str, Any] = {
        "seed": seed,
        "arm": arm,
        "model": model,
        "store": stored,
        "restarts": restart_upstream,
        "target": target,
    }
    if serve == "http":
        assert port is not None
        code = anyio.run(lambda: serve_http(upstream_, plan, port=port, **options))
        if code:
            raise typer.Exit(code)
        return
    code = anyio.run(lambda: serve_stdio(upstream_, plan, **options))
    if code > 128:
        # stopped by a signal, with every call stored and the upstream stopped: leave
        # without the interpreter's teardown, which takes a second or more on a busy host
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    if code:
        raise typer.Exit(code)


review_app = Typer(
    help="Human review of a suite's tasks: show, record, next, agreement, sample.\n\n"
    "Example: toolchaos review show tbx-podcasts-mix-04 --html task.html",
    no_args_is_help=True,
)
app.add_typer(review_app, name="review")

ReviewTasks = Annotated[
    Path | None, typer.Option("--tasks", help="A task file (default: the suite's shipped set).")
]
ReviewSuite = Annotated[
    str | None,
    typer.Argument(
        help="The suite whose tasks are reviewed (default: toolbench-x).", show_default=False
    ),
]
OldSuite = Annotated[str | None, _old_name("--suite", "the SUITE argument")]
ReviewFile = Annotated[
    Path | None, typer.Option("--out", "-o", help="The review file (JSONL) to append to.")
]
OldReviewFile = Annotated[Path | None, _old_name("--file", "--out")]
REVIEWED = "toolbench-x"
"""The suite ``review`` works on when none is named."""


def _leading_suite(
    words: list[str], old_suite: str | None, what: str
) -> tuple[str | None, list[str]]:
    """``[SUITE] ARG...`` split into the suite (when the first word names one) and the rest.

    ``old_suite`` is the value of ``--suite``, the old way to name it.
    """
    from toolchaos.suites import SUITES

    named = old_suite
    if words and words[0] in SUITES and len(words) > 1:
        if named is not None:
            raise BadInput(f"name the suite once (here {words[0]!r} and --suite {named!r})")
        return words[0], words[1:]
    if not words:
        raise BadInput(f"give {what}")
    return named, words


def _review_target(targets: list[str], old_suite: str | None) -> tuple[str, str]:
    """``[SUITE] TASK_ID`` as (suite, task id); the suite is toolbench-x when not named."""
    named, rest = _leading_suite(targets, old_suite, "a task id")
    if len(rest) != 1:
        raise BadInput(f"give one task id (after the suite, if any), not {' '.join(rest)!r}")
    return named or REVIEWED, rest[0]


def _one_suite(named: str | None, old_suite: str | None) -> str:
    """The suite named as the argument or with --suite (its old name), else toolbench-x."""
    if named is not None and old_suite is not None:
        raise BadInput(f"name the suite once (here {named!r} and --suite {old_suite!r})")
    return named or old_suite or REVIEWED


def _review_file(new: Path | None, old: Path | None) -> Path:
    """The review file, given with --out (or its old name --file)."""
    found = _renamed(new, old, "--out", "--file")
    if found is None:
        raise BadInput("name the review file with --out FILE (JSONL)")
    return found


class _Reviewing:
    """The suite, its review desk and the task file under review (its label and hash)."""

    def __init__(self, suite_name: str, task_file: Path | None) -> None:
        from toolchaos.suites import get_suite

        self.suite = get_suite(suite_name)
        self.desk = self.suite.review_desk()
        self.tasks = self.suite.load(task_file)
        path = task_file or self.suite.default_path()
        self.label = str(task_file) if task_file else f"{self.suite.name}:{self.suite.data_file}"
        self.sha = self.suite.dataset_hash(path)

    def task(self, task_id: str) -> Any:
        found = next((t for t in self.tasks if t.id == task_id), None)
        if found is None:
            import difflib

            owner = _suite_holding(task_id, self.suite.name)
            if owner is not None:
                from toolchaos.suites import get_suite

                try:
                    get_suite(owner).review_desk()
                    fix = f"name its suite first: toolchaos review show {owner} {task_id}"
                except BadInput as exc:  # a suite without a review workflow
                    fix = str(exc)
                raise BadInput(f"{task_id} is a {owner} task, not one of {self.label}; {fix}")
            # only ids of the same kind (the part before the first dash: tbx, tfb) are near
            kind = task_id.split("-", 1)[0] + "-"
            ids = [t.id for t in self.tasks if t.id.startswith(kind)]
            close = difflib.get_close_matches(task_id, ids, n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise BadInput(f"no task {task_id!r} in {self.label}{hint}")
        return found

    def review(self, task: Any, reviewer: str, verdict: Any, category: str, note: str) -> Any:
        from toolchaos.suites.review import make_review

        key = self.desk.content_key(task)
        return make_review(task.id, key, reviewer, verdict, category, note, self.label, self.sha)


def _suite_holding(task_id: str, besides: str) -> str | None:
    """The other registered suite whose shipped task set holds ``task_id``, if any."""
    from toolchaos.suites import SUITES, get_suite

    for name in sorted(SUITES):
        if name == besides:
            continue
        suite = get_suite(name)
        try:
            if any(t.id == task_id for t in suite.load()):
                return name
        except BadInput:  # a suite with no shipped tasks (own-tools)
            continue
    return None


@review_app.command("show")
@clean_errors
def review_show(
    targets: Annotated[
        list[str],
        typer.Argument(
            help="The suite (default: toolbench-x), then the task id, e.g. tbx-podcasts-mix-04.",
            metavar="[SUITE] TASK_ID",
            show_default=False,
        ),
    ],
    task_file: ReviewTasks = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Write a self-contained HTML page instead.")
    ] = None,
    old_suite: OldSuite = None,
) -> None:
    """Show a task as a reviewer needs it: prompt, tools, hazard, recovery, reference.

    The reference path is replayed in the clean world to show the arguments it resolves
    to and what each step returns.

    Example: toolchaos review show tbx-podcasts-mix-04 --html task.html
    """
    suite, task_id = _review_target(targets, old_suite)
    reviewing = _Reviewing(suite, task_file)
    task = reviewing.task(task_id)
    if html is None:
        reviewing.desk.show(task, reviewing.label, reviewing.sha, out)
        return
    try:
        html.parent.mkdir(parents=True, exist_ok=True)
        html.write_text(reviewing.desk.html(task, reviewing.label, reviewing.sha), "utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {html}: {exc.strerror or exc}") from None
    _say(err, f"{task_id} -> {html}")


@review_app.command("record")
@clean_errors
def review_record(
    targets: Annotated[
        list[str],
        typer.Argument(
            help="The suite (default: toolbench-x), then the task id, e.g. tbx-podcasts-mix-04.",
            metavar="[SUITE] TASK_ID",
            show_default=False,
        ),
    ],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Your name.")],
    verdict: Annotated[str, typer.Option("--verdict", help="accept, revise or remove.")],
    category: Annotated[
        str,
        typer.Option("--category", help="ToolBench-X: the hazard family you see in the task."),
    ],
    review_out: ReviewFile = None,
    note: Annotated[str, typer.Option("--note", help="Why, in a sentence.")] = "",
    task_file: ReviewTasks = None,
    old_file: OldReviewFile = None,
    old_suite: OldSuite = None,
) -> None:
    """Append one review to the review file; a later review of the task by you wins.

    Example: toolchaos review record tbx-podcasts-mix-04 --reviewer ann --verdict accept
    --category "execution failure" --out reviews.jsonl
    """
    from toolchaos.suites.review import append_review, parse_category, parse_verdict

    suite, task_id = _review_target(targets, old_suite)
    review_file = _review_file(review_out, old_file)
    chosen = parse_verdict(verdict)
    reviewing = _Reviewing(suite, task_file)
    family = parse_category(category, reviewing.desk.categories)
    task = reviewing.task(task_id)
    append_review(review_file, reviewing.review(task, reviewer, chosen, family, note))
    _say(err, f"{reviewer}: {task_id} {chosen.value} ({family}) -> {review_file}")


@review_app.command("next")
@clean_errors
def review_next(
    reviewer: Annotated[str, typer.Option("--reviewer", help="Your name.")],
    suite: ReviewSuite = None,
    review_out: ReviewFile = None,
    task_file: ReviewTasks = None,
    sample: Annotated[
        Path | None, typer.Option("--sample", help="Review the tasks of this sample file only.")
    ] = None,
    seed: Annotated[int, typer.Option(help="The seed of the stratified order.")] = 0,
    old_file: OldReviewFile = None,
    old_suite: OldSuite = None,
) -> None:
    """Show the next task you have not reviewed and ask for your verdict; q stops.

    Tasks come in a seeded order stratified like `run --subset` (ToolBench-X: workflow
    type and hazard family), or in the order of --sample.

    Example: toolchaos review next --reviewer ann --out reviews.jsonl --sample sample.txt
    """
    from toolchaos.suites.review import (
        append_review,
        next_to_review,
        parse_category,
        parse_verdict,
        read_reviews,
        read_sample,
        review_order,
        reviewed_keys,
    )

    review_file = _review_file(review_out, old_file)
    reviewing = _Reviewing(_one_suite(suite, old_suite), task_file)
    desk = reviewing.desk
    if sample is not None:
        by_id = {t.id: t for t in reviewing.tasks}
        order = [by_id[i] for i in read_sample(sample, by_id)]
    else:
        order = review_order(reviewing.tasks, reviewing.suite.stratum, seed)
    while True:
        reviews = read_reviews(review_file)
        task = next_to_review(order, reviews, reviewer, desk.content_key)
        if task is None:
            _say(out, f"{reviewer} has reviewed all {len(order)} tasks")
            return
        desk.show(task, reviewing.label, reviewing.sha, out)
        mine = reviewed_keys(reviews, reviewer)
        done = sum(desk.content_key(t) in mine for t in order)
        _say(out, f"{reviewer}: {done} of {len(order)} tasks reviewed")
        try:
            while True:
                answer = typer.prompt("verdict (accept, revise, remove; q to stop)")
                if answer.strip().lower() in ("q", "quit"):
                    return
                try:
                    chosen = parse_verdict(answer)
                    break
                except BadInput as exc:
                    _say(out, str(exc))
            while True:
                typed = typer.prompt("category", default=desk.category_of(task))
                try:
                    family = parse_category(typed, desk.categories)
                    break
                except BadInput as exc:
                    _say(out, str(exc))
            note = typer.prompt("note (optional)", default="", show_default=False)
        except typer.Abort:  # end of input or Ctrl-C: what was recorded stays
            out.print("")
            return
        append_review(review_file, reviewing.review(task, reviewer, chosen, family, note))
        _say(out, f"recorded {task.id}: {chosen.value} ({family})")


@review_app.command("agreement")
@clean_errors
def review_agreement(
    review_file: Annotated[Path, typer.Argument(help="A review file (JSONL).")],
    pair: Annotated[
        str | None,
        typer.Option("--reviewers", help="The two reviewers to compare, A,B (default: the two)."),
    ] = None,
    initial: Annotated[
        bool,
        _flag(
            "--initial", help="Use each reviewer's first verdict on a task, before any revision."
        ),
    ] = False,
    as_json: Annotated[bool, _flag("--json", help="Print one JSON object.")] = False,
) -> None:
    """Agreement of two reviewers over the tasks both reviewed: percent, kappa, confusion.

    Example: toolchaos review agreement reviews.jsonl --reviewers ann,bo
    """
    from toolchaos.suites.review import agreement, print_agreement, read_reviews

    names = _split([pair]) if pair else None
    if names is not None and len(names) != 2:
        raise BadInput(f"--reviewers takes two names, A,B, not {pair!r}")
    reviews = read_reviews(review_file)
    if not reviews:
        raise BadInput(f"the review file {review_file} holds no reviews")
    result = agreement(reviews, (names[0], names[1]) if names else None, initial)
    if as_json:
        sys.stdout.write(result.model_dump_json(indent=2) + "\n")
        return
    print_agreement(result, out)


SAMPLE_SIZE = 200
"""How many tasks ``review sample`` draws unless told."""


@review_app.command("sample")
@clean_errors
def review_sample(
    out_file: Annotated[Path, typer.Option("--out", "-o", help="The sample file to write.")],
    suite: ReviewSuite = None,
    count: Annotated[
        int | None, typer.Option("--count", "-n", help="How many tasks (default 200).")
    ] = None,
    seed: Annotated[int, typer.Option(help="The sampling seed.")] = 0,
    task_file: ReviewTasks = None,
    old_n: Annotated[int | None, _old_name("--n", "--count")] = None,
    old_suite: OldSuite = None,
) -> None:
    """Write N task ids for double review, stratified (ToolBench-X: by workflow and family).

    Example: toolchaos review sample -n 200 --out sample.txt
    """
    from toolchaos.suites.review import sample_text

    given = _renamed(count, old_n, "--count", "--n")
    n = SAMPLE_SIZE if given is None else given
    reviewing = _Reviewing(_one_suite(suite, old_suite), task_file)
    dataset = f"{reviewing.label} sha256 {reviewing.sha}"
    text = sample_text(reviewing.tasks, n, seed, reviewing.suite.stratum, dataset)
    try:
        out_file.parent.mkdir(parents=True, exist_ok=True)
        out_file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot write {out_file}: {exc.strerror or exc}") from None
    _say(err, f"{n} task ids -> {out_file}")


def main() -> None:
    """Entry point of the ``toolchaos`` script.

    A usage error (an unknown option, a missing argument) is typer's framed box on a
    terminal, and one line when stderr is a file or a pipe, so a log keeps it whole.
    """
    from typer import rich_utils

    # click's classes, whether typer bundles its own click or uses the package
    usage_error: type[Exception] = typer.BadParameter.__base__  # type: ignore[assignment]
    click_exception: type[Exception] = usage_error.__base__  # type: ignore[assignment]
    # a group named without its command: its help is the answer
    no_args = getattr(sys.modules[usage_error.__module__], "NoArgsIsHelpError", ())
    try:
        code = app(standalone_mode=False)
    except click_exception as exc:
        ctx = getattr(exc, "ctx", None)
        if isinstance(exc, no_args) and ctx is not None:
            sys.stdout.write(ctx.get_help() + "\n")
        elif err.is_terminal:
            rich_utils.rich_format_error(exc)  # type: ignore[arg-type]
        else:
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            message = exc.format_message()  # type: ignore[attr-defined]
            _say(err, f"error: {message}{hint}")
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    except (KeyboardInterrupt, typer.Abort):
        # outside a run's episodes (those say what they stored)
        err.print("interrupted", highlight=False)
        raise SystemExit(130) from None
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
