"""Credentials recognisable by their shape alone, masked in any text: tokens, key blocks, URL passwords.

Repository text goes to a hosted model (the analysis and review prompts) and onto the bus (events,
their Markdown, their evidence). A key committed by mistake is already a leak; copying it to a third
party and to every subscriber makes it a wider one. These rules need no knowledge of the file kind:
each matches only what is a credential wherever it stands (a provider's token prefix, a private key
block, the password of a URL, a long random value given to a name that says secret), so ordinary
code and prose pass untouched. Masks keep the text readable: ``<redacted:aws-key>`` says what stood
there, and the surrounding code, quotes and line structure stay as they were.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable

MASK_PREFIX = "<redacted:"
_CREDENTIAL_HINTS = (
    "secret", "token", "pass", "credential", "key", "bearer", "basic", "://", "ghp_", "gho_", "ghu_", "ghs_",
    "ghr_", "github_pat_", "glpat-", "xox", "sk-", "sk_", "rk_", "aiza", "npm_", "pypi-", "eyj", "akia", "asia",
    "abia", "acca",
)  # fmt: skip
"""Lower-cased pieces one of which every rule needs in a line: most lines of code hold none and are
left as they are without running a pattern (plain substring tests are many times faster than one)."""


def may_hold_credential(text: str) -> bool:
    """Whether any rule could match: a secret word, an auth scheme, a URL, or a token prefix.

    Args:
        text: Any text.

    Returns:
        False when no mask can apply (the text is returned as it is, without running the rules).
    """
    lowered = text.lower()
    return any(hint in lowered for hint in _CREDENTIAL_HINTS)


def redact_lines(text: str, rule: Callable[[str], str]) -> str:
    """Apply a line rule to each line that may hold a credential, after masking private key blocks.

    Every rule but the key block's is line-local (a name, its operator and its value share a line), so
    lines without a hint are never matched against a pattern.

    Args:
        text: Any text.
        rule: Masks one line.

    Returns:
        The masked text, line for line.
    """
    if not may_hold_credential(text):
        return text
    lines = _mask_key_blocks(text).split("\n")
    return "\n".join(rule(line) if may_hold_credential(line) else line for line in lines)


def mask(kind: str) -> str:
    """The text that stands in for a masked credential.

    Args:
        kind: What was there, e.g. ``aws-key``.

    Returns:
        e.g. ``<redacted:aws-key>``.
    """
    return f"{MASK_PREFIX}{kind}>"


def _has_digit_and_letter(value: str) -> bool:
    return any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


_TOKEN_SHAPES: tuple[tuple[str, re.Pattern[str], Callable[[str], bool] | None], ...] = (
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"), None),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"), None),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), None),
    ("slack-token", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), _has_digit_and_letter),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}"), None),
    ("api-key", re.compile(r"\bsk-(?:ant-|proj-|live-)?[A-Za-z0-9_-]{16,}"), None),
    ("stripe-key", re.compile(r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"), None),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), None),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), None),
    ("pypi-token", re.compile(r"\bpypi-AgE[A-Za-z0-9_-]{50,}"), None),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"), None),
)
"""(kind, shape, extra check): prefixes the providers document for their keys and tokens."""

_KEY_MARKER = re.compile(r"-----(BEGIN|END) ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----")
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}")
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@'\"`<>()\[\],]+:)([^/\s@'\"`<>,]+)(@)")
_AUTH_SCHEME = re.compile(r"\b(Bearer|bearer|BEARER|Basic|basic|BASIC|Token|token)(\s+)([A-Za-z0-9._~+/-]{16,}=*)")
_NAMED_VALUE = re.compile(
    r"(?i)((?:secret|token|passw(?:or)?d|passwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|signing[_-]?key"
    r"|auth[_-]?key|credentials?)[\w-]*[\"']?\s*(?:=|:=|=>|:)\s*[\"']?)([A-Za-z0-9+/=_.~-]{16,})"
)
_DOTTED_OR_SNAKE_NAME = re.compile(r"^[A-Za-z_$][\w$]*(?:[._][A-Za-z_$][\w$]*)+$")
_WORDS_WITH_SEPARATORS = re.compile(r"^[A-Za-z]*\d*(?:[-_.][A-Za-z]*\d*)+$")
_PLAIN_WORDS = re.compile(r"^_*[A-Za-z]+(?:[-_. ][A-Za-z]+)*_*$")
_SNAKE_CASE_NAME = re.compile(r"^_*[a-z]+\d*(?:_+[a-z]+\d*)+_*$")
_VERSION = re.compile(r"^[\^~<>=v]*\d+(?:\.[\dx*]+)+(?:[-+.][\w.]+)?$")
_VARIABLE_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_PATH_LIKE = re.compile(
    r"^(?:/|\./|\.\./|~/|[A-Za-z]:\\)|\.(?:pem|key|crt|cer|json|ya?ml|txt|p12|pfx|jks|env|gpg|asc)$"
)
_NOT_VALUES = frozenset({"true", "false", "yes", "no", "on", "off", "none", "null", "nil", "~", "required", "optional"})
_PLACEHOLDER_WORDS = frozenset(
    {"password", "passwd", "secret", "token", "changeme", "change_me", "changeit", "example", "sample", "dummy",
     "placeholder", "redacted", "none", "null", "nil", "undefined", "todo", "fixme", "xxx", "pass", "foo", "bar"}
)  # fmt: skip


def is_placeholder(value: str) -> bool:
    """Whether a value stands for a secret rather than being one (what a reader should see).

    Args:
        value: The text given to a secret-like name, without its quotes.

    Returns:
        True for references and templates (``$TOKEN``, ``${VAR}``, ``%(pw)s``, ``{token}``, ``<your-key>``),
        runs of one character (``xxxx``, ``****``), ``...``, and words such as ``changeme`` or ``your-token``.
    """
    text = value.strip()
    lowered = text.lower()
    if not text or text.startswith(("$", "<", "{", "[", "%", "#{", "...", "…")) or ("{" in text and "}" in text):
        return True
    if len(set(lowered)) == 1 or lowered in _PLACEHOLDER_WORDS:
        return True
    return lowered.startswith(("your", "my-", "my_", "replace", "insert", "enter", "put-", "put_", "example"))


def could_be_secret(value: str) -> bool:
    """Whether a literal given to a secret's name (or a URL's password) is a secret, not a stand-in or a name.

    Args:
        value: The literal, without its quotes.

    Returns:
        False for placeholders and templates, plain words (``guest``, ``X-Auth-Token``), snake_case
        and upper-case names (``engine1_upgrades``, ``GITHUB_TOKEN``), version numbers (a
        ``pbkdf2-password`` dependency), paths, values with spaces (messages), booleans and fewer
        than 4 characters.
    """
    if len(value) < 4 or value.startswith(MASK_PREFIX) or is_placeholder(value):
        return False
    if any(char.isspace() for char in value) or value.lower() in _NOT_VALUES:
        return False
    names_something = _PLAIN_WORDS.match(value) or _SNAKE_CASE_NAME.match(value) or _VARIABLE_NAME.match(value)
    return not (names_something or _VERSION.match(value) or _PATH_LIKE.search(value))


def looks_random(value: str) -> bool:
    """Whether an unquoted value is long and random enough to be a key rather than a word or a name.

    Args:
        value: The value.

    Returns:
        True for 16+ characters with letters and at least two digits (or base64's ``/`` or ``+``
        in mixed case), not a name made of words
        (``settings.SECRET_KEY``, ``s3-access-key-id``, ``defaultToConfig2``): at least 3 bits of
        entropy per character and a change of character class (lower, upper, digit) at every third
        character or more. Hex digests and base64 keys qualify.
    """
    if len(value) < 16 or not any(char.isalpha() for char in value):
        return False
    base64_like = ("/" in value or "+" in value) and not value.islower() and not value.isupper()
    if sum(char.isdigit() for char in value) < 2 and not base64_like:
        return False
    if _DOTTED_OR_SNAKE_NAME.match(value) or _WORDS_WITH_SEPARATORS.match(value):
        return False
    counts = Counter(value)
    entropy = -sum(count / len(value) * math.log2(count / len(value)) for count in counts.values())
    classes = [_character_class(char) for char in value if char.isalnum()]
    changes = sum(1 for before, after in itertools.pairwise(classes) if before != after)
    return entropy >= 3.0 and changes >= len(classes) * 0.3


def _character_class(char: str) -> int:
    return 0 if char.isdigit() else 1 if char.isupper() else 2


def _mask_key_blocks(text: str) -> str:
    """Mask the body of every private key block, keeping its BEGIN/END lines and each line's prefix.

    A chunk or a diff may hold only part of a block: the body runs from a BEGIN to its END, or to the
    text's end, and from the text's start to an END with no BEGIN before it.
    """
    markers = list(_KEY_MARKER.finditer(text))
    if not markers:
        return text
    spans: list[tuple[int, int]] = []
    start: int | None = 0 if markers[0].group(1) == "END" else None
    for marker in markers:
        if marker.group(1) == "BEGIN":
            start = marker.end()
        elif start is not None:
            spans.append((start, marker.start()))
            start = None
    if start is not None:
        spans.append((start, len(text)))
    pieces, cursor = [], 0
    for begin, end in spans:
        pieces.append(text[cursor:begin])
        pieces.append(_KEY_BODY.sub(mask("private-key"), text[begin:end]))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _mask_shape(text: str, kind: str, shape: re.Pattern[str], check: Callable[[str], bool] | None) -> str:
    def replace(match: re.Match[str]) -> str:
        return mask(kind) if check is None or check(match.group(0)) else match.group(0)

    return shape.sub(replace, text)


def _mask_auth_scheme(match: re.Match[str]) -> str:
    scheme, space, value = match.group(1), match.group(2), match.group(3)
    if scheme.lower() == "basic":
        credential = _basic_credential(value)
        keep = credential is None or not could_be_secret(credential.split(":", 1)[1])
    else:
        keep = not looks_random(value) or is_placeholder(value)
    return match.group(0) if keep else f"{scheme}{space}{mask('token')}"


def _basic_credential(value: str) -> str | None:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return decoded if ":" in decoded and decoded.isprintable() else None


def _mask_url_password(match: re.Match[str]) -> str:
    if not could_be_secret(match.group(2)):
        return match.group(0)
    return f"{match.group(1)}{mask('password')}{match.group(3)}"


def _mask_named_value(match: re.Match[str]) -> str:
    value = match.group(2)
    if value.startswith(MASK_PREFIX) or is_placeholder(value) or not looks_random(value):
        return match.group(0)
    return f"{match.group(1)}{mask('secret')}"


def redact_credentials(text: str) -> str:
    """The text with every credential recognisable by its shape masked; everything else kept.

    Masked: provider tokens and keys (AWS ``AKIA…``, GitHub ``ghp_…``/``github_pat_…``, GitLab, Slack
    ``xox…`` and webhooks, OpenAI/Anthropic ``sk-…``, Stripe, Google, npm, PyPI, JWTs), private key
    block bodies, the password of a ``scheme://user:password@`` URL, bearer and basic credentials,
    and a long random value given to a name that says secret (``SECRET_KEY=5ebe2294…``).

    Args:
        text: Repository text of any kind, or an event's free text.

    Returns:
        The text with each credential replaced by a mask such as ``<redacted:aws-key>``.
    """
    return redact_lines(text, redact_credential_line)


def redact_credential_line(line: str) -> str:
    """One line with its token shapes, URL passwords, auth credentials and random named values masked.

    Args:
        line: A line of text (private key blocks are masked before lines are split, in ``redact_lines``).

    Returns:
        The masked line.
    """
    for kind, shape, check in _TOKEN_SHAPES:
        line = _mask_shape(line, kind, shape, check)
    line = _URL_PASSWORD.sub(_mask_url_password, line)
    line = _AUTH_SCHEME.sub(_mask_auth_scheme, line)
    return _NAMED_VALUE.sub(_mask_named_value, line)
