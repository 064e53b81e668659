"""A maintainer script's past helper, and blog posts: no evidence against a doc."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

_FIXTURES_DOC = """Fixtures
========

.. code-block:: python

    class TestAdmin:
        @pytest.fixture
        def login(self, user):
            return user.login()

The ``login`` fixture is defined inside the class. Call :func:`acme.connect` first; :func:`acme.old_connect`
is the one the sample does not define.
"""


def test_a_name_only_a_maintainer_script_once_defined_is_not_contradicted(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", "def connect():\n    pass\n\n\ndef old_connect():\n    pass\n")
    git_repo.write("scripts/release.py", "def login(token):\n    pass\n")
    git_repo.write("docs/fixtures.rst", _FIXTURES_DOC)
    git_repo.commit("Start", date="2024-01-04T10:00:00+00:00")
    git_repo.write("scripts/release.py", "def main():\n    pass\n")
    git_repo.write("acme/__init__.py", "def connect():\n    pass\n")
    git_repo.commit("Fix the release script", date="2024-03-04T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    login = by_ref["login"]
    assert login.status == "unverifiable"  # before: contradicted, "removed by … 'Fix the release script'"
    assert by_ref["acme.old_connect"].status == "contradicted"  # the sample does not define it: still news


def test_a_blog_post_is_a_dated_announcement(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "def validate_call():\n    pass\n")
    git_repo.write(
        "docs/blog/acme-v2.md", "# Acme V2 plan\n\nWe should also add `validate_alias()` and drop `acme.old_api()`.\n"
    )
    git_repo.write("docs/index.md", "# Acme\n\nCall `validate_alias()` first.\n")
    git_repo.commit("Start", date="2024-01-04T10:00:00+00:00")

    findings = check_repository(git_repo.root).findings
    assert not [f for f in findings if f.doc == "docs/blog/acme-v2.md"]  # before: validate_alias contradicted
    assert [f.status for f in findings if f.doc == "docs/index.md" and f.ref.startswith("validate_alias")] == [
        "contradicted"
    ]
