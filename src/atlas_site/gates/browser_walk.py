"""The browser gates' walk (`check --browser`): every page loaded once, checked at 390 px, resized
to 1280 px and checked again, in a few Chromiums at once.

Each page is loaded at 390×844 (overflow, the first-screen rules, the figures' layout at a phone's
width), then the same page is resized to 1280×800 (overflow again, the first-screen and lab-tab
rules, the figures at a desk's width, accessibility) and last its language switch is followed
(which leaves the page). A reader who turns a phone or widens a window sees the same resize, so
a page that only lays out right when loaded at a width is a finding, not noise; loading every
page twice cost a fifth of the walk. On a machine with cores to spare the pages are dealt to
several workers (worker_count), each with its own Chromium. What each page found is kept by page and reported in the pages' order,
so the report is the same however the pages were dealt."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, SourceLocation
from ..output import Output
from ..search_index import index_search
from ..write import write_site
from .accessibility import axe_problems, axe_source, contrast_problems, in_each_scheme, target_problems
from .browser import VIEWPORTS, PageWalk, check_switch, check_tabs, launched_browser, serve_folder
from .figure_layout import (
    figure_contrast_problems,
    figure_ink_problems,
    figure_layout_problems,
    figure_scale_problems,
    figure_width_problems,
)
from .labs import LabVisit, chart_problems, model_problems, visit_labs
from .report import GateReport
from .search import run_searches

MAX_WORKERS = 4  # beyond this the browsers' memory grows faster than the walk shortens

# what marks the block a browser rule is about, in a page's HTML
RULE_MARKERS = {
    "first_screen": lambda rule: f'data-block="{rule.args.block}"',
    "lab_tabs": lambda rule: 'role="tablist"',
}

_SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


@dataclass
class Plan:
    """What every page is checked for: the browser rules by the page that holds their block."""

    first_screen: dict[str, list]
    tabs: dict[str, list]


@dataclass
class Findings:
    """What one page showed, by gate."""

    overflow: list[Diagnostic] = field(default_factory=list)
    first_screen: list[Diagnostic] = field(default_factory=list)
    tabs: list[Diagnostic] = field(default_factory=list)
    switch: list[Diagnostic] = field(default_factory=list)
    figures: list[Diagnostic] = field(default_factory=list)
    access: list[Diagnostic] = field(default_factory=list)
    labs: list[Diagnostic] = field(default_factory=list)
    lab_visits: list[LabVisit] = field(default_factory=list)
    pending: list[Diagnostic] = field(default_factory=list)  # browser rules on a draft page
    figure_count: int = 0
    target_count: int = 0
    first_screen_checks: int = 0
    tab_checks: int = 0


# A formula or a prose table wider than a phone's column: read by scrolling it sideways, a sliver at
# a time (review 31-n #3, #4). The prose's: the contributors' dashboard is a grid of data, which
# scrolls. [kind, the section it is in, its width, its box's].
WIDE_BOXES = """() => [...document.querySelectorAll('.prose :is(.math-block, .table-scroll)')]
  .filter((box) => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1)
  .map((box) => {
    const headings = [...document.querySelectorAll('main :is(h2, h3, h4)[id]')]
      .filter((h) => h.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING);
    const section = headings.length ? headings[headings.length - 1].id : '';
    return [box.classList.contains('math-block') ? 'formula' : 'table', section, box.scrollWidth, box.clientWidth];
  })"""

# Text set smaller than a reader can take in on a screen: each element holding text, outside figures
# (their own gate scales their text) and formulas (MathML's scripts keep 12 px by site.css), whose
# computed size is under MIN_TEXT_PX; one line per kind of element. Review 31-r #8 and 31-s #4 found
# lab subscripts, the question cards' questions, a sidebar tag and the map's corner at 11.5-11.8 px.
MIN_TEXT_PX = 12.0
SMALL_TEXT = """(min) => {
  const seen = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest('svg, math, .visually-hidden, [hidden], script, style')) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const px = parseFloat(style.fontSize);
    if (style.visibility === 'hidden' || px === 0 || px >= min - 0.05) continue;  // size 0: hidden on purpose
    const kind = el.localName + [...el.classList].map((c) => '.' + c).join('');
    if (!seen.has(kind)) seen.set(kind, [kind, Math.round(px * 10) / 10, node.textContent.trim().slice(0, 30)]);
  }
  return [...seen.values()];
}"""


def _where(path: str, selector: str = "") -> SourceLocation:
    return SourceLocation(f"_site/{path}" + (f" {selector}" if selector else ""))


def _rule_pages(rules, kind: str, languages, output: Output) -> dict[str, list]:
    """Output path -> the browser rules of one kind to check there. A chapter published as several
    pages (render/split.py) is checked on the page that holds the rule's block."""
    by_path: dict[str, list] = {}
    for rule in rules:
        if rule.name == kind:
            for page_id in rule.page_ids():
                for lang in languages:
                    holder = output.page_holding(lang, page_id, RULE_MARKERS[kind](rule))
                    by_path.setdefault(holder or f"{lang}/{page_id}.html", []).append(rule)
    return by_path


def _at_width(page, path: str, viewport: str, plan: Plan, found: Findings) -> None:
    """The checks at one width, on the page as it is laid out now."""
    width, client = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    if width > client:
        found.overflow.append(
            Diagnostic(
                _where(path),
                "gate.390.overflow",
                f"{path} at {viewport} px: document scrolls sideways ({width} > {client})",
            )
        )
    found.overflow += [
        Diagnostic(
            _where(path, kind),
            "gate.390.small-text",
            f"{path} at {viewport} px: {kind} is set at {px} px (< {MIN_TEXT_PX:g} px): '{text}'",
        )
        for kind, px, text in page.evaluate(SMALL_TEXT, MIN_TEXT_PX)
    ]
    draft = page.get_attribute("main", "data-status") not in (None, "published")
    for rule in plan.first_screen.get(path, []):
        found.first_screen_checks += 1
        issues = [
            Diagnostic(rule.location, rule.code(), f"{path}: {issue}")
            for issue in rule.check_page(page, viewport)
        ]
        (found.pending if draft else found.first_screen).extend(issues)
    if viewport == "390":
        found.overflow += [
            Diagnostic(
                _where(path, f"#{section}" if section else ""),
                "gate.390.scroller",
                f"{path} at 390 px: a {kind} in §{section or '(top)'} is wider than the column ({wide} > {box} px): it scrolls sideways",
            )
            for kind, section, wide, box in page.evaluate(WIDE_BOXES)
        ]
        found.figure_count = page.locator("figure.figure[data-figure]").count()
        found.figures += [
            Diagnostic(_where(path, "figure"), "gate.figures.layout", f"{path} at 390 px: {p}")
            for p in figure_layout_problems(page)
        ] + [
            Diagnostic(_where(path, "figure"), "gate.figures.ink", f"{path} at 390 px: {p}")
            for p in figure_ink_problems(page)
        ]
        found.target_count, small = target_problems(page)  # where fingers meet the targets
        found.access += [
            Diagnostic(_where(path), "gate.a11y.target", f"{path} at 390 px: {p}") for p in small
        ]
        # the labs, driven as a reader drives them: first what they show as loaded, then every
        # preset, order and bad value, then their charts at this width across the presets
        found.lab_visits = visit_labs(page, path)
        found.labs += [
            Diagnostic(
                _where(path, f"[data-lab={v.lab}]"), "gate.labs.behaviour", f"{path}: lab {v.lab}: {p}"
            )
            for v in found.lab_visits
            for p in v.problems
        ] + [
            Diagnostic(
                _where(path, f"[data-lab={lab}]"), "gate.labs.chart", f"{path} at 390 px: lab {lab}: {p}"
            )
            for lab, p in chart_problems(page)
        ]
        return
    for rule in plan.tabs.get(path, []):
        found.tab_checks += 1
        issues = [
            Diagnostic(rule.location, rule.code(), f"{path}: {issue}")
            for issue in check_tabs(page, rule.args.count)
        ]
        (found.pending if draft else found.tabs).extend(issues)
    found.figures += (
        [
            Diagnostic(_where(path, "figure"), "gate.figures.width", f"{path} at 1280 px: {p}")
            for p in figure_width_problems(page)
        ]
        + [
            Diagnostic(_where(path, "figure"), "gate.figures.scale", f"{path} at 1280 px: {p}")
            for p in figure_scale_problems(page)
        ]
        + [  # the labels as laid out at a desk's width too (the size rule is the phone's)
            Diagnostic(_where(path, "figure"), "gate.figures.layout", f"{path} at 1280 px: {p}")
            for p in figure_layout_problems(page, min_text_px=0)
        ]
        + [
            Diagnostic(_where(path, "figure"), "gate.figures.ink", f"{path} at 1280 px: {p}")
            for p in figure_ink_problems(page)
        ]
    )
    found.access += [Diagnostic(_where(path), "gate.a11y.axe", f"{path}: {p}") for p in axe_problems(page)]

    def contrast(page, scheme: str) -> list:
        """The text's and the figures' contrast in one pass per scheme (a scheme switched in place
        restyles the whole page: one switch for both)."""
        found.figures.extend(
            Diagnostic(_where(path, "figure"), "gate.figures.contrast", f"{path}: {scheme} scheme: {p}")
            for p in figure_contrast_problems(page)
        )
        return [
            Diagnostic(
                _where(path),
                "gate.a11y.link" if about_a_link else "gate.a11y.contrast",
                f"{path}: {scheme} scheme: {line}",
            )
            for about_a_link, line in contrast_problems(page)
        ]

    found.access += in_each_scheme(page, contrast)


def _check_page(walk: PageWalk, context, path: str, plan: Plan) -> Findings:
    found = Findings()
    page = walk.open(context, path)  # at 390×844
    _at_width(page, path, "390", plan, found)
    width, height = VIEWPORTS["1280"]
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(_SETTLED)
    _at_width(page, path, "1280", plan, found)
    if page.locator("[data-lang-switch]").count() and "/" in path:  # last: it moves about the page
        found.switch += [
            Diagnostic(_where(path, "[data-lang-switch]"), "gate.parity.switch", f"{path}: {issue}")
            for issue in check_switch(page, walk, path)
        ]
    return found


def _walk_share(base: str, share: list[str], plan: Plan, browser=None):
    """One worker: its pages in order, in its own Chromium unless one is given."""
    with contextlib.nullcontext(browser) if browser else launched_browser() as chromium:
        walk = PageWalk(chromium, base, share)
        width, height = VIEWPORTS["390"]
        context = chromium.new_context(viewport={"width": width, "height": height})
        try:
            found = {path: _check_page(walk, context, path, plan) for path in share}
        finally:
            context.close()
    return found, walk.external, walk.console


def worker_count(pages: int) -> int:
    """One Chromium per two cores (one browser already keeps two busy: its renderer lays out while
    the browser process composites; on two cores a second Chromium made the Atlas's walk 4 % faster),
    at most MAX_WORKERS and never more than the pages; ATLAS_BROWSER_WORKERS sets it."""
    wanted = os.environ.get("ATLAS_BROWSER_WORKERS", "")
    count = int(wanted) if wanted.isdigit() and int(wanted) > 0 else (os.cpu_count() or 1) // 2
    return max(1, min(count, MAX_WORKERS, pages))


def _deal(pages: list[str], output: Output, count: int) -> list[list[str]]:
    """The pages dealt largest first, round-robin: like amounts of work per worker."""
    ordered = sorted(pages, key=lambda path: (-len(output.text(path)), path))
    return [share for share in (ordered[i::count] for i in range(count)) if share]


def _search(base: str, searches: list[tuple], browser=None) -> GateReport:
    """The search_finds rules, in a Chromium of their own unless one is given."""
    with contextlib.nullcontext(browser) if browser else launched_browser() as chromium:
        return run_searches(chromium, base, searches)


def run_browser_gates(
    output: Output,
    rules=(),
    languages=(),
    browser=None,
    pages=None,
    labs=None,
    lab_runtime=None,
    root: Path | None = None,
) -> list[GateReport]:
    """The browser gates over every page, or over `pages` only (the test suite splits the real book
    between its workers; `check --browser` always walks every page); `browser` reuses a launched
    Chromium (the test suite shares one) for one worker, else each worker launches its own.
    `labs` (lab id -> contract) and `lab_runtime` (runs the labs' functions in Node: the commands
    make it, a gate runs no stage) check the numbers every lab shows against its model. `root`, the
    project, holds the search_finds rules' query files: with one, the site is searched as published
    (its search index built) beside the walk."""
    every_page = output.html_pages()
    pages = every_page if pages is None else [p for p in every_page if p in set(pages)]
    plan = Plan(
        _rule_pages(rules, "first_screen", languages, output),
        _rule_pages(rules, "lab_tabs", languages, output),
    )
    found: dict[str, Findings] = {}
    external: list[tuple[str, str]] = []
    console: list[tuple[str, str]] = []
    search_rules = [rule for rule in rules if rule.name == "search_finds"]
    searches = [(rule, rule.queries(root, output, languages)[0]) for rule in search_rules] if root else []
    searched: GateReport | None = None
    with tempfile.TemporaryDirectory(prefix="atlas-browser-") as folder:
        site = Path(folder) / "_site"
        index = (lambda staging: index_search(staging, (root,))) if searches and root else None
        write_site(output, site, finish=index)
        with serve_folder(site) as base:
            if browser:  # a Chromium of this thread's Playwright: walked here, in order
                results = [_walk_share(base, pages, plan, browser)]
                searched = _search(base, searches, browser) if searches else None
            else:
                shares = _deal(pages, output, worker_count(len(pages)))
                with concurrent.futures.ThreadPoolExecutor(max_workers=len(shares) + 1) as workers:
                    searching = workers.submit(_search, base, searches) if searches else None
                    results = list(workers.map(lambda share: _walk_share(base, share, plan), shares))
                    searched = searching.result() if searching else None
            for share_found, share_external, share_console in results:
                found.update(share_found)
                external += share_external
                console += share_console
    visits = [v for path in pages for v in found[path].lab_visits]
    for visit, line in model_problems(visits, labs or {}, lab_runtime) if lab_runtime else []:
        found[visit.path].labs.append(
            Diagnostic(
                _where(visit.path, f"[data-lab={visit.lab}]"),
                "gate.labs.model",
                f"{visit.path}: lab {visit.lab} against its model in Node: {line}",
            )
        )
    reports = _reports(
        [found[path] for path in pages],
        pages,
        languages,
        plan,
        sorted(set(external)),
        sorted(set(console)),
        len(pages) < len(every_page),
        lab_runtime is not None,
    )
    if search_rules:
        reports.append(
            searched or GateReport("search", "", skipped="no project folder to read the query files from")
        )
    return reports


def _reports(
    found: list[Findings], pages, languages, plan: Plan, external, console, subset: bool, with_model: bool
):
    def every(name: str) -> list[Diagnostic]:
        return [d for f in found for d in getattr(f, name)]

    pending = every("pending")
    figure_count = sum(f.figure_count for f in found)
    offline = [
        Diagnostic(_where(p), "gate.offline.request", f"{p}: request outside the site: {url}")
        for p, url in external
    ] + [Diagnostic(_where(p), "gate.offline.console", f"{p}: console error: {text}") for p, text in console]
    switch = every("switch")
    access = every("access")
    figures = every("figures")
    return [
        GateReport(
            "390 px",
            f"{len(pages)} pages at 390×844 and 1280×800, no text under {MIN_TEXT_PX:g} px; "
            f"{len(every('overflow'))} overflow or text too small",
            every("overflow"),
        ),
        *(
            _rule_report(
                name,
                sum(getattr(f, checks) for f in found),
                every(kind),
                pending,
                f"rule.{rule}",
                _no_rule_checks(rule, getattr(plan, kind), subset),
            )
            for name, rule, kind, checks in (
                ("first screen", "first_screen", "first_screen", "first_screen_checks"),
                ("lab tabs", "lab_tabs", "tabs", "tab_checks"),
            )
        ),
        GateReport(
            "offline",
            f"{len(pages)} pages loaded, each seen at 2 widths; {len(external)} requests outside the site, "
            f"{len(console)} console errors",
            offline,
        ),
        GateReport(
            "language switch",
            f"switch read at sampled sections of every page (its address, the twin in another language holding the section); {len(switch)} misses",
            switch,
            skipped="" if len(languages) > 1 else "the book has one language",
        ),
        GateReport(
            "accessibility",
            f"{len(pages)} pages: axe-core's rules at 1280 px (the four below apart), the contrast of every "
            "text and of every link in a sentence in the light and dark schemes, and "
            f"{sum(f.target_count for f in found)} pointer targets at 390 px; {len(access)} problems",
            access,
            skipped="" if axe_source() else "axe-core is not installed (pip install atlas-site[test])",
        ),
        _labs_report(found, with_model),
        GateReport(
            "figure layout",
            f"{figure_count} figures at 390 px (text ≥ 13 px, inside boxes, no overlap, off the drawing's lines) and at 1280 px (the same but the size, ≥ 60 % of the text column, one column of panels within it, text no larger than the body text, text contrast in the light and dark schemes); {len(figures)} problems",
            figures,
            skipped="" if figure_count else "no page shows a figure",
        ),
    ]


def _labs_report(found: list[Findings], with_model: bool) -> GateReport:
    visits = [v for f in found for v in f.lab_visits]
    states = sum(len(v.states) for v in visits)
    problems = [d for f in found for d in f.labs]
    model = (
        "against the lab's function in Node"
        if with_model
        else "(not against the model: no Node runtime given)"
    )
    return GateReport(
        "labs",
        f"{len(visits)} labs on {len({v.path for v in visits})} pages: {states} states (as loaded and each "
        f"preset) {model}, presets in every order and after a reader's edits, every number box empty and "
        f"below its range, charts at 390 px; {len(problems)} problems",
        problems,
        skipped="" if visits else "no page shows a live lab",
    )


def _no_rule_checks(kind: str, rule_pages: dict, subset: bool) -> str:
    """Why a rule gate checked nothing: no such rule, or (on a subset of the pages) none it names."""
    if rule_pages and subset:
        return f"none of these pages is named by a {kind} rule"
    return f"book.yaml has no {kind} rule"


def _rule_report(name: str, checks: int, problems: list, pending: list, code: str, none: str) -> GateReport:
    waiting = [d for d in pending if d.code == code]
    figures = f"{checks} page × viewport checks; {len(problems)} failures" + (
        f" ({len(waiting)} pending on draft pages)" if waiting else ""
    )
    return GateReport(
        name, figures, problems, pending=bool(waiting) and not problems, skipped="" if checks else none
    )
