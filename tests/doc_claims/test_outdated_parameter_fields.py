"""A directive's parameter field (`:param str endpoint:`) is held to the parameters of the directive's definition.

The directive's signature was brought up to date when `endpoint` became `name`, but the field
below it still documents `endpoint`: the field's line is outdated, with the commit and the day.
A field of a parameter the definition still takes says nothing, and one it never took is
contradicted (the doc names a parameter the code does not take); a field under a class documents
its constructor, not its members; and a field under a method the code removed adds nothing to what
the directive's own line says.
"""

from __future__ import annotations

import pytest

from sextant.doc_claims import DocCheckReport, check_repository
from sextant.doc_claims.syntax.rst import rst_mentions

from ..conftest import GitRepo

ROUTER_BEFORE = """\
class Router:
    def __init__(self, loop=None):
        self.loop = loop
        self.strict = False

    def colour(self):
        return "red"

    def add_route(self, method, path, handler, *, endpoint=None):
        return endpoint

    def reverse(self, method, endpoint, *, parts=None):
        return endpoint
"""
ROUTER_AFTER = """\
class Router:
    def __init__(self, loop=None, strict=False):
        self.loop = loop

    def add_route(self, method, path, handler, *, name=None):
        return name
"""
DOC = """\
Router
======

.. class:: acme.router.Router(loop=None)

   Routes requests.

   :param loop: an event loop
   :param bool strict: whether to match strictly
   :param str colour: the routes' colour

   .. method:: add_route(method, path, handler, *, {keyword}=None)

      Append a route.

      :param str path: route path

      :param callable handler: route handler

      :param str endpoint: route name for :meth:`reverse` lookup.

      :param str expries: a slip of the doc's

   .. method:: reverse(method, endpoint, *, parts=None)

      :param str endpoint: the route's name

      :param dict parts: the route's parts
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("fields") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/router.py", ROUTER_BEFORE)
    repo.write("docs/router.rst", DOC.format(keyword="endpoint"))
    repo.commit("Router and docs", date="2014-11-17T10:00:00+00:00")
    repo.write("acme/router.py", ROUTER_AFTER)
    repo.write("docs/router.rst", DOC.format(keyword="name"))  # the signature follows; the field stays
    repo.commit("Named routes build their own URLs", date="2014-11-23T10:00:00+00:00")
    return check_repository(repo.root)


def _line(text: str) -> int:
    return DOC.split("\n").index(text) + 1


def test_a_field_of_a_parameter_the_definition_lost_after_the_line_is_outdated(report: DocCheckReport) -> None:
    line = _line("      :param str endpoint: route name for :meth:`reverse` lookup.")
    found = [f for f in report.findings if f.line == line and f.ref == "acme.router.Router.add_route(endpoint)"]
    assert [f.status for f in found] == ["outdated"]
    assert found[0].changed is not None
    assert found[0].changed.startswith("Router.add_route lost parameter endpoint on 2014-11-23, commit ")
    assert "(doc line last changed 2014-11-17)" in found[0].changed


def test_fields_of_taken_or_never_taken_parameters_and_of_a_removed_method_say_nothing(report: DocCheckReport) -> None:
    fields = {
        _line("      :param str path: route path"),
        _line("      :param callable handler: route handler"),
        _line("      :param str endpoint: the route's name"),
        _line("      :param dict parts: the route's parts"),
        _line("   :param loop: an event loop"),
    }
    assert [f for f in report.findings if f.line in fields] == []
    slip = [f for f in report.findings if f.line == _line("      :param str expries: a slip of the doc's")]
    assert [(f.ref, f.status) for f in slip] == [("acme.router.Router.add_route(expries)", "contradicted")]
    assert slip[0].evidence == (
        "Router.add_route takes no parameter expries (it takes method, path, handler, name: acme/router.py:5)"
    )


def test_a_field_under_a_class_documents_its_constructor_not_a_member(report: DocCheckReport) -> None:
    # `strict` is no longer assigned on the instance, but the constructor takes it now; the class
    # lost its `colour` method, and its constructor never took a `colour`: the field documents a
    # parameter of the constructor, which is not there (no word of the lost method).
    strict = _line("   :param bool strict: whether to match strictly")
    assert [f for f in report.findings if f.line == strict] == []
    colour = [f for f in report.findings if f.line == _line("   :param str colour: the routes' colour")]
    assert [(f.status, f.evidence) for f in colour] == [
        ("contradicted", "Router.__init__ takes no parameter colour (it takes loop, strict: acme/router.py:1)")
    ]


def test_only_the_directives_own_fields_are_its_mentions() -> None:
    text = DOC.format(keyword="name")
    fields = [(text.count("\n", 0, m.offset) + 1, m.text) for m in rst_mentions(text) if m.role.startswith("field:")]
    assert (_line("   :param loop: an event loop"), "acme.router.Router") in fields
    assert (_line("      :param str path: route path"), "acme.router.Router.add_route") in fields
    assert (_line("      :param dict parts: the route's parts"), "acme.router.Router.reverse") in fields
    methods = _line("   .. method:: add_route(method, path, handler, *, {keyword}=None)")
    assert all(name != "acme.router.Router" for line, name in fields if line > methods)
