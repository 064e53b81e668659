"""What counts as the repository's own name, at the head and in its history, on real-shaped repositories.

Each test builds a small git repository shaped like a real project's case and judges it as
`sextant docs-check` does: members that moved to a base class imported under another name,
re-exports, members assigned onto a constructor function, entry-point groups written as strings,
and history hits that are uses rather than definitions, or live in build output.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {finding.ref: finding for finding in check_repository(git_repo.root).findings}


BLUEPRINT_BEFORE = '''\
class BlueprintSetupState:
    """Temporary holder of a blueprint's registration."""


class Blueprint:
    """A set of routes."""

    def __init__(self, name, url_prefix=None):
        self.name = name
        self.url_prefix = url_prefix

    def route(self, rule):
        return rule
'''
SANSIO_BLUEPRINT = BLUEPRINT_BEFORE
BLUEPRINT_AFTER = '''\
from .sansio.blueprints import Blueprint as SansioBlueprint
from .sansio.blueprints import BlueprintSetupState as BlueprintSetupState  # noqa: F401


class Blueprint(SansioBlueprint):
    """A set of routes that can also serve files."""

    def send_static_file(self, filename):
        return filename
'''
WRAPPERS = '''\
from werkzeug.wrappers import Request as RequestBase


class Request(RequestBase):
    """The request object, with the app's extras."""

    def on_json_loading_failed(self, error):
        raise error
'''
BLUEPRINT_DOC = (
    "# Blueprints\n"
    "\n"
    "The `Blueprint` class takes a `name` and a `url_prefix`; see `acme.blueprints.BlueprintSetupState`.\n"
    "\n"
    "Read form data from `acme.wrappers.Request.form` and\n"
    "`acme.blueprints.Blueprint.route()` adds a rule.\n"
)


def test_members_moved_to_a_base_imported_under_another_name_are_still_the_class_s(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", '[project]\nname = "acme"\ndependencies = ["werkzeug"]\n')
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/blueprints.py", BLUEPRINT_BEFORE)
    git_repo.write("acme/wrappers.py", WRAPPERS)
    git_repo.write("docs/blueprints.md", BLUEPRINT_DOC)
    git_repo.commit("Blueprints", date="2023-01-04T10:00:00+00:00")
    git_repo.write("acme/sansio/__init__.py", "")
    git_repo.write("acme/sansio/blueprints.py", SANSIO_BLUEPRINT)
    git_repo.write("acme/blueprints.py", BLUEPRINT_AFTER)
    git_repo.commit("Move file to sansio", date="2023-08-19T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    # The members live on the base now: nothing the doc uses was lost.
    assert found["Blueprint"].status == "verified", found["Blueprint"].evidence
    assert found["acme.blueprints.Blueprint.route()"].status == "verified"
    # `from … import X as X` with a trailing comment re-exports X: the module still offers it.
    assert found["acme.blueprints.BlueprintSetupState"].status == "verified"
    # A base imported from another package may supply the member: not ours to contradict.
    form = found["acme.wrappers.Request.form"]
    assert form.status == "unverifiable", form.evidence
    assert "werkzeug.wrappers.Request" in form.evidence


CANCEL_TOKEN_JS = """\
'use strict';

function CancelToken(executor) {
  this.promise = new Promise(executor);
}

CancelToken.prototype.throwIfRequested = function throwIfRequested() {};

CancelToken.source = function source() {
  return { token: new CancelToken(function () {}) };
};

module.exports = CancelToken;
"""
TYPINGS = "export interface CancelToken {\n  promise: Promise<string>;\n}\n"


def test_members_assigned_onto_a_constructor_function_are_its_members(git_repo: GitRepo) -> None:
    readme = (
        "# acme-http\n\nCreate a token with the `CancelToken.source()` factory;\n"
        "`CancelToken.prototype.throwIfRequested()` throws once cancelled, "
        "while `CancelToken.renew()` is gone.\n"
    )
    package = {"package.json": '{"name": "acme-http", "main": "index.js"}\n', "index.d.ts": TYPINGS}
    git_repo.commit_files("Cancellation", package | {"lib/cancel/CancelToken.js": CANCEL_TOKEN_JS, "README.md": readme})

    found = findings_by_ref(git_repo)

    assert found["CancelToken.source()"].status == "verified", found["CancelToken.source()"].evidence
    assert found["CancelToken.prototype.throwIfRequested()"].status == "verified"
    assert found["CancelToken.renew()"].status != "verified"


CLI_WITH_GROUP = """\
from importlib.metadata import entry_points


def load_plugins():
    return entry_points(group="acme.commands")
"""


def test_a_dotted_name_the_code_writes_as_a_string_is_the_code_s(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/cli.py", CLI_WITH_GROUP)
    git_repo.write("docs/cli.md", "Plugins register commands in the `acme.commands` entry-point group.\n")
    git_repo.commit("Plugins")

    found = findings_by_ref(git_repo)

    assert found["acme.commands"].status == "verified"
    assert "named as the string 'acme.commands' in acme/cli.py" in found["acme.commands"].evidence


OLD_APP = '''\
from werkzeug.routing import Rule


def configure(convert_filters=None, loader=None):
    """Set the app up."""
    return Rule("/static", build_only=True, endpoint="static")


def removed_helper():
    return 1
'''
BUNDLE = "function bundledOnly(querystring) { return querystring; }\nfunction helperInDist() {}\n"


def test_history_evidence_is_a_past_definition_in_the_repository_s_own_source(git_repo: GitRepo) -> None:
    doc = (
        "Pass `convert_filters` to `configure()`; `removed_helper()` helps.\n\n"
        "Use werkzeug's rules: `Rule(build_only=True)` routes build URLs only, so `build_only` is theirs.\n\n"
        "The `helperInDist()` function was bundled.\n"
    )
    code = {"acme/__init__.py": "", "acme/app.py": OLD_APP, "dist/acme.bundle.js": BUNDLE}
    git_repo.commit_files("The app", code | {"docs/app.md": doc}, date="2010-05-01T10:00:00+00:00")
    git_repo.write("acme/app.py", "def configure(loader=None):\n    return loader\n")
    git_repo.remove("dist/acme.bundle.js")
    git_repo.commit("Out with the old", date="2010-07-02T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    # A parameter of one of our functions and a removed function: defined here once, now gone.
    assert found["convert_filters"].status == "contradicted", found["convert_filters"].evidence
    assert found["removed_helper()"].status == "contradicted"
    # A call's keyword argument is someone else's parameter, only named by our old code.
    assert found["build_only"].status == "unverifiable", found["build_only"].evidence
    # Build output repeats code: what it defined is no evidence about our source.
    assert found["helperInDist()"].status == "unverifiable", found["helperInDist()"].evidence


READER_DOC = """\
# Reporters

The SuperAgent docs were generated with the doc reporter and this command:

```bash
$ acme --reporter=doc | cat docs/head.html - docs/tail.html > docs/test.html
$ cat docs/gone.html
```

For the JavaScript API, view the [API documentation](api/) or the [API pages](/api), subscribe to the
[newsletter](/newsletter/), or read the [reporters guide](reporters-gone.md) and [how to help](/CONTRIBUTING.md).

Your editor completes them as you start to type `acme.File`... like the other classes.
"""


def test_a_command_writing_a_file_and_built_site_folders_are_the_reader_s_not_ours(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "bin/acme.js"}}\n')
    git_repo.write("bin/acme.js", "const reporter = process.argv.includes('--reporter=doc');\n")
    git_repo.write("docs/index.md", READER_DOC)
    git_repo.commit("Docs")

    found = findings_by_ref(git_repo)

    # The pipeline writes docs/test.html in the reader's tree: its inputs are the reader's files too.
    for ref in ("docs/head.html", "docs/tail.html", "docs/test.html"):
        assert ref not in found or found[ref].status == "unverifiable", found[ref].evidence
    assert found["docs/gone.html"].status == "contradicted"  # a plain command still names our file
    # Folder-style links from a docs page are pages of the built site; a broken page link is still news.
    assert found["api/"].status == "unverifiable"
    assert found["/newsletter/"].status == "unverifiable"
    assert found["/api"].status == "unverifiable"
    assert found["reporters-gone.md"].status == "contradicted"
    assert found["/CONTRIBUTING.md"].status == "contradicted"
    # `acme.File`... is the start of names the reader types.
    assert "acme.File" not in found


RENAMED_DOC = """\
Exceptions
==========

All of those exceptions are defined in the `acme.exceptions` module. Set `acme.use_cache` to
enable caching; `otherlib.cache` is someone else's. Get the vim plugin: `acme.vim`_
"""


def test_a_dotted_name_under_a_package_this_repository_renamed_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from acme.exceptions import TemplateNotFound\n")
    git_repo.write("acme/exceptions.py", "class TemplateNotFound(Exception):\n    pass\n")
    git_repo.write("acme/plugin.py", "def configure(options):\n    return options.get('acme.use_cache')\n")
    git_repo.write("docs/api.txt", RENAMED_DOC)
    git_repo.commit("Jinja-style 1.x", date="2008-01-10T10:00:00+00:00")
    git_repo.move("acme", "acme2")
    (git_repo.root / "acme2/plugin.py").unlink()  # the rewrite dropped the settings
    rename = git_repo.commit("A clean restart", date="2008-03-31T14:18:49+02:00")

    found = findings_by_ref(git_repo)

    module = found["acme.exceptions"]
    assert module.status == "contradicted", module.evidence
    assert module.evidence == (
        f"acme was this repository's package until 2008-03-31 (acme/__init__.py removed by {rename[:7]} "
        "'A clean restart'); now acme2.exceptions?"
    )
    assert (module.removed_at, module.replacement) == ("2008-03-31", "acme2")
    assert found["acme.use_cache"].status == "contradicted"
    assert found["otherlib.cache"].status == "unverifiable"  # never a package here
    assert "acme.vim" not in found  # a reST link reference, not a name


def test_a_forge_link_to_this_repository_s_file_is_a_path_claim(git_repo: GitRepo) -> None:
    git_repo.write(
        "pyproject.toml", '[project]\nname = "acme"\n\n[project.urls]\nSource = "https://github.com/acme-org/acme"\n'
    )
    git_repo.write("acme/__init__.py", "")
    git_repo.write("docs/v3/index.md", "# The v3 manual\n")
    git_repo.write(
        ".github/PULL_REQUEST_TEMPLATE.md",
        "- [ ] New APIs are added to [`typing_examples.py`](https://github.com/acme-org/acme/blob/main/tests/typing_examples.py).\n"
        "- [ ] The v3 manual is [here](https://github.com/acme-org/acme/blob/main/docs/v3/index.md).\n"
        "- [ ] Other projects' files: [theirs](https://github.com/other/lib/blob/main/gone.py).\n",
    )
    git_repo.commit("Templates")

    found = {f.ref.rsplit("/", 1)[-1]: f for f in check_repository(git_repo.root).findings}

    assert found["typing_examples.py"].status == "contradicted"  # moved away: the link is broken
    assert found["index.md"].status == "verified"
    assert found["gone.py"].status == "unverifiable"  # another repository's file


def test_the_package_s_own_file_run_through_node_modules_is_checked(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "./bin/acme.js"}}\n')
    git_repo.write("bin/acme.js", "#!/usr/bin/env node\nrequire('../lib/cli').main();\n")
    git_repo.write(
        "docs/index.md",
        "```bash\n$ ./node_modules/acme/bin/acme\n$ ./node_modules/acme/bin/acme.js\n"
        "$ ./node_modules/other/bin/x\n```\n",
    )
    git_repo.commit("Docs")

    found = findings_by_ref(git_repo)

    assert found["./node_modules/acme/bin/acme"].status == "contradicted"  # bin/acme is bin/acme.js now
    assert found["./node_modules/acme/bin/acme.js"].status == "verified"
    assert found["./node_modules/other/bin/x"].status == "unverifiable"  # another package's
