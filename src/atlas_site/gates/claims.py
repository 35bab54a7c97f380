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


def _format_value(value, digits: int | None = None) -> str:
    """The value as the ledger wrote it (every digit kept: 83.43465835281891 stays whole), or
    rounded to the claim's `shown_digits` (83.43)."""
    if digits is not None and isinstance(value, int | float):
        return f"{value:.{digits}f}"
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


CITED = re.compile(r"@([A-Za-z0-9_-]+)")


def _value_pattern(value) -> re.Pattern | None:
    """A claim's value as prose would type it (256, 1,024, 1.38), standing alone; None for a value
    too short to tell from any other number (a single digit)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        shown = [repr(value)]
    elif abs(value) >= 10:
        shown = [str(int(value)), f"{int(value):,}"]
    else:
        return None
    forms = "|".join(re.escape(form) for form in dict.fromkeys(shown))
    return re.compile(r"(?<![\w.,])(?:" + forms + r")(?![\w]|[.,]\d)")


def _anchored(claims) -> list:
    """(claim, the patterns of its values, the pattern of its setting's model or None)."""
    anchored = []
    for claim in claims.values():
        patterns = [
            p
            for v in (claim.value if isinstance(claim.value, tuple) else (claim.value,))
            if (p := _value_pattern(v))
        ]
        if patterns:
            model = claim.setting.model
            named = re.compile(r"(?<![\w.-])" + re.escape(model) + r"(?![\w]|[.-]\w)") if model else None
            anchored.append((claim, patterns, named))
    return anchored


def _values_in(text: str, cited: set, anchored) -> dict[tuple[int, str], list[str]]:
    """(column, number) -> the claims it is the value of, in a text that cites their source or names
    their model."""
    found: dict[tuple[int, str], list[str]] = {}
    for claim, patterns, named in anchored:
        if cited & set(claim.source) or (named and named.search(text)):
            for pattern in patterns:
                for match in pattern.finditer(text):
                    found.setdefault((column_of(match), match.group(0)), []).append(claim.id)
    return found


def claim_values_typed_bare(page, claims) -> list[Diagnostic]:
    """A claim's value typed as plain prose in a sentence about its source (the line cites the
    claim's source, or names the model of its setting): the reader gets the number without the label
    and setting the claim carries (review 30-z4 #1: "256 tokens" beside "DeepSeek-V3")."""
    anchored = _anchored(claims)
    problems = []
    for line in prose_lines(page):
        if line.block.startswith("misconception"):
            continue
        found = _values_in(line.text, set(CITED.findall(line.raw)), anchored)
        for (column, number), ids in sorted(found.items()):
            problems.append(
                Diagnostic(
                    SourceLocation(line.location.path, line.location.line, column),
                    "gate.claims.bare-value",
                    f"'{number}' is the value of claim {' or '.join(ids)}, typed bare beside its source",
                    "write {{claim:id}}, which shows the number with its label and setting",
                )
            )
    return problems


def claim_values_in_captions(book) -> list[Diagnostic]:
    """A claim's value typed in a figure's caption, which cites the figure's sources: a caption is
    plain text, so the number shows with no label or setting (a caption gave K3's 1,024–6,144 tokens
    that the prose gave as a claim)."""
    anchored = _anchored(book.claims)
    problems = []
    for figure_id, spec in sorted(book.figures.items()):
        for lang in book.languages:
            for (_column, number), ids in sorted(
                _values_in(spec.caption[lang], set(spec.sources), anchored).items()
            ):
                problems.append(
                    Diagnostic(
                        book.locate(f"figures:{figure_id}"),
                        "gate.claims.bare-value",
                        f"figure {figure_id}'s {lang} caption types '{number}', the value of claim "
                        f"{' or '.join(ids)}",
                        "say it in the prose with {{claim:id}} (a caption cannot show its label and "
                        "setting), or draw it in the figure as `numbers: {key: claim:<id>}`",
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
HIDDEN = re.compile(r'<span class="visually-hidden"')
ATTR = re.compile(r'\s(data-label|data-note)="([^"]*)"')


def example_labels(html: str, labels: dict[str, str]) -> tuple[int, int, list[str]]:
    """(numbers, labelled once for their block, problems) of one page: every worked-example number
    shows its label (`labels`: label key -> the words), or is quiet and names a note on the page
    that shows the same label: the note is its one label, for screen readers too (words hidden
    after each quiet number made the label heard once per number)."""
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
            elif HIDDEN.search(inside):
                problems.append(f"number {value} repeats to a screen reader the label its block's note gives")
        elif not re.search(r'<span class="badge badge-ex"[^>]*>' + re.escape(words) + "</span>", inside):
            problems.append(f"number {value} shows no label '{label}'")
    return numbers, quiet, problems


# a claim in the prose as render writes it (directives/evidence.py): alone, with its label, setting
# and citation; or a member of a group (render/evidence_blocks.py), each with its own label, whose
# last member carries the group's citation, and a setting shared by neighbours names them (data-for)
CLAIM_OPEN = re.compile(r'<span class="claim" ([^>]*)>')
CLAIM_END = re.compile(r'<span class="claim" |</(?:p|li|td|th|caption|h[1-6]|figcaption|dd|dt|div)>')
CLAIM_BADGE = re.compile(r'<span class="badge badge-claim[^"]*"[^>]*>[^<]+</span>')
CLAIM_SETTING = re.compile(r'<span class="claim-setting"([^>]*)>(?!</span>)')
CLAIM_ATTR = re.compile(r'(data-claim|data-group|data-for)="([^"]*)"')


def claim_labels(html: str) -> tuple[int, int, int, int, list[str]]:
    """(claims in the prose, of them written in a group, labels, settings, problems) of one page:
    every claim shows its label and its setting, or, a member of a group, its label and a setting
    of the group that names it (data-for) at or after it."""
    members: dict[str, list] = {}  # group -> [(claim id, labelled, ids its settings cover)]
    claims = grouped = labels = settings = 0
    problems = []
    for match in CLAIM_OPEN.finditer(html):
        claims += 1
        attrs = dict(CLAIM_ATTR.findall(match.group(1)))
        end = CLAIM_END.search(html, match.end())
        inside = html[match.end() : end.start() if end else len(html)]
        claim = attrs.get("data-claim", "?")
        labelled = CLAIM_BADGE.search(inside) is not None
        covered = set()
        for setting in CLAIM_SETTING.finditer(inside):
            settings += 1
            named = dict(CLAIM_ATTR.findall(setting.group(1))).get("data-for")
            covered |= set(named.split()) if named else {claim}
        labels += labelled
        if "data-group" in attrs:
            grouped += 1
            members.setdefault(attrs["data-group"], []).append((claim, labelled, covered))
            continue
        if not labelled:
            problems.append(f"claim '{claim}' shows no label")
        if claim not in covered:
            problems.append(f"claim '{claim}' shows no setting")
    for group, found in members.items():
        for index, (claim, labelled, _) in enumerate(found):
            if not labelled:
                problems.append(f"claim '{claim}' (group {group}) shows no label")
            if not any(claim in covered for _, _, covered in found[index:]):
                problems.append(
                    f"claim '{claim}' (group {group}) shows no setting, nor does a later claim of its group name it"
                )
    return claims, grouped, labels, settings, problems


def check_claims(ctx: GateContext) -> GateReport:
    problems: list[Diagnostic] = []
    claims = ctx.book.claims
    for claim in claims.values():
        where = ctx.book.locate(f"claims:{claim.id}")
        for lang in ctx.book.languages:
            for value in claim.values:
                shown = _format_value(value, claim.shown_digits)
                if shown not in claim.text[lang].replace(",", ""):
                    problems.append(
                        Diagnostic(
                            where,
                            "gate.claims.text-value",
                            f"claim '{claim.id}': text.{lang} does not show its value {shown}",
                        )
                    )
    rendered = in_groups = 0
    for path in ctx.output.html_pages():
        markup = ctx.html(path).claim_markup
        spans, labels, settings = (markup.get(name, 0) for name in CLAIM_CLASSES)
        rendered += spans
        prose: tuple[int, int, int, int, list[str]] = (0, 0, 0, 0, [])
        if spans:  # the claims in the prose, one by one (a group is labelled once)
            prose = claim_labels(ctx.output.text(path))
            in_groups += prose[1]
            problems += [
                Diagnostic(ctx.where(path), "gate.claims.unlabelled", f"{path}: {problem}")
                for problem in prose[4]
            ]
        # every other claim (a row of the numbers page, a figure's) carries its own label and setting
        spans, labels, settings = spans - prose[0], labels - prose[2], settings - prose[3]
        if labels != spans or settings != spans:
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
    recorded = [claim.model_dump(mode="json") for claim in ctx.book.claims.values()]  # the scan's input
    for parsed in ctx.parsed.values():
        bare += ctx.per_page("bare-numbers", parsed, lambda parsed=parsed: bare_numbers(parsed.page))
        bare += ctx.per_page(
            "bare-claim-values",
            parsed,
            lambda parsed=parsed: claim_values_typed_bare(parsed.page, ctx.book.claims),
            recorded,
        )
    bare += claim_values_in_captions(ctx.book)
    problems += bare
    used = {u.key for p in ctx.parsed.values() for u in p.uses_of("claim")}
    problems += _unused(ctx, "claims", set(ctx.book.claims) - _met(ctx, "claim"))
    problems += _unused(ctx, "examples", set(ctx.book.examples) - _met(ctx, "ex"))
    figures = (
        f"{len(claims)} claims, all with source and setting; {rendered} rendered with label "
        f"({in_groups} labelled once for a group of claims); "
        f"{len(used)} used in prose; {examples} worked-example numbers labelled ({quiet} once for their "
        f"paragraph or table); {len(bare)} bare numbers"
    )
    if not claims and not bare:
        return GateReport("settings", figures, problems, skipped="the book records no claims")
    return GateReport("settings", figures, problems)


def _met(ctx: GateContext, kind: str) -> set[str]:
    """The claims ("claim") or worked examples ("ex") a reader meets: in the prose, drawn by a
    figure (`numbers: {key: claim:<id>}` or `ex:<id>.<output>`), or cited by a lab's worked example."""
    met = {u.key.partition(".")[0] for p in ctx.parsed.values() for u in p.uses_of(kind)}
    for figure in ctx.book.figures.values():
        met |= {
            value.partition(":")[2].partition(".")[0]
            for value in (figure.numbers or {}).values()
            if isinstance(value, str) and value.startswith(f"{kind}:")
        }
    if kind == "ex":  # a lab contract's free-form worked_example names its examples
        for lab in ctx.book.labs.values():
            met |= set((getattr(lab, "worked_example", None) or {}).get("refs") or [])
    return met


def _unused(ctx: GateContext, ledger: str, ids: set[str]) -> list[Diagnostic]:
    """A claim or worked example no reader meets: published in the open data all the same, with no
    section to read it in (a warning: an entry recorded ahead of its prose is allowed)."""
    kind = "claim" if ledger == "claims" else "worked example"
    return [
        Diagnostic(
            ctx.book.locate(f"{ledger}:{entry}"),
            "gate.claims.unused",
            f"{kind} '{entry}' is used by no page, figure or lab",
            "use it where the text discusses it, or remove it from the ledger",
            severity="warning",
        )
        for entry in sorted(ids)
    ]
