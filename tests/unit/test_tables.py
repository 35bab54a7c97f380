"""Prose tables on a phone: a table of three columns or more, each headed in plain words, is read row
by row there (site.css), each body cell carrying its column's heading; narrower tables, and tables
whose headings hold a directive, stay tables (review 31-n #4: tables scrolled sideways by 9 px)."""

from __future__ import annotations

import re

from atlas_site.build import assemble
from conftest import edit

WIDE = {
    "en": "\n\n| Object | Saves | Speeds up |\n|---|---|---|\n| Weights | reads | decode |\n| KV | memory | long context |\n",
    "zh": "\n\n| 对象 | 节省 | 加速 |\n|---|---|---|\n| 权重 | 读取 | decode |\n| KV | 显存 | 长上下文 |\n",
}
NARROW = {
    "en": "\n\n| Case | Value |\n|---|---|\n| A | 1 |\n",
    "zh": "\n\n| 情形 | 数值 |\n|---|---|\n| A | 1 |\n",
}
TERM_HEADED = {
    "en": "\n\n| {{term:ttft}} | Saves | Speeds up |\n|---|---|---|\n| a | b | c |\n",
    "zh": "\n\n| {{term:ttft}} | 节省 | 加速 |\n|---|---|---|\n| a | b | c |\n",
}
ANCHOR = {
    "en": "Both rest on {{term:io}} and {{term:kv-cache}} reads.",
    "zh": "两者都取决于 {{term:io}} 与 {{term:kv-cache}} 的读取。",
}


def _tables(mini, extra: dict) -> dict[str, list[str]]:
    for lang in ("en", "zh"):
        edit(mini / f"content/{lang}/ch14/00-intro.md", ANCHOR[lang], ANCHOR[lang] + extra[lang])
    result = assemble(mini)
    assert not result.errors, "\\n".join(map(str, result.errors))
    return {
        lang: re.findall(
            r'<div class="scroll-frame table-scroll-frame[^"]*">.*?</table>',
            result.output.text(f"{lang}/ch14.html"),
            re.S,
        )
        for lang in ("en", "zh")
    }


def test_a_table_of_three_columns_is_stacked_each_cell_under_its_heading(mini):
    tables = _tables(mini, WIDE)
    (table,) = [t for t in tables["en"] if "Weights" in t]
    assert '<table class="stacks">' in table
    assert re.findall(r'<td data-label="([^"]*)">', table) == ["Object", "Saves", "Speeds up"] * 2
    assert 'table-scroll-frame tall"' in table, "two rows of three cells stand taller than a skipped frame"
    (twin,) = [t for t in tables["zh"] if "权重" in t]
    assert re.findall(r'<td data-label="([^"]*)">', twin)[:3] == ["对象", "节省", "加速"]


def test_a_narrow_table_and_one_headed_by_a_directive_stay_tables(mini):
    tables = _tables(mini, {lang: NARROW[lang] + TERM_HEADED[lang] for lang in ("en", "zh")})
    added = [
        t for t in tables["en"] + tables["zh"] if any(word in t for word in ("Case", "情形", "Saves", "节省"))
    ]
    assert len(added) == 4, added
    for table in added:
        assert "<table>" in table and "data-label" not in table, table


def test_a_table_the_book_generates_stacks_like_a_prose_table(mini):
    """The node table (a directive's table of four columns) is read row by row on a phone as a prose
    table is (review 31-q #11: the Atlas's 62 nodes scrolled sideways at 390 px)."""
    tables = _tables(mini, {lang: "\n\n{{node-table}}\n" for lang in ("en", "zh")})
    for lang, headings in (("en", ["Node", "Year", "Source", "Role in this chapter"]), ("zh", None)):
        (table,) = [t for t in tables[lang] if "node-table" in t]
        assert '<table class="node-table stacks">' in table
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
        assert rows, table
        for row in rows:
            labels = re.findall(r'<td data-label="([^"]*)">', row)
            assert len(labels) == row.count("<td"), row
            assert headings is None or labels == headings, row
