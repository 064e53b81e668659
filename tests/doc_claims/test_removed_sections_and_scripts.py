"""A section that lists removed code, a program run by its shebang, a short option with its value.

Each rule keeps its counterpart: a "Deprecated" section still holds the code to its names, a flag the
script does not define is still a finding, and an attached value makes no unknown option valid.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

TRANSITION_RST = """\
Transition
==========

Deprecated and Removed Code
---------------------------

Some things have been removed. They were not commonly used.

-   ``acme.contrib.jsrouting``, this way of making URLs did not scale well.
-   ``acme.contrib.kickstart``, the API has improved in general.

Deprecated Code
---------------

-   ``acme.contrib.fixers`` will be removed in the next release.
"""

MANUAL_MD = """\
# Running the tests

    $ acmetest --check-leaks spec/
    $ acmetest --no-such-flag spec/

The worker takes `-Ofair` (written `acmeworker -Ofair`), never `acmeworker -Xfast`.
"""

SCRIPT = """\
#!/usr/bin/env node
'use strict';
program
  .option('--check-leaks', 'check for global variable leaks')
  .option('-O, --optimization <name>', 'scheduling');
"""

PACKAGE_JSON = '{"name": "acme", "bin": {"acmetest": "./bin/_acmetest", "acmeworker": "./bin/_acmetest"}}\n'


def _findings(git_repo: GitRepo) -> dict[str, str]:
    git_repo.write("acme/__init__.py", "VERSION = '1.0'\n")
    git_repo.write("acme/contrib/__init__.py", '"""Contributed modules."""\n')
    git_repo.write("acme/contrib/fixers.py", "def fix(): ...\n")
    git_repo.write("acme/contrib/kickstart.py", "def start(): ...\n")
    git_repo.write("acme/contrib/jsrouting.py", "def routes(): ...\n")
    git_repo.commit("the old modules")
    git_repo.remove("acme/contrib/kickstart.py")
    git_repo.remove("acme/contrib/jsrouting.py")
    git_repo.remove("acme/contrib/fixers.py")
    git_repo.write("package.json", PACKAGE_JSON)
    git_repo.write("bin/_acmetest", SCRIPT)
    git_repo.write("docs/transition.rst", TRANSITION_RST)
    git_repo.write("docs/manual.md", MANUAL_MD)
    head = git_repo.commit("remove them; document the transition")
    return {f.ref: f.status for f in check_repository(git_repo.root, commit=head).findings}


def test_a_section_headed_deprecated_and_removed_code_tells_history(git_repo: GitRepo) -> None:
    status = _findings(git_repo)

    assert status["acme.contrib.jsrouting"] == "unverifiable"
    assert status["acme.contrib.kickstart"] == "unverifiable"
    # A "Deprecated" section says the names still exist: one the code already removed is a finding.
    assert status["acme.contrib.fixers"] == "contradicted"


def test_the_options_of_a_program_run_by_its_shebang_count(git_repo: GitRepo) -> None:
    status = _findings(git_repo)

    assert status["--check-leaks"] == "verified"  # defined in bin/_acmetest, which has no extension
    assert status["--no-such-flag"] == "contradicted"


def test_a_short_option_with_its_value_attached_is_that_option(git_repo: GitRepo) -> None:
    status = _findings(git_repo)

    assert status["-Ofair"] == "verified"
    assert status["-Xfast"] != "verified"  # no -X option: the attached value proves nothing
