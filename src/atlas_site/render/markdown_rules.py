"""markdown-it render rules for the book's tokens: directives go to their renderer in the registry
(directives/), with the page's render state in `env['state']`."""
from __future__ import annotations

from html import escape

from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt

from ..directives import REGISTRY


class Call:
    """A directive as a token carries it, shaped like a parsed Use for the directive's renderer."""

    def __init__(self, kind: str, key: str, text: str | None = None, keys=None):
        self.kind, self.key, self.text = kind, key, text
        self.keys = tuple(keys) if keys is not None else (tuple(key.split(",")) if key else ())


def _cite(self, tokens, idx, options, env):
    keys = tokens[idx].meta["keys"]
    return REGISTRY["cite"].render(env["state"], Call("cite", keys[0], keys=keys))


def _directive(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    directive = REGISTRY[meta["kind"]]  # resolve refused unknown and misplaced directives
    return directive.render(env["state"], Call(meta["kind"], meta["arg"], meta.get("text")))


def _heading_open(self, tokens, idx, options, env):
    token = tokens[idx]
    heading_id = token.attrGet("id")
    if heading_id and token.tag in ("h2", "h3"):
        env["state"].section = str(heading_id)
    return self.renderToken(tokens, idx, options, env)


def _heading_close(self, tokens, idx, options, env):
    opening = tokens[idx - 2]
    heading_id = opening.attrGet("id")
    anchor = ""
    if heading_id:
        anchor = f'<a class="anchor" href="#{escape(str(heading_id))}" aria-hidden="true" tabindex="-1" data-pagefind-ignore>#</a>'
    return f"{anchor}</{tokens[idx].tag}>\n"


def _math(display: bool):
    def rule(self, tokens, idx, options, env):
        source = tokens[idx].content.strip()
        try:
            mathml = latex_to_mathml(source, display="block" if display else "inline")
            mathml = mathml.replace("<math ", f'<math alttext="{escape(source)}" ', 1)
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


def _container(name: str):
    def opening(self, tokens, idx, options, env):
        arg = tokens[idx].info.strip()[len(name):].strip()
        return REGISTRY[name].render(env["state"], Call(name, arg), True)

    def closing(self, tokens, idx, options, env):
        return REGISTRY[name].render(env["state"], Call(name, ""), False)

    return opening, closing


def install_rules(md: MarkdownIt) -> None:
    rules = md.add_render_rule
    rules("cite", _cite)
    rules("directive", _directive)
    rules("directive_block", _directive)
    rules("heading_open", _heading_open)
    rules("heading_close", _heading_close)
    rules("math_inline", _math(False))
    rules("math_inline_double", _math(True))
    rules("math_block", _math(True))
    rules("table_open", _table_open)
    rules("table_close", _table_close)
    rules("link_open", _link_open)
    for name in REGISTRY.of_form("container"):
        opening, closing = _container(name)
        rules(f"container_{name}_open", opening)
        rules(f"container_{name}_close", closing)
