"""A name bound by a re-export or an alias is compared as the definition its bindings lead to.

`acme.fail` is `_acme/outcomes.py`'s `fail` (a private package beside the public one), imported
into the package's `__init__`; `acme.s` is
`s = attributes`, itself imported from `acme._make`; `acme.fmt` is a re-export under another name
(`from ._text import format_text as fmt`). None has a declaration of its own, so what the doc's
signature trips over is what those definitions lost after the doc line was written (rules in
docs/doc-claims.md, "Outdated").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sextant.doc_claims import ClaimFinding, DocCheckReport, check_repository
from sextant.doc_claims.judging.definition_aliases import module_bindings

from ..conftest import GitRepo

INIT = """\
from _acme.outcomes import fail
from ._make import (
    attributes,  # the long name
    make_class,
)
from ._text import format_text as fmt
from json import dumps

s = attributes
"""
API_DOC = """\
API
===

.. autofunction:: acme.fail(reason, [pytrace=True, msg=None])

.. autofunction:: acme.s(add_repr=True, add_init=True)

.. autofunction:: acme.fmt(text, width=80)

.. autofunction:: acme.make_class(name, attrs)

.. autofunction:: acme.dumps(obj, indent=None)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("aliases") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", INIT)
    repo.write("_acme/__init__.py", '"""The implementation behind acme."""\n')
    repo.write("_acme/outcomes.py", 'def fail(reason="", pytrace=True, msg=None):\n    raise RuntimeError(reason)\n')
    repo.write(
        "acme/_make.py",
        "def attributes(maybe_cls=None, add_repr=True, add_init=True):\n    return maybe_cls\n\n\n"
        "def make_class(name, attrs):\n    return name\n",
    )
    repo.write("acme/_text.py", "def format_text(text, width=80):\n    return text[:width]\n")
    repo.write("docs/api.rst", API_DOC)
    repo.commit("acme and its API docs", date="2024-01-02T10:00:00+00:00")
    repo.write("_acme/outcomes.py", 'def fail(reason="", pytrace=True):\n    raise RuntimeError(reason)\n')
    repo.write(
        "acme/_make.py",
        "def attributes(maybe_cls=None, no_repr=False, add_init=True):\n    return maybe_cls\n\n\n"
        "def make_class(name, attrs, bases=()):\n    return name\n",
    )
    repo.write("acme/_text.py", "def format_text(text, columns=80):\n    return text[:columns]\n")
    repo.commit("Drop msg; no_repr replaces add_repr; columns replaces width", date="2024-03-05T09:00:00+00:00")
    return check_repository(repo.root)


def _finding(report: DocCheckReport, name: str) -> ClaimFinding:
    # The ref is the directive's whole signature (`acme.fail(reason, [pytrace=True, msg=None])`).
    return next(f for f in report.findings if f.doc == "docs/api.rst" and f.ref.split("(", 1)[0] == name)


def test_a_reexported_function_is_compared_as_its_definition(report: DocCheckReport) -> None:
    found = _finding(report, "acme.fail")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("fail lost parameter msg on 2024-03-05, commit ")
    assert "acme/__init__.py imports fail from _acme.outcomes" in found.changed


def test_an_alias_assigned_from_a_reexport_is_followed_through_both(report: DocCheckReport) -> None:
    found = _finding(report, "acme.s")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("attributes lost parameter add_repr on 2024-03-05")
    assert "acme/__init__.py binds s = attributes; acme/__init__.py imports attributes from acme._make" in (
        found.changed
    )


def test_a_reexport_under_another_name_is_followed(report: DocCheckReport) -> None:
    found = _finding(report, "acme.fmt")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("format_text lost parameter width on 2024-03-05")


def test_a_reexported_definition_that_lost_nothing_the_doc_writes_stays_verified(report: DocCheckReport) -> None:
    assert _finding(report, "acme.make_class").status == "verified"


def test_another_packages_name_reexported_is_not_followed(report: DocCheckReport) -> None:
    assert _finding(report, "acme.dumps").status != "outdated"


def test_module_bindings_read_relative_parenthesised_and_chained_imports() -> None:
    text = (
        "from . import validators\nfrom ._make import (\n    attr,\n    attributes,\n)\n"
        "s = attributes\nattr = ib = attr\n"
    )
    bindings = module_bindings(text, "attr/__init__.py", "attr")
    assert [(b.module, b.name) for b in bindings["s"]] == [(None, "attributes")]
    assert [(b.module, b.name) for b in bindings["ib"]] == [(None, "attr")]
    assert [(b.module, b.name) for b in bindings["attr"]] == [("attr._make", "attr")]
    assert [(b.module, b.name) for b in bindings["validators"]] == [("attr", "validators")]


def test_an_alias_is_compared_with_what_it_was_bound_to_when_the_line_was_written(tmp_path: Path) -> None:
    # `acme.s` was `_add_methods` when the doc was written, and is `attributes` now: the doc's
    # signature is held against `_add_methods` then (whose add_repr the head's `attributes` lacks).
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "from ._make import _add_methods as s\n")
    repo.write("acme/_make.py", "def _add_methods(cl, add_repr=True, add_init=True):\n    return cl\n")
    repo.write("docs/api.rst", "API\n===\n\n.. autofunction:: acme.s(add_repr=True, add_init=True)\n")
    repo.commit("acme.s and its doc", date="2015-01-28T10:00:00+00:00")
    repo.write("acme/__init__.py", "from ._make import attributes\n\ns = attributes\n")
    repo.write("acme/_make.py", "def attributes(maybe_cl=None, add_repr=True, add_init=True):\n    return maybe_cl\n")
    repo.commit("A public name for s", date="2015-02-01T10:00:00+00:00")
    repo.write("acme/_make.py", "def attributes(maybe_cl=None, no_repr=False, add_init=True):\n    return maybe_cl\n")
    repo.commit("no_repr replaces add_repr", date="2015-02-07T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/api.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("attributes lost parameter add_repr on 2015-02-07")


def test_a_module_moved_into_src_is_read_where_it_was_when_the_line_was_written(tmp_path: Path) -> None:
    # The doc line is older than the move to a src/ layout: the old definition is read from the
    # file of the same import name, `acme/pool.py`, not missed because `src/acme/pool.py` is newer.
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", '"""acme."""\n')
    repo.write("acme/pool.py", "def connect(host, retries=3):\n    return host\n")
    repo.write("docs/pool.rst", "Pool\n====\n\n.. autofunction:: acme.pool.connect(host, retries=3)\n")
    repo.commit("Pool and docs", date="2018-03-01T10:00:00+00:00")
    repo.move("acme/__init__.py", "src/acme/__init__.py")
    repo.move("acme/pool.py", "src/acme/pool.py")
    repo.commit("Switch to a src layout", date="2018-06-01T10:00:00+00:00")
    repo.write("src/acme/pool.py", "def connect(host):\n    return host\n")
    repo.commit("Remove the retries parameter", date="2019-06-30T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/pool.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("connect lost parameter retries on 2019-06-30")
