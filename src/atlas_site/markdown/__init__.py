"""The markdown-it parser and the book's syntax: citations, directives, heading ids, blocks."""

from .parser import make_parser

__all__ = ["make_parser"]
