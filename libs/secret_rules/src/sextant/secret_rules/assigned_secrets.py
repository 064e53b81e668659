"""Secrets given to a name that says secret: ``password = "hunter2…"`` in code, ``DB_PASSWORD=…`` in config.

A password has no shape of its own; what marks it is the name it is given. In code only a quoted
literal is a value (``password = read_password()`` or ``token = os.environ["TOKEN"]`` is a
reference, and stays); in a config file (``.env``, INI, YAML, TOML, properties, a shell script) an
unquoted value is a literal too, and so is an inline ``NAME=value`` in a doc. The name must end in a
secret word (``db_password``, ``apiKey``, ``SECRET_KEY``, ``client_secret``), so ``token_type``,
``password_field`` and ``SECRET_KEY_FALLBACKS`` are names of other things. Values that only stand
for a secret are kept, since they are what a reader should see: templates and references
(``${VAR}``, ``%(pw)s``, ``<your-token>``), ``changeme``, an upper-case variable name
(``"GITHUB_TOKEN"``), a path, a value with spaces (a message), a plain word (``"bearer"``,
``"X-Auth-Token"``), a value spelling its own name, or fewer than 4 characters.
"""

from __future__ import annotations

import re

from sextant.secret_rules.credentials import could_be_secret, mask, redact_credential_line, redact_lines

_SECRET_WORDS = {
    "password": "password",
    "passwd": "password",
    "passphrase": "password",
    "secret": "secret",
    "token": "token",
    "apikey": "key",
    "credential": "credential",
    "credentials": "credential",
}
"""A name's last word that makes it a secret's name, and the mask's kind."""
_KEY_QUALIFIERS = frozenset({"api", "secret", "access", "private", "signing", "auth", "encryption", "master", "client"})
"""Words before a last ``key`` that make it a secret's name (``api_key``, ``secretKey``; not ``cache_key``)."""
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

_QUOTED_ASSIGNMENT = re.compile(
    r"(?P<name>(?<![\w$])[A-Za-z_$@][\w$.\-]*)(?P<close>[\"'`]?\]?)"
    r"(?P<op>\s*(?::\s*[\w\[\]., |&*<>?]+?\s*)?(?<![=!<>])(?::=|=>|\?\?=|\|\|=|=(?!=)|:|<-)\s*)"
    r"(?P<prefix>[bBrRuUfF]{0,2})(?P<quote>[\"'`])(?P<value>(?:\\.|(?!(?P=quote))[^\\\n])*)(?P=quote)"
)
_INLINE_ASSIGNMENT = re.compile(
    r"(?P<lead>(?<![\w$.\-]))(?P<name>[A-Za-z_][\w.\-]*)(?P<op>=|:[ \t]+)"
    r"(?P<value>[^\s\"'`#;|>!&*\[\]{}$%<(),][^\s\"'`#;,()\[\]{}<>]*?)(?=[.:!?]?(?:[\s\"'`#;,()]|$))"
)
_UNQUOTED_ASSIGNMENT = re.compile(
    r"(?m)^(?P<lead>[+\- ]?[ \t]*(?:export[ \t]+|set[ \t]+|ENV[ \t]+|ARG[ \t]+)?[\"']?)"
    r"(?P<name>[A-Za-z_][\w.\-]*)(?P<op>[\"']?[ \t]*[=:][ \t]*)"
    r"(?P<value>[^\s\"'`#;|>!&*\[{$%<][^\s#;\"'`()\[\]{}]*)(?=[ \t]*(?:[#;]|$))"
)


def secret_kind_of_name(name: str) -> str | None:
    """What secret a name holds, judged by its last word (and the word before a last ``key``).

    Args:
        name: An identifier, a dict key or a config key, e.g. ``DB_PASSWORD``, ``apiKey``, ``auth.token``.

    Returns:
        The mask's kind (``password``, ``token``, ``secret``, ``key``, ``credential``), or None.
    """
    last_part = re.split(r"[.:/]|->", name.strip("\"'`$@[]"))[-1]
    words = [word.lower() for word in _WORD.findall(last_part)]
    if not words:
        return None
    if words[-1] in _SECRET_WORDS:
        return _SECRET_WORDS[words[-1]]
    if words[-1] == "key" and len(words) > 1 and words[-2] in _KEY_QUALIFIERS:
        return "key"
    if words[-1] == "pass" and len(words) > 1:
        return "password"
    return None


def _names_itself(name: str, value: str) -> bool:
    """``s3_secret_access_key = 's3-secret-access-key'``: a value spelling its own name stands in for it."""
    return _letters(value) in _letters(name)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _is_secret_literal(name: str, value: str) -> str | None:
    kind = secret_kind_of_name(name)
    if kind is None or not could_be_secret(value) or _names_itself(name, value):
        return None
    return kind


def _mask_quoted(match: re.Match[str]) -> str:
    value = match.group("value")
    kind = _is_secret_literal(match.group("name"), value)
    if kind is None:
        return match.group(0)
    start, end = match.span("value")
    whole_start = match.start()
    return match.group(0)[: start - whole_start] + mask(kind) + match.group(0)[end - whole_start :]


def _mask_unquoted(match: re.Match[str]) -> str:
    value = match.group("value")
    kind = _is_secret_literal(match.group("name"), value)
    if kind is None or value.replace(".", "").isdigit():
        return match.group(0)
    return f"{match.group('lead')}{match.group('name')}{match.group('op')}{mask(kind)}"


def _source_line(line: str) -> str:
    return _QUOTED_ASSIGNMENT.sub(_mask_quoted, redact_credential_line(line))


def _config_line(line: str) -> str:
    return _UNQUOTED_ASSIGNMENT.sub(_mask_unquoted, _source_line(line))


def _doc_line(line: str) -> str:
    return _INLINE_ASSIGNMENT.sub(_mask_unquoted, _source_line(line))


def redact_source_secrets(text: str) -> str:
    """Code (or a doc) with its credentials and its secret literals masked; references and placeholders kept.

    Args:
        text: Source text, a doc, or the lines of a diff (``+``/``-``/`` `` prefixes are fine).

    Returns:
        ``redact_credentials`` of the text, with every quoted literal given to a secret's name masked
        (``password = "<redacted:password>"``); ``os.environ["X"]``, ``getenv(...)``, ``${VAR}`` and
        ``<your-token>`` stay.
    """
    return redact_lines(text, _source_line)


def redact_config_secrets(text: str) -> str:
    """A config file with its secrets masked: as code, and unquoted values given to a secret's name too.

    Args:
        text: A ``.env``, INI, YAML, TOML, properties or shell file (or the lines of its diff).

    Returns:
        ``redact_source_secrets`` of the text, with ``DB_PASSWORD=hunter2`` and ``token: abc123`` masked
        as well; ``${DB_PASSWORD}``, ``$TOKEN``, YAML tags and anchors, booleans and numbers stay.
    """
    return redact_lines(text, _config_line)


def redact_doc_secrets(text: str) -> str:
    """A doc (or a snippet quoted from one) with its secrets masked: as code, and ``NAME=value`` too.

    A doc writes commands and settings inline (`` `export API_TOKEN=abc123` ``, ``password: s3cr3t``),
    where an unquoted value is a literal; in code the same shape is a reference, so only docs get this.

    Args:
        text: A Markdown, reStructuredText or plain-text doc, or a ref or sentence taken from one.

    Returns:
        ``redact_source_secrets`` of the text, with unquoted values after ``=`` or ``: `` given to a
        secret's name masked; placeholders (``$API_TOKEN``, ``<your-token>``) and plain words stay.
    """
    return redact_lines(text, _doc_line)
