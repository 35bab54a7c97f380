"""Figure spec -> SVG markup (pure apart from reading the templates)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import jinja2

from .canvas import Canvas

LANGS = ("zh", "en")
WIDTH = 480
KINDS = {
    "structural-sketch": {"zh": "结构示意", "en": "structural sketch"},
    "analytic-model": {"zh": "解析模型", "en": "analytic model"},
    "redrawn-from-report": {"zh": "依据报告机制重绘",
                            "en": "redrawn from the report's mechanism"},
}
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]+)\}")
ID = re.compile(r"[a-z0-9][a-z0-9-]*")
REFERENCE = re.compile(r"^(ex:[a-z0-9-]+(\.[a-z0-9_]+)?|claim:[a-z0-9-]+)$")


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
        from ..diagnostics import Diagnostic, SourceLocation

        location = SourceLocation(self.where[0], self.where[1], 1) if self.where else spec_location
        return Diagnostic(location, "figure.render", str(self), "fix the figure's spec in ledger/figures.md or its template")


class Texts:
    """Looks up a figure's labels and numbers in one language.

    ``t(key)`` returns a label with its ``{number_key}`` placeholders filled in;
    ``n(key)`` returns a number's display text. Missing keys raise FigureError
    naming the figure and the key.
    """

    def __init__(self, spec: Mapping, lang: str, values: Mapping[str, str]):
        self.fig = spec.get("id", "?")
        self.lang = lang
        self.labels = spec.get("labels") or {}
        self.numbers = spec.get("numbers") or {}
        self.values = values

    def n(self, key: str) -> str:
        if key not in self.numbers:
            raise FigureError(f"figure '{self.fig}': no number '{key}' in its spec")
        ref = self.numbers[key]
        if ref not in self.values:
            raise FigureError(f"figure '{self.fig}': number '{key}' ({ref}) has no value")
        return str(self.values[ref])

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
def _environment(template_dir: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.do"],
    )
    env.filters["u"] = _num
    return env


def _render(spec: Mapping, lang: str, values: Mapping[str, str],
            template_dir: Path) -> tuple[str, Canvas]:
    if lang not in LANGS:
        raise ValueError(f"figure '{spec.get('id', '?')}': unknown language {lang!r}")
    fig_id = spec["id"]
    if spec.get("kind") not in KINDS:
        raise FigureError(f"figure '{fig_id}': unknown kind {spec.get('kind')!r}")
    for field in ("title", "desc"):
        if lang not in (spec.get(field) or {}):
            raise FigureError(f"figure '{fig_id}': no {field} in '{lang}'")
    if not ID.fullmatch(str(fig_id)):
        raise FigureError(f"figure {fig_id!r}: an id is lower-case letters, digits and '-'")
    texts = Texts(spec, lang, values)
    folder = _figure_dir(template_dir)
    env = _environment(folder)
    canvas = Canvas(WIDTH)
    name = f"{fig_id}.svg.j2"
    shown = lambda filename: _project_path(filename or str(Path(folder) / name), template_dir)
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound:
        raise FigureError(f"figure '{fig_id}' has no template {shown(None)}") from None
    except jinja2.TemplateSyntaxError as error:
        raise FigureError(f"figure '{fig_id}': {error.message}", (shown(error.filename), error.lineno or 1)) from None
    try:
        svg = template.render(fig=spec, lang=lang, t=texts.t, n=texts.n, cv=canvas,
                              W=WIDTH, kind_label=KINDS[spec["kind"]][lang])
    except FigureError:
        raise
    except Exception as error:  # an error of the template's own code: point at its line
        where = _template_line(error.__traceback__)
        raise FigureError(f"figure '{fig_id}': {type(error).__name__}: {error}",
                          (shown(where[0]), where[1]) if where else (shown(None), 1)) from None
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


def render_figure_svg(spec: Mapping, lang: str, values: Mapping[str, str],
                      template_dir: Path) -> str:
    """Render one figure spec (a raw item of ``figures:``) as inline ``<svg>`` markup.

    ``values`` maps each reference in ``spec["numbers"]`` to its display text.
    Raises FigureError (a KeyError) naming the figure and the missing label or number.
    """
    svg, _ = _render(spec, lang, values, template_dir)
    return "\n".join(line for line in svg.splitlines() if line.strip()) + "\n"


def layout_estimate_problems(spec: Mapping, lang: str, values: Mapping[str, str],
                             template_dir: Path) -> list[str]:
    """The boxes whose text, by the width estimate, does not fit (no browser needed)."""
    _, canvas = _render(spec, lang, values, template_dir)
    return [f"fig-{spec['id']} ({lang}): {p}" for p in canvas.problems]


def spec_problems(spec: Mapping) -> list[str]:
    """Structural problems of one raw figure spec (empty when it is well formed)."""
    fig = spec.get("id", "?")
    out: list[str] = []
    if not re.fullmatch(r"[a-z0-9-]+", str(fig)):
        out.append(f"figure '{fig}': bad id")
    if spec.get("kind") not in KINDS:
        out.append(f"figure '{fig}': kind must be one of {sorted(KINDS)}")
    if not isinstance(spec.get("number"), int):
        out.append(f"figure '{fig}': number must be an integer")
    for field in ("title", "desc", "caption"):
        if set(spec.get(field) or {}) != set(LANGS):
            out.append(f"figure '{fig}': {field} needs exactly zh and en")
    sources = spec.get("sources")
    if not isinstance(sources, list) or not all(
            re.fullmatch(r"n\d\d|r[1-9]\d{0,2}", str(s)) for s in sources):
        out.append(f"figure '{fig}': sources must be a list of ledger numbers")
    numbers = spec.get("numbers") or {}
    for key, ref in numbers.items():
        if not REFERENCE.match(str(ref)):
            out.append(f"figure '{fig}': number '{key}' has a bad reference {ref!r}")
    for key, entry in (spec.get("labels") or {}).items():
        if not isinstance(entry, Mapping) or set(entry) != set(LANGS):
            out.append(f"figure '{fig}': label '{key}' needs exactly zh and en")
            continue
        used = [set(PLACEHOLDER.findall(str(entry[lang]))) for lang in LANGS]
        if used[0] != used[1]:
            out.append(f"figure '{fig}': label '{key}' uses different numbers in zh and en")
        for name in used[0] | used[1]:
            if name not in numbers:
                out.append(f"figure '{fig}': label '{key}' uses unknown number '{name}'")
    return out
