"""Block directives: each stands alone as a paragraph and renders a generated block."""

from __future__ import annotations

import re
from html import escape, unescape

from markupsafe import Markup

from .. import figures
from ..cache import digest
from ..diagnostics import AtlasError, closest
from ..figures.check import drawing_problems
from ..model import number_order
from ..model.abbreviations import abbreviations, glossary_lookup, term_named
from ..render.assets import lab_scripts_for
from ..render.scroll_box import SCROLL_BOX_CLOSE, scroll_box_open
from ..render.state import source_label
from ..resolve.example_labs import LAB_PAGES_KEY, panel_id
from ..theme import theme_folders
from .base import Directive, require
from .inline_terms import glossary_link, long_name, with_terms

TAGS = re.compile(r"<[^>]+>")


# -- figure: {{figure:id}} ---------------------------------------------------------------------
def _render_figure(state, use) -> str:
    book, lang = state.book, state.lang
    spec = book.figures[use.key]
    values = {}
    for reference in spec.numbers.values():
        kind, _, key = reference.partition(":")
        if kind == "ex":
            values[reference] = state.example_text(key)
        elif kind == "claim":
            values[reference] = book.claims[key].text[lang]
    raw = spec.model_dump()
    kind_label = book.profile.figure_kinds[spec.kind][lang]
    series = state.computed.get(figures.SERIES_KEY.format(spec.id), {})  # the charts' computed points

    def draw() -> list:
        svg = figures.render_figure_svg(raw, lang, values, theme_folders(state.root), series)
        return [svg, drawing_problems(raw, lang, values, series, svg)]  # reported by the figure drawings gate

    try:
        svg, problems = state.cache.get("figure-drawn", lambda: digest(raw, lang, values, series), draw)
    except figures.FigureError as error:  # a located line, not a traceback
        raise AtlasError([error.diagnostic(book.locate(f"figures:{spec.id}"))]) from None
    number = state.figure_numbers[spec.id]
    keyed = _drawing_key(state, spec)
    state.record.figures[spec.id] = {
        "number": number,
        "drawn": unescape(TAGS.sub(" ", svg)),
        "problems": problems,
        # the terms gate reads the drawing's labels against it
        "key": [term.id for term, _name in keyed],
    }
    # the sources a figure rests on, said as such: a bare list after "a teaching simulation, not a
    # measurement" read as if the source had produced the curve (review 30-z4 #11)
    cites = (
        f'<span class="fig-sources">{escape(state.ui("figure_sources"))} {state.cite(list(spec.sources))}</span>'
        if spec.sources
        else ""
    ) + _lab_links(state, raw)
    return (
        f'<figure class="figure" id="fig-{escape(spec.id)}" data-figure="{escape(spec.id)}" data-kind="{spec.kind}">\n'
        f'<div class="figure-box">{svg}</div>\n'
        f'<figcaption><span class="fig-number">{escape(state.ui("figure"))} {number}</span>'
        f'<span class="badge badge-fig">{escape(kind_label)}</span> {escape(spec.caption[lang])} '
        f"{_key_html(state, keyed)}{cites}</figcaption>\n"
        "</figure>\n"
    )


def _drawing_key(state, spec) -> list:
    """(term, what it stands for) of each glossary abbreviation a figure's drawing shows that this
    page has not yet spelt out, in the order its labels list them. A figure often opens the
    section whose prose then defines its terms (the DeepSeek lineage draws MoE, MLA, MTP, DSA …
    before any is explained), and a drawing has no room for long names: its caption gives them, as
    a key (68 first uses in 14 drawings when the terms gate first read them). The prose still
    spells each out at its own first use."""
    book, lang = state.book, state.lang
    spelt, pattern = glossary_lookup(book.terms.values())
    keyed: dict[str, tuple] = {}
    caption = spec.caption[lang].casefold()
    for label in spec.labels.values():
        text = label[lang]
        for offset, token in abbreviations(text, pattern):
            term = term_named(token, spelt)
            if term is None or term.id in state.expanded or term.abbr in book.profile.glossary.common:
                continue
            # "PD disaggregation" in the drawing: the key says what P and D are ("PD (prefill–decode)")
            name = long_name(book, term, lang, text[offset + len(token) :])
            if name is not None and name.casefold() in caption:
                continue  # the caption says it already (review 30-z18 #4: KDA glossed twice in one caption)
            keyed.setdefault(term.id, (term, name))
    return list(keyed.values())


def _key_html(state, keyed: list) -> str:
    """The caption's key, "In the drawing: MoE (mixture of experts); EPP.": each abbreviation linked
    to its glossary entry (its card on hover or tap), its long name after it as the prose's first
    use writes it."""
    if not keyed:
        return ""
    entries = []
    for term, name in keyed:
        entry = glossary_link(state, term.id, term.abbr or term.names[state.lang])
        if name is not None:
            entry += escape(state.ui("term_expansion").format(name=name))
        entries.append(entry)
    listed = state.ui("figure_key_separator").join(entries)
    return f'<span class="fig-key">{escape(state.ui("figure_key")).replace("{entries}", listed)}</span> '


def _lab_links(state, raw: dict) -> str:
    """A chart drawn from a lab's function links to that lab, where a reader sees every setting the
    curves assume and can change them (reviews 30-z9 #11, 30-z11 #6: Figure 3's arrival model and
    capacities were stated nowhere on its page)."""
    placed = state.computed.get(LAB_PAGES_KEY, {}).get(state.lang, {})
    labs = sorted(
        {series["lab"] for series in (raw.get("series") or {}).values() if series.get("lab") in placed}
    )
    return "".join(
        f' <a class="fig-lab" href="{escape(placed[lab])}.html#{panel_id(lab)}">'
        f"{escape(state.ui('figure_lab').format(lab=state.book.labs[lab].title[state.lang]))}</a>"
        for lab in labs
    )


def _check_figure(book, use, computed, out) -> None:
    require(book, use, out, "figures", book.figures, "figure.unknown", "figure")


FIGURE = Directive(
    "figure",
    "block",
    "id",
    "an original figure (inline SVG) with its number, kind, caption and sources",
    render=_render_figure,
    check=_check_figure,
    depends=lambda deps, use: [deps.figure(use.key)],
    example="{{figure:kv-formula}}",
)


# -- figref: {{figref:id}} ------------------------------------------------------------------
def _render_figref(state, use) -> str:
    number = state.figure_numbers.get(use.key, 0)  # a figure not on the page is reported by resolve
    text = state.ui("figure_ref").replace("{n}", str(number))
    return (
        f'<a class="figref" href="#fig-{escape(use.key)}" data-figref="{escape(use.key)}">{escape(text)}</a>'
    )


def _check_figref_page(book, parsed, use, out) -> None:
    if use.key in book.figures and use.key not in parsed.figure_numbers():
        out.error(
            use.location,
            "figref.not-on-page",
            f"figure '{use.key}' is referred to but not placed on this page",
            f"place it with {{{{figure:{use.key}}}}} on this page, or drop the reference",
        )


FIGREF = Directive(
    "figref",
    "inline",
    "id",
    "a reference to a figure placed on the same page: 'Figure N' linked to it, with a preview card",
    render=_render_figref,
    check=lambda book, use, computed, out: require(
        book, use, out, "figures", book.figures, "figref.unknown", "figure"
    ),
    page_check=_check_figref_page,
    parity="section",  # both languages point the reader at the same figures in the same sections
    example="{{figref:kv-formula}}",
)


# -- labs: {{labs:memory,batch}} ---------------------------------------------------------------
def _render_labs(state, use) -> str:
    book = state.book
    strings = book.lab_strings

    def t(key: str) -> str:
        # the labs' own strings (ledger/labs.md), then the engine's (templates/strings: a message
        # the lab code itself raises, such as GQA's heads that do not divide)
        entry = strings.get(key)
        if entry:
            return entry[state.lang]
        return book.strings[state.lang].get(key, key)

    labs = {lab_id: book.labs[lab_id].model_dump() for lab_id in use.keys}
    for lab_id in use.keys:
        state.record.labs[lab_id] = [s["id"] for s in labs[lab_id].get("statements") or []]
    scripts = " ".join(f"../assets/labs/{name}" for name in lab_scripts_for(state.root, use.keys))
    if len(use.keys) > 1:
        body = state.env.get_template("labs/tablist.html.j2").render(
            lang=state.lang, t=t, labs=labs, lab_ids=list(use.keys)
        )
    else:
        body = state.env.get_template("labs/panel.html.j2").render(
            lang=state.lang, t=t, lab=labs[use.key], in_tabs=False
        )
    return f'<div class="labs" data-lab-scripts="{escape(scripts)}" data-pagefind-ignore>\n{body}</div>\n'


def _check_labs(book, use, computed, out) -> None:
    unknown = [lab for lab in use.keys if lab not in book.labs]
    if unknown:
        out.error(
            use.location,
            "labs.unknown",
            f"no lab {', '.join(repr(u) for u in unknown)} in the ledger",
            closest(unknown[0], book.labs),
        )


LABS = Directive(
    "labs",
    "block",
    "ids",
    "in-browser labs: one lab on its own, or several in one keyboard-operable tablist",
    render=_render_labs,
    check=_check_labs,
    depends=lambda deps, use: [deps.labs(use.keys)],
    example="{{labs:memory,batch}}",
)


# -- question-cards ----------------------------------------------------------------------------
def _render_question_cards(state, use) -> str:
    items = []
    for question in state.book.questions:
        items.append(
            f'<li class="qcard" data-item><a href="#{escape(question.section)}">'
            f'<span class="qcard-num">{escape(question.id.upper())}</span> '
            f'<span class="qcard-ledger">{escape(question.ledger[state.lang])}</span>'
            f'<span class="qcard-question">{escape(question.question[state.lang])}</span>'
            f'<span class="qcard-wrong"><span class="visually-hidden">{escape(state.ui("wrong") + state.ui("label_colon"))}</span>'
            f"{escape(question.wrong[state.lang])}</span></a></li>"
        )
    # the cards repeat every question: keep them out of the search index so results point at the sections
    # the cards stay compact so all of them fit the first screen; one button shows every card's
    # question and its most common mistake, at any width (site.js; without script: hover, print). It
    # is in the markup from the start, shown by the stylesheet where scripts run (theme.js marks the
    # page before the first paint): unhidden by site.js, it pushed the page down after that paint
    toggle = (
        f'<button type="button" class="qcards-toggle" data-qcards-toggle aria-pressed="false" '
        f'data-hide="{escape(state.ui("qcards_hide"))}">{escape(state.ui("qcards_show"))}</button>\n'
    )
    return (
        '<ol class="qcards" data-block="question-cards" data-pagefind-ignore>\n'
        + "\n".join(items)
        + "\n</ol>\n"
        + toggle
    )


QUESTION_CARDS = Directive(
    "question-cards",
    "block",
    "none",
    "the book's questions as cards linking to their sections",
    render=_render_question_cards,
    depends=lambda deps, use: [deps.collection("questions")],
    example="{{question-cards}}",
)


# -- node-table --------------------------------------------------------------------------------
def _render_node_table(state, use) -> str:
    # each cell names its column, so a phone reads the table row by row as it reads a prose table
    # (`stacks`, site.css; review 31-q #11: the Atlas's 62 rows scrolled sideways at 390 px)
    labels = [escape(state.ui(k)) for k in ("node", "year", "source", "role")]
    node_, year, source, role = labels
    rows = []
    for number, node in sorted(state.book.registry.nodes.items(), key=lambda item: number_order(item[0])):
        rows.append(
            f'<tr><td data-label="{node_}">{escape(source_label(state.book, number))}</td>'
            f'<td data-label="{year}">{node.year}</td>'
            f'<td data-label="{source}"><a href="{state.bibliography_href(node.work)}" data-node="{number}">'
            f"{escape(node.title)}</a></td>"
            f'<td data-label="{role}">{escape(node.role[state.lang])}</td></tr>'
        )
    head = "".join(f'<th scope="col">{label}</th>' for label in labels)
    return (
        scroll_box_open("table-scroll", len(rows) + 1) + '<table class="node-table stacks">'
        f"<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>" + SCROLL_BOX_CLOSE
    )


NODE_TABLE = Directive(
    "node-table",
    "block",
    "none",
    "every formal node with its year, work and role (does not count as citing them)",
    render=_render_node_table,
    depends=lambda deps, use: [deps.registry_kind("nodes")],
    example="{{node-table}}",
)


# -- open-questions ----------------------------------------------------------------------------
def _render_open_questions(state, use) -> str:
    items = [
        f'<li class="open-question" id="{escape(q.id)}"><span class="badge badge-open">{escape(state.ui("open"))}</span> '
        f"<strong>{escape(q.topic[state.lang])}</strong>{escape(state.ui('label_colon'))}{escape(q.text[state.lang])}</li>"
        for q in state.book.open_questions
    ]
    return '<ul class="open-questions">\n' + "\n".join(items) + "\n</ul>\n"


OPEN_QUESTIONS = Directive(
    "open-questions",
    "block",
    "none",
    "the questions the sources leave open, shown as open",
    render=_render_open_questions,
    depends=lambda deps, use: [deps.collection("open_questions")],
    example="{{open-questions}}",
)


# -- dev-map -----------------------------------------------------------------------------------
def _render_dev_map(state, use) -> str:
    """Routes as lanes over time; each node a button whose details (what it solved, what it left,
    year, citation) are in the page, so it also reads as a list without script."""
    book, lang = state.book, state.lang
    routes = [{"id": r.id, "title": r.title[lang], "summary": r.summary[lang]} for r in book.map_routes]
    titles = {n.id: n.title[lang] for n in book.map_nodes}
    linked = _term_linker(state)
    nodes = [
        {
            "id": n.id,
            "route": n.route,
            "year": n.year,
            "title": n.title[lang],
            "solved": linked(n.solved[lang]),
            "left": linked(n.left[lang]),
            "cites": Markup(state.cite(list(n.cites))),
            "after": [{"id": a, "title": titles.get(a, a)} for a in n.after],
        }
        for n in book.map_nodes
    ]
    years = sorted({n.year for n in book.map_nodes})
    return state.env.get_template("devmap.html.j2").render(
        lang=lang, t=state.ui, routes=routes, nodes=nodes, years=years, script="../assets/devmap.js"
    )


def _term_linker(state):
    """text -> the text with each glossary abbreviation linked to its entry and spelt out where the
    map first uses it, in the nodes' order, which the map's list reads in (reviews 30-z9 #3: TTFT,
    GQA, PTQ, RDMA … stood bare in the map's nodes; 30-z19 #1: 25 never spelt out on zh/tf-map)."""

    def linked(text: str) -> Markup:
        return Markup(with_terms(state, text, nested=False, defines=True)[0])

    return linked


DEV_MAP = Directive(
    "dev-map",
    "block",
    "none",
    "the development map: routes as lanes over the years, nodes with what they solved and left",
    render=_render_dev_map,
    depends=lambda deps, use: [deps.dev_map()],
    example="{{dev-map}}",
)

DIRECTIVES = (FIGURE, FIGREF, LABS, QUESTION_CARDS, NODE_TABLE, OPEN_QUESTIONS, DEV_MAP)
