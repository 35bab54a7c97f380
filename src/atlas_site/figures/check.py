"""What every drawn figure must be, for any book: an accessible image (role, title, description,
panels of the canvas's width), self-contained markup (no style, script, link, image or colour of
its own; no text below the minimum size), every label drawn, every number shown, and no text that
is not a label or a number the chart computed. The render stage runs these on each figure it draws
and records what it finds; the "figure drawings" gate reports it (gates/figure_drawings.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from ..model.figure_spec import PLACEHOLDER
from .canvas import PANEL_W
from .render import FigureError, Texts
from .text import MIN_SIZE, plain

SVG_TEXT = ("{http://www.w3.org/2000/svg}text", "text")
GENERATED = re.compile(r"^-?[\d.,]+[KMG%]?$")  # tick and value labels: numbers computed from the data
BANNED = ("style=", "<script", "http", "href", "<image", "<foreignObject", "font-family")
HANDLER = re.compile(r"<[^>]*\son[a-z]+=")
OWN_COLOUR = re.compile(r'(fill|stroke)="(#|rgb|white|black)')
FONT_SIZE = re.compile(r'font-size="([\d.]+)"')


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _texts(root: ET.Element) -> list[ET.Element]:
    return [element for tag in SVG_TEXT for element in root.iter(tag)]


def drawing_problems(
    spec: Mapping, lang: str, values: Mapping[str, str], series: Mapping | None, markup: str
) -> list[str]:
    """What is wrong with `markup`, the drawing of figure `spec` in `lang` (render_figure_svg's
    output for these `values` and `series`); [] when nothing is."""
    fig_id = spec.get("id", "?")
    problems = [f"its markup holds {banned!r}" for banned in BANNED if banned in markup]
    if HANDLER.search(markup):
        problems.append("its markup holds an event handler attribute")
    if OWN_COLOUR.search(markup):
        problems.append("it paints a colour of its own instead of the theme's classes")
    small = sorted({float(size) for size in FONT_SIZE.findall(markup) if float(size) < MIN_SIZE})
    if small:
        problems.append(
            f"text of size {', '.join(f'{s:g}' for s in small)} (the least is {MIN_SIZE}: 13 px on a 390 px phone)"
        )
    try:
        root = ET.fromstring(markup)
    except ET.ParseError as error:
        return [*problems, f"its markup is not well-formed XML: {error}"]
    problems += _accessibility(root, spec, lang, fig_id)
    try:
        problems += _labels(root, spec, lang, values, series)
    except FigureError as error:
        problems.append(str(error))
    return problems


def _accessibility(root: ET.Element, spec: Mapping, lang: str, fig_id: str) -> list[str]:
    problems = []
    if root.get("role") != "img" or root.get("lang") != lang:
        problems.append("its box is not role=img in its own language")
    if root.get("aria-labelledby") != f"fig-{fig_id}-title fig-{fig_id}-desc":
        problems.append("its box is not labelled by its title and description")
    panels = root.findall("svg") + root.findall("{http://www.w3.org/2000/svg}svg")
    if not panels:
        return [*problems, "it draws no panel"]
    for index, svg in enumerate(panels, 1):
        box = [float(v) for v in (svg.get("viewBox") or "0 0 0 0").split()]
        if (
            box[:3] != [0, 0, PANEL_W]
            or box[3] <= 40
            or svg.get("width") != f"{box[2]:g}"
            or svg.get("height") != f"{box[3]:g}"
        ):
            problems.append(f"panel {index}: its viewBox and size are not the canvas's ({PANEL_W} wide)")
    title, desc = panels[0].find("title"), panels[0].find("desc")
    if title is None or title.get("id") != f"fig-{fig_id}-title" or title.text != spec["title"][lang]:
        problems.append("its first panel does not carry the spec's title")
    if desc is None or desc.get("id") != f"fig-{fig_id}-desc" or desc.text != spec["desc"][lang]:
        problems.append("its first panel does not carry the spec's description")
    return problems


def _labels(
    root: ET.Element, spec: Mapping, lang: str, values: Mapping[str, str], series: Mapping | None
) -> list[str]:
    texts = Texts(spec, lang, values, series)
    numbers = spec.get("numbers") or {}
    shown = {key: texts.n(key) for key in numbers}
    labels = {
        key: _squash(plain(PLACEHOLDER.sub(lambda m: shown[m.group(1)], entry[lang])))
        for key, entry in (spec.get("labels") or {}).items()
    }
    elements = _texts(root)
    drawn = _squash("".join("".join(element.itertext()) for element in elements))
    problems = [f"label {key!r} is never drawn" for key, label in labels.items() if label not in drawn]
    problems += [
        f"number {key!r} ({numbers[key]}) is never shown"
        for key, text in shown.items()
        if _squash(text) not in drawn
    ]
    for element in elements:
        text = _squash("".join(element.itertext()))
        if set((element.get("class") or "").split()) & {"fig-tick", "fig-value"}:
            if not GENERATED.match(text):
                problems.append(f"the computed label {text!r} is not a number")
        elif text and not any(text in label for label in labels.values()):
            typed = " ".join("".join(element.itertext()).split())
            problems.append(f"the text {typed!r} is no label of its spec (a template typed it)")
    return problems
