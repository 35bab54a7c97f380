"""Evidence dates that must agree: a claim cannot have been checked against its sources later
than those sources were last read (sources/*.yaml `verified` / `accessed`)."""

from __future__ import annotations

from ..diagnostics import Collector


def check_claim_dates(claims, registry, where: dict, out: Collector) -> None:
    for claim in claims:
        entries = [registry.entry(number) for number in claim.source]
        if not entries or any(entry is None for entry in entries):
            continue  # an unknown source is reported by the reference check
        latest = max(entry.last_verified for entry in entries)
        if claim.verified > latest:
            out.error(
                where[f"claims:{claim.id}"],
                "claim.verified-after-source",
                f"claim '{claim.id}' is dated verified {claim.verified}, but its sources "
                f"({', '.join(claim.source)}) were last read on {latest}",
                "a claim is verified by reading its source: date it on or before that reading, or record the new reading in sources/",
            )
