"""Per-language tables: which tree-sitter nodes are symbols, containers, wrappers and annotations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Values that make a variable or field declaration a function (`const f = () => ...`).
FUNCTION_VALUES: frozenset[str] = frozenset({"arrow_function", "function_expression", "function", "generator_function"})


@dataclass(frozen=True)
class SyntaxRules:
    """What one grammar's node types mean for symbol extraction."""

    symbols: Mapping[str, str]
    """Node type → symbol type ("function" becomes "method" inside a class-like container)."""
    containers: frozenset[str]
    """Symbol node types whose members become symbols of their own (the container keeps an outline)."""
    wrappers: frozenset[str] = frozenset()
    """Node types that wrap one declaration (export, decorators, templates) and so widen its range."""
    leading: frozenset[str] = frozenset()
    """Sibling types just before a declaration that belong to it, besides comments (attributes)."""
    comments: frozenset[str] = frozenset({"comment"})
    annotations: frozenset[str] = frozenset()
    """Node types that are decorators, annotations or attributes."""
    method_scopes: frozenset[str] = frozenset()
    """Container node types inside which a function is a method."""
    namespaces: frozenset[str] = frozenset()
    """Container node types that set the package of their members instead of their parent."""
    package_nodes: frozenset[str] = frozenset()
    """Top-level node types that name the file's package (package clause, file-scoped namespace)."""
    needs_body: frozenset[str] = field(default_factory=frozenset)
    """Symbol node types that are only declarations (not definitions) when they have no body."""
    needs_name: frozenset[str] = frozenset()
    """Symbol node types that are definitions only with a ``name`` field (Haskell's ``function`` is
    also the node of a function type)."""
    name_children: frozenset[str] = frozenset()
    """Child node types that name a symbol whose grammar gives it no ``name`` field."""
    label_names: frozenset[str] = frozenset()
    """Symbol node types named by all their tokens before the body (``resource "aws_s3" "logs"``)."""
    call_keywords: Mapping[str, str] = field(default_factory=dict)
    """For languages whose definitions are calls (``def f``, ``defmodule M``): keyword → symbol type."""
    call_containers: frozenset[str] = frozenset()
    """Keywords among ``call_keywords`` whose members are symbols of their own (``defmodule``)."""


_JS_SYMBOLS: dict[str, str] = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    "class": "class",
    "method_definition": "method",
    "variable_declarator": "function",
    "field_definition": "method",
}
_JS_CONTAINERS = frozenset({"class_declaration", "class"})
_JS_WRAPPERS = frozenset({"export_statement", "lexical_declaration", "variable_declaration"})

_TS_SYMBOLS: dict[str, str] = {
    **_JS_SYMBOLS,
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
    "internal_module": "namespace",
    "module": "namespace",
    "function_signature": "function",
    "public_field_definition": "method",
    "abstract_method_signature": "method",
}
_TS_CONTAINERS = _JS_CONTAINERS | {"abstract_class_declaration", "internal_module", "module"}

_C_SYMBOLS: dict[str, str] = {
    "function_definition": "function",
    "struct_specifier": "struct",
    "union_specifier": "struct",
    "enum_specifier": "enum",
}
_CPP_CLASS_LIKE = frozenset({"class_specifier", "struct_specifier", "union_specifier"})

RULES: dict[str, SyntaxRules] = {
    "python": SyntaxRules(
        symbols={"function_definition": "function", "class_definition": "class"},
        containers=frozenset({"class_definition"}),
        wrappers=frozenset({"decorated_definition"}),
        annotations=frozenset({"decorator"}),
        method_scopes=frozenset({"class_definition"}),
    ),
    "javascript": SyntaxRules(
        symbols=_JS_SYMBOLS,
        containers=_JS_CONTAINERS,
        wrappers=_JS_WRAPPERS,
        leading=frozenset({"decorator"}),
        annotations=frozenset({"decorator"}),
        method_scopes=_JS_CONTAINERS,
    ),
    "typescript": SyntaxRules(
        symbols=_TS_SYMBOLS,
        containers=_TS_CONTAINERS,
        wrappers=_JS_WRAPPERS | {"expression_statement", "ambient_declaration"},
        leading=frozenset({"decorator"}),
        annotations=frozenset({"decorator"}),
        method_scopes=frozenset({"class_declaration", "class", "abstract_class_declaration"}),
    ),
    "go": SyntaxRules(
        # `type_alias` is `type BoolFlag = FlagBase[bool]`: a type the package declares, like a `type_spec`.
        symbols={
            "function_declaration": "function",
            "method_declaration": "method",
            "type_spec": "type",
            "type_alias": "type",
        },
        containers=frozenset(),
        wrappers=frozenset({"type_declaration"}),
        package_nodes=frozenset({"package_clause"}),
    ),
    "java": SyntaxRules(
        symbols={
            "class_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "annotation_type_declaration": "interface",
            "method_declaration": "method",
            "constructor_declaration": "constructor",
            "compact_constructor_declaration": "constructor",
        },
        containers=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            }
        ),
        comments=frozenset({"block_comment", "line_comment"}),
        annotations=frozenset({"marker_annotation", "annotation"}),
        package_nodes=frozenset({"package_declaration"}),
    ),
    "rust": SyntaxRules(
        symbols={
            "function_item": "function",
            "function_signature_item": "function",
            "struct_item": "struct",
            "union_item": "struct",
            "enum_item": "enum",
            "trait_item": "trait",
            "impl_item": "impl",
            "mod_item": "module",
            "macro_definition": "macro",
            "type_item": "type",
        },
        containers=frozenset({"trait_item", "impl_item", "mod_item"}),
        leading=frozenset({"attribute_item"}),
        comments=frozenset({"line_comment", "block_comment"}),
        annotations=frozenset({"attribute_item"}),
        method_scopes=frozenset({"trait_item", "impl_item"}),
        needs_body=frozenset({"mod_item"}),
    ),
    "c": SyntaxRules(
        symbols=_C_SYMBOLS,
        containers=frozenset(),
        wrappers=frozenset({"type_definition", "declaration"}),
        needs_body=frozenset({"struct_specifier", "union_specifier", "enum_specifier"}),
    ),
    "cpp": SyntaxRules(
        symbols={**_C_SYMBOLS, "class_specifier": "class", "namespace_definition": "namespace"},
        containers=_CPP_CLASS_LIKE | {"namespace_definition"},
        wrappers=frozenset({"type_definition", "declaration", "template_declaration"}),
        method_scopes=_CPP_CLASS_LIKE,
        namespaces=frozenset({"namespace_definition"}),
        needs_body=frozenset(
            {
                "struct_specifier",
                "union_specifier",
                "enum_specifier",
                "class_specifier",
                "namespace_definition",
            }
        ),
    ),
    "csharp": SyntaxRules(
        symbols={
            "namespace_declaration": "namespace",
            "class_declaration": "class",
            "interface_declaration": "interface",
            "struct_declaration": "struct",
            "record_declaration": "record",
            "enum_declaration": "enum",
            "method_declaration": "method",
            "constructor_declaration": "constructor",
            "destructor_declaration": "method",
            "operator_declaration": "method",
            "delegate_declaration": "type",
        },
        containers=frozenset(
            {
                "namespace_declaration",
                "class_declaration",
                "interface_declaration",
                "struct_declaration",
                "record_declaration",
            }
        ),
        annotations=frozenset({"attribute_list"}),
        namespaces=frozenset({"namespace_declaration"}),
        package_nodes=frozenset({"file_scoped_namespace_declaration"}),
    ),
    "ruby": SyntaxRules(
        symbols={"class": "class", "module": "module", "method": "function", "singleton_method": "method"},
        containers=frozenset({"class", "module"}),
        method_scopes=frozenset({"class", "module"}),
    ),
    "php": SyntaxRules(
        symbols={
            "namespace_definition": "namespace",
            "class_declaration": "class",
            "interface_declaration": "interface",
            "trait_declaration": "trait",
            "enum_declaration": "enum",
            "function_definition": "function",
            "method_declaration": "method",
        },
        containers=frozenset(
            {
                "namespace_definition",
                "class_declaration",
                "interface_declaration",
                "trait_declaration",
                "enum_declaration",
            }
        ),
        annotations=frozenset({"attribute_list"}),
        namespaces=frozenset({"namespace_definition"}),
        package_nodes=frozenset({"namespace_definition"}),
        needs_body=frozenset({"namespace_definition"}),
    ),
}
RULES.update(
    {
        "kotlin": SyntaxRules(
            symbols={
                "class_declaration": "class",
                "object_declaration": "class",
                "companion_object": "class",
                "function_declaration": "function",
            },
            containers=frozenset({"class_declaration", "object_declaration", "companion_object"}),
            comments=frozenset({"line_comment", "block_comment"}),
            annotations=frozenset({"annotation"}),
            method_scopes=frozenset({"class_declaration", "object_declaration", "companion_object"}),
            package_nodes=frozenset({"package_header"}),
        ),
        "swift": SyntaxRules(
            symbols={
                "class_declaration": "class",
                "protocol_declaration": "interface",
                "function_declaration": "function",
                "protocol_function_declaration": "function",
                "init_declaration": "constructor",
            },
            containers=frozenset({"class_declaration", "protocol_declaration"}),
            comments=frozenset({"comment", "multiline_comment"}),
            annotations=frozenset({"attribute"}),
            method_scopes=frozenset({"class_declaration", "protocol_declaration"}),
        ),
        "scala": SyntaxRules(
            symbols={
                "class_definition": "class",
                "object_definition": "class",
                "trait_definition": "trait",
                "enum_definition": "enum",
                "function_definition": "function",
                "function_declaration": "function",
            },
            containers=frozenset({"class_definition", "object_definition", "trait_definition", "enum_definition"}),
            comments=frozenset({"comment", "block_comment"}),
            annotations=frozenset({"annotation"}),
            method_scopes=frozenset({"class_definition", "object_definition", "trait_definition"}),
            package_nodes=frozenset({"package_clause"}),
        ),
        "lua": SyntaxRules(symbols={"function_declaration": "function"}, containers=frozenset()),
        "shell": SyntaxRules(symbols={"function_definition": "function"}, containers=frozenset()),
        "haskell": SyntaxRules(
            symbols={
                "function": "function",
                "bind": "function",
                "data_type": "type",
                "newtype": "type",
                "type_family": "type",
                "class": "class",
                "instance": "impl",
            },
            containers=frozenset({"class", "instance"}),
            leading=frozenset({"signature"}),
            comments=frozenset({"comment", "haddock"}),
            annotations=frozenset({"signature"}),
            method_scopes=frozenset({"class", "instance"}),
            package_nodes=frozenset({"header"}),
            needs_name=frozenset({"function", "bind"}),
        ),
        "terraform": SyntaxRules(symbols={"block": "block"}, containers=frozenset(), label_names=frozenset({"block"})),
        "sql": SyntaxRules(
            symbols={
                "create_table": "table",
                "create_view": "view",
                "create_function": "function",
                "create_index": "index",
                "create_type": "type",
                "create_schema": "schema",
            },
            containers=frozenset(),
            wrappers=frozenset({"statement"}),
            comments=frozenset({"comment", "marginalia"}),
            name_children=frozenset({"object_reference"}),
        ),
        "dart": SyntaxRules(
            # A Dart function is a signature node followed by a separate body node, so functions stay
            # in their class's symbol (or the module's) rather than losing their bodies.
            symbols={
                "class_definition": "class",
                "mixin_declaration": "class",
                "extension_declaration": "class",
                "enum_declaration": "enum",
            },
            containers=frozenset(),
            comments=frozenset({"comment", "documentation_comment"}),
            annotations=frozenset({"annotation"}),
            name_children=frozenset({"identifier"}),
        ),
        "zig": SyntaxRules(
            symbols={"function_declaration": "function", "test_declaration": "test"},
            containers=frozenset(),
            name_children=frozenset({"string"}),
        ),
        "elixir": SyntaxRules(
            symbols={"call": "function"},
            containers=frozenset(),
            call_keywords={
                "defmodule": "module",
                "defprotocol": "interface",
                "defimpl": "impl",
                "def": "function",
                "defp": "function",
                "defmacro": "macro",
                "defmacrop": "macro",
                "defguard": "function",
                "defdelegate": "function",
            },
            call_containers=frozenset({"defmodule", "defprotocol", "defimpl"}),
        ),
    }
)
RULES["tsx"] = RULES["typescript"]
