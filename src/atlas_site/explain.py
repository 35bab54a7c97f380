"""`atlas-site check --explain CODE`: what each diagnostic's rule is and how to fix it."""
from __future__ import annotations

from .diagnostics import closest

# code -> (the rule, how to fix it)
RULES: dict[str, tuple[str, str]] = {
    "yaml.syntax": ("YAML (front matter or sources/*.yaml) must parse.", "Fix the indentation or quoting at the line shown; quote strings that contain ': ' or start with '[', '{', '*', '&'."),
    "yaml.duplicate-key": ("A YAML mapping may not repeat a key.", "Keep one of the two keys; the line shown is the second one."),
    "yaml.value": ("A YAML value must be plain data.", "Remove tags (!!python/...) and quote dates you mean as text."),
    "frontmatter.unclosed": ("Front matter starts and ends with a line of '---'.", "Add the closing '---' line after the YAML."),
    "file.encoding": ("Every input file is UTF-8.", "Re-save the file as UTF-8."),
    "bib.syntax": ("sources/*.bib must parse as BibTeX.", "Check braces and commas of the entry that starts at the line shown."),
    "bib.duplicate-key": ("One BibTeX key per work.", "Rename or merge the second entry."),
    "bib.unknown-field": ("Works carry only title, year, url, howpublished.", "Remove the field, or move ledger metadata to sources/nodes.yaml / references.yaml."),
    "bib.invalid": ("A work needs a valid key, type and title; its URL is https.", "Fix the field named in the message."),
    "source.duplicate-work": ("One entry per distinct work, keyed by canonical URL: an abstract page, full text, model card and engineering doc of one work are not independent evidence.", "Delete the second entry and point its ledger numbers (nodes.yaml / references.yaml 'work:') at the first."),
    "source.unknown-work": ("Every node and reference names a work of sources/*.bib.", "Use the key of an existing entry (see the hint) or add the work."),
    "source.duplicate-number": ("Each ledger number (n27, r64 …) appears once in its registry.", "Remove the duplicate item."),
    "source.unknown-evidence": ("A source entry's evidence class is one of book.yaml `evidence`.", "Use a declared class, or declare the new class with its label in each language."),
    "source.undeclared": ("A registry file with entries is declared in book.yaml `sources` (how its numbers look to readers).", "Add `sources: {nodes|references: {label: …, title: …}}` to book.yaml."),
    "source.missing-file": ("Each registry book.yaml declares has its file (sources/nodes.yaml, sources/references.yaml).", "Restore the file, or remove the registry from book.yaml `sources`."),
    "source.unknown-file": ("sources/ holds works.bib, nodes.yaml and references.yaml only.", "Move or delete the extra file."),
    "source.missing-url": ("A reference whose URL was resolved needs a work with a URL.", "Add the URL to the work, or set url_status: unresolved."),
    "source.unresolved-with-url": ("An unresolved reference has no URL: never guess one.", "Remove the URL or record how it was resolved (url_status)."),
    "schema.unknown-key": ("Ledger records accept only their documented keys (extra keys are refused so typos surface).", "Rename the key as hinted, or see CONTRIBUTING.md for the schema."),
    "schema.missing-key": ("A required key is missing (e.g. a claim's setting).", "Add the key named in the message."),
    "schema.invalid": ("A value has the wrong type or form.", "Follow the message; see CONTRIBUTING.md for the schema."),
    "ledger.no-front-matter": ("A ledger file keeps its records in YAML front matter.", "Put the records between '---' lines at the top."),
    "ledger.unknown-collection": ("A ledger's front matter holds known collections only (claims, examples, questions, misconceptions, open_questions, waves, lineages, terms, leads, figures, labs, routes, map_nodes, strings).", "Rename the top-level key as hinted."),
    "ledger.duplicate-id": ("Ids are unique within a collection, across all ledger files.", "Rename or merge the second record."),
    "page.no-front-matter": ("The first part file of a page carries its front matter (page, title, status).", "Add front matter to the first file in file-name order."),
    "page.part-front-matter": ("Only the first part file of a page has front matter.", "Remove the front matter from this part."),
    "page.id-mismatch": ("A page's id equals its folder name.", "Rename the folder or the 'page:' value."),
    "page.missing-translation": ("Every page exists in every language of book.yaml.", "Add the twin folder under content/<lang>/ with the same page id."),
    "page.unknown-language": ("content/ holds one folder per language of book.yaml.", "Move the folder, or add the language to book.yaml (with its templates/strings/<lang>.yaml)."),
    "page.reserved-id": ("A content page may not take the path of a generated page (bibliography, index, dashboard).", "Choose another page id."),
    "profile.missing": ("The project root has book.yaml: the book's title, languages, parts and rules.", "Restore book.yaml (see CONTRIBUTING.md)."),
    "profile.missing-page": ("Every page book.yaml names exists (content/<lang>/<page>/ in each language); a page not written yet is a draft, not a missing folder.", "Create it (`atlas-site new chapter ID` scaffolds a chapter as a draft) or remove it from `parts:`."),
    "profile.unlisted-page": ("Every page belongs to a part of book.yaml, so none is published outside the book's reading order or its rules.", "Add the page to a chapter or series under `parts:`."),
    "profile.duplicate-page": ("A page id is used once: one folder per language, one entry in book.yaml.", "Choose another id, or edit the existing page."),
    "scaffold.usage": ("`atlas-site new chapter ID --title LANG=TITLE …` needs a slug id and a title in every language of book.yaml.", "Give the missing titles, e.g. --title zh=… --title en=…"),
    "rule.shape": ("A rule in book.yaml is one mapping `KIND: ARGUMENTS`.", "Write e.g. `- cites_all: nodes` or `- figure_in_section: {figure: x, section: q3}`."),
    "rule.unknown-kind": ("book.yaml uses only the rule kinds the engine can check (`atlas-site check --explain rule.KIND` for each).", "Use one of the kinds the hint lists, or add a rule kind to the engine (src/atlas_site/rules/)."),
    "rule.scope": ("Some rule kinds check one part's pages, others the whole book.", "Move the rule under `parts:` or to the top-level `rules:`."),
    "rule.page": ("A page rule inside a series names the page it is about (`page:`), and that page is in the series.", "Add or fix `page:`."),
    "rule.reference": ("A rule names things that exist: figures, labs and terms of the ledger, a non-empty registry, countable things.", "Fix the name in book.yaml."),
    "strings.missing-file": ("Every language of book.yaml has its interface strings in templates/strings/<lang>.yaml.", "Copy another language's file and translate every value."),
    "strings.missing-key": ("Every strings file has every key the templates and the engine use, and the same keys as the other languages.", "Add the keys the message names."),
    "strings.invalid": ("An interface strings file maps keys to non-empty texts.", "Quote every value; keep one `key: \"text\"` per line."),
    "heading.no-id": ("Every h2/h3 carries a language-neutral id, so the twins of a page in every language share anchors.", "End the heading with {#some-id}, the same id in every language."),
    "heading.duplicate-id": ("Section ids are unique on a page.", "Rename one of them (in both languages)."),
    "cite.unknown": ("A citation names a ledger number of a registry (sources/nodes.yaml, sources/references.yaml).", "Use the number as hinted; [@n27] for a node, [@r64] for a reference."),
    "lead.cited": ("Candidate leads (ledger/leads.md) are recall only: prose cites formal sources only.", "Cite the formal node the lead was promoted to, or drop the sentence."),
    "claim.unknown": ("{{claim:id}} names a claim of ledger/claims.md.", "Use the id as hinted, or record the claim (value, source, setting) first."),
    "claim.unknown-source": ("A claim's source is a ledger number of the registry.", "Fix the number."),
    "example.unknown": ("{{ex:id}} names a worked example of ledger/examples*.md.", "Use the id as hinted, or add the example with its function and inputs."),
    "example.unknown-output": ("{{ex:id.output}} names an output the example declares (and the function returns).", "Use a declared output name."),
    "example.ambiguous": ("{{ex:id}} without an output is allowed only for one-output examples.", "Write {{ex:id.output}}."),
    "example.mismatch": ("A teaching number computed by the labs' formulas must equal the seed's printed number at the stated rounding.", "Fix the inputs or the formula; never change 'expect' to hide a difference."),
    "example.no-runtime": ("Teaching numbers are computed with Node.js and labs_js/compute.js.", "Install Node.js (scripts/build.sh does) and keep labs_js/compute.js."),
    "example.failed": ("labs_js/compute.js must run every example.", "Run `node labs_js/compute.js` with the example's request to see the error."),
    "term.unknown": ("{{term:id}} names a term of ledger/glossary.md.", "Use the id as hinted, or add the term in both languages."),
    "figure.unknown": ("{{figure:id}} names a figure of ledger/figures.md.", "Use one of the figure ids."),
    "figure.unknown-number": ("A figure's numbers come from the ledger: 'ex:<example>.<output>' (a declared output) or 'claim:<id>'.", "Fix the reference, or declare the output in the example's 'outputs'."),
    "figure.unknown-source": ("A figure's sources are ledger numbers.", "Fix the number."),
    "directive.unknown": ("Only the directives of the registry exist (CONTRIBUTING.md lists them: inline claim, ex, term; block figure, labs, question-cards, node-table, open-questions, dev-map; blocks misconception, lineage, note).", "Use the name as hinted."),
    "directive.argument": ("Each directive takes the argument it declares (none, one id, a list of ids, id.output).", "Write it as the hint shows."),
    "directive.misplaced": ("A block directive ({{figure:…}}, {{labs:…}}, …) stands alone as its own paragraph; inside a sentence it would ship as raw text.", "Put it on its own line with blank lines around it."),
    "block.unknown": ("A `:::` block names a container directive (misconception, lineage, note).", "Use one of them, or remove the ':::' line."),
    "block.unclosed": ("Every `::: NAME` block ends with a line holding only ':::'; an unclosed block would swallow the rest of the file.", "Add the closing ':::' line."),
    "block.unknown-misconception": ("'::: misconception ID' names a misconception of the ledger.", "Use an id of ledger/misconceptions.md."),
    "block.unknown-lineage": ("'::: lineage ID' names a lineage of the ledger (`lineages:`).", "Use one of them, or add the lineage with its title in each language."),
    "labs.unknown": ("{{labs:a,b}} names labs of ledger/labs.md.", "Use the lab ids as hinted."),
    "figure.unknown-kind": ("A figure's kind is one of book.yaml `figure_kinds`.", "Use a declared kind."),
    "map.unknown-route": ("A development-map node sits on a route of ledger/devmap.md.", "Use one of the route ids."),
    "map.unknown-source": ("A development-map node cites ledger numbers of the registry.", "Fix the number."),
    "map.unknown-node": ("A map node's 'after' names earlier map nodes (the arrows).", "Use an existing node id."),
    "wave.unknown-node": ("A history wave lists existing node numbers.", "Fix the number."),
    "lead.unknown-node": ("A promoted lead names the formal node it became.", "Fix the node number."),
    "gate.citations.no-entry": ("Each work has a bibliography entry with a stable anchor.", "This is a renderer bug: report it."),
    "gate.citations.no-url": ("A bibliography entry links its canonical URL.", "This is a renderer bug: report it."),
    "gate.claims.bare-multiplier": ("No multiplier (×, x, 倍) typed bare in prose: author numbers are claims, teaching numbers are examples.", "Write {{claim:id}} (record the claim with its setting first) or {{ex:id.output}}."),
    "gate.claims.bare-percentage": ("No percentage change typed bare in prose.", "Write {{claim:id}} or {{ex:id.output}}."),
    "gate.claims.text-value": ("A claim's text shows its value in every language.", "Fix the claim's text in ledger/claims.md."),
    "gate.claims.unlabelled": ("Every rendered claim shows its label and setting.", "This is a renderer bug: report it."),
    "gate.forbidden.statement": ("Statements the ledger forbids (misconceptions' patterns) appear only inside a '::: misconception' block that corrects them.", "State the mechanism positively, or quote the wrong statement inside its misconception block."),
    "gate.links.broken": ("Internal links resolve.", "Fix the link target."),
    "gate.links.anchor": ("#anchors resolve to an element of the target page.", "Use an existing section id."),
    "gate.links.not-https": ("External links are https.", "Use the https URL."),
    "gate.links.not-registry": ("External links point at registry URLs only; cite sources instead of linking the web.", "Replace the link with a citation [@nNN] / [@rN]."),
    "gate.links.rel": ("External links carry rel=\"noopener noreferrer\".", "This is a renderer bug: report it."),
    "gate.links.scheme": ("Links use no mailto:, data: or javascript: scheme.", "Remove the link."),
    "gate.parity.sections": ("Every language's twin of a page has the same section ids in the same order.", "Align the {#ids} of the headings."),
    "gate.parity.uses": ("Each section holds the same figures, labs, claims, examples and citations in both languages.", "Add what the other language has, or remove it from both."),
    "gate.parity.switch": ("The language switch lands on the same section of the twin page.", "Keep the section ids identical in both languages."),
    "gate.release.draft": ("`check --release` fails while a page is a draft.", "Set status: published when every gate passes on the page."),
    "gate.reproducible": ("Two builds of the same inputs are byte-identical.", "Look for unordered iteration, timestamps or randomness in the renderer."),
    "gate.security.csp": ("Every page carries a strict Content-Security-Policy (self only, no inline script).", "Restore the CSP meta tag in templates/base.html.j2."),
    "gate.security.inline-script": ("No inline <script> body on any page.", "Move the code into a file under templates/static/ or labs_js/."),
    "gate.security.handler": ("No on*= event handler attributes.", "Attach listeners from a script file."),
    "gate.security.style-attr": ("No style= attributes (the CSP blocks them).", "Use a class and CSS."),
    "gate.390.overflow": ("At 390 px and 1280 px no page scrolls sideways; wide content scrolls in its own box.", "Wrap the wide element in a scroll box or let it wrap."),
    "gate.offline.request": ("Pages request nothing outside the site.", "Ship the asset in the repo."),
    "gate.offline.console": ("Pages log no console error.", "Open the page and fix the error shown."),
    "i18n.missing-language": ("Every lab UI string (ledger/labs.md `strings:`) has a non-empty text in every language of book.yaml.", "Add the missing language's text."),
    "search.index": ("The search index is built by Pagefind over the written pages.", "Reinstall the project (pip install -e .) so pagefind[extended] is present, then rebuild."),
    "export.browser": ("The PDF edition is printed by Chromium through Playwright (`atlas-site export pdf`); the EPUB needs neither.", "Run bash scripts/test.sh (it installs chromium, fonts-noto-cjk and the test extras with Playwright), or set ATLAS_CHROMIUM to a Chromium binary."),
    "export.font": ("The print edition sets its text in the Noto CJK fonts that templates/export/print.css names, embedded in the PDF, so no glyph is missing.", "apt-get install fonts-noto-cjk (bash scripts/test.sh does), or name an installed family in print.css and pdf.py CJK_FONTS."),
    "export.no-date": ("An edition is dated by the newest `last_verified` of its pages (EPUB dcterms:modified, PDF dates), never by the clock, so the same book gives the same files.", "Give the pages of that language their `last_verified` date in the front matter."),
    "export.pdf-toc": ("The page numbers in the PDF's table of contents are those where the headings landed; print is repeated until they agree (at most three passes).", "Keep the page-number box of the contents (.toc-page in templates/export/print.css) a fixed width, so filling in a number moves no line."),
    "export.print": ("Chromium prints the assembled book to PDF; a crash or time-out of the print is reported with its first line.", "Open the print document (templates/export/print.html.j2, written to a temporary folder) in Chromium and look for the failing content; rerun with --progress."),
    "gate.figures.layout": ("Figure labels fit their boxes and do not overlap.", "Shorten the label or widen the box in the figure's data."),
}


def codes() -> dict[str, tuple[str, str]]:
    """Every code the tool can emit, with its rule and fix: the fixed ones above and one per rule kind."""
    from .rules import RULE_KINDS

    table = dict(RULES)
    for kind in RULE_KINDS.values():
        scope = "book-wide or per part" if len(kind.scopes) > 1 else ("per part" if "part" in kind.scopes else "book-wide")
        table[kind.code()] = (f"book.yaml rule `{kind.name}` ({scope}{', checked in Chromium by check --browser' if kind.browser else ''}): {kind.rule}", kind.fix)
    return table


def explain(code: str) -> tuple[str, bool]:
    """(text, known). An unknown code is an error: the caller exits non-zero."""
    table = codes()
    rule = table.get(code)
    if rule is None:
        hint = closest(code, table)
        return f"unknown code '{code}'" + (f" ({hint})" if hint else "") + "; known codes: " + ", ".join(sorted(table)), False
    what, fix = rule
    return f"{code}\n  rule: {what}\n  fix:  {fix}", True
