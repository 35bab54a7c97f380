"""The EPUB-safe transform: a page of the web edition made into a page of a book that cannot run
script or be clicked through. What the site shows only on screen goes (heading anchors, the
series list and pager, a lab's controls and charts); a lab keeps its statements, formulas and
worked example, as in the site's print style, and gains the web address of its interactive
version; closed `<details>` open up; attributes that only scripts read are dropped."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections.abc import Callable

from .xhtml import XHTML, add_class, classes, html, name, namespace, parents, remove, text_of, unwrap

# what the site's print style hides (templates/static/site.css, templates/labs/labs.css), and
# the page's own navigation: on paper and in an e-book the book's table of contents replaces it
SCREEN_ONLY = {
    "anchor",
    "series",
    "pager",
    "lab-tablist",
    "lab-presets-bar",
    "lab-preset-status",
    "lab-chart",
    "lab-live",
    "lab-nojs",
    "lab-body",
    "lab-summary",  # the pinned bar that repeats the outputs while a reader edits the inputs
    "numbers-tools",
    # a numbers row's "more" on a phone repeats its setting, caution, date and uses (their own
    # columns on a wider page, on paper and in the e-book)
    "numbers-more",
    "numbers-more-head",
    "glossary-letters",
    "badge-key",  # a folded key beside the page's controls; closed, it prints nothing on the site either
    # a number's citation to copy from the web page (review 31-m #1: opened on paper, it filled the
    # numbers table's first column, one word a line); the bibliography holds the works
    "cite-number",
    "fig-lab",  # a figure's link to its lab: a page of the web edition, which paper cannot open
    # a page's folded "Cite this page" and its download links (review 31-x #6: on paper they meant
    # nothing): the edition is cited by its own metadata
    "cite-this",
    "downloads",
}
# what a web page prints for itself (its address, the works it cites): the edition has its own
# page numbers and one bibliography, so these would be said twice
WEB_PRINT_ONLY = "print-only"
CONTROLS = {
    "button",
    "input",
    "select",
    "textarea",
    "form",
    "label",
    "fieldset",
    "output",
    "script",
    "noscript",
    "template",
    "iframe",
    "object",
    "embed",
}
SCRIPT_ATTRIBUTES = {"tabindex", "aria-selected", "aria-controls", "aria-live", "hidden"}
WIDGET_ROLES = {"tab", "tablist", "tabpanel"}


def clean_page(
    main: ET.Element, lab_address: Callable[[str], ET.Element], defaults_title: str = ""
) -> ET.Element:
    """`main` of a rendered page -> a `<section>` of the book (the same content, nothing to click
    or run). `lab_address(panel_id)` makes the line that names a lab's interactive version;
    `defaults_title` heads what each lab shows for its default inputs, kept from its controls."""
    main.tag = f"{{{XHTML}}}section"
    main.attrib.clear()
    main.tail = None  # what follows <main> is the page's frame (its footer), not the book's text
    if defaults_title:
        _keep_lab_defaults(main, defaults_title)
    tree = parents(main)
    for element in list(main.iter()):
        parent = tree.get(element)
        if parent is None or namespace(element) != XHTML:
            continue
        tag = name(element)
        if classes(element) & (SCREEN_ONLY | {WEB_PRINT_ONLY}) or tag in CONTROLS:
            remove(element, parent)
        elif tag == "caption" and "visually-hidden" in classes(element):
            remove(element, parent)  # it repeats the page's title, which heads the table on paper too
        elif tag == "details":
            element.tag = f"{{{XHTML}}}div"
            add_class(element, "details")
            element.attrib.pop("open", None)
        elif tag == "summary":
            element.tag = f"{{{XHTML}}}p"
            add_class(element, "summary")
        elif "visually-hidden" in classes(element):
            unwrap(element, parent)  # words for screen readers ("Common mistake: ") are read on paper too
    for cell in main.iter(f"{{{XHTML}}}td"):
        _label_cell(cell)
    for element in main.iter():
        _drop_script_attributes(element)
    for panel in [e for e in main.iter() if "lab-panel" in classes(e) and e.get("id")]:
        title = next((child for child in panel if "lab-title" in classes(child)), None)
        position = list(panel).index(title) + 1 if title is not None else 0
        panel.insert(position, lab_address(panel.get("id") or ""))
    return main


def _keep_lab_defaults(main: ET.Element, title: str) -> None:
    """Before a lab's controls go: its inputs as the page loads them and the outputs they give, as
    two lists (review 31-l #1: the printed lab had its formulas but no result to read them by)."""
    tree = parents(main)
    for body in [e for e in main.iter() if "lab-body" in classes(e)]:
        lists = [
            copy.deepcopy(e)
            for e in body.iter(f"{{{XHTML}}}dl")
            if classes(e) & {"lab-static-inputs", "lab-outputs"}
        ]
        if len(lists) != 2:
            continue
        block = html("div", {"class": "lab-defaults"})
        block.append(html("p", {"class": "lab-defaults-title"}, title))
        for found in lists:
            for element in found.iter():
                if name(element) == "output":
                    element.tag = f"{{{XHTML}}}span"  # a value, no longer a form's result
                for key in ("id", "aria-labelledby"):
                    element.attrib.pop(key, None)
            block.append(found)
        parent = tree[body]
        parent.insert(list(parent).index(body), block)


def _label_cell(cell: ET.Element) -> None:
    """A cell's `data-label` (its column's name, which the site shows above it on phones) becomes
    a label of the cell's own: an e-reader's narrow page stacks the cells, print hides it."""
    label = cell.get("data-label")
    if not label:
        return
    element = html("span", {"class": "cell-label"}, label)
    element.tail = cell.text
    cell.text = None
    cell.insert(0, element)


def _drop_script_attributes(element: ET.Element) -> None:
    for key in list(element.attrib):
        if key.startswith("data-") or key in SCRIPT_ATTRIBUTES:
            del element.attrib[key]
    if element.get("role") in WIDGET_ROLES:
        del element.attrib["role"]


def external_links(section: ET.Element) -> int:
    """Mark external links whose text is not their address: print shows the address after them."""
    count = 0
    for link in section.iter(f"{{{XHTML}}}a"):
        href = link.get("href", "")
        if href.startswith("https://") or href.startswith("http://"):
            count += 1
            if text_of(link).strip() != href:
                add_class(link, "show-url")
    return count


def paragraph(text: str, css_class: str, *children: ET.Element) -> ET.Element:
    element = html("p", {"class": css_class}, text)
    for child in children:
        element.append(child)
    return element
