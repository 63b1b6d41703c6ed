"""``toolchaos view``: a local web server over one or more run directories.

It serves, on 127.0.0.1 unless told otherwise:

- ``/``: the runs (suite, models, arms, episodes stored of planned, harness errors,
  started, and whether a process is playing it now), each linking to its report;
- ``/report``: the report of every run side by side (the leaderboard tables, figures and
  the trace viewer), the same page ``toolchaos report --html`` writes;
- ``/run/N``: the report of run N alone.

While a run plays, its pages reload every few seconds, so a report grows with the run.
A page is rendered again only when a store has changed (its file size or modification
time); otherwise the last rendering is served. Nothing is written to the run directories:
stores are opened read-only. Model text stays inert as in every HTML report.
"""

from __future__ import annotations

import fcntl
import html
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from toolchaos.report.html import DEFAULT_MAX_EPISODES, render_html
from toolchaos.report.tables import build_report, planned_and_stored
from toolchaos.runner.listing import RunListing, describe_run
from toolchaos.runner.run import LOCK_NAME, read_manifest
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites.base import ReportOptions

REFRESH_S = 5
"""How often a page reloads while a run it shows is playing."""


def playing(directory: Path) -> bool:
    """Whether a toolchaos process holds the run directory's lock now (it is playing)."""
    path = directory / LOCK_NAME
    if not path.exists():
        return False
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
    return False


@dataclass(frozen=True)
class RunRow:
    """What the runs page says of one run directory: its listing, plan and state."""

    listing: RunListing
    stored: int
    """Episodes of the plan stored (the listing's ``episodes`` when there is no plan)."""
    planned: int | None
    state: str


def run_row(directory: Path) -> RunRow:
    """One run directory's :class:`RunRow`, from its store (read-only) and manifest.

    ``state`` is ``playing`` (a process holds its lock), ``finished`` (its manifest has an
    end time) or ``stopped`` (neither: interrupted, rerun it to finish).
    """
    listing = describe_run(directory)
    manifest = read_manifest(directory)
    store = Store.open_existing(directory, read_only=True)
    try:
        counts = planned_and_stored(manifest, store, store.tasks()) if manifest else None
    finally:
        store.close()
    if playing(directory):
        state = "playing"
    elif listing.ended:
        state = "finished"
    else:
        state = "stopped"
    return RunRow(
        listing=listing,
        # of the plan's episodes (a run may also hold episodes another plan stored)
        stored=listing.episodes if counts is None else sum(counts[1].values()),
        planned=None if counts is None else sum(counts[0].values()),
        state=state,
    )


def _stamp(directories: Sequence[Path]) -> tuple[tuple[int, int, bool], ...]:
    """What changes when a run grows: each store's size and mtime, and whether it plays."""
    stamps = []
    for directory in directories:
        try:
            stat = (directory / STORE_NAME).stat()
            stamps.append((stat.st_size, stat.st_mtime_ns, playing(directory)))
        except OSError:
            stamps.append((0, 0, False))
    return tuple(stamps)


_INDEX_STYLE = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2430}"
    "table{border-collapse:collapse}td,th{border:1px solid #d9dee5;padding:3px 8px;"
    "text-align:left}th{background:#f5f7fa}.playing{color:#8a5a00;font-weight:600}"
    ".muted{color:#5b6675}"
)


def index_page(rows: Sequence[RunRow], refresh: bool) -> str:
    """The runs page: one row per run directory, each linking to its report."""
    head = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">",
        f"<meta http-equiv='refresh' content='{REFRESH_S}'>" if refresh else "",
        f"<title>toolchaos view</title><style>{_INDEX_STYLE}</style></head><body>",
        "<h1>toolchaos runs</h1>",
        "<p><a href='/report'>Report of every run side by side</a> (leaderboard tables, "
        "figures, trace viewer)</p>",
    ]
    if refresh:
        head.append(f"<p class='muted'>A run is playing: the page reloads every {REFRESH_S} s.</p>")
    cells = []
    for number, row in enumerate(rows):
        planned = "?" if row.planned is None else f"{row.planned:,}"
        run = row.listing
        values = [
            f"<a href='/run/{number}'>{html.escape(run.directory)}</a>",
            html.escape(run.suite),
            html.escape(", ".join(run.models)),
            html.escape(", ".join(run.arms)),
            f"{row.stored:,} of {planned}",
            f"{run.errors:,}",
            html.escape(run.started or ""),
            f"<span class='{row.state}'>{row.state}</span>",
        ]
        cells.append("<tr>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
    columns = ["run", "suite", "models", "arms", "episodes", "errors", "started", "state"]
    table = (
        "<table id='runs'><thead><tr>"
        + "".join(f"<th>{c}</th>" for c in columns)
        + "</tr></thead><tbody>"
        + "".join(cells)
        + "</tbody></table>"
    )
    return "".join(head) + table + "</body></html>"


class Viewer:
    """The pages of ``toolchaos view``, rendered on demand and kept until a store changes."""

    def __init__(
        self,
        directories: Sequence[Path],
        options: ReportOptions | None = None,
        max_episodes: int = DEFAULT_MAX_EPISODES,
    ) -> None:
        for directory in directories:  # refuse a directory that holds no run, up front
            Store.open_existing(directory, read_only=True).close()
        self.directories = list(directories)
        self.options = options
        self.max_episodes = max_episodes
        self._cache: dict[str, tuple[Any, str]] = {}
        self._lock = threading.Lock()

    def page(self, path: str) -> tuple[HTTPStatus, str]:
        """The status and HTML of the page at ``path``."""
        path = path.split("?", 1)[0].split("#", 1)[0].rstrip("/") or "/"
        if path == "/":
            return HTTPStatus.OK, self._cached(path, self.directories, self._index)
        if path == "/report":
            return HTTPStatus.OK, self._cached(path, self.directories, self._report)
        if path.startswith("/run/") and path[5:].isdigit():
            number = int(path[5:])
            if number < len(self.directories):
                chosen = [self.directories[number]]
                return HTTPStatus.OK, self._cached(path, chosen, self._report)
        return HTTPStatus.NOT_FOUND, "<!DOCTYPE html><title>not found</title><p>No such page."

    def _cached(
        self, key: str, directories: list[Path], render: Callable[[list[Path], bool], str]
    ) -> str:
        """The page ``key`` as last rendered, or rendered again when a store has changed."""
        stamp = _stamp(directories)
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] == stamp:
                return cached[1]
            text = render(directories, any(live for _, _, live in stamp))
            self._cache[key] = (stamp, text)
            return text

    def _index(self, directories: list[Path], live: bool) -> str:
        return index_page([run_row(d) for d in directories], live)

    def _report(self, directories: list[Path], live: bool) -> str:
        report = build_report(directories, self.options)
        return render_html(report, self.max_episodes, refresh=REFRESH_S if live else None)


def make_server(viewer: Viewer, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A threading HTTP server answering GET with the viewer's pages (port 0: any free one)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the name http.server calls
            try:
                status, body = viewer.page(self.path)
            except Exception as error:  # a damaged store: say so on the page, keep serving
                status = HTTPStatus.INTERNAL_SERVER_ERROR
                body = f"<!DOCTYPE html><title>error</title><p>{html.escape(str(error))}"
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: the terminal shows only the address

    return ThreadingHTTPServer((host, port), Handler)
