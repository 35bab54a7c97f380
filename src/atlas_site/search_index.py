"""Stage 6a: the Pagefind search index (one per language, Chinese segmented), built over the
written pages in the staging folder before it is swapped in.

Pagefind 1.6 (npm) segments Chinese words with ICU4X at indexing time and with the browser's
Intl.Segmenter at query time; the PyPI wrapper is still 1.5, which splits Chinese into single
characters ("键值缓存" then matched "值得"). The build runs the npm package that scripts/setup.sh
installs (package.json pins it), and the PyPI one only where that is missing, with a warning.

Pagefind reads a copy of the pages made for it (index_text): each cell, term, list item and figure
number ends with a separator (Pagefind ran "年份2022 解决了什么" and "Figure 16redrawn" together), the
badges and labels around the text are left out, a formula is its plain linear form
("c = 10^6 × H / (3600 × G)", not "c=106×H3600×G") and a Chinese line break is no space. The Latin
words of the index are listed for the search box's typo tolerance (pagefind/atlas-words.json), and so
are its Chinese names, the terms its <dfn>s define and the subjects of its headings
(pagefind/atlas-names.json: "量花" is read as 量化, a name one character away)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from .diagnostics import AtlasError, Diagnostic, SourceLocation

ENGINE_CHECKOUT = Path(__file__).resolve().parents[2]  # the repository, in an editable install
RUNNER = Path("node_modules", "pagefind", "lib", "runner", "bin.cjs")


def pagefind_command(folders: tuple[Path, ...] = ()) -> list[str] | None:
    """How to run the npm Pagefind: $ATLAS_PAGEFIND (a binary), or the package installed in one of
    `folders`, the current folder or the engine's checkout; None when there is none."""
    explicit = os.environ.get("ATLAS_PAGEFIND")
    if explicit:
        return [explicit]
    node = shutil.which("node")
    for folder in (*folders, Path.cwd(), ENGINE_CHECKOUT):
        if node and (folder / RUNNER).is_file():
            return [node, str(folder / RUNNER)]
    return None


def index_search(site: Path, folders: tuple[Path, ...] = ()) -> list[Diagnostic]:
    """Index `site`; the warnings of the run (none, or that the older Pagefind was used)."""
    command = pagefind_command(folders)
    warnings = []
    if command is None:
        command = [sys.executable, "-m", "pagefind"]
        warnings.append(
            Diagnostic(
                SourceLocation("package.json"),
                "search.old-pagefind",
                "Pagefind 1.6 from npm is not installed: the search index is built with the PyPI "
                "Pagefind, which splits Chinese into single characters",
                severity="warning",
                hint="run `npm ci` in the project (scripts/setup.sh does)",
            )
        )
    words: Counter[str] = Counter()
    names: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="atlas-search-") as copy:
        for page in sorted(site.rglob("*.html")):
            if (site / "pagefind") in page.parents:
                continue
            target = Path(copy) / page.relative_to(site)
            target.parent.mkdir(parents=True, exist_ok=True)
            parsed = _index_copy(page.read_text(encoding="utf-8"))
            target.write_text("".join(parsed.out), encoding="utf-8")
            words.update(parsed.words)
            names.update(parsed.names)
        run = subprocess.run(
            [*command, "--site", copy, "--output-path", str(site / "pagefind"), "--quiet"],
            capture_output=True,
            text=True,
        )
    if run.returncode != 0:
        reason = (run.stderr.strip() or run.stdout.strip() or "no message").splitlines()[-1]
        raise AtlasError([Diagnostic(SourceLocation("_site"), "search.index", f"pagefind failed: {reason}")])
    _make_deterministic(site / "pagefind")
    (site / "pagefind" / "atlas-words.json").write_text(word_list(words), encoding="utf-8")
    (site / "pagefind" / "atlas-names.json").write_text(word_list(names), encoding="utf-8")
    return warnings


# -- the copy of a page that Pagefind reads ---------------------------------------------------------
# the labels and badges around the text, left out of the index and of the excerpts
CHROME = {"badge", "badge-key", "block-label", "cites", "devmap-year", "toc-here-tag"}
# the words that say what follows ("Common mistake", "What is true"): indexed with a colon after
# them, so that an excerpt quoting a misconception says it is one (review 31-r #2: "Weight
# quantization shrinks the KV cache." stood in the results as if the book said it)
LEAD_INS = {"misconception-tag"}
# elements whose end separates their text from what follows: a term from its description (": "), a
# cell, an item, a caption or a figure's number from the next (". ")
TERM_ENDS = {"dt", "th"}
# (Pagefind ends a paragraph or a heading itself; a heading's text is also its result's title)
BLOCK_ENDS = {"dd", "td", "li", "summary", "figcaption", "caption", "div"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HAN = "\u3400-\u9fff\uf900-\ufaff"
HAN_BREAK = re.compile(f"(?<=[{HAN}\u3000-\u303f\uff01-\uff1f])\\s+(?=[{HAN}\u3000-\u303f\uff01-\uff1f])")
PUNCTUATION = tuple(".。:：;；!！?？,，、")
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{5,}(?![A-Za-z0-9])")
# where a name is named: a term's definition, a heading (its subject: the words before a colon)
NAMING = {"dfn", "h1", "h2", "h3", "h4", "h5", "h6"}
# what separates the names a heading lists ("MQA 与 GQA", "模型路由、级联与蒸馏")
NAME_BREAK = re.compile(r"[，,、；;（）()“”\"「」《》/]|\s*(?<![A-Za-z])(?:与|和|及|或)(?![A-Za-z])\s*")


def chinese_names(text: str, heading: bool) -> list[str]:
    """The Chinese names a definition or a heading gives ("前缀复用：什么时候…" -> ["前缀复用"]): its
    subject cut at the separators of a list, each name of two to twelve characters that holds Chinese."""
    subject = re.split(r"[:：]", text, maxsplit=1)[0] if heading else text
    out = []
    for part in NAME_BREAK.split(subject):
        name = re.sub(r"\s+", " ", part).strip(" .。·-—#")
        if re.search(f"[{HAN}]", name) and 2 <= len(name.replace(" ", "")) <= 12:
            out.append(name)
    return out


class _IndexCopy(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.chinese = False
        self.stack: list[
            tuple[str, bool, bool, bool]
        ] = []  # open elements: (tag, left out, ends a block, leads in)
        self.ignored = 0  # open elements left out (chrome, or inside a formula)
        self.math = 0
        self.body = 0  # inside data-pagefind-body
        self.tail = ""  # the end of the text so far (for the separators)
        self.words: Counter[str] = Counter()
        self.names: Counter[str] = Counter()  # the Chinese names its definitions and headings give
        self.naming: list[list[str]] = []  # the text of each open <dfn> or heading

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.chinese = (values.get("lang") or "").startswith(("zh", "ja"))
        if tag == "math":
            self.math += 1
            if self.math == 1:
                self._text(linear_math(values.get("alttext") or ""))
            return
        if self.math:
            return
        chrome = bool(CHROME & set((values.get("class") or "").split()))
        text = self.get_starttag_text() or ""
        if chrome:
            text = text[:-1].rstrip("/") + " data-pagefind-ignore>"
        self.out.append(text)
        if tag not in VOID:
            classes = set((values.get("class") or "").split())
            self.stack.append(
                (
                    tag,
                    chrome or "data-pagefind-ignore" in values,
                    "fig-number" in classes or tag in BLOCK_ENDS,
                    bool(LEAD_INS & classes),
                )
            )
            self.ignored += self.stack[-1][1]
            self.body += "data-pagefind-body" in values
            if tag in NAMING:
                self.naming.append([])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.math:
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "math" and self.math:
            self.math -= 1
            return
        if self.math:
            return
        block = leads = False
        while self.stack:
            open_tag, left_out, block, leads = self.stack.pop()
            self.ignored -= left_out
            if open_tag in NAMING and self.naming:
                named = "".join(self.naming.pop()).strip()
                if self.body and not self.ignored:
                    self.names.update(chinese_names(named, open_tag != "dfn"))
            if open_tag == tag:
                break
        if not self.ignored and self.tail.strip():
            if tag in TERM_ENDS or leads:
                self._separate("：" if self.chinese else ": ")
            elif block:
                self._separate("。" if self.chinese else ". ")
        self.out.append(f"</{tag}>")

    def _separate(self, mark: str) -> None:
        if not self.tail.rstrip().endswith(PUNCTUATION):
            self.out.append(mark)
            self.tail = mark
        elif not self.chinese:
            self.out.append(" ")

    def _text(self, text: str) -> None:
        self.out.append(escape(text, quote=False))
        if not self.ignored:
            self.tail = (self.tail + text)[-8:]
            if self.body:
                self.words.update(w.lower() for w in LATIN_WORD.findall(text))

    def handle_data(self, data: str) -> None:
        if self.math:
            return
        if self.chinese:
            data = HAN_BREAK.sub("", data)
        self.out.append(data)
        if not self.ignored:
            for text in self.naming:
                text.append(data)
        if not self.ignored and data.strip():
            self.tail = (self.tail + data)[-8:]
            if self.body:
                self.words.update(w.lower() for w in LATIN_WORD.findall(data))

    def handle_entityref(self, name: str) -> None:
        if not self.math:
            self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        if not self.math:
            self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")


def _index_copy(html: str) -> _IndexCopy:
    copy = _IndexCopy()
    copy.feed(html)
    copy.close()
    return copy


def index_text(html: str) -> tuple[str, Counter[str]]:
    """The page as Pagefind reads it (see the module's note), and the Latin words of its indexed text
    (five letters or more, lower case) with how often each occurs."""
    copy = _index_copy(html)
    return "".join(copy.out), copy.words


def index_names(html: str) -> Counter[str]:
    """The Chinese names the page's indexed definitions (<dfn>) and headings give, with how often."""
    return _index_copy(html).names


def word_list(words: Counter[str]) -> str:
    """The index's Latin words (or Chinese names), most frequent first (ties alphabetically), as a JSON
    array."""
    ordered = sorted(words, key=lambda word: (-words[word], word))
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))


# -- a formula as plain text: its LaTeX (the MathML's alttext) in a linear form --------------------
SYMBOLS = {
    "times": "×",
    "top": "ᵀ",  # a transpose: QK^\top reads QKᵀ in an excerpt (review 31-t #2), not "QK^top"
    "cdot": "·",
    "approx": "≈",
    "gtrsim": "≳",
    "lesssim": "≲",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "cdots": "…",
    "dots": "…",
    "ldots": "…",
    "sum": "Σ",
    "prod": "Π",
    "in": "∈",
    "infty": "∞",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "lceil": "⌈",
    "rceil": "⌉",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "pm": "±",
    "mid": "|",
    "partial": "∂",
    "nabla": "∇",
    "sim": "~",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "omega": "ω",
    "Delta": "Δ",
    "Sigma": "Σ",
    "Omega": "Ω",
    "ell": "ℓ",
    "prime": "′",
    "{": "{",
    "}": "}",
    "%": "%",
    "_": "_",
    "&": "&",
    "#": "#",
    "$": "$",
}
SPACES = {
    ",",
    ";",
    ":",
    "!",
    " ",
    "quad",
    "qquad",
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "displaystyle",
}
WRAPPERS = {
    "text",
    "mathrm",
    "mathit",
    "mathbf",
    "mathcal",
    "mathsf",
    "mathtt",
    "operatorname",
    "textrm",
    "boldsymbol",
}
COMPOUND = re.compile(r"[\s+\-−×·/=,]")


def linear_math(latex: str) -> str:
    """`c = \\frac{10^6 \\times H}{3600 \\times G}` -> `c = 10^6 × H / (3600 × G)`."""
    text, _ = _linear(latex.replace("&#x27;", "'"), 0, "")
    text = text.replace("^ᵀ", "ᵀ")
    return re.sub(r"\s+", " ", text).replace("( ", "(").replace(" )", ")").replace(" ,", ",").strip()


def _group(latex: str, at: int) -> tuple[str, int]:
    """The argument at `at`: a {group} or one character or command, as linear text."""
    while at < len(latex) and latex[at] == " ":
        at += 1
    if at < len(latex) and latex[at] == "{":
        return _linear(latex, at + 1, "}")
    if at < len(latex) and latex[at] == "\\":
        name = re.match(r"\\([A-Za-z]+|.)", latex[at:])
        assert name
        return _linear(latex[at : at + name.end()], 0, "")[0], at + name.end()
    return latex[at : at + 1], at + 1


def _wrapped(text: str) -> str:
    text = text.strip()
    return (
        f"({text})" if COMPOUND.search(text) and not (text.startswith("(") and text.endswith(")")) else text
    )


def _linear(latex: str, at: int, until: str) -> tuple[str, int]:
    out: list[str] = []
    while at < len(latex):
        char = latex[at]
        if until and char == until:
            return "".join(out), at + 1
        if char == "{":
            inner, at = _linear(latex, at + 1, "}")
            out.append(inner)
            continue
        if char in "^_":
            inner, at = _group(latex, at + 1)
            inner = inner.strip()
            out.append(char + (inner if len(inner) <= 1 or not COMPOUND.search(inner) else f"({inner})"))
            continue
        if char == "\\":
            name_match = re.match(r"\\([A-Za-z]+|.)", latex[at:])
            assert name_match
            name, at = name_match.group(1), at + name_match.end()
            if name == "frac" or name == "dfrac" or name == "tfrac":
                top, at = _group(latex, at)
                bottom, at = _group(latex, at)
                out.append(f" {_wrapped(top)} / {_wrapped(bottom)} ")
            elif name == "sqrt":
                inner, at = _group(latex, at)
                out.append(f"√{_wrapped(inner)}")
            elif name in WRAPPERS:
                inner, at = _group(latex, at)
                out.append(inner)
            elif name in SYMBOLS:
                symbol = SYMBOLS[name]
                out.append(
                    f" {symbol} "
                    if name
                    in {
                        "times",
                        "approx",
                        "gtrsim",
                        "lesssim",
                        "le",
                        "leq",
                        "ge",
                        "geq",
                        "ne",
                        "neq",
                        "in",
                        "to",
                        "rightarrow",
                        "pm",
                    }
                    else symbol
                )
            elif name in SPACES:
                out.append(" " if name in {" ", "quad", "qquad", ";", ","} else "")
            else:
                out.append(name)  # \max, \min, \log, \exp, \update …: the name itself
            continue
        if char in "=<>+":
            out.append(f" {char} ")
        elif char == "-":
            out.append(
                " − "
                if out and "".join(out).strip() and not "".join(out).rstrip().endswith(("(", "=", ","))
                else "−"
            )
        else:
            out.append(char)
        at += 1
    return "".join(out), at


def _make_deterministic(folder: Path) -> None:
    """Pagefind writes its language table in hash-map order; sort it so builds stay byte-identical.
    Its bundled UI kits are dropped: the site has its own small search box (search.js)."""
    entry = folder / "pagefind-entry.json"
    data = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(
        json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")), encoding="utf-8"
    )
    for path in folder.glob("pagefind-*ui.*"):
        path.unlink()
