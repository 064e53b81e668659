"""A flag of the repository's own program is defined by an option declaration of its library code."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.finding import ClaimFinding

from ..conftest import GitRepo

PYPROJECT = '[project]\nname = "acme"\n\n[project.scripts]\nacme = "acme.cli:main"\n'

CLICK_CLI = """\
import click


@click.command()
@click.option("--host", "-h", default="127.0.0.1")
@click.option("--reload/--no-reload", default=None)
def main(host, reload):
    run(host, reload)
"""

APP = """\
class App:
    def __init__(self, app=None, debug=False):
        self.debug = debug
"""


def _flags(git_repo: GitRepo, doc: str) -> dict[tuple[int, str], ClaimFinding]:
    head = git_repo.commit("acme")
    findings = check_repository(git_repo.root, commit=head, use_history=False).findings
    return {(f.line, f.ref): f for f in findings if f.kind == "flag"}


def test_a_flag_is_defined_by_an_option_declaration_not_by_its_text_elsewhere(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    git_repo.write("acme/app.py", APP)
    git_repo.write("Makefile", "test:\n\tpytest -a tests\n")  # another program's short flag
    git_repo.write("docs/conf_ext.py", "def setup(app):\n    return app\n")
    git_repo.write("tests/fixtures/exit.py", "import subprocess\nsubprocess.run(['acme', '--no-exit'])\n")
    doc = (
        "# Running\n\n"
        "```console\n"
        "$ acme --app hello\n"
        "$ acme -a hello\n"
        "$ acme --debug\n"
        "$ acme --no-exit\n"
        "$ acme --host 0.0.0.0 -h x --reload\n"
        "$ acme --no-reload\n"
        "```\n"
    )
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    for line, flag in ((4, "--app"), (5, "-a"), (6, "--debug"), (7, "--no-exit")):
        assert flags[(line, flag)].status == "contradicted", flags[(line, flag)]
    assert "Makefile:2, which declares no option" in flags[(5, "-a")].evidence
    assert "tests/fixtures/exit.py" in flags[(7, "--no-exit")].evidence
    for flag in ("--host", "-h", "--reload"):
        assert flags[(8, flag)].status == "verified"
        assert "acme/cli.py" in flags[(8, flag)].evidence
    assert flags[(9, "--no-reload")].status == "verified"


TYPER_CLI = """\
import typer

app = typer.Typer(name="acme")


@app.command()
def main(
    name: str = typer.Argument("World", help="who, --to greet"),
    force: bool = False,
    dry_run: bool = False,
):
    print(name)
"""


def test_typer_parameters_are_options_and_other_functions_parameters_are_not(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", TYPER_CLI)
    git_repo.write("acme/colours.py", "def paint(colour: str) -> str:\n    return colour\n")
    doc = "# Use\n\n```console\n$ acme --force --dry-run\n$ acme --no-force\n$ acme --colour red\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--force")].status == "verified"
    assert "option force declared in acme/cli.py" in flags[(4, "--force")].evidence
    assert flags[(4, "--dry-run")].status == "verified"
    assert flags[(5, "--no-force")].status == "verified"
    assert flags[(6, "--colour")].status == "contradicted"  # a parameter of a plain function


YARGS_CLI = """\
exports.builder = yargs =>
  yargs.options({
    'check-leaks': {
      description: 'Check for global variable leaks'
    },
    exit: {
      description: 'Force Mocha to quit',
      alias: ['x']
    }
  });
"""

GO_MAIN = """\
package main

var flags = []cli.Flag{
	&cli.StringFlag{Name: "config", Aliases: []string{"c"}},
}
"""


def test_yargs_keys_and_go_flag_names_declare_flags(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "lib/cli.js"}}\n')
    git_repo.write("lib/cli.js", YARGS_CLI)
    git_repo.write("cmd/acme/main.go", GO_MAIN)
    git_repo.write("lib/aliases.js", "module.exports = {\n  'reporter-option': ['reporter-options', 'O'],\n};\n")
    doc = (
        "# Use\n\n```console\n$ acme --check-leaks --no-exit -x --bail\n$ acme --config a.yml -c b.yml\n"
        "$ acme --reporter-options a=b\n```\n"
    )
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    for flag in ("--check-leaks", "--no-exit", "-x"):
        assert flags[(4, flag)].status == "verified", flags[(4, flag)]
    assert flags[(4, "--bail")].status == "contradicted"
    assert flags[(5, "--config")].status == "verified"
    assert flags[(5, "-c")].status == "verified"
    assert flags[(6, "--reporter-options")].status == "verified"  # an alias table's entry


def test_an_unread_executable_or_a_framework_flag_is_no_contradiction(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "bin/acme"}}\n')
    git_repo.write("bin/acme", "#!/usr/bin/env node\nprogram.option('--grep <pattern>')\n")  # read: a shebang
    git_repo.write("bin/_acme", "require('../lib/run')(program.option('--bail'))\n")  # no shebang: not read
    git_repo.write("lib/index.js", "module.exports = {};\n")
    doc = "# Use\n\n```console\n$ acme --bail\n$ acme --help\n$ acme --grep x\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--bail")].status == "unverifiable"
    assert "bin/_acme, which the index does not read" in flags[(4, "--bail")].evidence
    assert flags[(5, "--help")].status == "unverifiable"
    assert flags[(6, "--grep")].status == "verified"


def test_a_flag_the_docs_own_sample_declares_is_no_contradiction(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    doc = (
        "# Plug-ins\n\n"
        "```python\n"
        "@click.option('--config')\n"
        "def cli(config):\n"
        "    pass\n"
        "```\n\n"
        "```console\n"
        "$ acme --config x.yml\n"
        "$ acme --verbose\n"
        "```\n"
    )
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(10, "--config")].status == "unverifiable"
    assert flags[(11, "--verbose")].status == "contradicted"


def test_python_dash_m_runs_the_modules_program(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    doc = "# Run\n\n```console\n$ python -m acme -a hello --host x\n$ python -m http.server 8000\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "-a")].status == "contradicted"
    assert flags[(4, "--host")].status == "verified"
    assert not any(line == 5 for line, _ in flags)  # the standard library's module is not ours


def test_a_flag_after_a_word_the_code_declares_no_command_by_is_no_contradiction(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI + '\n\n@main.command("serve")\ndef serve_command():\n    pass\n')
    git_repo.write("acme/events.py", "# see github.com/other/flower/issues/648\n")
    doc = "# Run\n\n```console\n$ acme -A proj flower --port=5555\n$ acme -A proj serve --port=5555\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--port")].status == "unverifiable"  # a plug-in's subcommand, named in a comment only
    assert "it follows flower" in flags[(4, "--port")].evidence
    assert flags[(5, "--port")].status == "contradicted"


def test_a_word_with_underscores_before_a_flag_is_a_subcommand_too(git_repo: GitRepo) -> None:
    # `control revoke_by_stamped_header --terminate`: a remote command's name (here misspelt: the code
    # has revoke_by_stamped_headers) decides whose flag it is, so an undeclared flag after it is unknown.
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI + '\n\n@main.command("control")\ndef control_command():\n    pass\n')
    git_repo.write("acme/remote.py", "def revoke_by_stamped_headers(state, headers, terminate=False):\n    pass\n")
    doc = (
        "# Revoke\n\n```console\n"
        "$ acme control revoke_by_stamped_header stamp=1 --terminate\n$ acme control --terminate\n```\n"
    )
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--terminate")].status == "unverifiable"
    assert "it follows revoke_by_stamped_header" in flags[(4, "--terminate")].evidence
    assert flags[(5, "--terminate")].status == "contradicted"


def test_a_sphinx_option_target_names_its_program_and_a_negation_needs_its_own_declaration(
    git_repo: GitRepo,
) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    cli = 'import argparse\nparser = argparse.ArgumentParser(prog="acme")\nparser.add_argument("--exit")\n'
    git_repo.write("acme/cli.py", cli)
    doc = (
        "Run:\n\n.. code-block:: console\n\n    $ acme -A proj\n\n"
        "Change it with :option:`--port <flower --port>`, or stop with :option:`--no-exit <acme --no-exit>`.\n"
    )
    git_repo.write("docs/run.rst", doc)

    flags = _flags(git_repo, doc)

    assert flags[(7, "--port")].status == "unverifiable"  # Flower's option, not acme's
    assert flags[(7, "--no-exit")].status == "contradicted"  # argparse makes no --no-exit of --exit


def test_a_task_takes_its_flags_from_its_functions_parameters(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", "def index(c, force=False):\n    pass\n\n\ndef deploy(c, host=None):\n    pass\n")
    doc = "# Tasks\n\n```console\n$ acme index --force\n$ acme deploy --force\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--force")].status == "verified"
    assert "acme/cli.py:1" in flags[(4, "--force")].evidence
    assert flags[(5, "--force")].status == "contradicted"  # deploy takes no force


def test_a_prose_flag_after_a_well_known_tools_line_is_that_tools(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI)
    doc = (
        "# Docker\n\n```console\n$ acme --host x\n```\n\n```console\n$ docker-compose run --rm acme\n```\n\n"
        "The `--rm` flag removes the container. The `--verbose` flag of `acme` talks.\n"
    )
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(11, "--rm")].status == "unverifiable"
    assert flags[(11, "--verbose")].status == "contradicted"


def test_a_flag_whose_several_word_name_the_code_has_is_not_called_absent(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("acme/cli.py", CLICK_CLI + '\n\ndef setup(parser):\n    parser.addini("hang_timeout", "help")\n')
    doc = "# Hangs\n\n```console\n$ acme --hang-timeout 3\n$ acme --hang-limit 3\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    assert flags[(4, "--hang-timeout")].status == "unverifiable"
    assert "hang_timeout appears in acme/cli.py" in flags[(4, "--hang-timeout")].evidence
    assert flags[(5, "--hang-limit")].status == "contradicted"


def test_option_names_listed_one_per_line_under_their_type_declare_flags(git_repo: GitRepo) -> None:
    # mocha 12 groups its run options by type, one name per line (lib/cli/run-option-metadata.cjs)
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "bin/acme.js"}}\n')
    git_repo.write("bin/acme.js", "require('../lib/cli').main();\n")
    git_repo.write(
        "lib/cli/run-option-metadata.cjs",
        'const types = {\n  array: [\n    "extension",\n    "watch-files",\n  ],\n'
        '  boolean: [\n    "exit",\n    "recursive",\n  ],\n  number: ["retries", "jobs"],\n};\n'
        "const helpers = [\n  frob(),\n];\nmodule.exports = { types, helpers };\n",
    )
    doc = "# Use\n\n```console\n$ acme --extension ts --watch-files a --exit --recursive --jobs 2 --bail\n```\n"
    git_repo.write("README.md", doc)

    flags = _flags(git_repo, doc)

    for flag in ("--extension", "--watch-files", "--exit", "--recursive", "--jobs"):
        assert flags[(4, flag)].status == "verified", flags[(4, flag)]
    assert flags[(4, "--bail")].status == "contradicted"  # declared nowhere
