"""Claims found in reStructuredText (literals, Sphinx roles, directives) and AsciiDoc (monospace)."""

from __future__ import annotations

from sextant.doc_claims import extract_claims

RST = """\
Architecture
============

The entry point is :func:`sextant.cli.main`; :meth:`ChunkStore.upsert` writes points and
:class:`~sextant.doc_claims.CodeFacts` holds facts. See :py:func:`check_docs` too.
Set ``QDRANT_URL`` or :envvar:`NATS_URL`; pass :option:`sextant index --force`.
Read :file:`docs/setup.rst`, :doc:`usage` and `the guide <guide.rst>`_ but not
`Python <https://python.org>`_. Terms like :ref:`install-label` are labels.

.. code-block:: bash

   sextant analyze . --json

.. literalinclude:: ../examples/ci.yml

Interpreted `load_config()` text and ``true`` literals.
"""


def test_rst_roles_literals_directives_and_links() -> None:
    claims = [(c.line, c.kind, c.target) for c in extract_claims("docs/arch.rst", RST)]
    assert claims == [
        (4, "symbol", "sextant.cli.main"),
        (4, "symbol", "ChunkStore.upsert"),
        (5, "symbol", "sextant.doc_claims.CodeFacts"),
        (5, "symbol", "check_docs"),
        (6, "env", "QDRANT_URL"),
        (6, "env", "NATS_URL"),
        (6, "flag", "--force"),
        (7, "path", "docs/setup.rst"),
        (7, "path", "usage"),
        (7, "path", "guide.rst"),
        (12, "cli", "sextant analyze"),
        (12, "flag", "--json"),
        (14, "path", "../examples/ci.yml"),
        (16, "symbol", "load_config"),
    ]


def test_rst_role_with_title_keeps_the_target() -> None:
    claims = extract_claims("a.rst", "Use :func:`the loader <pkg.loader.load>`.\n")
    assert [(c.ref, c.target, c.explicit) for c in claims] == [
        ("the loader <pkg.loader.load>", "pkg.loader.load", True)
    ]


ADOC = """\
= Operations

Run `+sextant index+` after `check_docs` changes; `+NATS_URL+` and +render_findings_markdown+ matter.
See link:docs/ops.adoc[ops], xref:setup.adoc[Setup], <<design.adoc#,Design>> and
https://example.com/docs[`external_name`]. C++ and `true` are not claims.

include::partials/env.adoc[]

[source,bash]
----
sextant show acme --json
----

....
not a command block
....
"""


def test_adoc_monospace_passthrough_links_and_listing() -> None:
    claims = [(c.line, c.kind, c.target) for c in extract_claims("docs/ops.adoc", ADOC)]
    assert claims == [
        (3, "cli", "sextant index"),
        (3, "symbol", "check_docs"),
        (3, "env", "NATS_URL"),
        (3, "symbol", "render_findings_markdown"),
        (4, "path", "docs/ops.adoc"),
        (4, "path", "setup.adoc"),
        (4, "path", "design.adoc"),
        (7, "path", "partials/env.adoc"),
        (11, "cli", "sextant show"),
        (11, "flag", "--json"),
    ]


def test_a_qualified_name_stays_firm_when_a_sample_only_imports_its_last_part() -> None:
    text = (
        "Define the map::\n"
        "\n"
        "    import acme\n"
        "    from acme.routing import Map, RequestRedirect\n"
        '    acme.get_logger("acme")\n'
        "\n"
        "    def func():\n"
        "        pass\n"
        "\n"
        "Matching raises :exc:`~acme.errors.RequestRedirect`; :func:`acme.func` is the sample's.\n"
        "Levels are in ``acme.stdlib._NAME_TO_LEVEL``.\n"
    )
    claims = {c.target: c for c in extract_claims("docs/routing.rst", text)}
    assert claims["acme.errors.RequestRedirect"].explicit  # where the package keeps it: a firm claim
    assert claims["acme.stdlib._NAME_TO_LEVEL"].explicit  # importing the package makes it no sample's
    assert not claims["acme.func"].explicit  # the sample defines func itself


def test_a_locale_name_is_no_claim() -> None:
    text = "On a US machine, ``en_US.utf-8`` is the encoding of choice; try ``C.UTF-8`` or ``acme.utf-key``.\n"
    assert [c.target for c in extract_claims("docs/python3.rst", text)] == ["acme.utf-key"]


NESTED_ADMONITION = """\
.. class:: Router

   .. method:: add_static(prefix, path)

      Adds a static route.

      .. warning::

         Use :meth:`add_static` for development only.

      :param bool append_version: used when you call
                                  :meth:`StaticRoute.url` later.

      :returns: new :class:`StaticRoute` instance.

Text after the class: :func:`make_app`.
"""


def test_an_indented_admonition_does_not_swallow_the_rest_of_its_body_as_a_literal_block() -> None:
    claims = [(c.line, c.target) for c in extract_claims("docs/api.rst", NESTED_ADMONITION)]
    assert (9, "add_static") in claims
    assert (12, "StaticRoute.url") in claims
    assert (14, "StaticRoute") in claims
    assert (16, "make_app") in claims


def test_a_real_literal_block_under_an_indented_paragraph_is_still_code() -> None:
    doc = "Intro.\n\n   Example::\n\n      :func:`not_a_claim`\n\n   Back in prose: :func:`a_claim`.\n"
    targets = [c.target for c in extract_claims("docs/api.rst", doc)]
    assert "a_claim" in targets
    assert "not_a_claim" not in targets


ATTRIBUTES = """\
.. class:: Connector(limit=100)

   A connection pool.

   .. attribute:: cached_hosts

      The cache of resolved hosts.

.. attribute:: worker_pool

   The pool, when one is made.
"""


def test_an_attribute_directive_claims_its_member_on_the_enclosing_class_and_is_never_explicit() -> None:
    claims = {c.line: c for c in extract_claims("docs/api.rst", ATTRIBUTES)}
    assert (claims[5].target, claims[5].explicit) == ("Connector.cached_hosts", False)
    assert (claims[9].target, claims[9].explicit) == ("worker_pool", False)
