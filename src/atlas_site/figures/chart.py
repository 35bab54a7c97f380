"""Axes for the figures' charts: a scale maps data to user units, ticks come from the data's
range (never typed), and tick labels are short language-neutral numbers (1, 10, 100, 1K, 32K).

The values plotted are computed at build time by the labs' own functions (figure ``series``,
see ``series.py``); this module only places them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_SI = ((1e9, "G"), (1e6, "M"), (1e3, "K"))
_BINARY = ((2**30, "G"), (2**20, "M"), (2**10, "K"))


@dataclass(frozen=True)
class Scale:
    """Data interval [lo, hi] onto user units [start, end] (end < start for a y axis)."""

    lo: float
    hi: float
    start: float
    end: float
    log: bool = False

    def _t(self, v: float) -> float:
        if self.log:
            v = max(v, self.lo * 1e-3)
            return (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        return (v - self.lo) / (self.hi - self.lo)

    def __call__(self, v: float) -> float:
        return round(self.start + (self.end - self.start) * self._t(float(v)), 2)

    def clamp(self, v: float) -> float:
        return min(max(float(v), self.lo), self.hi)

    def ticks(self, count: int = 5, step: float | None = None) -> list[float]:
        """Tick values inside [lo, hi]: powers of ten on a log axis, round steps on a linear one
        (or multiples of ``step``, e.g. 32768 for context lengths)."""
        if self.log:  # powers of ten; with fewer than three in range, their 2× and 5× as well
            first, last = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            steps = (1,) if last - first > 3 else (1, 2, 5)
            out = [m * 10.0**k for k in range(first, last + 1) for m in steps]
            return [v for v in out if self.lo * (1 - 1e-9) <= v <= self.hi * (1 + 1e-9)]
        step = step or nice_step((self.hi - self.lo) / max(1, count - 1))
        first = math.ceil(self.lo / step - 1e-9)
        out, k = [], first
        while k * step <= self.hi + 1e-9 * step:
            out.append(round(k * step, 10))
            k += 1
        return out


def nice_step(raw: float) -> float:
    """The round step (1, 2, 2.5 or 5 × 10^k) nearest above ``raw``."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw * 0.999:
            return m * power
    return 10 * power


def nice_top(value: float) -> float:
    """A round upper bound at or above ``value`` (for a linear axis that starts at 0)."""
    step = nice_step(value / 4)
    return math.ceil(value / step - 1e-9) * step


def decade_bounds(lo: float, hi: float) -> tuple[float, float]:
    """The powers of ten around [lo, hi] (for a log axis)."""
    return 10.0 ** math.floor(math.log10(lo) + 1e-9), 10.0 ** math.ceil(math.log10(hi) - 1e-9)


def number(v: float, style: str = "si", digits: int | None = None) -> str:
    """A tick or value label: 'si' 1 · 10 · 1K · 2.5M; 'binary' 32K = 32,768; 'pct' 0.8 -> 80%;
    'plain' with ``digits`` decimals. Language-neutral (units belong to the axis title)."""
    v = float(v)
    if style == "pct":
        return f"{v * 100:.{digits or 0}f}%"
    if style == "plain":
        return f"{v:,.{digits or 0}f}"
    table = _BINARY if style == "binary" else _SI
    for base, suffix in table:
        if abs(v) >= base:
            return _trim(v / base, digits) + suffix
    return _trim(v, digits)


def _trim(v: float, digits: int | None) -> str:
    if digits is not None:
        return f"{v:.{digits}f}"
    text = (
        (f"{v:.3g}" if abs(v) < 1 else f"{v:.2f}").rstrip("0").rstrip(".")
        if "." in f"{v:.2f}"
        else f"{v:.0f}"
    )
    return text if text not in ("", "-0") else "0"
