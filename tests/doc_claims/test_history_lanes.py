"""The history step's two halves in one check: names the head lacks and definitions that changed.

They run side by side (each waits on its own git processes) and revise disjoint claims: a name the
head lacks is judged by the look-up, a definition the head verifies by the comparison with its state
at the doc line. One repository holds both kinds, and each comes out as it would alone.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

BEFORE = """\
class Console:
    def __init__(self, styles=None, width=80):
        self.styles = styles


def zz_render_legacy(text):
    return text
"""
AFTER = """\
class Console:
    def __init__(self, theme=None, width=80):
        self.theme = theme


def render(text):
    return text
"""
DOC = """\
Console
=======

Build a :class:`~acme.console.Console` with your styles::

    console = Console(styles={"info": "dim cyan"})

Render text with :func:`~acme.console.zz_render_legacy`.
"""


def test_a_removed_name_and_a_changed_definition_are_both_judged_in_one_check(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/console.py", BEFORE)
    git_repo.write("docs/console.rst", DOC)
    git_repo.commit("Console and docs", date="2024-01-02T10:00:00+00:00")
    git_repo.write("acme/console.py", AFTER)
    change = git_repo.commit(
        "Themes replace styles; render replaces zz_render_legacy", date="2024-03-05T09:00:00+00:00"
    )

    report = check_repository(git_repo.root)

    by_ref = {finding.ref: finding for finding in report.findings if finding.doc == "docs/console.rst"}
    outdated = by_ref["~acme.console.Console"]
    assert outdated.status == "outdated"
    assert outdated.changed is not None
    assert outdated.changed.startswith("Console.__init__ lost parameter styles on 2024-03-05, commit ")
    removed = by_ref["~acme.console.zz_render_legacy"]
    assert removed.status == "contradicted"
    assert change[:7] in (removed.evidence or "")
