"""Claims of API directives that write the signature after the name (`.. autofunction:: f(a, [b])`)."""

from __future__ import annotations

from sextant.doc_claims import extract_claims

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
