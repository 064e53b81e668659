"""Lists that a history sentence introduces: each item continues the sentence that leads into it.

"In 2.3 the mechanism was extended and is now described as fixtures:" followed by "* Factories
received a request object which managed caching through `request.cached_setup()` calls" tells,
item by item, what used to be; the item alone has no history word. An item that itself announces a
change still to come ("will be removed in 3.0") keeps its own reading: what it names should exist.
"""

from __future__ import annotations

import re

from sextant.doc_claims.claims.sentences import announces_change, sentence_around, tells_history

_ITEM = re.compile(r"^([ \t]*)(?:[-*+]|\d+[.)]|#\.)[ \t]+\S")


def history_led_lists(text: str) -> list[tuple[int, int]]:
    """The text ranges of list items whose list is introduced by a sentence that tells history.

    The lead-in is the paragraph line right before the list, ending with one colon (a reST `::`
    opens a literal block, not a list). The list runs over its items, their indented continuation
    lines and blank lines between them, and ends at the first line indented no deeper than its
    items that is not an item.

    Args:
        text: The whole doc text.

    Returns:
        (start, end) character offsets of each such item (nested items included), in document order.
    """
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        lead = lines[index].rstrip()
        first = _next_filled(lines, index + 1)
        item = _ITEM.match(lines[first]) if first < len(lines) else None
        if not lead.endswith(":") or lead.endswith("::") or _ITEM.match(lead) or item is None:
            index += 1
            continue
        colon = starts[index] + len(lead) - 1
        items = _items(lines, first, len(item.group(1)))
        if tells_history(sentence_around(text, colon, colon)):
            for item_start, item_end in items:
                start, end = starts[item_start], starts[item_end - 1] + len(lines[item_end - 1])
                if not announces_change(text[start:end]):
                    spans.append((start, end))
        index = items[-1][1] if items else index + 1
    return spans


def _next_filled(lines: list[str], index: int) -> int:
    """The index of the first non-blank line at or after `index` (len(lines) when none)."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def _items(lines: list[str], first: int, indent: int) -> list[tuple[int, int]]:
    """(first line, line after the last) of each item of the list whose first item is at `first`."""
    items: list[tuple[int, int]] = []
    index = first
    while index < len(lines):
        line = lines[index]
        depth = len(line) - len(line.lstrip())
        marker = _ITEM.match(line)
        if marker is not None and len(marker.group(1)) == indent:
            items.append((index, index + 1))
        elif line.strip() and depth <= indent:
            break
        elif line.strip() and items:
            items[-1] = (items[-1][0], index + 1)
        index += 1
    return items
