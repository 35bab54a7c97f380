"""Label wrapping for the figures (atlas_site.figures.text.wrap): arrows stay with their words."""

from __future__ import annotations

import pytest

from atlas_site.figures.text import text_width, wrap

ARROWS = set("→←↑↓")
LABELS = [
    "compute-bound →",
    "← memory-bound",
    "算力受限 →",
    "← 带宽受限",
    "request ↓",
    "↑ tokens back",
    "↑ token 返回",
    "时间 →",
    "DeepSeek V2 → V3 → V3.2 → V4: a matrix of the four layers",
    "None of these: launch and scheduling → wait less",
]


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("bold", [False, True])
def test_an_arrow_never_stands_alone_on_a_line(label, bold):
    full = text_width(label, 15, bold)
    for width in range(30, int(full) + 20, 3):
        lines = wrap(label, width, 15, bold)
        assert "".join(lines).replace(" ", "") == label.replace(" ", ""), (width, lines)
        alone = [line for line in lines if line.strip() in ARROWS]
        assert alone == [], f"{label!r} at {width}: {lines}"


def test_a_forward_arrow_ends_the_words_before_it_and_a_back_arrow_starts_the_words_after_it():
    # the roofline's regime labels at their width in en: 'compute-bound →' is just too wide
    assert wrap("compute-bound →", 150, 15, True) == ["compute-", "bound →"]
    assert wrap("compute-bound →", 120, 15, True)[-1].endswith("bound →")
    assert wrap("← memory-bound", 100, 15, True) == ["← memory-", "bound"]
    assert wrap("request ↓", 60, 15) == ["request ↓"]
    assert wrap("↑ tokens back", 80, 15) == ["↑ tokens", "back"]


def test_arrows_inside_a_sentence_keep_their_breaks():
    assert wrap("V2 → V3 → V3.2", 60, 15) == ["V2 →", "V3 →", "V3.2"]
    assert wrap("a ← b", 20, 15) == ["a", "← b"]


def test_a_chinese_label_never_ends_on_a_line_of_one_character():
    """Review 31-t #5: "个" stood alone on the last line of a label in figure 11."""
    label = "验证一次至少交付一个"
    width = text_width("验证一次至少交付一", 15) + 0.5  # greedy filling leaves "个" alone
    lines = wrap(label, width, 15)
    assert "".join(lines) == label and all(len(line) > 1 for line in lines), lines
    assert all(text_width(line, 15) <= width for line in lines)
    assert wrap("A label in English", 40, 15)[-1] != "", "Latin text is untouched"
