"""Gate: every section of every language is in step with its twins (content/translations.lock).
A section behind its twin, missing, or never declared in step is a warning while writing; under
`--release` it is an error, unless book.yaml `translations: {grace_days: N}` still covers a
change recorded on a known day."""

from __future__ import annotations

import datetime as dt

from ..diagnostics import Diagnostic, SourceLocation
from ..translations.lock import LOCK
from ..translations.sections import shown
from ..translations.state import IN_STEP, MISSING, NEW, OUTDATED, UNSYNCED
from .context import GateContext
from .report import GateReport


def check_translations(ctx: GateContext, release: bool) -> GateReport:
    translations = ctx.translations
    if translations is None or len(ctx.book.languages) < 2:
        return GateReport("translations", "", skipped="the book has one language")
    severity = "error" if release else "warning"
    problems: list[Diagnostic] = []
    if not translations.lock_exists:
        problems.append(
            Diagnostic(
                SourceLocation(LOCK),
                "translation.no-lock",
                f"no {LOCK}: no section has been declared in step yet",
                "once the languages say the same, run `atlas-site sync --all`",
                severity,
            )
        )
    for row in translations.rows:
        if row.state == OUTDATED:
            problems += [_outdated(ctx, row, change, release) for change in row.changes]
        elif row.state == MISSING:
            problems.append(
                Diagnostic(
                    row.twin.location,
                    "translation.missing",
                    f"{row.page}: section {shown(row.section)} is in {row.twin.lang} but has no {row.lang} translation yet",
                    f"write it in content/{row.lang}/{row.page}/ with the same {{#{row.section}}}, then `atlas-site sync {row.name}`",
                    severity,
                )
            )
        elif row.state == UNSYNCED and translations.lock_exists:  # without a lock, the one line above says it
            problems.append(
                Diagnostic(
                    row.location,
                    "translation.unsynced",
                    f"{row.lang} section {shown(row.section)} has never been declared in step with its twins",
                    f"once the languages say the same, `atlas-site sync {row.name}`",
                    severity,
                )
            )
    for record in translations.stale:
        problems.append(
            Diagnostic(
                SourceLocation(LOCK, record.line, 1),
                "translation.lock-stale",
                f"{record.page}#{shown(record.section)} {record.lang} is no longer a section of the book",
                "the next `atlas-site sync` drops the line",
                "warning",
            )
        )
    counts = translations.counts()
    sections = len({(row.page, row.section) for row in translations.rows})
    figures = (
        f"{sections} sections × {len(ctx.book.languages)} languages: {counts.get(IN_STEP, 0)} in step, "
        f"{counts.get(OUTDATED, 0)} outdated, {counts.get(MISSING, 0)} missing, {counts.get(NEW, 0)} new, "
        f"{counts.get(UNSYNCED, 0)} not yet in step"
    )
    if not translations.rows:
        return GateReport("translations", figures, problems, skipped="the book has no page in two languages")
    return GateReport("translations", figures, problems)


def _outdated(ctx: GateContext, row, change, release: bool) -> Diagnostic:
    """Behind one other language. A release tolerates it only while the grace period of book.yaml
    covers a change whose day `sync` recorded (an undated change has no grace to count from)."""
    grace = ctx.book.profile.translations.grace_days
    until = change.since + dt.timedelta(days=grace) if change.since is not None else None
    within = release and grace > 0 and until is not None and ctx.as_of is not None and ctx.as_of <= until
    if within:
        hint = f"within the {grace}-day grace period of book.yaml (until {until})"
    else:
        hint = (
            f"bring it in step, then `atlas-site sync {row.name}`; if the {change.lang} edit needs no translation, "
            f"`atlas-site sync --minor {change.at.path}`"
        )
        if change.since is None:
            hint += f"; `atlas-site sync --status` records the day of the {change.lang} change"
    when = f" on {change.since}" if change.since else ""
    return Diagnostic(
        row.location,
        "translation.outdated",
        f"{row.lang} section {shown(row.section)} was brought in step with an earlier {change.lang} version "
        f"({change.lang} changed{when}: {change.at.path}:{change.at.line})",
        hint,
        "warning" if within or not release else "error",
    )
