"""What one inline literal (a backtick span, an RST literal, AsciiDoc monospace) claims, if anything."""

from __future__ import annotations

import dataclasses
import re

from sextant.doc_claims.claims import name_shapes as shapes
from sextant.doc_claims.claims.known_names import BUILTIN_CALLS, HTTP_METHODS, PYTHON_BUILTINS, WELL_KNOWN_COMMANDS
from sextant.doc_claims.claims.name_shapes import Draft
from sextant.doc_claims.claims.prose_context import (
    introduces_new,
    is_example,
    mentions_environment,
    noun_near,
    tells_to_create,
)
from sextant.doc_claims.claims.shell_commands import command_claims, task_command

_CALL = re.compile(r"^@?([A-Za-z_][\w.]*)\(([^()]*)\)$")
_KEY = re.compile(r"^[A-Za-z_][\w.-]*$")
_ASSIGNMENT = re.compile(r"^([A-Za-z_][\w.-]*)\s*(?:=|:)\s*\S.*$")
_HTTP_LINE = re.compile(r"^(?:[A-Z]+\s+/\S*|\d{3}(?:\s+[A-Za-z][A-Za-z ]*)?)$")
_RUN_VERB = re.compile(
    r"\b(?:run|runs|running|rerun|execute|executes|invoke|type|enter|try|use|using|launch|start|"
    r"commands?|cli|terminal|shell)\b",
    re.I,
)
_FLAG_OF = re.compile(r"^[`*]*\s+(?:(?:option|flag|switch|argument)s?\s+)?(?:to|of)\s+[`*]+([a-z][\w.-]*)")
"""The program a flag is given to, named right after it: "`--rebase` option to `git pull`"."""
_SHORTEST_CAMEL = 3
_STATEMENT_WORDS = frozenset(
    [
        "def",
        "class",
        "return",
        "import",
        "from",
        "with",
        "while",
        "for",
        "if",
        "elif",
        "else",
        "try",
        "except",
        "raise",
        "async",
        "await",
        "const",
        "let",
        "var",
        "new",
        "function",
        "lambda",
        "yield",
        "pass",
        "assert",
        "del",
        "not",
        "and",
        "or",
        "is",
    ]
)


def inline_claims(  # noqa: PLR0911 - one exit per rule
    literal: str, clause: str, after: str, *, interpreted: bool = False
) -> list[Draft]:
    """The claims one inline literal makes, judged with the prose around it.

    Args:
        literal: The literal's content, as written.
        clause: The clause of prose before the literal.
        after: A little text right after the literal.
        interpreted: reStructuredText interpreted text (`Name` in single backticks), which Sphinx reads
            with the default role, a cross-reference to an object: one capitalised word there is a class.

    Returns:
        Zero or more drafts (a shell command can yield a command, flags and env vars).
    """
    text = literal.strip()
    if len(text) > 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]  # `'admin/index.html'`: the quotes are the language's, not the name's
    if not text or len(text) > 200 or is_example(clause) or after.startswith(("...", "…")):
        return []  # `typer.File`...: the start of names the reader types, not a name
    if after.startswith("_") and not after[1:2].isalnum():
        return []  # `jinja.vim`_: a reStructuredText link reference (a page's title), not a literal
    if text.split()[0] in HTTP_METHODS or _HTTP_LINE.match(text):
        return []
    if (call := _CALL.match(text)) is not None and " " in text:
        # `connect(host, retries)`: a call written with its arguments, a claim about `connect`
        name = call.group(1)
        if name.lower() in BUILTIN_CALLS or shapes.is_placeholder(name) or name in PYTHON_BUILTINS:
            return []
        return [Draft("symbol", text, name)]
    if any(space in text for space in " \t\n"):
        return _spaced_literal(text, clause)
    if introduces_new(clause):
        return []  # "add a new `phone` field": the reader is to write it, the code need not have it
    drafts = _single_token(text, clause, after, interpreted=interpreted)
    if any(d.kind == "path" for d in drafts) and tells_to_create(clause):
        return [d for d in drafts if d.kind != "path"]
    if any(d.kind == "env" for d in drafts) and not mentions_environment(clause, after):
        # An upper-case name without talk of the environment may be a constant (`OPT_NAIVE_UTC`).
        return [dataclasses.replace(d, explicit=False) if d.kind == "env" else d for d in drafts]
    return drafts


def _spaced_literal(text: str, clause: str) -> list[Draft]:
    """A literal with spaces: a shell command, a `key = value` setting, or words we leave alone.

    A command needs a sign that it is one: a flag, an env assignment, or a verb such as "run" in
    the clause (`a monospace font` is two words, not the program `monospace`).
    """
    tokens = text.split()
    if tokens[0] in _STATEMENT_WORDS or any(mark in text for mark in "(){};"):
        return []
    if (assignment := _ASSIGNMENT.match(text)) is not None and not shapes.ENV_NAME.match(assignment.group(1)):
        return _config_key(assignment.group(1))
    flagged = any(t.startswith("-") or "=" in t for t in tokens) or _RUN_VERB.search(clause) is not None
    commandish = flagged or task_command(tokens) is not None  # `grunt build`, `npm run docs` need no verb
    return command_claims(text) if commandish else []


def _single_token(text: str, clause: str, after: str, *, interpreted: bool) -> list[Draft]:  # noqa: PLR0911 - one branch per shape reads best
    """A literal without spaces, classified by its shape and the nouns around it."""
    if shapes.is_external(text) and not text.startswith("#"):
        return []
    if (env := shapes.ENV_REFERENCE.fullmatch(text)) is not None:
        return [Draft("env", text, env.group(1) or env.group(2))]
    if "=" in text and not text.startswith("-") and _KEY.match(key := text.split("=", 1)[0]):
        if shapes.ENV_NAME.match(key):
            return [Draft("env", text, key)]
        return _config_key(key)
    if text.startswith("-"):
        flag = shapes.FLAG.match(text)
        if flag is None:
            return []
        # "the `--rebase` option to `git pull`": the words after the flag name its program.
        program = program.group(1) if (program := _FLAG_OF.match(after)) is not None else None
        return [Draft("flag", text, flag.group(1), explicit=flag.group(1).startswith("--"), command=program)]
    if shapes.is_plain_word(text) or shapes.is_placeholder(text):
        return []
    if (call := _CALL.match(text)) is not None:
        name = call.group(1)
        if name.lower() in BUILTIN_CALLS or shapes.is_placeholder(name):
            return []
        return [Draft("symbol", text, name)]
    if shapes.looks_like_path(text):
        path = shapes.normalize_path(text)
        # `changelog/2574.bugfix.rst`: the naming scheme of a news fragment the contributor writes.
        firm = shapes.path_is_explicit(path) and not shapes.is_news_fragment(path)
        return [Draft("path", text, path, explicit=firm)]
    return _name(text, noun_near(clause, after), interpreted=interpreted)


def _name(text: str, noun: str | None, *, interpreted: bool = False) -> list[Draft]:  # noqa: PLR0911, PLR0912 - one branch per shape
    """A bare name: env var, dotted symbol or key, snake/camel symbol, or a word made code by a noun."""
    name = text.lstrip("@").replace("::", ".").replace("#", ".")
    if shapes.ENV_NAME.match(name):
        return [Draft("env", text, name)]
    if name in PYTHON_BUILTINS:
        return []  # `ConnectionError`, `dict`: the language's, not the repository's
    if shapes.LOCALE.match(name):
        return []
    if shapes.DOTTED.match(name):
        if any("-" in segment for segment in name.split(".")):
            return [Draft("config_key", text, name)]
        return [Draft("symbol", text, name)]
    if not shapes.IDENTIFIER.match(name) or name.strip("_") == "" or name.startswith("__"):
        return []
    if noun == "config":
        return [Draft("config_key", text, name)]
    if name in WELL_KNOWN_COMMANDS:
        return []  # "invoke `pytest` directly": someone else's tool
    if noun == "command" and shapes.SUBCOMMAND.match(name):
        return [Draft("cli", text, name)]
    if noun == "module":
        return [Draft("symbol", text, name, explicit=False)]
    if len(name) <= _SHORTEST_CAMEL and shapes.LOWER_CAMEL.match(name):
        return []  # `pP`, `fE`: letters of an option's value, too short to be a name
    if "_" in name.strip("_") or shapes.LOWER_CAMEL.match(name) or noun == "code":
        return [Draft("symbol", text, name)]
    if shapes.CAMEL.match(name) or (interpreted and _CLASS_WORD.match(name)):
        # Capitalised names may be products (GitHub, JetStream, Redis): absent is unverifiable, and only
        # a removing commit of ours makes one an alarm ("the `Autoreloader` bootstep" after the class went).
        return [Draft("symbol", text, name, explicit=False)]
    return []


_CLASS_WORD = re.compile(r"^[A-Z][a-z0-9]{3,}$")
"""One capitalised word (`Autoreloader`): in reST interpreted text, a class's name as often as a product's.
Elsewhere (Markdown code, reST literals) it is as often a field of the doc's own example (`Password`)."""


def _config_key(key: str) -> list[Draft]:
    """A settings key written as `key = value` or `key: value`; plain single words are too generic."""
    if shapes.is_placeholder(key) or not re.search(r"[._-]", key.strip("_.-")):
        return []
    return [Draft("config_key", key, key.strip())]
