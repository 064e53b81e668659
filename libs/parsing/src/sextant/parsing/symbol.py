"""A symbol: one indexable unit of a file (a function, a class outline, a doc section, a line window)."""

from __future__ import annotations

import msgspec


class Symbol(msgspec.Struct, frozen=True, kw_only=True):
    """One indexable unit of a file, with the metadata the embedding texts are built from.

    Containers (classes, structs, impls, namespaces, the file's `module` chunk) hold an outline: their
    own lines plus the header lines of each member, whose body is elided to a `...` line; each member
    is a symbol of its own. So every non-blank line of a file is in the source of some symbol.
    """

    name: str | None
    """Symbol name, heading text for a doc section, file name for a module; None for line windows."""
    symbol_type: str
    """function, method, constructor, class, interface, struct, enum, record, trait, impl, module,
    namespace, type, macro, section or window."""
    language: str
    """Language name (python, typescript, markdown, yaml, text, ...)."""
    parent: str | None = None
    """Enclosing class/module (or parent heading for doc sections)."""
    package: str | None = None
    """Package, namespace or module path when the language has one."""
    signature: str = ""
    """Declaration line(s) up to the body; the heading line for sections; empty for windows."""
    docstring: str | None = None
    """Docstring or leading doc comment, cleaned of comment markers."""
    annotations: tuple[str, ...] = ()
    """Decorators, annotations or attributes as written (whitespace collapsed)."""
    start_line: int
    """First line (1-based, inclusive), including leading doc comments and decorators."""
    end_line: int
    """Last line (1-based, inclusive)."""
    source: str
    """The text indexed for this symbol: full source for leaves, an outline for containers."""
