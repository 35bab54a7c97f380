"""The search box while its index is still on the way (issue 31 #2): the first keystroke says the box
is working and keeps what was typed, and the results never say "No results" before the index has
been read. The network is slowed down (700 ms a request), as a phone's can be."""

from __future__ import annotations

import pytest

from conftest import open_page

pytestmark = pytest.mark.browser

WATCH = """() => {
  const form = document.querySelector('[data-search]');
  const status = form.querySelector('[data-search-status]');
  window.seen = [];
  new MutationObserver(() => window.seen.push({
    status: status.textContent,
    results: document.querySelectorAll('.search-result').length,
    query: document.querySelector('#search-input').value,
  })).observe(status, { childList: true, characterData: true, subtree: true });
}"""


def test_the_first_keystroke_says_searching_keeps_the_query_and_never_flashes_no_results(reader_site):
    context, page = open_page(reader_site, "en/index.html", viewport={"width": 1280, "height": 800})
    try:
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        network.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 700, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        form = page.locator("[data-search]")
        busy, none = form.get_attribute("data-msg-busy"), form.get_attribute("data-msg-none")
        page.evaluate(WATCH)
        page.locator("#search-input").click()
        page.keyboard.type("goodput", delay=40)
        status = page.locator("[data-search-status]")
        assert status.text_content() == busy, "the box says it is working at once: " + repr(
            status.text_content()
        )
        page.wait_for_function(
            "() => document.querySelector('[data-search-results]').getAttribute('data-query') === 'goodput'",
            timeout=60000,
        )
        assert page.input_value("#search-input") == "goodput", "what was typed is kept"
        assert page.locator(".search-result").count() > 0
        seen = page.evaluate("window.seen")
        assert seen and all(state["status"] != none for state in seen), seen
    finally:
        context.close()


def test_coming_to_the_box_fetches_the_index_before_the_first_key(reader_site):
    """Review 31-q #5: on a loaded phone the first query waited for Pagefind, its metadata and its
    WebAssembly, all fetched only when the search ran. Focusing the box now starts them."""
    context, page = open_page(reader_site, "en/index.html", viewport={"width": 390, "height": 844})
    try:
        fetched: list[str] = []
        context.on("request", lambda request: fetched.append(request.url))  # the worker's too
        page.locator("#search-input").focus()
        for _ in range(300):
            if any(url.endswith(".pf_meta") for url in fetched) and any("/wasm." in url for url in fetched):
                break
            page.wait_for_timeout(100)
        assert any(url.endswith(".pf_meta") for url in fetched), fetched
        assert any("/wasm." in url for url in fetched), fetched
        assert page.input_value("#search-input") == "", "nothing was typed"
    finally:
        context.close()
