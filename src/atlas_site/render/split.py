"""Long chapters as several pages (book.yaml `split: true` on a chapter): the chapter is rendered as
one page, as before, with a marker between its part files; here each part becomes a page of its
own (`<chapter>.html` keeps the first part: the opening and the question cards; `<chapter>-<part>.html`
the others), and every link of the site that points into the chapter is pointed at the page that
now holds its target. The editions (export) are made of the whole chapters, kept in
`Output.whole` with every page as it was before the split.

Why after the render rather than inside it: every link, card, back-link, notice, the numbers page
and the language switch are written once, against the chapter; the split then moves targets, in
one place, with the pages' own ids as the map, and the links gate checks every moved link."""

from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass

from ..model import Book
from ..output import Output
from .open_data import FILES as OPEN_DATA

MARKER = "<!--atlas:part-->"  # between two part files in the article of a chapter that is split
ARTICLE_OPEN = re.compile(r'<article class="prose"[^>]*>\n')
ARTICLE_CLOSE = "\n</article>"
ID = re.compile(r'\sid="([^"]+)"')
HREF = re.compile(r'(\shref="|<meta property="og:url" content=")([^"]*)(")')
HEADING = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S)
TAG = re.compile(r"<[^>]+>")
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
STANDFIRST = re.compile(r'<p class="standfirst">.*?</p>\n?', re.S)
PAGER = re.compile(r'<nav class="pager"[^>]*>.*?</nav>', re.S)
PREVIEW_KEY = re.compile(r'"([a-z0-9][a-z0-9-]*)#([^"]+)"')
TARGET = re.compile(
    r'<(?:h[23]|figure|section|div class="lab[^"]*")[^>]*\sid="([^"]+)"'
)  # what old links point at
MAIN = re.compile(r'<main id="main"')


@dataclass
class SplitPage:
    """One published page of a split chapter."""

    path: str  # zh/ch14-memory.html
    body: str
    title: str  # its first heading, as text


@dataclass
class Family:
    """One split chapter in one language: its pages in order, and which page holds each id."""

    lang: str
    page_id: str
    whole: str  # zh/ch14.html: the chapter's address (and its first page's)
    pages: list[SplitPage]
    holder: dict[str, str]  # element id -> path of the page that holds it

    def index_of(self, path: str) -> int | None:
        return next((i for i, page in enumerate(self.pages) if page.path == path), None)


def split_chapters(book: Book, output: Output) -> None:
    """Publish every chapter marked `split: true` as one page per part file, and move every link
    of the site into it to the page holding its target."""
    families = {}
    for part in book.profile.parts:
        if not (part.chapter and part.split):
            continue
        for lang in book.languages:
            page = book.page(lang, part.chapter)
            if page is None or page.output_path not in output:
                continue
            family = _family(output.text(page.output_path), page, lang)
            if family is not None:
                families[page.output_path] = family
    if not families:
        return
    texts = {path: output.text(path) for path in output.html_pages()}
    for path, family in families.items():
        chapter = texts[path]  # every page is composed from the whole chapter (the first page replaces it)
        for index, split_page in enumerate(family.pages):
            texts[split_page.path] = _compose(chapter, family, index, book.strings.get(family.lang, {}))
    for path, text in sorted(texts.items()):
        moved = _move_links(
            _back_to_last_part(text, path, families), path, families, book.profile.site_url or ""
        )
        if path in output:
            if moved != output.text(path):
                output.whole.setdefault(path, output.text(path))
                output.set(path, moved)
        else:
            output.add(path, moved)
    for lang in book.languages:
        previews = f"assets/previews-{lang}.js"
        if previews in output:
            output.set(previews, _move_preview_keys(output.text(previews), lang, families))
    for name in OPEN_DATA:
        if name in output:
            output.set(name, _move_data_links(output.text(name), families))


def _family(html: str, page, lang: str) -> Family | None:
    opened = ARTICLE_OPEN.search(html)
    closed = html.rfind(ARTICLE_CLOSE)
    if opened is None or closed < opened.end():
        return None
    chunks = html[opened.end() : closed].split(MARKER)
    if len(chunks) != len(page.parts) or len(chunks) < 2:
        return None
    base = page.output_path[: -len(".html")]
    pages: list[SplitPage] = []
    holder: dict[str, str] = {}
    for index, (chunk, part) in enumerate(zip(chunks, page.parts, strict=True)):
        stem = posixpath.basename(part.path).removesuffix(".md")
        slug = re.sub(r"^\d+-", "", stem)
        path = page.output_path if index == 0 else f"{base}-{slug}.html"
        heading = HEADING.search(chunk)
        pages.append(
            SplitPage(
                path, chunk, " ".join(TAG.sub("", heading.group(1)).split()).rstrip(" #") if heading else ""
            )
        )
        for found in ID.finditer(chunk):
            holder.setdefault(found.group(1), path)
    return Family(lang, page.id, page.output_path, pages, holder)


def _compose(whole_html: str, family: Family, index: int, strings: dict) -> str:
    """Page `index` of the family: the chapter's frame around that part's body, its own title
    and a pager through the chapter's pages (the first and last keep the neighbouring chapters)."""
    opened = ARTICLE_OPEN.search(whole_html)
    assert opened is not None  # _family found it
    closed = whole_html.rfind(ARTICLE_CLOSE)
    head, tail = whole_html[: opened.end()], whole_html[closed:]
    part = family.pages[index]
    head = _contents(head, family, index, strings)
    if index > 0:
        head = TITLE.sub(lambda m: f"<title>{part.title} · {m.group(1)}</title>", head, count=1)
        head = STANDFIRST.sub("", head, count=1)
        # under the chapter's title, which part this is: the pager says it again at the end (the
        # first page keeps its standfirst instead, and its question cards on the first screen)
        where = _position(strings, index, len(family.pages)) + f" · {_part_name(part)}"
        head = head.replace("</h1>", f'</h1>\n<p class="split-position">{where}</p>', 1)
    else:  # links made before the split (bookmarks, other sites) reach the page now holding them (site.js)
        moved = {
            target: posixpath.basename(page.path)
            for page in family.pages[1:]
            for target in TARGET.findall(page.body)
        }
        head = MAIN.sub(
            lambda m: f'{m.group(0)} data-moved="{html.escape(json.dumps(moved, separators=(",", ":")))}"',
            head,
            count=1,
        )
    body = part.body
    cards = QCARDS_END.search(body) if index == 0 else None
    if cards is not None:  # the opening's question cards keep the first screen: the strip follows them
        body = body[: cards.end()] + "\n" + _parts_strip(family, index, strings) + body[cards.end() :]
    else:
        head = _with_parts_strip(head, family, index, strings)
    tail = _works_cited_here(tail, part.body)
    pager = PAGER.search(tail)
    if pager is not None:
        tail = tail[: pager.start()] + _pager(pager.group(0), family, index, strings) + tail[pager.end() :]
    return head + body + tail


# what follows the title block of a page (page.html.j2): the strip of parts goes before the first of these
AFTER_TITLE = re.compile(r'<p class="draft-banner">|<p class="last-verified">|<div class="page-tools">')
SHORT = re.compile(r"\s*[:：]")


def _short_name(part: SplitPage) -> str:
    """A part's name in the strip: its first heading up to the colon ("Serving metrics: …" ->
    "Serving metrics"; "服务指标：…" -> "服务指标")."""
    return SHORT.split(part.title, maxsplit=1)[0].strip() or part.title


# the end of the question cards (directives/question_cards.py: the list, then its toggle)
QCARDS_END = re.compile(r'<button type="button" class="qcards-toggle"[^>]*>.*?</button>', re.S)


def _with_parts_strip(head: str, family: Family, index: int, strings: dict) -> str:
    """The chapter's parts as one strip under its title, this page marked: the same strip a series
    shows (page.html.j2 `series`), made from the split's own pages, so a reader of a part sees
    where it stands and reaches any other part from the top of the page, not only from the pager.
    (The opening page holds it under its question cards instead: those are its first screen.)"""
    found = AFTER_TITLE.search(head, head.find("</h1>"))
    if found is None:
        return head
    return head[: found.start()] + _parts_strip(family, index, strings) + head[found.start() :]


def _parts_strip(family: Family, index: int, strings: dict) -> str:
    items = []
    for number, page in enumerate(family.pages):
        # the titles are HTML text already (a heading's markup without its tags)
        name = html.escape(html.unescape(_short_name(page)), quote=False)
        questions = _questions(page)
        hint = f' title="{html.escape(html.unescape(_part_name(page)))}"' if questions else ""
        items.append(
            f'<li><span aria-current="page">{name}</span></li>'
            if number == index
            else f'<li><a href="{posixpath.basename(page.path)}"{hint}>{name}</a></li>'
        )
    # its own name: the contents beside it are "In this chapter" (two landmarks, two names); on a
    # phone the list is folded under it, as a series' list is (the heading above already says
    # "Part 2 of 8"; review 31-l: eight open rows above the text, the tutorial's one line)
    label = html.escape(str(strings.get("split_parts", "Parts of this chapter")))
    return (
        f'<nav class="series series-parts" aria-label="{label}" data-pagefind-ignore>\n'
        f'  <details class="series-fold"><summary>{label}</summary><ol>{"".join(items)}</ol></details>\n</nav>\n'
    )


PRINT_REFS = re.compile(
    r'(<section class="print-only print-refs"[^>]*>.*?<ol>)(.*?)(</ol>\s*</section>\n?)', re.S
)
REF_ITEM = re.compile(r"<li>\[([^\]]*)\](.*?)</li>", re.S)
CITED = re.compile(r'<a class="cite"[^>]*>([^<]*)</a>')


def _works_cited_here(tail: str, body: str) -> str:
    """ "Works cited on this page" (printed at a page's end) lists the works this page cites, by
    the labels it cites them with, not the whole chapter's: no list if the page cites none."""
    found = PRINT_REFS.search(tail)
    if found is None:
        return tail
    cited = set(CITED.findall(body))
    items = []
    for item in REF_ITEM.finditer(found.group(2)):
        labels = [label for label in item.group(1).split(" · ") if label in cited]
        if labels:
            items.append(f"<li>[{' · '.join(labels)}]{item.group(2)}</li>")
    kept = found.group(1) + "".join(items) + found.group(3) if items else ""
    return tail[: found.start()] + kept + tail[found.end() :]


QUESTION = re.compile(r'<h2[^>]*\sid="q(\d+)"')
TOC = re.compile(
    r'(<nav class="toc"[^>]*aria-label=")([^"]*)("[^>]*>.*?<p class="toc-title">)([^<]*)(</p>\s*(?:<p class="parallel-bar[^>]*>.*?</p>\s*)?)<ol>.*?</ol>',
    re.S,
)
TOC_ENTRY = re.compile(r'<li><a href="#([^"]+)">.*?</a></li>', re.S)


def _questions(part: SplitPage) -> str:
    """The questions a part answers where its sections are question sections (q1…q18): "Q1–Q4"."""
    numbers = [int(n) for n in QUESTION.findall(part.body)]
    if not numbers:
        return ""
    # word joiners: "Q1–Q4" never breaks at its dash (review 31-h #8 left "Q4" alone on a line)
    return f"Q{numbers[0]}" if len(numbers) == 1 else f"Q{numbers[0]}\u2060–\u2060Q{numbers[-1]}"


def _part_name(part: SplitPage) -> str:
    """A part's name: its first heading, and its questions: "Serving metrics: … · Q1–Q4"."""
    questions = _questions(part)
    return f"{part.title} · {questions}" if questions else part.title


def _contents(head: str, family: Family, index: int, strings: dict) -> str:
    """The contents of a split page list the whole chapter ("In this chapter"), grouped under its
    parts, the entries on this page marked (their links stay on the page; the others are moved to
    their pages with every other link)."""
    found = TOC.search(head)
    if found is None:
        return head
    entries = TOC_ENTRY.findall(found.group(0))
    items = {m.group(1): m.group(0) for m in TOC_ENTRY.finditer(found.group(0))}
    here_tag = html.escape(strings.get("split_here", "this page"))
    groups = []
    for number, page in enumerate(family.pages):
        own = [items[key] for key in entries if family.holder.get(key) == page.path]
        if not own:
            continue
        # "Part 2 · Q1–Q4": the entries under it name the sections
        label = strings.get("split_part", "Part {n}").replace("{n}", str(number + 1))
        label += f" · {_questions(page)}" if _questions(page) else ""
        if number == index:
            groups.append(
                f'<li class="toc-part toc-here"><p class="toc-part-title" aria-current="page">{label}'
                f' <span class="toc-here-tag">{here_tag}</span></p>\n  <ol>{"".join(own)}</ol></li>'
            )
        else:
            groups.append(
                f'<li class="toc-part"><p class="toc-part-title">{label}</p>\n  <ol>{"".join(own)}</ol></li>'
            )
    title = html.escape(str(strings.get("split_contents") or found.group(4)))
    grouped = (
        found.group(1)
        + title
        + found.group(3)
        + title
        + found.group(5)
        + "<ol>\n  "
        + "\n  ".join(groups)
        + "\n  </ol>"
    )
    head = head[: found.start()] + grouped + head[found.end() :]
    # the phone header's contents button says the same until the reader is in a section
    return head.replace(f"data-toc-current>{found.group(4)}<", f"data-toc-current>{title}<", 1)


def _position(strings: dict, index: int, total: int) -> str:
    return (
        strings.get("split_position", "{n} / {total}")
        .replace("{n}", str(index + 1))
        .replace("{total}", str(total))
    )


def _pager(chapter_pager: str, family: Family, index: int, strings: dict) -> str:
    """Previous and next page of the chapter; at its ends, the chapter pager's own links."""
    links = re.findall(r'<a rel="(prev|next)"[^>]*>.*?</a>', chapter_pager, re.S)
    whole = {rel: re.search(rf'<a rel="{rel}"[^>]*>.*?</a>', chapter_pager, re.S) for rel in links}
    own = posixpath.basename
    parts = []
    # each link says which way it goes above the part it names ("Previous part" / "Next part")
    if index > 0:
        before = family.pages[index - 1]
        overline = html.escape(strings.get("prev_part", "Previous part"))
        parts.append(
            f'<a rel="prev" href="{own(before.path)}"><span class="pager-dir">{overline}</span> ← {before.title}</a>'
        )
    elif (previous := whole.get("prev")) is not None:
        parts.append(previous.group(0))
    if index + 1 < len(family.pages):
        after = family.pages[index + 1]
        overline = html.escape(strings.get("next_part", "Next part"))
        parts.append(
            f'<a rel="next" href="{own(after.path)}"><span class="pager-dir">{overline}</span> {after.title} →</a>'
        )
    elif (following := whole.get("next")) is not None:
        parts.append(following.group(0))
    label = f"{strings.get('prev', 'Previous')} / {strings.get('next', 'Next')}"
    count = _position(strings, index, len(family.pages))
    # the pager's items are grid cells: no text between them (a newline between "…“好”</a>" and
    # "<a …>下一部分" would read to the typography gate as a space beside a quotation mark)
    return (
        f'<nav class="pager" aria-label="{label}">'
        + "".join(parts)
        + f'<span class="pager-position">{count}</span></nav>'
    )


PREV_LINK = re.compile(r'(<a rel="prev" href=")([^"#]+)(")')


def _back_to_last_part(html: str, path: str, families: dict[str, Family]) -> str:
    """The pager's "previous" of the page after a split chapter goes back to the chapter's last
    part, the page a reader just finished, not to its first (review 31-h #6: the last part's
    "next" and the following page's "previous" were not one chain)."""
    pager = PAGER.search(html)
    if pager is None:
        return html
    here = posixpath.dirname(path)

    def back(match: re.Match) -> str:
        family = families.get(posixpath.normpath(posixpath.join(here, match.group(2))))
        if family is None or family.index_of(path) is not None:
            return match.group(0)
        return match.group(1) + posixpath.relpath(family.pages[-1].path, here or ".") + match.group(3)

    return html[: pager.start()] + PREV_LINK.sub(back, pager.group(0)) + html[pager.end() :]


def _move_links(html: str, path: str, families: dict[str, Family], site_url: str) -> str:
    """Every href (and og:url content) of the page at `path` that points into a split chapter,
    pointed at the page that holds its target."""
    here = posixpath.dirname(path)
    own_family = next(
        ((whole, family) for whole, family in families.items() if family.index_of(path) is not None), None
    )

    def move(match: re.Match) -> str:
        target = match.group(2)
        absolute = bool(site_url) and target.startswith(site_url)
        address = target[len(site_url) :] if absolute else target
        if (
            "://" in address
            or address.startswith(("mailto:", "data:"))
            or (not address.startswith("#") and not absolute and ".html" not in address)
        ):
            return match.group(0)
        file, _, fragment = address.partition("#")
        if file:
            resolved = address.split("#")[0] if absolute else posixpath.normpath(posixpath.join(here, file))
        else:
            if own_family is None:
                return match.group(0)
            resolved = own_family[0]  # a same-page anchor of a split page: the chapter's, moved below
        family = families.get(resolved)
        if family is None:
            return match.group(0)
        element = fragment.partition("?")[0]  # a lab's state follows its panel's id: #lab-x-panel?k=v
        if not file and element not in family.holder:
            return match.group(0)  # the page's own frame (#main, #top, #toc): it is on every page
        if element and element in family.holder:
            holder = family.holder[element]
        elif (
            own_family is not None
            and own_family[1].page_id == family.page_id
            and own_family[1].lang != family.lang
        ):
            index = own_family[1].index_of(path) or 0
            holder = family.pages[
                min(index, len(family.pages) - 1)
            ].path  # the same part in the other language
        else:
            holder = family.whole
        suffix = f"#{fragment}" if fragment else ""
        if absolute:
            return f"{match.group(1)}{site_url}{holder}{suffix}{match.group(3)}"
        if holder == path and fragment:
            return f"{match.group(1)}#{fragment}{match.group(3)}"
        return f"{match.group(1)}{posixpath.relpath(holder, here or '.')}{suffix}{match.group(3)}"

    return HREF.sub(move, html)


# an address in the open data, from the site's root: "en/ch14.html#q3", "en/ch14.html#lab-x-panel?k=v"
DATA_LINK = re.compile(r'"([a-z0-9-]+/[a-z0-9-]+\.html)#([^"?]+)(\?[^"]*)?"')


def _move_keys(pattern: re.Pattern, text: str, family_of, address) -> str:
    """Each match of `pattern` (group 1 names a split chapter's page, group 2 an element of it)
    rewritten by `address(holder, match)` to the page now holding that element."""

    def move(match: re.Match) -> str:
        family = family_of(match.group(1))
        holder = family.holder.get(match.group(2)) if family else None
        return match.group(0) if holder is None else address(holder, match)

    return pattern.sub(move, text)


def _move_data_links(data: str, families: dict[str, Family]) -> str:
    """The open data's addresses (a record's places, a lab's state) at the page holding their target."""
    return _move_keys(
        DATA_LINK, data, families.get, lambda holder, m: f'"{holder}#{m.group(2)}{m.group(3) or ""}"'
    )


def _move_preview_keys(script: str, lang: str, families: dict[str, Family]) -> str:
    """The section previews are keyed "page#section" by the file a link points at: a section of a
    split chapter is now keyed by the page that holds it."""
    by_page = {family.page_id: family for family in families.values() if family.lang == lang}
    return _move_keys(
        PREVIEW_KEY,
        script,
        by_page.get,
        lambda holder, m: f'"{posixpath.basename(holder).removesuffix(".html")}#{m.group(2)}"',
    )
