"""Browser tabs kept between tests: a new tab costs Chromium a renderer process (about 0.26 CPU s
on this kind of machine, measured with a cgroup over Chromium's processes), a page loaded into a kept
tab about 0.1. The browser tests open a few hundred pages, most in one of a handful of settings (a
phone, a laptop, the dark scheme), so each worker keeps one idle tab per setting and hands it to the
next test that asks for the same setting, in the state a new context would give it:

- the tab is left on about:blank, so the next address is a new document even where it differs from
  the last one only by its #fragment (a same-document jump would keep the old page);
- the site's localStorage and the tab's sessionStorage are cleared, cookies too;
- the HTTP cache is off in kept tabs (as in a new context, every load fetches its files: a test of a
  first load sees one, and one that watches requests sees them all);
- the mouse is back at the top left corner, where a new page's mouse starts.

A tab is kept by the options a context cannot change once made (touch, a phone's user agent and
pixel ratio, locale, JavaScript off ...). What a page can be told at any time is set on each lease
instead, to the test's asking or to a new context's default: the viewport (1280 x 720), the colour
scheme (light) and reduced motion (none). So a test at 800 px or in the dark scheme gets a kept tab
too: a new one per setting and worker was a third of the tabs the suite made.

A tab whose test changed what cannot be reset (an init script, a route, a listener, the emulated
media, a second page, anything asked of its context other than closing it) is closed with its
context instead of kept. `open_page` in conftest.py hands these out; a test that needs a tab of its
own makes its context itself."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

# what makes a tab unfit to keep: these calls change it for good (a listener could be removed, but
# a test's own lists would then miss what happens after it; a closed tab is simpler to reason about)
UNKEPT_AFTER = (
    "add_init_script",
    "route",
    "route_from_har",
    "expose_function",
    "expose_binding",
    "on",
    "once",
    "emulate_media",
    "set_extra_http_headers",
    "set_default_timeout",
    "set_default_navigation_timeout",
)
_SPOILED = "_atlas_tab_spoiled"
_ERRORS = "_atlas_tab_errors"


def errors_in(page: Page) -> list[str]:
    """What the scripts of the page a test was given threw (uncaught) or logged as errors, so far."""
    return getattr(page, _ERRORS)


_ORIGINAL = {name: getattr(Page, name) for name in UNKEPT_AFTER}


def _spoiling(name: str):
    original = _ORIGINAL[name]

    def call(self, *args, **kwargs):
        setattr(self, _SPOILED, True)
        return original(self, *args, **kwargs)

    call.__name__, call.__doc__ = name, original.__doc__
    return call


for _name in UNKEPT_AFTER:
    setattr(Page, _name, _spoiling(_name))

FORGET = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (error) {} }"

# what a lease sets on the tab, and what a new context without the option would have
ADJUSTED = {
    "viewport": {"width": 1280, "height": 720},
    "color_scheme": "light",
    "reduced_motion": "no-preference",
}


class Lease:
    """What open_page returns in place of the context: `close()` gives the tab back; anything else
    asked of the context is the real context's, and the tab is then not kept."""

    def __init__(self, tabs: Tabs, key: str, origin: str, context, page):
        self._tabs, self._key, self._origin = tabs, key, origin
        self._context, self.page = context, page
        self._spoiled = False

    def __getattr__(self, name: str) -> Any:
        self._spoiled = True
        return getattr(self._context, name)

    def close(self) -> None:
        self._tabs.give_back(self)


class Tabs:
    """One worker's idle tabs, by setting (the context's options and the page's init scripts)."""

    def __init__(self, browser):
        self.browser = browser
        self.idle: dict[str, tuple[Any, Page]] = {}

    def lease(self, origin: str, options: dict, scripts: tuple[str, ...] = ()) -> tuple[Lease, Page]:
        """A tab in this setting, on about:blank: a kept one, or a new one (its scripts added)."""
        fixed = {name: value for name, value in options.items() if name not in ADJUSTED}
        wanted = {name: options.get(name) or default for name, default in ADJUSTED.items()}
        key = json.dumps([fixed, scripts], sort_keys=True)
        if key in self.idle:
            context, page = self.idle.pop(key)
            getattr(page, _ERRORS).clear()
        else:
            context = self.browser.new_context(**fixed, viewport=wanted["viewport"])
            page = context.new_page()
            for script in scripts:
                _ORIGINAL["add_init_script"](page, script)
            errors: list[str] = []  # what the page's scripts threw or logged as errors (errors_in)
            _ORIGINAL["on"](page, "pageerror", lambda error: errors.append(str(error)))
            _ORIGINAL["on"](
                page, "console", lambda note: errors.append(note.text) if note.type == "error" else None
            )
            setattr(page, _ERRORS, errors)
            cache = context.new_cdp_session(page)  # kept with the tab: the setting lasts while it does
            cache.send("Network.enable")
            cache.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.set_viewport_size(wanted["viewport"])
        _ORIGINAL["emulate_media"](
            page, color_scheme=wanted["color_scheme"], reduced_motion=wanted["reduced_motion"]
        )
        return Lease(self, key, origin, context, page), page

    def give_back(self, lease: Lease) -> None:
        context, page = lease._context, lease.page
        unfit = (
            lease._spoiled or getattr(page, _SPOILED, False) or page.is_closed() or len(context.pages) != 1
        )
        if unfit or not page.url.startswith(lease._origin):  # another site's storage is not cleared here
            context.close()
            return
        try:
            page.evaluate(FORGET)
            page.goto("about:blank")
            context.clear_cookies()
            page.mouse.move(0, 0)
        except Exception:  # a tab that cannot be reset is not kept
            context.close()
            return
        old = self.idle.pop(lease._key, None)
        if old:
            old[0].close()
        self.idle[lease._key] = (context, page)

    def close(self) -> None:
        for context, _page in self.idle.values():
            context.close()
        self.idle.clear()
