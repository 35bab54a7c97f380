"""Interface strings that hold dates: each date a <time> element a reader's tools can read."""

from __future__ import annotations

import re
from html import escape


def dated(template: str, day=None, **days) -> str:
    """An interface string with date placeholders ({date}, or the names given), each date as a
    <time> element and the rest escaped."""
    if day is not None:
        days["date"] = day
    parts = re.split(r"\{(\w+)\}", template)
    html = [escape(part) if i % 2 == 0 else _time(days[part]) for i, part in enumerate(parts)]
    return "".join(html)


def _time(day) -> str:
    return f'<time datetime="{day.isoformat()}">{day.isoformat()}</time>'
