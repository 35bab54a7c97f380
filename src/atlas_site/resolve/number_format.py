"""How the book writes a computed number: the labs' rule (labs_js/shared/format.js), in Python, so
prose, figures, open data and the check of a lab's output agree digit for digit."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal


def round_half_away(value: float, digits: int) -> Decimal:
    """The number as written (its shortest round-trip decimal, repr) rounded half away from zero:
    the rule labs_js/shared/format.js applies too (vectors: labs_js/tests/rounding-vectors.json)."""
    quantum = Decimal(1).scaleb(-digits)
    return Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)


def format_number(value, digits: int) -> str:
    """As the labs write numbers: half away from zero, thousands separated by commas as the seeds
    print them, a true minus sign (U+2212) and never "−0"; ∞ and — (not a number) as in the labs."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    value = float(value)
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    rounded = round_half_away(value, digits)
    text = f"{abs(rounded):,.{digits}f}"
    return "−" + text if rounded < 0 else text  # a Decimal -0.00 is not < 0: no sign on zero
