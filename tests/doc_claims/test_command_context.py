"""Whose flag a doc means: the program an inline command literal runs, and long flags in prompt-less blocks."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.finding import ClaimFinding

from ..conftest import GitRepo

PYPROJECT = '[project]\nname = "acme"\n\n[project.scripts]\nacme = "acme.cli:main"\n'

CLICK_CLI = """\
import click


@click.command()
@click.option("--host", default="127.0.0.1")
@click.option("--version", is_flag=True)
def main(host, version):
    run(host, version)
"""


def _flags(git_repo: GitRepo) -> dict[tuple[int, str], ClaimFinding]:
    head = git_repo.commit("acme")
    findings = check_repository(git_repo.root, commit=head, use_history=False).findings
    return {(f.line, f.ref): f for f in findings if f.kind == "flag"}


def test_a_prose_flag_after_an_inline_well_known_command_is_that_commands(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write(
        "docs/cost.md",
        "# Cost\n\n```console\n$ acme --host x\n```\n\n"
        "Dates equal `git blame --first-parent` everywhere; diffs cost the same with\n"  # 7
        "`--no-indent-heuristic` or histogram.\n"  # 8
        "Walking `git diff-tree -r` output is cheap, and `--no-renames` would change the dates.\n"  # 9
        "Back to our own program: `acme --host y` and its `--colour` flag.\n",  # 10
    )

    flags = _flags(git_repo)

    assert flags[(8, "--no-indent-heuristic")].status == "unverifiable", flags[(8, "--no-indent-heuristic")]
    assert "git" in flags[(8, "--no-indent-heuristic")].evidence
    assert flags[(9, "--no-renames")].status == "unverifiable"
    assert flags[(10, "--colour")].status == "contradicted"  # the repository's own program again


ACME_RST = """\
Running
=======

Print the version::

    acme --version

or run a server::

    acme --port 8000

A sample that is Python::

    total = price -discount
    acme -v
"""


def test_a_prompt_less_line_with_a_long_flag_is_a_command_though_it_parses_as_python(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("docs/running.rst", ACME_RST)

    flags = _flags(git_repo)

    assert flags[(6, "--version")].status == "verified", flags.get((6, "--version"))
    assert flags[(10, "--port")].status == "contradicted", flags.get((10, "--port"))
    assert not any(line in {14, 15} for line, _ in flags)  # one dash: a subtraction as often
