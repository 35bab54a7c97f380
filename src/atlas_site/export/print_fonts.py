"""The print edition's CJK faces as TrueType, subset to the characters the printed document holds.

Chromium's PDF backend (Skia) embeds a TrueType font as a CID font (Type 0 / CIDFontType2): the
font's own outlines, hinted by the viewer, one object per face. A font with CFF outlines, as
Debian's Noto CJK collections (fonts-noto-cjk, .ttc) are, it cannot embed: it draws every glyph
into the PDF as a Type 3 font, one per 256 glyph ids a page uses (the Atlas's zh PDF had 775 of
them, 11.2 MB). Type 3 glyphs are drawings: viewers render them unhinted, text tools and screen
readers read them worse, and the file is larger.

So the print document brings its own faces: each face print.css names (`PRINT_FAMILIES`, regular and
bold) that fontconfig finds with CFF outlines is subset to the document's characters (the layout
features Chromium uses kept), its cubic outlines converted to quadratic ones within 1/1000 em
(fontTools' cu2qu: the same letters), and declared by @font-face under the family's own name, so
print.css is unchanged and the printed page looks as before. The screen never sees these faces."""

from __future__ import annotations

import multiprocessing
import os
import re
import string
import subprocess
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

# the CJK families print.css names (templates/export/print.css), each in these weights
PRINT_FAMILIES = ("Noto Serif CJK SC", "Noto Sans CJK SC", "Noto Sans Mono CJK SC")
WEIGHTS = {400: "regular", 700: "bold"}
# fontTools' default features and those Chromium asks of CJK text (punctuation trimming, widths)
EXTRA_FEATURES = ["halt", "vhal", "chws", "vchw", "palt", "vpal", "pwid", "fwid", "hwid"]
TOLERANCE = 1.0  # font units: 1/1000 em in Noto CJK
# CJK ideographs, punctuation and full-width forms: what only the CJK faces draw
HAN = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


@dataclass(frozen=True)
class Face:
    family: str
    weight: int
    path: str  # the font file fontconfig picks
    index: int  # in a collection

    @property
    def file_name(self) -> str:
        slug = self.family.lower().replace(" ", "-")
        return f"{slug}-{self.weight}.ttf"


def cff_faces(families: tuple[str, ...] = PRINT_FAMILIES) -> list[Face]:
    """The faces of `families` fontconfig picks that have CFF outlines (a TrueType one needs
    nothing: Chromium embeds it as it is)."""
    from fontTools.ttLib import TTFont

    faces = []
    for family in families:
        for weight, name in WEIGHTS.items():
            try:
                found = subprocess.run(
                    ["fc-match", "-f", "%{family}\t%{file}\t%{index}", f"{family}:weight={name}"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            except (OSError, subprocess.CalledProcessError):
                continue
            names, path, index = (found.split("\t") + ["", "", ""])[:3]
            if family not in names.split(",") or not path:
                continue  # not installed: fontconfig substitutes another (export.font says so)
            font = TTFont(path, fontNumber=int(index or 0), lazy=True)
            if "CFF " in font:
                faces.append(Face(family, weight, path, int(index or 0)))
    return faces


def document_text(folder: Path) -> str:
    """Every character the print document can show: its HTML and stylesheets as written (markup
    included; the `content:` of running headers and generated text too), printable ASCII and
    the digits of page numbers yet to be filled in."""
    chars = set(string.printable.strip()) | set(" \u00a0")
    for path in sorted(folder.iterdir()):
        if path.suffix in (".html", ".css"):
            chars |= set(path.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable() or c == " "))


# (font file, index in it, text) -> the converted face: a process exports both languages, and the
# print gate and the export the same document, with the same faces
_CONVERTED: dict[tuple[str, int, str], bytes] = {}


def write_print_fonts(folder: Path, faces: list[Face], text: str) -> str:
    """Each face subset to `text` and converted to TrueType, written into `folder`; the
    @font-face rules that declare them. A document without a Chinese character needs none of
    them: print.css sets its text in Latin faces first (a face unused is not embedded either)."""
    if not faces or not HAN.search(text):
        return ""
    wanted = [
        (face.path, face.index, text) for face in faces if (face.path, face.index, text) not in _CONVERTED
    ]
    if len(wanted) > 1 and (os.cpu_count() or 1) > 1:
        # spawned, not forked: the caller runs Playwright's threads
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(len(wanted), os.cpu_count() or 1), mp_context=context) as pool:
            converted = list(pool.map(_convert, *zip(*wanted, strict=True)))
    else:
        converted = [_convert(*job) for job in wanted]
    _CONVERTED.update(zip(wanted, converted, strict=True))
    for face in faces:
        (folder / face.file_name).write_bytes(_CONVERTED[(face.path, face.index, text)])
    return "".join(
        f'@font-face {{ font-family: "{face.family}"; font-weight: {face.weight}; font-style: normal; '
        f'src: url("{face.file_name}") format("truetype"); }}\n'
        for face in faces
    )


def _convert(path: str, index: int, text: str) -> bytes:
    """The face at `path`#`index`, subset to `text`, with TrueType outlines (byte-identical for
    the same inputs: the font's own timestamps kept)."""
    from fontTools import subset
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    font = TTFont(path, fontNumber=index, lazy=True, recalcTimestamp=False, recalcBBoxes=True)
    order = font.getGlyphOrder()
    cff_glyphs = font.getGlyphSet()  # read from the CFF once the subset is known
    # The subsetter works on an outline-less TrueType stand-in: which glyphs the text needs comes
    # from cmap and the layout tables, and subsetting the CFF first (its closure and its unused
    # subroutines) decompiled every kept charstring twice for a table dropped anyway: a quarter of
    # the time, the same bytes.
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    stand_in = newTable("glyf")
    stand_in.glyphOrder = order
    stand_in.glyphs = dict.fromkeys(order, Glyph())
    font["glyf"] = stand_in
    font["loca"] = newTable("loca")
    font.setGlyphOrder(order)
    _truetype_header(font)
    options = subset.Options()
    options.layout_features = [*options.layout_features, *EXTRA_FEATURES]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    kept = font.getGlyphOrder()
    glyphs = {}
    for name in kept:
        pen = TTGlyphPen(None)
        cff_glyphs[name].draw(Cu2QuPen(pen, TOLERANCE, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["glyf"].glyphOrder = kept
    font["glyf"].glyphs = glyphs
    saved = BytesIO()
    font.save(saved)
    return saved.getvalue()


def _truetype_header(font) -> None:
    """maxp, head, post and the sfnt version of a font whose outlines are now TrueType."""
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in (
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxComponentDepth",
    ):
        setattr(maxp, field, 0)  # the point counts are recalculated when the font is saved
    maxp.maxZones = 1
    font["head"].indexToLocFormat = 0
    font["head"].glyphDataFormat = 0
    font["post"].formatType = 3.0  # no glyph names: the PDF names glyphs by id
    font.sfntVersion = "\x00\x01\x00\x00"
