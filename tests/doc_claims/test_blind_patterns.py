"""False-alarm patterns common to many projects' docs, each with the claims it must still keep.

Sections and files that tell history, and Sphinx role targets written in a project's own shorthand.
"""

from __future__ import annotations

from sextant.doc_claims import extract_claims, is_history_doc

DEPRECATIONS_RST = """\
Deprecations and Removals
=========================

Deprecated Features
-------------------

``pytest.warns(None)``
~~~~~~~~~~~~~~~~~~~~~~

Calling :func:`pytest.warns_none` is deprecated; use :func:`pytest.warns` instead.

Removed Features and Breaking Changes
-------------------------------------

``yield`` tests
~~~~~~~~~~~~~~~

Use :func:`pytest.yield_fixture_helper` to write a generator test.

Another top section
===================

Call :func:`pytest.after_removals`.
"""

DEPRECATION_MD = """\
# Deprecation time-line

## Removals in 2.0

The `Pool.acquire_old` method takes a timeout.

### Settings

Set `OLD_BROKER_HOST` to the broker's host.

## Current API

Call `Pool.acquire_now`.
"""


def _history(doc: str, text: str) -> dict[str, bool]:
    return {claim.target: claim.in_history_sentence for claim in extract_claims(doc, text)}


def test_claims_under_a_removed_heading_are_history_but_deprecated_ones_are_not() -> None:
    history = _history("doc/en/deprecations.rst", DEPRECATIONS_RST)
    assert history["pytest.yield_fixture_helper"] is True
    assert history["pytest.warns_none"] is False
    assert history["pytest.after_removals"] is False


def test_markdown_removal_sections_end_at_the_next_heading_of_their_level() -> None:
    history = _history("docs/deprecation.md", DEPRECATION_MD)
    assert history["Pool.acquire_old"] is True
    assert history["OLD_BROKER_HOST"] is True
    assert history["Pool.acquire_now"] is False


def test_historical_notes_and_proposals_are_history_docs() -> None:
    assert is_history_doc("doc/en/historical-notes.rst")
    assert is_history_doc("doc/en/proposals/parametrize_with_fixtures.rst")
    assert is_history_doc("docs/history/whatsnew-3.0.rst")
    assert not is_history_doc("doc/en/deprecations.rst")
    assert not is_history_doc("docs/historian.md")


def test_role_targets_in_a_project_shorthand_are_not_claimed() -> None:
    text = (
        "The :class:`@AsyncResult` of :meth:`~@send_task` and :meth:`@control.inspect.active`, "
        "beside :class:`~celery.result.AsyncResult` and :meth:`.Celery.send_task`.\n"
    )
    targets = {claim.target for claim in extract_claims("docs/faq.rst", text)}
    assert targets == {"celery.result.AsyncResult", "Celery.send_task"}


def test_a_heading_that_names_a_current_feature_after_history_is_not_history() -> None:
    text = (
        "History Simplification\n~~~~~~~~~~~~~~~~~~~~~~\n\nSee :func:`acme.simplify`.\n\n"
        "History\n=======\n\nSee :func:`acme.old_simplify`.\n"
    )
    history = _history("docs/log.rst", text)
    assert history == {"acme.simplify": False, "acme.old_simplify": True}


def test_a_role_that_marks_a_value_claims_no_name() -> None:
    text = (
        "Set :setting:`task_time_limit` to :const:`-1`, :const:`0` or :data:`None`; with\n"
        ":const:`ignore_result=False` the result is kept. See :const:`celery.states.READY_STATES`.\n"
    )
    targets = {claim.target for claim in extract_claims("docs/userguide/tasks.rst", text)}
    assert targets.isdisjoint({"-1", "0", "None", "ignore_result=False", "ignore_result"})
    assert "celery.states.READY_STATES" in targets
