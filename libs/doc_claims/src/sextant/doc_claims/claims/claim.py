"""A claim a doc makes about the repository's code: what it names, where, and how firmly."""

from __future__ import annotations

from typing import Literal

import msgspec

ClaimKind = Literal["path", "symbol", "env", "cli", "flag", "config_key"]


class Claim(msgspec.Struct, frozen=True, kw_only=True):
    """One reference in a doc that the indexed code can confirm or contradict."""

    doc: str
    """Path of the doc that makes the claim."""
    line: int
    """1-based line of the doc where the reference is written."""
    ref: str
    """The reference as written (a literal, a link target, a command line's `program sub`)."""
    kind: ClaimKind
    """What the reference names: path, symbol, env, cli, flag or config_key."""
    target: str
    """The name to resolve: a path without anchor or line suffix, a symbol without `()` or role
    marks, a flag without `=value`, a command as `program subcommand`."""
    explicit: bool = True
    """The doc's wording marks it as this repository's code (a relative link, `f()`, a Sphinx role,
    "the `X` class", a path with a folder and an extension), so its absence contradicts the doc;
    otherwise an absent target is only unverifiable."""
    command: str | None = None
    """For flags and commands: the program they belong to, as written (None when standalone)."""
    after_words: tuple[str, ...] = ()
    """For a flag on a shell line: the words before it that are no flag's value (`flower` of
    `celery -A proj flower --port=5555`): subcommands, whose flags they may be."""
    linked: bool = False
    """For paths: the doc links to it or includes it (a broken link is news even for a bare file name);
    otherwise it is a name in prose or a command line, which may be the reader's own file."""
    forge: str | None = None
    """For a link to a file through a forge's URL (`https://github.com/acme/app/blob/main/docs/x.md`):
    the forge repository it names (`acme/app`, lower-case); the path is from that repository's root."""
    owner: str | None = None
    """Whose the sentence says the name is ("Flask's `Blueprint`", "provided by SQLAlchemy"), lower-case."""
    in_history_sentence: bool = False
    """The sentence tells history ("was removed in 2.0", "no longer", "In 1.x"): an absent name there
    is what the sentence says, not an error."""
    in_sample: bool = False
    """Read off a code sample's qualified name (`aiohttp.web.run_app`): a claim only when its first
    part, the owner, is one of the repository's own names (otherwise no claim at all), and an alarm only
    when the history shows the name removed."""
    as_imported: bool = False
    """A sample's bare use of a name it imports `from` a module (`@unittest_run_loop` after `from
    aiohttp.test_utils import unittest_run_loop`): the import line's claim met again, so as firm as
    that line's (no removing commit needed), though like every sample name it keeps no definition site."""
    in_string: bool = False
    """Read off a string a code sample writes whole, an import path (`'acme.worker.steps:Hub'`): a claim
    only when its first part is one of the repository's import roots, its own packages (an example
    project's task name, `'proj.tasks.add'`, is a string of the same shape)."""
    of_field: bool = False
    """A parameter field (`:param retries:`) in an API directive's body, claimed as the directive's
    definition on the field's line: news only as outdated (the definition lost that parameter after
    the line); anything else about the definition the directive's own line says."""
    parameter: str | None = None
    """For a claim read off an API directive's signature slot or parameter field: the parameter of the
    directive's definition it documents (`conn_timeout` of `.. class:: ClientSession(…, conn_timeout=None)`).
    Such a claim is news only about that parameter: the definition lost it, or does not take it."""
