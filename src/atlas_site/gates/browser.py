"""What the browser gates (--browser, gates/browser_walk.py) stand on: the local server, Chromium,
a page opened with everything a reader would come near laid out, and the checks that drive a page
with the keyboard and the mouse (lab tabs, the language switch)."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

VIEWPORTS = {"390": (390, 844), "1280": (1280, 800)}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Debian's headless shell first: the same Blink without the full browser's interface layer, whose
# browser process did a third less work per page (measured over the theme's browser tests: 14.1
# against 20.4 CPU-seconds on one file, the same 77 passes); Debian's full Chromium where the shell
# is not installed
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")


def chromium_path() -> str:
    chosen = os.environ.get("ATLAS_CHROMIUM")
    if chosen:
        return chosen
    return next((path for path in CHROMIUMS if os.access(path, os.X_OK)), CHROMIUMS[-1])


# a client that left mid-answer: what a write (or a read) on its socket raises
DISCONNECTED = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class LocalServer(http.server.ThreadingHTTPServer):
    """A server on 127.0.0.1 whose client may leave mid-answer (a page navigated away, a browser
    closed): that is no error to print. Anything else is said in one line, never a traceback.
    The one guard of every write path of its handlers (a page, a file, an error page, serve's
    event stream): they write, and a client gone is ended here."""

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, DISCONNECTED):
            return
        print(
            f"atlas-site: a request from {client_address[0]} failed: {error!r}", file=sys.stderr, flush=True
        )


@contextlib.contextmanager
def serve_folder(folder: Path, handler_class=None):
    """A quiet static server on 127.0.0.1 for the duration of the gates (or, with its own handler
    class, of the benchmark's Lighthouse runs)."""
    handler = functools.partial(handler_class or _QuietHandler, directory=str(folder))
    server = LocalServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output readable
        pass


@contextlib.contextmanager
def launched_browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


class PageWalk:
    """Visits every page once per viewport and hands each loaded page to the checks."""

    def __init__(self, browser, base: str, pages: list[str]):
        self.browser, self.base, self.pages = browser, base, pages
        self.external: list[tuple[str, str]] = []
        self.console: list[tuple[str, str]] = []
        self.path = ""  # the page the tab shows: what it requests and logs is that page's
        self._tabs: dict[int, Any] = {}  # a Playwright page per context

    def open(self, context, path: str):
        """The page at `path`, loaded with everything that waits for the reader laid out, in the
        walk's one tab of this context: a tab is made once (a new renderer each time cost a tenth
        of the walk's CPU) and each page is loaded into it at a phone's width, as if new: what
        the last page kept for this tab's session is cleared first."""
        tab = self._tabs.get(id(context))
        if tab is None:
            tab = self._tabs[id(context)] = self._new_tab(context)
        else:
            tab.evaluate(_FORGET_SESSION)
            width, height = VIEWPORTS["390"]
            tab.set_viewport_size({"width": width, "height": height})
        self.path = path
        tab.goto(self.base + path, wait_until="load")
        self.console += [(path, problem) for problem in render_everything(tab)]
        return tab

    def _new_tab(self, context):
        tab = context.new_page()
        tab.on(
            "request",
            lambda request: (
                None
                if request.url.startswith((self.base, "data:", "about:"))
                else self.external.append((self.path, request.url))
            ),
        )
        tab.on(
            "console",
            lambda message: (
                self.console.append((self.path, message.text)) if message.type == "error" else None
            ),
        )
        tab.on("pageerror", lambda error: self.console.append((self.path, str(error))))
        return tab


_FORGET_SESSION = "() => { try { sessionStorage.clear(); } catch (error) {} }"


# Through the CSSOM: the page's CSP refuses an added <style>, not a property set from script.
_RENDER_ALL = (
    "() => document.querySelectorAll('[data-skippable] > *').forEach(el => { el.classList.add('laid-out'); })"
)


def render_everything(page) -> list[str]:
    """Lay out at once every block the stylesheet lets the browser skip far from the screen
    (content-visibility; a reader's browser lays each out as it nears the screen), and build the
    development map and the labs, which wait for the reader to come near them (devmap.js,
    labs-loader.js): what is too wide or badly placed anywhere on the page is then measured, not a
    skipped block's placeholder, the list that stands in for the map or the text that stands in
    for the labs' controls. The page is left scrolled to its top. The checks of what a reader sees
    as the page loads (first screen, language switch) do not call it. Returns what did not start
    when the reader came near it (the page walk reports it as a console problem)."""
    page.evaluate(_RENDER_ALL)
    if not page.evaluate("() => typeof window.atlasWhenNear === 'function'"):
        return []  # script off: the list and the labs' static view are what the reader gets
    problems = _come_near_each(
        page,
        "[data-devmap]",
        "el => el.classList.contains('is-enhanced')",
        "the development map was not built",
    ) + _come_near_each(
        page,
        "[data-lab-scripts]",
        "el => !el.querySelector('[data-lab]:not(.lab-js)')",
        "lab code did not load",
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    return problems


NEAR_SECONDS = 15  # how long what waits for the reader may take to start once the reader is near


def _come_near_each(page, selector: str, ready: str, failure: str) -> list[str]:
    """Scroll to each element that waits for the reader (window.atlasWhenNear) until `ready(el)`;
    `failure` for each that is not ready within NEAR_SECONDS."""
    from playwright.sync_api import Error as PlaywrightError  # a timeout is one

    problems = []
    for index in range(page.locator(selector).count()):
        page.locator(selector).nth(index).evaluate("el => el.scrollIntoView({block: 'start'})")
        try:
            page.wait_for_function(
                f"(i) => ({ready})(document.querySelectorAll({json.dumps(selector)})[i])",
                arg=index,
                timeout=NEAR_SECONDS * 1000,
            )
        except PlaywrightError:
            problems.append(f"{failure} when the reader came near it ({selector} #{index + 1})")
    return problems


def check_tabs(page, expected: int) -> list[str]:
    """Real key presses: Right/Left/Home/End move and select; Tab enters the active panel."""
    issues = []
    tabs = page.locator("[role=tablist] [role=tab]")
    count = tabs.count()
    if count != expected:
        return [f"expected {expected} lab tabs in one tablist, found {count}"]

    def state():
        return page.evaluate("""() => {
          const tabs = [...document.querySelectorAll('[role=tablist] [role=tab]')];
          const selected = tabs.findIndex(t => t.getAttribute('aria-selected') === 'true');
          const focused = tabs.indexOf(document.activeElement);
          const tab = tabs[selected];
          const panel = tab && document.getElementById(tab.getAttribute('aria-controls'));
          const visible = !!panel && panel.getAttribute('role') === 'tabpanel' && !panel.hidden && panel.getClientRects().length > 0;
          return [selected, focused, visible, tabs.filter(t => t.getAttribute('aria-selected') === 'true').length];
        }""")

    tabs.nth(0).focus()
    tabs.nth(0).press("Home")
    last = count - 1
    for key, want in (
        ("ArrowRight", 1),
        ("ArrowRight", 2 % count),
        ("End", last),
        ("ArrowRight", 0),
        ("ArrowLeft", last),
        ("Home", 0),
    ):
        page.keyboard.press(key)
        selected, focused, visible, how_many = state()
        if (selected, focused) != (want, want) or not visible or how_many != 1:
            issues.append(
                f"after {key}: selected tab {selected}, focused {focused}, panel visible {visible} (expected tab {want})"
            )
    issues += _load_labs(page, count)
    page.keyboard.press("Tab")
    inside = page.evaluate("""() => { const tab = document.querySelector('[role=tab][aria-selected=true]');
      const panel = document.getElementById(tab.getAttribute('aria-controls'));
      return panel.contains(document.activeElement) || document.activeElement === panel; }""")
    if not inside:
        issues.append("Tab from the selected tab does not enter its panel")
    return issues


def _load_labs(page, count: int) -> list[str]:
    """All the labs are live: render_everything (PageWalk.open) came near them, so their code has
    loaded (labs-loader.js) and their console errors count in the offline gate."""
    if page.locator("[data-lab-scripts]").count() < 1:
        return ["the labs carry no data-lab-scripts list for their code"]
    live = page.evaluate("document.querySelectorAll('[data-lab].lab-js').length")
    return [] if live >= count else [f"lab code did not load near the labs: {live}/{count} labs live"]


_SWITCH_HREF = (
    "() => new URL(document.querySelector('[data-lang-switch]').getAttribute('href'), location.href).href"
)


def check_switch(page, walk: PageWalk, path: str) -> list[str]:
    """The language switch at a section points at the same section of the twin page, and the twin,
    in another language, holds it. The reader comes to each sampled section by its address on the
    page already open (the fragment changes, the page stays); the twin's HTML is read once, without
    laying it out. That a click on the switch lands on the paragraph being read is the theme's
    behaviour, the same on every page (its tests drive it on a fixture book); following it on every
    page loaded each page's twin once more, a fifth of the walk."""
    from playwright.sync_api import Error as PlaywrightError  # a timeout is one

    # the reader's last act before the switch is reading: the labs this walk drove earlier in the tab
    # are not in use (site.js carries a widget used last, in view, instead of the section)
    page.evaluate("() => document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }))")
    ids = page.evaluate("() => [...document.querySelectorAll('article h2[id]')].map(h => h.id)")
    sample = ids[:2] + ids[-1:] if len(ids) > 3 else ids
    link = page.locator("[data-lang-switch]")
    if link.count() != 1:
        return ["no language switch"]
    lang = page.evaluate("() => document.documentElement.lang")
    twin_url = page.evaluate(_SWITCH_HREF).split("#")[0]
    response = page.request.get(twin_url)
    twin_html = response.text() if response.ok else ""
    twin_lang = re.search(r'<html[^>]*\slang="([^"]*)"', twin_html)
    if twin_url.split("#")[0] == page.url.split("#")[0] or not twin_lang or twin_lang.group(1) == lang:
        said = f"{twin_lang.group(1)}" if twin_lang else ("not found" if not response.ok else "no language")
        return [f"switch leads to {twin_url} ({said}), not to the twin in another language"]
    issues = []
    for section in sample:
        page.goto(walk.base + path + "#" + section, wait_until="load")
        link.focus()
        try:
            page.wait_for_function(
                f"(id) => ({_SWITCH_HREF})().endsWith('#' + id)", arg=section, timeout=5000
            )
        except PlaywrightError:
            issues.append(f"switch from #{section} points at {link.get_attribute('href')}")
            continue
        twin = page.evaluate(_SWITCH_HREF).split("#")[0]
        if twin != twin_url:
            issues.append(f"switch from #{section} leads to {twin}, not to the page's twin {twin_url}")
        elif not re.search(rf'\sid="{re.escape(section)}"', twin_html):
            issues.append(f"switch from #{section} leads to {twin}, which has no #{section}")
    return issues
