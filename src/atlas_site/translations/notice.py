"""The reader's notice on an outdated section: one line in the page's language, right under the
section's heading, saying which language was updated on which day, with a link to the same
section there. Plain text without script; templates/static/site.js adds the dismiss button and
remembers the dismissal until that language changes again (the key carries its fingerprint)."""

from __future__ import annotations

from html import escape

from .sections import TOP, shown


def notice_html(book, lang: str, page: str, section: str, changes) -> str:
    ui = book.strings[lang]
    sentences = []
    for change in changes:
        other = book.profile.language(change.lang)
        name = other.called[lang]
        if change.since is not None:
            text = (
                ui["translation_updated"]
                .replace("{language}", name)
                .replace("{date}", change.since.isoformat())
            )
        else:
            text = ui["translation_changed"].replace("{language}", name)
        href = f"../{other.code}/{page}.html" + (f"#{section}" if section != TOP else "")
        link = ui["translation_read"].replace("{language}", name)
        sentences.append(
            f'{escape(text)} <a href="{escape(href)}" hreflang="{escape(other.html_lang)}">{escape(link)}</a>'
        )
    key = f"{lang}/{page}#{shown(section)}@" + "+".join(f"{c.lang}:{c.fingerprint}" for c in changes)
    return (
        f'<p class="translation-notice" role="note" data-pagefind-ignore data-notice="{escape(key)}" '
        f'data-dismiss="{escape(ui["translation_dismiss"])}"><span class="notice-text">'
        + " ".join(sentences)
        + "</span></p>\n"
    )


def page_notices(book, translations, lang: str, page: str) -> dict[str, str]:
    """Section id -> notice HTML for one page in one language."""
    return {
        section: notice_html(book, lang, page, section, changes)
        for section, changes in translations.outdated(lang, page).items()
    }
