"""The data the hover/focus/touch cards show (cards.js), one classic script per language
(assets/previews-<lang>.js, so it also loads from file://). cards.js fetches it on the reader's
first hover, focus or touch of a previewable link, so no page pays for it on first load:
- sources: a citation's work, year, evidence class, ledger numbers, when it was last verified and
  how far it was read;
- sections: a section's title and first sentence, for links to it (from the rendered pages);
- figures: caption and kind; terms: definition and the other languages' names; claims: value,
  setting, label, sources and caution, with links to the glossary and numbers pages."""

from __future__ import annotations

import json
import re
from html import unescape

from ..model import Book
from .glossary import distinct_names
from .mathml import formulas_as_source
from .state import source_label
from .typography import typeset_text

SECTION = re.compile(r'<h([23]) id="([^"]+)">(.*?)</h\1>(.*?)(?=<h[23] id="|</article>)', re.S)
# a paragraph of prose (data-para="SECTION.N" pairs it with its twin), not a block's label or notice
PARAGRAPH = re.compile(r'^<p(?: data-[a-z-]+="[^"]*")*>(.*?)</p>$', re.S | re.M)
NOT_READ = re.compile(
    r'<span class="(?:badge[^"]*|claim-setting|cites|visually-hidden|evidence-note)"[^>]*>.*?</span>|<a class="anchor"[^>]*>.*?</a>',
    re.S,
)
TAG = re.compile(r"<[^>]+>")
SPACE = re.compile(r"\s+")
# the end of a sentence: Chinese full stops, or . ! ? followed by a space and a capital (not "e.g. ")
SENTENCE_END = re.compile(r"[。！？]|(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bet al)[.!?](?=\s+[A-Z“\"(]|\s*$)")
LONGEST = 240  # characters of a first sentence shown in a card


def plain(html: str) -> str:
    return SPACE.sub(" ", unescape(TAG.sub("", NOT_READ.sub("", html)))).strip()


def first_sentence(text: str) -> str:
    end = SENTENCE_END.search(text)
    sentence = text[: end.end()] if end else text
    if len(sentence) > LONGEST:
        cut = sentence[:LONGEST]
        sentence = (cut.rsplit(" ", 1)[0] if " " in cut[LONGEST // 2 :] else cut) + "…"
    return sentence


def section_previews(page_id: str, html: str) -> dict[str, dict]:
    """ "page#section" -> title and the first sentence of the section's first paragraph."""
    found = {}
    for match in SECTION.finditer(html):
        paragraph = PARAGRAPH.search(match.group(4))
        found[f"{page_id}#{match.group(2)}"] = {
            "title": plain(match.group(3)),
            "first": first_sentence(plain(paragraph.group(1))) if paragraph else "",
        }
    return found


def linked_sections(parsed: dict, lang: str) -> set[str]:
    """ "page#section" for every link the prose of `lang` writes to a section: only those need a card."""
    wanted = set()
    for (page_lang, page_id), parsed_page in parsed.items():
        if page_lang != lang:
            continue
        for use in parsed_page.uses_of("link"):
            target, _, anchor = use.key.partition("#")
            if anchor and "/" not in target and ":" not in target:
                wanted.add(f"{target[: -len('.html')] if target.endswith('.html') else page_id}#{anchor}")
    return wanted


def preview_data(book: Book, lang: str, pages_html, wanted: set[str]) -> dict:
    """`pages_html`: (page id, HTML) of the language's pages, in page id order (an iterable: one
    page's text at a time)."""
    registry = book.registry
    sources = {}
    for number in sorted(list(registry.nodes) + list(registry.references)):
        entry = registry.entry(number)
        assert entry is not None  # the number comes from the registry itself
        # how far a living or unresolved document was read (a fixed one's text can be checked)
        scope = getattr(entry, "scope", None) if entry.scope_at_every_use else None
        work = registry.works[entry.work]
        verified = book.ui("verified_on", lang).replace("{date}", entry.last_verified.isoformat())
        sources[number] = {
            "title": work.title,
            "year": work.year,
            "evidence": book.profile.evidence[entry.evidence][lang],
            "numbers": [source_label(book, n) for n in registry.numbers_of(work.key)],
            # when it was last read and, for what was read only in part, how far (the card goes with every citation)
            "verified": verified + (f" · {book.ui('rolling', lang)}" if entry.rolling else ""),
            "scope": f"{book.ui('scope', lang)}: {scope[lang]}" if scope else None,
        }
    terms = {}
    for term in book.terms.values():
        abbr, others = distinct_names(term, lang, book.profile.languages)
        terms[term.id] = {
            "name": term.names[lang],
            "abbr": abbr,
            "definition": formulas_as_source(term.definition[lang]),
            "others": [[o.html_lang, name] for o, name in others],
        }
    claims = {}
    for claim in book.claims.values():
        claims[claim.id] = {
            "text": claim.text[lang],
            "setting": claim.setting[lang],
            "label": book.ui(claim.label_key, lang),
            "sources": [source_label(book, n) for n in claim.source],
            "caution": claim.caution[lang] if claim.caution else None,
        }
    figures = {
        spec.id: {"caption": spec.caption[lang], "kind": book.profile.figure_kinds[spec.kind][lang]}
        for spec in book.figures.values()
        if spec.kind in book.profile.figure_kinds
    }
    sections = {}
    for page_id, html in pages_html:
        sections.update(
            {key: value for key, value in section_previews(page_id, html).items() if key in wanted}
        )
    generated = {part.generated for part in book.profile.parts if part.generated}
    ui = {
        key: book.ui(key, lang)
        for key in (
            "open_entry",
            "setting_label",
            "caution_label",
            "open_glossary",
            "open_numbers",
            "card_close",
        )
    }
    return {
        "sources": sources,
        "terms": terms,
        "claims": claims,
        "figures": figures,
        "sections": sections,
        "ui": ui,
        "glossary": "glossary" in generated,
        "numbers": "numbers" in generated,
    }


def _typeset(value, html_lang: str):
    """The cards' texts set as the page's text is (render/typography.py): a Chinese dash, quotes."""
    if isinstance(value, str):
        return typeset_text(value, html_lang)
    if isinstance(value, dict):
        return {key: _typeset(item, html_lang) for key, item in value.items()}
    if isinstance(value, list):
        return [_typeset(item, html_lang) for item in value]
    return value


def render_previews(book: Book, lang: str, pages_html, wanted: set[str]) -> str:
    payload = json.dumps(
        _typeset(preview_data(book, lang, pages_html, wanted), book.profile.language(lang).html_lang),
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return f"window.AtlasPreviews={payload};\n"
