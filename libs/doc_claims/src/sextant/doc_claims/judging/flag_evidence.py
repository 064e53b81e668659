"""Where a program's flags are defined: the option declarations of the repository's library code.

A flag is defined where the program's options are declared, not wherever its text appears. The
evidence is, in a library source file (no docs, tests, examples, fixtures, build or CI files, no
other tool's configuration):

- the flag written out (`'--app'`, `"-a, --app <name>"`, `'--reload/--no-reload'`): click, argparse,
  commander, a help text; a short flag only inside a string (`'-a'`), since `-a` is also code;
- an option name a framework turns into the flag: a yargs option key (`'check-leaks': {`,
  `exit: {` gives `--exit` and `--no-exit`) or alias, a Go flag's name string (`Name: "app"`,
  `Flags().StringP("app", "a", …)`, `flag.Bool("v", …)`), argparse `dest='app'`;
- a parameter of a function in a file that uses Typer (`def main(force: bool = False)` gives
  `--force`): Typer derives its options from the function's parameters.

A name that only appears elsewhere (a parameter `app` of any function, a Makefile line running
another program, a test passing the flag) defines no flag.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sextant.doc_claims.judging.argument_lists import top_level

if TYPE_CHECKING:
    from sextant.doc_claims.judging.code_facts import CodeFacts

# Files that hold other programs' lines or configuration, never this program's option declarations.
_NOT_SOURCE_NAMES = frozenset(
    {"makefile", "gnumakefile", "dockerfile", "procfile", "jenkinsfile", "vagrantfile", "justfile", "rakefile"}
)
_NOT_SOURCE_EXTENSIONS = frozenset(
    {
        ".mk", ".yml", ".yaml", ".json", ".jsonc", ".json5", ".toml", ".cfg", ".ini", ".conf", ".lock", ".sh",
        ".bash", ".zsh", ".fish", ".bat", ".cmd", ".ps1", ".css", ".scss", ".less", ".html", ".htm", ".svg",
        ".xml", ".csv", ".in", ".j2", ".jinja", ".tmpl", ".env", ".properties",
    }
)  # fmt: skip
_CONFIG_NAME = re.compile(r"\.(?:conf|config|rc)\.[cm]?[jt]s$|^(?:karma|webpack|rollup|vite|jest|gulpfile|gruntfile)\b")
_JS_EXTENSIONS = (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx")

# `--app` anywhere but after a word or a dash; `-a` only right inside a string or a `-a, --app` list.
_LONG_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
_STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_SHORT_FLAG = re.compile(r"(?<![\w-])-[A-Za-z][\w-]*")
# A yargs option key (`'check-leaks': {`, `exit: {`) and its aliases (`alias: 'a'`, `alias: ['a', 'b']`).
_JS_OPTION_KEY = re.compile(r"^\s*(['\"]?)([A-Za-z][\w-]*)\1\s*:\s*(\{|\[)")
_JS_OPTION_CALL = re.compile(
    r"\.(?:option|options|positional|boolean|string|number|array|count|alias)\(\s*['\"]([A-Za-z][\w-]*)['\"]"
)
_JS_ALIAS = re.compile(r"\balias\s*:\s*\[?([^\]\n}]*)")
# A Go flag's names: strings on a line that declares a flag (`Name: "app, a"`, `Flags().StringP("app", "a"`).
_GO_FLAG_LINE = re.compile(
    r"\bName\s*:|\bAliases\s*:|\bFlags\(\)\.|\bflag\.\w+\(|\bfs\.\w+Var\w*\(|\bPersistentFlags\(\)\."
)
_QUOTED_NAME = re.compile(r"['\"`]([A-Za-z][\w-]*(?:\s*,\s*[A-Za-z][\w-]*)*)['\"`]")
# A (sub)command declaration: click/Typer `.command("run")`, argparse `add_parser("index")`, cobra `Use: "serve"`,
# commander `.command('init')`, yargs `command: 'init'`.
_COMMAND_LINE = re.compile(r"\bcommand\s*\(|\badd_parser\s*\(|\bUse\s*:|\bcommand\s*:|\bCommand\s*\{")
_COMMAND_NAME = re.compile(r"['\"`]([A-Za-z][\w-]*)")
_PY_DEST = re.compile(r"\bdest\s*=\s*['\"]([A-Za-z_][\w-]*)['\"]")
_PY_PARAMETER = re.compile(r"(?:^|[(,])\s*\*{0,2}([A-Za-z_]\w*)\s*(?=[:=,)]|$)")
_TYPER = "typer"
# A short option written with its value attached (`-Ofair` for `-O fair`, `-j4`): the option is `-O`.
_ATTACHED_VALUE = re.compile(r"^(-[A-Za-z])[A-Za-z0-9]+$")
FRAMEWORK_FLAGS = frozenset({"--help", "-h", "--version", "--install-completion", "--show-completion"})
"""Flags the CLI frameworks add by themselves (click, argparse, Typer, yargs, commander, cobra, urfave)."""


def is_declaring_file(path: str) -> bool:
    """Whether a (library) code file can declare the repository's own options: a source file, not a build,
    CI or configuration file, nor another tool's configuration (`karma.conf.js`, `.eslintrc.js`).

    Args:
        path: A code file's path, already known not to be a test, an example or a doc.

    Returns:
        True for a source file.
    """
    name = path.rsplit("/", 1)[-1].lower()
    if name.startswith(".") or name in _NOT_SOURCE_NAMES or path.startswith(".github/"):
        return False
    dot = name.rfind(".")
    if dot > 0 and name[dot:] in _NOT_SOURCE_EXTENSIONS:
        return False
    return _CONFIG_NAME.search(name) is None


def option_names(path: str, text: str) -> Iterator[tuple[int, str]]:
    """The flags (`--app`, `-a`) and option names (`app`, from which a framework makes `--app`) a chunk
    of a declaring file writes, each with its 0-based line offset.

    Args:
        path: The file (its extension picks the language's option declarations).
        text: The chunk's text.

    Yields:
        (line offset, flag or name).
    """
    javascript, go, python = path.endswith(_JS_EXTENSIONS), path.endswith(".go"), path.endswith((".py", ".pyi"))
    for offset, line in enumerate(text.split("\n")):
        for flag in _LONG_FLAG.findall(line):
            yield offset, flag
        if "-" in line:
            for string in _STRING.findall(line):
                yield from ((offset, flag) for flag in _SHORT_FLAG.findall(string[1:-1]) if flag[1] != "-")
        if javascript:
            yield from ((offset, name) for name in _js_option_names(line))
        elif go and _GO_FLAG_LINE.search(line):
            for quoted in _QUOTED_NAME.findall(line):
                yield from ((offset, name.strip()) for name in quoted.split(","))
        elif python and "dest" in line:
            yield from ((offset, name) for name in _PY_DEST.findall(line))


def _js_option_names(line: str) -> Iterator[str]:
    if (key := _JS_OPTION_KEY.match(line)) is not None:
        yield key.group(2)
        if key.group(3) == "[":  # an alias table: `'reporter-option': ['reporter-options', 'O'],`
            for quoted in _QUOTED_NAME.findall(line[key.end() :]):
                yield from (name.strip() for name in quoted.split(","))
    yield from _JS_OPTION_CALL.findall(line)
    if (alias := _JS_ALIAS.search(line)) is not None:
        for quoted in _QUOTED_NAME.findall(alias.group(1)):
            yield from (name.strip() for name in quoted.split(","))


def signature_parameters(signature: str) -> list[str]:
    """The parameter names of a Python declaration (`def main(name: str, force: bool = False)`)."""
    opening = signature.find("(")
    if opening < 0:
        return []
    # Only the top level: `typer.Option("--x", help="…")` is a default, not a parameter.
    names = _PY_PARAMETER.findall("(" + top_level(signature, opening + 1).replace("\n", " "))
    return [name for name in names if name not in {"self", "cls", "ctx"}]


@dataclass(frozen=True, order=True, slots=True)
class FlagSite:
    """Where a flag or an option name is declared: a file and a 1-based line."""

    path: str
    line: int


class FlagDeclarations:
    """Gathers the option declarations of a repository's library code, chunk by chunk."""

    def __init__(self) -> None:
        """Start empty."""
        self._names: dict[str, FlagSite] = {}
        self._commands: set[str] = set()
        self._signatures: list[tuple[str, int, str]] = []

    def offer_chunk(self, path: str, start_line: int, text: str) -> None:
        """Take in a chunk of a library code file (the caller leaves tests, examples and docs out)."""
        if not is_declaring_file(path):
            return
        for offset, name in option_names(path, text):
            self._keep(sys.intern(name), FlagSite(path, start_line + offset))
        for line in text.split("\n"):
            if _COMMAND_LINE.search(line):
                self._commands.update(_COMMAND_NAME.findall(line))

    def offer_signature(self, path: str, line: int, signature: str) -> None:
        """Take in a Python definition of a library code file: its parameters are options when the file uses Typer."""
        if path.endswith((".py", ".pyi")) and is_declaring_file(path):
            self._signatures.append((path, line, signature))

    def build(self, bindings: Mapping[str, Set[str]], files: Set[str], code_files: Set[str]) -> DeclaredFlags:
        """The declarations gathered, and the program files the index did not read.

        Args:
            bindings: Code file → the names it binds (imports included): a file binding `typer` uses Typer.
            files: Every file known (the whole git tree when given).
            code_files: The code files the index read.
        """
        for path, line, signature in self._signatures:
            if _TYPER in bindings.get(path, ()):
                for name in signature_parameters(signature):
                    self._keep(sys.intern(name), FlagSite(path, line))
        self._signatures.clear()
        unread = tuple(sorted(path for path in files if path not in code_files and _is_unread_program(path)))
        return DeclaredFlags(self._names, unread, frozenset(self._commands))

    def _keep(self, name: str, site: FlagSite) -> None:
        known = self._names.get(name)
        if known is None or site < known:
            self._names[name] = site


@dataclass(frozen=True)
class DeclaredFlags:
    """The option declarations of the library code (CodeFacts.flag_declarations)."""

    names: Mapping[str, FlagSite] = field(default_factory=dict)
    """Flag (`--app`, `-a`) or option name (`app`) → its first declaration."""
    unread: tuple[str, ...] = ()
    """Executables under a `bin/` folder the index does not read (`bin/_mocha`, no extension): a
    program's options may be declared there, so an undeclared flag is no contradiction."""
    commands: frozenset[str] = frozenset()
    """Names the library code declares (sub)commands by (`.command("run")`, `add_parser("index")`, `Use:`)."""


def _is_unread_program(path: str) -> bool:
    folders, _, name = path.rpartition("/")
    return "bin" in folders.split("/") and "." not in name and not name.startswith(".")


def task_parameter(flag: str, words: tuple[str, ...], facts: CodeFacts) -> str | None:
    """The function a flag's subcommand names whose parameter the flag derives from (`inv index --force`
    for a task `def index(c, force=False)`), as `path:line`, or None.

    Args:
        flag: The flag.
        words: The words before it on its line (its subcommands).
        facts: The code facts (symbols and signatures; tests, samples and other files left out).
    """
    from sextant.doc_claims.judging.code_facts import is_sample_path  # code_facts imports this module

    names = set(derived_names(flag))
    for word in words:
        for site in facts.symbols.get(word.replace("-", "_"), ()):
            if is_sample_path(site.path) or not is_declaring_file(site.path):
                continue
            for signature in facts.signatures.get((site.path, site.qualified), ()):
                if names.intersection(signature_parameters(signature)):
                    return f"{site.path}:{site.line}"
    return None


def derived_names(flag: str) -> list[str]:
    """The option names a framework would turn into this flag: `--dry-run` from `dry-run` or `dry_run`,
    `--no-debug` from `debug` (a boolean's negation), `-v` from `v`."""
    bare = flag.lstrip("-")
    names = [bare, bare.replace("-", "_")]
    if bare.startswith("no-"):
        names += [bare.removeprefix("no-"), bare.removeprefix("no-").replace("-", "_")]
    return list(dict.fromkeys(name for name in names if name))


def declared_flag(flag: str, declared: DeclaredFlags) -> tuple[FlagSite, str] | None:
    """Where the library code declares a flag, and how (the flag itself, or the option name it derives
    from), or None when no declaration makes it. `--no-x` is not `--x`'s: commander and argparse make no
    negation of themselves; click spells `--x/--no-x` out, and yargs and Typer derive both from `x`.

    Args:
        flag: The flag as the doc writes it, value removed (`--app`, `-a`, `--no-debug`).
        declared: The library code's declarations.
    """
    declarations = declared.names
    if (site := declarations.get(flag)) is not None:
        return site, f"declared in {site.path}:{site.line}"
    for name in derived_names(flag):
        if (site := declarations.get(name)) is not None:
            return site, f"option {name} declared in {site.path}:{site.line} (the flag's derived name)"
    attached = _ATTACHED_VALUE.match(flag)
    if attached is not None and (site := declarations.get(option := attached.group(1))) is not None:
        return site, f"short option {option} declared in {site.path}:{site.line}, its value attached"
    return None
