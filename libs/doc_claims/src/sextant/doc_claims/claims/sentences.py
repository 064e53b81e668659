"""The sentence a name is written in, and whether that sentence tells history.

History is decided per sentence, not per document: "`on_load` hooks are no longer available",
"`connect()` was removed in 2.0" or "In 1.x, use `Client.open`" name things the code is right to
lack, so an absent name there is what the sentence says; so do "does not need `cached_setup()`
anymore" and a release named with its project ("The pre pytest-2.3 mechanism", "In Celery 4.0 ..."),
though not a language's ("In Python 3.8"), nor "since" or "new in" one, which say what holds from
that release on. A sentence announcing a future change
("`open` is pending deprecation", "will be removed") is not history: if the code already removed
the thing, the sentence is behind the code, and that is a finding.
"""

from __future__ import annotations

import re

_LOOK_AROUND = 400
_SENTENCE_END = re.compile(
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s)|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+[.)])[ \t]"
)
# "used to" tells history when a subject does the used-to ("it used to", "`connect` used to") or a
# state follows ("used to be", "used to return"); "Function used to check …" and "is used to load"
# say what a thing is for. So does a name opening the body of its own API directive ("`Autoreloader`
# used to reload code when a file changes" under `.. attribute:: autoreloader`): there only a state
# the thing no longer has ("used to be", "used to exist") tells history.
_USED_TO_BY_NAME = r"[`'\")]\s*(?:\w+ly\s+)?used to\b"
_USED_TO_BY_PRONOUN = r"\b(?i:it|this|that|which|who|they|we|you|he|she|there|one)\s+(?:\w+ly\s+)?used to\b"
_USED_TO_STATE = (
    r"\bused to\s+(?:be|have|had|work|exist|accept|return|take|raise|live|support|require|need|mean|call|print|"
    r"show|default|point|contain|hold|ship|expose)\b"
)
_USED_TO_PAST_STATE = r"\bused to\s+(?:be|have|had|exist|live)\b"
# A release named with its project ("pytest-2.3", "Celery 4.0", "Pydantic V1"). A language or runtime's release
# ("Python 3.8", "Node 18.2") is a condition on the reader's machine, not this project's past, and
# "section 4.1" or "step 2.3" is a place in the docs.
_NAMED_RELEASE = (
    r"(?!(?i:python|py|cpython|pypy|node|nodejs|node\.js|go|golang|java|ruby|rust|php|perl"
    r"|section|chapter|step|figure|fig|table|part|page|line|lines|example|listing|appendix|rfc|pep|issue)\b)"
    r"[A-Za-z][\w.]*[- ](?:v?\d+\.\d+|[Vv]\d+\b)"  # "Celery 4.0", or a major written "Pydantic V1"
)
# "prior to pytest-2.3", "In Celery 4.0 the task was ..."; "since Jinja 1.1 the context is ...",
# "new in Jinja 1.1" and "in Jinja 1.1 and later" say what holds from that release on, today included.
_BEFORE_NAMED_RELEASE = (
    r"(?<![Nn]ew )(?<![Aa]dded )(?<![Ii]ntroduced )(?<![Aa]vailable )"
    r"\b(?:[Ii]n|[Uu]ntil|[Bb]efore|[Pp]rior to|[Pp]re)[- ]"
    + _NAMED_RELEASE
    + r"(?![\d.]*(?:\+|\s+(?:and|or)\s+(?:later|newer|above|up)|\s+onwards))"
)
# "does not need `cached_setup()` anymore"; "any more" only where it ends the clause ("not any more
# tasks" counts what is left).
_NOT_ANYMORE = r"(?:\bnot|n't)\s+(?:\S+\s+){0,8}?(?:anymore\b|any more(?=\s*(?:[.,;:!?)]|$)))"
_HISTORY_WORDS = (
    r"\bno longer\b"
    r"|" + _NOT_ANYMORE + r"|\b(?:was|were|has been|have been|had been|got|been)\s+(?:\w+\s+)?"
    r"(?:removed|dropped|renamed|replaced|deleted|superseded|moved|merged)\b"
    # "was changed from a class to a namedtuple in 3.1"; "if the file was changed, ..." is no history.
    r"|\b(?:was|were|has been|have been|had been)\s+(?:\w+\s+)?changed\s+(?:from|to|in)\b"
    r"|\b(?:removed|dropped|renamed|deprecated|replaced)\s+(?:in|since|as of|with|by)\s+(?:version\s+|v)?\d"
    r"|\b(?:[Ii]n|[Uu]ntil|[Bb]efore|[Pp]rior to|[Ss]ince)\s+(?:version\s+|v)?\d+(?:\.\d+)*(?:\.x)?\b"
    r"|" + _BEFORE_NAMED_RELEASE + r"|\b\d+\.x\b"
    r"|\b(?:previously|formerly|older versions?|old(?:er)?\s+(?:API|name|names|behaviou?r|way|style)"
    r"|legacy|instead of|in favou?r of|has changed|have changed)\b"
)
_HISTORY = re.compile(_HISTORY_WORDS + "|" + _USED_TO_BY_NAME + "|" + _USED_TO_BY_PRONOUN + "|" + _USED_TO_STATE)
_HISTORY_IN_DEFINITION = re.compile(_HISTORY_WORDS + "|" + _USED_TO_BY_PRONOUN + "|" + _USED_TO_PAST_STATE)
_FUTURE = re.compile(
    r"\bpending deprecation\b|\bwill be (?:removed|deprecated|dropped)\b|\b(?:is|are) deprecated\b", re.I
)


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or list item, or paragraph line group) that holds text[start:end].

    Args:
        text: The whole doc text.
        start: Where the mention starts.
        end: Where it ends.

    Returns:
        The sentence's text (at most a few hundred characters either side).
    """
    before = text[max(0, start - _LOOK_AROUND) : start]
    cut = 0
    for match in _SENTENCE_END.finditer(before):
        cut = match.end()
    after = text[end : end + _LOOK_AROUND]
    stop = _SENTENCE_END.search(after)
    return before[cut:] + text[start:end] + (after[: stop.start() + 1] if stop else after)


def tells_history(sentence: str, *, describing: bool = False) -> bool:
    """Whether a sentence tells what used to be (and not what is about to change).

    Args:
        sentence: One sentence of a doc.
        describing: The sentence opens the body of an API directive (`opens_definition_body`), where
            a name "used to reload" says what the thing is for, not what it once did.

    Returns:
        True for "no longer", "not ... anymore", "was removed", "was changed", "removed in 2.0",
        "In 1.x", "prior to pytest-2.3", "instead of", ...
    """
    history = _HISTORY_IN_DEFINITION if describing else _HISTORY
    return history.search(sentence) is not None and not announces_change(sentence)


# An API directive, whose body says what the thing it documents is (`.. attribute:: autoreloader`).
_API_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:[\w-]+:)?(?:attribute|method|function|class|data|exception|decorator|"
    r"classmethod|staticmethod|property|auto\w+)::.*"
)
_DIRECTIVE_OPTION = re.compile(r"[ \t]+:[\w-]+:.*")


def opens_definition_body(text: str, offset: int) -> bool:
    """Whether the sentence at `offset` is the first one of an API directive's body.

    The first sentence under `.. attribute:: autoreloader` says what the attribute is ("X used to
    reload code when a file changes"), as a docstring's summary line does.

    Args:
        text: The whole doc text (reStructuredText).
        offset: Where the mention starts.

    Returns:
        True when the paragraph holding `offset` directly follows an API directive (its options
        between), is indented deeper than it, and no sentence ends before `offset` in it.
    """
    lines = text[:offset].split("\n")
    index = len(lines) - 1
    while index > 0 and lines[index - 1].strip():
        index -= 1  # back to the paragraph's first line
    paragraph = "\n".join(lines[index:])
    indent = len(lines[index]) - len(lines[index].lstrip())
    if _SENTENCE_END.search(paragraph) is not None or indent == 0:
        return False
    index -= 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    while index >= 0 and _DIRECTIVE_OPTION.fullmatch(lines[index]):
        index -= 1
    if index < 0 or (match := _API_DIRECTIVE.fullmatch(lines[index])) is None:
        return False
    return len(match.group(0)) - len(match.group(0).lstrip()) < indent


def announces_change(sentence: str) -> bool:
    """Whether a sentence announces a change still to come ("pending deprecation", "will be removed").

    Args:
        sentence: One sentence (or list item) of a doc.

    Returns:
        True when the sentence says its name is about to go: the name should then still exist.
    """
    return _FUTURE.search(sentence) is not None


_POSSESSIVE = re.compile(r"\b([A-Za-z][\w.-]*)(?:'s|s')\s*$")
_PROVIDED = re.compile(
    r"\b(?:provided|defined|implemented|supplied|offered) by\s+(?:the\s+)?`?([A-Za-z][\w.-]*)`?"
    r"|\b(?:the\s+)?`?([A-Za-z][\w.-]*)`?\s+(?:package|library|module|project)\s+(?:provides|defines|offers|ships)\b"
    r"|\bfrom\s+(?:the\s+)?`?([A-Za-z][\w.-]*)`?\s+(?:package|library|project)\b",
    re.I,
)


def owner_named(clause: str, sentence: str) -> str | None:
    """Whose a name is, when the sentence says so: a possessive right before it, or an attribution.

    Args:
        clause: The clause right before the name.
        sentence: The whole sentence.

    Returns:
        The owner's name in lower case ("flask" for "Flask's `Blueprint`", "sqlalchemy" for
        "provided by SQLAlchemy"), or None.
    """
    if (possessive := _POSSESSIVE.search(clause.rstrip("`*_ "))) is not None:
        return possessive.group(1).lower().strip(".-")
    if (provided := _PROVIDED.search(sentence)) is not None:
        return next(group for group in provided.groups() if group).lower().strip(".-")
    return None
