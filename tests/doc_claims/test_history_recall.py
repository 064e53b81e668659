"""Recall rules on real repositories: names between sampled trees, protocol attributes, build tags, slips."""

from __future__ import annotations

from sextant.doc_claims import check_repository, extract_claims
from sextant.doc_claims.claims.sentences import tells_history
from sextant.doc_claims.judging.past_names import likely_meant
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_between import search_between_samples
from sextant.gitsource.history_definitions import definition_pattern, find_past_definitions

from ..conftest import GitRepo


def _bumps(git_repo: GitRepo, count: int, month: int) -> None:
    for day in range(count):
        git_repo.write("acme/version.py", f"VERSION = '{month}.{day}'\n")
        git_repo.commit(f"Bump {month}.{day}", date=f"2019-{month:02d}-{day % 28 + 1:02d}T10:00:00+00:00")


def test_a_name_that_lived_and_died_between_two_sampled_trees_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("docs/guide.md", "# Guide\n\nCall the `shortlived_helper` function to warm the cache.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 40, 2)
    git_repo.write("acme/cache.py", "def shortlived_helper():\n    return 1\n")
    git_repo.commit("Add a cache helper", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 3, 4)
    git_repo.write("acme/cache.py", "def short_helper():\n    return 1\n")
    removal = git_repo.commit("Rename the cache helper", date="2019-05-01T10:00:00+00:00")
    _bumps(git_repo, 40, 6)  # the helper lived at depths 41-44: no sampled tree (8, 16, 32, 64, root) holds it

    repo = open_history(git_repo.root)
    sampled = find_past_definitions(repo, ["shortlived_helper"])
    assert "shortlived_helper" not in sampled.found  # what the samples alone miss
    completed = search_between_samples(repo, sampled)
    assert completed.found["shortlived_helper"].removed_by is not None
    assert completed.found["shortlived_helper"].removed_by.sha == removal
    assert completed.between_note is None

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "shortlived_helper")
    assert finding.status == "contradicted"
    assert finding.evidence.startswith("defined in acme/cache.py until 2019-05-01; removed by ")
    assert finding.replacement == "short_helper"


def test_a_parameter_only_passed_on_to_a_base_class_is_not_ours_to_lose(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write(
        "acme/testing.py",
        "from click.testing import CliRunner as BaseRunner\n\n\nclass Runner(BaseRunner):\n"
        "    def invoke(\n        self,\n        app,\n        mix_output: bool = False,\n    ):\n"
        "        return super().invoke(app, mix_output=mix_output)\n",
    )
    git_repo.write("docs/testing.md", "# Testing\n\nCreate the runner with the `mix_output` parameter set.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 40, 2)
    git_repo.write(
        "acme/testing.py",
        "from click.testing import CliRunner as BaseRunner\n\n\nclass Runner(BaseRunner):\n"
        "    def invoke(\n        self,\n        app,\n    ):\n        return super().invoke(app)\n",
    )
    git_repo.commit("Follow the base runner", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 40, 4)

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "mix_output")
    assert finding.status != "contradicted"  # the base class (another project's) may still take it


def test_an_attribute_the_code_read_off_given_objects_and_stopped_reading_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write(
        "acme/render.py",
        "import sys\n\n\ndef render(value):\n    if getattr(value, 'acme_no_escape', False):\n        return value\n"
        "    if getattr(sys, 'frozen_mode', False):\n        return value\n    return str(value)\n",
    )
    git_repo.write(
        "docs/objects.md",
        "# Objects\n\nSet the `acme_no_escape` attribute to skip escaping.\n"
        "Frozen builds set the `frozen_mode` attribute.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 10, 2)
    git_repo.write("acme/render.py", "def render(value):\n    return str(value)\n")
    git_repo.commit("Always escape", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 10, 4)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    assert by_ref["acme_no_escape"].status == "contradicted"
    assert by_ref["acme_no_escape"].evidence.startswith("defined in acme/render.py until 2019-03-01")
    assert by_ref["frozen_mode"].status == "unverifiable"  # read off `sys`: the standard library's, not ours


def test_a_go_build_tag_the_code_stopped_using_is_contradicted_and_platform_tags_are_nobodys(git_repo: GitRepo) -> None:
    git_repo.write("go.mod", "module example.com/acme\n\ngo 1.20\n")
    git_repo.write("yaml2.go", "//go:build !acme_yaml3\n\npackage acme\n\nconst Yaml = 2\n")
    git_repo.write("yaml3.go", "//go:build acme_yaml3\n\npackage acme\n\nconst Yaml = 3\n")
    git_repo.write("README.md", "# acme\n\nPass the `acme_yaml3` tag to your build for YAML v3.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 10, 2)
    git_repo.remove("yaml2.go")
    git_repo.write("yaml3.go", "package acme\n\nconst Yaml = 3\n")
    removal = git_repo.commit("Make YAML v3 the default", date="2019-03-01T10:00:00+00:00")

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "acme_yaml3")
    assert finding.status == "contradicted"
    assert finding.removed_by == f"{removal[:7]} Make YAML v3 the default"
    assert definition_pattern("acme_yaml3", "yaml2.go").search("// +build !acme_yaml3")
    assert not definition_pattern("linux", "a_linux.go").search("//go:build linux && amd64")


def test_a_txt_doc_with_rest_markup_is_read_as_rest() -> None:
    text = (
        "API\n===\n\n"
        "**def** `get_template` *(name)*:\n\n"
        "    Load a template. A missing one raises `acme.errors.TemplateNotFound`.\n\n"
        ".. sourcecode:: python\n\n"
        "    from acme.loaders import FileLoader\n\n"
        ".. _loaders: loaders.txt\n"
    )
    refs = {claim.ref: claim.line for claim in extract_claims("docs/src/api.txt", text)}
    # Read as Markdown, the indented paragraph was an indented code block and its name was lost.
    assert refs["acme.errors.TemplateNotFound"] == 6
    assert refs["acme.loaders.FileLoader"] == 10
    assert refs["loaders.txt"] == 12
    plain = "Notes\n\nSee `acme/settings.py` first.\n"
    assert "acme/settings.py" in {claim.target for claim in extract_claims("NOTES.txt", plain)}  # Markdown as before


def test_used_to_tells_history_only_when_something_used_to_be_or_do() -> None:
    assert not tells_history("``acme.getmtime_func`` Function used to check if templates require reloading.")
    assert not tells_history("The `loader` option is used to load templates.")
    assert tells_history("The `docs/CHANGELOG.md` document used to be manually maintained.")
    assert tells_history("`connect` used to retry three times.")
    assert tells_history("It used to accept a string.")


def test_a_name_the_code_never_had_gets_a_suggestion_but_no_alarm(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/types.py", "class File:\n    pass\n\n\nclass Path:\n    pass\n")
    git_repo.write("docs/types.md", "# Types\n\nUse the `FileType` class to open files.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 10, 2)

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "FileType")
    assert finding.status == "unverifiable"  # the code never changed: a doc error, not a stale claim
    assert finding.evidence.endswith("did you mean File?")
    assert finding.replacement == "File"
    assert likely_meant("counter", ["count", "COUNT", "counted"]) == ["count", "counted"]
    assert likely_meant("log_levels", ["log", "log_locals"]) == []  # `log` is no slip: too little is left


def test_a_file_the_code_names_only_to_say_it_is_no_longer_supported_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("package.json", '{"name": "acme", "bin": {"acme": "bin/acme.js"}}\n')
    git_repo.write(
        "lib/run.js",
        "function check(argv) {\n  if (argv.opts) {\n"
        "    throw new Error(\"configuring acme via 'acme.opts' is no longer supported\");\n  }\n"
        "  return load('acme.config');\n}\nmodule.exports = check;\n",
    )
    git_repo.write(
        "docs/setup.md", "# Setup\n\nThe `acme.opts` file requires `lib/run.js`.\nRead `acme.config` first.\n"
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    assert by_ref["acme.opts"].status == "contradicted"
    assert by_ref["acme.opts"].evidence == (
        "the code names 'acme.opts' only to say it is no longer supported (lib/run.js:3)"
    )
    assert by_ref["acme.config"].status == "verified"  # a string the code reads as it is


BOOTSTEPS_DOC = """\
Extensions and Bootsteps
========================

.. attribute:: autoreloader

    Your worker bootstep must require the `Autoreloader` bootstep to use this;
    results are kept in `Redis`.
"""


def test_one_capitalised_word_in_rest_interpreted_text_is_a_class_an_alarm_only_once_removed(
    git_repo: GitRepo,
) -> None:
    steps = "class Autoscaler:\n    pass\n{more}"
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/steps.py", steps.format(more="\n\nclass Autoreloader:\n    pass\n"))
    git_repo.write("docs/extending.rst", BOOTSTEPS_DOC)
    git_repo.write("docs/models.md", '# Models\n\nIt uses `binding:"required"` for `Autoreloader`.\n')
    git_repo.commit("Bootsteps")
    git_repo.write("acme/steps.py", steps.format(more=""))
    git_repo.commit("Remove the autoreload feature")

    found = {(f.doc, f.ref): f for f in check_repository(git_repo.root).findings}

    assert found[("docs/extending.rst", "Autoreloader")].status == "contradicted"
    assert found[("docs/extending.rst", "Autoreloader")].removed_by is not None
    assert found[("docs/extending.rst", "Redis")].status == "unverifiable"  # a product's name: never ours
    # Markdown code (and a reST literal) is as often a field of the doc's own example: not read so.
    assert ("docs/models.md", "Autoreloader") not in found


def test_a_plural_slip_of_a_several_word_name_and_the_name_a_removed_section_says_to_use_are_findings(
    git_repo: GitRepo,
) -> None:
    # celery's `revoke_by_stamped_header` for `revoke_by_stamped_headers`; pytest's "Removed
    # features" section telling readers to "Use the ``pytest_warning_recored`` hook instead".
    git_repo.write("acme/__init__.py", "")
    git_repo.write(
        "acme/control.py",
        "def revoke_by_stamped_headers(headers):\n    return headers\n\n\n"
        "def pytest_warning_recorded(warning, nodeid):\n    return nodeid\n",
    )
    git_repo.write(
        "docs/workers.rst",
        "Workers\n=======\n\nCall ``revoke_by_stamped_header`` to revoke by stamp.\n\n"
        "Removed features\n================\n\nThe ``pytest_warning_captured`` hook\n"
        "------------------------------------\n\nIt was removed in 7.0.\n\n"
        "Use the ``pytest_warning_recored`` hook instead, which takes a ``nodeid``.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 10, 2)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}

    slip = by_ref["revoke_by_stamped_header"]
    assert (slip.status, slip.replacement) == ("contradicted", "revoke_by_stamped_headers")
    told = by_ref["pytest_warning_recored"]
    assert (told.status, told.replacement) == ("contradicted", "pytest_warning_recorded")
    assert by_ref["pytest_warning_captured"].status != "contradicted"  # the removed hook: history


def test_a_two_word_plural_beside_one_of_our_names_is_no_slip(git_repo: GitRepo) -> None:
    # yargs: "you can get access to `defaultCompletions`" (what a callback receives) beside the
    # method `defaultCompletion`.
    git_repo.write(
        "lib/completion.js",
        "function defaultCompletion(args) {\n  return args;\n}\nmodule.exports = { defaultCompletion };\n",
    )
    git_repo.write("package.json", '{"name": "acme"}\n')
    git_repo.write("docs/api.md", "# API\n\nWith a callback you get access to `defaultCompletions`.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 10, 2)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}

    assert by_ref["defaultCompletions"].status != "contradicted"
