"""Symbols of source code from a tree-sitter parse: functions, methods, classes and the module's rest.

A container (class, struct, interface, trait, impl, namespace, module) becomes one symbol whose source
is an outline — its own lines (header, docstring, fields, properties) plus each member's declaration
and a `...` line — and each member becomes a symbol of its own with `parent` set. The lines outside
every top-level symbol (imports, constants, top-level statements) form a `module` symbol that
outlines the file. So every non-blank line lands in some symbol, and nothing is indexed twice in full.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from tree_sitter import Node, Parser, Query, QueryCursor

from sextant.parsing.comments import clean_comment, clean_string_literal
from sextant.parsing.languages import GRAMMAR_LANGUAGES, grammar
from sextant.parsing.outline import MemberSpan, build_outline
from sextant.parsing.symbol import Symbol
from sextant.parsing.symbol_draft import SymbolDraft
from sextant.parsing.syntax_rules import FUNCTION_VALUES, RULES, SyntaxRules

MAX_SIGNATURE_CHARS = 1000
MAX_ANNOTATION_CHARS = 200
ERROR_LINE_SHARE_LIMIT = 0.25
"""Above this share of lines inside ERROR nodes the parse is not trusted and the file goes to windows."""
_NAMESPACE_SEPARATORS = {"cpp": "::", "csharp": ".", "php": "\\"}
_VALUE_FUNCTION_NODES = frozenset({"variable_declarator", "field_definition", "public_field_definition"})
_WHITESPACE = re.compile(r"\s+")
_PYTHON_SOURCE_ROOTS = frozenset({"src", "lib", "python"})


@dataclass(frozen=True, slots=True)
class _Scope:
    container: int
    """Index of the enclosing container in the found list; -1 for the file."""
    container_type: str | None
    parent: str | None
    package: str | None


@dataclass(slots=True)
class _Found:
    node: Node
    outer: Node
    symbol_type: str
    name: str | None
    parent: str | None
    package: str | None
    scope_container: int
    span: MemberSpan
    is_container: bool
    leading_comments: list[Node]
    leading_annotations: list[Node]


class _File:
    """One parsed file: its path, language rules, bytes and lines."""

    def __init__(self, path: str, language: str, rules: SyntaxRules, src: bytes, lines: list[str]) -> None:
        self.path = path
        self.language = language
        self.rules = rules
        self.src = src
        self.lines = lines

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def starts_its_line(self, node: Node) -> bool:
        # Tree-sitter columns count bytes, so this is where the node's line starts.
        line_start = node.start_byte - node.start_point.column
        return not self.src[line_start : node.start_byte].strip()


def _last_row(node: Node) -> int:
    row = node.end_point.row
    # A node that ends with its newline reports the next row at column 0.
    if node.end_point.column == 0 and row > node.start_point.row:
        return row - 1
    return row


@functools.cache
def _error_query(grammar_key: str) -> Query:
    return Query(grammar(grammar_key), "(ERROR) @error")


def _error_lines(root: Node, grammar_key: str) -> int:
    """How many lines lie inside ERROR nodes (the whole file when the root itself is an error)."""
    if root.type == "ERROR":
        return root.end_point.row + 1
    if not root.has_error:
        return 0
    errors = QueryCursor(_error_query(grammar_key)).captures(root).get("error", [])
    covered, reach = 0, -1
    for start, end in sorted((node.start_point.row, _last_row(node)) for node in errors):
        if end > reach:
            covered += end - max(start, reach + 1) + 1
            reach = end
    return covered


def _best_parse(src: bytes, grammar_keys: tuple[str, ...]) -> tuple[str, Node, int]:
    """Parse with each grammar until one is clean; keep the one with the fewest error lines."""
    best: tuple[str, Node, int] | None = None
    for grammar_key in grammar_keys:
        root = Parser(grammar(grammar_key)).parse(src).root_node
        errors = _error_lines(root, grammar_key)
        if best is None or errors < best[2]:
            best = (grammar_key, root, errors)
        if errors == 0:
            break
    if best is None:
        raise ValueError("no grammar given")
    return best


def _call_keyword(node: Node, rules: SyntaxRules) -> str | None:
    """The defining keyword of a call that is a definition (Elixir ``def``, ``defmodule``), else None."""
    if not rules.call_keywords or node.type != "call":
        return None
    target = node.child_by_field_name("target")
    keyword = target.text.decode("utf-8", "replace") if target is not None and target.text is not None else ""
    return keyword if keyword in rules.call_keywords else None


def _call_name(file: _File, node: Node) -> str | None:
    arguments = next((child for child in node.named_children if child.type == "arguments"), None)
    head = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    while head is not None and head.type in ("binary_operator", "call"):  # `f(x) when ...`, `f(x)`
        head = head.child_by_field_name("left") or head.child_by_field_name("target")
    return file.text(head) if head is not None else None


def _qualifies(node: Node, rules: SyntaxRules) -> bool:
    if node.type not in rules.symbols:
        return False
    if rules.call_keywords and node.type == "call":
        return _call_keyword(node, rules) is not None
    if node.type in rules.needs_body and node.child_by_field_name("body") is None:
        return False
    if node.type in rules.needs_name and node.child_by_field_name("name") is None:
        return False
    if node.type in _VALUE_FUNCTION_NODES:
        value = node.child_by_field_name("value")
        return value is not None and value.type in FUNCTION_VALUES
    return True


def _body(node: Node) -> Node | None:
    if node.type == "type_spec":
        # Go: `type S struct {...}` has its body inside the type; other type specs are one declaration.
        type_node = node.child_by_field_name("type")
        if type_node is None or type_node.type != "struct_type":
            return None
        return next((child for child in type_node.named_children if child.type == "field_declaration_list"), None)
    body = node.child_by_field_name("body")
    if body is None and node.type in ("call", "block"):  # Elixir `do ... end`, HCL `{ ... }`
        return next((child for child in node.named_children if child.type in ("do_block", "body")), None)
    if body is None and node.type in _VALUE_FUNCTION_NODES:
        value = node.child_by_field_name("value")
        body = value.child_by_field_name("body") if value is not None else None
    return body


def _c_function_name(file: _File, node: Node) -> tuple[str | None, str | None]:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    if inner is None:
        return None, None
    full = file.text(inner)
    if "::" in full:
        scope, _, name = full.rpartition("::")
        return name, scope
    return full, None


def _name_and_scope(file: _File, node: Node, outer: Node) -> tuple[str | None, str | None]:
    """The symbol's name and, when the declaration states it (C++ `A::f`, Go receivers), its parent."""
    if node.type == "function_definition" and file.language in ("c", "cpp"):
        return _c_function_name(file, node)
    if node.type == "impl_item":
        impl_type = node.child_by_field_name("type")
        return (file.text(impl_type) if impl_type is not None else None), None
    if _call_keyword(node, file.rules) is not None:
        return _call_name(file, node), None
    if node.type in file.rules.label_names:
        labels = [child for child in node.named_children if child.type not in ("block_start", "body", "block_end")]
        return " ".join(file.text(label) for label in labels if label.end_byte <= _label_end(node)) or None, None
    name_node = node.child_by_field_name("name") or node.child_by_field_name("property")
    if name_node is None and file.rules.name_children:
        name_node = next((child for child in node.named_children if child.type in file.rules.name_children), None)
    if name_node is None and outer.type == "type_definition":
        name_node = outer.child_by_field_name("declarator")
    name = _WHITESPACE.sub(" ", file.text(name_node)) if name_node is not None else None
    if name is None and node.type == "companion_object":
        name = "Companion"  # what Kotlin itself calls an unnamed companion
    if node.type == "method_declaration" and file.language == "go":
        receiver = node.child_by_field_name("receiver")
        receiver_type = next(
            (
                found
                for param in (receiver.named_children if receiver is not None else [])
                if (found := param.child_by_field_name("type")) is not None
            ),
            None,
        )
        if receiver_type is not None:
            return name, file.text(receiver_type).lstrip("*&").split("[")[0]
    return name, None


def _label_end(node: Node) -> int:
    start = next((child for child in node.children if child.type == "block_start"), None)
    return start.start_byte if start is not None else node.end_byte


def _symbol_type(file: _File, node: Node, scope: _Scope, explicit_parent: str | None) -> str:
    keyword = _call_keyword(node, file.rules)
    base = file.rules.call_keywords[keyword] if keyword is not None else file.rules.symbols[node.type]
    if node.type == "type_spec":
        type_node = node.child_by_field_name("type")
        kinds = {"struct_type": "struct", "interface_type": "interface"}
        return kinds.get(type_node.type if type_node is not None else "", "type")
    if base == "function" and (scope.container_type in file.rules.method_scopes or explicit_parent):
        return "method"
    return base


def _leading_siblings(file: _File, outer: Node) -> tuple[int, list[Node], list[Node]]:
    """Comments and attributes stacked right above a declaration: its first row and those nodes."""
    first_row = outer.start_point.row
    comments: list[Node] = []
    annotations: list[Node] = []
    rules = file.rules
    sibling = outer.prev_sibling
    holder = outer.parent
    # Ruby puts a member's comment before the body node that holds the member: look past that node.
    at_holder_start = holder is not None and holder.start_byte == outer.start_byte
    if sibling is None and holder is not None and at_holder_start and holder.type not in rules.symbols:
        sibling = holder.prev_sibling
    while sibling is not None and (sibling.type in rules.comments or sibling.type in rules.leading):
        if _last_row(sibling) < first_row - 1 or not file.starts_its_line(sibling):
            break
        first_row = sibling.start_point.row
        (comments if sibling.type in rules.comments else annotations).append(sibling)
        sibling = sibling.prev_sibling
    comments.reverse()
    annotations.reverse()
    return first_row, comments, annotations


def _header_end(file: _File, node: Node, body: Node | None) -> Node | None:
    """The last token of the declaration before its body, skipping comments; None without a body."""
    if body is None:
        return None
    holder = body.parent if body.parent is not None else node
    last: Node | None = None
    for child in holder.children:
        if child.start_byte >= body.start_byte:
            break
        if child.type not in file.rules.comments:
            last = child
    return last


def _found(file: _File, node: Node, outer: Node, scope: _Scope) -> _Found:
    name, explicit_parent = _name_and_scope(file, node, outer)
    first_row, comments, annotations = _leading_siblings(file, outer)
    header_first = outer.start_point.row if node.type in _VALUE_FUNCTION_NODES else node.start_point.row
    header_end = _header_end(file, node, _body(node))
    header_last = max(header_first, _last_row(header_end) if header_end is not None else node.start_point.row)
    span = MemberSpan(first_row, header_first, header_last, max(_last_row(outer), header_last))
    return _Found(
        node=node,
        outer=outer,
        symbol_type=_symbol_type(file, node, scope, explicit_parent),
        name=name,
        parent=explicit_parent or scope.parent,
        package=scope.package,
        scope_container=scope.container,
        span=span,
        is_container=node.type in file.rules.containers
        or _call_keyword(node, file.rules) in file.rules.call_containers,
        leading_comments=comments,
        leading_annotations=annotations,
    )


def _member_scope(file: _File, found: _Found, scope: _Scope, index: int) -> _Scope:
    node = found.node
    if node.type in file.rules.namespaces:
        separator = _NAMESPACE_SEPARATORS.get(file.language, ".")
        package = f"{scope.package}{separator}{found.name}" if scope.package and found.name else found.name
        return _Scope(index, node.type, scope.parent, package)
    member_parent = found.name
    if node.type == "impl_item" and found.name:
        member_parent = found.name.split("<")[0].strip()
    return _Scope(index, node.type, member_parent, scope.package)


def _single_declaration(node: Node, rules: SyntaxRules) -> Node | None:
    candidates = [child for child in node.named_children if child.type in rules.wrappers or _qualifies(child, rules)]
    return candidates[0] if len(candidates) == 1 else None


@functools.cache
def _symbol_query(grammar_key: str) -> Query:
    language = grammar(grammar_key)
    # Only node kinds this grammar version knows: a query naming an unknown kind does not compile.
    kinds = sorted(kind for kind in RULES[grammar_key].symbols if language.id_for_node_kind(kind, True))
    return Query(language, "[" + " ".join(f"({kind})" for kind in kinds) + "] @symbol")


def _outer(node: Node, rules: SyntaxRules) -> Node:
    """The widest wrapper (export, decorators, template, declaration) that holds only this symbol."""
    outer = node
    while (holder := outer.parent) is not None and holder.type in rules.wrappers:
        if _single_declaration(holder, rules) != outer:
            break
        outer = holder
    return outer


def _walk(file: _File, root: Node, grammar_key: str, package: str | None) -> list[_Found]:
    """Find symbols: the query finds candidate nodes in C; climbing parents finds each one's container.

    A candidate inside a function (a local function, a closure) stays part of that function.
    """
    rules = file.rules
    candidates = QueryCursor(_symbol_query(grammar_key)).captures(root).get("symbol", [])
    candidates.sort(key=lambda node: (node.start_byte, -node.end_byte))
    found: list[_Found] = []
    # Containers by node identity (kind and byte range) → their index and the scope of their members.
    member_scopes: dict[tuple[str, int, int], _Scope] = {}
    file_scope = _Scope(-1, None, None, package)
    for node in candidates:
        if not _qualifies(node, rules):
            continue
        outer = _outer(node, rules)
        scope: _Scope | None = file_scope
        ancestor = outer.parent
        while ancestor is not None:
            if _qualifies(ancestor, rules):
                key = (ancestor.type, ancestor.start_byte, ancestor.end_byte)
                scope = member_scopes.get(key)  # None: inside a function, or in a skipped symbol
                break
            ancestor = ancestor.parent
        if scope is None:
            continue
        index = len(found)
        item = _found(file, node, outer, scope)
        found.append(item)
        if item.is_container:
            member_scopes[(node.type, node.start_byte, node.end_byte)] = _member_scope(file, item, scope, index)
    return found


def _docstring(file: _File, item: _Found) -> str | None:
    if file.language == "python":
        body = item.node.child_by_field_name("body")
        docstring = _python_docstring(file, body) if body is not None else None
        if docstring:
            return docstring
    cleaned = "\n".join(clean_comment(file.text(comment)) for comment in item.leading_comments).strip()
    return cleaned or None


def _python_docstring(file: _File, block: Node) -> str | None:
    first = block.named_children[0] if block.named_child_count else None
    if first is None or first.type != "expression_statement" or first.named_child_count != 1:
        return None
    literal = first.named_children[0]
    if literal.type != "string":
        return None
    return clean_string_literal(file.text(literal)) or None


def _annotation_nodes(file: _File, item: _Found) -> Iterator[Node]:
    kinds = file.rules.annotations
    yield from item.leading_annotations
    holders = [item.outer] if item.outer is item.node else [item.outer, item.node]
    for holder in holders:
        for child in holder.named_children:
            if child.type in kinds:
                yield child
            elif child.type == "modifiers":
                yield from (grandchild for grandchild in child.named_children if grandchild.type in kinds)


def _annotations(file: _File, item: _Found) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for node in _annotation_nodes(file, item):
        seen[_WHITESPACE.sub(" ", file.text(node)).strip()[:MAX_ANNOTATION_CHARS]] = None
    return tuple(seen)


def _signature(file: _File, item: _Found) -> str:
    header_node = item.outer if item.node.type in _VALUE_FUNCTION_NODES else item.node
    start = header_node.start_byte - header_node.start_point.column
    header_end = _header_end(file, item.node, _body(item.node))
    if header_end is not None and header_end.end_byte > start:
        end = header_end.end_byte
    else:
        line_end = file.src.find(b"\n", start)
        end = line_end if line_end >= 0 else len(file.src)
    text = file.src[start:end].decode("utf-8", errors="replace")
    lines = [line.strip() for line in text.strip().split("\n")]
    return "\n".join(lines).removesuffix("{").rstrip()[:MAX_SIGNATURE_CHARS]


def python_module_name(path: str) -> str:
    """Dotted module path of a Python file (`src/pkg/mod.py` → `pkg.mod`, `pkg/__init__.py` → `pkg`).

    Args:
        path: Repository-relative path of a .py file.

    Returns:
        The dotted module name.
    """
    parts = list(PurePosixPath(path.replace("\\", "/")).with_suffix("").parts)
    if len(parts) > 1 and parts[0] in _PYTHON_SOURCE_ROOTS:
        parts = parts[1:]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _file_package(file: _File, root: Node) -> str | None:
    if file.language == "python":
        return python_module_name(file.path)
    for child in root.named_children:
        if child.type in file.rules.package_nodes and child.child_by_field_name("body") is None:
            named = child.child_by_field_name("name") or next(
                (grandchild for grandchild in child.named_children if grandchild.type not in file.rules.comments),
                None,
            )
            return file.text(named).strip() if named is not None else None
    return None


def _symbol_draft(file: _File, item: _Found, members: list[MemberSpan]) -> SymbolDraft:
    span = item.span
    if item.is_container and members:
        lines, numbers = build_outline(file.lines, span.first_row, span.last_row, members)
        source, line_numbers = "\n".join(lines), tuple(numbers)
    else:
        source = "\n".join(file.lines[span.first_row : span.last_row + 1])
        line_numbers = tuple(range(span.first_row + 1, span.last_row + 2))
    symbol = Symbol(
        name=item.name,
        symbol_type=item.symbol_type,
        language=file.language,
        parent=item.parent,
        package=item.package,
        signature=_signature(file, item),
        docstring=_docstring(file, item),
        annotations=_annotations(file, item),
        start_line=span.first_row + 1,
        end_line=span.last_row + 1,
        source=source,
    )
    return SymbolDraft(symbol, line_numbers)


def _module_draft(file: _File, root: Node, package: str | None, members: list[MemberSpan]) -> SymbolDraft | None:
    covered = bytearray(len(file.lines))
    for span in members:
        covered[span.first_row : span.last_row + 1] = b"\x01" * (span.last_row - span.first_row + 1)
    if not any(not covered[row] and line.strip() for row, line in enumerate(file.lines)):
        return None
    lines, numbers = build_outline(file.lines, 0, len(file.lines) - 1, members)
    real = [number for number in numbers if number]
    docstring = _python_docstring(file, root) if file.language == "python" else None
    symbol = Symbol(
        name=PurePosixPath(file.path.replace("\\", "/")).name,
        symbol_type="module",
        language=file.language,
        package=package,
        docstring=docstring,
        start_line=min(real),
        end_line=max(real),
        source="\n".join(lines),
    )
    return SymbolDraft(symbol, tuple(numbers))


def code_symbol_drafts(
    path: str, text: str, lines: list[str], grammar_keys: tuple[str, ...]
) -> list[SymbolDraft] | None:
    """Parse source code into symbol drafts, or None when the parse is not trustworthy.

    Args:
        path: Repository-relative path (names the module).
        text: Source with "\\n" line endings.
        lines: The text split into lines.
        grammar_keys: Grammars to try, best first (a .h header is tried as C, then as C++).

    Returns:
        Drafts in file order (containers before their members), or None when the tree is mostly errors.
    """
    src = text.encode("utf-8", errors="surrogatepass")
    grammar_key, root, error_lines = _best_parse(src, grammar_keys)
    if error_lines > ERROR_LINE_SHARE_LIMIT * max(len(lines), 1):
        return None
    language = GRAMMAR_LANGUAGES[grammar_key]
    file = _File(path, language, RULES[grammar_key], src, lines)
    package = _file_package(file, root)
    found = _walk(file, root, grammar_key, package)
    members_of: dict[int, list[MemberSpan]] = {}
    for item in found:
        members_of.setdefault(item.scope_container, []).append(item.span)
    drafts = [_symbol_draft(file, item, members_of.get(index, [])) for index, item in enumerate(found)]
    module = _module_draft(file, root, package, members_of.get(-1, []))
    if module is not None:
        drafts.append(module)
    drafts.sort(key=lambda draft: (draft.symbol.start_line, -draft.symbol.end_line, draft.symbol.symbol_type))
    return drafts
