"""Evidence freshness: every claim, source and published page carries the day it was last verified
(claims `verified`, nodes `verified`, references `accessed`, pages `last_verified`); book.yaml
`review_months` says how long each stays trusted. A source marked `rolling: true` (a living
document) is due at the shorter `rolling` interval, and so is a claim that rests on one.

What is due depends on a date, and a build never reads the clock: the date comes from
`--as-of DATE` (`check --release` without it takes today's date, see cli.py). Without a date the
schedule is still complete, ordered by due date, and nothing is judged."""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass

from .diagnostics import SourceLocation
from .model import Book, number_order


@dataclass(frozen=True)
class Review:
    kind: str  # claim | source | page
    name: str  # the claim id, the ledger number, lang/page
    verified: dt.date
    months: int
    rolling: bool  # reviewed at the rolling interval
    location: SourceLocation

    @property
    def due(self) -> dt.date:
        return add_months(self.verified, self.months)

    def overdue(self, as_of: dt.date | None) -> bool:
        return as_of is not None and as_of > self.due


def add_months(day: dt.date, months: int) -> dt.date:
    """The same day `months` later (the month's last day when it is shorter: 31 Jan + 1 = 28/29 Feb)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def review_schedule(book: Book) -> list[Review]:
    """Every dated piece of evidence with its next review, soonest first; [] when book.yaml sets no
    review_months."""
    intervals = book.profile.review_months
    if intervals is None:
        return []
    registry = book.registry
    reviews = []
    for claim in book.claims.values():
        entries = [registry.entry(n) for n in claim.source]
        rolling = any(entry is not None and entry.rolling for entry in entries)
        reviews.append(
            Review(
                "claim",
                claim.id,
                claim.verified,
                intervals.rolling if rolling else intervals.claims,
                rolling,
                book.locate(f"claims:{claim.id}"),
            )
        )
    for number in sorted(
        list(registry.nodes) + list(registry.references), key=lambda n: (n[0], number_order(n))
    ):
        entry = registry.entry(number)
        assert entry is not None  # the number comes from the registry itself
        reviews.append(
            Review(
                "source",
                number,
                entry.last_verified,
                intervals.rolling if entry.rolling else intervals.sources,
                entry.rolling,
                book.locate(number),
            )
        )
    for page in book.pages:
        if not page.draft and page.meta.last_verified is not None:
            reviews.append(
                Review(
                    "page",
                    f"{page.lang}/{page.id}",
                    page.meta.last_verified,
                    intervals.pages,
                    False,
                    page.origin,
                )
            )
    return sorted(reviews, key=lambda r: (r.due, r.kind, r.name))
