"""What a Go type and a Go package define besides their functions: fields, interface methods, vars, consts.

The parser makes a symbol of each Go function, method and type; a method's parent is its receiver's
type (`func (a *App) Run()` is `App.Run`). What a type's body declares stays in the type's text, and
a package's `var` and `const` declarations in the file's outline. A doc means them as surely:

- a struct's fields (`type App struct { Version string }` has `App.Version`), and an interface's
  methods (`type Flag interface { Apply(*flag.FlagSet) error }` has `Flag.Apply`);
- an embedded type (`*Command`, `sync.Mutex`, `fmt.Stringer`) passes its own members on, as a base
  class does; it is also a field named by its type (`App.Command`);
- a package-level `var` or `const` (`var HelpFlag Flag = &BoolFlag{…}`, each name of a
  `const ( … )` block) is a definition of the package (`cli.HelpFlag`).

Go code is gofmt'd: a type's members sit one tab in, a declaration block's entries too, and a
composite literal's lines deeper. The member lines are read by that indentation, so a window of a
large struct (a chunk that starts inside its body) reads the same.

A file's outline shows each function and type by its header and a `...` line, without the comments
above it, so a line of the outline is not the file line its offset would say: the headers' own lines
and ends (their chunks) place the outline's lines back in the file (`outline_lines`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from sextant.chunkstore.payload import ChunkPayload

GO_LANGUAGE = "go"
GO_TYPE_KINDS = frozenset({"struct", "interface"})
"""Symbol types of the Go types whose bodies declare members."""

_HEADER = re.compile(r"\b(struct|interface)\s*\{")
_MEMBER_LINE = re.compile(r"^\t(?![\t ])(\S.*)$")
_TAG_OR_COMMENT = re.compile(r"`[^`]*`|//.*$|/\*.*?\*/")
_NAMED_FIELDS = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+(?![,.=(])\S")
_EMBEDDED = re.compile(r"^\*?((?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*)(?:\[[^\]]*\])?$")
_INTERFACE_METHOD = re.compile(r"^([A-Za-z_]\w*)\s*\(")
_DECLARATION = re.compile(r"^(var|const)\s+(?:\(\s*$|([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*))")
_BLOCK_ENTRY = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)(?:\s|=|$)")
_KIND_OF_DECLARATION = {"var": "variable", "const": "constant"}


@dataclass(frozen=True, slots=True)
class GoMember:
    """One name a Go declaration defines, where, and what it is."""

    offset: int
    """0-based line offset in the text it was read from."""
    name: str
    kind: str
    """`field` or `method` of a type; `variable` or `constant` of a package."""


@dataclass(frozen=True, slots=True)
class GoTypeBody:
    """What a struct's or an interface's body declares."""

    members: tuple[GoMember, ...]
    embedded: tuple[str, ...]
    """Embedded types as written, without `*` and type arguments (`Command`, `sync.Mutex`)."""


def go_type_body(text: str, kind: str, *, starts_in_body: bool) -> GoTypeBody:
    """The members and embedded types of a Go struct or interface, from its chunk's text.

    Args:
        text: The type's source (`type App struct {…}`), or one window of it.
        kind: `struct` or `interface`.
        starts_in_body: The text is a later window, which starts inside the body (no header).

    Returns:
        Fields (named and embedded) or interface methods with their line offsets, and the embedded types.
    """
    lines = text.split("\n")
    first = 0
    if not starts_in_body:
        header = next(((index, match) for index, line in enumerate(lines) if (match := _HEADER.search(line))), None)
        if header is None or header[1].end() < len(lines[header[0]].rstrip()):
            return GoTypeBody((), ())  # no body, or one written on the header's line (`struct{}`)
        first = header[0] + 1
    members: list[GoMember] = []
    embedded: list[str] = []
    for offset in range(first, len(lines)):
        line = lines[offset]
        if line.startswith("}"):
            break  # the body's end at the top level
        match = _MEMBER_LINE.match(line)
        if match is None:
            continue
        member = _TAG_OR_COMMENT.sub("", match.group(1)).strip()
        if not member or "|" in member or member.startswith("~"):
            continue  # a comment line, or an interface's type set (`~int | ~string`)
        if kind == "interface" and (method := _INTERFACE_METHOD.match(member)) is not None:
            members.append(GoMember(offset, method.group(1), "method"))
        elif (base := _EMBEDDED.match(member)) is not None:
            embedded.append(base.group(1))
            if kind == "struct":  # an embedded field is named by its type; an embedded interface is no member
                members.append(GoMember(offset, base.group(1).rsplit(".", 1)[-1], "field"))
        elif kind == "struct" and (named := _NAMED_FIELDS.match(member)) is not None:
            members.extend(_declared(offset, named.group(1), "field"))
    return GoTypeBody(tuple(members), tuple(dict.fromkeys(embedded)))


def go_package_names(text: str) -> list[GoMember]:
    """The package-level `var` and `const` names of a Go file's outline (or a window of it).

    Args:
        text: Code text whose top-level lines start at column 0 (the file's outline).

    Returns:
        Each declared name with its line offset and kind (`variable` or `constant`), `_` left out.
    """
    found: list[GoMember] = []
    block: str | None = None
    for offset, line in enumerate(text.split("\n")):
        if block is not None:
            if line.startswith(")"):
                block = None
            elif (entry := _MEMBER_LINE.match(line)) is not None and (names := _BLOCK_ENTRY.match(entry.group(1))):
                found.extend(_declared(offset, names.group(1), block))
            continue
        declaration = _DECLARATION.match(line)
        if declaration is None:
            continue
        kind = _KIND_OF_DECLARATION[declaration.group(1)]
        if declaration.group(2) is None:
            block = kind
        else:
            found.extend(_declared(offset, declaration.group(2), kind))
    return found


def _declared(offset: int, names: str, kind: str) -> list[GoMember]:
    return [GoMember(offset, name.strip(), kind) for name in names.split(",") if name.strip() != "_"]


@dataclass(frozen=True, order=True, slots=True)
class OutlinedMember:
    """A symbol a file's outline shows by its header: that header line, where it is, where the symbol ends."""

    line: int
    """File line of the header's first line."""
    end_line: int
    header: str
    """The header's first line, stripped."""


def outline_lines(text: str, start_line: int, members: list[OutlinedMember]) -> list[int]:
    """The file line of each line of an outline chunk (a `...` line gets the line of the body it stands for).

    Args:
        text: The outline's text (the file's own lines, each member's header and a `...` line).
        start_line: The chunk's first line in the file.
        members: The file's outlined symbols, sorted by line.

    Returns:
        One file line per line of the text.
    """
    numbers: list[int] = []
    cursor = start_line
    ahead = iter(members)
    upcoming = next(ahead, None)
    passed: OutlinedMember | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        while upcoming is not None and upcoming.line < cursor:
            upcoming = next(ahead, None)
        if stripped == "..." and passed is not None:
            numbers.append(cursor)
            cursor = passed.end_line + 1
            passed = None
            continue
        if upcoming is not None and stripped == upcoming.header:
            cursor, passed = upcoming.line, upcoming
            upcoming = next(ahead, None)
        numbers.append(cursor)
        cursor += 1
    return numbers


class GoOutlines:
    """Go files' outline chunks and the headers they show, taken chunk by chunk, read once all are in.

    A package's vars and consts are read from its files' outlines; their lines need every outlined
    symbol of the file (its header's line and its end), whose chunks come in any order.
    """

    def __init__(self) -> None:
        """Start empty."""
        self._outlines: dict[str, list[tuple[int, str, str | None]]] = defaultdict(list)
        self._starts: dict[tuple[str, str, str | None, str | None], list[tuple[int, str]]] = defaultdict(list)
        self._ends: dict[tuple[str, str, str | None, str | None], list[int]] = defaultdict(list)

    def offer(self, path: str, payload: ChunkPayload) -> None:
        """Take in one chunk of a Go file: an outline, or one window of a symbol it outlines."""
        if payload.symbol_type == "module":
            self._outlines[path].append((payload.start_line, payload.text, payload.package))
            return
        if not payload.symbol:
            return
        key = (path, payload.symbol, payload.parent, payload.signature)
        if payload.window == 0:
            lines = payload.text.split("\n")
            offset = next((i for i, line in enumerate(lines) if not line.lstrip().startswith("//")), 0)
            self._starts[key].append((payload.start_line + offset, lines[offset].strip() if lines else ""))
        if payload.window == payload.window_count - 1:
            self._ends[key].append(payload.end_line)

    def package_names(self) -> Iterator[tuple[str, int, GoMember, str | None]]:
        """(path, file line, the var or const, package) of each package-level name of every outline."""
        members: dict[str, list[OutlinedMember]] = defaultdict(list)
        for key, starts in self._starts.items():
            for (line, header), end in zip(sorted(starts), sorted(self._ends.get(key, ())), strict=False):
                members[key[0]].append(OutlinedMember(line, end, header))
        for path, outlines in self._outlines.items():
            outlined = sorted(members.get(path, ()))
            for start_line, text, package in outlines:
                numbers = outline_lines(text, start_line, outlined)
                for member in go_package_names(text):
                    yield path, numbers[member.offset], member, package
