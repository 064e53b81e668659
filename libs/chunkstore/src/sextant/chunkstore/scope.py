"""Which points an operation reads or writes, said once for both engines.

Every read and delete is scoped to one repository (many share a collection); a scope adds the other
conditions an operation needs. Each engine translates a `Scope` into its own filter type.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from sextant.chunkstore.schema import IndexedField


class Match(Enum):
    """How a payload field is compared with the scope's value."""

    VALUE = "value"
    """The field equals a string."""
    ANY = "any"
    """The field equals one of a list of strings."""
    PREFIX = "prefix"
    """The field starts with a string (keyword index prefix match)."""


@dataclass(frozen=True)
class FieldMatch:
    """One condition on an indexed payload field."""

    field: IndexedField
    match: Match
    value: str | list[str]


@dataclass(frozen=True)
class Scope:
    """Points of one repository that meet every condition (and lack a dense vector, if asked)."""

    must: tuple[FieldMatch, ...]
    without_dense: bool = False


def _repo(repo_key: str) -> FieldMatch:
    return FieldMatch(IndexedField.REPO_KEY, Match.VALUE, repo_key)


def repository(repo_key: str, *, kind: str | None = None) -> Scope:
    """Every point of a repository, or only those of one kind ("code" or "doc")."""
    if kind:
        return Scope((_repo(repo_key), FieldMatch(IndexedField.KIND, Match.VALUE, kind)))
    return Scope((_repo(repo_key),))


def files(repo_key: str, paths: Collection[str]) -> Scope:
    """Every point of the given files of a repository."""
    return Scope((_repo(repo_key), FieldMatch(IndexedField.PATH, Match.ANY, list(paths))))


def symbols(repo_key: str, name: str, *, prefix: bool) -> Scope:
    """Points whose symbol is `name`, or starts with it."""
    return Scope((_repo(repo_key), FieldMatch(IndexedField.SYMBOL, Match.PREFIX if prefix else Match.VALUE, name)))


def missing_dense(repo_key: str) -> Scope:
    """Points of a repository written without their dense vector yet."""
    return Scope((_repo(repo_key),), without_dense=True)
