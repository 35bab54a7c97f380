"""markdown-it render rules for the book's tokens: directives go to their renderer in the registry
(directives/), with the page's render state in `env['state']`."""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from ..directives import REGISTRY
from .evidence_blocks import SENTENCE_END, close_block, note, open_block
from .mathml import display_pieces, opens_with_operator, to_mathml
from .scroll_box import SCROLL_BOX_CLOSE, scroll_box_open


class Call:
    """A directive as a token carries it, shaped like a parsed Use for the directive's renderer."""

    def __init__(self, kind: str, key: str, text: str | None = None, keys=None, at=(0, 1)):
        self.kind, self.key, self.text = kind, key, text
        self.at = at  # (line in its part's body from 0, column): site.py locates it in the file
        self.keys = tuple(keys) if keys is not None else (tuple(key.split(",")) if key else ())


def _cite(self, tokens, idx, options, env):
    keys = tokens[idx].meta["keys"]
    return REGISTRY["cite"].render(env["state"], Call("cite", keys[0], keys=keys))


def _directive(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    directive = REGISTRY[meta["kind"]]  # resolve refused unknown and misplaced directives
    state = env["state"]
    following = tokens[idx + 1] if idx + 1 < len(tokens) else None
    # what the prose writes right after the directive: a claim whose setting would end it takes a
    # punctuation mark there in before its setting (directives/evidence.py)
    state.next_text = following.content if following is not None and following.type == "text" else ""
    preceding = tokens[idx - 1] if idx > 0 else None
    state.prev_text = preceding.content if preceding is not None and preceding.type == "text" else ""
    html = directive.render(
        state, Call(meta["kind"], meta["arg"], meta.get("text"), at=(meta["line"], meta["col"]))
    )
    state.next_text = state.prev_text = ""
    return html


def _text(self, tokens, idx, options, env):
    """Text, less a punctuation mark a claim took in before its setting (state.taken). A sentence's
    end forgets the long units the block wrote: a number in the next sentence says its unit again
    (review 30-h #8: '… 1,000 yuan … 2,750' left the reader to carry the unit across sentences)."""
    state = env.get("state")
    content = tokens[idx].content
    if state is not None and state.taken:
        if content.startswith(state.taken):
            content = content[len(state.taken) :]
        state.taken = ""
    if state is not None and state.block is not None and SENTENCE_END.search(content):
        state.block.units.clear()
    return escapeHtml(content)


def _heading_open(self, tokens, idx, options, env):
    token = tokens[idx]
    heading_id = token.attrGet("id")
    if heading_id and token.tag in ("h2", "h3"):
        env["state"].section = str(heading_id)
        env["state"].paragraphs = 0
    return self.renderToken(tokens, idx, options, env)


# a paragraph whose text ends so is a sentence that goes on into the block after it
CONTINUES = (":", "：", ",", "，", ";", "；")


def _block_open(self, tokens, idx, options, env):
    """A paragraph or list of the prose itself (not inside a list, card or aside) carries its place
    in its section, data-para="SECTION.N" (1-based): the twin page's paragraph N of the same section
    is its counterpart, for the language switch and side-by-side reading (site.js, parallel.js)."""
    token = tokens[idx]
    state = env["state"]
    if token.level == 0 and state.section and not _only_a_directive(tokens, idx):
        state.paragraphs += 1
        token.attrSet("data-para", f"{state.section}.{state.paragraphs}")
    if token.type == "paragraph_open" and idx + 1 < len(tokens):
        open_block(state, [tokens[idx + 1]], "paragraph")  # its numbers labelled once, if many
        block = state.block
        if block is not None and block.quiet and tokens[idx + 1].content.rstrip().endswith(CONTINUES):
            # "…all of the following:" then a list, "with block size S," then a formula: a note at
            # its end would split the sentence from what it goes on into, so it opens the paragraph
            block.leads = True
            return self.renderToken(tokens, idx, options, env) + note(state, block)
    return self.renderToken(tokens, idx, options, env)


def _paragraph_close(self, tokens, idx, options, env):
    """The paragraph's one evidence note, if its numbers are labelled once, ends it (a list item's
    text too: its paragraph is hidden, the note still follows the text), unless it opened it."""
    state = env["state"]
    block = close_block(state, "paragraph")
    ended = "" if block is not None and block.leads else note(state, block)
    return ended + self.renderToken(tokens, idx, options, env)


def _only_a_directive(tokens, idx) -> bool:
    """A paragraph that holds nothing but a directive (a figure, a lab) is not prose to pair."""
    if tokens[idx].type != "paragraph_open" or idx + 1 >= len(tokens):
        return False
    children = [
        c for c in (tokens[idx + 1].children or []) if not (c.type == "text" and not c.content.strip())
    ]
    return len(children) == 1 and children[0].type in ("directive", "directive_block")


def _heading_close(self, tokens, idx, options, env):
    opening = tokens[idx - 2]
    heading_id = opening.attrGet("id")
    anchor = notice = ""
    if heading_id:
        anchor = f'<a class="anchor" href="#{escape(str(heading_id))}" aria-hidden="true" tabindex="-1" data-pagefind-ignore>#</a>'
        if opening.tag in ("h2", "h3"):
            notice = env["state"].notices.get(str(heading_id), "")
    return f"{anchor}</{tokens[idx].tag}>\n{notice}"


def _display_rows(source: str) -> str | None:
    """A long display formula as pieces in a row that wraps (mathml.display_pieces): on a phone
    it stacks at its top-level relations and signs instead of scrolling sideways. Each piece after
    the first opens with its operator, spaced as inside the whole formula (form="infix")."""
    pieces = display_pieces(source)
    if len(pieces) < 2:
        return None
    try:
        rendered = [to_mathml(piece, True) for piece in pieces]
    except Exception:  # a piece the converter cannot read alone: the formula stays whole
        return None
    rendered = [
        m.replace("<mo>", '<mo form="infix">', 1) if index and opens_with_operator(piece) else m
        for index, (piece, m) in enumerate(zip(pieces, rendered, strict=True))
    ]
    return (
        '<div class="math-rows">'
        + "".join(f'<span class="math-piece">{m}</span>' for m in rendered)
        + "</div>"
    )


def _math(display: bool):
    def rule(self, tokens, idx, options, env):
        source = tokens[idx].content.strip()
        rows = _display_rows(source) if display else None
        if rows is not None:
            return scroll_box_open("math-block") + rows + SCROLL_BOX_CLOSE
        try:
            mathml = to_mathml(source, display)  # links, scripts and styles are never carried over
        except Exception:  # an unsupported macro: show the source rather than fail the page
            mathml = f'<code class="math-src">{escape(source)}</code>'
        if display:
            return scroll_box_open("math-block") + mathml + SCROLL_BOX_CLOSE
        return f'<span class="math">{mathml}</span>'

    return rule


STACKING_COLUMNS = 3  # a table of this many columns or more is read row by row on a phone (site.css)


def _heading_text(inline) -> str:
    """A column heading's words as plain text (a directive in it has none: the table is then not
    stacked, rather than label a column wrongly)."""
    kinds = {child.type for child in inline.children or []}
    if kinds - {"text", "code_inline", "softbreak"}:
        return ""
    return " ".join("".join(child.content for child in inline.children or []).split())


def _label_cells(tokens, idx) -> int:
    """Each body cell of the table at `idx` carries its column's heading (`data-label`), and the
    table is marked `stacks`, when it has STACKING_COLUMNS columns or more, each headed in words.
    The number of columns stacked, or 0."""
    headings, cells, column = [], [], 0
    for position in range(idx + 1, len(tokens)):
        token = tokens[position]
        if token.type == "table_close":
            break
        if token.type == "th_open":
            headings.append(_heading_text(tokens[position + 1]))
        elif token.type == "tr_open":
            column = 0
        elif token.type == "td_open":
            cells.append((token, column))
            column += 1
    if len(headings) < STACKING_COLUMNS or not all(headings):
        return 0
    for cell, column in cells:
        if column < len(headings):
            cell.attrSet("data-label", headings[column])
    tokens[idx].attrSet("class", "stacks")
    return len(headings)


def _table_open(self, tokens, idx, options, env):
    """A table whose cells hold several numbers of one kind says their label once, in its caption.
    On a phone a table of several columns is read row by row (`_label_cells`): a stacked row is as
    tall as its cells together, so it counts as that many rows for its frame."""
    stacked = _label_cells(tokens, idx)
    rows = 0
    cells = []
    for token in tokens[idx + 1 :]:
        if token.type == "table_close":
            break
        rows += token.type == "tr_open"
        if token.type == "inline":
            cells.append(token)
    state = env["state"]
    open_block(state, cells, "table")
    caption = note(state, state.block)
    shown_rows = rows * stacked if stacked else rows
    return scroll_box_open("table-scroll", shown_rows) + self.renderToken(tokens, idx, options, env) + caption


def _table_close(self, tokens, idx, options, env):
    close_block(env["state"], "table")
    return self.renderToken(tokens, idx, options, env) + SCROLL_BOX_CLOSE


def _link_open(self, tokens, idx, options, env):
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    if href.startswith(("https://", "http://")):
        token.attrSet("rel", "noopener noreferrer")
        token.attrSet("class", "external")
    return self.renderToken(tokens, idx, options, env)


def is_local_image(src: str) -> bool:
    """A relative path inside the site: no scheme (https:, data:, javascript:), not absolute."""
    head = src.split("/", 1)[0]
    return bool(src) and not src.startswith(("/", "\\")) and ":" not in head and "\\" not in src


def _image(self, tokens, idx, options, env):
    """A local image as usual; anything else only as its text, so no page ever loads a file from
    elsewhere (the images gate reports it where it was written)."""
    token = tokens[idx]
    if is_local_image(str(token.attrGet("src") or "")):
        return self.image(tokens, idx, options, env)
    alt = self.renderInlineAsText(token.children or [], options, env)
    return f'<span class="image-refused">{escape(alt)}</span>'


def _container(name: str):
    def opening(self, tokens, idx, options, env):
        arg = tokens[idx].info.strip()[len(name) :].strip()
        return REGISTRY[name].render(env["state"], Call(name, arg), True)

    def closing(self, tokens, idx, options, env):
        return REGISTRY[name].render(env["state"], Call(name, ""), False)

    return opening, closing


def install_rules(md: MarkdownIt) -> None:
    rules = md.add_render_rule
    rules("cite", _cite)
    rules("directive", _directive)
    rules("text", _text)
    rules("directive_block", _directive)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    rules("paragraph_close", _paragraph_close)
    for kind in ("paragraph_open", "bullet_list_open", "ordered_list_open"):
        rules(kind, _block_open)
    rules("math_inline", _math(False))
    rules("math_inline_double", _math(True))
    rules("math_block", _math(True))
    rules("table_open", _table_open)
    rules("table_close", _table_close)
    rules("link_open", _link_open)
    rules("image", _image)
    for name in REGISTRY.of_form("container"):
        opening, closing = _container(name)
        rules(f"container_{name}_open", opening)
        rules(f"container_{name}_close", closing)
