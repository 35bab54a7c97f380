"""Figure spec -> SVG markup (pure apart from reading the templates)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import jinja2

from ..diagnostics import Diagnostic, SourceLocation
from ..model.figure_spec import PLACEHOLDER
from ..template_memo import MemoEnvironment
from .canvas import PANEL_W, Canvas
from .chart import number

ID = re.compile(r"[a-z0-9][a-z0-9-]*")


class FigureError(KeyError):
    """A figure cannot be drawn: its spec lacks something its template needs (a label, a number),
    or its template is missing or broken. `where` is (template path, line) when the template is
    at fault, None when the spec is."""

    def __init__(self, message: str, where: tuple[str, int] | None = None):
        super().__init__(message)
        self.where = where

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""

    def diagnostic(self, spec_location):
        """One located line: at the template's line, or at the figure's spec (`spec_location`)."""
        location = SourceLocation(self.where[0], self.where[1], 1) if self.where else spec_location
        return Diagnostic(
            location, "figure.render", str(self), "fix the figure's spec in ledger/figures.md or its template"
        )


class Texts:
    """Looks up a figure's labels and numbers in one language.

    ``t(key)`` returns a label with its ``{number_key}`` placeholders filled in;
    ``n(key)`` returns a number's display text: an example's or claim's from ``values``, one
    of the figure's own ``assume`` entries, or a fixed argument (or the one-point output) of
    one of its ``series``.
    Missing keys raise FigureError naming the figure and the key.
    """

    def __init__(self, spec: Mapping, lang: str, values: Mapping[str, str], series: Mapping | None = None):
        self.fig = spec.get("id", "?")
        self.lang = lang
        self.labels = spec.get("labels") or {}
        self.numbers = spec.get("numbers") or {}
        self.assume = spec.get("assume") or {}
        self.series = series or {}
        self.values = values

    def n(self, key: str) -> str:
        if key not in self.numbers:
            raise FigureError(f"figure '{self.fig}': no number '{key}' in its spec")
        ref = self.numbers[key]
        if ref.startswith(("assume:", "series:")):
            kind, _, target = ref.partition(":")
            name, _, arg = target.partition(".")
            value = self.assume.get(target) if kind == "assume" else self._series_value(name, arg)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise FigureError(f"figure '{self.fig}': number '{key}' ({ref}) names no {kind} value")
            return number(value, "plain", 0) if float(value).is_integer() else number(value)
        if ref not in self.values:
            raise FigureError(f"figure '{self.fig}': number '{key}' ({ref}) has no value")
        return str(self.values[ref])

    def _series_value(self, name: str, key: str):
        """A series' fixed argument, or the output of a series computed at one point."""
        data = self.series.get(name) or {}
        if key in data.get("args", {}):
            return data["args"][key]
        points = data.get(key)
        return points[0] if isinstance(points, list) and len(points) == 1 else None

    def t(self, key: str) -> str:
        entry = self.labels.get(key)
        if not isinstance(entry, Mapping) or self.lang not in entry:
            raise FigureError(f"figure '{self.fig}': no label '{key}' in '{self.lang}'")
        return PLACEHOLDER.sub(lambda m: self.n(m.group(1)), str(entry[self.lang]))


def _num(value: float) -> str:
    """Format a coordinate compactly: 12.0 -> '12', 12.345 -> '12.3'."""
    return f"{round(float(value), 1):g}"


def _figure_dir(template_dir: Path) -> str:
    """The folder holding the figure templates: ``template_dir`` itself, or its
    ``figures/`` child when given the site's whole template folder."""
    base = Path(template_dir).resolve()
    nested = base / "figures"
    return str(nested if (nested / "_figure.svg.j2").is_file() else base)


@lru_cache(maxsize=8)
def _environment(template_dirs: tuple[str, ...]) -> jinja2.Environment:
    env = MemoEnvironment(
        loader=jinja2.FileSystemLoader(list(template_dirs)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.do"],
        optimized=False,  # see render/templates.py: constant folding costs more than it saves here
    )
    env.filters["u"] = _num
    env.filters["num"] = number
    return env


def _render(
    spec: Mapping,
    lang: str,
    values: Mapping[str, str],
    template_dir: Path | Sequence[Path],
    series: Mapping | None,
) -> tuple[str, Canvas]:
    fig_id = spec["id"]
    for field in ("title", "desc"):
        if lang not in (spec.get(field) or {}):
            raise FigureError(f"figure '{fig_id}': no {field} in '{lang}'")
    if not ID.fullmatch(str(fig_id)):
        raise FigureError(f"figure {fig_id!r}: an id is lower-case letters, digits and '-'")
    texts = Texts(spec, lang, values, series)
    # one folder, or the theme's folders in lookup order (the book's templates/, the default theme)
    template_dirs = (template_dir,) if isinstance(template_dir, (str, Path)) else tuple(template_dir)
    folders = tuple(_figure_dir(folder) for folder in template_dirs)
    folder, template_dir = folders[0], template_dirs[0]
    env = _environment(folders)
    declared = spec.get("series") or {}
    series = series or {}
    missing = sorted(set(declared) - set(series))
    if missing:
        raise FigureError(f"figure '{fig_id}': series {', '.join(missing)} not computed")
    canvas = Canvas(PANEL_W)
    name = f"{fig_id}.svg.j2"
    shown = lambda filename: _project_path(filename or str(Path(folder) / name), template_dir)
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound:
        raise FigureError(f"figure '{fig_id}' has no template {shown(None)}") from None
    except jinja2.TemplateSyntaxError as error:
        raise FigureError(
            f"figure '{fig_id}': {error.message}", (shown(error.filename), error.lineno or 1)
        ) from None
    try:
        svg = template.render(fig=spec, lang=lang, t=texts.t, n=texts.n, cv=canvas, W=PANEL_W, S=series)
    except FigureError:
        raise
    except Exception as error:  # an error of the template's own code: point at its line
        where = _template_line(error.__traceback__)
        raise FigureError(
            f"figure '{fig_id}': {type(error).__name__}: {error}",
            (shown(where[0]), where[1]) if where else (shown(None), 1),
        ) from None
    if not canvas.panels:
        raise FigureError(f"figure '{fig_id}': its template draws no panel")
    return svg, canvas


def _project_path(filename: str, template_dir: Path) -> str:
    """A template's path as the project names it (templates/figures/x.svg.j2)."""
    base = Path(template_dir).resolve()
    project = base.parent if base.name == "templates" else base.parent.parent
    try:
        return Path(filename).resolve().relative_to(project).as_posix()
    except ValueError:
        return Path(filename).name


def _template_line(traceback) -> tuple[str, int] | None:
    """The innermost template frame of a traceback (Jinja maps them to template lines)."""
    found = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        if filename.endswith(".j2"):
            found = (filename, traceback.tb_lineno)
        traceback = traceback.tb_next
    return found


def render_figure_svg(
    spec: Mapping,
    lang: str,
    values: Mapping[str, str],
    template_dir: Path | Sequence[Path],
    series: Mapping | None = None,
) -> str:
    """Render one figure spec (a raw item of ``figures:``) as inline markup: a ``<div
    role="img">`` holding one ``<svg>`` per panel.

    ``values`` maps each reference in ``spec["numbers"]`` to its display text; ``series`` holds
    the computed series the spec declares (figures/series.py). Raises FigureError (a KeyError)
    naming the figure and the missing label, number or series.
    """
    svg, _ = _render(spec, lang, values, template_dir, series)
    return "\n".join(line for line in svg.splitlines() if line.strip()) + "\n"


def layout_estimate_problems(
    spec: Mapping,
    lang: str,
    values: Mapping[str, str],
    template_dir: Path | Sequence[Path],
    series: Mapping | None = None,
) -> list[str]:
    """The boxes whose text, by the width estimate, does not fit (no browser needed)."""
    _, canvas = _render(spec, lang, values, template_dir, series)
    return [f"fig-{spec['id']} ({lang}): {p}" for p in canvas.problems]
