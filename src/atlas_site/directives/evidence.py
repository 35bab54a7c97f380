"""Inline directives that carry evidence: citations, claims, teaching numbers, glossary terms."""

from __future__ import annotations

import re
from html import escape

from ..diagnostics import closest
from ..model import registry_kind
from ..model.abbreviations import read_as
from ..render.dated import dated
from ..render.evidence_blocks import long_unit
from ..render.state import source_label
from .base import Directive, require
from .inline_terms import with_terms


# -- cite: [@n27] / [@n20; @r47] -------------------------------------------------------------
def _check_cite(book, use, computed, out) -> None:
    leads = {lead.id: lead for lead in book.leads}
    if book.is_broken("registry", registry_kind(use.key)):
        out.quiet()
    elif use.key in leads:
        out.error(
            use.location,
            "lead.cited",
            f"'{use.key}' is a candidate lead ({leads[use.key].status}); prose may cite only formal sources",
        )
    elif book.registry.entry(use.key) is None:
        out.error(
            use.location,
            "cite.unknown",
            f"no source with ledger number '{use.key}'",
            closest(use.key, list(book.registry.nodes) + list(book.registry.references)),
        )


CITE = Directive(
    "cite",
    "inline",
    "numbers",
    "a citation of ledger numbers, linked to the bibliography with a hover card",
    render=lambda state, use: state.cite(list(use.keys)),
    check=_check_cite,
    depends=lambda deps, use: [deps.source(use.key)],
    example="[@n27] · [@n20; @r47]",
)


# -- claim: {{claim:id}} -----------------------------------------------------------------------
def _claim_evidence(state, claims: list) -> str:
    """Inside the setting line: when the number (the numbers sharing the setting) was last verified
    and, for a living or unresolved source, how far it was read (that cannot be checked against a
    fixed text later): once per page, at the first claim resting on it (its citation card keeps it
    at every use)."""
    html = f'<span class="claim-verified"> · {dated(state.ui("verified_on"), claims[-1].verified)}</span>'
    for number in dict.fromkeys(n for claim in claims for n in claim.source):
        entry = state.book.registry.entry(number)
        if entry is not None and entry.scope_at_every_use and number not in state.scoped:
            state.scoped.add(number)
            text = (
                state.ui("scope_of")
                .replace("{source}", f"[{source_label(state.book, number)}]")
                .replace("{scope}", entry.scope[state.lang])
            )
            html += f'<span class="claim-scope"> · {escape(text)}</span>'
    return html


def _long(setting: str) -> str:
    """A setting longer than about two phone lines is marked: on a narrow screen it folds away
    (site.css), read in the claim's citation card instead of cutting the sentence in two."""
    width = sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in setting)
    return ' data-long=""' if width > 90 else ""


def _marked(badge: str, more: str) -> str:
    """The label and its "more" button as one unit that never breaks across lines (review 31-s #5: the
    ⋯ wrapped alone to the start of a line on a phone, a mark with nothing before it)."""
    return f'<span class="claim-mark">{badge}{more}</span>' if more else badge


def _claim_more(state, setting: str) -> str:
    """After the label of a claim whose setting folds away on a phone: the "⋯" that opens the card
    showing it (cards.js). In the markup from the start, shown by the stylesheet where scripts run:
    added by a script, it moved the line's words after the first paint."""
    if not _long(setting):
        return ""
    name = escape(state.ui("claim_more"))
    return f'<button type="button" class="claim-more" aria-label="{name}" aria-expanded="false" data-pagefind-ignore>\u22ef</button>'


def _setting(state, claims: list, covers: str = "") -> str:
    """The setting line of one claim, or of the neighbours in a group that share it (`covers`:
    their ids, data-for, which the settings gate reads)."""
    text = claims[-1].setting[state.lang]
    return (
        f'<span class="claim-setting"{covers}{_long(text)}>{escape(state.ui("setting_label"))}'
        f"{_with_terms(state, text)}{_claim_evidence(state, claims)}</span>"
    )


def _with_terms(state, text: str) -> str:
    """A setting with its glossary abbreviations linked and spelt out (inline_terms.with_terms): no
    {{term:…}} can be written in ledger data (review 30-z17 #3: FP16, TP, SLO first met in settings,
    said nowhere on their pages). A long setting folds away on a phone (_long), so what it spells
    out defines nothing for the page after it (review 30-z18 #5: TP on tf-cluster)."""
    html, said = with_terms(state, text, nested=True, defines=not _long(text))
    state.record.setting_terms.extend(term for term in said if term not in state.record.setting_terms)
    return html


TAKEN_IN = ".,;:!?"  # marks a trailing setting takes in (a closing bracket or quote stays outside)


def _take_punctuation(state) -> str:
    mark = state.next_text[:1]
    if mark and mark in TAKEN_IN + "。，；：！？":
        state.taken = mark
        return escape(mark)
    return ""


def _render_claim(state, use) -> str:
    claim = state.book.claims[use.key]
    label = state.ui(claim.label_key)
    value = f'<strong class="claim-value">{escape(claim.text[state.lang])}</strong>'
    if state.book.profile.generates(
        "numbers"
    ):  # the value links to its row, where it can be cited with its setting
        value = f'<a class="claim-link" href="numbers.html#claim-{escape(claim.id)}">{value}</a>'
    opening = f'<span class="claim" data-claim="{escape(claim.id)}" data-kind="{claim.kind}"'
    badge = f'<span class="{claim.badge_class}" data-pagefind-ignore>{escape(label)}</span>'
    place = state.block.claims.pop(0) if state.block is not None and state.block.claims else None
    if place is not None and place.group is not None:
        # a member of a group (render/evidence_blocks.py): its value and its label (every number
        # read with its label: reviews 30-w #5, 30-y #5 met "up to 525%" bare, its label after the
        # next claim); the setting it shares with the neighbours before it, after the last of
        # them; the citation after the last
        html = f'{opening} data-group="{place.group}">{value}'
        shared = [state.book.claims[c] for c in place.covers]
        more = _claim_more(state, shared[-1].setting[state.lang]) if shared else ""
        html += " " + _marked(badge, more)
        if place.covers:
            if not place.last:
                # the setting ends the claim: set in the margin on a desk and folded away on a
                # phone, the space before it would stand before the sentence's own punctuation
                # ("2.6× ,"): the mark comes in before the setting instead ("2.6×, (setting)")
                html += _take_punctuation(state)
            html += " " + _setting(state, shared, f' data-for="{escape(" ".join(place.covers))}"')
        if place.last:
            sources = [n for c in state.block.groups[place.group] for n in c.source]
            html += f" {state.cite(list(dict.fromkeys(sources)))}"
        return html + "</span>"
    # the spaces keep the value, the setting and the citation apart in the search index's text; the
    # label, repeated on every claim, stays out of it; data-claim names the card's preview data
    more = _claim_more(state, claim.setting[state.lang])
    return f"{opening}>{value} {_marked(badge, more)} {_setting(state, [claim])} {state.cite(list(claim.source))}</span>"


def _check_claim(book, use, computed, out) -> None:
    require(book, use, out, "claims", book.claims, "claim.unknown", "claim")


CLAIM = Directive(
    "claim",
    "inline",
    "id",
    "an author-reported or benchmark number with its setting, label and citation",
    render=_render_claim,
    check=_check_claim,
    depends=lambda deps, use: [deps.claim(use.key)],
    example="{{claim:distserve-goodput}}",
)


# -- ex: {{ex:id.output}} ----------------------------------------------------------------------
BARE = "bare"  # the one display option of {{ex:…}}: the number without its unit


def _render_example(state, use) -> str:
    example_id, _, output = use.key.partition(".")
    example = state.book.examples[example_id]
    label_key = example.label_key_of(output)
    label = state.ui(label_key)
    # the assumption is spelled out once per page (first use); later uses keep the label only
    first = example_id not in state.noted
    title = f' title="{escape(example.note[state.lang])}"' if example.note and first else ""
    state.noted.add(example_id)
    # {{ex:id.output|bare}}: the number without its unit, for a sentence that names the unit once
    # for several values ("in yuan per million tokens, A costs 142.9 and B 122.2"); in a block that
    # already wrote a long unit, a later number with the same unit is bare too (evidence_blocks.py)
    block = state.block
    shown = state.example_number(use.key) if use.text == BARE else state.example_text(use.key)
    unit = state.example_unit(use.key)
    if use.text != BARE and block is not None and long_unit(unit):
        if unit in block.units:
            shown = state.example_number(use.key)
        block.units.add(unit)
    value = f'<span class="ex-value">{escape(shown)}</span>'
    if first and state.book.profile.generates("numbers"):
        # the first use on a page links to the example's row (later uses stay light: the chapter's
        # page weight has little room)
        value = f'<a class="ex-link" href="numbers.html#ex-{escape(example_id)}">{value}</a>'
    kind = f' data-label="{label_key}"'
    if block is not None and block.quiet == label_key:
        # labelled once for its block: a light marker; the block's note says the label once, to a
        # screen reader and on paper too (words hidden after each number made a screen reader say
        # the label up to eight times in a paragraph, then once more in the note)
        return f'<span class="ex ex-quiet"{kind} data-note="{block.note_id}"{title}>{value}</span>'

    # a label is never a link (one rule for every badge); as with a claim, the value is the link
    badge = f'<span class="badge badge-ex" data-pagefind-ignore>{escape(label)}</span>'
    return f'<span class="ex"{kind}{title}>{value}{_phrase_taken_in(state)} {badge}</span>'


# words that go on with a number's phrase ("120 ms extra", "0.25× its original size", "960 token/轮
# 交给…"): a lower-case Latin word or a Han character right after the number
PHRASE_GOES_ON = re.compile(r"\s*[a-z\u3400-\u9fff]")
# where the phrase ends: a clause's punctuation (a full stop only before a space: "0.5" goes on)
CLAUSE_END = re.compile(r"[,;:!?)\]]|\.(?=\s|$)|[，。；：！？）、]")
PHRASE_LONGEST = 80  # characters; a clause longer than this keeps the label after its number


def _phrase_taken_in(state) -> str:
    """The words that finish the number's phrase, written before its label, so that the label ends
    the clause instead of splitting it: "120 ms extra [teaching assumption]." rather than "120 ms
    [teaching assumption] extra." (review 30-u #10). The prose after the directive loses them
    (state.taken, render/markdown_rules.py). Nothing when the phrase ends at the number, or runs on
    past a tag or past PHRASE_LONGEST characters."""
    following = state.next_text
    if not PHRASE_GOES_ON.match(following):
        return ""
    end = CLAUSE_END.search(following)
    if end is None or end.start() > PHRASE_LONGEST:
        return ""
    words = following[: end.start()].rstrip()
    state.taken = words
    return escape(words)


def _check_example(book, use, computed, out) -> None:
    example_id, _, output = use.key.partition(".")
    example = book.examples.get(example_id)
    if use.text is not None and use.text != BARE:
        out.error(
            use.location,
            "example.display",
            f"'{{{{ex:{use.key}|{use.text}}}}}': the only display option is '|{BARE}' (the number without its unit)",
            f"write {{{{ex:{use.key}}}}} or {{{{ex:{use.key}|{BARE}}}}}",
        )
    if example is None:
        if book.is_broken("examples", example_id):
            out.quiet()
        else:
            out.error(
                use.location,
                "example.unknown",
                f"no worked example '{example_id}'",
                closest(example_id, book.examples),
            )
    elif not output and len(example.outputs) != 1:
        out.error(
            use.location,
            "example.ambiguous",
            f"example '{example_id}' has several outputs; name one",
            f"one of {', '.join(sorted(example.outputs))}",
        )
    elif output and output not in example.outputs:
        out.error(
            use.location,
            "example.unknown-output",
            f"example '{example_id}' declares no output '{output}'",
            closest(output, example.outputs),
        )


EXAMPLE = Directive(
    "ex",
    "inline",
    "output",
    "a teaching number computed by the labs' own code, with its label",
    render=_render_example,
    check=_check_example,
    depends=lambda deps, use: [deps.example(use.key.partition(".")[0])],
    example="{{ex:kv-per-token.kib_per_token}} · {{ex:cost-per-million-upgrade.before_per_million|bare}}",
)


# -- term: {{term:id}} / {{term:id|shown text}} -------------------------------------------------
def _render_term(state, use) -> str:
    term = state.book.terms[use.key]
    shown = use.text or term.abbr or term.names[state.lang]
    rest = ""
    if term.abbr and shown.startswith(term.abbr + " ") and use.key not in state.expanded:
        # a label that is the short form ("PD disaggregation"): its abbreviation, spelt out, then the rest
        rest, shown = shown[len(term.abbr) :], term.abbr
        expansion = _expansion(state, use.key, term, shown, use.at, after=rest)
    else:
        expansion = "" if use.key in state.expanded else _expansion(state, use.key, term, shown, use.at)
    if use.key in state.defined:
        return (
            f'<a class="term" href="#term-{escape(use.key)}" data-term="{escape(use.key)}">{escape(shown)}</a>'
            f"{expansion}{escape(rest)}"
        )
    state.defined.add(use.key)
    # The search index weighs the place a term is defined above its other mentions. The definition
    # is the card's (the page's previews, cards.js) and the glossary's: a title copy of it, a
    # tooltip a phone never shows, was a tenth of a term-heavy page's first load (4 KB of zh/tf-cluster's gzip).
    return (
        f'<dfn class="term-def" id="term-{escape(use.key)}" data-term="{escape(use.key)}" data-pagefind-weight="5">'
        f"{escape(shown)}</dfn>{expansion}{escape(rest)}"
    )


OPENING_BRACKETS = ("(", "（")
CLOSING_BRACKETS = (")", "）")
HYPHENATED = re.compile(r"-\w")


def _expansion(state, key: str, term, shown: str, at: tuple[int, int], after: str | None = None) -> str:
    """The long name after the first abbreviation of a term on a page, so that a reader on a phone
    or on paper (where the <dfn>'s title never shows) reads what it stands for: "GEMM (matrix
    multiplication)". Not when the prose says it there already: the long name beside it ("tensor
    parallelism (TP)", "(SP is sequence parallelism)"), a bracket of its own ("TTFT (time to first
    token)", "BF16 (2 bytes)" says what the reader needs there). Before the name's own last words,
    the rest of the name goes between ("PD (prefill–decode) disaggregation"). Inside other brackets
    ("(the SLO control plane)") no long name can follow without nesting one bracket in another, nor
    inside a hyphenated word ("SLO-driven": review 30-t D11): the renderer leaves it bare and the
    terms gate names the place (review 30-z9 #3)."""
    name = state.book.spelt_out(term, state.lang)
    short = term.short_form(state.lang)
    # a plural label ("SMs", "GEMMs") is the abbreviation too: read as it, it was left bare
    if name is None or short not in {*read_as(shown), *read_as(shown.removesuffix("s"))}:
        state.expanded.add(key)
        return ""
    after = (state.next_text if after is None else after).lstrip()
    before = state.prev_text.rstrip()
    # a label's own words ("PD 分离") and the prose after them ("（预填充–解码分离）"): review 30-z19 #3
    # met the long name twice, "PD（预填充–解码）分离（预填充–解码分离）"
    following = f"{after}{state.next_text}" if after != state.next_text.lstrip() else after
    if (
        name.casefold() in f"{before} {following}".casefold()
        or (before.endswith(OPENING_BRACKETS) and after.startswith(CLOSING_BRACKETS))
        or after.startswith(OPENING_BRACKETS)
        or state.next_text.lstrip().startswith(OPENING_BRACKETS)
    ):
        state.expanded.add(key)
        return ""
    inside_brackets = sum(map(before.count, OPENING_BRACKETS)) > sum(map(before.count, CLOSING_BRACKETS))
    rest = term.rest_of_name(state.lang, after)
    if rest == "":
        state.expanded.add(key)
        return ""
    if inside_brackets or HYPHENATED.match(state.next_text):
        state.record.bare_terms.append(list(at))
        return ""
    state.expanded.add(key)
    return _written_after(state, name if rest is None else rest)  # "PD (prefill–decode) disaggregation"


def _written_after(state, name: str) -> str:
    return f'<span class="term-expansion">{escape(state.ui("term_expansion").format(name=name))}</span>'


def _check_term(book, use, computed, out) -> None:
    require(book, use, out, "terms", book.terms, "term.unknown", "glossary term")


TERM = Directive(
    "term",
    "inline",
    "id",
    "a glossary term: a <dfn> at its first use on the page, a link after",
    render=_render_term,
    check=_check_term,
    depends=lambda deps, use: [deps.term(use.key)],
    # each language defines its terms where its own prose first needs them, and a page defines the
    # same terms in both (review 30-q D8: GEMM a term on one twin, plain words on the other)
    parity="page",
    example="{{term:goodput}} · {{term:ttft|TTFT}}",
)

DIRECTIVES = (CITE, CLAIM, EXAMPLE, TERM)
