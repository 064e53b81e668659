"""Members a class or module gets at import time, with no plain definition in the code.

Each test builds a real git repository, commits code whose names appear only when it runs, and
checks the docs naming them: those the mechanism really supplies are not contradicted, and a name it
does not supply still is.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

OPERATIONS = '''\
class Operations:
    """Migration operations; plugins register more."""

    @classmethod
    def register_operation(cls, name):
        def register(op_cls):
            setattr(cls, name, getattr(op_cls, name))
            return op_cls

        return register

    def run(self):
        """Run them."""


class BatchOperations(Operations):
    """Operations inside a batch."""
'''

OPS = '''\
from .base import BatchOperations, Operations


@Operations.register_operation("drop_table")
@BatchOperations.register_operation("drop_column")
class DropTableOp:
    @classmethod
    def drop_table(cls, operations, name):
        """Drop a table."""

    @classmethod
    def drop_column(cls, operations, name):
        """Drop a column."""
'''

ROUTES = '''\
class Registry:
    """Names to handlers, in a dict."""

    handlers = {}

    @classmethod
    def add(cls, name):
        def register(fn):
            cls.handlers[name] = fn
            return fn

        return register


@Registry.add("ping")
def ping():
    """Answer."""
'''


def _statuses(git_repo: GitRepo, doc: str) -> dict[str, str]:
    git_repo.write("README.md", doc)
    commit = git_repo.commit("docs")
    findings = check_repository(git_repo.root, commit=commit).findings
    return {finding.ref: finding.status for finding in findings}


def test_members_a_decorator_registers_onto_a_class_are_there(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/operations/__init__.py", "from .base import BatchOperations, Operations\n")
    git_repo.write("acme/operations/base.py", OPERATIONS)
    git_repo.write("acme/operations/ops.py", OPS)
    git_repo.write("acme/registry.py", ROUTES)
    statuses = _statuses(
        git_repo,
        "Call `Operations.drop_table()` or `BatchOperations.drop_column()`;\n"
        "`BatchOperations.drop_table()` works too, as registered on its base.\n\n"
        "`Operations.rename_table()` is not registered. Nor is `Registry.ping()`: a dict holds it.\n",
    )
    assert statuses["Operations.drop_table()"] == "verified"
    assert statuses["BatchOperations.drop_column()"] == "verified"
    assert statuses["BatchOperations.drop_table()"] == "verified"
    assert statuses["Operations.rename_table()"] == "contradicted"
    assert statuses["Registry.ping()"] == "contradicted"
