"""`atlas-site serve`: build, serve _site/ on localhost, rebuild on every edit, reload the page.
A broken edit keeps the last good site and shows its diagnostics in the terminal and in the page;
nothing an edit does (a half-saved file, a bug of ours) stops the server."""
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
from .write import build_lock, check_destination

WATCHED = ("book.yaml", "content", "ledger", "sources", "templates", "labs_js")  # everything a build reads
LIVE_SCRIPT = "/__atlas/live.js"
LIVE_STYLE = "/__atlas/live.css"
STATUS = "/__atlas/status"
HERE = Path(__file__).parent


class LiveState:
    """What the browser polls: a version that changes on every good build, and current problems."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version = 0
        self.problems: list[str] = []

    def good(self) -> None:
        with self.lock:
            self.version += 1
            self.problems = []

    def broken(self, problems: list[str]) -> None:
        with self.lock:
            self.problems = problems

    def snapshot(self) -> dict:
        with self.lock:
            return {"version": self.version, "problems": list(self.problems)}


def make_handler(site: Path, state: LiveState, live_js: bytes, live_css: bytes = b""):
    served = site.resolve()
    injected = f'<link rel="stylesheet" href="{LIVE_STYLE}"><script src="{LIVE_SCRIPT}" defer></script></head>'.encode()

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
                        html = target.read_bytes().replace(b"</head>", injected, 1)
                    except OSError:  # swapped away by a rebuild between the check and the read
                        return self.send_error(404)
                    return self._send(html, "text/html; charset=utf-8")
                return self.send_error(404)
            return super().do_GET()

        def _send(self, body: bytes, kind: str):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


def rebuild(root: Path, site: Path, state: LiveState, search: bool, cache: BuildCache) -> bool:
    """One rebuild; any failure, even a bug of ours, becomes problems in the terminal and the page."""
    start = time.perf_counter()
    try:
        with build_lock(root):
            build(root, site, search=search, cache=cache)
    except AtlasError as error:
        return _broken(state, [str(d) for d in error.diagnostics])
    except Exception as error:  # never let an edit stop the server
        return _broken(state, [f"atlas-site: internal error: {type(error).__name__}: {error} "
                               "(hint: this is a bug in atlas-site; the server goes on with the last good site)"])
    for line in cache.warnings:
        print(line, file=sys.stderr)
    cache.forget_unused()
    state.good()
    print(f"rebuilt in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    return True


def _broken(state: LiveState, lines: list[str]) -> bool:
    state.broken(lines)
    print("\n".join(lines), file=sys.stderr)
    print(f"build failed: {len(lines)} problem(s); still serving the last good site", file=sys.stderr, flush=True)
    return False


def open_server(site: Path, state: LiveState, port: int) -> http.server.ThreadingHTTPServer:
    """Bind first, so a busy port is said at once, not after a whole build."""
    handler = make_handler(site, state, (HERE / "live.js").read_bytes(), (HERE / "live.css").read_bytes())
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
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
        rebuild(root, site, state, search=True, cache=cache)  # the first build includes the search index
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        print(f"serving {site} at {url} (watching {', '.join(WATCHED)}; Ctrl-C stops)", flush=True)
        if ready:
            ready(url)
        paths = [str(root / folder) for folder in WATCHED if (root / folder).exists()]
        for _changes in watch(*paths, stop_event=stop, debounce=50, step=20):
            rebuild(root, site, state, search=search, cache=cache)
    finally:  # Ctrl-C goes on up to the command line, which says so in one line
        if thread is not None:
            server.shutdown()
        server.server_close()
