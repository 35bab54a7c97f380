"""`atlas-site serve`: build, serve _site/ on localhost, rebuild on every edit, reload the page.
A broken edit keeps the last good site and shows its diagnostics in the terminal and in the page."""
from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
import time
from pathlib import Path

from .build import build
from .cache import BuildCache
from .diagnostics import AtlasError

WATCHED = ("content", "ledger", "sources", "templates", "labs_js")
LIVE_SCRIPT = "/__atlas/live.js"
STATUS = "/__atlas/status"


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


def make_handler(site: Path, state: LiveState, live_js: bytes):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, *args):
            pass

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == STATUS:
                return self._send(json.dumps(state.snapshot()).encode(), "application/json")
            if path == LIVE_SCRIPT:
                return self._send(live_js, "text/javascript")
            if path.endswith("/") or path.endswith(".html"):
                target = site / (path.lstrip("/") + ("index.html" if path.endswith("/") else ""))
                if target.is_file():
                    # served pages get the reload script; the files on disk stay identical to a build
                    html = target.read_bytes().replace(b"</head>", f'<script src="{LIVE_SCRIPT}" defer></script></head>'.encode(), 1)
                    return self._send(html, "text/html; charset=utf-8")
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
    start = time.perf_counter()
    try:
        build(root, site, search=search, cache=cache)
    except AtlasError as error:
        lines = [str(d) for d in error.diagnostics]
        state.broken(lines)
        print("\n".join(lines), file=sys.stderr)
        print(f"build failed: {len(lines)} problem(s); still serving the last good site", file=sys.stderr, flush=True)
        return False
    cache.forget_unused()
    state.good()
    print(f"rebuilt in {(time.perf_counter() - start) * 1000:.0f} ms", flush=True)
    return True


def serve(root: Path, site: Path, port: int = 8000, search: bool = False, ready=None, stop: threading.Event | None = None) -> None:
    from watchfiles import watch

    state = LiveState()
    cache = BuildCache(root / ".atlas-cache" / "artefacts")  # only what an edit affects is redone
    rebuild(root, site, state, search=True, cache=cache)  # the first build includes the search index
    live_js = (Path(__file__).parent / "live.js").read_bytes()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), make_handler(site, state, live_js))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {site} at {url} (watching {', '.join(WATCHED)}; Ctrl-C stops)", flush=True)
    if ready:
        ready(url)
    paths = [str(root / folder) for folder in WATCHED if (root / folder).exists()]
    try:
        for _changes in watch(*paths, stop_event=stop, debounce=50, step=20):
            rebuild(root, site, state, search=search, cache=cache)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
