"""A qualified name's package part must be a package of this repository at the state checked.

`jinja2.Environment.parse`, written while the code moved from `src/jinja2/` to `src/jinja/`, names a
package that is gone: that the class `Environment` still has `parse` does not make the qualifier
right. With no folder, module, symbol or binding by the package part, the name is no longer looked up
through the class after it; the history decides (the commit that removed the package), and a root
that was never ours stays unverifiable. Each test builds a real git repository.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo

ENVIRONMENT_PY = '''\
class Environment:
    """The core of the template engine."""

    def parse(self, source):
        """Parse the source and return the abstract syntax tree."""
        return source
'''
INIT_PY = "from .environment import Environment\n"
EXTENSIONS_RST = """\
Extensions
==========

An extension's ``parse`` is handed the parser; see :meth:`jinja2.Environment.parse` for the tree it
returns. The werkzeug side is :meth:`werkzeug.Environment.parse`.
"""


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}


def test_a_class_member_under_a_renamed_package_is_contradicted_with_the_commit_that_renamed_it(
    git_repo: GitRepo,
) -> None:
    git_repo.commit_files(
        "Add the environment",
        {
            "src/jinja2/__init__.py": INIT_PY,
            "src/jinja2/environment.py": ENVIRONMENT_PY,
            "docs/extensions.rst": EXTENSIONS_RST,
        },
        date="2020-01-04T10:00:00+00:00",
    )
    git_repo.move("src/jinja2", "src/jinja")
    renaming = git_repo.commit("rename directory to jinja", date="2020-01-10T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    parse = found["jinja2.Environment.parse"]
    assert parse.status == "contradicted", parse.evidence
    assert parse.removed_by is not None, parse
    assert renaming.startswith(parse.removed_by[:7]), parse
    # A package this repository never had is another library's: not ours to contradict.
    assert found["werkzeug.Environment.parse"].status == "unverifiable", found["werkzeug.Environment.parse"].evidence


ALIASED_INIT_PY = "import sys\n\nfrom . import environment as jinja2\n"


def test_a_package_part_the_repository_has_or_binds_still_reaches_the_class(git_repo: GitRepo) -> None:
    docs = EXTENSIONS_RST.replace("werkzeug.Environment.parse", "acme.Environment.parse")
    git_repo.commit_files(
        "Add the environment",
        {
            "src/acme/__init__.py": ALIASED_INIT_PY,  # binds jinja2: an alias the code declares
            "src/acme/environment.py": ENVIRONMENT_PY,
            "docs/extensions.rst": docs,
        },
    )

    found = findings_by_ref(git_repo)

    assert found["acme.Environment.parse"].status == "verified", found["acme.Environment.parse"].evidence
    assert found["jinja2.Environment.parse"].status == "verified", found["jinja2.Environment.parse"].evidence
