"""Names that are another project's, the doc example's or the reader's, each beside a claim that stays ours.

Real-shaped docs (a contributing guide, a Sphinx reference, a settings page) judged in a real git
repository as `sextant docs-check` does, or read for their claims alone where the code does not matter.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository, extract_claims

from ..conftest import GitRepo


def statuses(git_repo: GitRepo) -> dict[str, str]:
    return {finding.ref: finding.status for finding in check_repository(git_repo.root).findings}


def findings(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {finding.ref: finding for finding in check_repository(git_repo.root).findings}


CONNECTION_PY = '''\
import kombu


class Connection:
    """The worker's connection step."""

    def start(self, worker):
        self.conn = kombu.Connection(worker.broker_url)
'''
CONNECTION_DOC = """\
Signals
=======

The producer retries through ``kombu.Connection.ensure`` and ``requests.sessions.Session.request``
(not ``acmee.worker.Connection.retry``);
the worker's step is started by ``acme.worker.connection.Connection.start_all``
and stopped by ``Connection.shutdown``.
"""


def test_a_class_reached_through_a_root_that_is_not_ours_is_that_package_s(git_repo: GitRepo) -> None:
    git_repo.write("setup.py", "from setuptools import setup\nsetup(name='acme', install_requires=['kombu'])\n")
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/worker/__init__.py", "")
    git_repo.write("acme/worker/connection.py", CONNECTION_PY)
    git_repo.write("acme/session.py", "class Session:\n    def close(self):\n        pass\n")
    git_repo.write("docs/signals.rst", CONNECTION_DOC)
    git_repo.commit("Worker")

    found = findings(git_repo)

    assert found["kombu.Connection.ensure"].status == "unverifiable"
    assert "no package or class of this repository" in found["kombu.Connection.ensure"].evidence
    assert found["requests.sessions.Session.request"].status == "unverifiable"
    assert found["acme.worker.connection.Connection.start_all"].status == "contradicted"
    assert found["acmee.worker.Connection.retry"].status == "contradicted"  # a slip of our package's name
    assert found["Connection.shutdown"].status == "contradicted"


def test_a_target_in_another_project_s_inventory_is_that_project_s(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "import os\nLEVEL = os.environ.get('ACME_LEVEL')\n")
    git_repo.write(
        "doc/en/how-to/capture-warnings.rst",
        "Warnings\n========\n\nSet :envvar:`python:PYTHONWARNINGS` for it, beside :envvar:`ACME_LEVEL`.\n",
    )
    git_repo.commit("Warnings")

    found = findings(git_repo)

    assert found["python:PYTHONWARNINGS"].status == "unverifiable"
    assert "another project's documentation inventory" in found["python:PYTHONWARNINGS"].evidence
    assert found["ACME_LEVEL"].status == "verified"


RESULT_COMMAND = '''\
from acme.bin.base import Command


class result(Command):
    """Gives the return value for a given task id."""

    def run(self, task_id):
        return task_id
'''
ASYNC_RESULT = '''\
class AsyncResult:
    """A task's result."""

    def get(self, timeout=None):
        return None
'''


def test_a_lower_case_qualifier_is_the_example_s_instance_not_a_class_of_ours(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/bin/__init__.py", "")
    git_repo.write("acme/bin/base.py", "class Command:\n    pass\n")
    git_repo.write("acme/bin/result.py", RESULT_COMMAND)
    git_repo.write("acme/result.py", ASYNC_RESULT)
    git_repo.write(
        "docs/next-steps.rst",
        "Results\n=======\n\n.. code-block:: pycon\n\n    >>> res = add.delay(2, 2)\n\n"
        "In fact ``result.get()`` will propagate any errors, and ``AsyncResult.wait()`` too.\n",
    )
    git_repo.commit("Results")

    found = statuses(git_repo)

    assert found["result.get()"] == "unverifiable"
    assert found["AsyncResult.wait()"] == "contradicted"


BASE_CONFIG = """\
class BaseConfig:
    orm_mode = False
    allow_mutation = True


class BaseModel:
    Config = BaseConfig
"""
SETTINGS = """\
from .main import BaseModel


class BaseSettings(BaseModel):
    class Config:
        env_prefix = ""
"""
BENCHMARK = """\
from acme import BaseModel


class Model(BaseModel):
    class Config:
        validate_all = True
"""


def test_an_inner_class_several_classes_define_names_the_reader_s_model_s(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from .main import BaseModel\n")
    git_repo.write("acme/main.py", BASE_CONFIG)
    git_repo.write("acme/env_settings.py", SETTINGS)
    git_repo.write("benchmarks/test_acme.py", BENCHMARK)
    git_repo.write(
        "docs/mypy_plugin.md",
        "# Plugin\n\n* If `Config.orm_mode` is `False`, you'll get a mypy error;\n"
        "* `BaseConfig.strict_mode` is read too.\n",
    )
    git_repo.commit("Plugin")

    found = statuses(git_repo)

    assert found["Config.orm_mode"] == "unverifiable"
    assert found["BaseConfig.strict_mode"] == "contradicted"


def test_a_path_above_the_repository_root_is_the_reader_s(git_repo: GitRepo) -> None:
    git_repo.write("docs/index.md", "# Docs\n")
    git_repo.write(
        "doc/en/reference/customize.rst",
        "Rootdir\n=======\n\nArguments may include a path, as in ``pytest --log-output ../../test.log args``;\n"
        "see ``docs/gone.md``.\n",
    )
    git_repo.commit("Customize")

    found = statuses(git_repo)

    assert found["../../test.log"] == "unverifiable"
    assert found["docs/gone.md"] == "contradicted"


def _claims(doc: str, text: str) -> dict[str, tuple[bool, str | None]]:
    return {claim.target: (claim.explicit, claim.command) for claim in extract_claims(doc, text)}


def test_a_flag_named_as_another_program_s_option_is_that_program_s() -> None:
    text = (
        "Run ``acme init``.\n\nIf you need to pull in new changes from upstream you should\n"
        "always use the ``--rebase`` option to ``git pull``:\n\nThen pass ``--force`` to rebuild.\n"
    )
    claims = _claims("CONTRIBUTING.rst", text)
    assert claims["--rebase"] == (True, "git")
    assert claims["--force"] == (True, "acme")


def test_meta_variables_and_series_of_example_names_are_not_claims() -> None:
    text = (
        "Warnings are turned into ``PytestRemovedInXWarning`` errors, see ``PytestRemovedIn9Warning``\n"
        "and ``getXPath``.\n\n"
        "If ``plugin_a`` is installed and provides the fixture ``a_fix``, and ``plugin_b`` is installed,\n"
        "``plugin_cache`` is used.\n\n"
        " - ``a`` - all except ``pP``\n - ``N`` - none (since ``fE`` is the default), and ``toJSON``\n"
    )
    targets = set(_claims("doc/en/backwards-compatibility.rst", text))
    assert targets.isdisjoint({"PytestRemovedInXWarning", "plugin_a", "plugin_b", "pP", "fE"})
    assert {"PytestRemovedIn9Warning", "getXPath", "plugin_cache", "toJSON"} <= targets


def test_a_news_fragment_shown_by_its_naming_scheme_is_the_contributor_s_file() -> None:
    text = (
        "#. Write a ``changelog`` entry: ``changelog/2574.bugfix.rst``, use issue id number.\n"
        "#. Read ``changelog/README.rst`` and ``changelog/_template.rst``.\n"
    )
    claims = _claims("CONTRIBUTING.rst", text)
    assert claims["changelog/2574.bugfix.rst"][0] is False
    assert claims["changelog/README.rst"][0] is True


def test_standard_library_imports_in_an_example_claim_nothing() -> None:
    text = (
        "Example:\n\n.. code-block:: python\n\n    import threading\n    import os.path\n\n"
        "    from collections import deque\n    from Queue import Queue, Empty\n"
        "    from urllib2 import urlopen\n    from acme.utils.time import maybe_timedelta\n"
    )
    targets = set(_claims("CONTRIBUTING.rst", text))
    assert targets == {"acme.utils.time.maybe_timedelta"}


def test_names_an_interactive_session_binds_are_the_example_s() -> None:
    text = (
        "Results\n=======\n\n.. code-block:: pycon\n\n    >>> result = add.delay(2, 2)\n"
        "    >>> result.get(timeout=1)\n    4\n\n``result.get()`` propagates errors; so does ``outcome.get()``.\n"
    )
    claims = _claims("docs/next-steps.rst", text)
    assert claims["result.get"][0] is False
    assert claims["outcome.get"][0] is True


def test_a_short_flag_with_its_number_attached_is_the_flag() -> None:
    text = (
        "Start them with `celery multi`:\n\n.. code-block:: console\n\n"
        "    $ celery multi start 1 -A proj -l info -c4 --pidfile=/var/run/celery/%n.pid\n"
    )
    flags = {claim.target for claim in extract_claims("docs/userguide/workers.rst", text) if claim.kind == "flag"}
    assert flags == {"-A", "-l", "-c", "--pidfile"}


def test_a_root_named_as_the_repository_itself_is_ours(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acmekit", "repository": "https://github.com/acme/acmekit"}\n')
    git_repo.write("src/core/connection.js", "class Connection {\n  open() {}\n}\nmodule.exports = Connection;\n")
    git_repo.write("README.md", "# acmekit\n\nCall `acmekit.Connection.reopen()` after a failure.\n")
    git_repo.commit("Connection")

    assert statuses(git_repo)["acmekit.Connection.reopen()"] == "contradicted"
