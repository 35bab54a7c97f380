"""What serve tells an open page after a rebuild (live_patch.py): the changed sections of its
article, or reload when anything outside the article or any asset changed."""

from __future__ import annotations

from atlas_site.live_patch import RELOAD, page_change, site_changes
from atlas_site.output import Output

PAGE = (
    '<html><head><title>T</title></head><body><nav>toc</nav><article class="prose">'
    '<p>intro</p>\n<h2 id="q1">One</h2>\n<p>a</p>\n<h2 id="q2">Two</h2>\n<p>b</p>\n</article><footer>f</footer></body></html>'
)


def output(files: dict[str, str]) -> Output:
    out = Output()
    for path, text in files.items():
        out.add(path, text)
    return out


def test_a_paragraph_edit_names_only_its_section_with_old_and_new_markup():
    new = PAGE.replace("<p>b</p>", "<p>b, edited</p>")
    assert page_change(PAGE.encode(), new.encode()) == [
        {
            "id": "q2",
            "old": '<h2 id="q2">Two</h2>\n<p>b</p>\n',
            "new": '<h2 id="q2">Two</h2>\n<p>b, edited</p>\n',
        }
    ]


def test_the_markup_before_the_first_heading_is_a_section_too():
    change = page_change(PAGE.encode(), PAGE.replace("<p>intro</p>", "<p>intro!</p>").encode())
    assert [c["id"] for c in change] == [""]


def test_a_change_outside_the_article_or_to_the_sections_reloads():
    assert page_change(PAGE.encode(), PAGE.replace("<nav>toc</nav>", "<nav>toc 2</nav>").encode()) == RELOAD
    assert page_change(PAGE.encode(), PAGE.replace("<footer>f", "<footer>g").encode()) == RELOAD
    assert page_change(PAGE.encode(), PAGE.replace('id="q2"', 'id="q3"').encode()) == RELOAD
    assert page_change(PAGE.encode(), PAGE.replace("<p>b</p>", '<h2 id="q3">Three</h2>').encode()) == RELOAD
    assert page_change(b"<html>no article</html>", b"<html>no article either</html>") == RELOAD


def test_site_changes_lists_changed_pages_and_reloads_for_assets():
    old = output({"en/ch14.html": PAGE, "index.html": "<html>i</html>", "assets/a.css": "a{}"})
    same = output({"en/ch14.html": PAGE, "index.html": "<html>i</html>", "assets/a.css": "a{}"})
    assert site_changes(old, same) == {"reload": False, "pages": {}, "refresh": []}
    edited = output(
        {
            "en/ch14.html": PAGE.replace("<p>a</p>", "<p>A</p>"),
            "index.html": "<html>i</html>",
            "assets/a.css": "a{}",
        }
    )
    changes = site_changes(old, edited)
    assert changes["reload"] is False and list(changes["pages"]) == ["en/ch14.html"]
    assert [c["id"] for c in changes["pages"]["en/ch14.html"]] == ["q1"]
    assert site_changes(
        old, output({"en/ch14.html": PAGE, "index.html": "<html>i</html>", "assets/a.css": "b{}"})
    ) == {"reload": True}
    added = output(
        {"en/ch14.html": PAGE, "index.html": "<html>i</html>", "assets/a.css": "a{}", "en/new.html": PAGE}
    )
    assert site_changes(old, added)["pages"] == {"en/new.html": RELOAD}
    assert site_changes(None, same) == {"reload": True}


def test_changed_preview_data_is_refreshed_not_reloaded():
    old = output({"en/ch14.html": PAGE, "assets/previews-en.js": "a", "assets/site.js": "s"})
    quoted = output(
        {
            "en/ch14.html": PAGE.replace("<p>b</p>", "<p>b!</p>"),
            "assets/previews-en.js": "b",
            "assets/site.js": "s",
        }
    )
    changes = site_changes(old, quoted)
    assert changes["reload"] is False and changes["refresh"] == ["assets/previews-en.js"]
    assert [c["id"] for c in changes["pages"]["en/ch14.html"]] == ["q2"]
    # any other script still reloads, and so does preview data that is new
    assert site_changes(
        old, output({"en/ch14.html": PAGE, "assets/previews-en.js": "a", "assets/site.js": "t"})
    ) == {"reload": True}
    assert site_changes(
        old,
        output(
            {
                "en/ch14.html": PAGE,
                "assets/previews-en.js": "a",
                "assets/site.js": "s",
                "assets/previews-de.js": "d",
            }
        ),
    ) == {"reload": True}
