"""The rules of a figure spec that its schema cannot say: they belong to the model (a spec that
breaks them does not load), and figures/ draws what passes them."""

from __future__ import annotations

import re
from collections.abc import Mapping

PLACEHOLDER = re.compile(r"(?<![_^])\{([A-Za-z0-9_]+)\}")  # not a _{sub} or ^{sup}
REFERENCE = re.compile(
    r"^(ex:[a-z0-9-]+(\.[a-z0-9_]+)?|claim:[a-z0-9-]+|assume:[a-z0-9_]+|series:[a-z0-9_]+\.[a-z0-9_]+)$"
)


def spec_problems(spec: Mapping, kinds, languages) -> list[str]:
    """Structural problems of one raw figure spec (empty when it is well formed), given the book's
    figure kinds (None: not checked here) and languages."""
    KINDS, LANGS = kinds, tuple(languages)
    fig = spec.get("id", "?")
    out: list[str] = []
    if not re.fullmatch(r"[a-z0-9-]+", str(fig)):
        out.append(f"figure '{fig}': bad id")
    if KINDS is not None and spec.get("kind") not in KINDS:
        out.append(f"figure '{fig}': kind must be one of {sorted(KINDS)}")
    for field in ("title", "desc", "caption"):
        if set(spec.get(field) or {}) != set(LANGS):
            out.append(f"figure '{fig}': {field} needs exactly {', '.join(LANGS)}")
    sources = spec.get("sources")
    if not isinstance(sources, list) or not all(re.fullmatch(r"n\d{2,}|r[1-9]\d*", str(s)) for s in sources):
        out.append(f"figure '{fig}': sources must be a list of ledger numbers")
    numbers = spec.get("numbers") or {}
    assume = spec.get("assume") or {}
    if not isinstance(assume, Mapping) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in assume.values()
    ):
        out.append(f"figure '{fig}': assume must map names to numbers")
        assume = {}
    for key, ref in numbers.items():
        if not REFERENCE.match(str(ref)):
            out.append(f"figure '{fig}': number '{key}' has a bad reference {ref!r}")
        elif str(ref).startswith("assume:") and str(ref)[7:] not in assume:
            out.append(f"figure '{fig}': number '{key}' names no assume entry {ref!r}")
    for key, entry in (spec.get("labels") or {}).items():
        if not isinstance(entry, Mapping) or set(entry) != set(LANGS):
            out.append(f"figure '{fig}': label '{key}' needs exactly {', '.join(LANGS)}")
            continue
        used = [set(PLACEHOLDER.findall(str(entry[lang]))) for lang in LANGS]
        if any(u != used[0] for u in used):
            out.append(f"figure '{fig}': label '{key}' uses different numbers in {', '.join(LANGS)}")
        for name in set().union(*used):
            if name not in numbers:
                out.append(f"figure '{fig}': label '{key}' uses unknown number '{name}'")
    labels = spec.get("labels") or {}
    shown = {
        name
        for entry in labels.values()
        if isinstance(entry, Mapping)
        for text in entry.values()
        for name in PLACEHOLDER.findall(str(text))
    }
    for key in sorted(set(numbers) - shown):
        out.append(f"figure '{fig}': number '{key}' is shown by no label (a label shows it as {{{key}}})")
    return out
