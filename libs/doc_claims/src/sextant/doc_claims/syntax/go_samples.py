"""Names a Go code sample reaches through an imported package: `cli.AppHelpTemplate`, `&cli.BoolFlag{`.

A Go sample that writes `cli.AppHelpTemplate = …` or builds a `cli.FlagErr{…}` claims that the
package it imports as `cli` has those names. The package is known by its import: the alias, or the
last part of the import path (a major-version suffix such as `/v3` left out), and only packages
imported from a path with a host (`github.com/urfave/cli/v3`) count: the standard library is
nobody's claim here. A snippet with no import at all reads `pkg.Name` for any lower-case `pkg`
that is no standard package: whether it is the repository's, the judge decides, as for any
sample name. Comments and string literals are never read.
"""

from __future__ import annotations

import bisect
import re

from sextant.doc_claims.syntax.mentions import Mention

GO_LANGUAGES = frozenset({"go", "golang"})

_IMPORT_ONE = re.compile(r'^\s*import\s+(?:([A-Za-z_]\w*|\.)\s+)?"([^"]+)"', re.M)
_IMPORT_BLOCK = re.compile(r"^\s*import\s*\(([^)]*)\)", re.M)
_IMPORT_ENTRY = re.compile(r'^\s*(?:([A-Za-z_]\w*|\.)\s+)?"([^"]+)"', re.M)
_MAJOR_VERSION = re.compile(r"^v\d+$")
_REFERENCE = re.compile(r"(?<![\w.])([a-z]\w*)\.([A-Z]\w*)\b")
# Strings (interpreted, raw, rune) and comments, blanked out before names are read; lengths kept.
_NOT_CODE = re.compile(r'"(?:\\.|[^"\\\n])*"|`[^`]*`|\'(?:\\.|[^\'\\\n])+\'|//[^\n]*|/\*.*?\*/', re.S)
_STANDARD = frozenset(
    {
        "atomic", "bufio", "bytes", "cmp", "context", "crypto", "errors", "exec", "filepath", "flag", "fmt",
        "html", "http", "httptest", "io", "ioutil", "json", "log", "maps", "math", "net", "os", "path",
        "reflect", "regexp", "runtime", "signal", "slices", "sort", "strconv", "strings", "sync", "template",
        "testing", "time", "unicode", "url", "utf8",
    }
)  # fmt: skip


def go_sample_names(lines: list[tuple[int, str]]) -> list[Mention]:
    """`pkg.Name` references of a Go sample through the packages it imports from elsewhere.

    Args:
        lines: (offset in the doc, text) for each line of the block's body.

    Returns:
        One "sample_name" mention per reference, at the place it is written.
    """
    text = "\n".join(line for _, line in lines)
    imported = _imported_packages(text)
    code = _NOT_CODE.sub(lambda match: re.sub(r"[^\n]", " ", match.group(0)), text)
    starts = []
    position = 0
    for _, line in lines:
        starts.append(position)
        position += len(line) + 1
    mentions = []
    for match in _REFERENCE.finditer(code):
        package = match.group(1)
        if (imported is not None and package not in imported) or (imported is None and package in _STANDARD):
            continue
        row = bisect.bisect_right(starts, match.start()) - 1
        offset = lines[row][0] + match.start() - starts[row]
        name = f"{package}.{match.group(2)}"
        mentions.append(Mention(offset, offset + len(name), name, "sample_name"))
    return mentions


def _imported_packages(text: str) -> set[str] | None:
    """The names the sample's imports from a host's path bind (None when it imports nothing)."""
    entries = [(m.group(1), m.group(2)) for m in _IMPORT_ONE.finditer(text)]
    for block in _IMPORT_BLOCK.finditer(text):
        entries += [(m.group(1), m.group(2)) for m in _IMPORT_ENTRY.finditer(block.group(1))]
    if not entries:
        return None
    names = set()
    for alias, path in entries:
        parts = path.split("/")
        if "." not in parts[0] or alias in {".", "_"}:
            continue  # the standard library, or an import whose names are unqualified or unused
        if alias:
            names.add(alias)
            continue
        last = parts[-1] if not _MAJOR_VERSION.match(parts[-1]) or len(parts) < 2 else parts[-2]
        names.add(last.removeprefix("go-").replace("-", "_").split(".")[0])
    return names
