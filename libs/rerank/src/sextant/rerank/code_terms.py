"""Code-aware terms of a text: whole identifiers and the words inside them.

`parse_config`, `parseConfig` and `ParseConfig` share one identifier key ("parseconfig") so a
Python diff and a TypeScript doc can agree, and each splits into the words "parse" and "config".
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

_ATOM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SUBWORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_CAMEL_HUMP = re.compile(r"[a-z0-9][A-Z]")
_MIN_WORD = 3
_MIN_IDENTIFIER = 5

_STOP_WORDS_TEXT = """
    the and for with that this from are was were not but have has had into when then than will can
    could should would its our your you all any each also only use used using get set new one two may
    more most some such these those which what who how why where here there been being does did out
    over under about after before via per yes they them their his her him she are both either same
    other others just like make makes made see let now way well very much many must need needs
    def class return import self cls none true false null nil var const func function async await
    pass else elif while try except finally raise throw throws catch public private protected static
    void int str string bool float double char dict list type types struct impl pub mod package
    interface export default yield lambda print len range this super args kwargs value values data
    file files test tests error errors result results name names item items index key keys diff git
    http https www com org src lib docs doc readme todo fixme note example examples foo bar baz
"""
STOP_WORDS: frozenset[str] = frozenset(_STOP_WORDS_TEXT.split())
"""Words too common in code or prose to say anything about relevance."""

_COMMON_IDENTIFIERS_TEXT = """
    init main name file dict class module self tostring getlogger setup teardown usestate useeffect
    hasownproperty valueerror typeerror keyerror runtimeerror indexerror attributeerror oserror
    notimplementederror importerror assertionerror exception assertequal asserttrue assertfalse
    assertraises tolowercase touppercase addeventlistener queryselector getelementbyid parseint
    settimeout foreach statusok isempty isnone issome tovec asref fromstr unwrapor unwraporelse
    maperr okor intoiter itermut toowned asstr sizet uint8 uint16 uint32 uint64 int8 int16
    int32 int64 float32 float64 ifnamemain typechecking pytestfixture mockpatch
"""
COMMON_IDENTIFIERS: frozenset[str] = frozenset(_COMMON_IDENTIFIERS_TEXT.split())
"""Identifier keys that are compound but appear in unrelated code everywhere."""


def identifier_key(atom: str) -> str:
    """Normalise an identifier so snake_case, camelCase and PascalCase spellings compare equal.

    Args:
        atom: An identifier as written.

    Returns:
        It lowercased, without underscores.
    """
    return atom.replace("_", "").lower()


def is_distinctive(atom: str) -> bool:
    """Whether an identifier is specific enough that sharing it means sharing a subject.

    Distinctive: compound (an inner underscore or a lower-to-upper hump), at least five characters
    without leading/trailing underscores, and not one of the COMMON_IDENTIFIERS.

    Args:
        atom: An identifier as written.

    Returns:
        True for names like `parse_config`, `SessionStore`, `STALE_DOC_GAP`; False for `init`, `Session`.
    """
    core = atom.strip("_")
    if len(core) < _MIN_IDENTIFIER:
        return False
    compound = "_" in core or _CAMEL_HUMP.search(core) is not None
    return compound and identifier_key(core) not in COMMON_IDENTIFIERS


def subwords(atom: str) -> list[str]:
    """Split an identifier into its lowercase words.

    Args:
        atom: An identifier as written.

    Returns:
        Its parts, e.g. `HTTPServerError2` -> ["http", "server", "error", "2"].
    """
    return [part.lower() for piece in atom.split("_") for part in _SUBWORD.findall(piece)]


@dataclass(frozen=True, slots=True)
class CodeTerms:
    """The terms of one text, ready to compare."""

    identifiers: frozenset[str]
    """Keys of every identifier-like token (see `identifier_key`)."""
    distinctive: frozenset[str]
    """Keys of the distinctive identifiers only."""
    distinctive_words: dict[str, tuple[str, ...]]
    """For each distinctive key, its content words (used for partial matches in prose)."""
    words: Counter[str]
    """Content words (subwords included, stop words and short words left out) with their counts."""
    length: int
    """Number of word tokens, stop words included (for length normalisation)."""


@lru_cache(maxsize=65536)
def _atom_terms(atom: str) -> tuple[str, int, tuple[str, ...], bool]:
    # Code repeats its identifiers endlessly; caching the per-token work makes a rerank ~3x faster.
    parts = subwords(atom)
    content = tuple(p for p in parts if len(p) >= _MIN_WORD and p not in STOP_WORDS)
    return identifier_key(atom), len(parts), content, is_distinctive(atom)


def code_terms(text: str) -> CodeTerms:
    """Extract identifiers and words from code or prose.

    Args:
        text: Any text (a diff, a code chunk, a Markdown section).

    Returns:
        Its CodeTerms.
    """
    identifiers: set[str] = set()
    distinctive: dict[str, tuple[str, ...]] = {}
    all_words: list[str] = []
    length = 0
    for atom in _ATOM.findall(text):
        key, part_count, content, distinct = _atom_terms(atom)
        identifiers.add(key)
        length += part_count
        all_words.extend(content)
        if distinct:
            distinctive.setdefault(key, content)
    return CodeTerms(
        identifiers=frozenset(identifiers),
        distinctive=frozenset(distinctive),
        distinctive_words=distinctive,
        words=Counter(all_words),
        length=length,
    )
