"""Shapes of names: what a token written in a doc looks like (path, env var, flag, symbol, key)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sextant.doc_claims.claims.claim import ClaimKind
from sextant.doc_claims.claims.known_names import (
    CODE_EXTENSIONS,
    DATA_EXTENSIONS,
    GENERATED_FOLDERS,
    PLACEHOLDER_FIRST_SEGMENTS,
    PLACEHOLDER_SEGMENTS,
    PLAIN_WORDS,
    UNINDEXED_EXTENSIONS,
    WELL_KNOWN_FILES,
)

ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:__?[A-Z0-9]+)+$")
ENV_REFERENCE = re.compile(r"\$\{?([A-Z][A-Z0-9_]*)\}?|%([A-Z][A-Z0-9_]*)%")
FLAG = re.compile(r"^(--[A-Za-z][\w-]*|-[A-Za-z](?=\d+$)|-[A-Za-z][\w-]*)(?:\d+|=.*)?$")
"""A flag and its name: `--force`, `--out=x` (`--out`), and a short flag with its number attached
(`-c4`, `-j8`: `-c`, `-j`)."""
SUBCOMMAND = re.compile(r"^[a-z][a-z0-9-]*$")
PROGRAM = re.compile(r"^[a-z][a-z0-9._-]*$")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
FORGE_FILE = re.compile(
    r"^https?://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/(?:blob|tree|raw)/(main|master|HEAD|trunk|develop)/([^?#]+)"
)
"""A link to a file or folder on the default branch of a GitHub repository: (owner/name, branch, path)."""
LOCALE = re.compile(r"^(?:[a-z]{2,3}_[A-Z]{2}|C)(?:\.[A-Za-z0-9-]+)?(?:@\w+)?$")
"""A locale name (`en_US.utf-8`, `de_DE.UTF-8`, `C.UTF-8`): the system's, never a key or symbol of ours."""
DOTTED = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w-]*)+$")
CAMEL = re.compile(r"^(?:[A-Z]+[a-z0-9]+){2,}[A-Za-z0-9]*$|^[A-Z]{2,}[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$")
LOWER_CAMEL = re.compile(r"^[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+$")
NUMBER_OR_VERSION = re.compile(r"^[v=<>~^]*\d[\d.,:x*+-]*[a-z]{0,3}\d*$", re.I)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_MIME = re.compile(r"^(?:application|text|image|audio|video|multipart|font)/[\w.+-]+$")
_LINE_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)?|#L\d+(?:-L?\d+)?)$")
_SEGMENTS = re.compile(r"[/._-]+")
_HUMPS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_SERIES_LETTERS = frozenset({"a", "b", "c"})
_META_LETTERS = frozenset({"N", "X", "Y"})
_BEFORE_META_LETTER = frozenset({"In", "Since", "Until", "Before", "After", "Version", "V", "Py", "Python"})
"""Humps after which a lone `X` or `N` is a version left open (`RemovedInX`, `PythonN`), not an acronym."""
_NEWS_FRAGMENT = re.compile(r"\+?\d+\.([a-z]+)(?:\.\d+)?(?:\.(?:md|rst|txt|adoc))?")


@dataclass(frozen=True)
class Draft:
    """A claim before it is pinned to a doc and a line."""

    kind: ClaimKind
    ref: str
    target: str
    explicit: bool = True
    command: str | None = None
    linked: bool = False
    forge: str | None = None
    after_words: tuple[str, ...] = ()


def is_external(target: str) -> bool:
    """Whether a link target points outside the repository (a URL, mail, an in-page anchor)."""
    return bool(_SCHEME.match(target)) or target.startswith(("//", "#", "www."))


def extension(name: str) -> str:
    """The lower-case extension of a file name ('' when none)."""
    base = name.rstrip("/").rsplit("/", 1)[-1]
    if "." not in base.lstrip("."):
        return ""
    return base.rsplit(".", 1)[-1].lower()


def is_placeholder(name: str) -> bool:  # noqa: PLR0911 - one exit per kind of placeholder
    """Whether a name is an example placeholder (`foo.py`, `path/to/file`, `<name>`, `my_app`, `get_X`)."""
    if any(mark in name for mark in "<>{}*?[]…") or "..." in name:
        return True
    parts = [part for part in _SEGMENTS.split(name) if part]
    if not parts:
        return True
    if len(parts) > 1 and any(len(part) == 1 and part.isupper() for part in parts):
        return True  # get_X, T_Config: a letter standing for "any"
    lowered = [part.lower() for part in parts]
    if any(part in {"my", "your"} or part.startswith("your") for part in lowered):
        return True  # svcs.your_framework, my-app
    if any(part in PLACEHOLDER_SEGMENTS for part in lowered) or lowered[0] in PLACEHOLDER_FIRST_SEGMENTS:
        return True
    if len(parts) == 2 and lowered[1] in _SERIES_LETTERS and parts[0].isalpha():
        return True  # plugin_a and plugin_b: one of a series the example counts through
    humps = _HUMPS.findall(parts[0])
    if any(
        hump in _META_LETTERS and humps[index - 1] in _BEFORE_META_LETTER and humps[index + 1][0].isupper()
        for index, hump in enumerate(humps[1:-1], 1)
    ):
        return True  # PytestRemovedInXWarning: X stands for a version number (getXPath keeps its X)
    return bool(humps) and humps[0].lower() in {"example", "sample", "foo"}  # exampleField, fooBar


def is_news_fragment(name: str) -> bool:
    """Whether a file name is a news fragment a contributor writes (`2574.bugfix.rst`, `4431.feature`).

    Changelog tools (towncrier and the like) collect files named by an issue number and a change type;
    a doc showing one shows the naming scheme, not a file the repository holds.
    """
    fragment = _NEWS_FRAGMENT.fullmatch(name.rsplit("/", 1)[-1])
    return fragment is not None and fragment.group(1) not in CODE_EXTENSIONS | DATA_EXTENSIONS | UNINDEXED_EXTENSIONS


def is_generated_path(path: str) -> bool:
    """Whether a path lies in a build output or environment folder that no repository holds."""
    return any(part in GENERATED_FOLDERS for part in path.split("/")[:-1] or path.split("/"))


def is_plain_word(name: str) -> bool:
    """Whether a literal is an everyday value rather than a name (`true`, `null`, `42`, `v1.2`)."""
    return name.lower() in PLAIN_WORDS or NUMBER_OR_VERSION.match(name) is not None


def strip_line_suffix(path: str) -> str:
    """Drop a `:12`, `:12-20` or `#L12` line reference from a path."""
    return _LINE_SUFFIX.sub("", path)


def looks_like_path(token: str) -> bool:
    """Whether a token names a file or folder of a repository (not a URL, MIME type or system path)."""
    if not token or is_external(token) or token.startswith(("/", "~", "-", "$", "@")):
        return False
    if _MIME.match(token) or " " in token:
        return False
    if "/" in token:
        return all(part and not part.isspace() for part in token.rstrip("/").split("/")) and bool(
            re.search(r"[A-Za-z]", token)
        )
    if token in WELL_KNOWN_FILES or token.split(".", 1)[0] in WELL_KNOWN_FILES:
        return True
    ext = extension(token)
    known = CODE_EXTENSIONS | DATA_EXTENSIONS | UNINDEXED_EXTENSIONS
    if token.startswith(".") and re.fullmatch(r"\.[A-Za-z][\w.-]*", token) and token[1:].lower() not in known:
        return True  # dotfiles: .env.example, .gitignore, .pre-commit-config.yaml
    return ext in known and re.fullmatch(r"[\w.-]+", token) is not None


def path_is_explicit(token: str) -> bool:
    """Whether an absent path contradicts the doc: it has a folder, or is a source file's name.

    A name without an extension (`.ci/run`, `scripts/deploy`, `src/app`) is not firm unless it ends
    in `/` or is a well-known file name: it may be an extension-less script, which the index never
    holds, or a folder whose files are not indexed, so its absence from the index proves nothing.
    """
    name = token.rsplit("/", 1)[-1]
    if name and extension(name) == "" and name not in WELL_KNOWN_FILES:
        return False
    return "/" in token or extension(token) in CODE_EXTENSIONS or token in WELL_KNOWN_FILES


def normalize_path(token: str) -> str:
    """A path as a resolver wants it: no line suffix, no `./`, no query or anchor."""
    path = strip_line_suffix(token.split("#", 1)[0].split("?", 1)[0])
    while path.startswith("./"):
        path = path[2:]
    return path
