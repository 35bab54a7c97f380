"""Block directives: figures, the labs tablist, question cards, the node table, open questions."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from jinja2 import Environment
from markupsafe import Markup

from .. import figures
from ..cache import BuildCache, NoCache, digest
from ..diagnostics import AtlasError
from ..model import Book
from .i18n import ui
from .inline import InlineRenderer


@dataclass
class BlockRenderer:
    book: Book
    lang: str
    inline: InlineRenderer
    env: Environment
    root: Path
    cache: BuildCache = None
    code_version: str = ""

    def __post_init__(self):
        self.cache = self.cache or NoCache()

    def render(self, kind: str, arg: str) -> str:
        method = getattr(self, "_" + kind.replace("-", "_"), None)
        return method(arg) if method else ""

    def _figure(self, figure_id: str) -> str:
        spec = self.book.figures.get(figure_id)
        if spec is None:
            return ""
        values = {}
        for reference in spec.numbers.values():
            kind, _, key = reference.partition(":")
            if kind == "ex":
                values[reference] = self.inline.example_text(key)
            elif kind == "claim" and key in self.book.claims:
                values[reference] = self.book.claims[key].text[self.lang]
        raw = spec.model_dump()
        try:
            svg = self.cache.get("figure-svg", lambda: digest(raw, self.lang, values, self.code_version),
                                 lambda: figures.render_figure_svg(raw, self.lang, values, self.root / "templates"))
        except figures.FigureError as error:  # a located line, not a traceback
            raise AtlasError([error.diagnostic(self.book.locate(f"figures:{figure_id}"))]) from None
        kind_label = ui(spec.kind, self.lang)
        cites = self.inline.cite(list(spec.sources)) if spec.sources else ""
        return (
            f'<figure class="figure" id="fig-{escape(spec.id)}" data-figure="{escape(spec.id)}" data-kind="{spec.kind}">\n'
            f'<div class="figure-box">{svg}</div>\n'
            f'<figcaption><span class="fig-number">{escape(ui("figure", self.lang))} {spec.number}</span>'
            f'<span class="badge badge-fig">{escape(kind_label)}</span> {escape(spec.caption[self.lang])} {cites}</figcaption>\n'
            "</figure>\n"
        )

    def _labs(self, _arg: str) -> str:
        strings = self.book.lab_strings

        def t(key: str) -> str:
            entry = strings.get(key)
            return entry[self.lang] if entry else key

        from .site import lazy_lab_scripts

        labs = {lab_id: lab.model_dump() for lab_id, lab in self.book.labs.items()}
        scripts = " ".join(f"../assets/labs/{name}" for name in lazy_lab_scripts(self.root))
        tablist = self.env.get_template("labs/tablist.html.j2").render(lang=self.lang, t=t, labs=labs)
        return f'<div class="labs" data-lab-scripts="{escape(scripts)}" data-pagefind-ignore>\n{tablist}</div>\n'


    def _question_cards(self, _arg: str) -> str:
        items = []
        for question in self.book.questions:
            items.append(
                f'<li class="qcard"><a href="#{escape(question.section)}">'
                f'<span class="qcard-num">{question.id.upper()}</span> '
                f'<span class="qcard-ledger">{escape(question.ledger[self.lang])}</span>'
                f'<span class="qcard-question">{escape(question.question[self.lang])}</span>'
                f'<span class="qcard-wrong"><span class="visually-hidden">{escape(ui("wrong", self.lang))}: </span>'
                f'{escape(question.wrong[self.lang])}</span></a></li>'
            )
        # the cards repeat every question: keep them out of the search index so results point at the sections
        return '<ol class="qcards" data-pagefind-ignore>\n' + "\n".join(items) + "\n</ol>\n"

    def _node_table(self, _arg: str) -> str:
        rows = []
        for number, node in sorted(self.book.registry.nodes.items()):
            href = self.inline.bibliography_href(node.work)
            title = escape(node.title)
            rows.append(
                f'<tr><td>{node.node:02d}</td><td>{node.year}</td>'
                f'<td><a href="{href}" data-node="{number}">{title}</a></td>'
                f'<td>{escape(node.role[self.lang])}</td></tr>'
            )
        head = "".join(f"<th scope=\"col\">{escape(ui(k, self.lang))}</th>" for k in ("node", "year", "source", "role"))
        return (
            '<div class="table-scroll" tabindex="0"><table class="node-table">'
            f"<thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></div>\n"
        )

    def _dev_map(self, _arg: str) -> str:
        """The development map: routes as lanes over time; each node a button whose details (what it
        solved, what it left, year, citation) are in the page, so it also reads as a list without script."""
        routes = [{"id": r.id, "title": r.title[self.lang], "summary": r.summary[self.lang]} for r in self.book.map_routes]
        titles = {n.id: n.title[self.lang] for n in self.book.map_nodes}
        nodes = [{
            "id": n.id, "route": n.route, "year": n.year, "title": n.title[self.lang],
            "solved": n.solved[self.lang], "left": n.left[self.lang],
            "cites": Markup(self.inline.cite(list(n.cites))),
            "after": [{"id": a, "title": titles.get(a, a)} for a in n.after],
        } for n in self.book.map_nodes]
        years = sorted({n.year for n in self.book.map_nodes})
        return self.env.get_template("devmap.html.j2").render(lang=self.lang, routes=routes, nodes=nodes, years=years)

    def _open_questions(self, _arg: str) -> str:
        items = [
            f'<li class="open-question" id="{escape(q.id)}"><span class="badge badge-open">{escape(ui("open", self.lang))}</span> '
            f'<strong>{escape(q.topic[self.lang])}</strong>: {escape(q.text[self.lang])}</li>'
            for q in self.book.open_questions
        ]
        return '<ul class="open-questions">\n' + "\n".join(items) + "\n</ul>\n"
