"""Which command-line programs a repository declares: the commands its docs may tell readers to run."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_SCRIPT_TABLES = frozenset({"project.scripts", "project.gui-scripts", "tool.poetry.scripts", "tool.pdm.scripts", "bin"})
_TABLE = re.compile(r"^\s*\[\[?\s*([\w.\"-]+?)\s*\]\]?\s*$")
_TOML_KEY = re.compile(r"^\s*\"?([A-Za-z0-9][\w.-]*)\"?\s*=")
_TOML_NAME = re.compile(r"^\s*name\s*=\s*\"([\w.-]+)\"")
_ENTRY_POINT = re.compile(r"[\"']?([A-Za-z0-9][\w.-]*)\s*=\s*[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")
_PACKAGE_BIN_OBJECT = re.compile(r"\"bin\"\s*:\s*\{([^}]*)\}", re.S)
_PACKAGE_BIN_KEY = re.compile(r"\"([\w@/.-]+)\"\s*:")
_PACKAGE_BIN_STRING = re.compile(r"\"bin\"\s*:\s*\"")
_PACKAGE_NAME = re.compile(r"\"name\"\s*:\s*\"(?:@[\w.-]+/)?([\w.-]+)\"")
_IN_CODE = re.compile(
    r"ArgumentParser\([^)]*?\bprog\s*=\s*[\"']([\w.-]+)[\"']"
    r"|Typer\([^)]*?\bname\s*=\s*[\"']([\w.-]+)[\"']"
    r"|\bUse:\s*\"([\w.-]+)"
    r"|#\[(?:command|clap)\([^)]*?\bname\s*=\s*\"([\w.-]+)\"",
    re.S,
)


def declared_programs(path: str, text: str, start_line: int = 1) -> list[tuple[str, int]]:
    """Programs a file declares, with the line of each declaration.

    Covers pyproject/poetry/pdm script tables and Cargo `[[bin]]`, setup.py/setup.cfg console
    scripts, package.json `bin`, argparse `prog=`, Typer `name=`, cobra `Use:`, clap `name =`, and
    executables by location (`cmd/<name>/main.go`, `bin/<name>`).

    Args:
        path: Repository path of the file.
        text: The file's (or chunk's) text.
        start_line: The line `text` starts on.

    Returns:
        (program name, line) pairs.
    """
    found: list[tuple[str, int]] = []
    name = PurePosixPath(path).name
    if name.endswith(".toml"):
        found += _toml_programs(text, start_line)
    if name in {"setup.py", "setup.cfg"}:
        found += [(m.group(1), _line(text, m.start(), start_line)) for m in _ENTRY_POINT.finditer(text)]
    if name == "package.json":
        found += _package_json_programs(text, start_line)
    hints = ("ArgumentParser", "Typer", "Use:", "#[")
    for match in _IN_CODE.finditer(text) if any(hint in text for hint in hints) else ():
        program = next(group for group in match.groups() if group)
        found.append((program, _line(text, match.start(), start_line)))
    parts = PurePosixPath(path).parts
    if len(parts) >= 3 and parts[-3] == "cmd" and name == "main.go":
        found.append((parts[-2], start_line))
    if len(parts) >= 2 and parts[-2] == "bin" and "." not in name:
        found.append((name, start_line))
    return found


def _toml_programs(text: str, start_line: int) -> list[tuple[str, int]]:
    found = []
    table = ""
    for index, line in enumerate(text.splitlines()):
        if (header := _TABLE.match(line)) is not None:
            table = header.group(1).replace('"', "")
            continue
        if table not in _SCRIPT_TABLES:
            continue
        pattern = _TOML_NAME if table == "bin" else _TOML_KEY
        if (key := pattern.match(line)) is not None:
            found.append((key.group(1), start_line + index))
    return found


def _package_json_programs(text: str, start_line: int) -> list[tuple[str, int]]:
    if (table := _PACKAGE_BIN_OBJECT.search(text)) is not None:
        return [
            (key.group(1).rsplit("/", 1)[-1], _line(text, table.start(1) + key.start(), start_line))
            for key in _PACKAGE_BIN_KEY.finditer(table.group(1))
        ]
    if _PACKAGE_BIN_STRING.search(text) and (package := _PACKAGE_NAME.search(text)) is not None:
        return [(package.group(1), _line(text, package.start(), start_line))]
    return []


def _line(text: str, offset: int, start_line: int) -> int:
    return start_line + text.count("\n", 0, offset)
