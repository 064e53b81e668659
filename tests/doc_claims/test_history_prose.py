"""History told in prose: pages, sections, lists and sentences that say they describe the past.

Each rule comes with the claim it must keep: a page about today stays checked, a sentence that
announces a removal still to come stays a finding when the code already removed the name.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository, extract_claims
from sextant.doc_claims.claims.history_pages import title_tells_history
from sextant.doc_claims.claims.sentences import tells_history

from ..conftest import GitRepo

REFACTOR_NOTES_RST = """\
=============================
 "The Big Instance" Refactor
=============================

The `app` branch is a work-in-progress to remove the use of a global configuration.

Aliases (Pending deprecation)
=============================

* ``acme.messaging``
    * ``.establish_connection`` -> {``app.broker_connection``}
    * ``.TaskPublisher`` -> {``app.amqp.TaskPublisher``}

App Dependency Tree
-------------------

* ``acme.worker.WorkerController``
    * ``acme.worker.control.ControlDispatch``
"""

COMPARISON_RST = """\
:orphan:

.. _`compare`:

acme-2.3: reasoning for fixture evolution
=========================================

Shortcomings of the previous ``acme_factory__`` mechanism
----------------------------------------------------------

Moreover, you need to modify the factory to use an ``extrakey`` parameter to the
``Request.cached_setup`` call.

Direct scoping of fixtures
--------------------------

Use :func:`acme.fixture_scope` to give a fixture its scope.
"""


def _history(doc: str, text: str) -> dict[str, bool]:
    return {claim.target: claim.in_history_sentence for claim in extract_claims(doc, text)}


def test_a_page_titled_as_the_notes_of_a_refactor_is_history_as_a_whole() -> None:
    history = _history("docs/internals/app-overview.rst", REFACTOR_NOTES_RST)
    assert history["app.amqp.TaskPublisher"] is True  # under "Pending deprecation", yet the page is history
    assert history["acme.worker.control.ControlDispatch"] is True
    assert all(history.values())


def test_a_page_about_today_keeps_its_pending_deprecation_section_checked() -> None:
    text = REFACTOR_NOTES_RST.replace('"The Big Instance" Refactor', "   The application object  ")
    history = _history("docs/internals/app.rst", text)
    assert history["app.amqp.TaskPublisher"] is False
    assert history["acme.worker.control.ControlDispatch"] is False


def test_titles_that_date_a_page_or_name_a_change_tell_history_and_others_do_not() -> None:
    assert title_tells_history("Router refactoring in 0.21")
    assert title_tells_history("pytest-2.3: reasoning for fixture/funcarg evolution")
    assert title_tells_history('April 2015 is "adopt acme month"')
    assert title_tells_history("What's new in acme 3.0")
    assert title_tells_history("Upgrading from 1.x")
    assert not title_tells_history("Refactorings")  # a refactoring tool's feature list
    assert not title_tells_history("Rationale for the settings API")  # today's design explained
    assert not title_tells_history("Schema evolution")
    assert not title_tells_history("Python 2015 support")
    assert not title_tells_history("Fixtures")


def test_a_section_about_the_previous_mechanism_is_history_up_to_the_next_section() -> None:
    title = "acme-2.3: reasoning for fixture evolution"
    text = COMPARISON_RST.replace(title, "Fixtures in acme".ljust(len(title)))
    history = _history("doc/en/funcarg_compare.rst", text)
    assert history["extrakey"] is True
    assert history["Request.cached_setup"] is True
    assert history["acme.fixture_scope"] is False


def test_a_section_about_a_project_before_a_release_is_history() -> None:
    text = (
        "Extensions\n==========\n\nUse :func:`acme.ext.setup_current`.\n\n"
        "Acme Before 0.8\n---------------\n\nImport :mod:`acme.ext.oldstyle` instead.\n\n"
        "Writing one\n-----------\n\nSubclass :class:`acme.ext.Extension`.\n"
    )
    history = _history("docs/extensions.rst", text)
    assert history == {"acme.ext.setup_current": False, "acme.ext.oldstyle": True, "acme.ext.Extension": False}


def test_a_list_that_a_history_sentence_introduces_is_history_item_by_item() -> None:
    text = (
        "Conclusion\n----------\n\n"
        "**factories** were introduced in acme-2.0.  In acme-2.3 the mechanism was extended and is\n"
        "now described as fixtures:\n\n"
        "* factories received a ``request`` object which managed caching through\n"
        "  ``request.cached_setup()`` calls.\n\n"
        "* ``request.getfuncargvalue()`` will be removed in 3.0.\n\n"
        "Fixtures are requested by name:\n\n"
        "* ``request.getfixturevalue()`` looks one up.\n\n"
        "See ``request.addfinalizer()``.\n"
    )
    history = _history("doc/en/compare.rst", text)
    assert history["request.cached_setup"] is True
    assert history["request.getfuncargvalue"] is False  # its own item announces the removal
    assert history["request.getfixturevalue"] is False  # introduced by a sentence about today
    assert history["request.addfinalizer"] is False  # after the list


def test_a_rest_literal_block_is_no_list_lead_in() -> None:
    text = "In 2.0 the hooks changed, for example::\n\n    * not a list\n\n* ``acme.current_hook`` runs first.\n"
    assert _history("docs/hooks.rst", text)["acme.current_hook"] is False


def test_sentences_that_tell_history_in_other_words() -> None:
    assert tells_history("The pre acme-2.3 mechanism calls a factory each time a fixture is needed.")
    assert tells_history("This factory does not need to call ``cached_setup()`` anymore because it runs once.")
    assert tells_history(":class:`RecordedWarning` was changed from a plain class to a namedtuple in acme 3.1")
    assert tells_history("In Acme 4.0 the `old_api` helper went away.")
    assert not tells_history("Note that since Acme 1.1 the context is a subclass of the `BaseContext`.")
    assert not tells_history("*new in Acme 1.1* additionally to the `stringfilter` decorator there is one more.")
    assert not tells_history("In Acme 1.1 and later, call `acme.fast_path`.")
    assert not tells_history("In Python 3.8 and later, use `acme.fast_path`.")
    assert not tells_history("See section 4.1 for `acme.fast_path`.")
    assert not tells_history("If there are not any more tasks, `acme.stop` is called.")
    assert not tells_history("If the file was changed, call `acme.reload`.")
    assert not tells_history("In acme-2.3 `acme.old_call` is pending deprecation.")


def test_on_a_real_repository_a_refactor_page_is_quiet_and_a_pending_deprecation_elsewhere_is_a_finding(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/amqp.py", "class TaskPublisher:\n    pass\n\n\nclass TaskConsumer:\n    pass\n")
    git_repo.write("docs/internals/app-overview.rst", REFACTOR_NOTES_RST.replace("app.amqp", "acme.amqp"))
    git_repo.write(
        "docs/userguide/calling.rst",
        "Calling\n=======\n\n:class:`acme.amqp.TaskPublisher` is pending deprecation; use\n"
        ":class:`acme.amqp.TaskConsumer`.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    git_repo.write("acme/amqp.py", "class TaskConsumer:\n    pass\n")
    git_repo.commit("Remove TaskPublisher", date="2019-02-01T10:00:00+00:00")

    findings = [f for f in check_repository(git_repo.root).findings if f.ref.endswith("TaskPublisher")]
    by_doc = {f.doc: f.status for f in findings}
    assert by_doc["docs/userguide/calling.rst"] == "contradicted"
    assert by_doc["docs/internals/app-overview.rst"] != "contradicted"


WORKER_RST = """\
Worker
======

.. attribute:: reloader

    :class:`~acme.worker.autoreload.Autoreloader` used to automatically
    reload code when a file changes.

    It used to take a list of modules.

.. attribute:: consumer

    :class:`~acme.worker.consumer.Consumer` used to be the consumer step.

The old :func:`acme.connect` used to retry three times.
"""


def test_a_name_opening_its_api_directive_s_body_used_to_do_something_describes_it(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/worker/__init__.py", '"""The worker."""\n')
    git_repo.write("acme/worker/autoreload.py", "class Autoreloader:\n    pass\n")
    git_repo.write("acme/worker/consumer.py", "class Consumer:\n    pass\n")
    git_repo.write("acme/net.py", "def connect():\n    pass\n")
    git_repo.write("docs/worker.rst", WORKER_RST)
    git_repo.commit("Worker", date="2019-01-01T10:00:00+00:00")
    for path in ("acme/worker/autoreload.py", "acme/worker/consumer.py", "acme/net.py"):
        git_repo.remove(path)
    git_repo.commit("Remove the autoreloader, the consumer and connect", date="2019-02-01T10:00:00+00:00")

    found = {f.ref: f for f in check_repository(git_repo.root).findings}

    # "X used to reload code" under `.. attribute::` says what X is for: the removed class is news.
    reloader = found["~acme.worker.autoreload.Autoreloader"]
    assert reloader.status == "contradicted", reloader.evidence
    assert reloader.removed_by is not None
    # A state the thing no longer has ("used to be"), and prose outside a directive, stay history.
    assert found["~acme.worker.consumer.Consumer"].status == "unverifiable"
    assert found["acme.connect"].status == "unverifiable"
    assert tells_history("`connect` used to retry three times.")
    assert not tells_history("`Autoreloader` used to reload code.", describing=True)
    assert tells_history("It used to take a list of modules.", describing=True)


UPGRADE_RST = """\
New settings
============

Version 4.0 introduced new lower case settings.

.. note::

    Acme will still be able to read old configuration files.

=====================================  ==============================================
**Setting name**                       **Replace with**
=====================================  ==============================================
``ACME_COLUMN_FAMILY``                 ``acme_table``
``ACME_LOADER``                        :func:`acme.legacy_loader`
=====================================  ==============================================
"""
UPGRADE_MD = """\
# Settings

| Old name | New name |
|---|---|
| `ACME_COLUMN_FAMILY` | `acme.legacy_loader` |
"""


def test_the_old_name_column_of_a_rename_table_is_history_and_the_replacement_column_a_claim(
    git_repo: GitRepo,
) -> None:
    old_init = '"""Acme."""\n\nACME_COLUMN_FAMILY = "tasks"\n\n\ndef legacy_loader():\n    pass\n'
    git_repo.write("acme/__init__.py", old_init)
    git_repo.write("docs/configuration.rst", UPGRADE_RST)
    git_repo.write("docs/settings.md", UPGRADE_MD)
    lead_in = UPGRADE_RST.replace(".. note::\n\n    Acme will", "Acme will")  # the table's own lead-in
    git_repo.write("docs/old-names.rst", lead_in)
    git_repo.commit("Settings", date="2019-01-01T10:00:00+00:00")
    git_repo.write("acme/__init__.py", '"""Acme."""\n\nTABLE = "tasks"\n')
    git_repo.commit("Lower-case settings; drop the legacy loader", date="2019-02-01T10:00:00+00:00")

    by_doc = {(f.doc, f.ref): f for f in check_repository(git_repo.root).findings}

    for doc in ("docs/configuration.rst", "docs/settings.md"):
        old = by_doc[(doc, "ACME_COLUMN_FAMILY")]
        assert old.status == "unverifiable", (doc, old.evidence)  # the table says it is the old name
        assert "tells history" in old.evidence
        assert by_doc[(doc, "acme.legacy_loader")].status == "contradicted"  # what to write instead: ours today
    # A paragraph leading into the table that says the old names are still read makes them claims.
    assert by_doc[("docs/old-names.rst", "ACME_COLUMN_FAMILY")].status == "contradicted"


def test_a_major_release_written_with_its_project_tells_history() -> None:
    assert tells_history("Serialisation can be customised in Pydantic V1 using the `json_encoders` config property.")
    assert tells_history("This behavior can be achieved in Pydantic v1 via `allow_mutation = False`.")
    assert not tells_history("Use the V2 API for new code.")  # no project's release named
    assert not tells_history("Configure it in Python 3 with `json_encoders`.")  # the reader's runtime
