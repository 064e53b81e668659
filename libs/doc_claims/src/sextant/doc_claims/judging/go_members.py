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

A package's vars and consts are read from its files' outlines, whose lines `outlines` places back in
the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sextant.doc_claims.judging.declared_names import DeclaredName

GO_LANGUAGE = "go"
GO_TYPE_KINDS = frozenset({"struct", "interface"})
"""Symbol types of the Go types whose bodies declare members."""

GO_STANDARD_PACKAGES = frozenset(
    {
        "bufio", "bytes", "context", "errors", "flag", "fmt", "html", "http", "io", "json", "log", "math",
        "net", "os", "path", "reflect", "regexp", "sort", "strconv", "strings", "sync", "template", "testing",
        "time", "unicode", "url", "xml",
    }
)  # fmt: skip
"""Names of Go's standard packages a doc writes most (`json.Marshal`, `http.Handler`): a package of
ours by such a name (gin's `internal/json`) is not what the doc means."""
_HEADER = re.compile(r"\b(struct|interface)\s*\{")
_BODY_OPENS = re.compile(r"\b(struct|interface)\s*\{$")
_MEMBER_LINE = re.compile(r"^\t(?![\t ])(\S.*)$")
_TAG_OR_COMMENT = re.compile(r"`[^`]*`|//.*$|/\*.*?\*/")
_NAMED_FIELDS = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+(?![,.=(])\S")
_EMBEDDED = re.compile(r"^\*?((?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*)(?:\[[^\]]*\])?$")
_INTERFACE_METHOD = re.compile(r"^([A-Za-z_]\w*)\s*\(")
_DECLARATION = re.compile(
    r"^(var|const)\s+(?:\(\s*(?://.*|/\*.*\*/\s*)?$|([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*))"
)  # a block's `(` may carry a comment: `var ( // the defaults`
_BLOCK_ENTRY = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)(?:\s|=|$)")
_KIND_OF_DECLARATION = {"var": "variable", "const": "constant"}


@dataclass(frozen=True, slots=True)
class GoTypeBody:
    """What a struct's or an interface's body declares."""

    members: tuple[DeclaredName, ...]
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
        header = next((index for index, line in enumerate(lines) if _HEADER.search(line)), None)
        # The body's brace is the header line's last: an inline constraint (`[T interface{ ~int }]`)
        # comes before it, a comment (`{ // nolint`) after it.
        code = _TAG_OR_COMMENT.sub("", lines[header]).rstrip() if header is not None else ""
        if header is None or not _BODY_OPENS.search(code):
            return GoTypeBody((), ())  # no body, or one written on the header's line (`struct{}`)
        first = header + 1
    members: list[DeclaredName] = []
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
            members.append(DeclaredName(offset, method.group(1), "method"))
        elif (base := _EMBEDDED.match(member)) is not None:
            embedded.append(base.group(1))
            if kind == "struct":  # an embedded field is named by its type; an embedded interface is no member
                members.append(DeclaredName(offset, base.group(1).rsplit(".", 1)[-1], "field"))
        elif kind == "struct" and (named := _NAMED_FIELDS.match(member)) is not None:
            members.extend(_declared(offset, named.group(1), "field"))
    return GoTypeBody(tuple(members), tuple(dict.fromkeys(embedded)))


def is_documented_go_package(path: str, package: str | None) -> bool:
    """Whether a Go file's package is one a doc names by its package name (`cli.HelpFlag`).

    Args:
        path: The file (tests and samples are left out by the caller).
        package: Its package clause's name.

    Returns:
        False for `main`, a test package (`cli_test`), a package under `internal/` (no user imports
        it) and one named like a standard package.
    """
    if not package or package == "main" or package.endswith("_test") or package in GO_STANDARD_PACKAGES:
        return False
    return "internal" not in path.split("/")[:-1]


def go_package_names(text: str) -> list[DeclaredName]:
    """The package-level `var` and `const` names of a Go file's outline (or a window of it).

    Args:
        text: Code text whose top-level lines start at column 0 (the file's outline).

    Returns:
        Each declared name with its line offset and kind (`variable` or `constant`), `_` left out.
    """
    found: list[DeclaredName] = []
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


def _declared(offset: int, names: str, kind: str) -> list[DeclaredName]:
    return [DeclaredName(offset, name.strip(), kind) for name in names.split(",") if name.strip() != "_"]
