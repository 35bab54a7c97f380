"""book.yaml -> BookProfile and its rule instances. A rule the engine has no kind for, or whose
arguments do not fit its kind, is a located error: nothing in the profile is silently ignored."""

from __future__ import annotations

from pydantic import ValidationError

from ..diagnostics import Collector, SourceLocation, closest
from ..load.yaml_source import LocatedData
from ..model import BookProfile, Language
from ..rules import RULE_KINDS
from ..rules.base import PageArgs
from .schema import build_item, schema_problems


def validate_profile(data: LocatedData | None, out: Collector):
    """(profile, rule instances), or (None, []) when the profile cannot be read: without it the
    book has no languages, so nothing else can be checked (its problems come first and alone)."""
    if data is None:
        return None, []
    if not isinstance(data.data, dict):
        out.error(data.origin, "schema.invalid", "book.yaml must be a mapping (title, languages, parts, …)")
        return None, []
    languages = _languages(data, out)
    if languages is None:
        return None, []
    profile = build_item(out, BookProfile, data.data, data, (), languages)
    if profile is None:
        return None, []
    rules = []
    for index, item in enumerate(data.data.get("rules") or []):
        rules += _rule(item, data, ("rules", index), None, out, "book")
    for part_index, part in enumerate(profile.parts):
        for index, item in enumerate(part.rules):
            rules += _rule(item, data, ("parts", part_index, "rules", index), part, out, "part")
    return profile, rules


def _languages(data: LocatedData, out: Collector):
    raw = data.data.get("languages") if isinstance(data.data, dict) else None
    if not isinstance(raw, list) or not raw:
        out.error(
            data.at(("languages",)),
            "schema.invalid",
            "languages: a list of {code, html_lang, name}, one per language of the book",
        )
        return None
    built = []
    for index, item in enumerate(raw):
        language = build_item(out, Language, item, data, ("languages", index))
        if language is None:
            return None
        built.append(language)
    codes = tuple(language.code for language in built)
    for index, language in enumerate(built):
        _called(
            language,
            codes,
            data.at(("languages", index, "called") if "called" in raw[index] else ("languages", index)),
            out,
        )
    return codes


def _called(language: Language, codes: tuple, location: SourceLocation, out: Collector) -> None:
    """A language's name in every other language of the book: readers are told, in their own
    language, which language a section was updated in."""
    others = [code for code in codes if code != language.code]
    missing = [code for code in others if not language.called.get(code, "").strip()]
    unknown = sorted(set(language.called) - set(others))
    if missing:
        out.error(
            location,
            "schema.missing-key",
            f"language '{language.code}' needs its name in {', '.join(missing)}: "
            f"called: {{{', '.join(f'{code}: …' for code in others)}}}",
        )
    if unknown:
        out.error(
            location,
            "schema.invalid",
            f"languages.called of '{language.code}' names {', '.join(unknown)}, "
            f"which {'is its own code' if unknown == [language.code] else 'is not another language of the book'}",
        )


def _rule(item, data: LocatedData, path: tuple, part, out: Collector, scope: str) -> list:
    location = data.at(path)
    if not isinstance(item, dict) or len(item) != 1:
        out.error(
            location, "rule.shape", "a rule is one mapping `KIND: ARGUMENTS`, e.g. `- cites_all: nodes`"
        )
        return []
    ((name, args),) = item.items()
    kind = RULE_KINDS.get(name)
    if kind is None:
        out.error(
            location,
            "rule.unknown-kind",
            f"the engine has no rule kind '{name}'",
            closest(str(name), RULE_KINDS) or f"known kinds: {', '.join(sorted(RULE_KINDS))}",
        )
        return []
    if scope not in kind.scopes:
        out.error(
            location,
            "rule.scope",
            f"rule '{name}' applies to {' or '.join(kind.scopes)} rules, not {scope} rules",
        )
        return []
    try:
        parsed = kind.Args.model_validate(args)
    except ValidationError as error:
        schema_problems(out, error, data, path + (name,), kind.Args)
        return []
    instance = kind(parsed, part, location)
    page = getattr(parsed, "page", None)
    if part is not None and part.series and page is None and _needs_page(kind):
        out.error(location, "rule.page", f"rule '{name}' in series '{part.id}' must name its `page:`")
        return []
    if part is not None and page is not None and page not in part.page_ids:
        out.error(
            location,
            "rule.page",
            f"rule '{name}' names page '{page}', which is not in part '{part.id}'",
            closest(page, part.page_ids),
        )
        return []
    return [instance]


def _needs_page(kind) -> bool:
    return issubclass(kind.Args, PageArgs)


def rule_problems(rules, book, out: Collector) -> list:
    """Rule instances whose references do not exist in the book (an unknown figure, lab, term …)
    are refused at their line in book.yaml; the rest are returned."""
    usable = []
    for rule in rules:
        if rule.rests_on_broken_input(book):
            out.quiet()  # what it names sits in a file that failed to load: that cause is reported
            continue
        problems = rule.references(book)
        for message in problems:
            out.error(rule.location, "rule.reference", f"rule '{rule.name}': {message}")
        if not problems:
            usable.append(rule)
    return usable


def profile_location(data: LocatedData | None, path: tuple) -> SourceLocation:
    return data.at(path) if data is not None else SourceLocation("book.yaml")
