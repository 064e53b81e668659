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

A script of the repository that a doc runs (`python bench/run.py --rounds 3`, `./scripts/release.sh
--dry-run`) has options of its own, whatever its folder: its flags are held to what that script (and
the modules beside it that it imports) writes, not to the library's declarations (`script_flag`).
"""

from __future__ import annotations

import posixpath
import re
import sys
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from sextant.doc_claims.judging.argument_lists import top_level
from sextant.doc_claims.judging.task_runners import TaskDefinitions

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
# A list of option names written one per line under its key (`boolean: [` then `"exit",` lines, then `],`),
# as mocha's run options are grouped by type.
_JS_LIST_OPENED = re.compile(r"^\s*(['\"]?)[A-Za-z][\w-]*\1\s*:\s*\[[^\]]*$")
_JS_LIST_ITEM = re.compile(r"^\s*(['\"])([A-Za-z][\w-]*)\1\s*,?\s*$")
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
_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
# Files a doc may run as a script (by an interpreter or by their path): their own options are kept apart.
_SCRIPT_EXTENSIONS = (*_JS_EXTENSIONS, ".py", ".sh", ".bash", ".zsh", ".rb", ".pl")
_SHELL_EXTENSIONS = (".sh", ".bash", ".zsh")
# A module beside the script that it imports: Python's `from index_inputs import …` / `import fetch_cpu`
# (the script's folder is on its path), JavaScript's `require('./options')` / `from '../lib/args.js'`.
_PY_SIBLING = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[ \t]+import\b|import[ \t]+([A-Za-z_]\w*)[ \t]*$)", re.M)
# A module of the repository it imports by its package path or relatively (`from bench.common import
# add_corpus_options`, `from .options import build_parser`, `from . import options`), which may add options
# to the script's parser.
_PY_PACKAGE_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.+|\.*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]+import[ \t]+\(?[ \t]*([\w \t,]*)"
    r"|import[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+))",
    re.M,
)
_JS_RELATIVE = re.compile(r"""(?:\brequire\(\s*|\bfrom\s+|\bimport\s+)['"](\.\.?/[^'"\n]+)['"]""")
# A shell script that hands its arguments on (`exec acme "$@"`): its flags may be any program's.
_FORWARDS_ARGUMENTS = re.compile(r"\$[@*]|\$\{[@*]\}")
# Signs that a script reads its own command line, by language: a flag it merely writes may be another
# program's (`autoflake --in-place …` in a shell script, `subprocess.run(["git", "log", "--oneline"])`).
_PARSES_OPTIONS = (
    ((".py",), re.compile(r"\b(?:argparse|optparse|getopt|docopt|click|typer)\b|\bsys\.argv\b|\bfire\.Fire\b")),
    (_JS_EXTENSIONS, re.compile(r"\bprocess\.argv\b|\b(?:yargs|commander|minimist|meow|parseArgs)\b|\.option\(")),
    (_SHELL_EXTENSIONS, re.compile(r"\bgetopts?\b|^[ \t]*['\"]?-[-\w|'\"*]*\)|\$\{?[1-9#]", re.M)),
    ((".rb", ".pl"), re.compile(r"\bARGV\b|\bOptionParser\b|\bGetOptions\b")),
)
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
    in_list = False
    for offset, line in enumerate(text.split("\n")):
        if javascript and in_list:
            if (item := _JS_LIST_ITEM.match(line)) is not None:
                yield offset, item.group(2)
                continue
            in_list = False
        if javascript and _JS_LIST_OPENED.match(line):
            in_list = True
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
        self._scripts: dict[str, _ScriptParts] = {}
        self._tasks = TaskDefinitions()

    def offer_chunk(self, path: str, start_line: int, text: str, *, library: bool = True) -> None:
        """Take in a chunk of a code file.

        Args:
            path: The file.
            start_line: The chunk's first line.
            text: The chunk's text.
            library: The file is library code (not a test, an example, a benchmark or a doc): its
                declarations are the programs'. Any file a doc may run as a script also keeps its own.
        """
        self._tasks.offer_chunk(path, start_line, text)
        declaring = library and is_declaring_file(path)
        script = path.endswith(_SCRIPT_EXTENSIONS)
        if not (declaring or script):
            return
        names = [(sys.intern(name), FlagSite(path, start_line + offset)) for offset, name in option_names(path, text)]
        commands = {
            name for line in text.split("\n") if _COMMAND_LINE.search(line) for name in _COMMAND_NAME.findall(line)
        }
        if declaring:
            for name, site in names:
                _keep_first(self._names, name, site)
            self._commands.update(commands)
        if script:
            self._scripts.setdefault(path, _ScriptParts()).take(path, text, names, commands)

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
                    _keep_first(self._names, sys.intern(name), FlagSite(path, line))
        self._signatures.clear()
        unread = tuple(sorted(path for path in files if path not in code_files and _is_unread_program(path)))
        scripts = {path: parts.frozen() for path, parts in self._scripts.items()}
        return DeclaredFlags(self._names, unread, frozenset(self._commands), scripts, self._tasks)


def _keep_first(names: dict[str, FlagSite], name: str, site: FlagSite) -> None:
    """Keep a name's first declaration (by path, then line), whatever order the chunks come in."""
    known = names.get(name)
    if known is None or site < known:
        names[name] = site


@dataclass
class _ScriptParts:
    """What the chunks of one script file have shown so far (see ScriptOptions)."""

    names: dict[str, FlagSite] = field(default_factory=dict)
    commands: set[str] = field(default_factory=set)
    imports: set[str] = field(default_factory=set)
    package_imports: set[str] = field(default_factory=set)
    forwards: bool = False
    parses: bool = False

    def take(self, path: str, text: str, names: list[tuple[str, FlagSite]], commands: set[str]) -> None:
        """Add one chunk of the script: its option names and command names, its imports, how it reads arguments."""
        for name, site in names:
            _keep_first(self.names, name, site)
        self.commands.update(commands)
        self.imports.update(_sibling_imports(path, text))
        self.package_imports.update(_package_imports(path, text))
        shell = path.endswith(_SHELL_EXTENSIONS)
        self.forwards = self.forwards or (shell and _FORWARDS_ARGUMENTS.search(text) is not None)
        self.parses = self.parses or _parses_options(path, text)

    def frozen(self) -> ScriptOptions:
        return ScriptOptions(
            self.names,
            frozenset(self.commands),
            frozenset(self.imports),
            self.forwards,
            self.parses,
            frozenset(self.package_imports),
        )


@dataclass(frozen=True)
class ScriptOptions:
    """The options one script file writes (any folder: a benchmark's, an example's, a tool's)."""

    names: Mapping[str, FlagSite] = field(default_factory=dict)
    """Flag or option name → its first place in the file (as DeclaredFlags.names, for this file alone)."""
    commands: frozenset[str] = frozenset()
    """Names the file declares (sub)commands by."""
    imports: frozenset[str] = frozenset()
    """Repository paths of the modules beside it that it imports (`bench/index/index_inputs.py`)."""
    forwards: bool = False
    """A shell script that hands its arguments on (`"$@"`): whose flags they are, it does not say."""
    parses: bool = False
    """The file reads its own command line (argparse, click, `sys.argv`, `process.argv`, a shell `case "$1"`):
    the flags it writes are then its options, not another program's arguments."""
    package_imports: frozenset[str] = frozenset()
    """Candidate paths of the repository modules it imports by package path or relatively
    (`from bench.common import add_corpus_options`, `from .options import build_parser`): options they
    write may be added to its parser."""


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
    scripts: Mapping[str, ScriptOptions] = field(default_factory=dict)
    """Script-shaped code file (`.py`, `.js`, `.sh`, …; any folder) → the options it writes itself."""
    tasks: TaskDefinitions = field(default_factory=TaskDefinitions)
    """The tasks the task files define (Gruntfile, gulpfile, package.json scripts, Makefiles)."""


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


def declared_flag(flag: str, declared: DeclaredFlags, *, attached: bool = True) -> tuple[FlagSite, str] | None:
    """Where the library code declares a flag, and how (the flag itself, or the option name it derives
    from), or None when no declaration makes it. `--no-x` is not `--x`'s: commander and argparse make no
    negation of themselves; click spells `--x/--no-x` out, and yargs and Typer derive both from `x`.

    Args:
        flag: The flag as the doc writes it, value removed (`--app`, `-a`, `--no-debug`).
        declared: The library code's declarations.
        attached: Read `-Ofair` as `-O` with its value attached. Not for a program of Go's `flag`
            package, where one dash starts every name and `-timeout` is the whole name `timeout`.
    """
    return _declared_in(flag, declared.names, attached=attached)


def _declared_in(flag: str, declarations: Mapping[str, FlagSite], *, attached: bool) -> tuple[FlagSite, str] | None:
    if (site := declarations.get(flag)) is not None:
        return site, f"declared in {site.path}:{site.line}"
    for name in derived_names(flag):
        if (site := declarations.get(name)) is not None:
            return site, f"option {name} declared in {site.path}:{site.line} (the flag's derived name)"
    short = _ATTACHED_VALUE.match(flag) if attached else None
    if short is not None and (site := declarations.get(option := short.group(1))) is not None:
        return site, f"short option {option} declared in {site.path}:{site.line}, its value attached"
    return None


def is_go_program(declared_in: str | None) -> bool:
    """Whether a program is declared in Go (`cmd/<name>/main.go`, a cobra `Use:`), where a flag's one dash
    starts a whole name (Go's `flag` package reads `-timeout` as `timeout`, never `-t` with a value)."""
    return declared_in is not None and declared_in.endswith(".go")


def run_script(command: str, files: Set[str], programs: Set[str]) -> str | None:
    """The repository script a command line runs (`bench/run.py` of `python bench/run.py`, `scripts/release.sh`
    of `./scripts/release.sh`, `flask/cli.py` of `python -m flask.cli`), or None when the command is no file
    of the tree or stands for a declared program (`./bin/mocha`, `node_modules/mocha/bin/mocha` and
    `python -m flask` are the `mocha` and `flask` programs, judged as such).

    Args:
        command: The program of the line as written (a path, a file name run by an interpreter, or a
            module run with `-m`).
        files: Every file of the tree.
        programs: The programs the repository declares.
    """
    path = posixpath.normpath(command.split("#", 1)[0]).removeprefix("./") if command else ""
    if _MODULE.match(command) and path not in files:
        # `-m` runs a module's file, or a package's `__main__`, from the top level or a `src/` folder.
        module = command.replace(".", "/")
        candidates = (f"{root}{module}{end}" for root in ("", "src/") for end in (".py", "/__main__.py"))
        path = next((candidate for candidate in candidates if candidate in files), "")
    if not path or path.startswith(("../", "/")) or "node_modules/" in command or path not in files:
        return None
    name = path.rsplit("/", 1)[-1]
    return None if name.split(".", 1)[0] in programs else path


ScriptStatus = Literal["verified", "contradicted", "unverifiable"]


def script_flag(  # noqa: PLR0911 - one exit per answer
    flag: str, script: str, words: tuple[str, ...], declared: DeclaredFlags, *, firm: bool
) -> tuple[ScriptStatus, str, str | None]:
    """How a flag given to one of the repository's scripts stands: (status, evidence, file).

    The script's own option declarations decide (its strings and those of the modules beside it that it
    imports), whatever its folder. A flag it does not declare is contradicted only when the script is
    read and declares options at all: a script that writes none takes its options from code it calls, and
    one the check cannot read may declare any.

    Args:
        flag: The flag (value removed).
        script: The script's repository path (see run_script).
        words: The words before the flag on its line (a subcommand may own it).
        declared: The repository's declarations.
        firm: The doc is firm about the flag (a long flag on a command line).
    """
    options = _script_options(script, declared)
    if options is None:
        return "unverifiable", f"a flag of the script {script}, which the check does not read", None
    if (found := _declared_in(flag, options.names, attached=True)) is not None:
        site, how = found
        return "verified", f"an option of the script {script}: {how}", site.path
    if flag in FRAMEWORK_FLAGS:
        return "unverifiable", f"{script} declares no {flag}; CLI frameworks provide it", None
    written = sorted((site, name) for name, site in options.names.items() if name.startswith("-"))
    library = declared_flag(flag, declared)
    if not written or not options.parses or options.forwards:
        how = "writes no flag of its own" if options.parses else "reads no option of its own"
        how = "hands its arguments on" if options.forwards else how
        also = f" ({flag} is declared in {library[0].path}:{library[0].line})" if library else ""
        return (
            "unverifiable",
            f"a flag of the script {script}, which {how}: its options come from what it calls{also}",
            None,
        )
    if (word := next((w for w in words if w not in options.commands), None)) is not None:
        return "unverifiable", f"{script} declares no {flag}; it follows {word}, which it declares no command by", None
    if library is not None:
        where = f"{library[0].path}:{library[0].line}"
        return "unverifiable", f"{script} declares no {flag}, but the library does ({where}), which it may call", None
    site, first = written[0]
    others = f"{first} at {site.path}:{site.line}" + (f" and {len(written) - 1} more" if len(written) > 1 else "")
    status: ScriptStatus = "contradicted" if firm and not _short_in_shell(flag, script) else "unverifiable"
    return status, f"the script {script} reads its own options ({others}) and declares no {flag}", None


def _short_in_shell(flag: str, script: str) -> bool:
    """A one-letter flag of a shell script: `getopts "nv"` and `-n)` declare it without writing `'-n'`."""
    return not flag.startswith("--") and len(flag) == 2 and not script.endswith((*_JS_EXTENSIONS, ".py"))


def _script_options(script: str, declared: DeclaredFlags) -> ScriptOptions | None:
    """A read script's options, merged with those of the modules beside it that it imports; None when unread."""
    own = declared.scripts.get(script)
    if own is None:
        return None
    names = dict(own.names)
    commands = set(own.commands)
    parses = own.parses
    for path in own.package_imports:  # only their options: how the script reads its line is its own
        if (module := declared.scripts.get(path)) is not None:
            for name, site in module.names.items():
                names.setdefault(name, site)
    for path in own.imports:
        sibling = declared.scripts.get(path)
        if sibling is None:
            continue
        for name, site in sibling.names.items():
            names.setdefault(name, site)
        commands |= sibling.commands
        parses = parses or sibling.parses
    return ScriptOptions(names, frozenset(commands), own.imports, own.forwards, parses)


def _parses_options(path: str, text: str) -> bool:
    return any(path.endswith(suffixes) and pattern.search(text) is not None for suffixes, pattern in _PARSES_OPTIONS)


def _sibling_imports(path: str, text: str) -> set[str]:
    """Repository paths a chunk of a script may import from beside it (each candidate file name)."""
    folder = path.rpartition("/")[0]
    found: set[str] = set()
    if path.endswith((".py", ".pyi")):
        for match in _PY_SIBLING.finditer(text):
            module = match.group(1) or match.group(2)
            found.add(posixpath.join(folder, f"{module}.py"))
    elif path.endswith(_JS_EXTENSIONS):
        for relative in _JS_RELATIVE.findall(text):
            base = posixpath.normpath(posixpath.join(folder, relative))
            found.update(base + suffix for suffix in ("", ".js", ".mjs", ".cjs", ".ts", "/index.js"))
    return found


def _package_imports(path: str, text: str) -> set[str]:
    """Candidate paths of the modules a Python script imports by package path or relatively."""
    if not path.endswith(".py"):
        return set()
    folder = path.rpartition("/")[0]
    found: set[str] = set()
    for match in _PY_PACKAGE_IMPORT.finditer(text):
        found.update(_package_import_files(folder, match.group(1) or match.group(3), match.group(2) or ""))
    return found


def _package_import_files(folder: str, module: str, names: str) -> set[str]:
    """Candidate files of a Python import by package path or relative (`bench.common`, `.options`, `.` with
    the names it imports, which may be modules too)."""
    dots = len(module) - len(module.lstrip("."))
    if dots:
        base = folder
        for _ in range(dots - 1):
            base = base.rpartition("/")[0]
        bases = [base]
    else:
        bases = ["", "src", folder]  # the top level, a `src/` folder, the script's own folder (on its path)
    rest = module[dots:].replace(".", "/")
    wanted = [rest] if rest else []
    wanted += [posixpath.join(rest, name) for name in re.findall(r"[A-Za-z_]\w*", names) if name != "as"]
    return {
        posixpath.join(base, path) + suffix for base in bases for path in wanted for suffix in (".py", "/__init__.py")
    }
