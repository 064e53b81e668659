"""Which lines of a fenced or literal code block are claims: shell commands, env files, imports."""

from __future__ import annotations

import re

from sextant.doc_claims.mentions import Mention, MentionForm

SHELL_LANGUAGES = frozenset(
    {
        "bash",
        "sh",
        "shell",
        "zsh",
        "fish",
        "console",
        "shell-session",
        "shellsession",
        "sh-session",
        "terminal",
        "ps1",
        "powershell",
        "pwsh",
        "posh",
        "bat",
        "cmd",
        "batch",
    }
)
# Blocks whose lines are commands only when they carry a prompt (the rest is output).
PROMPT_ONLY_LANGUAGES = frozenset(
    {
        "console",
        "shell-session",
        "shellsession",
        "sh-session",
        "terminal",
        "",
        "text",
        "txt",
        "none",
        "plaintext",
        "plain",
    }
)
ENV_LANGUAGES = frozenset({"env", "dotenv", ".env"})
PYTHON_LANGUAGES = frozenset({"python", "py", "python3", "pycon", "ipython"})

_PROMPT = re.compile(r"^\s*(?:\([\w.-]+\)\s*)?(?:[\w.@~:/-]+\s?)?[$%]\s+(?=\S)|^\s*PS[^>]*>\s+")
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)\s*=")
_FROM_IMPORT = re.compile(r"^\s*(?:>>>\s+)?from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w\s,]+)\)?\s*$")
_IMPORT = re.compile(r"^\s*(?:>>>\s+)?import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*$")


def block_mentions(language: str, lines: list[tuple[int, str]]) -> list[Mention]:
    """Mentions inside one code block.

    Args:
        language: The block's info string / language, as written (case-insensitive).
        lines: (offset in the doc, text) for each line of the block's body.

    Returns:
        Shell command lines, `KEY=value` lines of env files, and Python import lines; other
        languages' blocks (YAML, JSON, code samples) are examples and yield nothing.
    """
    lang = language.strip().lower().lstrip("{.").split(",")[0].split()[0] if language.strip() else ""
    if lang in ENV_LANGUAGES:
        return [_whole(offset, text, "env_file") for offset, text in lines if _ENV_LINE.match(text)]
    if lang in PYTHON_LANGUAGES:
        return [
            _whole(offset, text, "python_import")
            for offset, text in lines
            if _FROM_IMPORT.match(text) or _IMPORT.match(text)
        ]
    if lang in SHELL_LANGUAGES or lang in PROMPT_ONLY_LANGUAGES:
        return _shell_lines(lines, prompts_required=lang in PROMPT_ONLY_LANGUAGES)
    return []


def python_imports(text: str) -> list[str]:
    """Dotted names an import line brings in: `from a.b import c, d` → `a.b.c`, `a.b.d`."""
    if (match := _FROM_IMPORT.match(text)) is not None:
        module = match.group(1)
        names = [name.strip() for name in match.group(2).replace("\n", " ").split(",")]
        return [f"{module}.{name.split()[0]}" for name in names if name and name.split()[0] != "*"]
    if (match := _IMPORT.match(text)) is not None:
        return [name.strip() for name in match.group(1).split(",")]
    return []


def _whole(offset: int, text: str, form: MentionForm) -> Mention:
    return Mention(offset, offset + len(text), text, form)


def _shell_lines(lines: list[tuple[int, str]], *, prompts_required: bool) -> list[Mention]:
    """Command lines of a shell block: with prompts, only prompted lines; joined over `\\`."""
    has_prompts = any(_PROMPT.match(text) for _, text in lines)
    if prompts_required and not has_prompts:
        return []
    mentions: list[Mention] = []
    pending: tuple[int, str] | None = None
    for offset, text in lines:
        if pending is not None:
            joined = pending[1] + " " + text.strip()
            pending = (pending[0], joined)
        else:
            prompt = _PROMPT.match(text)
            if has_prompts and prompt is None:
                continue  # output, not a command
            body = text[prompt.end() :] if prompt else text
            if not body.strip() or body.lstrip().startswith(("#", "//", "REM ", "::")):
                continue
            pending = (offset + (prompt.end() if prompt else 0), body.strip())
        if pending[1].endswith(("\\", "`", "^")):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        mentions.append(Mention(pending[0], pending[0] + len(pending[1]), pending[1], "shell"))
        pending = None
    if pending is not None:
        mentions.append(Mention(pending[0], pending[0] + len(pending[1]), pending[1], "shell"))
    return mentions
