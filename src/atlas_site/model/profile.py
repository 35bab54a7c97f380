"""The book profile (`book.yaml`): what this book is, in which languages, its parts in reading
order, and the release rules each part must pass. Everything the engine would otherwise have to
know about one particular book lives here (or in the ledgers and the templates' strings)."""

from __future__ import annotations

import datetime
import re
from typing import Annotated

from pydantic import AfterValidator, Field, field_validator, model_validator

from .base import Frozen, Localized

SLUG = r"^[a-z0-9][a-z0-9-]*$"
# the form of an abbreviation the terms gate counts (gates/terms.py): two or more capitals, digits
# allowed (KV, FP8, W4A8KV4, MI350X)
ABBREVIATION_FORM = r"[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*"
DEGREE = re.compile(r"(?<=[A-Z])\d+$")  # TP4, EP32: a term's abbreviation with its degree
REGISTRY_KINDS = ("nodes", "references")  # the two kinds of numbered source the engine knows
GENERATED_PAGES = (
    "bibliography",
    "numbers",
    "glossary",
)  # the pages the engine can generate (`generated: NAME`)


class Language(Frozen):
    code: str = Field(pattern=r"^[a-z]{2,3}$")  # folder name under content/, key of every text
    html_lang: str = Field(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")  # BCP 47, e.g. zh-Hans
    name: str = Field(min_length=1)  # the language's own name, on the language switch
    # its name in each other language of the book, for sentences such as "the Chinese version of
    # this section was updated" (validate/profile.py checks that every other language is there)
    called: dict[str, str] = Field(default_factory=dict)
    # prose in this language may hold bidirectional controls (U+202A-U+202E, U+2066-U+2069): a
    # right-to-left language may need them; elsewhere they can make text display other than it
    # reads in the file ("Trojan source"), so each one is a warning
    bidi_controls: bool = False


class Registry(Frozen):
    """How the ledger numbers of one registry look to readers."""

    label: str = Field(min_length=1)  # format of the label, e.g. "N{number:02d}" or "{number}"
    title: Localized

    @field_validator("label")
    @classmethod
    def _formats_a_number(cls, value: str) -> str:
        try:
            value.format(number=7)
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"label must be a format with {{number}} (got {value!r}: {exc})") from exc
        return value

    def show(self, number: int) -> str:
        return self.label.format(number=number)


class About(Frozen):
    """What the home page says of the book, in each language: what it teaches and for whom (taken
    from the book's own openings, not a blurb)."""

    teaches: Localized
    readers: Localized


class Part(Frozen):
    """One part of the book in reading order: a chapter (one page), a series of pages with its own
    name, or a generated page (the bibliography). Rules are checked by validate.py against the
    engine's rule kinds; here they are kept as written."""

    chapter: str | None = Field(default=None, pattern=SLUG)
    series: str | None = Field(default=None, pattern=SLUG)
    generated: str | None = Field(default=None, pattern=SLUG)
    number: int | None = None  # a chapter's number, shown before its title
    split: bool = False  # a chapter published as one page per part file (render/split.py)
    title: Localized | None = None  # a series' own name (navigation, series list)
    pages: tuple[str, ...] = ()
    rules: tuple[dict, ...] = ()

    @model_validator(mode="after")
    def _one_kind(self):
        kinds = [k for k in ("chapter", "series", "generated") if getattr(self, k)]
        if len(kinds) != 1:
            raise ValueError("a part is exactly one of 'chapter: ID', 'series: ID' or 'generated: NAME'")
        if self.generated and self.generated not in GENERATED_PAGES:
            raise ValueError(
                f"unknown generated page '{self.generated}' (the engine generates {', '.join(GENERATED_PAGES)})"
            )
        if self.series and (not self.pages or self.title is None):
            raise ValueError("a series names its pages in reading order and has a title")
        if not self.series and self.pages:
            raise ValueError("only a series lists pages")
        if self.split and not self.chapter:
            raise ValueError("only a chapter is split (one page per part file)")
        bad = [p for p in self.pages if not re.match(SLUG, p)]
        if bad:
            raise ValueError(f"page ids are lowercase slugs (got {', '.join(bad)})")
        return self

    @property
    def id(self) -> str:
        return self.chapter or self.series or self.generated or ""

    @property
    def page_ids(self) -> tuple[str, ...]:
        return (self.chapter,) if self.chapter else self.pages


class TranslationPolicy(Frozen):
    """How translations are held in step (content/translations.lock, `atlas-site sync`)."""

    # how many days a section may stay behind its twin before `check --release` refuses it
    grace_days: int = Field(default=0, ge=0)


class ReviewIntervals(Frozen):
    """How many months after its last verification each kind of evidence must be verified again
    (`check --release --as-of DATE` fails on what is past due)."""

    claims: int = Field(ge=1)
    sources: int = Field(ge=1)
    rolling: int = Field(ge=1)  # sources marked `rolling: true`, and the claims that rest on one
    pages: int = Field(ge=1)


class Downloads(Frozen):
    """The print and e-book editions (`atlas-site export`): their file names and the author their
    metadata names. Files are `downloads/<basename>-<language code>.pdf` and `.epub`."""

    basename: str = Field(default="book", pattern=SLUG)
    author: Localized | None = None  # PDF Author and EPUB dc:creator; left out when not set

    def file_name(self, lang: str, extension: str) -> str:
        return f"{self.basename}-{lang}.{extension}"


class Edition(Frozen):
    """The edition being published: its number and its day. `check --release` judges evidence
    freshness and translation grace on this day unless --as-of names another, so a commit does
    not start failing because the calendar moved on (past-due evidence on today's date is a
    warning of a plain `check --as-of`)."""

    number: int = Field(ge=1)
    date: datetime.date


class Theme(Frozen):
    """What the book adds to the default theme: its own stylesheets (paths in its templates/
    folder, e.g. brand.css), shipped as assets/book.css and linked after the theme's on every page.
    A theme file itself is replaced by a file of the same name in the book's templates/."""

    css: tuple[str, ...] = ()

    @field_validator("css")
    @classmethod
    def _project_paths(cls, css):
        for path in css:
            parts = path.split("/")
            if not path.endswith(".css") or path.startswith("/") or ".." in parts or "" in parts:
                raise ValueError(
                    f"{path!r}: a stylesheet is a .css file named by its path in templates/ (brand.css)"
                )
        if len(set(css)) != len(css):
            raise ValueError("a stylesheet is listed twice")
        return css


def _an_abbreviation(token: str) -> str:
    if not re.fullmatch(ABBREVIATION_FORM, token):
        raise ValueError(
            f"{token!r} is not an abbreviation as the prose writes it: two or more capitals, digits "
            "allowed (PDF, MI350X)"
        )
    return token


class GlossaryPolicy(Frozen):
    """What the terms gate accepts without a glossary term (gates/terms.py). `common`: all-caps
    tokens a reader of this book knows without a definition, such as everyday computing
    abbreviations (PDF, JSON, URL) and vendor or product names (AMD, MI350X); every other
    abbreviation in the prose is a term of ledger/glossary.md or is written out."""

    common: tuple[Annotated[str, AfterValidator(_an_abbreviation)], ...] = ()

    @field_validator("common")
    @classmethod
    def _once_each(cls, common):
        twice = sorted({token for token in common if common.count(token) > 1})
        if twice:
            raise ValueError(f"listed twice: {', '.join(twice)}")
        return common


class BookProfile(Frozen):
    title: Localized
    short_title: Localized
    languages: tuple[Language, ...] = Field(min_length=1)
    site_url: str | None = Field(default=None, pattern=r"^https://[^\s]+/$")
    about: About | None = None  # the home page's text: what the book teaches and for whom
    sources: dict[str, Registry]
    evidence: dict[str, Localized] = Field(min_length=1)  # evidence classes of sources, with labels
    figure_kinds: dict[str, Localized] = Field(default_factory=dict)
    # how a work was published (works.bib `howpublished`, e.g. "blog article"), as each language's
    # bibliography says it; a value not listed is shown as written (arXiv ids, venue names)
    venues: dict[str, Localized] = Field(default_factory=dict)
    parts: tuple[Part, ...] = Field(min_length=1)
    rules: tuple[dict, ...] = ()  # book-wide rules
    translations: TranslationPolicy = TranslationPolicy()
    review_months: ReviewIntervals | None = None  # None: the book sets no review dates
    downloads: Downloads = Field(default_factory=Downloads)
    edition: Edition | None = None
    theme: Theme = Field(default_factory=Theme)
    glossary: GlossaryPolicy = Field(default_factory=GlossaryPolicy)  # what the terms gate accepts undefined

    @field_validator("languages")
    @classmethod
    def _unique_languages(cls, languages):
        codes = [lang.code for lang in languages]
        if len(set(codes)) != len(codes):
            raise ValueError(f"a language is listed twice: {', '.join(codes)}")
        return languages

    @field_validator("sources")
    @classmethod
    def _known_registries(cls, sources):
        unknown = sorted(set(sources) - set(REGISTRY_KINDS))
        if unknown:
            raise ValueError(
                f"unknown registry {', '.join(unknown)} (the engine knows {', '.join(REGISTRY_KINDS)})"
            )
        return sources

    @model_validator(mode="after")
    def _unique_parts(self):
        seen: dict[str, str] = {}
        for part in self.parts:
            for page in part.page_ids:
                if page in seen:
                    raise ValueError(f"page '{page}' is named by two parts ({seen[page]} and {part.id})")
                seen[page] = part.id
        return self

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)

    def language(self, code: str) -> Language:
        return next(lang for lang in self.languages if lang.code == code)

    def part_of(self, page_id: str) -> Part | None:
        return next((part for part in self.parts if page_id in part.page_ids), None)

    def generates(self, name: str) -> bool:
        """Does the book list the generated page `name` (bibliography, numbers, glossary)?"""
        return any(part.generated == name for part in self.parts)

    def reading_order(self) -> tuple[str, ...]:
        """Every page id the profile names, in reading order."""
        return tuple(page for part in self.parts for page in part.page_ids)
