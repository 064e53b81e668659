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


COMPAT_BEFORE = '''\
class Instance:
    """A collector, before its removal."""


def gone():
    """Removed later, with no shim."""
'''

COMPAT_AFTER = '''\
import warnings


class InstanceDummy:
    """Stands in for the removed collector."""


def __getattr__(name):
    if name == "Instance":
        warnings.warn("Instance is deprecated", DeprecationWarning)
        return InstanceDummy
    if name in ("Legacy",):
        raise AttributeError("Legacy was removed")
    raise AttributeError(name)
'''

LAZY_BEFORE = '''\
def gone_too():
    """Removed later; the lazy table never had it."""
'''

LAZY_AFTER = """\
import importlib

_LAZY = {"Thing": ".things"}


def __getattr__(name):
    if name in _LAZY:
        return importlib.import_module(_LAZY[name], __name__)
    raise AttributeError(name)
"""

PROXY = '''\
class HookProxy:
    """Answers any hook name."""

    def __getattr__(self, name):
        return name


class ClosedProxy:
    """Answers one name only."""

    def __getattr__(self, name):
        if name == "known":
            return 1
        raise AttributeError(name)


class Plain:
    """Nothing dynamic."""

    def run(self):
        """Run."""
'''


def test_a_getattr_supplies_the_names_it_returns_for_and_only_an_open_one_leaves_others_open(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/compat.py", COMPAT_BEFORE)
    git_repo.write("acme/lazy.py", LAZY_BEFORE)
    git_repo.write("acme/plain.py", "def run():\n    pass\n")
    git_repo.write("acme/proxy.py", PROXY)
    git_repo.commit("first", date="2021-01-01T00:00:00+00:00")
    git_repo.write("acme/compat.py", COMPAT_AFTER)
    git_repo.write("acme/lazy.py", LAZY_AFTER)
    git_repo.commit("remove Instance, gone and gone_too", date="2022-01-01T00:00:00+00:00")
    statuses = _statuses(
        git_repo,
        "Use `acme.compat.Instance` (a shim keeps it), not `acme.compat.gone()`, `acme.compat.Legacy`\n"
        "nor `acme.compat.misspelt`.\n\n"
        "`acme.lazy.Thing` comes from the lazy table; `acme.lazy.gone_too()` cleans up;\n"
        "`acme.plain.lazy_thing` configures it.\n\n"
        "Call `HookProxy.pytest_setup()`, `ClosedProxy.known`; `ClosedProxy.other` and\n"
        "`Plain.pytest_setup()` do not exist.\n",
    )
    assert statuses["acme.compat.Instance"] == "verified"
    # A hook that raises for every other name supplies nothing else: removed, raised or misspelt.
    assert statuses["acme.compat.gone()"] == "contradicted"
    assert statuses["acme.compat.Legacy"] == "contradicted"
    assert statuses["acme.compat.misspelt"] == "contradicted"
    # An open-ended hook may supply any name, unless the history shows the name removed.
    assert statuses["acme.lazy.Thing"] == "unverifiable"
    assert statuses["acme.lazy.gone_too()"] == "contradicted"
    assert statuses["acme.plain.lazy_thing"] == "contradicted"
    assert statuses["HookProxy.pytest_setup()"] == "unverifiable"
    assert statuses["ClosedProxy.known"] == "verified"
    assert statuses["ClosedProxy.other"] == "contradicted"
    assert statuses["Plain.pytest_setup()"] == "contradicted"


SETTINGS = """\
def Namespace(__old__=None, **options):
    if __old__ is not None:
        for key, opt in options.items():
            if not opt.old:
                opt.old = {o.format(key) for o in __old__}
    return options


def old_ns(ns):
    return {f'{ns}_{{0}}'}


class Option:
    old = set()

    def __init__(self, default=None, **kwargs):
        self.default = default
        for attr, value in kwargs.items():
            setattr(self, attr, value)


NAMESPACES = Namespace(
    result=Namespace(
        __old__=old_ns('acme_result'),
        persistent=Option(None),
        expires=Option(
            3600,
            old={'acme_task_result_expires'},
        ),
    ),
)


def old_names(table, ns=''):
    for key, opt in table.items():
        if isinstance(opt, dict):
            yield from old_names(opt, ns + key + '_')
        else:
            yield from (old.format(key).upper() for old in opt.old)
"""


def test_a_setting_template_a_function_builds_at_import_forms_the_old_names(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/defaults.py", SETTINGS)
    statuses = _statuses(
        git_repo,
        "Settings:\n\n- `ACME_RESULT_PERSISTENT`\n- `ACME_RESULT_EXPIRES` (its old name is another)\n"
        "- `ACME_RESULT_BOGUS`\n",
    )
    assert statuses["ACME_RESULT_PERSISTENT"] == "verified"
    # Formed from nothing the module holds (an entry with its own old name, a key it lacks): as absent as before.
    assert statuses["ACME_RESULT_EXPIRES"] == statuses["ACME_RESULT_BOGUS"] != "verified"


def test_a_template_built_with_format_forms_the_old_names_too(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/defaults.py", SETTINGS.replace("{f'{ns}_{{0}}'}", "{'{0}_{{0}}'.format(ns)}"))
    statuses = _statuses(git_repo, "Set `ACME_RESULT_PERSISTENT`.\n")
    assert statuses["ACME_RESULT_PERSISTENT"] == "verified"
