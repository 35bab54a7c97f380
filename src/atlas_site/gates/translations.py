"""Gate: every section of every language is in step with its twins (content/translations.lock).
A section behind its twin, missing, or never declared in step is a warning while writing; under
`--release` it is an error, unless book.yaml `translations: {grace_days: N}` still covers a
change recorded on a known day."""
from __future__ import annotations

import datetime as dt

from ..diagnostics import Diagnostic, SourceLocation
from ..translations.lock import LOCK
from ..translations.sections import shown
from ..translations.state import MISSING, NEW, OUTDATED, UNSYNCED
from .context import GateContext
from .report import GateReport


def check_translations(ctx: GateContext, release: bool) -> GateReport:
    translations = ctx.translations
    if translations is None or len(ctx.book.languages) < 2:
        return GateReport("translations", "", skipped="the book has one language")
    severity = "error" if release else "warning"
    grace = ctx.book.profile.translations.grace_days
    problems: list[Diagnostic] = []
    if not translations.lock_exists:
        problems.append(Diagnostic(SourceLocation(LOCK), "translation.no-lock", f"no {LOCK}: no section has been declared in step yet",
                                   "once the languages say the same, run `atlas-site sync --all`", severity))
    for row in translations.rows:
        if row.state == OUTDATED:
            for change in row.changes:
                within = (release and grace and change.since is not None and ctx.as_of is not None
                          and (ctx.as_of - change.since).days <= grace)
                when = f" on {change.since}" if change.since else ""
                if within:
                    hint = f"within the {grace}-day grace period of book.yaml (until {change.since + dt.timedelta(days=grace)})"
                else:
                    hint = (f"bring it in step, then `atlas-site sync {row.name}`; if the {change.lang} edit needs no translation, "
                            f"`atlas-site sync --minor {change.at.path}`")
                    if change.since is None:
                        hint += f"; `atlas-site sync --status` records the day of the {change.lang} change"
                problems.append(Diagnostic(row.location, "translation.outdated",
                                           f"{row.lang} section {shown(row.section)} was brought in step with an earlier {change.lang} version "
                                           f"({change.lang} changed{when}: {change.at.path}:{change.at.line})",
                                           hint, "warning" if within else severity))
        elif row.state == MISSING:
            twin = row.twin
            problems.append(Diagnostic(twin.location, "translation.missing",
                                       f"{row.page}: section {shown(row.section)} is in {twin.lang} but has no {row.lang} translation yet",
                                       f"write it in content/{row.lang}/{row.page}/ with the same {{#{row.section}}}, then `atlas-site sync {row.name}`",
                                       severity))
        elif row.state == UNSYNCED and translations.lock_exists:
            problems.append(Diagnostic(row.location, "translation.unsynced",
                                       f"{row.lang} section {shown(row.section)} has never been declared in step with its twins",
                                       f"once the languages say the same, `atlas-site sync {row.name}`", severity))
    for record in translations.stale:
        problems.append(Diagnostic(SourceLocation(LOCK, record.line, 1), "translation.lock-stale",
                                   f"{record.page}#{shown(record.section)} {record.lang} is no longer a section of the book",
                                   "the next `atlas-site sync` drops the line", "warning"))
    counts = translations.counts()
    sections = len({(row.page, row.section) for row in translations.rows})
    figures = (f"{sections} sections × {len(ctx.book.languages)} languages: {counts.get('in step', 0)} in step, "
               f"{counts.get(OUTDATED, 0)} outdated, {counts.get(MISSING, 0)} missing, {counts.get(NEW, 0)} new, "
               f"{counts.get(UNSYNCED, 0)} not yet in step")
    if not translations.rows:
        return GateReport("translations", figures, problems, skipped="the book has no page in two languages")
    return GateReport("translations", figures, problems)

