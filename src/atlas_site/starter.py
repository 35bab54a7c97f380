"""`atlas-site init DIR [--languages zh,en]`: the smallest book that builds and passes
`atlas-site check --browser` with the engine's default theme: book.yaml, one page per language
with one section, one source, one claim, one glossary term and a .gitignore. It has no
templates/ of its own. DIR must be empty or absent: nothing is ever overwritten.

The sample is a real work with a number its authors report (the Transformer paper's BLEU score),
so that the page shows every kind of evidence the engine checks; the page says how to replace it."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

import yaml

from .diagnostics import Diagnostic, SourceLocation
from .files import replace_file
from .theme import theme_file

# The one sample source: Vaswani et al., "Attention Is All You Need", NeurIPS 2017.
WORK_KEY = "vaswani-2017"
BIBTEX = """@inproceedings{vaswani-2017,
  title = {Attention Is All You Need},
  year = {2017},
  url = {https://arxiv.org/abs/1706.03762},
  howpublished = {NeurIPS 2017; arXiv:1706.03762}
}
"""

# Every text of the sample in each language the default theme has interface strings for.
TEXT = {
    "zh": {
        "name": "中文",
        "html_lang": "zh-Hans",
        "title": "我的书",
        "short": "我的书",
        "registry": "参考文献",
        "paper": "论文",
        "page_title": "从这里开始",
        "section": "第一节",
        "term": "机器翻译",
        "definition": "由程序把一种语言的文本译成另一种语言。",
        "claim": "英译德 BLEU 28.4",
        "setting": "Transformer（big）模型，WMT 2014 英译德 newstest2014 测试集，8 块 NVIDIA P100 GPU 训练 3.5 天。",
        "body": (
            "这一页示范一本书的每一页由什么组成。第一次出现的术语带着定义："
            "{{term:machine-translation}}。作者报告的数字写成一条主张，"
            "连同它的出处和实验设定一起记在 ledger/claims.md 里，正文只引用它："
            "Transformer 论文报告 {{claim:transformer-bleu}}。\n\n"
            "把这些示例换成你自己的：在 sources/ 里登记来源，在 ledger/ 里记下主张和术语，"
            "然后运行 `atlas-site check`，它会逐条指出还缺什么。\n"
        ),
    },
    "en": {
        "name": "English",
        "html_lang": "en",
        "title": "My book",
        "short": "My book",
        "registry": "references",
        "paper": "paper",
        "page_title": "Start here",
        "section": "A first section",
        "term": "machine translation",
        "definition": "Translating text from one language into another by a program.",
        "claim": "28.4 BLEU on English-to-German",
        "setting": "Transformer (big) model on WMT 2014 English-to-German (newstest2014), trained for 3.5 days on eight NVIDIA P100 GPUs.",
        "body": (
            "This page shows what every page of a book is made of. A term carries its definition "
            "where it first appears: {{term:machine-translation}}. A number that authors report is a "
            "claim, recorded once in ledger/claims.md with its source and the setting it was measured "
            "in, and the prose refers to it: the Transformer paper reports {{claim:transformer-bleu}}.\n\n"
            "Replace these samples with your own: register your sources in sources/, record claims "
            "and terms in ledger/, then run `atlas-site check`, which lists what is still missing, "
            "one line each.\n"
        ),
    },
}
NAMES_IN = {("zh", "en"): "英文", ("en", "zh"): "Chinese"}  # a language's name in another language
PAGE = "start"
GITIGNORE = "_site/\n.atlas-cache/\n.venv/\n__pycache__/\n"


def init_book(target: Path, languages: list[str], today: datetime.date) -> tuple[list[str], list[Diagnostic]]:
    """(files written, problems). Writes nothing when there is any problem; removes what it made
    when a write fails."""
    where = SourceLocation(str(target))
    problems = []
    known = sorted(TEXT)
    unknown = [lang for lang in languages if lang not in TEXT]
    if unknown or not languages or len(set(languages)) != len(languages):
        problems.append(
            Diagnostic(
                SourceLocation("--languages"),
                "init.languages",
                f"init writes a book in {', '.join(known)} (got {', '.join(languages) or 'none'})",
                "the default theme has interface strings for these; for another language, start with"
                " one of them and add templates/strings/<code>.yaml",
            )
        )
    missing_strings = [
        lang for lang in languages if lang in TEXT and theme_file(target, f"strings/{lang}.yaml") is None
    ]
    if missing_strings:
        problems.append(
            Diagnostic(
                SourceLocation("templates/strings"),
                "template.missing",
                f"the installed theme has no interface strings for {', '.join(missing_strings)}",
                "reinstall atlas-site (its wheel carries the default theme)",
            )
        )
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        problems.append(
            Diagnostic(
                where,
                "init.not-empty",
                f"{target} exists and is not an empty folder: init never overwrites",
                "choose a new folder name",
            )
        )
    if problems:
        return [], problems
    files = _files(languages, today)
    made_folder = not target.exists()
    written: list[str] = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            replace_file(target / name, text)
            written.append(name)
    except OSError as error:
        for name in written:
            (target / name).unlink(missing_ok=True)
        for folder in ("content", "ledger", "sources"):
            shutil.rmtree(target / folder, ignore_errors=True)
        if made_folder:
            shutil.rmtree(target, ignore_errors=True)
        return [], [
            Diagnostic(where, "init.write-failed", f"could not write the book: {error.strerror or error}")
        ]
    return written, []


def _localized(key: str, languages: list[str]) -> dict[str, str]:
    return {lang: TEXT[lang][key] for lang in languages}


def _dump(data) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def _files(languages: list[str], today: datetime.date) -> dict[str, str]:
    profile = {
        "title": _localized("title", languages),
        "short_title": _localized("short", languages),
        "languages": [
            {
                "code": lang,
                "html_lang": TEXT[lang]["html_lang"],
                "name": TEXT[lang]["name"],
                **(
                    {"called": {other: NAMES_IN[(lang, other)] for other in languages if other != lang}}
                    if len(languages) > 1
                    else {}
                ),
            }
            for lang in languages
        ],
        "sources": {"references": {"label": "{number}", "title": _localized("registry", languages)}},
        "evidence": {"paper": _localized("paper", languages)},
        # the metric, benchmark and hardware its claim names: known to its readers, never spelt out
        "glossary": {"common": ["BLEU", "GPU", "NVIDIA", "WMT"]},
        "parts": [{"chapter": PAGE, "number": 1}, {"generated": "bibliography"}],
    }
    claims = {
        "claims": [
            {
                "id": "transformer-bleu",
                "kind": "author-reported",
                "source": "r1",
                "value": 28.4,
                "unit": "BLEU",
                "text": _localized("claim", languages),
                "setting": _localized("setting", languages),
                "seed": "Vaswani et al. 2017, Table 2",
                "verified": today,
            }
        ]
    }
    glossary = {
        "terms": [
            {
                "id": "machine-translation",
                **_localized("term", languages),
                "definition": _localized("definition", languages),
            }
        ]
    }
    references = [
        {
            "ref": 1,
            "work": WORK_KEY,
            "title": "Attention Is All You Need",
            "url_status": "known",
            "accessed": today,
            "material_date": "2017-06-12",
            "evidence": "paper",
        }
    ]
    files = {
        "book.yaml": "# The book profile: its languages, parts in reading order and rules (CONTRIBUTING.md).\n"
        + _dump(profile),
        "ledger/claims.md": f"---\n{_dump(claims)}---\nEvery number the book reports from a source, once, with its setting.\n",
        "ledger/glossary.md": f"---\n{_dump(glossary)}---\nThe book's terms, each defined once in every language.\n",
        "sources/references.yaml": _dump(references),
        "sources/works.bib": BIBTEX,
        ".gitignore": GITIGNORE,
    }
    for lang in languages:
        text = TEXT[lang]
        front = _dump({"page": PAGE, "title": text["page_title"], "status": "draft", "last_verified": today})
        files[f"content/{lang}/{PAGE}/00-start.md"] = (
            f"---\n{front}---\n\n## {text['section']} {{#first}}\n\n{text['body']}"
        )
    return files
