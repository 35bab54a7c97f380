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
    # review 31-w: a number keeps its unit ("带宽屋顶：1" | "TB/s × 强度")
    label = "带宽屋顶：1 TB/s × 强度"
    width = text_width("带宽屋顶：1 TB/s", 15) - 2
    assert all(not line.endswith("1") for line in wrap(label, width, 15)), wrap(label, width, 15)
    lines = wrap("可行区：每用户 ≥ 25 token/s", text_width("可行区：每用户 ≥", 15) + 1, 15)
    assert "≥" not in lines[0] and any(line.startswith("≥ 25 token/s") for line in lines), lines
    # review 31-v #2: a measure word keeps its numeral ("a = 0 时仍有 1" | "个")
    label = "a = 0 时仍有 1 个"
    width = text_width("a = 0 时仍有 1", 15) + 0.5
    assert wrap(label, width, 15) == ["a = 0 时仍有", "1 个"]


def test_a_chinese_line_breaks_where_no_word_is_cut_when_one_is_near():
    """Review 30-v #18: labels broke inside two-character words (最/大, 算/力). A break falling
    inside a Chinese run moves back to a space, a mark, a Latin run's edge or a joining word, at
    most four characters back; with none that near, it stays where greedy filling put it."""
    label = "M / BW 最大？"
    width = text_width("M / BW 最", 15) + 0.5  # greedy filling: "M / BW 最" | "大？"
    assert wrap(label, width, 15) == ["M / BW", "最大？"]
    label = "少搬、少存 · 小 batch decode 重读权重与 KV"
    width = text_width("少搬、少存 · 小 batch decode 重读权", 15) + 0.5
    assert wrap(label, width, 15)[0] == "少搬、少存 · 小 batch decode"
    long_run = "验证一次至少交付一个合格的输出"
    width = text_width("验证一次至少交付", 15) + 0.5  # no clean place within four characters
    lines = wrap(long_run, width, 15)
    assert "".join(lines) == long_run and lines[0] == "验证一次至少交付", lines
    for line in wrap("收益取决于批内真正共享前缀的请求有多少", 60, 15):
        assert text_width(line, 15) <= 60, line
