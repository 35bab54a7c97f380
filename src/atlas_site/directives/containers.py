"""Container directives: `::: NAME ARG` … `:::` marked blocks around prose; and `{{mistake:ID}}`, the inline
quotation of a misconception that its block states."""

from __future__ import annotations

from html import escape

from .base import Directive, require


def _render_misconception(state, use, opening: bool) -> str:
    """The mistaken statement, word for word from the ledger, then the block's prose under "what is
    true": a reader sees the wrong version beside its correction."""
    if not opening:
        return "</aside>\n"
    return (
        f'<aside class="misconception" id="misconception-{escape(use.key)}" data-misconception="{escape(use.key)}">'
        f'<p class="block-label">{escape(state.ui("misconception"))} · {escape(use.key.upper())}</p>\n'
        f'<p class="misconception-wrong">{_mistake(state, use.key, "span")}</p>\n'
        f'<p class="misconception-tag misconception-true">{escape(state.ui("misconception_true"))}</p>\n'
    )


def _check_misconception(book, use, computed, out) -> None:
    require(
        book,
        use,
        out,
        "misconceptions",
        [m.id for m in book.misconceptions],
        "block.unknown-misconception",
        "misconception",
    )


MISCONCEPTION = Directive(
    "misconception",
    "container",
    "id",
    "the one place a misconception may be stated: inside its block, which corrects it",
    render=_render_misconception,
    check=_check_misconception,
    depends=lambda deps, use: [deps.collection("misconceptions")],  # it shows the ledger's statement
    example="::: misconception m07 … :::",
)


def _render_mistake(state, use) -> str:
    """A misconception's statement quoted where prose lists it (the chapter's index of misconceptions),
    marked as the mistake: the list showed only what is true, and a reader never saw what was wrong
    (review 30-m #4). Like its block, it comes from the ledger, never typed in prose."""
    return f'<span class="misconception-wrong">{_mistake(state, use.key, "q")}</span>'


def _mistake(state, key: str, element: str) -> str:
    """The "common mistake" tag and the ledger's statement of misconception `key`, in `element` (a
    block's span, a list's quotation)."""
    statement = next(m.statement[state.lang] for m in state.book.misconceptions if m.id == key)
    return (
        f'<span class="misconception-tag">{escape(state.ui("wrong"))}</span> '
        f'<{element} class="misconception-statement">{escape(statement)}</{element}>'
    )


MISTAKE = Directive(
    "mistake",
    "inline",
    "id",
    "a misconception's statement quoted as the mistake it is, where prose lists the misconceptions",
    render=_render_mistake,
    check=_check_misconception,
    depends=lambda deps, use: [deps.collection("misconceptions")],
    example="{{mistake:m07}}",
)


def _render_lineage(state, use, opening: bool) -> str:
    if not opening:
        return "</section>\n"
    title = escape(state.book.lineages[use.key].title[state.lang])
    return (
        f'<section class="lineage" data-lineage="{escape(use.key)}" aria-label="{title}">'
        f'<p class="block-label">{title}</p>\n'
    )


def _check_lineage(book, use, computed, out) -> None:
    require(book, use, out, "lineages", book.lineages, "block.unknown-lineage", "lineage")


LINEAGE = Directive(
    "lineage",
    "container",
    "id",
    "a highlighted lineage: a line of systems read as one story (ledger `lineages`)",
    render=_render_lineage,
    check=_check_lineage,
    depends=lambda deps, use: [deps.lineage(use.key)],
    example="::: lineage ID … :::",
)


def _render_note(state, use, opening: bool) -> str:
    return (
        f'<aside class="note"><p class="block-label">{escape(state.ui("note"))}</p>\n'
        if opening
        else "</aside>\n"
    )


NOTE = Directive(
    "note",
    "container",
    "none",
    "an aside",
    render=_render_note,
    parity="none",
    example="::: note … :::",
)

DIRECTIVES = (MISCONCEPTION, MISTAKE, LINEAGE, NOTE)
