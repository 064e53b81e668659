"""Claims of API directives: a signature after the name, a method under its class, lines continued with `\\`."""

from __future__ import annotations

from pathlib import Path

from sextant.doc_claims import check_repository, extract_claims

from ..conftest import GitRepo

REFERENCE = """\
pytest.fail
~~~~~~~~~~~

**Tutorial**: :ref:`skipping`

.. autofunction:: pytest.fail(reason, [pytrace=True, msg=None])

.. class:: pytest.fail.Exception

    The exception raised by :func:`pytest.fail`.

Marks
-----

.. py:function:: pytest.mark.xfail(condition=False, *, reason=None, raises=None, run=True)

.. automethod:: Parser.addoption(*opts, **attrs)
"""


def test_directive_with_a_signature_claims_its_name() -> None:
    claims = [(c.line, c.target, c.explicit) for c in extract_claims("doc/en/reference.rst", REFERENCE)]
    assert (6, "pytest.fail", True) in claims
    assert (15, "pytest.mark.xfail", True) in claims
    assert (17, "Parser.addoption", True) in claims


def test_directive_claim_keeps_the_signature_as_written() -> None:
    by_line = {c.line: c for c in extract_claims("doc/en/reference.rst", REFERENCE)}
    assert by_line[6].ref == "pytest.fail(reason, [pytrace=True, msg=None])"
    assert by_line[6].kind == "symbol"


def test_placeholder_name_before_a_signature_is_still_no_claim() -> None:
    text = ".. autofunction:: my_plugin.hook(config, [items])\n\n.. autoclass:: <name>(*args)\n"
    assert extract_claims("docs/api.rst", text) == []


ROUTER_DOC = """\
Router
======

.. class:: UrlDispatcher()

   The router of an application.

   .. method:: add_route(method, path, handler, *, name=None)

      Append a handler to the end of the route table.

   .. method:: add_static(prefix, path, *, name=None, expect_handler=None, \\
                          chunk_size=256*1024, \\
                          response_factory=StreamResponse, \\
                          show_index=False)

      Adds a router and a handler for returning static files.

.. function:: run_app(app, *, host=None, port=None)

   Run an application.

.. method:: Session.close()
"""


def test_method_directive_under_a_class_directive_claims_the_classs_method() -> None:
    found = extract_claims("docs/web_reference.rst", ROUTER_DOC)
    claims = [(c.line, c.target, c.explicit) for c in found if c.parameter is None]
    # Each slot of a hand-written signature is a claim of its parameter, on the line that writes it.
    slots = [(c.line, c.target, c.parameter) for c in found if c.parameter is not None and c.line >= 12]
    assert slots[:4] == [
        (12, "UrlDispatcher.add_static", "prefix"),
        (12, "UrlDispatcher.add_static", "path"),
        (12, "UrlDispatcher.add_static", "name"),
        (12, "UrlDispatcher.add_static", "expect_handler"),
    ]
    assert (14, "UrlDispatcher.add_static", "response_factory") in slots
    # Hand-written entries may document what the code builds at run time: their absence contradicts nothing.
    assert claims == [
        (4, "UrlDispatcher", False),
        (8, "UrlDispatcher.add_route", False),
        (12, "UrlDispatcher.add_static", False),
        (19, "run_app", False),
        (23, "Session.close", False),
    ]


ROUTER_BEFORE = """\
class UrlDispatcher:
    def add_route(self, method, path, handler, *, name=None):
        return path

    def add_static(self, prefix, path, *, name=None, expect_handler=None, chunk_size=256 * 1024,
                   response_factory=None, show_index=False):
        return prefix
"""
ROUTER_AFTER = """\
class UrlDispatcher:
    def add_route(self, method, path, handler, *, name=None):
        return path

    def add_static(self, prefix, path, *, name=None, expect_handler=None, chunk_size=256 * 1024,
                   show_index=False):
        return prefix
"""


def test_a_parameter_a_multi_line_method_directive_lists_and_the_method_lost_is_outdated(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/web.py", ROUTER_BEFORE + "\n\ndef run_app(app, *, host=None, port=None):\n    return app\n")
    repo.write("docs/web_reference.rst", ROUTER_DOC.replace(".. method:: Session.close()\n", ""))
    # A method an extension installs on the class at run time: the code defines no such method.
    repo.write("docs/i18n.rst", ".. method:: acme.web.UrlDispatcher.install_translations(translations)\n")
    repo.commit("Router and its reference", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/web.py", ROUTER_AFTER + "\n\ndef run_app(app, *, host=None, port=None):\n    return app\n")
    repo.commit("Drop unused response_factory from static files API", date="2024-05-06T10:00:00+00:00")
    findings = {f.ref.split("(", 1)[0]: f for f in check_repository(repo.root).findings}
    lost = findings["UrlDispatcher.add_static"]
    assert lost.status == "outdated"
    assert lost.changed is not None
    assert lost.changed.startswith("UrlDispatcher.add_static lost parameter response_factory on 2024-05-06, commit ")
    # The method that kept every parameter its directive lists is still verified.
    assert findings["UrlDispatcher.add_route"].status == "verified"
    assert findings["run_app"].status == "verified"
    assert findings["acme.web.UrlDispatcher.install_translations"].status == "unverifiable"
