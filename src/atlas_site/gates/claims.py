"""Gate 2: every author-reported / benchmark number carries its source, setting and label, and
no speedup or percentage gain is typed bare in prose."""

from __future__ import annotations

import re
from html import escape
from html import unescape as html_unescape

from ..diagnostics import Diagnostic, SourceLocation
from .context import GateContext
from .html_index import CLAIM_CLASSES
from .prose_scan import column_of, prose_lines
from .report import GateReport

_NUMBER = r"(?<![\w.])\d+(?:\.\d+)?(?:\s*[–~-]\s*\d+(?:\.\d+)?)?"
MULTIPLIER = re.compile(_NUMBER + r"(?:\s*(?:×|x|X|倍)(?!\s*\d)(?![A-Za-z])|[\s-]*fold\b)")
PERCENT = re.compile(
    r"[+−-]?" + _NUMBER + r"\s*(?:%|percent\b|per cent\b)"  # 25%, 25 percent
    r"|百分之[零一二三四五六七八九十百点\d.]+",
    re.IGNORECASE,
)  # 百分之二十五
# a multiple said in words counts only beside a word of gain: "3.5 times faster", "a fourfold speed-up"
# ("a fourfold change in traffic" describes a setting, not a result)
SAID_MULTIPLE = re.compile(
    r"(?:" + _NUMBER + r"[\s-]+times\b|"
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|"
    r"twenty|hundred|thousand)-?fold\b)",
    re.IGNORECASE,
)
GAIN_WORDS = re.compile(
    r"(faster|slower|speed-?ups?|improv\w*|increase\w*|higher|lower|reduc\w*|less|more|sav\w+|cuts?|gains?|boost\w*|"
    r"throughput|latency|cheaper|提升|提高|加速|降低|减少|节省|下降|增加|增长|快|慢|吞吐|延迟|成本)",
    re.IGNORECASE,
)
WINDOW = 16  # characters around a percentage in which a gain word makes it a claim


def _format_value(value) -> str:
    """The value as the ledger wrote it (every digit kept: 83.43465835281891 stays whole)."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


# (pattern, needs a gain word within WINDOW characters, how the problem names what it found)
BARE_NUMBERS = (
    (MULTIPLIER, False, "bare multiplier"),
    (PERCENT, True, "percentage change"),
    (SAID_MULTIPLE, True, "bare multiplier"),
)


def bare_numbers(page) -> list[Diagnostic]:
    problems = []
    for line in prose_lines(page):
        if line.block.startswith("misconception"):
            continue  # a misconception may quote the wrong number it corrects
        for pattern, needs_gain, what in BARE_NUMBERS:
            for match in pattern.finditer(line.text):
                around = line.text[max(0, match.start() - WINDOW) : match.end() + WINDOW]
                if needs_gain and not GAIN_WORDS.search(around):
                    continue
                code = "gate.claims.bare-percentage" if pattern is PERCENT else "gate.claims.bare-multiplier"
                problems.append(
                    Diagnostic(
                        SourceLocation(line.location.path, line.location.line, column_of(match)),
                        code,
                        f"{what} '{match.group(0).strip()}' outside a claim",
                        "record it in ledger/claims.md and write {{claim:id}}, or {{ex:id}} for a teaching number",
                    )
                )
    return problems


# a worked-example number as render writes it (directives/evidence.py, render/evidence_blocks.py):
# with its own label, or labelled once for its block by a note the number names
EX_OPEN = re.compile(r'<span class="ex( ex-quiet)?"([^>]*)>')
EX_END = re.compile(r'<span class="ex[ "]|</(?:p|li|td|th|caption|h[1-6]|figcaption|dd|dt|div)>')
NOTE = re.compile(
    r'<(?:span|caption) class="evidence-note" id="([^"]+)" data-label="([^"]+)"[^>]*>'
    r'[^<]*<span class="badge badge-ex"[^>]*>([^<]*)</span>'
)
EX_VALUE = re.compile(r'class="ex-value">([^<]*)<')
ATTR = re.compile(r'\s(data-label|data-note)="([^"]*)"')


def example_labels(html: str, labels: dict[str, str]) -> tuple[int, int, list[str]]:
    """(numbers, labelled once for their block, problems) of one page: every worked-example number
    shows its label (`labels`: label key -> the words), or is quiet and names a note on the page
    that shows the same label and carries the label in words for screen readers."""
    notes = {m.group(1): (m.group(2), html_unescape(m.group(3))) for m in NOTE.finditer(html)}
    numbers = quiet = 0
    problems = []
    for match in EX_OPEN.finditer(html):
        numbers += 1
        attrs = dict(ATTR.findall(match.group(2)))
        end = EX_END.search(html, match.end())
        inside = html[match.end() : end.start() if end else len(html)]
        shown = EX_VALUE.search(inside)
        value = f"'{html_unescape(shown.group(1))}'" if shown else "?"
        label = labels.get(attrs.get("data-label", ""))
        if label is None:
            problems.append(f"number {value} names no label (data-label)")
            continue
        words = escape(label)
        if match.group(1):
            quiet += 1
            note = notes.get(attrs.get("data-note", ""))
            if note is None or note[0] != attrs["data-label"] or note[1] != label:
                problems.append(
                    f"number {value} is labelled once for its block, but no note on the page says '{label}'"
                )
            elif f"> ({words})</span>" not in inside:
                problems.append(f"number {value} does not say '{label}' to a screen reader")
        elif not re.search(r'<span class="badge badge-ex"[^>]*>' + re.escape(words) + "</span>", inside):
            problems.append(f"number {value} shows no label '{label}'")
    return numbers, quiet, problems


def check_claims(ctx: GateContext) -> GateReport:
    problems: list[Diagnostic] = []
    claims = ctx.book.claims
    for claim in claims.values():
        where = ctx.book.locate(f"claims:{claim.id}")
        for lang in ctx.book.languages:
            for value in claim.values:
                if _format_value(value) not in claim.text[lang].replace(",", ""):
                    problems.append(
                        Diagnostic(
                            where,
                            "gate.claims.text-value",
                            f"claim '{claim.id}': text.{lang} does not show its value {_format_value(value)}",
                        )
                    )
    rendered = unlabelled = 0
    for path in ctx.output.html_pages():
        markup = ctx.html(path).claim_markup
        spans, labels, settings = (markup.get(name, 0) for name in CLAIM_CLASSES)
        rendered += spans
        if labels != spans or settings != spans:
            unlabelled += spans - min(labels, settings)
            problems.append(
                Diagnostic(
                    ctx.where(path),
                    "gate.claims.unlabelled",
                    f"{path}: {spans} claims but {labels} labels and {settings} settings",
                )
            )
    examples = quiet = 0
    label_keys = {key for example in ctx.book.examples.values() for key in example.label_keys}
    for path in ctx.output.html_pages():
        lang = path.partition("/")[0]
        if lang not in ctx.book.languages:
            continue
        labels = {key: ctx.book.ui(key, lang) for key in label_keys}
        found, once, missing = example_labels(ctx.output.text(path), labels)
        examples, quiet = examples + found, quiet + once
        problems += [
            Diagnostic(ctx.where(path), "gate.claims.example-unlabelled", f"{path}: {problem}")
            for problem in missing
        ]
    bare = []
    for parsed in ctx.parsed.values():
        bare += ctx.per_page("bare-numbers", parsed, lambda parsed=parsed: bare_numbers(parsed.page))
    problems += bare
    used = {u.key for p in ctx.parsed.values() for u in p.uses_of("claim")}
    figures = (
        f"{len(claims)} claims, all with source and setting; {rendered} rendered with label; "
        f"{len(used)} used in prose; {examples} worked-example numbers labelled ({quiet} once for their "
        f"paragraph or table); {len(bare)} bare numbers"
    )
    if not claims and not bare:
        return GateReport("settings", figures, problems, skipped="the book records no claims")
    return GateReport("settings", figures, problems)
