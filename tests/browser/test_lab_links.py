"""A link into a lab in a state (`#lab-<id>-panel?name=value…`), as readers follow it: the numbers
page's "open it in the lab" for a worked example, and a link written in prose. Loaded in Chromium,
the lab takes the state from the address (labs_js/shared/bind.js) and shows the number the book
prints. The build has already run the lab's function in each linked state (example.lab-mismatch)
and the links gate has checked every state a page links to (gate.links.lab-state), on every page of
every book; this checks the page the reader gets once, on the fixture book: the address, the
restore and the formatting."""

from __future__ import annotations

import json
import re

from conftest import run_cli, with_memory_lab

# Lab A's KV per token (KiB) for each state linked below; the lab's defaults (GQA, 32 layers, 8 KV
# heads of 128, 16-bit) give 128, so the other two states show a restore, not the defaults
LINKED = {"layers=16": 64.0, "attention=mha": 512.0}
NUMBER = re.compile(r"[\d,]*\.?\d+")


def test_a_worked_examples_link_and_a_prose_link_open_the_lab_showing_the_books_number(mini, chromium):
    with_memory_lab(mini)
    for lang in ("zh", "en"):
        page = mini / f"content/{lang}/ch14/00-intro.md"
        links = " ".join(f"[{state}](#lab-memory-panel?{state})" for state in LINKED)
        text = page.read_text(encoding="utf-8").replace("{{labs:memory}}", "{{labs:memory}}\n\n" + links)
        page.write_text(text, encoding="utf-8")
    built = run_cli("build", "--no-search", cwd=mini)
    assert built.returncode == 0, built.stdout + built.stderr
    (example,) = json.loads((mini / "_site/examples.json").read_text(encoding="utf-8"))["examples"]
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    seen = {}
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        for lang in ("zh", "en"):
            # the numbers page's link, followed by a click as a reader would
            page.goto((mini / f"_site/{lang}/numbers.html").as_uri())
            page.locator("a.numbers-lab").first.click()
            page.wait_for_load_state("load")
            assert page.url.endswith(example["lab"]["links"][lang].removeprefix(f"{lang}/"))
            seen[(lang, "example")] = _shown(page)
            for state in LINKED:
                page.goto((mini / f"_site/{lang}/ch14.html").as_uri() + f"#lab-memory-panel?{state}")
                page.reload()  # a hash change alone does not run the lab's set-up again
                seen[(lang, state)] = _shown(page)
    finally:
        context.close()
    value = example["outputs"]["kib_per_token"]["value"]
    assert seen == {
        **{(lang, "example"): value for lang in ("zh", "en")},
        **{(lang, state): LINKED[state] for lang in ("zh", "en") for state in LINKED},
    }
    assert not errors, errors


def _shown(page) -> float:
    page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
    text = page.locator(
        "#lab-memory-panel .lab-results [data-output='kv_kib_per_token']"
    ).first.text_content()
    found = NUMBER.search(text or "")
    assert found, text
    return float(found.group(0).replace(",", ""))
