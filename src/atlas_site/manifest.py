"""What render tells the gates it made, page by page, beyond the parse index (resolve/pages.py):
each figure's number and drawn text, each lab's statements. Gates read this, not the HTML."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageRecord:
    figures: dict = field(default_factory=dict)  # figure id -> {"number": n, "drawn": text}
    labs: dict = field(default_factory=dict)  # lab id -> [statement ids]
    # [file, line, col] of each {{term:…}} rendered bare while the page had not yet said what the
    # term stands for (inside brackets or a hyphenated word, where no long name can follow)
    bare_terms: list = field(default_factory=list)
    # the terms a claim's setting spelt out where the page first met them (directives/evidence.py)
    setting_terms: list = field(default_factory=list)

    def merge(self, other: PageRecord) -> None:
        self.figures.update(other.figures)
        self.labs.update(other.labs)
        self.bare_terms.extend(other.bare_terms)
        self.setting_terms.extend(other.setting_terms)

    def dump(self) -> dict:
        return {
            "figures": self.figures,
            "labs": self.labs,
            "bare_terms": self.bare_terms,
            "setting_terms": self.setting_terms,
        }

    @classmethod
    def load(cls, data: dict) -> PageRecord:
        return cls(
            dict(data["figures"]),
            dict(data["labs"]),
            [list(at) for at in data["bare_terms"]],
            list(data.get("setting_terms", ())),
        )


@dataclass
class Manifest:
    pages: dict = field(default_factory=dict)  # (lang, page id) -> PageRecord

    def record(self, lang: str, page_id: str) -> PageRecord:
        return self.pages.setdefault((lang, page_id), PageRecord())

    def figure(self, lang: str, page_id: str, figure_id: str):
        """The figure as placed on that page (number, drawn text), or None."""
        entry = self.record(lang, page_id).figures.get(figure_id)
        return _Placed(entry["number"], entry["drawn"]) if entry else _Placed(0, "")

    def lab_statements(self, lang: str, page_id: str, lab_id: str):
        return self.record(lang, page_id).labs.get(lab_id)


@dataclass(frozen=True)
class _Placed:
    number: int
    drawn: str
