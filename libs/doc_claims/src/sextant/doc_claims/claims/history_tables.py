"""Tables that map old names to their replacements: the old-name column tells history.

An upgrade table ("Setting name | Replace with", "Old name | New name") lists, row by row, a name
the reader may still have and what to write instead. The left column names what the code is right
to have dropped (`CASSANDRA_COLUMN_FAMILY` → `cassandra_table`), so an absent name there is what
the table says, not an error; the replacement column is a claim about the code today, and stays one.
A paragraph leading into the table that says the old names still work ("Old setting names are
still accepted:", "Acme will still be able to read old configuration files") makes the old column a
claim about today's code too: a name the code no longer reads is then an error of the doc. (A note
set apart from the table, an admonition's body, does not lead into it.)
"""

from __future__ import annotations

import re

# A column header that says its cells replace the ones before it. "New in" (a version column) and a
# bare "Use" (what a thing is for) do not.
_REPLACEMENT_HEADER = re.compile(
    r"(?:replace(?:d|ment)?(?:\s+(?:with|by))?|replacements?|use\s+instead|instead|renamed\s+to|now|after"
    r"|new(?:\s+(?:name|names|setting|settings|option|options|key|keys|api|spelling))?)",
    re.I,
)
_STILL_ACCEPTED = re.compile(
    r"\bstill\s+(?:be\s+)?(?:able\s+to\s+)?(?:accepted|supported|read|recogni[sz]ed|honou?red|valid|works?|working)\b",
    re.I,
)
_SIMPLE_BORDER = re.compile(r"[ \t]*=+(?:[ \t]+=+)+[ \t]*")
_PIPE_DELIMITER = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*")


def old_name_cells(text: str) -> list[tuple[int, int]]:
    """The text ranges of the cells that hold old names, in tables that map old names to new ones.

    reStructuredText simple tables (`====  ====` borders, a header row between the first two) and
    Markdown pipe tables are read; a column whose header says it replaces ("Replace with", "New
    name", "Use instead", "Now", "After") makes the columns before it old names.

    Args:
        text: The whole doc text.

    Returns:
        (start, end) character offsets of each old-name cell, in document order.
    """
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return sorted(_simple_table_cells(lines, starts) + _pipe_table_cells(lines, starts))


def _old_names_still_read(lines: list[str], first: int) -> bool:
    """Whether the paragraph leading into the table at line `first` says its old names still work."""
    index = first - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    indent = len(lines[first]) - len(lines[first].lstrip())
    paragraph: list[str] = []
    while index >= 0 and lines[index].strip() and len(lines[index]) - len(lines[index].lstrip()) == indent:
        paragraph.insert(0, lines[index])
        index -= 1
    return _STILL_ACCEPTED.search(" ".join(paragraph)) is not None


def _replacing_column(headers: list[str]) -> int | None:
    """The first column after the first whose header says it holds replacements."""
    for index, header in enumerate(headers[1:], 1):
        if _REPLACEMENT_HEADER.fullmatch(header.strip().strip("*`_ ").strip()):
            return index
    return None


def _simple_table_cells(lines: list[str], starts: list[int]) -> list[tuple[int, int]]:
    """Old-name cells of reStructuredText simple tables: border, header, border, rows, border."""
    cells: list[tuple[int, int]] = []
    borders = [index for index, line in enumerate(lines) if _SIMPLE_BORDER.fullmatch(line)]
    for first, second, third in zip(borders, borders[1:], borders[2:], strict=False):
        columns = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[first])]
        if second - first != 2 or len(columns) < 2:  # one header row between the first two borders
            continue
        header = lines[first + 1]
        bounds = [(start, columns[i + 1][0] if i + 1 < len(columns) else None) for i, (start, _) in enumerate(columns)]
        replacing = _replacing_column([header[start:end] for start, end in bounds])
        if replacing is None or _old_names_still_read(lines, first):
            continue
        old_end = bounds[replacing][0]
        cells.extend(
            (starts[row], starts[row] + min(old_end, len(lines[row])))
            for row in range(second + 1, third)
            if lines[row].strip()
        )
    return cells


def _pipe_table_cells(lines: list[str], starts: list[int]) -> list[tuple[int, int]]:
    """Old-name cells of Markdown pipe tables: a header row, a delimiter row, then the rows."""
    cells: list[tuple[int, int]] = []
    for index in range(1, len(lines)):
        if not _PIPE_DELIMITER.fullmatch(lines[index]) or "|" not in lines[index - 1]:
            continue
        replacing = _replacing_column(_pipe_cells(lines[index - 1]))
        if replacing is None or _old_names_still_read(lines, index - 1):
            continue
        row = index + 1
        while row < len(lines) and "|" in lines[row]:
            line = lines[row]
            pipes = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
            leading = bool(pipes) and not line[: pipes[0]].strip()
            separators = pipes[1:] if leading else pipes
            if len(separators) >= replacing:
                cells.append((starts[row], starts[row] + separators[replacing - 1]))
            row += 1
    return cells


def _pipe_cells(line: str) -> list[str]:
    cells = re.split(r"(?<!\\)\|", line.strip())
    if cells and not cells[0].strip():
        cells = cells[1:]
    if cells and not cells[-1].strip():
        cells = cells[:-1]
    return cells
