"""Task-runner commands a doc tells readers to run: the tasks the repository's task files define.

`grunt build`, `gulp lint`, `npm run docs` (`yarn run`, `pnpm run`) and `make html` run a task that a
file of the repository defines: a Gruntfile's `registerTask('build', …)`, a gulpfile's
`task('lint', …)` or `exports.lint`, package.json's `"scripts"`, a Makefile's `html:` rule. Found, the
command is verified. Not found, it is unverifiable at the head (a grunt plugin, an included Makefile
or another project's task file may define it); the history decides whether the repository defined it
once and removed it, or removed the task file itself (see task_history).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass, field
from typing import Literal

TASK_FILES: Mapping[str, tuple[str, ...]] = {
    "grunt": ("gruntfile.js", "gruntfile.cjs", "gruntfile.coffee", "gruntfile.ts"),
    "gulp": ("gulpfile.js", "gulpfile.cjs", "gulpfile.mjs", "gulpfile.ts", "gulpfile.babel.js"),
    "npm run": ("package.json",),
    "make": ("makefile", "gnumakefile"),
}
"""Task runner (as a claim's command) → the names of the files that define its tasks, lower-case."""

TASK_FILE_NOUNS: Mapping[str, str] = {
    "grunt": "Gruntfile",
    "gulp": "gulpfile",
    "npm run": "package.json",
    "make": "Makefile",
}
_NOT_THE_REPOSITORYS = frozenset({"node_modules", "vendor", "fixtures", "testdata", "third_party"})
"""Folders whose task files are another project's (a vendored package's, a test fixture's)."""
_TASK_NOUNS = {"grunt": "grunt task", "gulp": "gulp task", "npm run": "npm script", "make": "make target"}

_GRUNT_TASK = re.compile(r"\bregister(?:Multi)?Task\(\s*['\"]([\w:.-]+)['\"]")
# `grunt.loadNpmTasks('grunt-contrib-watch')` brings the plugin's task (`watch`); `loadTasks('tasks')` any.
_GRUNT_PLUGIN = re.compile(r"\bloadNpmTasks\(\s*['\"](?:@[\w.-]+/)?grunt-(?:contrib-)?([\w.-]+)['\"]")
_GRUNT_ANY = re.compile(r"\bloadTasks\(|\bload-grunt-tasks\b|\bjit-grunt\b")
_GULP_TASK = re.compile(
    r"\btask\(\s*['\"]([\w:.-]+)['\"]"
    r"|\bexports\.([\w$]+)\s*="
    r"|^export\s+(?:async\s+)?(?:function\*?|const|let|var)\s+([\w$]+)"
    r"|^export\s*\{([^}]*)\}",
    re.M,
)
_MAKE_RULE = re.compile(r"^([A-Za-z0-9_./%-][^:=#\t]*?)\s*::?(?![=])", re.M)
_MAKE_ANY = re.compile(r"^-?include\b|^[ \t]*%::?", re.M)
_PACKAGE_SCRIPT_KEY = re.compile(r"^\s*\"([^\"]+)\"\s*:")


def is_task_file(runner: str, path: str) -> bool:
    """Whether a repository path is one of a task runner's task files (`docs/Makefile`, `Gruntfile.js`)."""
    return runner_of_file(path) == runner


def runner_of_file(path: str) -> str | None:
    """The task runner whose tasks a file defines, or None."""
    folders, _, name = path.lower().rpartition("/")
    if _NOT_THE_REPOSITORYS.intersection(folders.split("/")):
        return None  # a vendored package's or a test fixture's task file
    return next((runner for runner, names in TASK_FILES.items() if name in names), None)


def defined_tasks(runner: str, text: str) -> tuple[list[tuple[int, str]], bool]:
    """The tasks a task file's text defines, each with its 0-based line offset, and whether it may
    define any other (a grunt `loadTasks`, a Makefile `include` or `%:` rule).

    Args:
        runner: The task runner (a key of TASK_FILES).
        text: The file's text, or a chunk of it.

    Returns:
        ([(line offset, task)], open).
    """
    if runner == "npm run":
        return _package_scripts(text), False
    found: list[tuple[int, str]] = []
    if runner == "grunt":
        for pattern in (_GRUNT_TASK, _GRUNT_PLUGIN):
            found += [(text.count("\n", 0, m.start()), m.group(1)) for m in pattern.finditer(text)]
        return found, _GRUNT_ANY.search(text) is not None
    if runner == "gulp":
        for match in _GULP_TASK.finditer(text):
            offset = text.count("\n", 0, match.start())
            if match.group(4) is not None:  # `export { build, lint as check }`
                names = [part.split(" as ")[-1].strip() for part in match.group(4).split(",")]
                found += [(offset, name) for name in names if name]
            else:
                found.append((offset, next(group for group in match.groups()[:3] if group)))
        return found, False
    for match in _MAKE_RULE.finditer(text):
        offset = text.count("\n", 0, match.start())
        found += [(offset, target) for target in match.group(1).split() if "%" not in target and "$" not in target]
    return found, _MAKE_ANY.search(text) is not None


def _package_scripts(text: str) -> list[tuple[int, str]]:
    """The keys of package.json's `"scripts"`: the whole file parsed, or a chunk's lines inside the table."""
    try:
        scripts = json.loads(text).get("scripts")
    except (ValueError, AttributeError):
        scripts = None
    lines = text.split("\n")
    if isinstance(scripts, dict):
        where = {key: next((i for i, line in enumerate(lines) if f'"{key}"' in line), 0) for key in scripts}
        return [(offset, key) for key, offset in where.items()]
    found, inside = [], False
    for offset, line in enumerate(lines):
        if re.match(r'^\s*"scripts"\s*:\s*\{', line):
            inside = True
        elif inside and line.strip().startswith("}"):
            inside = False
        elif inside and (key := _PACKAGE_SCRIPT_KEY.match(line)) is not None:
            found.append((offset, key.group(1)))
    return found


@dataclass(frozen=True, order=True, slots=True)
class TaskSite:
    """Where a task is defined: a task file and a 1-based line."""

    path: str
    line: int


@dataclass
class TaskDefinitions:
    """The tasks of the repository's task files, gathered chunk by chunk."""

    tasks: dict[str, dict[str, TaskSite]] = field(default_factory=dict)
    """Task runner → task → its first definition."""
    open_files: dict[str, str] = field(default_factory=dict)
    """Task runner → a task file that may define any task (a Makefile's `%:` rule)."""

    def offer_chunk(self, path: str, start_line: int, text: str) -> None:
        """Take in a chunk of a file, which counts only when it is a task file."""
        runner = runner_of_file(path)
        if runner is None:
            return
        found, any_task = defined_tasks(runner, text)
        table = self.tasks.setdefault(runner, {})
        for offset, task in found:
            site = TaskSite(path, start_line + offset)
            if task not in table or site < table[task]:
                table[task] = site
        if any_task:
            self.open_files.setdefault(runner, path)


TaskStatus = Literal["verified", "unverifiable"]


def resolve_task(
    runner: str, task: str, files: Set[str], defined: TaskDefinitions
) -> tuple[TaskStatus, str, str | None]:
    """How a task-runner command stands at the head: (status, evidence, task file).

    Args:
        runner: The task runner (`grunt`, `gulp`, `npm run`, `make`).
        task: The task the command runs.
        files: Every file of the tree.
        defined: The tasks the task files define.

    Returns:
        Verified with its definition; otherwise unverifiable, saying what the tree has (the history
        may still show the task, or the task file, removed).
    """
    noun = _TASK_NOUNS[runner]
    if (site := defined.tasks.get(runner, {}).get(task)) is not None:
        return "verified", f"{noun} {task} defined in {site.path}:{site.line}", site.path
    task_files = sorted(path for path in files if is_task_file(runner, path))
    if not task_files:
        return "unverifiable", f"no {TASK_FILE_NOUNS[runner]} in the repository defines {noun} {task}", None
    if (open_file := defined.open_files.get(runner)) is not None:
        return "unverifiable", f"{open_file} may define any {noun}, {task} among them", open_file
    return "unverifiable", f"no {noun} {task} in {', '.join(task_files[:3])}", None


def task_claim(command: str | None, target: str) -> tuple[str, str] | None:
    """The (runner, task) of a cli claim that runs a task (`npm run docs` with the command `npm run`), or None."""
    if command is None or command not in TASK_FILES or not target.startswith(f"{command} "):
        return None
    return command, target.removeprefix(f"{command} ")


def task_nouns(runner: str) -> str:
    """What a runner's tasks are called in evidence (`npm script`, `make target`)."""
    return _TASK_NOUNS[runner]


def defined_names(runner: str, text: str) -> Iterator[str]:
    """The task names a whole task file defines (see defined_tasks)."""
    yield from (task for _, task in defined_tasks(runner, text)[0])
