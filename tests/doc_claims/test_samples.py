"""Code samples that call the repository's own API by a qualified name claim that API exists.

A doc's sample that catches `acme.FingerprintMismatch` or calls `acme.web.run_app` fails for the
reader when the package no longer has them; the same sample's `requests.get`, its own `session.get`
and the names in its comments say nothing about this repository. A string is read only when it is an
import path through one of the repository's own packages (`'acme.worker.steps:Hub'`).
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository, extract_claims

from ..conftest import GitRepo


def findings(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {finding.ref: finding for finding in check_repository(git_repo.root).findings}


SAMPLE_DOC = """\
Client
======

You may also verify certificates via fingerprint::

  # acme.NotAName in a comment is no claim
  bad_fp = b'0' * 64
  try:
      r = await session.get('https://example.org', ssl=acme.Fingerprint(bad_fp))
  except acme.FingerprintMismatch as e:
      exc = e
  requests.get("acme.AlsoNotAName")
  os.path.join("a", "b")

A session in a Python block:

.. code-block:: python

    from acme import web

    app = web.Application()
    app.router.add_route('GET', '/', handler)
    web.run_app(app)
    web.make_app()

>>> import acme
>>> acme.web.Application()
acme.web.OutputLine
"""


ERRORS_PY = "class Fingerprint:\n    pass\n\n\nclass {prefix}FingerprintMismatch(Exception):\n    pass\n"


def test_a_sample_s_qualified_name_through_our_root_is_a_claim(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from .errors import Fingerprint\n")
    git_repo.write("acme/errors.py", ERRORS_PY.format(prefix=""))
    git_repo.write("acme/web.py", "class Application:\n    pass\n\n\ndef run_app(app):\n    pass\n")
    git_repo.write("docs/client.rst", SAMPLE_DOC)
    git_repo.commit("Client")
    git_repo.write("acme/errors.py", ERRORS_PY.format(prefix="Server"))
    git_repo.commit("Rename the fingerprint error")

    found = findings(git_repo)

    assert found["acme.FingerprintMismatch"].status == "contradicted"
    assert found["acme.FingerprintMismatch"].removed_by is not None
    assert found["acme.Fingerprint"].status == "verified"
    assert found["acme.web.run_app"].status == "verified"  # `web` is the sample's import of acme.web
    assert found["acme.web.Application"].status == "verified"
    for not_claims in ("session.get", "requests.get", "os.path.join", "app.router.add_route", "acme.NotAName"):
        assert not_claims not in found
    # A dotted string through our root may be an import path: a claim, but no alarm without a removal.
    assert found["acme.AlsoNotAName"].status == "unverifiable"
    assert "acme.web.OutputLine" not in found  # a session's output line
    assert found["acme.web.make_app"].status == "unverifiable"  # never defined: perhaps built at run time


def test_a_language_less_block_is_read_only_when_it_acts_as_python() -> None:
    doc = "Headers::\n\n    acme.hdrs.CONTENT_ID\n\nAnd::\n\n    part.headers[acme.hdrs.CONTENT_ID] = 'X'\n"

    claims = [claim for claim in extract_claims("docs/multipart.rst", doc) if claim.in_sample and claim.owner == "acme"]

    assert [(claim.line, claim.target) for claim in claims] == [(7, "acme.hdrs.CONTENT_ID")]


SETUP_PY = "from setuptools import setup\n\nsetup(name='acme', extras_require={'redis': ['redis']})\n"
EXTRAS_DOC = """\
Features with extras
====================

We use setuptools `extra_requires` for this, and each new feature is read by `extras_requir`.

Plug-ins
--------

* ``acme_tasks``: Monitors the number of times each task type has been executed.

    https://github.com/munin-monitoring/contrib/blob/master/plugins/acme/acme_tasks

* ``acme_cl_tasks``: Counts the workers (see https://github.com/munin-monitoring/contrib).
"""


def test_a_tool_named_before_a_name_or_a_list_item_linking_its_home_gives_it_away(git_repo: GitRepo) -> None:
    git_repo.write("setup.py", SETUP_PY)
    git_repo.write("acme/__init__.py", "def acme_cls_tasks():\n    pass\n\n\ndef extras_require():\n    pass\n")
    git_repo.write("acme/contrib/__init__.py", "")  # a package of ours named like the linked repository
    git_repo.write("CONTRIBUTING.rst", EXTRAS_DOC)
    git_repo.commit("Extras")

    found = findings(git_repo)

    assert found["extra_requires"].status == "unverifiable"
    assert "setuptools's" in found["extra_requires"].evidence
    assert found["acme_tasks"].status == "unverifiable"
    assert "munin-monitoring/contrib's" in found["acme_tasks"].evidence
    assert found["acme_cl_tasks"].status == "contradicted"  # the link is not to the item's own name
    assert found["extras_requir"].status == "contradicted"  # no tool named before it


TESTING_DOC = """\
Testing
=======

A test case for your application::

    from acme.testing import AcmeTestCase, run_loop

    class TestApplication(AcmeTestCase):
        @run_loop
        async def test_ping(self):
            resp = await self.client.get('/ping/')
            assert resp.status == 200
"""


def test_each_use_of_an_imported_name_is_a_claim_on_its_own_line(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/testing.py", "class AcmeTestCase:\n    pass\n\n\ndef run_loop(func):\n    return func\n")
    git_repo.write("docs/testing.rst", TESTING_DOC)
    git_repo.commit("Testing")
    git_repo.write("acme/testing.py", "class AcmeTestCase:\n    pass\n")
    git_repo.commit("Remove run_loop: test cases run their own loop")

    by_line = {(f.line, f.ref): f for f in check_repository(git_repo.root).findings}

    decorator = by_line[(9, "acme.testing.run_loop")]  # `@run_loop`, where the reader meets it
    assert decorator.status == "contradicted"
    assert decorator.removed_by is not None
    assert by_line[(8, "acme.testing.AcmeTestCase")].status == "verified"  # a base class is a use too
    assert (10, "self.client.get") not in by_line


def test_a_bare_use_of_an_imported_name_is_as_firm_as_its_import_line(git_repo: GitRepo) -> None:
    doc = TESTING_DOC.replace("A test case for your application::", "A test case:\n\n.. code-block:: python")
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/testing.py", "class AcmeTestCase:\n    pass\n")  # no run_loop, and no history of one
    git_repo.write("docs/testing.rst", doc)
    git_repo.commit("Testing")

    by_line = {(f.line, f.ref): f for f in check_repository(git_repo.root).findings}

    assert by_line[(8, "acme.testing.run_loop")].status == "contradicted"  # the import line: the module lacks it
    assert by_line[(11, "acme.testing.run_loop")].status == "contradicted"  # its use: the same claim, met again


STEPS_DOC = """\
Bootsteps
=========

.. code-block:: python

    class WorkerStep(bootsteps.StartStopStep):
        requires = ('acme.worker.components:Hub',)

    class ReloadStep(bootsteps.StartStopStep):
        requires = ('acme.worker.autoreload:Autoreloader',)

    class StateStep(bootsteps.StartStopStep):
        requires = ('acme.worker.components:Statedb', 'acme.backends.redis.RedisBackend')

    class ScaleStep(bootsteps.StartStopStep):
        requires = ('acme.worker.autoscaler:Autoscaler', 'acme.plugins:Plugin')

    app.conf.task_routes = {'proj.tasks.add': {'queue': 'hipri'}}
    app.conf.broker_transport = 'kombu.transport.redis:Transport'
    app.conf.result_backend = 'https://acme.example.com/results'
    logging.basicConfig(filename='acme.worker.log')
"""
SCRIPT_DOC = """\
A management script::

    from acme.cli import AcmeGroup, config_option

    @config_option('--config')
    def cli():
        pass
"""


def test_an_import_path_a_sample_writes_as_a_string_is_a_claim_through_our_own_packages(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/worker/__init__.py", '"""The worker."""\n')
    git_repo.write("acme/worker/components.py", "class Hub:\n    pass\n\n\nclass StateDB:\n    pass\n")
    git_repo.write("acme/worker/autoreload.py", "class Autoreloader:\n    pass\n")
    git_repo.write("acme/worker/autoscale.py", "class Autoscaler:\n    pass\n")
    git_repo.write("acme/plugins/__init__.py", "")  # empty: no module of the index, yet a file of the tree
    git_repo.write("acme/plugins/base.py", "class Plugin:\n    pass\n")
    git_repo.write("acme/backends/__init__.py", '"""Result backends."""\n')
    git_repo.write("acme/backends/redis.py", "class RedisBackend:\n    pass\n")
    git_repo.write("examples/proj/__init__.py", '"""An example project."""\n')
    git_repo.write("examples/proj/tasks.py", "def add(x, y):\n    return x + y\n")
    git_repo.write("docs/steps.rst", STEPS_DOC)
    git_repo.commit("Worker steps")
    git_repo.remove("acme/worker/autoreload.py")
    git_repo.commit("Remove the autoreloader")

    found = findings(git_repo)

    assert found["acme.worker.components:Hub"].status == "verified"
    assert found["acme.backends.redis.RedisBackend"].status == "verified"
    reloader = found["acme.worker.autoreload:Autoreloader"]
    assert reloader.status == "contradicted"
    assert reloader.removed_by is not None
    # An entry point is as firm as an import: the module it names lacks the attribute.
    assert found["acme.worker.components:Statedb"].status == "contradicted"
    # The module an entry point names must exist, whatever the bare class name finds elsewhere.
    scaler = found["acme.worker.autoscaler:Autoscaler"]
    assert scaler.status == "contradicted", scaler.evidence
    assert "has no module autoscaler" in scaler.evidence
    assert "acme/worker/autoscale.py" in scaler.evidence
    assert found["acme.plugins:Plugin"].status != "contradicted"
    # An example project's task name, another package's path, a URL and a file name are no claims.
    for not_claims in ("proj.tasks.add", "kombu.transport.redis:Transport", "acme.example.com", "acme.worker.log"):
        assert not any(not_claims in ref for ref in found), not_claims


def test_a_language_less_block_that_acts_as_python_claims_its_import_lines(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/cli.py", "class AcmeGroup:\n    pass\n\n\ndef config_option(*names):\n    pass\n")
    git_repo.write("docs/cli.rst", SCRIPT_DOC)
    git_repo.commit("Management script")
    git_repo.write("acme/cli.py", "class AcmeGroup:\n    pass\n")
    git_repo.commit("Remove the config option")

    by_line = {(f.line, f.ref): f for f in check_repository(git_repo.root).findings}

    # The import line of a `::` block, as of a Python block: the module lacks the name now.
    assert by_line[(3, "acme.cli.config_option")].status == "contradicted"
    assert by_line[(3, "acme.cli.AcmeGroup")].status == "verified"


NATIVE_STEPS_DOC = """\
Steps
=====

A step::

    class FastStep(bootsteps.StartStopStep):
        requires = ('acme._native:Validator', 'acme._speedups:escape', 'acme._gone:Thing')
"""


def test_an_entry_point_into_a_compiled_module_with_a_stub_or_cython_source_is_no_missing_module(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/_native.pyi", "class Validator:\n    def validate(self, value: object) -> object: ...\n")
    git_repo.write("acme/_speedups.pyx", "def escape(s):\n    return s\n")
    git_repo.write("acme/things.py", "class Thing:\n    pass\n")
    git_repo.write("docs/steps.rst", NATIVE_STEPS_DOC)
    git_repo.commit("Native steps")

    found = findings(git_repo)

    # The module is built from acme/_native.pyi's extension and acme/_speedups.pyx: an import finds it.
    for ref in ("acme._native:Validator", "acme._speedups:escape"):
        assert "no module" not in found[ref].evidence, found[ref].evidence
        assert found[ref].status != "contradicted"
    assert found["acme._gone:Thing"].status == "contradicted"
