"""A class named through a module written by its last parts (`helpers.AccessLogger`) must live in that module."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

_LOGGER = "class AccessLogger:\n    LOG_FORMAT = '%a %t \"%r\" %s'\n\n    def log(self, request):\n        pass\n"


def test_a_class_that_moved_out_of_the_module_the_doc_names_by_its_tail_is_a_stale_qualifier(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/helpers.py", f"import json\n\n\n{_LOGGER}")
    git_repo.write("acme/web.py", "from .web_app import Application\n\n__all__ = ('Application',)\n")
    git_repo.write("acme/web_app.py", "class Application:\n    def router(self):\n        pass\n")
    git_repo.write("acme/client.py", "class ClientSession:\n    def get(self, url):\n        pass\n")
    git_repo.write("acme/json.py", "class JSONEncoder:\n    pass\n")
    git_repo.write(
        "docs/logging.rst",
        "Logging\n=======\n\n"
        "The default format is :attr:`helpers.AccessLogger.LOG_FORMAT`.\n\n"
        "Build the app with :class:`web.Application`, then call :meth:`web.Application.router`.\n\n"
        "Fetch a page with :meth:`client.get`; decode it with :class:`json.JSONDecoder`.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    git_repo.write("acme/helpers.py", "import json\n")
    git_repo.write("acme/web_log.py", _LOGGER)
    git_repo.commit("Extract the access logger into its own module", date="2019-03-01T10:00:00+00:00")
    for day in range(1, 11):  # the sampled trees since the move hold the class in its new module
        git_repo.write("acme/version.py", f"VERSION = '1.{day}'\n")
        git_repo.commit(f"Bump 1.{day}", date=f"2019-04-{day:02d}T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    moved = by_ref["helpers.AccessLogger.LOG_FORMAT"]
    assert moved.status == "contradicted"
    assert moved.evidence.startswith(
        "module acme.helpers (acme/helpers.py) has no AccessLogger; class AccessLogger is defined in acme/web_log.py"
    )
    assert by_ref["web.Application"].status == "verified"  # bound where the doc says, through an import
    assert by_ref["web.Application.router"].status == "verified"
    assert by_ref["client.get"].status != "contradicted"  # a lower-case member: most often the doc's variable
    assert by_ref["json.JSONDecoder"].status != "contradicted"  # the standard library's module, not acme.json
