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
import os
import queue
import stat
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from .build import build
from .cache import BuildCache
from .diagnostics import AtlasError, Diagnostic, SourceLocation, one_line
from .gates.browser import LocalServer
from .live_patch import site_changes
from .output import Output
from .pipeline import INPUTS
from .render.quick_edit import LastBuild, QuickEdit
from .write import check_destination, project_lock

WATCHED = INPUTS  # everything a build reads (as the pipeline's stages declare it)
WATCHED_FILES = tuple(name for name in WATCHED if Path(name).suffix)  # those that are files (book.yaml)
LIVE_SCRIPT = "/__atlas/live.js"
LIVE_STYLE = "/__atlas/live.css"
STATUS = "/__atlas/status"
EVENTS = "/__atlas/events"
HISTORY = 16  # versions whose changes are kept for a stream that missed some
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
        # what each recent version changed: a stream that wakes after two quick versions (the hot
        # path, then the full build) sends both steps, so its page patches rather than reloads
        self.history: dict[int, dict] = {}
        self.written = True
        self.problems: list[str] = []
        self.closed = False

    def _announce(self, changes: dict) -> None:
        self.version += 1
        self.changes = self.history[self.version] = changes
        self.history.pop(self.version - HISTORY, None)

    def rendered(self, changes: dict) -> None:
        with self.lock:
            self._announce(changes)
            self.written = False
            self.changed.notify_all()

    def good(self, changes: dict | None) -> None:
        """The build is written; `changes` is None when rendered() announced this version already."""
        with self.lock:
            if changes is not None:
                self._announce(changes)
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
        the version it follows, written, problems, and the changes of every version since, in
        order; none when one is no longer kept). None on timeout or close."""
        with self.lock:
            self.changed.wait_for(lambda: self.closed or seen != self._seen(), timeout)
            now = self._seen()
            if self.closed or now == seen:
                return None
            event = {"version": self.version, "written": self.written, "problems": now[2]}
            if seen is not None and seen[0] != self.version:
                steps = [self.history.get(v) for v in range(seen[0] + 1, self.version + 1)]
                event.update(after=seen[0], steps=None if None in steps else steps)
            return now, event


def _plain_path(path: str) -> bool:
    """A request path the site can hold: no NUL, no lone surrogate or byte that is not UTF-8 once
    decoded (%00, %ed%b0%80), no control character."""
    try:
        decoded = urllib.parse.unquote(path, errors="strict")
    except UnicodeDecodeError:
        return False
    return decoded.isprintable()


def make_handler(site: Path, state: LiveState, live_js: bytes, live_css: bytes = b""):
    served = site.resolve()

    def injected() -> bytes:  # the script's URL names the build the files on disk come from
        return (
            f'<link rel="stylesheet" href="{LIVE_STYLE}">'
            f'<script src="{LIVE_SCRIPT}?v={state.on_disk()}" defer></script></head>'
        ).encode()

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
            if not self._host_allowed():
                return self.send_error(
                    421, "this preview answers only its own address (127.0.0.1, localhost, [::1])"
                )
            path = urllib.parse.urlsplit(self.path).path
            if not _plain_path(path):
                return self.send_error(400, "bad path")
            try:
                return self._get(path)
            except ValueError:  # a path the file system cannot hold after all
                return self.send_error(400, "bad path")

        def do_HEAD(self):
            if not self._host_allowed() or not _plain_path(urllib.parse.urlsplit(self.path).path):
                return self.send_error(400, "bad request")
            try:
                return super().do_HEAD()
            except ValueError:
                return self.send_error(400, "bad path")

        def _host_allowed(self) -> bool:
            """A page on another site (DNS rebinding: evil.example resolving to 127.0.0.1) sends its
            own name as Host; only the preview's own addresses may read drafts and the dashboard."""
            port = self.server.server_address[1]  # type: ignore[index]  # an (address, port) pair: TCP
            host = self.headers.get("Host")
            if host is None:  # an HTTP/1.0 tool (curl -0): no browser sends a request without one
                return True
            return host.strip().lower() in {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}

        def _get(self, path: str):
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
            # a page that went away ends the stream at its next write: the server's one guard
            # (LocalServer.handle_error) ends the request quietly, as for every other answer
            while not state.closed:
                step = state.next_event(seen, KEEP_ALIVE)
                if step is None:
                    if state.closed:
                        break
                    self.wfile.write(b": idle\n\n")
                else:
                    seen, event = step
                    self.wfile.write(
                        b"data: " + json.dumps(event, ensure_ascii=False).encode("utf-8") + b"\n\n"
                    )
                self.wfile.flush()
            self.close_connection = True

        def _send(self, body: bytes, kind: str):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


class Superseded(BaseException):
    """A newer edit arrived while a build ran: its result is out of date before it is done. A
    BaseException, so that no `except Exception` on the way turns it into a reported problem."""


class _Served:
    """What the open pages show (the in-memory site, to tell them what the next build changed), the
    hot path built on the last rendered build (render/quick_edit.py), and the generation of the
    edits: every batch of changes the watcher sees starts a new one, and a build of an older one
    stops at its next cache lookup."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.output: Output | None = None
        self.quick: QuickEdit | None = None
        self.generation = 0


def hot_push(state: LiveState, served: _Served, changed: list[Path] | None) -> bool:
    """On the watcher's thread, before any build: when only the prose of part files changed, push
    the pages spliced from the last rendered build at once (the full build follows and corrects)."""
    start = time.perf_counter()
    with served.lock:
        served.generation += 1
        if not changed or served.quick is None:
            return False
        try:
            spliced = served.quick.site(served.output, changed)
        except Exception:  # anything unforeseen: the full build that follows reports it properly
            return False
        if spliced is None:
            return False
        output, edited = spliced
        changes = site_changes(served.output, output)
        if changes["reload"]:
            return False
        served.output = output
        served.quick = served.quick.after(edited)  # the next edit may come before any build renders this one
        state.rendered(changes)
    print(f"hot path pushed in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    return True


def rebuild(
    root: Path, site: Path, state: LiveState, search: bool, cache: BuildCache, served: _Served | None = None
) -> bool | None:
    """One full build; any failure, even a bug of ours, becomes problems in the terminal and the
    page. What it rendered is pushed as soon as it is rendered (a patch of the open pages, which
    corrects the hot path's or changes nothing); the gates, the write and the rest follow. None
    when a newer edit superseded it: the build that edit asks for says what happened."""
    start = time.perf_counter()
    served = served or _Served()
    with served.lock:
        generation, shown = (
            served.generation,
            served.output,
        )  # what the open pages show until this build is announced
    found: dict = {}  # what the rendered pages changed; "announced" once pushed
    builder = threading.get_ident()

    def checkpoint() -> None:
        if served.generation != generation and threading.get_ident() == builder:
            raise Superseded()

    def push(result) -> None:
        with served.lock:
            checkpoint()
            found["changes"] = site_changes(served.output, result.output)
            served.output = result.output
            found["announced"] = not found["changes"]["reload"]
            if found["announced"]:
                state.rendered(found["changes"])
            try:
                served.quick = QuickEdit(
                    LastBuild.of(root, result), cache
                )  # the next edit's hot path starts here
            except Exception:  # no hot path then; the full build still serves every edit
                served.quick = None
        if found["announced"]:
            print(f"pushed in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)

    def broken(lines: list[str]) -> bool:
        with served.lock:
            if served.output is not shown or found:
                served.output = (
                    None  # pages took a pushed edit and show what failed: the next good build reloads them
                )
                served.quick = None
        return _broken(state, lines)

    cache.defer_writes()  # the on-disk cache entries are written after the push, not before it
    cache.checkpoint = checkpoint
    try:
        with project_lock(root):
            result = build(
                root, site, search=search, cache=cache, rendered=push, progress=lambda _stage: checkpoint()
            )
            found["warnings"] = [str(p) for p in result.problems if p.severity == "warning"]
            cache.flush()
        changes = None if found.get("announced") else found["changes"]
    except Superseded:  # its deferred cache entries stay pending: the next build writes them
        with served.lock:
            if found and not found["announced"]:
                served.output = None  # it found a change the pages must reload for: the next build says so
        print(f"superseded by a newer edit after {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
        return None
    except AtlasError as error:
        return broken([str(d) for d in error.diagnostics])
    except Exception as error:  # never let an edit stop the server
        return broken(
            [
                f"atlas-site: internal error: {type(error).__name__}: {error} "
                "(hint: this is a bug in atlas-site; the server goes on with the last good site)"
            ]
        )
    finally:
        cache.checkpoint = None
    for line in cache.warnings:
        print(line, file=sys.stderr)
    for problem in found.get(
        "warnings", ()
    ):  # what `build` warns about (a section behind its twin …), said here too
        print(problem, file=sys.stderr, flush=True)
    state.good(changes)
    cache.forget_unused()
    print(f"rebuilt in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    return True


class _Builder(threading.Thread):
    """Runs the full builds one after another, off the watcher's thread, so that an edit's hot
    path never waits for the build of the edit before it."""

    def __init__(
        self, root: Path, site: Path, state: LiveState, search: bool, cache: BuildCache, served: _Served
    ):
        super().__init__(daemon=True, name="atlas-builder")
        self.args = (root, site, state, search, cache, served)
        self.wanted = threading.Event()
        self.stopping = False

    def request(self) -> None:
        self.wanted.set()

    def run(self) -> None:
        while True:
            self.wanted.wait()
            if self.stopping:
                return
            self.wanted.clear()
            rebuild(*self.args)

    def stop(self) -> None:
        served = self.args[-1]
        with served.lock:
            served.generation += 1  # a build under way stops at its next step
        self.stopping = True
        self.wanted.set()
        self.join(timeout=60)


def _edited(changes) -> list[Path] | None:
    """The files a batch of the watcher's changes wrote, or None when it also deleted one."""
    from watchfiles import Change

    if any(kind == Change.deleted for kind, _ in changes):
        return None
    return sorted(Path(path) for _, path in changes)


def _broken(state: LiveState, lines: list[str]) -> bool:
    state.broken(lines)
    print("\n".join(lines), file=sys.stderr)
    print(
        f"build failed: {len(lines)} problem(s); still serving the last good site",
        file=sys.stderr,
        flush=True,
    )
    return False


class _Server(LocalServer):
    daemon_threads = True
    request_queue_size = 256  # the listen backlog: a page opening dozens of files at once, several tabs
    block_on_close = False  # open event streams end with the server (LiveState.close), not before it


def open_server(site: Path, state: LiveState, port: int) -> http.server.ThreadingHTTPServer:
    """Bind first, so a busy port is said at once, not after a whole build."""
    handler = make_handler(site, state, (HERE / "live.js").read_bytes(), (HERE / "live.css").read_bytes())
    try:
        return _Server(("127.0.0.1", port), handler)
    except OSError as error:
        busy = error.errno in (errno.EADDRINUSE, errno.EACCES)
        message = f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}"
        raise AtlasError(
            [
                Diagnostic(
                    SourceLocation(f"127.0.0.1:{port}"),
                    "serve.port",
                    message,
                    "choose another port with --port N (0 picks a free one)" if busy else "",
                )
            ]
        ) from None


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(folder)
    except OSError:
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISDIR(status.st_mode) else None


def watched_changes(root: Path, stop: threading.Event | None):
    """Batches of changed paths, until `stop`. The input folders are watched with everything in
    them; the project folder itself without recursion, for book.yaml: a watch on the file follows
    its inode, and an editor that saves by renaming a new file over the old one (vim, sed -i, most
    editors) leaves that watch on a deleted file, so later saves went unseen."""
    from watchfiles import watch

    done = threading.Event()
    batches: queue.Queue = queue.Queue()

    def follow(paths_now, recursive: bool, keep=None) -> None:
        """Watch what `paths_now()` names; when what it names changes (a folder created after the
        start, or replaced by a rename), say so and watch again: a watch holds the inode it began with."""
        while not done.is_set():
            paths, names = paths_now()
            if not paths:  # nothing to watch yet: look again in a moment
                if not done.wait(1.0) and paths_now()[1] != names:
                    batches.put(set())
                continue
            try:
                for changes in watch(
                    *paths,
                    stop_event=done,
                    debounce=50,
                    step=20,
                    recursive=recursive,
                    watch_filter=keep,
                    rust_timeout=1000,
                    yield_on_timeout=True,
                ):
                    if changes:
                        batches.put(changes)
                    if paths_now()[1] != names:
                        batches.put(set())  # a folder appeared or was swapped: rebuild; watch it as it is
                        break
            except Exception as error:  # e.g. a file name that is not UTF-8: watchfiles cannot name it
                batches.put(error)  # rebuild (the build names the file), then watch again
                done.wait(0.2)
                # an edit saved while the watcher restarts is seen by no watcher: one more rebuild
                # once it is back picks it up (a build of unchanged inputs changes nothing)
                again = threading.Timer(1.0, batches.put, args=(set(),))
                again.daemon = True
                again.start()

    def folders() -> tuple[list[str], list]:
        """The input folders there are now, and what each is (device and inode, None if missing)."""
        names = [name for name in WATCHED if name not in WATCHED_FILES]
        found = [_identity(root / name) for name in names]
        return [str(root / name) for name, seen in zip(names, found, strict=False) if seen is not None], found

    top = lambda _change, path: Path(path).name in WATCHED_FILES  # noqa: E731 - the filter of one watch
    watchers = [
        threading.Thread(target=follow, args=(folders, True), daemon=True),
        threading.Thread(target=follow, args=(lambda: ([str(root)], None), False, top), daemon=True),
    ]
    for watcher in watchers:
        watcher.start()
    try:
        while not (stop is not None and stop.is_set()):
            try:
                batch = batches.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(batch, Exception):
                print(
                    f"atlas-site: the file watcher could not name a change ({one_line(str(batch))}); rebuilding",
                    file=sys.stderr,
                    flush=True,
                )
                yield set()  # something changed: the build says what
                continue
            yield batch
    finally:
        done.set()


def serve(
    root: Path,
    site: Path,
    port: int = 8000,
    search: bool = False,
    ready=None,
    stop: threading.Event | None = None,
) -> None:
    check_destination(site, root)
    state = LiveState()
    server = open_server(site, state, port)
    thread = builder = None
    try:
        cache = BuildCache(root / ".atlas-cache" / "artefacts")  # only what an edit affects is redone
        served = _Served()
        rebuild(
            root, site, state, search=True, cache=cache, served=served
        )  # the first build includes the search index
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        builder = _Builder(root, site, state, search, cache, served)
        builder.start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        print(f"serving {site} at {url} (watching {', '.join(WATCHED)}; Ctrl-C stops)", flush=True)
        if ready:
            ready(url)
        for changes in watched_changes(root, stop):
            hot_push(state, served, _edited(changes))
            builder.request()
    finally:  # Ctrl-C goes on up to the command line, which says so in one line
        if builder is not None:
            builder.stop()
        state.close()
        if thread is not None:
            server.shutdown()
        server.server_close()
