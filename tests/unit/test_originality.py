"""Sentences do not carry over from the seeds: no long run of the seed's own text appears in the
prose (facts, numbers, names and URLs do; quoted formulas and titles are short). Skipped when the
research material is not beside the repository (it is in CI and on the developers' machines)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 24  # characters of identical CJK-bearing text that count as a copied sentence fragment


def normalise(text: str) -> str:
    text = re.sub(r"\{\{[^{}]*\}\}|\[@[^\]]*\]|\$[^$]*\$|`[^`]*`|\([^)]*\)", "", text)
    return re.sub(r"[\s，。、；：“”‘’（）《》！？,.;:()\"'·—–\-*#|>]+", "", text)


def shingles(text: str, size: int) -> set[str]:
    return {text[i : i + size] for i in range(0, max(0, len(text) - size + 1))}


@pytest.mark.skipif(not SEEDS.exists(), reason="the seeds are not beside the repository")
def test_no_long_run_of_seed_text_in_chinese_prose():
    seed = shingles(normalise("".join(p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt"))), RUN)
    copied = []
    for path in sorted((ROOT / "content" / "zh").rglob("*.md")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = normalise(line)
            hits = [s for s in shingles(text, RUN) if s in seed and re.search(r"[\u4e00-\u9fff]{8}", s)]
            if hits:
                copied.append(f"{path.relative_to(ROOT)}:{number}: {hits[0]}")
    assert copied == [], "\n".join(copied[:40])
