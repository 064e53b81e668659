"""Find the claims a doc makes about the repository's code, syntax by syntax."""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable
from pathlib import PurePosixPath
from urllib.parse import unquote

from sextant.doc_claims.claims import name_shapes as shapes
from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.claims.history_sections import history_sections, in_spans
from sextant.doc_claims.claims.inline_reference import inline_claims
from sextant.doc_claims.claims.known_names import BUILD_TOOLS, PYTHON_BUILTINS, SHELL_STATE_BUILTINS, WELL_KNOWN_FILES
from sextant.doc_claims.claims.name_shapes import Draft
from sextant.doc_claims.claims.prose_context import clause_before
from sextant.doc_claims.claims.sentences import (
    opens_definition_body,
    owner_named,
    sentence_around,
    tells_history,
)
from sextant.doc_claims.claims.shell_commands import command_claims, line_programs, literal_programs, quoted_flags
from sextant.doc_claims.syntax.asciidoc import asciidoc_mentions
from sextant.doc_claims.syntax.code_blocks import STRING_ROLE, defined_names, python_imports, template_arguments
from sextant.doc_claims.syntax.markdown import markdown_mentions
from sextant.doc_claims.syntax.mentions import Mention
from sextant.doc_claims.syntax.plain_text import plain_text_mentions
from sextant.doc_claims.syntax.rst import rst_mentions
from sextant.doc_claims.syntax.rst_fields import FIELD_ROLE, PARAMETER_ROLE

_SYMBOL_ROLES = frozenset(
    {
        "func",
        "function",
        "meth",
        "method",
        "class",
        "mod",
        "module",
        "attr",
        "attribute",
        "autoattribute",
        "data",
        "const",
        "exc",
        "obj",
        "type",
        "struct",
        "member",
        "var",
        "macro",
        "enum",
        "autoclass",
        "autofunction",
        "automethod",
        "automodule",
    }
)
_PATH_ROLES = frozenset(
    {
        "file",
        "doc",
        "download",
        "include",
        "literalinclude",
        "image",
        "figure",
        "xref",
        "link",
        "video",
        "audio",
    }
)
_ENV_DOC = re.compile(r"environment variable|env var|\.env\b|\bexport [A-Z]|:envvar:", re.I)
_READERS_OWN = re.compile(r"\byour\b|\byou(?:'ll| will)? (?:create|write|add|make)\b", re.I)
_SCANNERS: dict[str, Callable[[str], list[Mention]]] = {
    ".rst": rst_mentions,
    ".adoc": asciidoc_mentions,
    ".asciidoc": asciidoc_mentions,
    ".txt": plain_text_mentions,
}


def extract_claims(doc_path: str, text: str, *, first_line: int = 1) -> list[Claim]:
    """The checkable claims a doc makes, with the line each is written on.

    Markdown (and plain text) inline code, links and fenced blocks; reStructuredText literals,
    Sphinx roles and directives; AsciiDoc monospace, passthroughs, links and listing blocks.
    Not claims: names behind external links, HTTP methods and status codes, files the reader is
    told to create, examples in prose ("e.g."), everyday words, placeholders, and well-known
    tools in shell lines.

    Args:
        doc_path: Repository path of the doc; its extension picks the syntax (Markdown by default).
        text: The doc text (or a slice of it).
        first_line: The doc line that `text` starts on, so reassembled chunks keep real lines.

    Returns:
        Claims in document order, one per (line, kind, target, command).
    """
    suffix = PurePosixPath(doc_path).suffix.lower()
    scanner = _SCANNERS.get(suffix, markdown_mentions)
    asciidoc = suffix in {".adoc", ".asciidoc"}  # its `====` lines delimit blocks, not headings
    removed_sections = [] if asciidoc else history_sections(text, markdown=suffix not in {".rst", ".txt"})
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    mentions = scanner(text)
    # A doc that talks about environment variables means them when it writes an upper-case name.
    env_doc = _ENV_DOC.search(text) is not None
    examples = [m.text for m in mentions if m.form == "example"]
    example_names = {name for code in examples for name in defined_names(code)}
    own_example_names = {name for code in examples for name in defined_names(code, own_only=True)}
    template_names = {name for code in examples for name in template_arguments(code)}
    example_flags = {flag for code in examples for flag in quoted_flags(code)}
    claims: list[Claim] = []
    seen: set[tuple[int, str, str, str | None, str | None]] = set()
    last_program: str | None = None
    for mention in mentions:
        line = first_line + bisect.bisect_right(line_starts, mention.offset) - 1
        # `git log -p` in prose runs git as surely as a shell line does
        text_programs = line_programs if mention.form == "shell" else literal_programs
        programs = text_programs(mention.text) if mention.form in {"shell", "inline"} else []
        if programs:
            # The program the doc ran last, a well-known tool's included: prose flags after
            # `docker-compose run --rm celery` are docker-compose's. `source script` or `cd dir`
            # only sets the shell up: a flag the prose names after it is no earlier program's either.
            ran = [program for program in programs if program not in SHELL_STATE_BUILTINS]
            last_program = ran[-1] if ran else None
        for found in _drafts(mention, text):
            if (found.kind == "path" and shapes.is_generated_path(found.target)) or (
                found.kind == "symbol" and found.target in template_names  # the reader's name in a call template
            ):
                continue
            draft = found
            if found.kind == "cli" and found.command is not None:
                last_program = found.command
            if found.kind == "flag" and found.command is None and last_program is not None:
                # A flag written after a command line belongs to that command (`--master` after
                # `uwsgi ...` is uWSGI's), as a reader takes it.
                draft = dataclasses.replace(found, command=last_program)
            elif found.kind == "flag" and found.command is None:
                # No program named before it: whose flag it is, the doc does not say.
                draft = dataclasses.replace(found, explicit=False)
            if found.kind == "flag" and found.target in example_flags:
                draft = dataclasses.replace(draft, explicit=False)  # the doc's own sample declares the option
            if found.kind == "env" and not found.explicit and env_doc and mention.form != "shell":
                draft = dataclasses.replace(found, explicit=True)
            if (
                mention.form != "python_import"
                and found.kind in {"symbol", "config_key", "env", "cli"}
                and (
                    _is_examples(found.target, example_names, own_example_names)
                    or (found.kind == "env" and found.target.lower() in example_names)
                )
            ):
                # The doc's own code sample defines the name: prose about it describes the sample,
                # so an absent name is unverifiable rather than a contradiction.
                draft = dataclasses.replace(draft, explicit=False)
            sentence = sentence_around(text, mention.offset, mention.end)
            if draft.kind == "path" and not draft.linked and _READERS_OWN.search(sentence):
                draft = dataclasses.replace(draft, explicit=False)  # "In `test/hooks.js`, make your hooks …"
            parameter = _documented_parameter(mention, text)
            key = (line, draft.kind, draft.target, draft.command, parameter)
            if draft.target and key not in seen:
                seen.add(key)
                claims.append(
                    Claim(
                        doc=doc_path,
                        line=line,
                        ref=draft.ref if parameter is None else f"{draft.ref}({parameter})",
                        kind=draft.kind,
                        target=draft.target,
                        explicit=draft.explicit,
                        command=draft.command,
                        after_words=draft.after_words,
                        linked=draft.linked,
                        forge=draft.forge,
                        in_history_sentence=_tells_history(text, mention.offset, sentence)
                        or (in_spans(mention.offset, removed_sections) and not _use_instead(sentence, mention.text)),
                        owner=_owner(mention, text, sentence),
                        in_sample=mention.form in {"sample_name", "imported_use"},
                        as_imported=mention.form == "imported_use",
                        in_string=mention.role == STRING_ROLE,
                        of_field=mention.role.startswith(FIELD_ROLE),
                        parameter=parameter,
                    )
                )
    return claims


def _documented_parameter(mention: Mention, text: str) -> str | None:
    """The parameter an API directive's signature slot or parameter field names, whose span the mention is."""
    if mention.role.startswith((FIELD_ROLE, PARAMETER_ROLE)):
        return text[mention.offset : mention.end]
    return None


# "Use the `pytest_warning_recorded` hook instead": in a section about what was removed, the name
# the reader is told to use now is today's.
_USE_INSTEAD = re.compile(r"\buse\b(.{1,120}?)\binstead\b", re.I | re.S)


def _use_instead(sentence: str, name: str) -> bool:
    """Whether the sentence tells the reader to use the name instead (of what a history section retires)."""
    return any(name in match.group(1) for match in _USE_INSTEAD.finditer(sentence))


def _tells_history(text: str, offset: int, sentence: str) -> bool:
    """Whether the sentence tells history; the first sentence of an API directive's body describes."""
    return tells_history(sentence) and (
        not opens_definition_body(text, offset) or tells_history(sentence, describing=True)
    )


def _owner(mention: Mention, text: str, sentence: str) -> str | None:
    """Whose the name is: a code sample's qualified name is its first part's (`aiohttp` of
    `aiohttp.web.run_app`), so it counts only when that is this repository's; a name in prose is
    whoever the sentence names."""
    if mention.form in {"sample_name", "imported_use"}:
        return re.split(r"[.:]", mention.text, maxsplit=1)[0].lower()  # `acme.steps:Hub` too
    clause = clause_before(text, mention.offset - 1)
    if (named := owner_named(clause, sentence)) is not None:
        return named
    if (tool := _TOOL_BEFORE.search(clause.rstrip("`*_ "))) is not None and tool.group(1).lower() in BUILD_TOOLS:
        return tool.group(1).lower()  # "We use setuptools `extra_requires`"
    if mention.form == "inline":
        return _linked_home(mention, text)
    return None


_TOOL_BEFORE = re.compile(r"(?:^|\s)([A-Za-z][\w-]*)$")
_ITEM_START = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+[`*]*")
_ITEM_END = re.compile(r"\n[ \t]*\n(?=[ \t]*(?:[-*+]|\d+[.)])[ \t])|\n(?=\S)")
"""Where a list item's text ends: the next item after a blank line, or a line back at the margin."""
_HOME_URL = re.compile(r"https?://(?:www\.)?([\w.-]+)/([\w.-]+)/([\w.-]+)[^\s<>`)]*")


def _linked_home(mention: Mention, text: str) -> str | None:
    """Whose a list item's name is when the item starts with it and links to its home elsewhere.

    "* ``celery_tasks``: Monitors … https://github.com/munin-monitoring/contrib/…/celery_tasks": a list
    of plug-ins, each with the link to where it lives, names other repositories' things. The owner is
    the linked repository (`munin-monitoring/contrib`); the judge keeps a claim whose link is into
    this repository, as its metadata names it.
    """
    line_start = text.rfind("\n", 0, mention.offset) + 1
    if _ITEM_START.fullmatch(text[line_start : mention.offset]) is None:
        return None
    after = text[mention.end :][:600]
    item = after[: (end.start() if (end := _ITEM_END.search(after)) is not None else len(after))]
    simple = mention.text.strip("`").rsplit(".", 1)[-1].rsplit("/", 1)[-1]
    for url in _HOME_URL.finditer(item):
        last = url.group(0).rstrip("/").rsplit("/", 1)[-1]
        if simple and last.split(".", 1)[0] == simple:
            return f"{url.group(2)}/{url.group(3)}".lower()
    return None


def _is_examples(target: str, names: set[str], own_names: set[str]) -> bool:
    """Whether a claim's name is the doc's code sample's: defined by it, or an attribute of what it defines.

    A bare name is the sample's when the sample defines or imports it. A dotted one is when the sample
    itself defines its first part (`BlogPost.title` after `class BlogPost`, `app.config` after
    `app = Flask()`) or its last (`mypkg.func()` after `def func()`). What the sample only imports
    says nothing of a dotted name: `import structlog` leaves `structlog.stdlib.X` a claim about the
    package, and `from acme.routing import RequestRedirect` leaves `acme.errors.RequestRedirect` one
    about where the package keeps it.
    """
    name = target.rsplit(" ", 1)[-1]
    if "." not in name:
        return name in names
    return name.split(".", 1)[0] in own_names or name.rsplit(".", 1)[-1] in own_names


def _drafts(mention: Mention, text: str) -> list[Draft]:  # noqa: PLR0911 - one branch per form
    if mention.form == "inline":
        return inline_claims(
            mention.text,
            clause_before(text, mention.offset - 1),
            text[mention.end :][:40],
            interpreted=mention.role == "interpreted",
        )
    if mention.form == "shell":
        return command_claims(mention.text)
    if mention.form == "env_file":
        name = mention.text.split("=", 1)[0].replace("export", "").strip()
        return [Draft("env", name, name)]
    if mention.form == "python_import":
        return [Draft("symbol", name, name) for name in python_imports(mention.text) if not shapes.is_placeholder(name)]
    if mention.form == "example":
        return []
    if mention.form in {"sample_name", "imported_use"}:
        # An entry point's colon (`acme.worker.autoscale:Autoscaler`) stands for the attribute's dot.
        target = mention.text.replace(":", ".")
        return [] if shapes.is_placeholder(mention.text) else [Draft("symbol", mention.text, target)]
    if mention.form == "link":
        return _link(mention.text)
    return _role(mention.role, mention.text)


def _link(target: str, *, labels_possible: bool = True) -> list[Draft]:
    """A link or include to a repository file: always explicit, the doc points right at it.

    MyST and Sphinx links also point at things that are not files: a `(label)=` target
    (`[see](how-frozen)`: one word, no extension) is the docs' own anchor, and a dotted Python name
    (`[f](structlog.processors.TimeStamper)`) is a symbol claim. An e-mail address is neither.
    """
    raw = unquote(target.strip())
    if (forge := shapes.FORGE_FILE.match(raw)) is not None:
        # A link to a file of the default branch through the forge: a path claim when the forge
        # repository is this one (the judge decides, from the repository's metadata).
        forge_path = shapes.normalize_path(forge.group(3))
        return (
            [Draft("path", target.strip(), forge_path, linked=True, forge=forge.group(1).lower())] if forge_path else []
        )
    path = shapes.normalize_path(raw)
    if not path or shapes.is_external(target) or shapes.is_placeholder(path) or "@" in path:
        return []
    label_shaped = "/" not in path and shapes.extension(path) == "" and re.fullmatch(r"[\w-]+", path)
    if labels_possible and label_shaped and path not in WELL_KNOWN_FILES:
        return []  # a cross-reference label
    if "/" not in path and shapes.DOTTED.match(path) and not shapes.looks_like_path(path):
        return [Draft("symbol", raw, path)]
    return [Draft("path", target.strip(), path, linked=True)]


_LITERAL_VALUE = re.compile(r"""[-+]?\.?\d[\w.]*|True|False|None|(["']).*\1|[A-Za-z_][\w.]*\s*=.*""")
"""A literal value, or a name with a value assigned: what a role marks when it marks no name."""


def _role(role: str, raw: str) -> list[Draft]:  # noqa: PLR0911 - one branch per role family
    """A Sphinx role or directive: the role says what kind of thing the target is."""
    name = role.rsplit(":", 1)[-1]
    target = raw.strip()
    if (titled := re.fullmatch(r"[^<]*<([^>]+)>", target)) is not None:
        target = titled.group(1).strip()
    target = target.lstrip("~!").removesuffix("()")
    if target.lstrip(".").startswith("@"):
        # Sphinx gives `~`, `!` and a leading `.` their meaning; `@` is a project's own extension's
        # shorthand (`:meth:`@send_task`` for the app's method), which only that extension expands.
        return []
    symbol_role = name in _SYMBOL_ROLES or role.startswith(("py:", "js:", "c:", "cpp:"))
    # An API directive may give the signature (`pytest.fail(reason, [pytrace=True])`, `f(*args)`):
    # its brackets and stars are the signature's, so only the name is read for placeholder marks.
    named = target.split("(", 1)[0].strip() if symbol_role else target
    if not named or shapes.is_placeholder(named):
        return []
    if symbol_role and _LITERAL_VALUE.fullmatch(named):
        # `:const:`-1``, `:data:`None``, `:const:`ignore_result=False``: a value (or a setting with its
        # value) marked up as code, not a name of the code.
        return []
    if name == "file":
        # :file: marks any file name, the reader's own included: the inline path rules apply.
        path = shapes.normalize_path(target)
        if not shapes.looks_like_path(path) or shapes.is_placeholder(path):
            return []
        return [Draft("path", raw.strip(), path, explicit=shapes.path_is_explicit(path))]
    if name in _PATH_ROLES:
        return _link(target, labels_possible=False)
    if name == "envvar":
        return [Draft("env", raw.strip(), target)]
    if name == "option":
        tokens = re.split(r"[\s,]+", target)
        # `:option:`--port <flower --port>``: Sphinx's `program option` target names the program.
        program = tokens[0] if len(tokens) > 1 and shapes.PROGRAM.match(tokens[0]) else None
        matches = [shapes.FLAG.match(token) for token in tokens]
        return [
            Draft("flag", match.group(0), match.group(1), command=program) for match in matches if match is not None
        ]
    if name in {"program", "command"}:
        return [Draft("cli", raw.strip(), target, command=target.split()[0])]
    if symbol_role:
        symbol = named.lstrip(".").replace("::", ".")
        # A single-word module (`atexit`) is as often the standard library's as ours.
        if symbol in PYTHON_BUILTINS:
            return []
        # A hand-written `.. method::` or `.. class::` may document what the code builds at run time (an
        # extension's methods installed on a class, a protocol's `__init__`): its absence is no contradiction.
        explicit = not (name in {"mod", "module", "automodule"} and "." not in symbol) and not role.startswith(
            ("declared:", FIELD_ROLE, PARAMETER_ROLE)
        )
        return [Draft("symbol", raw.strip(), symbol, explicit=explicit)] if symbol else []
    return []
