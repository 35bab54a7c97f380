"""templates/strings/<lang>.yaml -> the interface strings of each language. Every language of
the book has a file, and every file has every key the templates and the engine use."""

from __future__ import annotations

import re
from pathlib import Path

from ..diagnostics import Collector, SourceLocation
from ..theme import owner, theme_glob

TEMPLATE_CALL = re.compile(r"""\bt\(\s*['"]([A-Za-z0-9_.-]+)['"]\s*\)""")
# keys the engine itself looks up (directives, bibliography, layout); the templates' own are found in them
ENGINE_KEYS = (
    "author_reported",
    "benchmark_result",
    "report_parameter",
    "claim_more",
    "teaching_assumption",
    "analytic",
    "report_example",
    "setting_label",
    "figure",
    "yes",
    "no",
    "wrong",
    "label_colon",
    "card_close",
    "misconception_true",
    "node",
    "year",
    "source",
    "role",
    "open",
    "misconception",
    "note",
    "bibliography",
    "open_entry",
    "choose",
    "url_status.unresolved",
    "translation_updated",
    "translation_changed",
    "translation_read",
    "translation_dismiss",
    "verified_on",
    "scope_of",
    "rolling",
    "split_position",
    "split_contents",
    "split_parts",
    "split_part",
    "prev_part",
    "next_part",
    "split_here",
    "qcards_show",
    "qcards_hide",
    "cite_formatted",
    "cite_formatted_plain",
    "changes",
    "changes_description",
    "changed_in",
    "figure_ref",
    "numbers",
    "numbers_description",
    "glossary",
    "glossary_description",
    "bibliography_description",
    "not_found",
    "not_found_text",
    "enter",
    "open_glossary",
    "open_numbers",
    "caution_label",
    "labs.invalid.divides",  # a lab's own refusal of a combination of inputs (directives/blocks.py)
    "labs.invalid.not_above",
)


def theme_template_keys(root: Path, folder: str = "") -> set[str]:
    """The string keys the theme's templates in `folder` look up (the book's own file where it
    has one, the default theme's otherwise)."""
    from ..load.project import read_text

    keys = set()
    for path in theme_glob(root, folder or ".", "*.j2"):
        keys |= set(TEMPLATE_CALL.findall(read_text(path, owner(root, path), []) or ""))
    return keys


def validate_strings(raw, languages, out: Collector) -> dict[str, dict[str, str]]:
    needed = set(ENGINE_KEYS) | theme_template_keys(raw.root)
    strings = {}
    for lang in languages:
        data = raw.strings.get(lang)
        if data is None:
            out.error(
                SourceLocation(f"templates/strings/{lang}.yaml"),
                "strings.missing-file",
                f"no interface strings for language '{lang}' (book.yaml lists it)",
            )
            continue
        if not isinstance(data.data, dict) or not all(isinstance(v, str) and v for v in data.data.values()):
            out.error(
                data.origin,
                "strings.invalid",
                'interface strings are one `key: "text"` per line, every text non-empty',
            )
            continue
        table = {str(k): v for k, v in data.data.items()}
        missing = sorted(needed - set(table))
        if missing:
            out.error(
                data.origin,
                "strings.missing-key",
                f"templates/strings/{lang}.yaml lacks {', '.join(missing)}",
            )
        strings[lang] = table
    keys = {lang: set(table) for lang, table in strings.items()}
    union = set().union(*keys.values()) if keys else set()
    for lang, own in keys.items():
        extra = sorted(union - own - set(needed))
        if extra:
            out.error(
                raw.strings[lang].origin,
                "strings.missing-key",
                f"templates/strings/{lang}.yaml lacks {', '.join(extra)}, which another language has",
            )
    return strings
