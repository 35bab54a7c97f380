"""The search index: Pagefind 1.6 from npm (Chinese indexed by words), the PyPI Pagefind with a
warning where it is missing, and a byte-identical index for the same pages."""

from __future__ import annotations

import json
from pathlib import Path

from atlas_site import search_index
from conftest import ROOT

PAGE = (
    '<!DOCTYPE html><html lang="zh-Hans"><head><meta charset="utf-8"><title>t</title></head>'
    '<body><main data-pagefind-body><h2 id="kv">键值缓存</h2><p>每个 token 的键值缓存随上下文增长。</p></main></body></html>'
)


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "zh").mkdir(parents=True)
    (site / "zh" / "page.html").write_text(PAGE, encoding="utf-8")
    return site


def test_the_npm_pagefind_indexes_the_site(tmp_path):
    assert search_index.pagefind_command((ROOT,)) is not None, "package.json's Pagefind is installed (npm ci)"
    site = _site(tmp_path)
    assert search_index.index_search(site, (ROOT,)) == []
    assert 'pagefind_version="1.6.0"' in (site / "pagefind" / "pagefind.js").read_text(encoding="utf-8")
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["zh-hans"]
    assert not list((site / "pagefind").glob("pagefind-*ui.*")), "Pagefind's own UI kits are not shipped"


def test_the_same_pages_give_the_same_index(tmp_path):
    first, second = _site(tmp_path / "a"), _site(tmp_path / "b")
    search_index.index_search(first, (ROOT,))
    search_index.index_search(second, (ROOT,))
    files = lambda site: {
        p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()
    }
    assert files(first) == files(second)


def test_without_the_npm_pagefind_the_build_warns_and_still_indexes(tmp_path, monkeypatch):
    monkeypatch.setattr(search_index, "pagefind_command", lambda folders=(): None)
    site = _site(tmp_path)
    warnings = search_index.index_search(site)
    assert [str(w) for w in warnings] == [
        "package.json: warning[search.old-pagefind]: Pagefind 1.6 from npm is not installed: the search index is built "
        "with the PyPI Pagefind, which splits Chinese into single characters (hint: run `npm ci` in the project "
        "(scripts/setup.sh does))"
    ]
    assert (site / "pagefind" / "pagefind.js").exists()


def test_atlas_pagefind_names_the_binary_to_run(monkeypatch):
    monkeypatch.setenv("ATLAS_PAGEFIND", "/opt/pagefind/pagefind_extended")
    assert search_index.pagefind_command((ROOT,)) == ["/opt/pagefind/pagefind_extended"]
