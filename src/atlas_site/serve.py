"""`atlas-site serve`: build, serve _site/ on localhost, rebuild on every edit, update the page.
Every open page holds one event stream (/__atlas/events, server-sent events): after a rebuild it
receives the sections of its article that changed and patches them in place, or is told to reload
when more changed (live_patch.py decides). A broken edit keeps the last good site and shows its
diagnostics in the terminal and in the page; nothing an edit does (a half-saved file, a bug of
ours) stops the server."""
from __future__ import annotations

import errno
import http.server
import json
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from .build import build
from .cache import BuildCache
from .diagnostics import AtlasError, Diagnostic, SourceLocation
from .live_patch import site_changes
from .render.quick_edit import LastBuild, QuickEdit
from .write import build_lock, check_destination

WATCHED = ("book.yaml", "content", "ledger", "sources", "templates", "labs_js")  # everything a build reads
LIVE_SCRIPT = "/__atlas/live.js"
LIVE_STYLE = "/__atlas/live.css"
STATUS = "/__atlas/status"
EVENTS = "/__atlas/events"
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream (proxies and sleeping laptops)
HERE = Path(__file__).parent


class LiveState:
    """What the pages follow: a version that changes on every build that rendered, what it changed
    (live_patch.site_changes), whether its files are written yet, and the current problems.
    A version is announced twice when its edit can be patched into open pages: once rendered
    (before the gates and the write: the hot path) and once written. Event streams wait on
    `changed`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.changes: dict = {"reload": True}
        self.written = True
        self.problems: list[str] = []
        self.closed = False

    def rendered(self, changes: dict) -> None:
        with self.lock:
            self.version += 1
            self.changes, self.written = changes, False
            self.changed.notify_all()

    def good(self, changes: dict | None) -> None:
        """The build is written; `changes` is None when rendered() announced this version already."""
        with self.lock:
            if changes is not None:
                self.version += 1
                self.changes = changes
            self.written = True
            self.problems = []
            self.changed.notify_all()

    def broken(self, problems: list[str]) -> None:
        with self.lock:
            self.problems = problems
            self.changed.notify_all()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()

    def snapshot(self) -> dict:
        with self.lock:
            return {"version": self.version, "problems": list(self.problems)}

    def on_disk(self) -> int:
        """The version whose files are written (a version announced when rendered is not yet)."""
        with self.lock:
            return self.version if self.written else self.version - 1

    def _seen(self) -> tuple:
        return self.version, self.written, list(self.problems)

    def next_event(self, seen: tuple | None, timeout: float) -> tuple[tuple, dict] | None:
        """Wait until something differs from `seen`; then (what is now seen, the event: version,
        the version it follows, written, problems, changes). None on timeout or close."""
        with self.lock:
            self.changed.wait_for(lambda: self.closed or seen != self._seen(), timeout)
            now = self._seen()
            if self.closed or now == seen:
                return None
            event = {"version": self.version, "written": self.written, "problems": now[2]}
            if seen is not None and seen[0] != self.version:
                event.update(after=self.version - 1, changes=self.changes)
            return now, event


def make_handler(site: Path, state: LiveState, live_js: bytes, live_css: bytes = b""):
    served = site.resolve()
    def injected() -> bytes:  # the script's URL names the build the files on disk come from
        return (f'<link rel="stylesheet" href="{LIVE_STYLE}">'
                f'<script src="{LIVE_SCRIPT}?v={state.on_disk()}" defer></script></head>').encode()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, *args):
            pass

        def translate_path(self, path: str) -> str:
            """Only files under the site folder, whatever the request spells (.., %2e%2e, links)."""
            candidate = Path(super().translate_path(path))
            try:
                resolved = candidate.resolve()
            except (OSError, RuntimeError):
                return str(served / "__atlas-not-found__")
            if resolved != served and not resolved.is_relative_to(served):
                return str(served / "__atlas-not-found__")
            return str(candidate)

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path == STATUS:
                return self._send(json.dumps(state.snapshot()).encode(), "application/json")
            if path == EVENTS:
                return self._stream_events()
            if path == LIVE_SCRIPT:
                return self._send(live_js, "text/javascript")
            if path == LIVE_STYLE:
                return self._send(live_css, "text/css")
            if path.endswith("/") or path.endswith(".html"):
                target = Path(self.translate_path(path))
                if target.is_dir():
                    target = target / "index.html"
                if target.is_file():
                    # served pages get the reload script; the files on disk stay identical to a build
                    try:
                        html = target.read_bytes().replace(b"</head>", injected(), 1)
                    except OSError:  # swapped away by a rebuild between the check and the read
                        return self.send_error(404)
                    return self._send(html, "text/html; charset=utf-8")
                return self.send_error(404)
            return super().do_GET()

        def _stream_events(self):
            """One server-sent event per change, for as long as the page stays open."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = None
            try:
                while not state.closed:
                    step = state.next_event(seen, KEEP_ALIVE)
                    if step is None:
                        if state.closed:
                            break
                        self.wfile.write(b": idle\n\n")
                    else:
                        seen, event = step
                        self.wfile.write(b"data: " + json.dumps(event, ensure_ascii=False).encode("utf-8") + b"\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
                pass  # the page went away
            self.close_connection = True

        def _send(self, body: bytes, kind: str):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


class _Served:
    """The in-memory site the open pages show, to tell them what the next build changed, and what
    the last good build left for the hot path of the next edit (render/quick_edit.py)."""
    output = None
    quick: QuickEdit | None = None


def _hot_path(served: _Served, changed: list[Path] | None):
    """The edited pages spliced into the shown site, or None: the full build alone decides."""
    if not changed or served.quick is None:
        return None
    try:
        return served.quick.site(served.output, changed)
    except Exception:  # anything unforeseen: the full build that follows reports it properly
        return None


def rebuild(root: Path, site: Path, state: LiveState, search: bool, cache: BuildCache, served: _Served | None = None,
            changed: list[Path] | None = None) -> bool:
    """One rebuild; any failure, even a bug of ours, becomes problems in the terminal and the page.
    When only the prose of part files changed (`changed`: the files the watcher saw), the hot path
    pushes them at once; then the full build runs, and what it rendered is pushed as soon as it is
    rendered (a patch that corrects the hot path's, or nothing when that was right); the gates,
    the write and the rest follow."""
    start = time.perf_counter()
    served = served or _Served()
    found: dict = {}  # what the rendered pages changed; "announced" once the full build's pages are pushed
    shown = served.output  # what the open pages show until this build is announced

    def push(output, how: str = "pushed") -> bool:
        found["changes"] = site_changes(served.output, output)
        served.output = output
        found["announced"] = not found["changes"]["reload"]
        if found["announced"]:
            state.rendered(found["changes"])
            print(f"{how} in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
        return found["announced"]

    cache.defer_writes()  # the on-disk cache entries are written after the push, not before it
    quick = _hot_path(served, changed)
    hot = quick is not None and push(quick, "hot path pushed")  # the open pages show the edit from here on
    try:
        with build_lock(root):
            result = build(root, site, search=search, cache=cache, rendered=push)
            cache.flush()
        changes = None if found.get("announced") else found["changes"]
    except AtlasError as error:
        # pages that took a pushed edit show what failed: the next good build reloads them
        served.output = None if found.get("announced") or hot else shown
        return _broken(state, [str(d) for d in error.diagnostics])
    except Exception as error:  # never let an edit stop the server
        served.output = None if found.get("announced") or hot else shown
        return _broken(state, [f"atlas-site: internal error: {type(error).__name__}: {error} "
                               "(hint: this is a bug in atlas-site; the server goes on with the last good site)"])
    for line in cache.warnings:
        print(line, file=sys.stderr)
    state.good(changes)
    cache.forget_unused()
    try:
        served.quick = QuickEdit(LastBuild.of(root, result), cache)
    except Exception:  # no hot path for the next edit; the full build still serves it
        served.quick = None
    print(f"rebuilt in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    return True


def _edited(changes) -> list[Path] | None:
    """The files a batch of the watcher's changes wrote, or None when it also deleted one."""
    from watchfiles import Change

    if any(kind == Change.deleted for kind, _ in changes):
        return None
    return sorted(Path(path) for _, path in changes)


def _broken(state: LiveState, lines: list[str]) -> bool:
    state.broken(lines)
    print("\n".join(lines), file=sys.stderr)
    print(f"build failed: {len(lines)} problem(s); still serving the last good site", file=sys.stderr, flush=True)
    return False


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # open event streams end with the server (LiveState.close), not before it


def open_server(site: Path, state: LiveState, port: int) -> http.server.ThreadingHTTPServer:
    """Bind first, so a busy port is said at once, not after a whole build."""
    handler = make_handler(site, state, (HERE / "live.js").read_bytes(), (HERE / "live.css").read_bytes())
    try:
        return _Server(("127.0.0.1", port), handler)
    except OSError as error:
        busy = error.errno in (errno.EADDRINUSE, errno.EACCES)
        message = f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}"
        raise AtlasError([Diagnostic(SourceLocation(f"127.0.0.1:{port}"), "serve.port", message,
                                     "choose another port with --port N (0 picks a free one)" if busy else "")]) from None


def serve(root: Path, site: Path, port: int = 8000, search: bool = False, ready=None, stop: threading.Event | None = None) -> None:
    from watchfiles import watch

    check_destination(site, root)
    state = LiveState()
    server = open_server(site, state, port)
    thread = None
    try:
        cache = BuildCache(root / ".atlas-cache" / "artefacts")  # only what an edit affects is redone
        served = _Served()
        rebuild(root, site, state, search=True, cache=cache, served=served)  # the first build includes the search index
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        print(f"serving {site} at {url} (watching {', '.join(WATCHED)}; Ctrl-C stops)", flush=True)
        if ready:
            ready(url)
        paths = [str(root / folder) for folder in WATCHED if (root / folder).exists()]
        for changes in watch(*paths, stop_event=stop, debounce=50, step=20):
            rebuild(root, site, state, search=search, cache=cache, served=served, changed=_edited(changes))
    finally:  # Ctrl-C goes on up to the command line, which says so in one line
        state.close()
        if thread is not None:
            server.shutdown()
        server.server_close()
