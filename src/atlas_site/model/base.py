from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

LANGS = ("zh", "en")
NonEmpty = Field(min_length=1)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Bilingual(Frozen):
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def __getitem__(self, lang: str) -> str:
        return getattr(self, lang)
