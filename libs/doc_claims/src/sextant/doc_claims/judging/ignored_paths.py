"""Paths the repository's own `.gitignore` files say are never committed: build output, caches, local files.

A doc that names `docs/_build/html/`, `dist/`, `bench/.work/` or `settings_local.py` names a file a
build, a tool or the reader creates. Its absence from the tree is no evidence that the doc is wrong:
the repository itself declares that such a file is never committed. The rules are read from every
`.gitignore` of the tree with git's own semantics (pathspec's `GitIgnoreSpec`: last matching
pattern wins, `!` re-includes, a trailing `/` matches folders, a pattern with a slash is anchored to
its file's folder) and a deeper file decides before a shallower one, as git does.

Only absent paths are judged here; a file the tree holds is verified whatever the ignore rules say
(force-added files exist). Likewise a rule that ignores a folder the tree holds files in (`lib/` from
a language template over a committed `src/lib/`) says nothing about what is committed there.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import PurePosixPath

import pathspec

IGNORE_FILE_NAME = ".gitignore"


def is_ignore_file(path: str) -> bool:
    """Whether a repository path is a `.gitignore` file (at the root or in a folder)."""
    return PurePosixPath(path).name == IGNORE_FILE_NAME


class IgnoreFileTexts:
    """Gathers the `.gitignore` texts among chunk payloads, window by window, in any order."""

    def __init__(self) -> None:
        """Start empty."""
        self._windows: dict[str, dict[int, str]] = defaultdict(dict)

    def offer(self, path: str, start_line: int, text: str) -> None:
        """Keep a chunk's text when its file is a `.gitignore`."""
        if is_ignore_file(path):
            self._windows[path][start_line] = text

    def build(self, tracked_folders: AbstractSet[str]) -> IgnoredPaths:
        """The compiled rules. Overlapping windows repeat lines in order, which changes no match.

        Args:
            tracked_folders: Folders the tree holds files in (the code facts' `directories`).
        """
        texts = {path: "\n".join(w[start] for start in sorted(w)) for path, w in self._windows.items()}
        return IgnoredPaths(texts, tracked_folders=tracked_folders)


@dataclass(frozen=True)
class _FolderRules:
    folder: str
    """The folder whose `.gitignore` this is ("" for the root)."""
    source: str
    """The `.gitignore` path, for the reason text."""
    spec: pathspec.GitIgnoreSpec


class IgnoredPaths:
    """The ignore rules of one commit's tree, asked one path at a time."""

    def __init__(self, files: Mapping[str, str], tracked_folders: AbstractSet[str] = frozenset()) -> None:
        """Compile every `.gitignore` once.

        Args:
            files: `.gitignore` path → its text.
            tracked_folders: Folders the tree holds files in; a rule ignoring one of them is not evidence.
        """
        self._tracked_folders = tracked_folders
        rules: list[_FolderRules] = []
        for source, text in files.items():
            spec = pathspec.GitIgnoreSpec.from_lines(text.splitlines())
            rules.append(_FolderRules(posixpath.dirname(source), source, spec))
        # Deepest folder first: git lets a nested file override its parents' rules.
        self._rules = sorted(rules, key=lambda r: (-r.folder.count("/") - bool(r.folder), r.folder))

    def __bool__(self) -> bool:
        return bool(self._rules)

    def reason(self, path: str) -> str | None:
        """Why an absent path is one the repository never commits, or None when its rules do not say so.

        Args:
            path: Repository-relative path as the doc names it, a trailing `/` for a folder allowed.

        Returns:
            A sentence naming the `.gitignore` and its pattern, or None.
        """
        plain = path.strip("/")
        if not plain or plain.startswith(".."):
            return None
        if (ignoring := self._ignoring_pattern(plain)) is None:
            return None
        tracked_above = _tracked_ancestors(plain, self._tracked_folders)
        if any(self._ignoring_pattern(folder) == ignoring for folder in tracked_above):
            return None  # the rule ignores a folder the repository does commit files in
        source, pattern = ignoring
        return (
            f"{path} matches `{pattern}` in {source}: the repository never commits it "
            "(a file a build, a tool or the reader creates)"
        )

    def _ignoring_pattern(self, plain: str) -> tuple[str, str] | None:
        """The `.gitignore` and pattern that ignore a path (given without slashes at its ends), or None."""
        for rules in self._rules:
            prefix = f"{rules.folder}/" if rules.folder else ""
            if not plain.startswith(prefix):
                continue
            relative = plain[len(prefix) :]
            decided = None
            for form in (relative, relative + "/"):  # a folder named without its slash: `build`, `.venv`
                result = rules.spec.check_file(form)
                if result.include is not None:
                    decided = result
                    break
            if decided is None:
                continue
            if not decided.include or decided.index is None:
                return None  # re-included by a `!pattern`: the repository may commit it
            pattern = str(getattr(rules.spec.patterns[decided.index], "pattern", "")).strip()
            return rules.source, pattern
        return None


def _tracked_ancestors(plain: str, tracked_folders: AbstractSet[str]) -> list[str]:
    """The folders above a path that the tree holds files in, nearest last."""
    parts = plain.split("/")[:-1]
    folders = ("/".join(parts[: depth + 1]) for depth in range(len(parts)))
    return [folder for folder in folders if folder in tracked_folders]
