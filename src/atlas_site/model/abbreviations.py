"""Abbreviations as the prose writes them: the tokens the terms gate counts (gates/terms.py) and
the map links to the glossary (directives/blocks.py dev-map), found by one pattern."""

from __future__ import annotations

import re

from .profile import ABBREVIATION_FORM, DEGREE

# ASCII neighbours only: in Chinese prose a CJK character may touch the token ("用MXFP4"); an English
# plural is the abbreviation's ("SLOs", "GPUs": review 30-u #11, three "SLOs" before SLO was spelt out)
# A count joined by a hyphen is no name, though: "2-CTA" is the token CTA (review 30-z5 #12: the
# hyphen hid it), "GPT-3-XL" stays part of a name.
_COUNT_BEFORE = r"(?<=(?<![A-Za-z0-9\-])\d-)|(?<=(?<![A-Za-z0-9\-])\d\d-)"
ABBREVIATION = re.compile(
    rf"(?:{_COUNT_BEFORE}|(?<![A-Za-z0-9_\-./]))({ABBREVIATION_FORM})s?(?![A-Za-z0-9_\-])"
)
# 20 GB, 1.5 GB, 几 GB: a number of its own, not the digits that end a name ("BF16 GEMM" is GEMM,
# which the map left unlinked and the terms gate unchecked: review 30-z12 #10)
AFTER_NUMBER = re.compile(r"(?:(?<![A-Za-z0-9_.,])\d[\d.,]*|[几数两十百千万])[\s\u00a0\u202f]*$")
# units of data, decimal (GiB and the other binary units are not all-caps), and of work (a roofline's
# axis reads "TFLOP/s" with no number before it): a unit wherever it stands
UNITS = frozenset({"KB", "MB", "GB", "TB", "PB", "EB", "GFLOP", "TFLOP", "PFLOP"})


def abbreviations(text: str, pattern: re.Pattern = ABBREVIATION):
    """(offset, token) of each abbreviation-like token in a run of prose."""
    for match in pattern.finditer(text):
        if match.group(1) not in UNITS and not AFTER_NUMBER.search(text[: match.start()]):
            yield match.start(), match.group(1)


def with_mixed_case(terms) -> re.Pattern:
    """ABBREVIATION, and the glossary's abbreviations written in mixed case (MoE, LoRA), which the
    all-caps form does not match (review 30-z9 #14: "sparse MoE routing" reached a part page bare)."""
    mixed = {t.abbr for t in terms if t.abbr and not _all_caps(t.abbr)}
    if not mixed:
        return ABBREVIATION
    words = "|".join(re.escape(abbr) for abbr in sorted(mixed, key=len, reverse=True))
    return re.compile(
        ABBREVIATION.pattern.replace(f"({ABBREVIATION_FORM})", f"({words}|{ABBREVIATION_FORM})")
    )


def _all_caps(abbr: str) -> bool:
    """Does the all-caps pattern read this abbreviation as itself? Not "FLOPs" (a count), which it
    reads as the plural of FLOP: the glossary's FLOPs went uncounted (review 30-z12 #9)."""
    match = ABBREVIATION.fullmatch(abbr)
    return match is not None and match.group(1) == abbr


def read_as(token: str) -> tuple[str, str]:
    """The abbreviations a token may stand for: itself (FP8, INT4: digits that are part of it), then
    without a degree (TP4 is TP at degree 4). Reading only the second missed every format ending in
    digits: FP8 was looked up as FP."""
    return token, DEGREE.sub("", token)


def by_abbreviation(terms) -> dict:
    """Abbreviation -> its glossary term: its `abbr`, and a name or alias that is itself an
    abbreviation (the term E2M1, KV as the KV cache's alias). Reading only `abbr` left those
    unlinked on the map and unchecked by the terms gate, though a glossary card was there for each
    (review 30-z12 #10: NIXL, EPP, E2M1, FP32 bare on tf-map; 30-z13 #8: KV never spelt out)."""
    named: dict = {}
    for term in terms:
        forms = [
            *term.names.values(),
            *(alias for aliases in term.aliases.values() for alias in aliases),
        ]
        for form in forms:
            if ABBREVIATION.fullmatch(form):
                named.setdefault(form, term)
    named.update((term.abbr, term) for term in terms if term.abbr)  # an abbr is its term's, first
    return named


def glossary_lookup(terms) -> tuple[dict, re.Pattern]:
    """(abbreviation -> term, the pattern that finds the glossary's abbreviations in a text)."""
    terms = list(terms)
    return by_abbreviation(terms), with_mixed_case(terms)


def term_named(token: str, by_abbreviation: dict):
    """The glossary term a token names (by_abbreviation: abbreviation -> term), or None."""
    return next((by_abbreviation[form] for form in read_as(token) if form in by_abbreviation), None)
