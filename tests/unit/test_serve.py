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


def wait_for(condition, seconds: float = 60.0):  # a deadline for a loaded machine, not a timing test
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
    thread = threading.Thread(
        target=serve,
        kwargs=dict(
            root=mini, site=mini / "_site", port=0, ready=lambda url: ready.setdefault("url", url), stop=stop
        ),
        daemon=True,
    )
    thread.start()
    try:
        base = wait_for(lambda: ready.get("url"))
        page = get(base + "en/ch14.html")
        assert b"/__atlas/live.js" in page, "served pages carry the reload script"
        assert b"/__atlas/live.js" not in (mini / "_site/en/ch14.html").read_bytes(), (
            "files on disk stay as built"
        )
        assert b"location.reload" in get(base + "__atlas/live.js")
        status = lambda: json.loads(get(base + "__atlas/status"))
        first = status()["version"]
        time.sleep(0.3)  # let the watcher settle before editing

        edit(mini / "content/en/ch14/00-intro.md", "{{claim:distserve-goodput}}", "{{claim:no-such-claim}}")
        broken = wait_for(lambda: status()["problems"])
        assert any("content/en/ch14/00-intro.md:15:" in line and "claim.unknown" in line for line in broken)
        assert b"up to 7.4" in get(base + "en/ch14.html"), "the last good site is still served"

        edit(
            mini / "content/en/ch14/00-intro.md",
            "{{claim:no-such-claim}}",
            "{{claim:distserve-goodput}} again",
        )
        wait_for(lambda: status()["version"] > first and not status()["problems"])
        assert b"again" in get(base + "en/ch14.html")
    finally:
        stop.set()
        thread.join(timeout=10)


def following(page) -> None:
    """Wait until the page's event stream is open: a build announced before that is one the page
    never saw, and it reloads for it rather than patch."""
    page.wait_for_function("() => document.documentElement.dataset.live === 'connected'", timeout=30000)


def start(project, **kwargs):
    stop = threading.Event()
    ready: dict = {}
    thread = threading.Thread(
        target=serve,
        kwargs=dict(
            root=project,
            site=project / "_site",
            port=0,
            ready=lambda url: ready.setdefault("url", url),
            stop=stop,
            **kwargs,
        ),
        daemon=True,
    )
    thread.start()
    return stop, thread, wait_for(lambda: ready.get("url"))


def test_serve_stays_up_whatever_an_edit_does(mini, monkeypatch):
    from atlas_site import serve as serve_module

    stop, thread, base = start(mini)
    status = lambda: json.loads(get(base + "__atlas/status"))
    try:
        first = status()["version"]
        time.sleep(0.3)
        glossary = mini / "ledger/glossary.md"
        edit(glossary, "    en: goodput", "    en: &x [*x]")  # once a RecursionError that stopped the server
        broken = wait_for(lambda: status()["problems"])
        assert any(line.startswith("ledger/glossary.md:5:13: error[yaml.alias]") for line in broken), broken
        edit(glossary, "    en: &x [*x]", "    en: goodput")
        wait_for(lambda: status()["version"] > first and not status()["problems"])

        page = mini / "content/en/ch14/00-intro.md"  # an editor's save: delete, then write anew
        text = page.read_text(encoding="utf-8")
        page.unlink()
        time.sleep(0.3)
        page.write_text(
            text.replace("counts from arrival.", "counts from arrival, saved anew."), encoding="utf-8"
        )
        wait_for(lambda: b"saved anew" in get(base + "en/ch14.html") and not status()["problems"])

        real_build = serve_module.build

        def buggy(*args, **kwargs):
            raise RuntimeError("a bug of ours")

        monkeypatch.setattr(serve_module, "build", buggy)
        edit(page, "saved anew", "saved again")
        broken = wait_for(lambda: status()["problems"])
        assert broken == [
            "atlas-site: internal error: RuntimeError: a bug of ours (hint: this is a bug in atlas-site; "
            "the server goes on with the last good site)"
        ]
        monkeypatch.setattr(serve_module, "build", real_build)
        edit(page, "saved again", "saved a third time")
        wait_for(lambda: b"a third time" in get(base + "en/ch14.html") and not status()["problems"])
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(timeout=10)


def relative_luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    lighter, darker = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_overlay_is_readable_in_light_and_dark_mode(mini, chromium):
    stop, thread, base = start(mini)
    try:
        time.sleep(0.3)
        edit(mini / "content/en/ch14/00-intro.md", "{{claim:distserve-goodput}}", "{{claim:no-such-claim}}")
        wait_for(lambda: json.loads(get(base + "__atlas/status"))["problems"])
        for scheme in ("light", "dark"):
            page = chromium.new_page(color_scheme=scheme)
            page.goto(base + "en/ch14.html")
            page.wait_for_selector(".atlas-live-overlay pre", timeout=30000)
            colours = page.eval_on_selector_all(
                ".atlas-live-overlay, .atlas-live-overlay p, .atlas-live-overlay pre",
                """els => els.map(e => {
                const style = getComputedStyle(e);
                let back = style.backgroundColor, node = e;
                while (back === 'rgba(0, 0, 0, 0)' && node.parentElement) { node = node.parentElement; back = getComputedStyle(node).backgroundColor; }
                return [e.tagName, style.color, back];
            })""",
            )
            assert len(colours) == 3
            for tag, foreground, background in colours:
                assert contrast(foreground, background) >= 4.5, (scheme, tag, foreground, background)
            assert "claim.unknown" in page.inner_text(".atlas-live-overlay pre")
            page.close()
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_shows_and_clears_the_translation_notice_live(mini):
    """An en edit puts the notice on the zh page; declaring the section in step (the lock) takes it off."""
    from conftest import run_cli

    stop, thread, base = start(mini)
    try:
        assert b"translation-notice" not in get(base + "zh/ch14.html")
        time.sleep(0.3)  # let the watcher settle before editing
        edit(
            mini / "content/en/ch14/00-intro.md",
            "counts from arrival.",
            "counts from the moment the request arrives.",
        )
        wait_for(lambda: b'class="translation-notice"' in get(base + "zh/ch14.html"))
        assert run_cli("sync", "ch14#q1", cwd=mini).returncode == 0
        wait_for(lambda: b"translation-notice" not in get(base + "zh/ch14.html"))
    finally:
        stop.set()
        thread.join(timeout=10)


def test_an_edit_is_patched_into_the_open_page_and_a_heading_edit_reloads_it(mini, chromium):
    """A paragraph edit arrives over the event stream and replaces only its block (the page is not
    reloaded: a mark set on the window survives); an edit that changes the table of contents
    reloads the page. The files on disk stay as a build writes them."""
    from atlas_site.build import build

    stop, thread, base = start(mini)
    page = chromium.new_page()
    try:
        page.goto(base + "en/ch14.html")
        following(page)
        page.evaluate("() => { window.__notReloaded = true; }")
        untouched = page.evaluate("() => document.querySelector('article table').outerHTML")
        edit(
            mini / "content/en/ch14/00-intro.md",
            "the last block still wastes slots",
            "the last block still wastes a few slots",
        )
        page.wait_for_function(
            "() => document.querySelector('article').textContent.includes('wastes a few slots')",
            timeout=60000,
        )
        assert page.evaluate("() => window.__notReloaded === true"), (
            "the paragraph was patched in, not reloaded"
        )
        assert page.evaluate("() => document.querySelector('article table').outerHTML") == untouched
        assert page.evaluate("() => document.querySelectorAll('article h2#q1').length") == 1

        edit(
            mini / "content/en/ch14/00-intro.md",
            "## Service metrics {#q1}",
            "## Service metrics, measured {#q1}",
        )
        page.wait_for_function(
            "() => document.getElementById('q1') && document.getElementById('q1').textContent.includes('measured')",
            timeout=60000,
        )
        assert page.evaluate("() => window.__notReloaded === undefined"), (
            "a heading edit (the table of contents changed) reloads"
        )
        wait_for(lambda: b"measured" in (mini / "_site/en/ch14.html").read_bytes())
        served = (mini / "_site").resolve()
        fresh = build(mini, mini.parent / "fresh-site", search=False)
        assert fresh.output["en/ch14.html"] == (served / "en/ch14.html").read_bytes(), (
            "serve writes what a build writes"
        )
    finally:
        page.close()
        stop.set()
        thread.join(timeout=10)


def test_a_patched_citing_paragraph_keeps_its_card(mini, chromium):
    """An edit of a paragraph that cites a source is patched in (no reload), and its citation still
    opens the card by focus and closes it by Escape: the cards listen on the document."""
    stop, thread, base = start(mini)
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(base + "en/ch14.html")
        following(page)
        page.evaluate("() => { window.__notReloaded = true; }")
        edit(
            mini / "content/en/ch14/00-intro.md",
            "FlashAttention reorders IO [@n04]",
            "FlashAttention reorders its IO [@n04]",
        )
        page.wait_for_function(
            "() => document.querySelector('article').textContent.includes('reorders its IO')", timeout=60000
        )
        assert page.evaluate("() => window.__notReloaded === true"), (
            "the citing paragraph was patched in, not reloaded"
        )
        cite = page.locator("article p", has_text="reorders its IO").locator("a.cite")
        cite.focus()
        card = page.locator("#cite-card")
        card.wait_for(state="visible", timeout=10000)
        assert card.locator("a.cite-card-link").get_attribute("href").startswith("bibliography.html#src-")
        page.keyboard.press("Escape")
        assert card.is_hidden()
        cite.hover()
        card.wait_for(state="visible", timeout=10000)
        assert page.evaluate("() => window.__notReloaded === true")
    finally:
        page.close()
        stop.set()
        thread.join(timeout=10)


def _raw_get(base: str, path: str, host: str | None = None) -> int:
    """The status of a GET sent as written: the path unnormalised, the Host header as given."""
    import http.client
    import urllib.parse

    address = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host if host is not None else address.netloc)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_serve_answers_only_its_own_address_and_turns_bad_paths_into_400(mini):
    """Another web page (DNS rebinding: its name resolving to 127.0.0.1) must not read drafts, the
    dashboard or the status; a NUL or a lone surrogate in a path is a 400, never a dead handler."""
    stop, thread, base = start(mini)
    port = base.rstrip("/").rsplit(":", 1)[1]
    try:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert _raw_get(base, "/dashboard.html", host) == 200, host
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{int(port) + 1}", "", "localhost"):
            assert _raw_get(base, "/__atlas/status", host) == 421, host
            assert _raw_get(base, "/dashboard.html", host) == 421, host
        for path in ("/%00", "/en/%00.html", "/%ed%b0%80.html", "/%ff.html", "/a%0ab.html"):
            assert _raw_get(base, path) == 400, path
        assert _raw_get(base, "/en/ch14.html") == 200  # still serving
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_answers_two_hundred_requests_at_once(mini):
    import concurrent.futures

    stop, thread, base = start(mini)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=200) as pool:
            statuses = list(pool.map(lambda _: _raw_get(base, "/en/ch14.html"), range(200)))
        assert statuses == [200] * 200
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_keeps_seeing_book_yaml_after_saves_that_replace_it(mini):
    """vim, sed -i and most editors save by renaming a new file over the old one: every such save,
    not only the first, must rebuild."""
    import os

    stop, thread, base = start(mini)
    status = lambda: json.loads(get(base + "__atlas/status"))  # noqa: E731
    try:
        time.sleep(0.3)
        for title in ("Atlas one", "Atlas two", "Atlas three"):
            version = status()["version"]
            profile = mini / "book.yaml"
            text = profile.read_text(encoding="utf-8")
            replaced = mini / ".book.yaml.swp"
            replaced.write_text(text + f"\n# {title}\n", encoding="utf-8")
            os.replace(replaced, profile)
            wait_for(lambda version=version: status()["version"] > version)
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_watches_a_folder_replaced_or_created_after_it_started(mini):
    """A watch holds the folder it began with: a ledger/ swapped in by a rename (a sync tool, a
    restore) or a labs_js/ created after the start went unseen, and so did every edit in them."""
    import os
    import shutil

    labs = mini / "labs_js"
    shutil.move(labs, mini / "labs-away")  # the book starts without lab code (its example then fails)
    stop, thread, base = start(mini)
    status = lambda: json.loads(get(base + "__atlas/status"))  # noqa: E731
    try:
        assert wait_for(lambda: status()["problems"])
        time.sleep(0.3)
        shutil.move(mini / "labs-away", labs)  # created after the start: the build must see it
        wait_for(lambda: not status()["problems"])
        copy = mini / "ledger.new"
        shutil.copytree(mini / "ledger", copy)
        os.rename(mini / "ledger", mini / "ledger.old")
        os.rename(copy, mini / "ledger")
        time.sleep(1.5)  # the swap is seen within a second; then an edit inside the new folder
        edit(mini / "ledger/glossary.md", "    en: goodput", "    en: good output")
        wait_for(lambda: b"good output" in get(base + "en/ch14.html"))
        edit(
            labs / "memory/model.js",
            "function kv_bytes_per_token(args) {",
            "function kv_bytes_per_token(args) {\n    throw new Error('seen');",
        )
        wait_for(lambda: any("seen" in line for line in status()["problems"]))
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_says_what_build_warns_about(mini, capfd):
    """An edit that puts a section out of step with its translation is a warning of `build`: serve
    prints it too."""
    stop, thread, base = start(mini)
    status = lambda: json.loads(get(base + "__atlas/status"))  # noqa: E731
    try:
        version = status()["version"]
        time.sleep(0.3)
        edit(
            mini / "content/en/ch14/00-intro.md",
            "counts from arrival.",
            "counts from the moment the request arrives.",
        )
        wait_for(lambda version=version: status()["version"] > version)
        wait_for(lambda: "warning[translation" in capfd.readouterr().err or None, seconds=30)
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_survives_a_fifo_and_a_name_that_is_not_utf8_and_rebuilds_after_them(mini):
    """A FIFO named like a page stopped every later rebuild for good; a file name that is not UTF-8
    made the watcher (and serve) exit. Each is now a located problem in the page, and once it is
    gone the next edit rebuilds."""
    import os

    stop, thread, base = start(mini)
    status = lambda: json.loads(get(base + "__atlas/status"))  # noqa: E731
    try:
        time.sleep(0.3)
        fifo = mini / "content/en/ch14/15-fifo.md"
        os.mkfifo(fifo)
        wait_for(
            lambda: any(
                "15-fifo.md:1:1: error[file.unreadable]: is a named pipe" in line
                for line in status()["problems"]
            )
        )
        fifo.unlink()
        wait_for(lambda: not status()["problems"])
        odd = mini / "content/en/ch14" / os.fsdecode(b"15-\xff\xfe.md")
        odd.write_text("---\npage: ch14\n---\n", encoding="utf-8")
        wait_for(lambda: any("error[file.name]" in line for line in status()["problems"]))
        odd.unlink()
        version = status()["version"]
        edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the arrival.")
        wait_for(lambda: status()["version"] > version and not status()["problems"])
        assert b"the arrival." in get(base + "en/ch14.html")
    finally:
        stop.set()
        thread.join(timeout=10)


def test_a_client_that_leaves_mid_answer_prints_no_traceback(tmp_path, capfd):
    """A page navigated away while the server writes (a reset connection) is not an error: the
    servers (serve's and the gates') say nothing, where http.server printed a traceback."""
    import socket
    import struct

    from atlas_site.gates.browser import serve_folder

    (tmp_path / "big.html").write_bytes(b"x" * 8_000_000)
    with serve_folder(tmp_path) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(b"GET /big.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            client.recv(1024)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # leave with RST
            client.close()
        time.sleep(0.5)
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Exception occurred" not in captured.err, captured.err


def test_serve_says_nothing_when_a_reader_closes_the_tab_mid_answer(tmp_path, capfd):
    """serve's own answers (a page with the reload script, a plain file, the status, an error page,
    the event stream) all meet a client that left with a reset: one guard ends each quietly, no
    traceback, and the preview keeps answering."""
    import socket
    import struct

    from atlas_site.serve import EVENTS, STATUS, LiveState, open_server

    site = tmp_path / "site"
    site.mkdir()
    (site / "big.html").write_bytes(b"<html><head></head><body>" + b"x" * 8_000_000 + b"</body></html>")
    (site / "big.bin").write_bytes(b"y" * 8_000_000)
    state = LiveState()
    server = open_server(site, state, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        for path in ("/big.html", "/big.bin", STATUS, "/missing.html", EVENTS):
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            client.recv(64)  # the answer has started
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # leave with RST
            client.close()
        time.sleep(0.3)
        state.good({"pages": {}})  # the event stream writes to the page that left
        time.sleep(0.5)
        assert json.loads(get(f"http://127.0.0.1:{port}{STATUS}"))  # still answering
    finally:
        state.close()
        server.shutdown()
        server.server_close()
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Exception occurred" not in captured.err, captured.err
    assert "failed" not in captured.err, captured.err
