"""What a shell command line in a doc claims: the repository's commands, flags, env vars and files."""

from __future__ import annotations

import ast
import dataclasses
import keyword
import re
import shlex

from sextant.doc_claims.claims import name_shapes as shapes
from sextant.doc_claims.claims.known_names import (
    COMMAND_RUNNERS,
    NO_PATH_ARGUMENTS,
    PYTHON_BUILTINS,
    SCRIPT_INTERPRETERS,
    SHELL_KEYWORDS,
    WELL_KNOWN_COMMANDS,
)
from sextant.doc_claims.claims.name_shapes import Draft
from sextant.doc_claims.syntax.code_blocks import is_standard_library

# A word before a flag that is no flag's value: a subcommand (`run`, `revoke_by_stamped_header`) or an argument.
_COMMAND_WORD = re.compile(r"^[a-z][a-z0-9_-]*$")
_SEGMENT_SPLIT = re.compile(r"\s*(?:&&|\|\||[;|])\s*")
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=")
_REDIRECT = re.compile(r"^\d?[<>]")
_WRITES_FILE = re.compile(r"(?<![\d&<>])>>?[ \t]*(?![&\s]|/dev/)\S")
_QUOTED_FLAG = re.compile(r"""['"](-{1,2}[A-Za-z][\w-]*)(?=[\s,/|'"=<\[])""")
# Words that start a line of code, not a command: Python's keywords and builtins (`print 'x'` of Python 2),
# and those of the other languages a literal block shows (JavaScript, Go, Ruby).
_CODE_WORDS = (
    frozenset(keyword.kwlist)
    | PYTHON_BUILTINS
    | frozenset({"var", "let", "const", "function", "new", "package", "func", "struct", "end", "module", "require"})
)
_LONG_FLAG = re.compile(r"^--[A-Za-z]")
_OUTPUT_OPTION = re.compile(r"^(?:-o|-O|--out\w*|--output[\w-]*|--dest\w*|--target-dir|--log-file)$")


def command_claims(line: str) -> list[Draft]:
    """The claims of one shell line (prompts already removed, continuations joined).

    Args:
        line: A command line such as `NATS_URL=nats://x sextant analyze . --json`.

    Returns:
        Env vars it sets or reads, this repository's commands (`program sub`) and their flags, and
        repository files given as arguments. Well-known tools (git, pip, docker, make, ...) are
        never command claims; their file arguments may still be path claims.
    """
    drafts: list[Draft] = []
    line = line.split(" #", 1)[0]
    for segment in _SEGMENT_SPLIT.split(line):
        drafts.extend(_segment_claims(segment))
    if _WRITES_FILE.search(line):
        # `mocha --reporter=doc | cat docs/head.html - docs/tail.html > docs/test.html` writes a file:
        # the line works in the reader's tree, so its files are the reader's, absent or not.
        drafts = [dataclasses.replace(d, explicit=False) if d.kind == "path" else d for d in drafts]
    return drafts


def line_programs(line: str) -> list[str]:
    """The program each command of a shell line runs (runners and `VAR=value` dropped), well-known
    tools included: `docker-compose run --rm celery` runs `docker-compose`, `python -m flask run`
    runs `flask`, `python bench/run.py` runs the script (a bare `python main.py` runs `python`:
    the file is as often the reader's).

    Args:
        line: A command line (prompt removed).

    Returns:
        One program per `&&`/`|`/`;` segment that runs one, in order.
    """
    programs = []
    for segment in _SEGMENT_SPLIT.split(line.split(" #", 1)[0]):
        tokens = _drop_runners(_drop_assignments(_drop_redirect_outputs(_tokens(segment)), []))
        if tokens:
            run = _interpreted(tokens[1:]) if tokens[0] in SCRIPT_INTERPRETERS else None
            if run is not None and (run[2] or _runs_own_script(tokens[0], run[0])):
                programs.append(run[0])
            else:
                programs.append(tokens[0])
    return programs


def literal_programs(text: str) -> list[str]:
    """The programs an inline literal runs when it is a well-known tool's command line with options
    (`git log -p`, `docker run --rm`), so that flags the prose names after it are that tool's.

    Such a literal makes no claim of its own (well-known tools are not the repository's), yet the reader
    takes `--no-indent-heuristic` after `git blame --first-parent` as git's. A literal without an option
    (`git pull`, "use ``--rebase`` with ``git pull``") names the command more than it runs it: the doc's
    own program stays the one its flags belong to.

    Args:
        text: The literal's text.

    Returns:
        The programs its segments run (see line_programs), or nothing when it is no such command line.
    """
    tokens = _drop_runners(_drop_assignments(_tokens(text.split(" #", 1)[0]), []))
    if len(tokens) < 2 or tokens[0] not in WELL_KNOWN_COMMANDS or not shapes.PROGRAM.match(tokens[0]):
        return []
    if not any(shapes.FLAG.match(token) for token in tokens[1:] if token not in {"-", "--"}):
        return []
    return line_programs(text)


def reads_as_command(line: str) -> bool:
    """Whether a line shown without a prompt (a reST `::` literal block's) is a command giving a program a
    flag: `flask --app=hello run`, `python -m flask -a hello run`. Such blocks hold code and output as
    often as commands, so the line must start with a program's name (not a well-known tool's, nor a word
    that starts code: `print`, `import`, `var`), give it a flag, and not read as Python.

    Args:
        line: One line of the block (continuations joined), indent removed.

    Returns:
        True when the line is to be read as a shell line. Whether the program is the repository's,
        the judge decides: another program's flags stay unverifiable.
    """
    tokens = _drop_runners(_tokens(line))
    if tokens and tokens[0] in SCRIPT_INTERPRETERS:
        run = _interpreted(tokens[1:])
        if run is None or not run[2]:
            return False
        tokens = [run[0], *run[1]]
    if len(tokens) < 2 or not _starts_a_command(tokens[0]):
        return False
    # `black.options = -l 79` of an ini file is a setting; a line with no flag is as often output.
    if tokens[1] in {"=", ":", "+=", ":="} or not any(shapes.FLAG.match(t) for t in tokens[1:] if t not in {"-", "--"}):
        return False
    try:
        ast.parse(line)
    except (SyntaxError, ValueError):
        return True
    # `app -flag` is a subtraction, but nobody writes `flask --version` as Python: a long flag is a command's.
    return any(_LONG_FLAG.match(token) for token in tokens[1:])


def _starts_a_command(word: str) -> bool:
    """A program's name that is not a well-known tool's, nor a word that starts code."""
    if not shapes.PROGRAM.match(word) or shapes.is_placeholder(word):
        return False
    return word not in WELL_KNOWN_COMMANDS and word not in SHELL_KEYWORDS and word not in _CODE_WORDS


def quoted_flags(code: str) -> set[str]:
    """The flags a code sample declares as strings (`@click.option('--config')`, `.option('-c, --config')`):
    a doc's own program's options, which the repository's code need not have.

    Args:
        code: A code sample's text.

    Returns:
        Each flag that starts a string literal of the sample.
    """
    return set(_QUOTED_FLAG.findall(code))


def _tokens(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=True)
    except ValueError:  # an unbalanced quote in a doc is the doc's problem, not ours
        return segment.split()


def _segment_claims(segment: str) -> list[Draft]:  # noqa: PLR0911 - one exit per kind of command
    tokens = _tokens(segment)
    # `$M0/.viola/…`: a variable the reader's shell expands is the reader's; only a variable set for
    # the command (`NATS_URL=… acme run`, below) says the program reads it.
    drafts = [
        Draft("env", match.group(0), match.group(1) or match.group(2), explicit=False)
        for match in shapes.ENV_REFERENCE.finditer(segment)
    ]
    tokens = _drop_redirect_outputs(tokens)
    tokens = _drop_assignments(tokens, drafts)
    tokens = _drop_runners(tokens)
    if not tokens:
        return drafts
    program, args = tokens[0], tokens[1:]
    if program in SCRIPT_INTERPRETERS:
        run = _interpreted(args)
        if run is None:
            return drafts
        name, args, is_module = run
        if not is_module:
            return drafts + _interpreted_script(program, name, args)
        program = name  # `python -m flask -a hello run` runs the module's program: its flags are that program's
    if (task := task_command([program, *args])) is not None:
        # `grunt build`, `npm run docs -- --watch`: the task is the claim; its options are the task's own
        runner, name = task
        return [*drafts, Draft("cli", f"{runner} {name}", f"{runner} {name}", command=runner)]
    if program in WELL_KNOWN_COMMANDS or program in SHELL_KEYWORDS:
        if program in {"cp", "mv"}:
            args = args[:-1]  # the destination is a file the reader makes, not one the repo has
        if program not in NO_PATH_ARGUMENTS:
            drafts.extend(_path_arguments(args))
        return drafts
    if shapes.looks_like_path(program) and "/" in program:
        path = shapes.normalize_path(program)
        # `./traefik` may be a binary the reader downloaded and `./scripts/deploy` an extension-less
        # script the index cannot hold; `./scripts/x.sh` is the repository's, and indexed.
        drafts.append(Draft("path", program, path, explicit=shapes.path_is_explicit(path)))
    elif not shapes.PROGRAM.match(program) or shapes.is_placeholder(program):
        return drafts
    drafts.extend(_program_claims(program, args))
    return drafts


def task_command(tokens: list[str]) -> tuple[str, str] | None:
    """The task runner and the task a command line runs (`grunt build` → ("grunt", "build"), `npm run
    docs -- --watch` → ("npm run", "docs"), `make -C docs html` → ("make", "html")), or None.

    Args:
        tokens: The command's words, runners such as `npx` already removed.

    Returns:
        (runner, task), the task the first word that is no option or option value, or None when the
        line runs no task (`npm install`, a bare `make`, `grunt --help`).
    """
    if not tokens:
        return None
    if tokens[0] in {"npm", "yarn", "pnpm"} and len(tokens) > 1 and tokens[1] in {"run", "run-script"}:
        runner, args = "npm run", tokens[2:]
    elif tokens[0] in {"grunt", "gulp", "make"}:
        runner, args = tokens[0], tokens[1:]
    else:
        return None
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            # `make -C docs html`, `make -f build.mk all`, `make -j 4 all`: those options take a value
            skip = runner == "make" and arg in {"-C", "-f", "-j", "-I", "-o", "-W", "--directory", "--file"}
        elif "=" in arg:
            continue  # `make PREFIX=/usr install`
        else:
            task = arg.split(":", 1)[0] if runner == "grunt" else arg  # `karma:single` runs karma's target
            return (runner, task) if re.fullmatch(r"[A-Za-z0-9][\w.:-]*", task) else None
    return None


def _interpreted(args: list[str]) -> tuple[str, list[str], bool] | None:
    """What an interpreter's arguments run: (the script or module, its arguments, whether a module), or
    None for a standard-library module (`python -m http.server`), inline code (`python -c …`) or nothing
    shaped like a file (`bash`, `python -W ignore`)."""
    if len(args) > 1 and args[0] == "-m":
        return None if is_standard_library(args[1]) else (args[1], args[2:], True)
    at = next((index for index, arg in enumerate(args) if not arg.startswith("-")), None)
    if at is None or "-c" in args[:at] or "-e" in args[:at]:
        return None
    script = args[at]
    if not shapes.looks_like_path(script) or shapes.is_placeholder(script):
        return None
    return script, args[at + 1 :], False


def _interpreted_script(interpreter: str, script: str, args: list[str]) -> list[Draft]:
    """`python bench/run.py --rounds 3`: the script is a file to check, and its flags are its own.

    A sourced file (`source venv/bin/activate`) sets up the shell and takes no options; a bare file
    name (`python main.py`) is as often the reader's own file as one of the repository's.
    """
    path = shapes.normalize_path(script)
    drafts = [Draft("path", script, path, explicit=shapes.path_is_explicit(path))]
    return drafts + _script_claims(script, args) if _runs_own_script(interpreter, script) else drafts


def _runs_own_script(interpreter: str, script: str) -> bool:
    """Whether an interpreter runs a script with options of its own that the repository may hold: not a
    sourced file, nor a bare file name (see _interpreted_script)."""
    return interpreter not in {".", "source"} and "/" in script


def _script_claims(script: str, args: list[str]) -> list[Draft]:
    """The flags a command line gives a script it runs (`--rounds` of `python bench/run.py --rounds 3`),
    and the script as the line's program, so that flags in the prose after it are the script's too
    (not firm: the path claim already holds the doc to the file)."""
    drafts = [Draft("cli", script, script, explicit=False, command=script)]
    words: list[str] = []
    previous_is_flag = False
    for arg in args:
        flag = shapes.FLAG.match(arg)
        if flag is not None and arg not in {"-", "--"}:
            drafts.append(Draft("flag", flag.group(1), flag.group(1), command=script, after_words=tuple(words)))
        elif not previous_is_flag and _COMMAND_WORD.match(arg):
            words.append(arg)
        previous_is_flag = flag is not None and "=" not in arg
    return drafts


def _drop_redirect_outputs(tokens: list[str]) -> list[str]:
    """Remove `> file` and `2>> file` pairs: an output file is written by the command, not claimed."""
    kept: list[str] = []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if re.fullmatch(r"\d?>>?|&>", token):
            skip_next = True
            continue
        if re.match(r"^(?:\d?>>?|&>)\S", token):
            continue
        kept.append(token)
    return kept


def _drop_assignments(tokens: list[str], drafts: list[Draft]) -> list[str]:
    """Leading `VAR=value` (and `export VAR=value`) set env vars: each is an env claim."""
    if tokens and tokens[0] in {"export", "set", "setenv"}:
        tokens = tokens[1:]
        if tokens and shapes.ENV_NAME.match(tokens[0]):
            drafts.append(Draft("env", tokens[0], tokens[0]))
    while tokens and (assign := _ASSIGN.match(tokens[0])) is not None:
        name = assign.group(1)
        if shapes.ENV_NAME.match(name) or name.isupper():
            drafts.append(Draft("env", name, name))
        tokens = tokens[1:]
    return tokens


def _drop_runners(tokens: list[str]) -> list[str]:
    """Strip `uv run`, `npx`, `sudo`, ... and their options, leaving the real program first."""
    changed = True
    while changed and tokens:
        changed = False
        for runner in COMMAND_RUNNERS:
            if tuple(tokens[: len(runner)]) == runner:
                tokens = tokens[len(runner) :]
                while tokens and (tokens[0].startswith("-") or _ASSIGN.match(tokens[0])):
                    tokens = tokens[1:]
                changed = True
                break
    return tokens


_COMPLETION_KEY = re.compile(r"<tab>|\[tab\]|⇥", re.I)


def _program_claims(program: str, args: list[str]) -> list[Draft]:
    """A command of this repository (or an unknown tool: the checker decides): `program sub` and flags."""
    drafts: list[Draft] = []
    # A subcommand comes right after the program; a word after a flag is usually that flag's value.
    sub = args[0] if args and shapes.SUBCOMMAND.match(args[0]) else None
    if sub is not None and shapes.is_placeholder(sub):
        sub = None
    if sub is not None and len(args) > 1 and _COMPLETION_KEY.fullmatch(args[1]):
        sub = None  # `completion gr <TAB>`: the start of a word the shell is asked to complete
    command = f"{program} {sub}" if sub else program
    drafts.append(Draft("cli", command, command, command=program))
    words: list[str] = []  # the words so far that are no flag's value: subcommands, or arguments
    previous_is_flag = False
    for arg in args:
        flag = shapes.FLAG.match(arg)
        if flag is not None and arg not in {"-", "--"}:
            drafts.append(Draft("flag", flag.group(1), flag.group(1), command=program, after_words=tuple(words)))
        elif not previous_is_flag and _COMMAND_WORD.match(arg):
            words.append(arg)  # `revoke_by_stamped_header`: a remote command's name is a word too
        previous_is_flag = flag is not None and "=" not in arg
    # Files handed to this repository's own program (or an unknown tool) are the reader's inputs:
    # `sextant publish … --changed src/app.py` shows a value, it does not say this repository has it.
    drafts.extend(_path_arguments(args, skip_first_positional=sub is not None, firm=False))
    return drafts


def _path_arguments(args: list[str], *, skip_first_positional: bool = False, firm: bool = True) -> list[Draft]:
    """Arguments shaped like repository paths (with a folder or a known extension).

    The value after an output option (`-o`, `--out FILE`) is a file the command writes: skipped.
    With `firm` false (arguments of a program that is not a well-known tool), every path is only an
    example value: absent, it is unverifiable. Well-known tools (`cat docs/x.md`, `pip install -r
    requirements.txt`, `pytest tests/x.py`) work on the checked-out repository, so their file
    arguments stay firm.
    """
    drafts = []
    previous = ""
    for arg in args:
        after_output = _OUTPUT_OPTION.match(previous) is not None
        previous = arg
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if arg.startswith("-") and _OUTPUT_OPTION.match(arg.split("=", 1)[0]):
            continue
        if value.startswith("-") or _REDIRECT.match(value) or shapes.is_placeholder(value) or after_output:
            continue
        if skip_first_positional and not arg.startswith("-"):
            skip_first_positional = False
            continue
        if shapes.looks_like_path(value):
            path = shapes.normalize_path(value)
            if path and path != ".":
                # A bare `owner/name` argument is as often a repository slug or a ref as a folder.
                folder_like = shapes.extension(path) == "" and not value.startswith(("./", "../"))
                explicit = firm and shapes.path_is_explicit(path) and not (folder_like and not value.endswith("/"))
                # `--log-output ../../test.log`: up from wherever the reader runs it, not from the doc.
                explicit = explicit and not value.startswith("../")
                drafts.append(Draft("path", value, path, explicit=explicit))
    return drafts
