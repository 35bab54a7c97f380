"""Gate (static half): every internal link and #anchor resolves; external links are https, point
at registry URLs and carry rel="noopener noreferrer". A link written in a page's markdown is
reported at its file:line:col; a link the templates or the engine made, at the output file.
The browser half records requests."""

from __future__ import annotations

import posixpath
from urllib.parse import unquote

from ..diagnostics import Diagnostic
from ..resolve.example_labs import lab_inputs, panel_id, state_problems
from .context import GateContext
from .report import GateReport


def registry_urls(book) -> set[str]:
    urls = {w.url for w in book.registry.works.values() if w.url}
    urls |= {r.url for r in book.registry.references.values() if r.url}
    return urls


def lab_state_problems(book, element: str, state: str) -> list[str]:
    """Why a lab address's state cannot be restored: it is not a lab's panel, names an input the
    lab lacks or a value its input refuses (labs_js/shared/bind.js restores what it can, silently)."""
    lab_id = element.removeprefix("lab-").removesuffix("-panel")
    lab = book.labs.get(lab_id) if element == panel_id(lab_id) else None
    if lab is None:
        return [f"#{element} is not a lab's panel, so nothing reads its state"]
    inputs = lab_inputs(lab)
    values: dict = {}
    for pair in state.split("&"):
        name, equals, text = pair.partition("=")
        if not equals or not name:
            return [f"'{pair}' is not name=value"]
        value = unquote(text)
        spec = inputs.get(name, {})
        if "options" in spec or name not in inputs:
            values[name] = value
        elif spec.get("checkbox"):
            values[name] = {"true": True, "false": False}.get(value, value)
        else:
            try:
                number = float(value)
                values[name] = int(number) if number.is_integer() and "." not in value else number
            except ValueError:
                values[name] = value
    return state_problems(lab, values)


def check_links(ctx: GateContext, paths=None) -> GateReport:
    problems = []
    internal = external = lab_states = 0
    allowed = registry_urls(ctx.book)
    site = ctx.book.profile.site_url
    for path in paths if paths is not None else ctx.output.html_pages():
        index = ctx.html(path)
        parsed = ctx.parsed_at(path)
        written = {u.key: u.location for u in parsed.uses_of("link")} if parsed else {}

        def report(code: str, message: str, href: str, written=written, path=path) -> None:
            problems.append(Diagnostic(written.get(href, ctx.where(path)), code, f"{path}: {message}"))

        for link in index.links:
            href = link.href
            if site and href.startswith(site):  # the 404 page links absolutely: it is served at any depth
                target = href[len(site) :] or "index.html"
                internal += 1
                if target.partition("#")[0] not in ctx.output:
                    report("gate.links.broken", f"link to missing page {href}", href)
                continue
            if href.startswith(("http://", "https://", "//")):
                external += 1
                if not href.startswith("https://"):
                    report("gate.links.not-https", f"external link is not https: {href}", href)
                elif href not in allowed:
                    report("gate.links.not-registry", f"external link is not a registry URL: {href}", href)
                if set(link.rel.split()) < {"noopener", "noreferrer"}:
                    report("gate.links.rel", f'external link lacks rel="noopener noreferrer": {href}', href)
                continue
            if href.lower().startswith(("mailto:", "data:", "javascript:", "vbscript:", "file:")):
                report("gate.links.scheme", f"link scheme not allowed: {href}", href)
                continue
            internal += 1
            target, _, anchor = href.partition("#")
            target_path = (
                posixpath.normpath(posixpath.join(posixpath.dirname(path), target)) if target else path
            )
            if target_path not in ctx.output:
                report("gate.links.broken", f"link to missing page {href}", href)
                continue
            element, _, state = anchor.partition("?")  # a lab opened in a state: #lab-x-panel?name=value
            if element and target_path.endswith(".html") and element not in ctx.html(target_path).ids:
                report("gate.links.anchor", f"link to missing anchor {href}", href)
            elif state:
                lab_states += 1
                for problem in lab_state_problems(ctx.book, element, state):
                    report(
                        "gate.links.lab-state", f"link to a lab state that cannot be: {href}: {problem}", href
                    )
    titled, title_problems = quoted_title_problems(ctx.parsed)
    problems += title_problems
    figures = (
        f"{internal} internal links and anchors ({lab_states} opening a lab in a state, "
        f"{titled} quoting their section's title), {external} external (https, registry, rel); "
        f"{len(problems)} broken"
    )
    if not internal and not external:
        return GateReport("links", figures, problems, skipped="the pages hold no links")
    return GateReport("links", figures, problems)


def _plain(title: str) -> str:
    return " ".join(title.replace("*", "").replace("`", "").split())


def quoted_title_problems(parsed: dict) -> tuple[int, list[Diagnostic]]:
    """A link set in quotation marks or beside the word "section" names its section by title
    (“[机群](#q17)”一节, the [Fleet](#q17) section): its text is the heading's title, or the short
    form before a colon ('机群' of '机群：副本数…'), whatever the case of its letters. A title
    that drifted (a heading renamed, a title left in the other language) misleads the reader
    though the link still lands. (How many such links, the problems.)"""
    checked, problems = 0, []
    for (lang, page_id), page in sorted(parsed.items()):
        for use in page.uses_of("link"):
            if use.text is None or "://" in use.key or "#" not in use.key:
                continue
            target, _, anchor = use.key.partition("#")
            name = target.removesuffix(".html") or page_id
            # a chapter published as several pages is one parsed page: ch14-phases.html -> ch14
            # (the page of that very name first, should both exist)
            owners = sorted(
                (
                    p
                    for (other, pid), p in parsed.items()
                    if other == lang and (pid == name or name.startswith(pid + "-"))
                ),
                key=lambda p: p.page.id != name,
            )
            section = next((s for p in owners for s in p.sections if s.id == anchor.partition("?")[0]), None)
            if section is None:
                continue  # not a section (a figure, a lab): the anchor check above says if it is missing
            checked += 1
            title, quoted = _plain(section.title), _plain(use.text)
            # a sentence may lower-case a title's first word: "see the [prefill](#q5) section"
            short = {t.casefold() for t in (title, title.split("：")[0], title.split(": ")[0])}
            if quoted.casefold() not in short:
                problems.append(
                    Diagnostic(
                        use.location,
                        "gate.links.title",
                        f"the link names its section '{quoted}', but #{section.id} is titled '{title}'",
                        "quote the heading as it is written (or its part before the colon), or drop the quotation marks",
                    )
                )
    return checked, problems
