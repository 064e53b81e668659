"""Flags of the scripts a doc runs, command lines in prompt-less reST literal blocks, and Go's one-dash names."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.finding import ClaimFinding

from ..conftest import GitRepo

PYPROJECT = '[project]\nname = "acme"\n\n[project.scripts]\nacme = "acme.cli:main"\n'

CLICK_CLI = """\
import click


@click.command()
@click.option("--host", default="127.0.0.1")
@click.option("--force", is_flag=True)
def main(host, force):
    run(host, force)
"""

BENCH_SCRIPT = '''\
"""Time a run: `python bench/index/time_run.py --repo PATH [--runs N]`."""
import argparse


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--runs", type=int, default=1)
    print(parser.parse_args())
'''

RELEASE_SH = """\
#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=1 ;;
  esac
  shift
done
git tag -a "v$VERSION" --sign
"""

GEN_TOOL = "import sys\n\nfrom options import build_parser\n\nbuild_parser().parse_args(sys.argv[1:])\n"
GEN_OPTIONS = """\
import argparse


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out")
    return parser
"""
BUILD_JS = "const watch = process.argv.includes('--watch');\nrequire('esbuild').build({ minify: true });\n"
FORMAT_SH = "#!/bin/sh -e\nautoflake --in-place --recursive acme tests\nblack acme tests\n"
DEMO = "from acme.cli import main\n\nmain()\n"


def _flags(git_repo: GitRepo) -> dict[tuple[int, str], ClaimFinding]:
    head = git_repo.commit("acme")
    findings = check_repository(git_repo.root, commit=head, use_history=False).findings
    return {(f.line, f.ref): f for f in findings if f.kind == "flag"}


def test_a_script_a_line_runs_is_held_to_its_own_options_whatever_its_folder(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("bench/index/time_run.py", BENCH_SCRIPT)
    git_repo.write("scripts/release.sh", RELEASE_SH)
    git_repo.write("tools/gen.py", GEN_TOOL)
    git_repo.write("tools/options.py", GEN_OPTIONS)
    git_repo.write("scripts/build.js", BUILD_JS)
    git_repo.write("scripts/format.sh", FORMAT_SH)
    git_repo.write("examples/demo.py", DEMO)
    git_repo.write(
        "README.md",
        "# Scripts\n\n```console\n"
        "$ python bench/index/time_run.py --repo . --runs 3\n"  # 4
        "$ uv run python bench/index/time_run.py --rounds 3\n"  # 5
        "$ ./scripts/release.sh --dry-run\n"  # 6
        "$ ./scripts/release.sh --push\n"  # 7
        "$ uv run python tools/gen.py --out x.json\n"  # 8
        "$ node scripts/build.js --watch\n"  # 9
        "$ bash scripts/format.sh --symlink\n"  # 10
        "$ python examples/demo.py --host x --color\n"  # 11
        "$ ./scripts/release.sh --force\n"  # 12
        "```\n\n"
        "The timing run:\n\n"
        "```console\n$ python bench/index/time_run.py --repo .\n```\n\n"  # 18
        "With `--runs` it repeats; `--no-history` skips the history.\n",  # 21
    )

    flags = _flags(git_repo)

    for line, flag in ((4, "--repo"), (4, "--runs"), (6, "--dry-run"), (8, "--out"), (9, "--watch"), (21, "--runs")):
        assert flags[(line, flag)].status == "verified", flags[(line, flag)]
    assert "declared in bench/index/time_run.py" in flags[(4, "--runs")].evidence
    assert "tools/options.py" in flags[(8, "--out")].evidence  # the module beside it that it imports
    # A script that reads its own command line and does not declare the flag: a real finding.
    assert flags[(5, "--rounds")].status == "contradicted", flags[(5, "--rounds")]
    assert "bench/index/time_run.py" in flags[(5, "--rounds")].evidence
    assert flags[(7, "--push")].status == "contradicted", flags[(7, "--push")]
    # A script that reads no option of its own (its flags are another program's), or hands its arguments
    # to the library, which declares the flag: not a finding.
    assert flags[(10, "--symlink")].status == "unverifiable", flags[(10, "--symlink")]
    assert flags[(11, "--color")].status == "unverifiable", flags[(11, "--color")]
    assert flags[(12, "--force")].status == "unverifiable", flags[(12, "--force")]
    assert flags[(21, "--no-history")].status == "contradicted"  # a prose flag is the script's run before it


def test_a_bare_file_name_run_by_an_interpreter_is_the_readers_script(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("README.md", "# Tutorial\n\n```console\n$ python main.py --name Camila\n```\n")

    assert not _flags(git_repo)


ACME_RST = """\
Running
=======

Point the command at your app::

    acme --app=hello run

or give it a host::

    acme --host 0.0.0.0 \\
        --force

A sample that is Python::

    acme = make_app()
    acme -flag
    print 'started'

A setting of an ini file::

    acme.options = -l 79

Another program's line::

    gunicorn -w 4 hello:app

Python's own module::

    python -m acme --debug
"""


def test_prompt_less_literal_block_lines_of_a_program_are_read_as_shell(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("docs/running.rst", ACME_RST)

    flags = _flags(git_repo)

    assert flags[(6, "--app")].status == "contradicted", flags.get((6, "--app"))
    assert flags[(10, "--host")].status == "verified"
    assert flags[(10, "--force")].status == "verified"  # a continued line is one command
    assert not any(line in {15, 16, 17} for line, _ in flags)  # Python in a literal block is never shell
    assert not any(line == 21 for line, _ in flags)  # nor is a setting
    assert flags[(25, "-w")].status == "unverifiable"  # another program's flag
    assert flags[(29, "--debug")].status == "contradicted"


GO_MAIN = """\
package main

import (
	"flag"
	"fmt"
	"os"
)

var deadline = flag.Duration("deadline", 0, "give up after this long")
var trace = flag.Bool("t", false, "trace every step")

func usage() {
	fmt.Fprintln(os.Stderr, "usage: tool [-t] [-deadline d] file")
}
"""


def test_a_go_programs_one_dash_flag_is_a_whole_name_not_a_short_option_with_a_value(git_repo: GitRepo) -> None:
    git_repo.write("go.mod", "module example.com/tool\n\ngo 1.21\n")
    git_repo.write("cmd/tool/main.go", GO_MAIN)
    git_repo.write("README.md", "# Use\n\n```console\n$ tool -timeout 5s in.txt\n$ tool -deadline 5s -t in.txt\n```\n")

    flags = _flags(git_repo)

    # `-timeout` is Go's `timeout`, which the program does not declare: not `-t` with the value `imeout`.
    assert flags[(4, "-timeout")].status == "contradicted", flags[(4, "-timeout")]
    assert flags[(5, "-deadline")].status == "verified"
    assert flags[(5, "-t")].status == "verified"


TOOL_MODULE = """\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--limit", type=int)

if __name__ == "__main__":
    print(parser.parse_args())
"""


def test_a_module_run_with_dash_m_is_held_to_its_own_options(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("acme/tool.py", TOOL_MODULE)
    git_repo.write(
        "README.md",
        "# Run\n\n```console\n$ python -m acme.tool --limit 3 --app x\n$ python -m acme --host x --app y\n```\n",
    )

    flags = _flags(git_repo)

    assert flags[(4, "--limit")].status == "verified"
    assert flags[(4, "--app")].status == "contradicted"
    assert "acme/tool.py" in flags[(4, "--app")].evidence
    assert flags[(5, "--host")].status == "verified"  # the package itself runs the `acme` program
    assert "acme/cli.py" in flags[(5, "--host")].evidence


SHARED_OPTIONS_RUN = """\
import argparse

from bench.common import add_corpus_options
from .shared import add_output_options


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=1)
    add_corpus_options(parser)
    add_output_options(parser)
    print(parser.parse_args())
"""


def test_a_scripts_options_from_a_module_it_imports_by_package_or_relatively_are_its_own(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("bench/__init__.py", "")
    git_repo.write("bench/common.py", 'def add_corpus_options(parser):\n    parser.add_argument("--corpus")\n')
    git_repo.write("bench/runs/__init__.py", "")
    git_repo.write("bench/runs/shared.py", 'def add_output_options(parser):\n    parser.add_argument("--out")\n')
    git_repo.write("bench/runs/run.py", SHARED_OPTIONS_RUN)
    git_repo.write(
        "README.md", "# Bench\n\n```console\n$ python bench/runs/run.py --rounds 3 --corpus x --out f --rouns 2\n```\n"
    )

    flags = _flags(git_repo)

    assert flags[(4, "--corpus")].status == "verified", flags[(4, "--corpus")]
    assert "bench/common.py" in flags[(4, "--corpus")].evidence
    assert flags[(4, "--out")].status == "verified", flags[(4, "--out")]
    assert flags[(4, "--rouns")].status == "contradicted"  # still held to what they all declare
