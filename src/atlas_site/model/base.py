"""Building blocks of every record: frozen models and text in each of the book's languages."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, RootModel, ValidationInfo, model_validator


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


def book_languages(info: ValidationInfo | None) -> tuple[str, ...] | None:
    """The book's language codes, handed to validation as context by validate.py (None in
    isolated unit tests, where any non-empty set of languages is accepted)."""
    context = info.context if info is not None else None
    return tuple(context["languages"]) if context and "languages" in context else None


class Localized(RootModel[dict[str, str]]):
    """One text per language of the book: `{zh: "…", en: "…"}`. Validation refuses a missing,
    empty or unknown language, so a record can never show one language and not the other."""

    model_config = ConfigDict(frozen=True)

    @model_validator(mode="after")
    def _every_language(self, info: ValidationInfo):
        texts = self.root
        if not texts:
            raise ValueError("needs a text in each language")
        empty = sorted(lang for lang, text in texts.items() if not isinstance(text, str) or not text.strip())
        if empty:
            raise ValueError(f"empty text for {', '.join(empty)}")
        languages = book_languages(info)
        if languages is not None:
            missing = [lang for lang in languages if lang not in texts]
            unknown = sorted(set(texts) - set(languages))
            if missing:
                raise ValueError(
                    f"no text in {', '.join(missing)} (the book's languages are {', '.join(languages)})"
                )
            if unknown:
                raise ValueError(
                    f"unknown language {', '.join(unknown)} (the book's languages are {', '.join(languages)})"
                )
        return self

    def __getitem__(self, lang: str) -> str:
        return self.root[lang]

    def values(self):
        return self.root.values()

    def get(self, lang: str, default: str | None = None) -> str | None:
        return self.root.get(lang, default)

    def languages(self) -> tuple[str, ...]:
        return tuple(self.root)


def split_language_keys(data, fields) -> dict:
    """Records such as a claim's setting or a glossary term write their per-language text next to
    their other keys (`{metric: …, zh: …, en: …}`). Every key that is not a field of the model is
    read as a language and moved into `text`; Localized then checks it against the book."""
    if not isinstance(data, dict) or "text" in data:
        return data
    own = {key: value for key, value in data.items() if key in fields}
    texts = {key: value for key, value in data.items() if key not in fields}
    return {**own, "text": texts}
