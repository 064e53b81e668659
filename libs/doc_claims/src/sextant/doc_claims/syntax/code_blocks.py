"""Which lines of a fenced or literal code block are claims: shell commands, env files, imports,
and the qualified names a Python sample reaches the code through."""

from __future__ import annotations

import ast
import re
import sys
import textwrap

from sextant.doc_claims.claims.known_names import CODE_EXTENSIONS, DATA_EXTENSIONS, UNINDEXED_EXTENSIONS
from sextant.doc_claims.syntax.go_samples import GO_LANGUAGES, go_sample_names
from sextant.doc_claims.syntax.mentions import Mention, MentionForm

SHELL_LANGUAGES = frozenset(
    {
        "bash",
        "sh",
        "shell",
        "zsh",
        "fish",
        "console",
        "shell-session",
        "shellsession",
        "sh-session",
        "terminal",
        "ps1",
        "powershell",
        "pwsh",
        "posh",
        "bat",
        "cmd",
        "batch",
    }
)
# Blocks whose lines are commands only when they carry a prompt (the rest is output).
PROMPT_ONLY_LANGUAGES = frozenset(
    {
        "console",
        "shell-session",
        "shellsession",
        "sh-session",
        "terminal",
        "",
        "text",
        "txt",
        "none",
        "plaintext",
        "plain",
    }
)
ENV_LANGUAGES = frozenset({"env", "dotenv", ".env"})
PYTHON_LANGUAGES = frozenset({"python", "py", "python3", "pycon", "ipython"})

_PROMPT = re.compile(r"^\s*(?:\([\w.-]+\)\s*)?(?:[\w.@~:/-]+\s?)?[$%]\s+(?=\S)|^\s*PS[^>]*>\s+")
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)\s*=")
_FROM_IMPORT = re.compile(r"^\s*(?:>>>\s+)?from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w\s,]+)\)?\s*$")
_IMPORT = re.compile(r"^\s*(?:>>>\s+)?import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*$")


def block_mentions(language: str, lines: list[tuple[int, str]]) -> list[Mention]:
    """Mentions inside one code block.

    Args:
        language: The block's info string / language, as written (case-insensitive).
        lines: (offset in the doc, text) for each line of the block's body.

    Returns:
        Shell command lines, `KEY=value` lines of env files, Python import lines, and for any
        other block (YAML, JSON, code samples) one "example" mention: names in it are the doc's
        own example names, so the doc's prose naming them is not firm evidence about the code.
    """
    lang = language.strip().lower().lstrip("{.").split(",")[0].split()[0] if language.strip() else ""
    if lang in ENV_LANGUAGES:
        return [_whole(offset, text, "env_file") for offset, text in lines if _ENV_LINE.match(text)]
    if lang in SHELL_LANGUAGES or lang in PROMPT_ONLY_LANGUAGES:
        commands = _shell_lines(lines, prompts_required=lang in PROMPT_ONLY_LANGUAGES)
        if commands or lang in SHELL_LANGUAGES:
            return commands
    mentions = [_example(lines)] if lines else []
    if lang in GO_LANGUAGES:
        return mentions + go_sample_names(lines)
    if lang not in PYTHON_LANGUAGES and lang:
        return mentions
    tree = _parsed_sample([text for _, text in lines])
    acts = tree is not None and _does_something(tree)
    if lang in PYTHON_LANGUAGES or acts:
        # A block with no language that acts as Python (a reST `::` block) imports as a labelled one does.
        mentions += [
            _whole(offset, text, "python_import")
            for offset, text in lines
            if _FROM_IMPORT.match(text) or _IMPORT.match(text)
        ]
    return mentions + sample_names(lines, labelled=bool(lang))


def sample_names(lines: list[tuple[int, str]], *, labelled: bool) -> list[Mention]:
    """Qualified names a Python sample reaches through a module it does not define: `aiohttp.web.run_app`.

    A sample that calls `pkg.f()` or catches `pkg.Error` claims the package has them. Only names
    whose first part the sample neither assigns, defines nor takes as a parameter are read (`app.run`
    after `app = ...` is the sample's own object); a name the sample imports is read through its
    import (`web.Application` after `from aiohttp import web` is `aiohttp.web.Application`), and so is
    each bare use of an imported name (`@unittest_run_loop` is `aiohttp.test_utils.unittest_run_loop`
    on the decorator's line). Comments and strings are never read, nor the standard library's names.
    Whose the root is, the judge decides. A bare use of a name imported `from` a module is an
    "imported_use": the import line's claim met again, as firm as it.

    Args:
        lines: (offset in the doc, text) for each line of the block's body.
        labelled: The block says it is Python; a block with no language counts only when it parses
            as Python and does something (a call, an import, an assignment, a statement with a body).

    Returns:
        One "sample_name" mention per name, at the line it is written on.
    """
    tree = _parsed_sample([text for _, text in lines])
    if tree is None or (not labelled and not _does_something(tree)):
        return []
    bound, imported = _sample_bindings(tree)
    from_imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    }
    mentions = _import_strings(tree, lines)
    for node, written in _dotted_loads(tree, imported):
        root = written[0]
        if root in bound:
            continue
        parts = [*imported[root].split("."), *written[1:]] if root in imported else written
        if len(parts) < 2 or is_standard_library(parts[0]) or node.lineno > len(lines):
            continue
        offset, text = lines[node.lineno - 1]
        name = ".".join(parts)
        start = offset + len(text) - len(text.lstrip())
        # A bare use of a name imported `from` a module is the import line's own claim, met again.
        form: MentionForm = "imported_use" if len(written) == 1 and root in from_imported else "sample_name"
        mentions.append(Mention(start, start + len(name), name, form))
    return mentions


STRING_ROLE = "string"
"""The role of a sample's mention read off a string literal (an import path), not off the code."""
# A dotted import path written as a string (`'acme.backends.redis.RedisBackend'`) or an entry point
# (`'acme.worker.autoscale:Autoscaler'`, `'name = acme.cli:main'`): the code imports it by name.
_IMPORT_STRING = re.compile(
    r"(?:[\w.-]+\s*=\s*)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)"
)
# Last parts that make a dotted string a file or a host name (`acme.log`, `acme.example.com`).
_NOT_MEMBERS = CODE_EXTENSIONS | DATA_EXTENSIONS | UNINDEXED_EXTENSIONS | {"com", "org", "net", "log", "pid"}


def _import_strings(tree: ast.Module, lines: list[tuple[int, str]]) -> list[Mention]:
    """Names a sample writes as whole strings that are import paths (`requires = ('acme.steps:Hub',)`).

    Code that loads a class or a bootstep by name takes a string: a dotted path, or an entry point with
    a colon before the attribute. Such a string is the same claim as an import. A file name
    (`acme.log`), a host, a URL, a format string or a sentence is no import path; whose the root is,
    the judge decides (only one of the repository's own packages makes it a claim). An entry point is
    as firm as an import line ("imported_use"): the module it names must have the attribute. A dotted
    path alone may be a logger's or a task's name, so it alarms only when history shows it removed.
    """
    mentions: list[Mention] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or node.lineno > len(lines):
            continue
        if (match := _IMPORT_STRING.fullmatch(node.value.strip())) is None:
            continue
        name = match.group(1)
        parts = re.split(r"[.:]", name)
        if is_standard_library(parts[0]) or parts[-1].lower() in _NOT_MEMBERS:
            continue
        offset, text = lines[node.lineno - 1]
        start = offset + len(text) - len(text.lstrip())
        form: MentionForm = "imported_use" if ":" in name else "sample_name"
        mentions.append(Mention(start, start + len(name), name, form, role=STRING_ROLE))
    return mentions


def _parsed_sample(texts: list[str]) -> ast.Module | None:
    """The sample as Python, line for line; a session keeps only its prompted lines (the rest is output)."""
    prompted = [_SESSION_PROMPT.match(text) for text in texts]
    if any(match is not None and match.group(1) == ">>>" for match in prompted):
        texts = [text[match.end() :] if match is not None else "" for text, match in zip(texts, prompted, strict=True)]
    source = textwrap.dedent("\n".join(texts))
    try:
        tree = compile(source, "<sample>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return None  # a fragment, another language, or output: no names read
    return tree if isinstance(tree, ast.Module) else None


# An interactive session's prompt (`>>> ` or `... `), with the one blank that follows it.
_SESSION_PROMPT = re.compile(r"^[ \t]*(>>>|\.\.\.)(?:[ \t]|$)", re.M)
_ACTING = (ast.Call, ast.Import, ast.ImportFrom, ast.Assign, ast.Try, ast.With, ast.AsyncWith, ast.FunctionDef)


def _does_something(tree: ast.Module) -> bool:
    return any(isinstance(node, _ACTING) for node in ast.walk(tree))


def _sample_bindings(tree: ast.Module) -> tuple[set[str], dict[str, str]]:
    """Names the sample binds itself, and those it imports (the local name → the dotted name it stands for)."""
    bound: set[str] = set()
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    imported[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound - set(imported), imported


def _dotted_loads(tree: ast.Module, imported: dict[str, str]) -> list[tuple[ast.expr, list[str]]]:
    """Each longest `a.b.c` read (not assigned) in the sample, with its parts, and each use of an
    imported name on its own (`@unittest_run_loop` after `from acme.test_utils import unittest_run_loop`):
    the line that uses it is where the reader meets it, not only the import line."""
    found: list[tuple[ast.expr, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and (parts := _parts(node)):
            found.append((node, parts))
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in imported:
            found.append((node, [node.id]))
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _parts(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute) and (parts := _parts(node.value)) is not None:
        return [*parts, node.attr]
    return None


def python_imports(text: str) -> list[str]:
    """Dotted names an import line brings in: `from a.b import c, d` → `a.b.c`, `a.b.d`.

    An import from the standard library (`from collections import deque`, Python 2's `from Queue
    import Empty`) brings in the language's names, never the repository's: it claims nothing.
    """
    if (match := _FROM_IMPORT.match(text)) is not None:
        module = match.group(1)
        if is_standard_library(module):
            return []
        names = [name.strip() for name in match.group(2).replace("\n", " ").split(",")]
        return [f"{module}.{name.split()[0]}" for name in names if name and name.split()[0] != "*"]
    if (match := _IMPORT.match(text)) is not None:
        # `import uuid` names a module that may be anyone's; only dotted imports name members.
        return [name.strip() for name in match.group(1).split(",") if "." in name and not is_standard_library(name)]
    return []


def is_standard_library(module: str) -> bool:
    """Whether a module is Python's own, by its first part: Python 3's names, and Python 2's (`Queue`,
    `ConfigParser`, `urllib2`) that examples written for it still import."""
    root = module.strip().split(".", 1)[0]
    return root.lower() in _STANDARD_LIBRARY or root in PYTHON2_MODULES


_STANDARD_LIBRARY = frozenset(name.lower() for name in sys.stdlib_module_names)
# Python 2's standard-library modules that Python 3 renamed or dropped (the others differ only in
# case: `Queue`, `ConfigParser`).
PYTHON2_MODULES = frozenset(
    {
        "Cookie",
        "HTMLParser",
        "StringIO",
        "__builtin__",
        "cPickle",
        "cStringIO",
        "commands",
        "cookielib",
        "httplib",
        "robotparser",
        "thread",
        "urllib2",
        "urlparse",
        "xmlrpclib",
    }
)


_DEFINITION = re.compile(
    r"\b(?:def|class|function|func|fn|struct|interface|type|enum|trait)\s+([A-Za-z_]\w*)"
    r"|^[ \t]*(?:const|let|var|val)?[ \t]*"
    r"([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*)[ \t]*(?::[^=\n]+)?=(?!=)",
    re.M,
)
_IMPORTED = re.compile(r"^[ \t]*(?:>>>[ \t]+)?(?:from[ \t]+\S+[ \t]+)?import[ \t]+([^\n]+)", re.M)
_STRING_NAME = re.compile(r"[\"']([A-Za-z][\w-]*)[\"']")
_PARAMETERS = re.compile(r"\b(?:def|function|func|fn)\s+\w+\s*\(([^)]*)\)")
_CALL_ARGUMENTS = re.compile(r"[A-Za-z_][\w.]*\(([^()\n]*)\)")
_SPREAD = re.compile(r"^\s*(\*{1,2})([A-Za-z_]\w*)\s*$")
_BARE_NAME = re.compile(r"^\s*([A-Za-z_]\w*)\s*$")


def template_arguments(code: str) -> set[str]:
    """The arguments of a call written as a template: `raises(ExpectedException, func, *args, **kwargs)`.

    A call that spreads both `*args` and `**kwargs`, which the sample never defines, is not code that runs: it shows
    a signature, and its bare-name arguments are the reader's to fill in (`ExpectedException` is
    whatever exception the reader expects, `func` their function), however much one of them looks
    like a class the repository once had. The names it spreads are placeholders too. Prose naming one
    of them (“the given ``ExpectedException`` is raised”) talks about the template, so no claim.

    Args:
        code: A code sample's text.

    Returns:
        The placeholder names.
    """
    defined = defined_names(code, own_only=True)
    names: set[str] = set()
    for match in _CALL_ARGUMENTS.finditer(code):
        arguments = match.group(1).split(",")
        spreads = [m for part in arguments if (m := _SPREAD.match(part))]
        if {m.group(1) for m in spreads} != {"*", "**"} or any(m.group(2) in defined for m in spreads):
            continue  # a template spreads both `*args` and `**kwargs`, neither of them the sample's own
        names.update(m.group(2) for m in spreads)
        bare = (m.group(1) for part in arguments if (m := _BARE_NAME.match(part)))
        names.update(name for name in bare if name not in defined)
    return names


def defined_names(code: str, *, own_only: bool = False) -> set[str]:
    """Names a code sample defines: functions, classes, parameters, assignment targets, imports.

    Args:
        code: The sample's text.
        own_only: Only what the sample itself defines (no imported names, no quoted command names).

    Returns:
        The defined names (names it only uses are not included: a sample calling a function the
        repository removed is exactly the drift worth reporting).
    """
    names: set[str] = set()
    code = _SESSION_PROMPT.sub("", code)  # `>>> res = add.delay(2, 2)` binds res as a script would
    for match in _DEFINITION.finditer(code):
        if match.group(1):
            names.add(match.group(1))
        else:
            names.update(part.strip() for part in match.group(2).split(","))
    for match in _PARAMETERS.finditer(code):
        for parameter in match.group(1).split(","):
            if (name := re.match(r"\s*\**([A-Za-z_]\w*)", parameter)) is not None:
                names.add(name.group(1))
    if own_only:
        return names
    names.update(_STRING_NAME.findall(code))  # @cli.command("create-user"): a sample's own command
    for match in _IMPORTED.finditer(code):
        for part in match.group(1).replace("(", " ").replace(")", " ").split(","):
            words = part.split()
            if words:
                names.add(words[-1])  # `x as y` defines y; `x` defines x
    return names


def _example(lines: list[tuple[int, str]]) -> Mention:
    """A code sample: the names it defines or uses are the doc's own example names."""
    body = "\n".join(text for _, text in lines)
    return Mention(lines[0][0], lines[-1][0] + len(lines[-1][1]), body, "example")


def _whole(offset: int, text: str, form: MentionForm) -> Mention:
    return Mention(offset, offset + len(text), text, form)


def _shell_lines(lines: list[tuple[int, str]], *, prompts_required: bool) -> list[Mention]:
    """Command lines of a shell block: with prompts, only prompted lines; joined over `\\`."""
    has_prompts = any(_PROMPT.match(text) for _, text in lines)
    if prompts_required and not has_prompts:
        return []
    mentions: list[Mention] = []
    pending: tuple[int, str] | None = None
    for offset, text in lines:
        if pending is not None:
            joined = pending[1] + " " + text.strip()
            pending = (pending[0], joined)
        else:
            prompt = _PROMPT.match(text)
            if has_prompts and prompt is None:
                continue  # output, not a command
            body = text[prompt.end() :] if prompt else text
            if not body.strip() or body.lstrip().startswith(("#", "//", "REM ", "::")):
                continue
            pending = (offset + (prompt.end() if prompt else 0), body.strip())
        if pending[1].endswith(("\\", "`", "^")):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        mentions.append(Mention(pending[0], pending[0] + len(pending[1]), pending[1], "shell"))
        pending = None
    if pending is not None:
        mentions.append(Mention(pending[0], pending[0] + len(pending[1]), pending[1], "shell"))
    return mentions
