"""Security-relevant facts in the index: files named like secrets, and lines matching risky patterns.

These are pattern matches with their place (path:line), not proven vulnerabilities: the report says
so. Test files are not scanned (fixtures hold fake passwords and call eval on purpose). Call-like
patterns are matched on the line's code only — string literals blanked, a trailing `#` or `//`
comment cut — so a message or a comment that names `eval()` is not taken for a call; literal
patterns (a password in quotes, a private key block) are matched on the whole line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sextant.analyzer.evidence.payload_lines import is_contiguous, text_lines
from sextant.analyzer.evidence.test_files import is_test_path
from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import chunk_kind

CALL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("eval() call", re.compile(r"(?<![\w.$])eval\s*\(")),
    ("exec() call", re.compile(r"(?<![\w.$])exec\s*\(")),
    ("shell=True in a subprocess call", re.compile(r"\bshell\s*=\s*True\b")),
    ("os.system() call", re.compile(r"\bos\.system\s*\(")),
    ("pickle deserialisation", re.compile(r"\b(c?[Pp]ickle|dill)\.loads?\s*\(")),
    ("yaml.load() without a safe loader", re.compile(r"\byaml\.load\s*\((?![^)]*Safe)")),
    (
        "TLS certificate verification turned off",
        re.compile(r"\bverify\s*=\s*False\b|InsecureSkipVerify:\s*true|rejectUnauthorized:\s*false"),
    ),
    ("raw HTML injection sink", re.compile(r"\.innerHTML\s*=|dangerouslySetInnerHTML")),
)
"""(what it is, the pattern), matched on a line's code with strings blanked and comments cut."""

LITERAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "string literal assigned to a password-like name",
        re.compile(
            r"""(?i)\b(password|passwd|secret|api_?key|access_?token|auth_?token)["']?\s*[:=]\s*["'][^"'\s]{4,}["']"""
        ),
    ),
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----")),
)
"""(what it is, the pattern), matched on the whole line."""

_STRING = re.compile(
    "|".join((r"'''.*?'''", r'""".*?"""', r'"(?:\\.|[^"\\])*"', r"'(?:\\.|[^'\\])*'", r"`(?:\\.|[^`\\])*`"))
)
_COMMENT = re.compile(r"(#|//).*$")

_SECRET_FILE = re.compile(
    r"^(\.env(\.(?!example$|sample$|template$|dist$)[\w.-]+)?|id_(rsa|dsa|ecdsa|ed25519)|\.htpasswd|\.npmrc|\.pypirc"
    r"|.+\.(pem|key|p12|pfx|jks|keystore)|credentials.*\.json|secrets?\.(json|ya?ml|toml|env))$",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class PatternHit:
    """A line (or, in a class outline, a line range) that matches a risky pattern."""

    path: str
    start_line: int
    end_line: int
    """Equal to start_line when the exact line is known."""
    what: str

    @property
    def place(self) -> str:
        """`path:line`, or `path:start-end` when only the range is known."""
        if self.start_line == self.end_line:
            return f"{self.path}:{self.start_line}"
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass(frozen=True)
class SecurityFacts:
    """What the scan found."""

    secret_like_files: list[str]
    hits: list[PatternHit]
    files_scanned: int


def code_part(line: str) -> str:
    """A line with its string literals blanked and a trailing `#`/`//` comment cut (approximately:
    a string or comment opened on an earlier line is not known here)."""
    return _COMMENT.sub("", _STRING.sub('""', line))


def is_secret_like_file(path: str) -> bool:
    """Whether a file's name is one that usually holds secrets (.env, *.pem, id_rsa, …)."""
    return _SECRET_FILE.match(path.rsplit("/", 1)[-1]) is not None


class SecurityCollector:
    """Scans payloads one at a time."""

    def __init__(self) -> None:
        self._secret_files: set[str] = set()
        self._hits: set[PatternHit] = set()
        self._scanned: set[str] = set()

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload."""
        path = payload.path
        if is_secret_like_file(path):
            self._secret_files.add(path)
        if chunk_kind(path) != "code" or is_test_path(path):
            return
        self._scanned.add(path)
        exact = is_contiguous(payload)
        for offset, line in enumerate(text_lines(payload)):
            code = code_part(line)
            matched = [what for what, pattern in CALL_PATTERNS if pattern.search(code)]
            matched += [what for what, pattern in LITERAL_PATTERNS if pattern.search(line)]
            for what in matched:
                start, end = (payload.start_line + offset,) * 2 if exact else (payload.start_line, payload.end_line)
                self._hits.add(PatternHit(path, start, end, what))

    def build(self) -> SecurityFacts:
        """The facts, sorted by path and line."""
        return SecurityFacts(
            secret_like_files=sorted(self._secret_files),
            hits=sorted(self._hits),
            files_scanned=len(self._scanned),
        )
