"""What pypdf reads back from and adds to Chromium's PDF: where each heading landed (for the table
of contents), the document's metadata, and a text layer that says what the page shows.

Chromium embeds the CFF outlines of the Noto CJK fonts as Type 3 fonts, and their ToUnicode map
names for each glyph the lowest code point the font maps to it: a glyph the font shares between
见 (U+89C1) and the radical ⻅ (U+2EC5), or 一 and the Kangxi radical ⼀ (U+2F00), is written as the
radical, so copying, searching or reading the text aloud gives radicals. The fonts' own cmaps say
which ideograph shares each radical's glyph (`radical_equivalents`); the text layer is mapped back
to it, unless the book's own text uses the radical itself."""

from __future__ import annotations

import re
import subprocess
from functools import lru_cache
from io import BytesIO

from pypdf import PdfReader
from pypdf.generic import (
    BooleanObject,
    DecodedStreamObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from .assemble import Edition

RADICALS = range(0x2E80, 0x2FE0)  # CJK Radicals Supplement and Kangxi Radicals
UNIFIED = (
    range(0x4E00, 0xA000),
    range(0x3400, 0x4DC0),
    range(0x20000, 0x32000),
)  # CJK Unified Ideographs (+ Ext.)
BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
HEX = re.compile(rb"<([0-9A-Fa-f]*)>|\[([^\]]*)\]")
CLOCK = re.compile(rb"/(CreationDate|ModDate) \(D:(\d{14})")  # in the Info dictionary Chromium wrote


def heading_pages(data: bytes, targets: list[str]) -> dict[str, int]:
    """Page number (1 = the cover) of each link target, read from the PDF's named destinations
    (Chromium makes one for every element a link points at)."""
    reader = PdfReader(BytesIO(data))
    landed = {}
    for name, destination in reader.named_destinations.items():
        key = name.lstrip("/")
        if key in targets:
            landed[key] = (reader.get_destination_page_number(destination) or 0) + 1
    return landed


def page_count(data: bytes) -> int:
    return len(PdfReader(BytesIO(data)).pages)


def finish_pdf(
    data: bytes, edition: Edition, bookmarks: list, equivalents: dict[str, list[str]], used: set[str]
) -> bytes:
    """Chromium's PDF with the edition's metadata (title, author, language, the edition's date
    rather than the clock), its bookmarks and its CJK text layer repaired, appended as an
    incremental update: the pages, tags and links Chromium wrote stay exactly as they are (and are
    not parsed, which for a book with hundreds of Type 3 fonts would take longer than printing it).
    `bookmarks`: [(title, named destination, [children …])] — the table of contents: Chromium's
    own outline is made from the tag tree, which repeats the text of some headings."""
    if edition.date:  # the superseded Info dictionary still holds the clock: same length, the edition's date
        stamp = edition.date.strftime("%Y%m%d000000").encode("ascii")
        data = CLOCK.sub(lambda m: b"/" + m.group(1) + b" (D:" + stamp, data)
    reader = PdfReader(BytesIO(data))
    changed: dict[int, object] = {}
    for reference, stream in _to_unicode_streams(reader):
        repaired = _repaired(stream, equivalents, used)
        if repaired is not None:
            changed[reference.idnum] = repaired
    trailer = reader.trailer
    info = trailer.get("/Info")
    metadata = DictionaryObject(
        {
            NameObject("/Title"): TextStringObject(edition.title),
            NameObject("/Creator"): TextStringObject("atlas-site"),
            NameObject("/Producer"): TextStringObject("atlas-site (Chromium, pypdf)"),
        }
    )
    if edition.author:
        metadata[NameObject("/Author")] = TextStringObject(edition.author)
    if edition.date:
        metadata[NameObject("/CreationDate")] = metadata[NameObject("/ModDate")] = TextStringObject(
            edition.date.strftime("D:%Y%m%d000000Z")
        )
    size = int(trailer["/Size"])  # type: ignore[call-overload]  # pypdf types it as any PdfObject
    info_number = info.idnum if info is not None else size
    changed[info_number] = metadata
    next_number = max(size, info_number + 1)
    outlines, objects = _outline(bookmarks, next_number, reader)
    changed.update(objects)
    root_reference = trailer.raw_get("/Root")
    catalog = DictionaryObject(reader.trailer["/Root"])  # type: ignore[call-overload]  # pypdf: a PdfObject
    catalog[NameObject("/Outlines")] = IndirectObject(outlines, 0, reader)
    catalog[NameObject("/PageMode")] = NameObject("/UseOutlines")  # viewers open with the bookmarks shown
    catalog[NameObject("/Lang")] = TextStringObject(edition.html_lang)
    preferences = DictionaryObject(catalog.get("/ViewerPreferences") or {})
    preferences[NameObject("/DisplayDocTitle")] = BooleanObject(
        True
    )  # viewers show the title, not the file name
    catalog[NameObject("/ViewerPreferences")] = preferences
    changed[root_reference.idnum] = catalog
    return _append_update(
        data,
        changed,
        {
            "/Size": NumberObject(max(changed) + 1),
            "/Root": root_reference,
            "/Info": IndirectObject(info_number, 0, reader),
        },
        trailer,
    )


def _outline(bookmarks: list, first_number: int, reader: PdfReader) -> tuple[int, dict]:
    """The outline tree as new objects numbered from `first_number`: (its root's number, objects).
    Chapters are closed, so a reader first sees the book's parts."""
    objects: dict[int, DictionaryObject] = {}
    numbers = iter(range(first_number, first_number + 1 + _count(bookmarks)))
    root = next(numbers)

    def ref(number: int) -> IndirectObject:
        return IndirectObject(number, 0, reader)

    def level(items: list, parent: int) -> tuple[int, int]:
        own = [next(numbers) for _ in items]
        for index, ((title, destination, children), number) in enumerate(zip(items, own, strict=False)):
            item = DictionaryObject(
                {
                    NameObject("/Title"): TextStringObject(title),
                    NameObject("/Parent"): ref(parent),
                    NameObject("/Dest"): NameObject(f"/{destination}"),
                }
            )
            if index:
                item[NameObject("/Prev")] = ref(own[index - 1])
            if index + 1 < len(own):
                item[NameObject("/Next")] = ref(own[index + 1])
            if children:
                first, last = level(children, number)
                item[NameObject("/First")], item[NameObject("/Last")] = ref(first), ref(last)
                item[NameObject("/Count")] = NumberObject(-len(children))
            objects[number] = item
        return own[0], own[-1]

    first, last = level(bookmarks, root)
    objects[root] = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Outlines"),
            NameObject("/First"): ref(first),
            NameObject("/Last"): ref(last),
            NameObject("/Count"): NumberObject(len(bookmarks)),
        }
    )
    return root, objects


def _count(bookmarks: list) -> int:
    return sum(1 + _count(children) for _, _, children in bookmarks)


def _append_update(data: bytes, changed: dict, entries: dict, trailer) -> bytes:
    """An incremental update (PDF 32000-1, 7.5.6): the changed objects, their cross-reference
    section and a trailer pointing back at the original one."""
    previous = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    out = BytesIO()
    out.write(data if data.endswith(b"\n") else data + b"\n")
    offsets = {}
    for number in sorted(changed):
        offsets[number] = out.tell()
        out.write(f"{number} 0 obj\n".encode("ascii"))
        changed[number].write_to_stream(out)
        out.write(b"\nendobj\n")
    start = out.tell()
    out.write(b"xref\n")
    for number in sorted(offsets):
        out.write(f"{number} 1\n{offsets[number]:010d} 00000 n\r\n".encode("ascii"))
    new_trailer = DictionaryObject({NameObject(k): v for k, v in entries.items()})
    new_trailer[NameObject("/Prev")] = NumberObject(previous)
    if "/ID" in trailer:
        new_trailer[NameObject("/ID")] = trailer["/ID"]
    out.write(b"trailer\n")
    new_trailer.write_to_stream(out)
    out.write(f"\nstartxref\n{start}\n%%EOF\n".encode("ascii"))
    return out.getvalue()


def _to_unicode_streams(reader: PdfReader):
    """(reference, stream) of every ToUnicode map of the fonts the pages use, once each."""
    seen = set()
    for font in fonts_used(reader):
        reference = font.raw_get("/ToUnicode") if "/ToUnicode" in font else None
        if isinstance(reference, IndirectObject) and reference.idnum not in seen:
            seen.add(reference.idnum)
            yield reference, reference.get_object()


def fonts_used(reader: PdfReader):
    """Every font dictionary the pages use, directly or inside form XObjects, once each."""
    seen, found = set(), []

    def visit(resources):
        resources = resources.get_object() if resources is not None else None
        if not resources:
            return
        for font in (resources.get("/Font") or {}).values():
            key = getattr(font, "idnum", id(font))
            if key not in seen:
                seen.add(key)
                found.append(font.get_object())
                visit(font.get_object().get("/Resources"))  # a Type 3 font's glyphs may use resources
        for xobject in (resources.get("/XObject") or {}).values():
            key = getattr(xobject, "idnum", id(xobject))
            if key not in seen:
                seen.add(key)
                visit(xobject.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def _repaired(stream, equivalents: dict[str, list[str]], used: set[str]):
    """The ToUnicode stream with radicals mapped to their ideographs, or None if it needs nothing."""
    cmap = stream.get_data()
    mapping = _parse_cmap(cmap)
    fixed = {
        code: "".join(_ideograph(char, equivalents, used) for char in text) for code, text in mapping.items()
    }
    if fixed == mapping:
        return None
    repaired = DecodedStreamObject()
    repaired.set_data(_write_cmap(cmap, fixed))
    return repaired.flate_encode()


def _ideograph(char: str, equivalents: dict[str, list[str]], used: set[str]) -> str:
    candidates = equivalents.get(char)
    if not candidates or (char in used and not any(c in used for c in candidates)):
        return char
    return next((c for c in candidates if c in used), candidates[0])


@lru_cache(maxsize=8)
def radical_equivalents(families: tuple[str, ...]) -> dict[str, list[str]]:
    """radical -> the ideographs that share its glyph, in the fonts fontconfig picks for these
    families (regular and bold, as print.css uses them)."""
    from fontTools.ttLib import TTFont

    equivalents: dict[str, list[str]] = {}
    for face in sorted({_font_file(family, weight) for family in families for weight in ("regular", "bold")}):
        path, _, index = face.rpartition(":")
        cmap = TTFont(path, fontNumber=int(index or 0), lazy=True).getBestCmap()
        by_glyph: dict[str, list[int]] = {}
        for code, glyph in cmap.items():
            by_glyph.setdefault(glyph, []).append(code)
        for code, glyph in cmap.items():
            if code in RADICALS:
                shared = [chr(c) for c in sorted(by_glyph[glyph]) if any(c in block for block in UNIFIED)]
                for ideograph in shared:
                    if ideograph not in equivalents.setdefault(chr(code), []):
                        equivalents[chr(code)].append(ideograph)
    return equivalents


def _font_file(family: str, weight: str) -> str:
    result = subprocess.run(
        ["fc-match", "-f", "%{file}:%{index}", f"{family}:weight={weight}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def _decode(hex_text: bytes) -> str:
    raw = bytes.fromhex(hex_text.decode("ascii"))
    return raw.decode("utf-16-be", errors="replace")


def _parse_cmap(cmap: bytes) -> dict[int, str]:
    mapping: dict[int, str] = {}
    for block in BFCHAR.findall(cmap):
        values = [m.group(1) for m in HEX.finditer(block)]
        for source, target in zip(values[0::2], values[1::2], strict=False):
            mapping[int(source, 16)] = _decode(target)
    for block in BFRANGE.findall(cmap):
        tokens = list(HEX.finditer(block))
        for index in range(0, len(tokens) - 2, 3):
            low, high, target = tokens[index].group(1), tokens[index + 1].group(1), tokens[index + 2]
            start, end = int(low, 16), int(high, 16)
            if target.group(1) is not None:  # <low> <high> <first>: consecutive code points
                first = _decode(target.group(1))
                for offset, code in enumerate(range(start, end + 1)):
                    mapping[code] = first[:-1] + chr(ord(first[-1]) + offset)
            else:  # <low> <high> [<a> <b> …]: one target each
                for code, item in zip(range(start, end + 1), HEX.finditer(target.group(2)), strict=False):
                    mapping[code] = _decode(item.group(1))
    return mapping


def _write_cmap(original: bytes, mapping: dict[int, str]) -> bytes:
    """The same CMap with its mappings written out one by one (bfchar, at most 100 a block)."""
    space = re.search(rb"begincodespacerange\s*<([0-9A-Fa-f]+)>", original)
    width = max(4, len(space.group(1))) if space else 4
    head = original[: min(m.start() for m in re.finditer(rb"\d+\s+begin(?:bfchar|bfrange)", original))]
    tail = original[max(m.end() for m in re.finditer(rb"end(?:bfchar|bfrange)", original)) :]
    items = sorted(mapping.items())
    blocks = []
    for start in range(0, len(items), 100):
        chunk = items[start : start + 100]
        lines = [f"<{code:0{width}X}> <{text.encode('utf-16-be').hex().upper()}>" for code, text in chunk]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(lines) + "\nendbfchar\n")
    return head + "".join(blocks).encode("ascii") + tail
