"""One engine, any book: the second fixture book (tests/projects/workshop: English and German, other
chapter ids, a series with its own name, references numbered above 100, rules of five kinds)
builds, and breaking each of its rules gives the located error. The profile itself is validated
like every input."""

from __future__ import annotations

import shutil

import pytest

from atlas_site.build import assemble
from conftest import edit, make_project, run_cli


@pytest.fixture
def workshop(tmp_path):
    return make_project(tmp_path, "workshop")


def reports(result) -> dict:
    return {r.name: r for r in result.gate_reports}


def terms_problems(book) -> list[str]:
    """The terms gate's problems, as lines, for the book as it stands."""
    return [str(p) for p in reports(assemble(book))["terms"].problems]


def test_the_second_book_builds_with_every_rule_holding(workshop):
    result = run_cli("build", "--no-search", cwd=workshop)
    assert result.returncode == 0, result.stderr
    checked = assemble(workshop)
    lines = {r.name: r.line() for r in checked.gate_reports}
    assert (
        "4/4 rules hold" in lines["rules of caching"]
        and "every node cited 1/1 en, 1/1 de" in lines["rules of caching"]
    )
    assert (
        "2/2 rules hold" in lines["rules of workshop"]
        and "every reference cited 2/2 en, 2/2 de" in lines["rules of workshop"]
    )
    assert "1/1 rules hold" in lines["rules of the book"]
    assert lines["bilingual parity"].startswith("   pass  bilingual parity: 3 page pairs")


def test_languages_labels_and_series_come_from_the_profile(workshop):
    assert run_cli("build", "--no-search", cwd=workshop).returncode == 0
    site = workshop / "_site"
    german = (site / "de" / "ws-measure.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in german
    assert '<nav class="series" aria-label="Praxis-Workshop">' in german  # the series by its own name
    assert '<a href="../de/ws-setup.html">Praxis-Workshop</a>' in german
    assert 'data-cite="r101">R101</a>' in german  # a reference above 100, labelled as book.yaml says
    assert (
        '<a class="lang-switch" href="../en/ws-measure.html" hreflang="en" lang="en" data-lang-switch>English</a>'
        in german
    )
    chapter = (site / "en" / "caching.html").read_text(encoding="utf-8")
    assert '<span class="chapter-number">3</span> Caching' in chapter and 'data-cite="n07">S7</a>' in chapter
    assert not (site / "zh").exists()


# each break: (file, old, new, expected diagnostic) — the rule's own code, at the place to fix
BREAKS = [
    (
        "content/en/caching/00-caching.md",
        "## Pitfalls {#pitfalls}",
        "## Pitfalls {#traps}",
        "content/en/caching/00-caching.md:1:1: error[rule.sections]: en/caching: no section 'pitfalls' (rule at book.yaml:20:9)",
    ),
    (
        "content/de/caching/00-caching.md",
        "## Überblick {#overview}\n",
        "## Überblick {#overview}\n\n::: misconception stale-forever\nEin Eintrag gilt für immer? Nein.\n:::\n",
        "content/de/caching/00-caching.md:11:1: error[rule.block_in_section]: de: '::: misconception stale-forever' belongs in section pitfalls, not overview (rule at book.yaml:21:9)",
    ),
    (
        "content/en/caching/00-caching.md",
        "A cache keeps answers",
        "The hit rate of a cache keeps answers",
        "content/en/caching/00-caching.md:11:5: error[rule.terms_before_use]: en: 'hit rate' is mentioned before {{term:hit-rate}} defines it (rule at book.yaml:22:9)",
    ),
    (
        "content/de/caching/00-caching.md",
        " [@n07].",
        ".",
        "content/de/caching/00-caching.md:1:1: error[rule.cites_all]: de: 1 of 1 nodes not cited in the prose of caching: n07 (rule at book.yaml:23:9)",
    ),
    (
        "content/en/ws-setup/index.md",
        " [@r205].",
        ".",
        "content/en/ws-setup/index.md:1:1: error[rule.cites_all]: en: 1 of 2 references not cited in the prose of ws-setup, ws-measure: r205 (rule at book.yaml:28:9)",
    ),
    (
        "content/de/ws-measure/index.md",
        "## Das Ergebnis lesen {#reading}",
        "## Das Ergebnis lesen {#result}",
        "content/de/ws-measure/index.md:1:1: error[rule.sections]: de/ws-measure: no section 'reading' (rule at book.yaml:29:9)",
    ),
    (
        "book.yaml",
        "- counts: {nodes: 1, references: 2, misconceptions: 1}",
        "- counts: {nodes: 1, references: 3, misconceptions: 1}",
        "book.yaml:15:5: error[rule.counts]: 2 references, the book promises 3 (rule at book.yaml:15:5)",
    ),
]


@pytest.mark.parametrize(
    "path, old, new, expected",
    BREAKS,
    ids=[b[3].split("error[")[1].split("]")[0] + f"-{i}" for i, b in enumerate(BREAKS)],
)
def test_breaking_each_rule_gives_its_located_error(workshop, path, old, new, expected):
    edit(workshop / path, old, new)
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2, result.stdout
    lines = [line.strip() for line in (result.stdout + result.stderr).splitlines() if "error[" in line]
    assert any(line.startswith(expected) for line in lines), "\n".join(lines)


def test_deleting_a_chapter_the_profile_names_fails_the_build(workshop):
    for lang in ("en", "de"):
        shutil.rmtree(workshop / "content" / lang / "caching")
    result = run_cli("build", cwd=workshop)
    assert result.returncode == 2
    assert (
        "book.yaml:17:5: error[profile.missing-page]: book.yaml names page 'caching', but content/<lang>/caching/ "
        "does not exist"
    ) in result.stderr


def test_a_page_outside_the_profile_is_refused(workshop):
    for lang in ("en", "de"):
        shutil.copytree(workshop / "content" / lang / "ws-setup", workshop / "content" / lang / "extra")
        edit(workshop / "content" / lang / "extra" / "index.md", "page: ws-setup", "page: extra")
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    assert (
        "content/de/extra/index.md:1:1: error[profile.unlisted-page]: page 'extra' is not in any part of book.yaml"
        in result.stderr
    )


PROFILE_ERRORS = [
    (
        "      - cites_all: nodes",
        "      - cites_every: nodes",
        "book.yaml:23:9: error[rule.unknown-kind]: the engine has no rule kind 'cites_every' (hint: did you mean 'cites_all'?)",
    ),
    (
        "      - cites_all: nodes",
        "      - cites_all: studies",
        "book.yaml:23:9: error[schema.invalid]: registry: Input should be 'nodes' or 'references'",
    ),
    (
        "      - cites_all: nodes",
        "      - figure_in_section: {figure: nowhere, section: overview}",
        "book.yaml:23:9: error[rule.reference]: rule 'figure_in_section': names figure 'nowhere', which is not in the ledger",
    ),
    (
        "      - cites_all: references",
        "      - terms_before_use: [hit-rate]",
        "book.yaml:28:9: error[rule.page]: rule 'terms_before_use' in series 'workshop' must name its `page:`",
    ),
    (
        '  - {code: de, html_lang: de, name: "Deutsch", called: {en: "German"}}',
        '  - {code: de, html_lang: de, name: "Deutsch", called: {en: "German"}, script: latin}',
        "book.yaml:7:72: error[schema.unknown-key]: unknown key 'script' in Language",
    ),
    (
        ', called: {en: "German"}}',
        "}",
        "book.yaml:7:5: error[schema.missing-key]: language 'de' needs its name in en: called: {en: …}",
    ),
    (
        'called: {en: "German"}',
        'called: {en: "German", de: "Deutsch"}',
        "book.yaml:7:48: error[schema.invalid]: languages.called of 'de' names de, which is its own code",
    ),
    (
        "translations: {grace_days: 7}",
        "translations: {grace_days: -1}",
        "book.yaml:32:16: error[schema.invalid]: translations.grace_days: Input should be greater than or equal to 0",
    ),
    (
        "translations: {grace_days: 7}",
        "translations: {grace: 7}",
        "book.yaml:32:16: error[schema.unknown-key]: unknown key 'translations.grace' in BookProfile",
    ),
    (
        "rolling: 6, pages: 12}",
        "rolling: 6, page: 12}",
        "book.yaml:33:54: error[schema.unknown-key]: unknown key 'review_months.page' in BookProfile",
    ),
    (
        "review_months: {claims: 12,",
        "review_months: {claims: twelve,",
        "book.yaml:33:17: error[schema.invalid]: review_months.claims: Input should be a valid integer",
    ),
    (
        'title: {en: "Caching in practice", de: "Caching in der Praxis"}',
        'title: {en: "Caching in practice"}',
        "book.yaml:3:1: error[schema.invalid]: title: no text in de (the book's languages are en, de)",
    ),
]


@pytest.mark.parametrize(
    "old, new, expected",
    PROFILE_ERRORS,
    ids=[e[2].split("error[")[1].split("]")[0] + f"-{i}" for i, e in enumerate(PROFILE_ERRORS)],
)
def test_the_profile_is_validated_like_every_input(workshop, old, new, expected):
    edit(workshop / "book.yaml", old, new)
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    assert any(line.startswith(expected) for line in result.stderr.splitlines()), result.stderr


def test_a_language_needs_its_interface_strings(workshop):
    (workshop / "templates" / "strings" / "de.yaml").unlink()
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    assert (
        "templates/strings/de.yaml: error[strings.missing-file]: no interface strings for language 'de' (book.yaml lists it)"
        in result.stderr
    )


def test_new_chapter_scaffolds_every_language_and_the_profile(workshop):
    result = run_cli(
        "new", "chapter", "eviction", "--title", "en=Eviction", "--title", "de=Verdrängung", cwd=workshop
    )
    assert result.returncode == 0, result.stderr
    assert (
        (workshop / "content/de/eviction/00-eviction.md")
        .read_text(encoding="utf-8")
        .startswith('---\npage: eviction\ntitle: "Verdrängung"\nstatus: draft\n')
    )
    profile = (workshop / "book.yaml").read_text(encoding="utf-8")
    assert (
        "      - sections: {page: ws-measure, ids: [method, reading]}\n  - chapter: eviction\n    number: 4\n"
        "  - generated: bibliography"
    ) in profile
    check = run_cli("check", cwd=workshop)
    assert check.returncode == 0, check.stderr
    assert "not run: rules of eviction: book.yaml sets no rules for this part" in check.stdout
    release = run_cli("check", "--release", cwd=workshop)
    assert release.returncode == 2 and "en/eviction is still a draft" in release.stdout
    again = run_cli("new", "chapter", "eviction", "--title", "en=E", "--title", "de=V", cwd=workshop)
    assert again.returncode == 2 and "book.yaml already names a page 'eviction'" in again.stderr


def test_the_real_book_fails_without_a_chapter_it_names(mini):
    for lang in ("zh", "en"):
        shutil.rmtree(mini / "content" / lang / "ch14")
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    assert "book.yaml:16:5: error[profile.missing-page]: book.yaml names page 'ch14'" in result.stderr


def test_an_abbreviation_the_glossary_does_not_hold_is_a_warning_at_its_first_use(workshop):
    """Issue 30: CSA, HCA, W4A8KV4 … reached readers undefined; the terms gate names each all-caps
    token that is no term's abbreviation, name or alias, once per page, as a warning."""
    assert reports(assemble(workshop))["terms"].problems == [], (
        "the fixture's prose holds no undefined abbreviation"
    )
    page = "content/en/caching/00-caching.md"
    edit(
        workshop / page,
        "A cache keeps answers close to where they are asked for.",
        "A CDN cache keeps 20 GB of answers close to GPT-3 users; the CDN is fast.",
    )
    report = reports(assemble(workshop))["terms"]
    assert [str(p) for p in report.problems] == [
        f"{page}:11:3: warning[gate.terms.undefined-abbreviation]: en/caching: 'CDN' is not a glossary term "
        "(hint: add a term with abbr: CDN to ledger/glossary.md and define it with {{term:id}} at its first use, "
        "or write the words out; an everyday abbreviation or a product name goes in book.yaml glossary: common)"
    ], "once per page; a unit after a number and a hyphenated name are not counted"
    assert report.status == "warn" and not report.errors
    edit(workshop / "ledger/glossary.md", "    en: hit rate\n", "    en: hit rate\n    abbr: CDN\n")
    assert [p.code for p in reports(assemble(workshop))["terms"].problems] == [
        "gate.terms.unexplained-abbreviation"
    ], "a term's abbreviation is defined, but its first use here does not say what it stands for"
    edit(workshop / page, "A CDN cache", "A hit rate (CDN) cache")
    edit(workshop / page, "the CDN is fast.", "a CDN2 tier is fast.")
    assert reports(assemble(workshop))["terms"].problems == [], (
        "spelt out beside its first use; an abbreviation with its degree (TP4, EP32) is the term"
    )


def test_an_abbreviation_after_a_count_and_a_hyphen_is_still_an_abbreviation(workshop):
    """Review 30-z5 #12: "2-CTA" reached readers undefined, the hyphen read as part of a name (as in
    GPT-3); a count before the hyphen is no name."""
    page = "content/en/caching/00-caching.md"
    edit(
        workshop / page,
        "A cache keeps answers close to where they are asked for.",
        "A cache keeps answers close to GPT-3-XL users with 2-QPU lookups.",
    )
    problems = terms_problems(workshop)
    assert [p.split(": warning")[0] for p in problems] == [f"{page}:11:54"], problems
    assert "'QPU' is not a glossary term" in problems[0]


def test_an_abbreviation_says_what_it_stands_for_at_its_first_use_on_each_page(workshop):
    """Review 30-k #2: GEMM, SRAM, SP … were explained only in the <dfn>'s title, which a reader on
    a phone or on paper never sees. {{term:id}} adds the long name after the first abbreviation of
    a page (not when the prose brackets something there, nor inside brackets, where it waits for the
    next use); a bare first use is a warning of the terms gate, named at its file:line:col."""
    glossary = workshop / "ledger/glossary.md"
    edit(glossary, "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "The {{term:hit-rate}} decides", "(Its {{term:hit-rate}}) The {{term:hit-rate}} decides")
    edit(
        page,
        "A cache keeps answers close to where they are asked for.",
        "A cache keeps answers close to where they are asked for; its HR is what it saves.",
    )
    result = assemble(workshop)
    (problem,) = reports(result)["terms"].problems
    assert str(problem).startswith(
        "content/en/caching/00-caching.md:11:62: warning[gate.terms.unexplained-abbreviation]: en/caching: "
        "'HR' is first used on this page without what it stands for (hit rate)"
    ), str(problem)
    html = result.output.text("en/caching.html")
    expansion = '<span class="term-expansion"> (hit rate)</span>'
    assert html.count(expansion) == 1, "once per page"
    assert f">HR</a>{expansion} decides" in html, "inside brackets it waits for the next use"
    edit(page, "(Its {{term:hit-rate}}) The", "An {{term:hit-rate}}-driven cache. The")
    html = assemble(workshop).output.text("en/caching.html")
    assert ">HR</dfn>-driven" in html and f">HR</a>{expansion} decides" in html, (
        "inside a hyphenated word it waits for the next use (review 30-t D11: 'JIT (…)-compiled')"
    )
    edit(page, "its HR is what", "its {{term:hit-rate}} (what the next section counts) is what")
    result = assemble(workshop)
    assert reports(result)["terms"].problems == []
    html = result.output.text("en/caching.html")
    assert expansion not in html, "the prose brackets something right after it: no second bracket"
    assert '>HR</dfn><span class="term-expansion"> (Trefferquote)</span>' in result.output.text(
        "de/caching.html"
    ), "each language's own name, in its own brackets (templates/strings: term_expansion)"
    edit(
        workshop / "book.yaml",
        "downloads: {basename: caching-workshop}\n",
        "downloads: {basename: caching-workshop}\nglossary:\n  common: [HR]\n",
    )
    edit(page, "its {{term:hit-rate}} (what the next section counts) is what", "its HR is what")
    result = assemble(workshop)
    assert reports(result)["terms"].problems == [], "an everyday abbreviation (CPU, SSD) needs no long name"
    assert "term-expansion" not in result.output.text("en/caching.html")


def test_a_plural_abbreviation_is_the_abbreviation_to_the_terms_gate(workshop):
    """Review 30-u #11: "separate TTFT and TPOT SLOs" used SLO three times before it was spelt out,
    and the gate never saw it: an abbreviation followed by a letter was no abbreviation at all."""
    glossary = workshop / "ledger/glossary.md"
    edit(glossary, "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    page = workshop / "content/en/caching/00-caching.md"
    edit(
        page,
        "A cache keeps answers close to where they are asked for.",
        "A cache keeps answers close to where they are asked for; their HRs are what they save.",
    )
    (problem,) = reports(assemble(workshop))["terms"].problems
    assert "'HR' is first used on this page without what it stands for (hit rate)" in str(problem), str(
        problem
    )


def test_only_the_last_word_of_its_name_after_an_abbreviation_makes_the_phrase_its_name():
    """ "PD disaggregation" is prefill-decode disaggregation's short form, "prefill-decode" the rest of
    its name. "HBM bandwidth" is not high-bandwidth memory, though "bandwidth" is in the name (review
    30-m #2: HBM was never spelt out), nor "SRAM and", though "random" holds "and"."""
    from atlas_site.model.ledger import Term

    def term(abbr, zh, en):
        return Term.model_validate({"id": abbr.lower(), "zh": zh, "en": en, "abbr": abbr,
                                    "definition": {"zh": "释义", "en": "meaning"}})  # fmt: skip

    hbm = term("HBM", "高带宽显存", "high-bandwidth memory")
    assert hbm.rest_of_name("en", " bandwidth is how fast") is None
    assert hbm.rest_of_name("en", " memory holds the weights") == "high-bandwidth"
    assert hbm.rest_of_name("zh", " 带宽是翻查资料的速度") is None
    assert hbm.rest_of_name("zh", "显存里放着权重") == "高带宽"
    assert (
        term("SRAM", "静态随机存取存储器", "static random-access memory").rest_of_name("en", " and registers")
        is None
    )
    pd = term("PD", "预填充–解码分离", "prefill-decode disaggregation")
    assert pd.rest_of_name("en", " disaggregation moves prefill") == "prefill-decode"
    assert pd.rest_of_name("zh", " 分离") == "预填充–解码"


def test_a_token_book_yaml_lists_as_common_is_accepted_and_counted(workshop):
    """Everyday abbreviations (PDF, URL) and product names (AMD, MI350X) are no glossary terms:
    book.yaml `glossary: common` lists them, the terms gate accepts them and says how many uses it
    accepted; a token not listed is still reported, and a unit of data is a unit wherever it stands."""
    page = "content/en/caching/00-caching.md"
    edit(
        workshop / page,
        "A cache keeps answers close to where they are asked for.",
        "A cache keeps answers, as PDF or JSON, close to where the API is asked for them; "
        "the API counts decimal GB/s and the CDN sits in front.",
    )
    report = reports(assemble(workshop))["terms"]
    assert [p.message for p in report.problems] == [
        "en/caching: 'PDF' is not a glossary term",
        "en/caching: 'JSON' is not a glossary term",
        "en/caching: 'API' is not a glossary term",
        "en/caching: 'CDN' is not a glossary term",
    ], "nothing listed: every token is reported; GB named as a unit is not an abbreviation"
    assert "accepted as common" not in report.figures, "a book that lists nothing says nothing of it"
    edit(
        workshop / "book.yaml",
        "downloads: {basename: caching-workshop}\n",
        "downloads: {basename: caching-workshop}\nglossary:\n  common: [API, JSON, PDF, MI350X]\n",
    )
    report = reports(assemble(workshop))["terms"]
    assert [str(p).split(" (hint")[0] for p in report.problems] == [
        f"{page}:11:118: warning[gate.terms.undefined-abbreviation]: en/caching: 'CDN' is not a glossary term"
    ], "a listed token is accepted on every use; the unlisted CDN is still reported"
    assert report.status == "warn"
    assert report.figures == (
        "5 abbreviations in the prose, 4 accepted as common (4 listed in book.yaml), 1 not in the glossary, "
        "0 first used on a page without what they stand for"
    ), report.figures


@pytest.mark.parametrize(
    "glossary, expected",
    [
        (
            "glossary:\n  comon: [API]\n",
            "book.yaml:36:3: error[schema.unknown-key]: unknown key 'glossary.comon' in BookProfile "
            "(hint: did you mean 'common'?)",
        ),
        (
            "glossary:\n  common: [API, Api, api2]\n",
            "book.yaml:36:17: error[schema.invalid]: glossary.common.1: 'Api' is not an abbreviation as the "
            "prose writes it",
        ),
        (
            "glossary:\n  common: [API, PDF, API]\n",
            "book.yaml:36:3: error[schema.invalid]: glossary.common: listed twice: API",
        ),
    ],
    ids=["unknown-key", "not-an-abbreviation", "listed-twice"],
)
def test_the_common_list_of_book_yaml_is_validated_with_its_location(workshop, glossary, expected):
    edit(workshop / "book.yaml", "caching-workshop}\n", f"caching-workshop}}\n{glossary}")
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    assert any(line.startswith(expected) for line in result.stderr.splitlines()), result.stderr


@pytest.mark.parametrize(
    "line, column",
    [
        ("- a list item whose {{term:nope}} is unknown", 21),
        ("| table | cell with {{term:nope}} |\n|---|---|\n| a | b |", 21),
        ("> a quotation of {{term:nope}}", 18),
    ],
)
def test_a_problem_inside_a_list_table_or_quotation_is_located_on_its_source_line(workshop, line, column):
    """Review 30-k's migration found the terms gate pointing at column 1 of a table row: markdown-it
    hands on a list item's, a cell's or a quotation's text without its marker, and the column was
    counted from there. Every located problem in such a block names the source line's column."""
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "A cache keeps answers close to where they are asked for.", line)
    result = run_cli("check", cwd=workshop)
    assert result.returncode != 0
    assert f"content/en/caching/00-caching.md:11:{column}: error[term.unknown]" in result.stderr, (
        result.stderr
    )


def test_an_alias_beside_an_abbreviation_is_no_expansion(workshop):
    """Review 31-i's pass: 'producing the first token … most of TTFT' counted as explained, since
    "first token" is an alias of TTFT; only the long name says what an abbreviation stands for (the
    short form "HR rate": test_an_abbreviation_before_its_names_last_word_gets_the_rest_of_its_name)."""
    edit(
        workshop / "ledger/glossary.md",
        "    en: hit rate\n",
        "    en: hit rate\n    abbr: HR\n    aliases: {en: [hits]}\n",
    )
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "A cache keeps answers close to where they are asked for.", "Its hits make up its HR.")
    assert [p.code for p in reports(assemble(workshop))["terms"].problems] == [
        "gate.terms.unexplained-abbreviation"
    ]
    edit(page, "Its hits make up its HR.", "Its hits, or hit rate, make up its HR.")
    assert reports(assemble(workshop))["terms"].problems == []


def test_a_first_term_inside_other_brackets_is_named_and_one_beside_its_long_name_is_not(workshop):
    """Review 30-z9 #3: "(the {{term:slo|SLO}} control plane)" was a page's only definition of SLO;
    no long name can follow inside brackets, so the reader met it bare, and the gate, which counted
    any {{term:…}} as a definition, passed it. Now the gate names that use. "hit rate
    ({{term:…}})" says it already: no second bracket, no problem."""
    glossary = workshop / "ledger/glossary.md"
    edit(glossary, "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "The {{term:hit-rate}} decides", "(The {{term:hit-rate}} count) decides")
    result = assemble(workshop)
    problems = [str(p) for p in reports(result)["terms"].problems]
    assert len(problems) == 1 and "'HR' is first used on this page inside brackets" in problems[0], problems
    assert problems[0].startswith("content/en/caching/00-caching.md:"), problems[0]
    assert "term-expansion" not in result.output.text("en/caching.html")
    edit(page, "(The {{term:hit-rate}} count) decides", "The hit rate ({{term:hit-rate}}) decides")
    result = assemble(workshop)
    assert reports(result)["terms"].problems == []
    assert "term-expansion" not in result.output.text("en/caching.html"), "the prose said it just before"


def test_a_plural_label_of_an_abbreviation_is_spelt_out_at_its_first_use(workshop):
    """Review 30-z16 #5: "{{term:sm|SMs}}" was the quantization page's one definition of SM, and the
    reader met "SMs" bare: the renderer read the plural label as some other word than the
    abbreviation and wrote no long name after it."""
    edit(workshop / "ledger/glossary.md", "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "The {{term:hit-rate}} decides", "The {{term:hit-rate|HRs}} decide")
    html = assemble(workshop).output.text("en/caching.html")
    assert '>HRs</dfn><span class="term-expansion"> (hit rate)</span>' in html, html


def test_a_short_form_label_followed_by_its_long_name_is_not_spelt_out_twice(workshop):
    """Review 30-z19 #3: "{{term:pd-disaggregation|PD 分离}}（预填充–解码分离）" read "PD（预填充–解码）分离
    （预填充–解码分离）": the renderer looked for the long name in the label's own words only."""
    edit(workshop / "ledger/glossary.md", "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "The {{term:hit-rate}} decides", "The {{term:hit-rate|HR rate}} (the hit rate) decides")
    html = assemble(workshop).output.text("en/caching.html")
    assert "term-expansion" not in html and ">HR</dfn> rate (the hit rate) decides" in html, html


def test_a_word_that_only_ends_the_last_word_of_a_name_is_not_its_end():
    """Review 30-z25 #2: the map read "PD aggregation and disaggregation" as the end of "prefill–decode
    disaggregation" and wrote "PD (prefill–decode dis) aggregation"."""
    from atlas_site.model.ledger import Term

    term = Term.model_validate(
        {
            "id": "pd",
            "zh": "预填充–解码分离",
            "en": "prefill–decode disaggregation",
            "abbr": "PD",
            "definition": {"zh": "分开。", "en": "Apart."},
        }
    )
    assert term.rest_of_name("en", " aggregation and disaggregation") is None
    assert term.rest_of_name("en", " disaggregation") == "prefill–decode"
    assert term.rest_of_name("zh", "分离") == "预填充–解码"


def test_a_term_whose_name_is_an_abbreviation_is_glossed_at_its_first_use(workshop):
    """Review 30-z17 #3: CED and CSA2, terms named only by their abbreviation, reached the frontier
    page's readers with nothing said about them: a gloss was read only for a term with an `abbr`."""
    edit(
        workshop / "ledger/glossary.md",
        "    en: hit rate\n    de: Trefferquote\n",
        "    en: HR\n    de: HR\n    gloss: {en: a share of answered lookups, de: ein Anteil}\n",
    )
    html = assemble(workshop).output.text("en/caching.html")
    assert '>HR</dfn><span class="term-expansion"> (a share of answered lookups)</span>' in html, html


def test_a_term_whose_name_holds_its_abbreviation_is_glossed_at_its_first_use(workshop):
    """Reviews 30-z8..z11: MLA, KDA, CSA … have no long name (the name holds the abbreviation), so
    nothing was said about them where a page first used them. A term's `gloss` is written there as a
    long name would be, and the terms gate asks for it at a plain first use."""
    glossary = workshop / "ledger/glossary.md"
    edit(
        glossary,
        "    en: hit rate\n    de: Trefferquote\n",
        "    en: HR rate\n    de: HR-Quote\n    abbr: HR\n",
    )
    page = workshop / "content/en/caching/00-caching.md"
    edit(page, "The {{term:hit-rate}} decides", "The {{term:hit-rate|HR}} decides")
    html = assemble(workshop).output.text("en/caching.html")
    assert "term-expansion" not in html, "no gloss, no long name: nothing to add"
    edit(
        glossary,
        "    abbr: HR\n",
        '    abbr: HR\n    gloss: {en: "the share of lookups answered", de: "der Anteil beantworteter Anfragen"}\n',
    )
    result = assemble(workshop)
    assert '>HR</dfn><span class="term-expansion"> (the share of lookups answered)</span> decides' in (
        result.output.text("en/caching.html")
    )
    assert reports(result)["terms"].problems == []
    edit(page, "The {{term:hit-rate|HR}} decides", "The HR decides")
    (problem,) = terms_problems(workshop)
    assert "'HR' is first used on this page without what it stands for" in problem, problem


def test_an_abbreviation_ending_in_digits_is_its_own_term_not_a_degree(workshop):
    """FP8, INT4, BF16, FA3 … end in digits, which the degree rule (TP4 is TP at degree 4) stripped:
    the renderer never wrote their long name and the gate looked up "FP" and let every first use pass
    (32 bare first uses came to light when it stopped)."""
    edit(workshop / "ledger/glossary.md", "    en: hit rate\n", "    en: hit rate\n    abbr: HR2\n")
    page = workshop / "content/en/caching/00-caching.md"
    result = assemble(workshop)
    assert '>HR2</dfn><span class="term-expansion"> (hit rate)</span>' in result.output.text(
        "en/caching.html"
    )
    edit(
        page,
        "A cache keeps answers close to where they are asked for.",
        "A cache keeps answers close to where they are asked for; its HR2 is what it saves.",
    )
    (problem,) = terms_problems(workshop)
    assert "'HR2' is first used on this page without what it stands for" in problem, problem


def test_a_term_named_by_an_abbreviation_is_that_abbreviations_term(workshop):
    """Reviews 30-z12 #10, 30-z13 #8: a name or alias that is itself an abbreviation (the term
    E2M1, KV for the KV cache, FA for FlashAttention) was counted as known but never as its term,
    so its first use on a page was neither spelt out nor linked, and the map left it unlinked."""
    glossary = workshop / "ledger/glossary.md"
    page = workshop / "content/en/caching/00-caching.md"
    edit(glossary, "    de: Trefferquote\n", "    de: Trefferquote\n    aliases: {en: [HR], de: [HR]}\n")
    edit(page, "close to where they are asked for.", "close to where they are asked for; its HR decides.")
    (problem,) = terms_problems(workshop)
    assert "'HR' is first used on this page without what it stands for (hit rate)" in problem
    edit(glossary, "    en: hit rate\n", "    en: HRQ\n")  # a term whose only name is an abbreviation
    edit(page, "its HR decides", "its HRQ decides")
    (problem,) = terms_problems(workshop)
    assert "'HRQ' is first used on this page neither spelt out nor linked" in problem
    edit(page, "its HRQ decides", "its {{term:hit-rate}} decides")
    assert reports(assemble(workshop))["terms"].problems == []


def test_digits_that_end_a_name_are_no_number_before_an_abbreviation():
    """Review 30-z12 #10: "BF16 GEMM kernels" read as GEMM the unit of the number 16, so the map left
    GEMM unlinked and the terms gate never counted it (nor "P99 ITL"'s ITL)."""
    from atlas_site.model.abbreviations import abbreviations

    assert [token for _, token in abbreviations("BF16 GEMM kernels, P99 ITL")] == ["BF16", "GEMM", "ITL"]
    assert [token for _, token in abbreviations("8 GPUs, 1.5 TFLOPS, 1,024 KVB, 几 TPU")] == []


def test_an_abbreviation_ending_in_a_small_s_is_read_whole():
    """Review 30-z12 #9: the glossary's FLOPs (a count, beside FLOPS, a rate) was read as the
    plural of FLOP, so no first use of it was ever counted."""
    from types import SimpleNamespace

    from atlas_site.model.abbreviations import abbreviations, with_mixed_case

    pattern = with_mixed_case([SimpleNamespace(abbr="FLOPs"), SimpleNamespace(abbr="FLOPS")])
    assert [t for _, t in abbreviations("fewer FLOPs, peak FLOPS, two GPUs", pattern)] == [
        "FLOPs",
        "FLOPS",
        "GPU",
    ]


def test_an_abbreviation_before_its_names_last_word_gets_the_rest_of_its_name(workshop):
    """Reviews 30-z13 #9, 30-z15 #4: "PD disaggregation" counted as naming prefill–decode
    disaggregation, so no page ever said what P and D were. The first use writes the rest of the name
    between ("PD (prefill–decode) disaggregation"), and the gate asks a plain first use for it."""
    glossary = workshop / "ledger/glossary.md"
    page = workshop / "content/en/caching/00-caching.md"
    edit(glossary, "    en: hit rate\n", "    en: hit rate\n    abbr: HR\n")
    edit(page, "The {{term:hit-rate}} decides", "The {{term:hit-rate|HR rate}} decides")
    result = assemble(workshop)
    assert '>HR</dfn><span class="term-expansion"> (hit)</span> rate decides' in result.output.text(
        "en/caching.html"
    )
    assert reports(result)["terms"].problems == []
    edit(page, "The {{term:hit-rate|HR rate}} decides", "The HR rate decides")
    (problem,) = terms_problems(workshop)
    assert "'HR' is first used on this page without what it stands for" in problem, problem
