"""Review 31-g items 5 and 8, on the reader's fixture book (tests/projects/reader): the numbers
page's sort row on a phone says what it does ("Sort by:"), shows the active column's direction and
the active head carries aria-sort at every width (it opens in the order readers meet the numbers:
the "used in" column, ascending); its introduction is body text, so a desk's first screen reaches
the table. Item 3 (the development map's scroll cue and arrows) is in test_devmap.py."""

from __future__ import annotations

import pytest

from conftest import LAPTOP, PHONE, opened

SORT_BY = {"zh": "排序：", "en": "Sort by:"}


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site


def _sort_state(page):
    return page.evaluate(
        """() => {
      const row = document.querySelector('[data-numbers] thead tr');
      const label = getComputedStyle(row, '::before');
      const heads = [...row.cells];
      const sorted = heads.filter(th => th.hasAttribute('aria-sort'));
      const arrows = heads.map(th => { const b = th.querySelector('.sort-button');
        return b ? getComputedStyle(b, '::after').content : 'none'; });
      const first = row.querySelector('.sort-button').getBoundingClientRect();
      return {label: label.content, labelShown: label.visibility === 'visible' && label.display !== 'none',
              labelWidth: parseFloat(label.width) || 0, firstButtonLeft: first.left, rowLeft: row.getBoundingClientRect().left,
              sorted: sorted.map(th => [heads.indexOf(th), th.getAttribute('aria-sort')]),
              arrows, used: heads.findIndex(th => th.dataset.sort === 'order'),
              order: [...document.querySelectorAll('[data-numbers] tbody tr')].map(tr => tr.id)};
    }"""
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_phone_sort_row_is_labelled_and_shows_the_active_direction(site, lang):
    """Review 31-g #5: a row of bold blue words with no label, no arrow and no aria-sort."""
    with opened(site, f"{lang}/numbers.html", **PHONE) as page:
        state = _sort_state(page)
        assert state["label"].startswith(f'"{SORT_BY[lang]}"') and state["labelShown"], state["label"]
        assert (
            state["labelWidth"] > 0 and state["firstButtonLeft"] > state["rowLeft"] + state["labelWidth"] - 1
        ), "'Sort by:' stands before the first button"
        assert state["sorted"] == [[state["used"], "ascending"]], "the table opens in reading order"
        assert "▲" in state["arrows"][state["used"]]
        assert sum("▲" in a or "▼" in a for a in state["arrows"]) == 1, state["arrows"]
        opening = state["order"]
        page.locator(".sort-button").first.tap()
        state = _sort_state(page)
        assert state["sorted"] == [[0, "ascending"]] and "▲" in state["arrows"][0]
        assert sum("▲" in a or "▼" in a for a in state["arrows"]) == 1, state["arrows"]
        used = page.locator("th[data-sort='order'] .sort-button")
        used.tap()
        assert _sort_state(page)["sorted"] == [[state["used"], "ascending"]]
        assert _sort_state(page)["order"] == opening, "'used in' ascending is the order the page opened in"
        used.tap()
        assert _sort_state(page)["sorted"] == [[state["used"], "descending"]]
        assert "▼" in _sort_state(page)["arrows"][state["used"]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_desk_the_active_head_has_aria_sort_and_no_sort_label(site, lang):
    with opened(site, f"{lang}/numbers.html", **LAPTOP) as page:
        state = _sort_state(page)
        assert state["sorted"] == [[state["used"], "ascending"]] and "▲" in state["arrows"][state["used"]]
        assert not state["labelShown"] or state["label"] in ("none", "normal"), (
            "the heads are the labels here"
        )


def test_without_script_the_opening_order_is_still_announced(site):
    with opened(site, "en/numbers.html", java_script_enabled=False, **PHONE) as page:
        assert page.locator("[data-numbers] th[aria-sort='ascending'][data-sort='order']").count() == 1
        label = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-numbers] thead tr'), '::before').visibility"
        )
        assert label == "hidden", "no 'Sort by:' where nothing sorts"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_numbers_introduction_is_body_text_and_the_table_starts_on_the_first_screen(site, lang):
    """Review 31-g #8: a 10-line introduction at 21.6 px in muted grey."""
    with opened(site, f"{lang}/numbers.html", **LAPTOP) as page:
        seen = page.evaluate(
            """() => {
          const intro = document.querySelector('.page.numbers h1 + p'), main = document.querySelector('main');
          const row = document.querySelector('[data-numbers] tbody tr');
          return {size: getComputedStyle(intro).fontSize, body: getComputedStyle(main).fontSize,
                  color: getComputedStyle(intro).color, ink: getComputedStyle(main).color,
                  row: row.getBoundingClientRect().top};
        }"""
        )
        assert seen["size"] == seen["body"], (
            f"the introduction is set at {seen['size']}, the text at {seen['body']}"
        )
        assert seen["color"] == seen["ink"], "in the text's colour, not muted"
        assert seen["row"] < 800 - 40, f"the table's first row starts at {seen['row']:.0f} px"
