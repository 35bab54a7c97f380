"""Text measurement for figure layout: width estimates and line wrapping.

The figures are laid out before any browser sees them, so box sizes come from an
estimate of how wide a label will be. The estimate is deliberately generous: Latin
advance widths are the larger of DejaVu Sans and Liberation Sans (the wide fallback
fonts of a bare Linux browser), CJK and other wide characters count one em, and
the line box uses the tall Noto Sans CJK ascent and descent.

Labels may hold sub- and superscripts as ``H_{kv}`` and ``a^{k}``: they are measured at their
own size (never below ``MIN_SIZE``) and drawn lowered or raised by ``canvas.Canvas.text``.
"""

from __future__ import annotations

import re
import unicodedata

# Advance widths (em) of printable ASCII (space .. '~'): the larger of DejaVu Sans and
# Liberation Sans, regular and bold.
_ASCII = "".join(chr(c) for c in range(32, 127))
_REGULAR = (
    0.318,
    0.401,
    0.46,
    0.838,
    0.636,
    0.95,
    0.78,
    0.275,
    0.39,
    0.39,
    0.5,
    0.838,
    0.318,
    0.361,
    0.318,
    0.337,
    *([0.636] * 10),
    0.337,
    0.337,
    0.838,
    0.838,
    0.838,
    0.556,
    1.015,
    0.684,
    0.686,
    0.722,
    0.77,
    0.667,
    0.611,
    0.778,
    0.752,
    0.295,
    0.5,
    0.667,
    0.557,
    0.863,
    0.748,
    0.787,
    0.667,
    0.787,
    0.722,
    0.667,
    0.611,
    0.732,
    0.684,
    0.989,
    0.685,
    0.667,
    0.685,
    0.39,
    0.337,
    0.39,
    0.838,
    0.556,
    0.5,
    0.613,
    0.635,
    0.55,
    0.635,
    0.615,
    0.352,
    0.635,
    0.634,
    0.278,
    0.278,
    0.579,
    0.278,
    0.974,
    0.634,
    0.612,
    0.635,
    0.635,
    0.411,
    0.521,
    0.392,
    0.634,
    0.592,
    0.818,
    0.592,
    0.592,
    0.525,
    0.636,
    0.337,
    0.636,
    0.838,
)
_BOLD = (
    0.348,
    0.456,
    0.521,
    0.838,
    0.696,
    1.002,
    0.872,
    0.306,
    0.457,
    0.457,
    0.523,
    0.838,
    0.38,
    0.415,
    0.38,
    0.365,
    *([0.696] * 10),
    0.4,
    0.4,
    0.838,
    0.838,
    0.838,
    0.611,
    1.0,
    0.774,
    0.762,
    0.734,
    0.83,
    0.683,
    0.683,
    0.821,
    0.837,
    0.372,
    0.556,
    0.775,
    0.637,
    0.995,
    0.837,
    0.85,
    0.733,
    0.85,
    0.77,
    0.72,
    0.682,
    0.812,
    0.774,
    1.103,
    0.771,
    0.724,
    0.725,
    0.457,
    0.365,
    0.457,
    0.838,
    0.556,
    0.5,
    0.675,
    0.716,
    0.593,
    0.716,
    0.678,
    0.435,
    0.716,
    0.712,
    0.343,
    0.343,
    0.665,
    0.343,
    1.042,
    0.712,
    0.687,
    0.716,
    0.716,
    0.493,
    0.595,
    0.478,
    0.712,
    0.652,
    0.924,
    0.645,
    0.652,
    0.582,
    0.712,
    0.365,
    0.712,
    0.838,
)
_ASCII_EM = dict(zip(_ASCII, _REGULAR, strict=True))
_ASCII_BOLD_EM = dict(zip(_ASCII, _BOLD, strict=True))
_NARROW_EXTRA = {
    "·": 0.561,
    "–": 0.5,
    "—": 1.0,
    "’": 0.32,
    "‘": 0.32,
    "“": 0.52,
    "”": 0.52,
    "ᵢ": 0.3,
    "₋": 0.53,
    "₁": 0.44,
    "ₖ": 0.44,
}
BOLD_FACTOR = 1.15  # bold non-ASCII narrow characters run about this much wider
ASCENT_EM = 1.16  # Noto Sans CJK hhea ascent: the tallest line box in use
DESCENT_EM = 0.288
LINE_BOX_EM = ASCENT_EM + DESCENT_EM
LINE_GAP_EM = 1.3  # baseline-to-baseline distance inside one <text>
# Panels are 400 user units wide and shown at least 350 CSS px wide (a 390 px phone), so 15
# units never render below 13 CSS px; sub- and superscripts included.
MIN_SIZE = 15
SCRIPT_SCALE = 0.8  # a sub/superscript is this much of its line's size (floored at MIN_SIZE)
SCRIPT_SHIFT_EM = {"_": 0.3, "^": -0.4}  # baseline offset of a sub/superscript, in em of the line
_SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")

# Characters a line must not start with (CJK closing punctuation) or end with.
_NO_LINE_START = set("，。、；：！？）》」』】〉,.;:!?)]}%·")
_NO_LINE_END = set("（《「『【〈([{")
# Arrows never stand alone on a line: one pointing forward or down ends the words before it
# ("compute-bound →", "request ↓"), one pointing back starts the words after it ("← memory-bound");
# an up or down arrow that opens a label stays with what follows ("↑ tokens back").
_ARROW_AFTER = set("→↑↓")
_ARROW_BEFORE = set("←")


def runs(text: str) -> list[tuple[str, str]]:
    """Split a label into (mark, text) runs: mark '' for plain text, '_' or '^' for scripts."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _SCRIPT.finditer(text):
        if m.start() > at:
            out.append(("", text[at : m.start()]))
        out.append((m.group(1), m.group(2)))
        at = m.end()
    if at < len(text):
        out.append(("", text[at:]))
    return out


def plain(text: str) -> str:
    """The label as read aloud or searched: script markup removed."""
    return _SCRIPT.sub(lambda m: m.group(2), text)


def script_size(size: float) -> float:
    return max(MIN_SIZE, round(size * SCRIPT_SCALE, 2))


def char_em(ch: str, bold: bool = False) -> float:
    """Advance width of one character in em (an upper estimate)."""
    if ch in _ASCII_EM:
        return (_ASCII_BOLD_EM if bold else _ASCII_EM)[ch]
    if ch in _NARROW_EXTRA:
        return _NARROW_EXTRA[ch]
    if unicodedata.combining(ch):
        return 0.0
    return 1.0


def _plain_width(text: str, size: float, bold: bool) -> float:
    width = 0.0
    for ch in text:
        em = char_em(ch, bold)
        width += em * (BOLD_FACTOR if bold and em < 1.0 and ch not in _ASCII_EM else 1.0)
    return width * size


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated advance width of ``text`` at font size ``size`` (user units); scripts are
    measured at their own size."""
    return sum(_plain_width(chunk, script_size(size) if mark else size, bold) for mark, chunk in runs(text))


def line_gap(size: float) -> float:
    """Baseline-to-baseline distance for ``size``."""
    return round(LINE_GAP_EM * size, 2)


def block_height(lines: int, size: float) -> float:
    """Height of the rendered box of ``lines`` lines (first ascent to last descent)."""
    if lines <= 0:
        return 0.0
    return round((lines - 1) * line_gap(size) + LINE_BOX_EM * size, 2)


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _tokens(text: str) -> list[str]:
    """Split into break units: CJK characters one by one, Latin runs by word.

    Each token keeps its trailing space, so joining tokens restores the text.
    """
    tokens: list[str] = []
    word = ""
    depth = 0  # inside a _{...} or ^{...}: no break opportunity
    for ch in text:
        if depth or ch in "{}":
            depth += (ch == "{") - (ch == "}")
            word += ch
            continue
        if _is_wide(ch):
            if word:
                tokens.append(word)
                word = ""
            if tokens and ch in _NO_LINE_START:
                tokens[-1] += ch
            elif tokens and tokens[-1] and tokens[-1][-1] in _NO_LINE_END:
                tokens[-1] += ch
            else:
                tokens.append(ch)
        elif ch == " ":
            word += ch
            tokens.append(word)
            word = ""
        else:
            if word == "" and tokens and tokens[-1][-1:] in _NO_LINE_END:
                word = tokens.pop()  # an opening bracket stays with what follows
            elif word == "" and tokens and ch in _NO_LINE_START:
                tokens[-1] += ch  # closing punctuation stays with what precedes
                continue
            word += ch
            if ch in "/-" and len(word) > 1:
                tokens.append(word)  # a break opportunity after '/' or '-'
                word = ""
    if word:
        tokens.append(word)
    merged: list[str] = []
    for token in tokens:  # no break before a short tail: "TB/s", "TFLOP/s", "e-2"
        if merged and merged[-1][-1:] in "/-" and len(token.rstrip()) <= 3:
            merged[-1] += token
        elif merged and _NUMBER_TOKEN.fullmatch(merged[-1]) and _UNIT_START.match(token):
            merged[-1] += token  # a number keeps its unit: "1 TB/s", "8 ms", "1 个" (review 31-w)
        elif merged and _SIGN_TOKEN.fullmatch(merged[-1]) and token[:1].isdigit():
            merged[-1] += token  # a sign keeps its number: "≥ 25" (review 31-w: "≥" stood alone)
        else:
            merged.append(token)
    return _bind_arrows(merged)


_NUMBER_TOKEN = re.compile(r"(?:[≥≤<>=≈~] )?[\d.,]{1,8} ")  # a number (after its sign) and the space after it
_SIGN_TOKEN = re.compile(r"[≥≤<>=≈~] ")
# what a number's unit begins with: a letter, µ or %, or a Chinese character (a measure word)
_UNIT_START = re.compile(r"[A-Za-zµ%\u4e00-\u9fff]")


def _bind_arrows(tokens: list[str]) -> list[str]:
    """Join a free-standing arrow to its word: '→', '↑', '↓' to the word before it (or after it
    when it opens the label), '←' to the word after it (or before it when it closes the label).
    A token of bare spaces joins the token before it, so no break falls between a word and its
    arrow."""
    out: list[str] = []
    pending = ""  # an opening arrow (with its spaces) waiting for its word
    for token in tokens:
        core = token.strip()
        if not core:
            if pending:
                pending += token
            elif out:
                out[-1] += token
            else:
                pending = token
        elif core in _ARROW_BEFORE or (core in _ARROW_AFTER and not out):
            pending += token
        elif core in _ARROW_AFTER and not pending:
            out[-1] += token
        else:
            out.append(pending + token)
            pending = ""
    if pending:
        if out:
            out[-1] += pending
        else:
            out.append(pending)
    return out


def _split_long(token: str, width: float, size: float, bold: bool) -> list[str]:
    """Break a single token that is wider than a whole line at character level (never inside
    script markup)."""
    if _SCRIPT.search(token):
        return [token]
    words = re.findall(r"\S+\s*", token)
    if len(words) > 1 and (_NUMBER_TOKEN.match(token) or _SIGN_TOKEN.match(token)):
        # a number bound to its sign and unit, too wide together: at its spaces first
        parts, cur = [], ""
        for word in words:
            if cur and text_width((cur + word).rstrip(), size, bold) > width:
                parts.append(cur)
                cur = ""
            cur += word
        parts.append(cur)
        return (
            [piece for part in parts for piece in _split_long(part, width, size, bold)]
            if len(parts) > 1
            else parts
        )
    parts = []
    cur = ""
    for ch in token:
        if cur and text_width(cur + ch, size, bold) > width:
            parts.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return _bind_arrows(parts)  # a too-wide "bound →" still keeps its arrow


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Wrap ``text`` into lines no wider than ``width`` (estimate).

    A literal newline forces a break. Latin words break at spaces and, where a word
    is longer than a line, after '/', '-' or at any character as a last resort.
    """
    lines: list[str] = []
    for para in text.split("\n"):
        first = len(lines)
        cur = ""
        for token in _tokens(para):
            candidate = cur + token
            if text_width(candidate.rstrip(), size, bold) <= width or not cur.strip():
                if not cur.strip() and text_width(token.rstrip(), size, bold) > width:
                    pieces = _split_long(token, width, size, bold)
                    lines.extend(p.rstrip() for p in pieces[:-1])
                    cur = pieces[-1]
                else:
                    cur = candidate
            else:
                head, tail = _word_break(cur, token, width, size, bold)
                if tail:
                    lines.append(head.rstrip())
                    cur = tail + token
                    continue
                lines.append(cur.rstrip())
                if text_width(token.rstrip(), size, bold) > width:
                    pieces = _split_long(token, width, size, bold)
                    lines.extend(p.rstrip() for p in pieces[:-1])
                    cur = pieces[-1]
                else:
                    cur = token
        lines.append(cur.rstrip())
        _no_orphan(lines, first)
    return [line for line in lines if line] or [""]


# Chinese has no spaces, and a line may end between any two characters; but a line that ends inside
# a word (最/大, 算/力: review 30-v #18) reads badly. With no word list at hand, a break falling
# between two Chinese characters moves back, by at most WORD_BACK characters, to a place no word
# spans: a space, a punctuation mark, the edge of a Latin run, or after a joining word (的, 与 …).
WORD_BACK = 4
_JOINING = set("的与和或及并而")
_PUNCTUATION = _NO_LINE_START | set("·")


def _word_break(cur: str, token: str, width: float, size: float, bold: bool) -> tuple[str, str]:
    """(the line, what moves to the next) when `token`, starting a Chinese run that `cur` ends,
    does not fit: a break moved back to a place no word spans, when one is that near and the moved
    characters fit beside `token`; ("", "") to break where the greedy filling did."""
    if not (cur and token and _is_wide(cur[-1]) and _is_wide(token[0]) and token[0] not in _NO_LINE_START):
        return "", ""
    for back in range(1, WORD_BACK + 1):
        at = len(cur) - back
        if at <= 0:
            break
        before, after = cur[at - 1], cur[at]
        if not _is_wide(after) or after in _NO_LINE_START:
            break  # the run began here, or a mark that may not start a line
        clean = before == " " or before in _PUNCTUATION or before in _JOINING or not _is_wide(before)
        kept = cur[:at].strip()
        if clean and kept and not set(kept) <= _ARROW_AFTER | _ARROW_BEFORE | {" "}:  # never an arrow alone
            moved = cur[at:]
            if text_width((moved + token).rstrip(), size, bold) <= width:
                return cur[:at], moved
            break
    return "", ""


def _no_orphan(lines: list[str], first: int) -> None:
    """A paragraph's last line of one Chinese character takes the character before it along (review
    31-t #5: "个" stood alone on a line of figure 11); two characters fit wherever one did, and the
    line above only gets shorter. (A measure word after a numeral never stands alone: _tokens binds
    "1 个" as it binds "1 TB/s".)"""
    if len(lines) - first < 2:
        return
    last, above = lines[-1], lines[-2]
    if (
        len(last) == 1
        and _is_wide(last)
        and len(above) >= 3
        and _is_wide(above[-1])
        and above[-1] not in _NO_LINE_END
    ):
        lines[-2], lines[-1] = above[:-1], above[-1] + last
