"""markdown-it render rules for the book's tokens; they read `env['inline']` and `env['blocks']`."""
from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

from .i18n import ui
from .mathml import to_mathml


def _cite(self, tokens, idx, options, env):
    return env["inline"].cite(tokens[idx].meta["keys"])


def _directive(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    inline = env["inline"]
    if meta["kind"] == "claim":
        return inline.claim(meta["arg"])
    if meta["kind"] == "ex":
        return inline.example(meta["arg"])
    if meta["kind"] == "term":
        return inline.term(meta["arg"], meta["text"])
    return escape(meta["raw"])  # a block directive used mid-sentence is reported by resolve


def _directive_block(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    return env["blocks"].render(meta["kind"], meta["arg"])


def _heading_open(self, tokens, idx, options, env):
    token = tokens[idx]
    heading_id = token.attrGet("id")
    if heading_id and token.tag in ("h2", "h3"):
        env["inline"].section = str(heading_id)
    return self.renderToken(tokens, idx, options, env)


def _heading_close(self, tokens, idx, options, env):
    opening = tokens[idx - 2]
    heading_id = opening.attrGet("id")
    anchor = ""
    if heading_id:
        anchor = f'<a class="anchor" href="#{escape(str(heading_id))}" aria-hidden="true" tabindex="-1">#</a>'
    return f"{anchor}</{tokens[idx].tag}>\n"


def _math(display: bool):
    def rule(self, tokens, idx, options, env):
        source = tokens[idx].content.strip()
        try:
            mathml = to_mathml(source, display)  # links, scripts and styles are never carried over
        except Exception:  # an unsupported macro: show the source rather than fail the page
            mathml = f'<code class="math-src">{escape(source)}</code>'
        if display:
            return f'<div class="math-block" tabindex="0">{mathml}</div>\n'
        return f'<span class="math">{mathml}</span>'

    return rule


def _table_open(self, tokens, idx, options, env):
    return '<div class="table-scroll" tabindex="0">' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env):
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


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
        arg = tokens[idx].info.strip()[len(name):].strip()
        lang = env["inline"].lang
        if name == "misconception":
            return (f'<aside class="misconception" id="misconception-{escape(arg)}" data-misconception="{escape(arg)}">'
                    f'<p class="block-label">{escape(ui("misconception", lang))} · {escape(arg.upper())}</p>\n')
        if name == "lineage":
            return (f'<section class="lineage" data-lineage="{escape(arg)}" aria-label="{escape(ui("lineage_" + arg, lang) if arg in ("deepseek", "kimi") else arg)}">'
                    f'<p class="block-label">{escape(ui("lineage_" + arg, lang)) if arg in ("deepseek", "kimi") else escape(arg)}</p>\n')
        return f'<aside class="note"><p class="block-label">{escape(ui("note", lang))}</p>\n'

    def closing(self, tokens, idx, options, env):
        return "</section>\n" if name == "lineage" else "</aside>\n"

    return opening, closing


def install_rules(md: MarkdownIt) -> None:
    rules = md.add_render_rule
    rules("cite", _cite)
    rules("directive", _directive)
    rules("directive_block", _directive_block)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    rules("math_inline", _math(False))
    rules("math_inline_double", _math(True))
    rules("math_block", _math(True))
    rules("table_open", _table_open)
    rules("table_close", _table_close)
    rules("link_open", _link_open)
    rules("image", _image)
    for name in ("misconception", "lineage", "note"):
        opening, closing = _container(name)
        rules(f"container_{name}_open", opening)
        rules(f"container_{name}_close", closing)
