"""`atlas-site serve`: real HTTP requests, an overlay on a broken edit, recovery after the fix."""
from __future__ import annotations

import json
import threading
import time
import urllib.request

from atlas_site.serve import serve
from conftest import edit


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read()


def wait_for(condition, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def test_serve_rebuilds_shows_problems_and_recovers(mini):
    stop = threading.Event()
    ready: dict = {}
    thread = threading.Thread(target=serve, kwargs=dict(root=mini, site=mini / "_site", port=0,
                                                         ready=lambda url: ready.setdefault("url", url), stop=stop), daemon=True)
    thread.start()
    try:
        base = wait_for(lambda: ready.get("url"))
        page = get(base + "en/ch14.html")
        assert b"/__atlas/live.js" in page, "served pages carry the reload script"
        assert b"/__atlas/live.js" not in (mini / "_site/en/ch14.html").read_bytes(), "files on disk stay as built"
        assert b"location.reload" in get(base + "__atlas/live.js")
        status = lambda: json.loads(get(base + "__atlas/status"))
        first = status()["version"]
        time.sleep(0.3)  # let the watcher settle before editing

        edit(mini / "content/en/ch14/00-intro.md", "{{claim:distserve-goodput}}", "{{claim:no-such-claim}}")
        broken = wait_for(lambda: status()["problems"])
        assert any("content/en/ch14/00-intro.md:15:" in line and "claim.unknown" in line for line in broken)
        assert b"up to 7.4" in get(base + "en/ch14.html"), "the last good site is still served"

        edit(mini / "content/en/ch14/00-intro.md", "{{claim:no-such-claim}}", "{{claim:distserve-goodput}} again")
        wait_for(lambda: status()["version"] > first and not status()["problems"])
        assert b"again" in get(base + "en/ch14.html")
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_shows_and_clears_the_translation_notice_live(mini):
    """An en edit puts the notice on the zh page; declaring the section in step (the lock) takes it off."""
    from conftest import run_cli

    stop = threading.Event()
    ready: dict = {}
    thread = threading.Thread(target=serve, kwargs=dict(root=mini, site=mini / "_site", port=0,
                                                         ready=lambda url: ready.setdefault("url", url), stop=stop), daemon=True)
    thread.start()
    try:
        base = wait_for(lambda: ready.get("url"))
        assert b"translation-notice" not in get(base + "zh/ch14.html")
        time.sleep(0.3)  # let the watcher settle before editing
        edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the moment the request arrives.")
        wait_for(lambda: b'class="translation-notice"' in get(base + "zh/ch14.html"))
        assert run_cli("sync", "ch14#q1", cwd=mini).returncode == 0
        wait_for(lambda: b"translation-notice" not in get(base + "zh/ch14.html"))
    finally:
        stop.set()
        thread.join(timeout=10)
