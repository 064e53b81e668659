"""Setting names a module forms from literal parts: names the code accepts though no file writes them whole.

Configuration code often builds the names it reads instead of writing each one: a template of old
names (`OLD_NS = {'celery_{0}'}` filled with each key), a namespace joined to the keys of its nested
table (`broker=Namespace(transport_options=…)` walked as `ns + key + '_'`), and the result
upper-cased for a settings module or the environment (`.upper()`). A doc naming
`CELERYD_CONCURRENCY` or `BROKER_TRANSPORT_OPTIONS` then names what the code accepts, though the
string appears nowhere.

So a module that upper-cases names and holds such parts gives, per file, its *stems* (the literal
prefix of a template, `celery_` of `'celery_{0}'`; a key that opens a nested table, `broker_`, when
the module joins names with `_`), its *keys* (keyword arguments and dict keys), and its lower-case
snake literals (`'celery_task_publish_retry_policy'`, upper-cased as they are). An upper-case name
is formed there when it is one of those literals, or one stem followed by one key of the same
file, unless that key's entry writes its old name out whole (`old={'celery_redirect_stdouts_level'}`:
the explicit name, not the template's, is accepted). A template may itself be built by a function
of the module from its argument (`def old_ns(ns): return {f'{ns}_{{0}}'}`, or
`'{0}_{{0}}'.format(ns)`): each call with a
literal (`old_ns('celery_result')`) is then a stem of its own (`celery_result_`). Only one stem and one key:
`CELERY_TASK_ACKS_LATE` is not `celery_` + `task` + `acks_late`, since the code never joins a
template to a namespace. Only modules with a stem are kept, so a repository pays for a handful of
configuration modules, not for every file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from dataclasses import dataclass, field

_UPPER_CASES = re.compile(r"\.upper\(\)|\.toUpperCase\(\)|\bstrings\.ToUpper\(|\.upcase\b")
_JOINS_WITH_UNDERSCORE = re.compile(r"\+\s*[\"']_[\"']|[\"']_[\"']\s*\+|[\"']_[\"']\.join\(|\}_\{")
_TEMPLATE = re.compile(r"[\"']([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*_)(?:\{\w*\}|%s|\$\{\w+\})[\"']")
_TABLE = re.compile(
    r"^[ \t]+([a-z][a-z0-9_]*)[ \t]*=[ \t]*[A-Za-z_][\w.]*\([ \t]*$"  # broker=Namespace(
    r"|^[ \t]+[\"']?([a-z][a-z0-9_]*)[\"']?[ \t]*:[ \t]*\{[ \t]*$",  # 'broker': {
    re.M,
)
_KEY = re.compile(r"^[ \t]+([a-z][a-z0-9_]*)[ \t]*=(?!=)|[\"']([a-z][a-z0-9_]*)[\"'][ \t]*:", re.M)
_SNAKE_LITERAL = re.compile(r"[\"']([a-z][a-z0-9]*(?:_[a-z0-9]+)+)[\"']")
_FUNCTION_OF_ONE = re.compile(r"^[ \t]*def[ \t]+(\w+)\([ \t]*(\w+)[ \t]*\)", re.M)  # def old_ns(ns)
_BUILT_TEMPLATE = re.compile(
    r"\bf[\"']\{(?P<argument>\w+)\}(?P<after>[A-Za-z0-9]*_)\{\{\w*\}\}[\"']"  # f'{ns}_{{0}}'
    # or '{0}_{{0}}'.format(ns)
    r"|[\"']\{0?\}(?P<after2>[A-Za-z0-9]*_)\{\{\w*\}\}[\"']\.format\([ \t]*(?P<argument2>\w+)[ \t]*\)"
)
_CALL_WITH_LITERAL = re.compile(r"\b(\w+)\([ \t]*[\"']([a-z][a-z0-9_]*)[\"'][ \t]*\)")
_ENTRY_LINES = 2
"""How many lines after a key its entry may still be writing (a call spread over lines)."""
_UPPER_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


@dataclass(slots=True)
class NameParts:
    """The parts one code file forms names from, each lower-case with its first 1-based line."""

    templates: dict[str, int] = field(default_factory=dict)
    """Literal prefixes of name templates (`celery_` of `'celery_{0}'`)."""
    tables: dict[str, int] = field(default_factory=dict)
    """Keys opening a nested table, with `_` added (`broker_` of `broker=Namespace(`): stems only
    where the file joins names with `_`."""
    keys: dict[str, int] = field(default_factory=dict)
    """Keyword arguments, indented assignments and dict keys (`transport_options`)."""
    literals: dict[str, int] = field(default_factory=dict)
    """Lower-case snake string literals (`celery_send_events`)."""
    template_functions: dict[str, str] = field(default_factory=dict)
    """Functions that build a template from their argument → the literal they put after it (`old_ns` → `_`)."""
    calls: dict[str, dict[str, int]] = field(default_factory=dict)
    """Function → the lower-case snake literals it is called with (`old_ns('celery_result')`), by line."""

    def take(self, other: NameParts) -> None:
        """Add another chunk's parts of the same file (the first line of each part wins)."""
        for mine, theirs in (
            (self.templates, other.templates),
            (self.tables, other.tables),
            (self.keys, other.keys),
            (self.literals, other.literals),
        ):
            for name, line in theirs.items():
                if name not in mine or line < mine[name]:
                    mine[name] = line
        self.template_functions.update(other.template_functions)
        for function, literals in other.calls.items():
            known = self.calls.setdefault(function, {})
            for literal, line in literals.items():
                if literal not in known or line < known[literal]:
                    known[literal] = line

    def built_templates(self) -> None:
        """Add the stems the module's template functions build from the literals they are called with."""
        for function, after in self.template_functions.items():
            for literal, line in self.calls.get(function, {}).items():
                self.templates.setdefault(literal + after, line)


def upper_cases(text: str) -> bool:
    """Whether code upper-cases strings (`.upper()`, `.toUpperCase()`, `strings.ToUpper(`)."""
    return _UPPER_CASES.search(text) is not None


def joins_with_underscore(text: str) -> bool:
    """Whether code joins names with `_` (`ns + key + '_'`, `'_'.join(…)`, `'{0}_{1}'`)."""
    return _JOINS_WITH_UNDERSCORE.search(text) is not None


def name_parts(text: str, start_line: int) -> NameParts | None:
    """The name parts of one chunk of code, or None when it holds no stem (then it forms no names).

    Args:
        text: The chunk's text.
        start_line: The chunk's first line in its file (1-based).

    Returns:
        The parts with their lines.
    """
    templates = _first_lines(_TEMPLATE, text, start_line, lower=True)
    tables = {name + "_": line for name, line in _first_lines(_TABLE, text, start_line).items()}
    functions = _template_functions(text)
    if not templates and not tables and not functions:
        return None
    calls: dict[str, dict[str, int]] = {}
    for match in _CALL_WITH_LITERAL.finditer(text):
        line = start_line + text.count("\n", 0, match.start())
        calls.setdefault(match.group(1), {}).setdefault(match.group(2), line)
    return NameParts(
        templates=templates,
        tables=tables,
        keys=_first_lines(_KEY, text, start_line),
        literals=_first_lines(_SNAKE_LITERAL, text, start_line),
        template_functions=functions,
        calls=calls,
    )


def _template_functions(text: str) -> dict[str, str]:
    """Functions of one argument that build a template from it: `old_ns` → `_` for `f'{ns}_{{0}}'`.

    Each built template belongs to the nearest function defined before it whose argument it uses.
    """
    definitions = [(match.start(), match.group(1), match.group(2)) for match in _FUNCTION_OF_ONE.finditer(text)]
    found: dict[str, str] = {}
    for template in _BUILT_TEMPLATE.finditer(text):
        argument = template.group("argument") or template.group("argument2")
        after = template.group("after") or template.group("after2")
        before = [d for d in definitions if d[0] < template.start()]
        if before and before[-1][2] == argument:
            found[before[-1][1]] = after.lower()
    return found


def forming_files(
    parts_by_file: Mapping[str, NameParts], upper_casing: Set[str], joining: Set[str]
) -> dict[str, NameParts]:
    """The files that form names: they upper-case and hold a template, or a table stem and a join.

    Args:
        parts_by_file: Each file's parts (files with a stem only).
        upper_casing: Files that upper-case strings somewhere.
        joining: Files that join names with `_` somewhere.

    Returns:
        The forming files with the stems they can use (table stems dropped where nothing joins).
    """
    forming = {}
    for path, parts in parts_by_file.items():
        if path not in upper_casing:
            continue
        parts.built_templates()
        if path not in joining:
            parts.tables.clear()
        if parts.templates or parts.tables:
            forming[path] = parts
    return forming


def composed_name(name: str, parts_by_file: Mapping[str, NameParts]) -> tuple[str, int, str] | None:
    """Where the code forms an upper-case setting name from its parts, if it does.

    Args:
        name: An upper-case snake name (`CELERYD_CONCURRENCY`); others are never formed.
        parts_by_file: The files that form names (CodeFacts.composed_names).

    Returns:
        (path, line, how) for the first file that forms it, or None.
    """
    if not _UPPER_NAME.fullmatch(name):
        return None
    lower = name.lower()
    for path in sorted(parts_by_file):
        parts = parts_by_file[path]
        if (line := parts.literals.get(lower)) is not None:
            return path, line, f"the string '{lower}', which the module upper-cases"
        stems = parts.tables.keys() | parts.templates.keys()
        for cut in (i + 1 for i, char in enumerate(lower) if char == "_"):
            stem, key = lower[:cut], lower[cut:]
            if stem in stems and key in parts.keys and not _renamed_whole(key, parts):
                return path, parts.keys[key], f"formed from '{stem}' and the key {key}, upper-cased"
    return None


def _renamed_whole(key: str, parts: NameParts) -> bool:
    """Whether the key's entry writes its own old name out whole (`x=Option(old={'celery_x'})`, a
    literal ending in `_x` on the key's line or the two after): then that name, not a template's, is
    the one the code accepts for it."""
    line = parts.keys[key]
    return any(0 <= at - line <= _ENTRY_LINES and literal.endswith("_" + key) for literal, at in parts.literals.items())


def _first_lines(pattern: re.Pattern[str], text: str, start_line: int, *, lower: bool = False) -> dict[str, int]:
    """Each match's name (its first non-empty group) → the 1-based file line of its first match."""
    found: dict[str, int] = {}
    line, counted = start_line, 0
    for match in pattern.finditer(text):
        name = next(group for group in match.groups() if group)
        line += text.count("\n", counted, match.start())  # matches come in order: count each stretch once
        counted = match.start()
        found.setdefault(name.lower() if lower else name, line)
    return found
