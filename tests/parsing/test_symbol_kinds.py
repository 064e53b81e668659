"""One home for the symbol types that are not definitions, and it agrees with what the parser emits."""

from __future__ import annotations

from sextant.parsing import NON_DEFINITION_SYMBOL_TYPES, is_definition, parse_symbols


def test_windows_sections_and_module_outlines_are_not_definitions() -> None:
    code = parse_symbols("app.py", "import os\n\n\ndef main():\n    return os.name\n")
    doc = parse_symbols("README.md", "# Title\n\nText.\n")
    text = parse_symbols("notes.cfg2", "a = 1\n")
    kinds = {symbol.symbol_type: is_definition(symbol.symbol_type) for symbol in [*code, *doc, *text]}
    assert kinds["function"] is True
    assert kinds["module"] is False
    assert kinds["window"] is False
    assert all(kind in NON_DEFINITION_SYMBOL_TYPES for kind, defined in kinds.items() if not defined)
    assert is_definition(None) is False
