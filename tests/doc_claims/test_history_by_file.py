"""History read file by file: a symbol removed while its word lives on, and definitions that moved."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

_NATIVE_CONTEXT = (
    "class BaseContext:\n"
    "    def __init__(self, layers):\n"
    "        self._layers = list(layers)\n\n"
    "    def stack(self):\n"
    "        return list(self._layers)\n"
    "    stack = property(stack)\n\n"
    "    def pop(self):\n"
    "        return self._layers.pop()\n"
)
_LEXER = (
    "class Lexer:\n"
    "    def tokens(self, source):\n"
    "        stack = ['root']\n"
    "        for char in source:\n"
    "            stack.append(char)\n"
    "        return stack\n"
)


def _bumps(git_repo: GitRepo, count: int, month: int) -> None:
    for day in range(count):
        git_repo.write("acme/version.py", f"VERSION = '{month}.{day}'\n")
        git_repo.commit(f"Bump {month}.{day}", date=f"2019-{month:02d}-{day % 28 + 1:02d}T10:00:00+00:00")


def test_a_method_removed_from_its_file_is_contradicted_though_the_head_still_says_its_word(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/_native.py", _NATIVE_CONTEXT)
    git_repo.write("acme/lexer.py", _LEXER)
    git_repo.write(
        "acme/loader.py",
        "def load(name, render_cache=None):\n"
        "    registry = {'template_fragments': {}}\n"
        "    return registry['template_fragments'].get(name)\n",
    )
    git_repo.write(
        "acme/helpers.py", "def template_fragments():\n    return []\n\n\ndef render_cache():\n    return {}\n"
    )
    git_repo.write(
        "docs/context.md",
        "# The context\n\n"
        "The `stack` attribute of the context lists its layers.\n\n"
        "Ask the loader for `template_fragments` first; pass `render_cache` to keep them.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 20, 2)
    git_repo.remove("acme/_native.py")
    git_repo.remove("acme/helpers.py")
    removal = git_repo.commit("Drop the pure-Python context and the old helpers", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 20, 4)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    stack = by_ref["stack"]
    assert stack.status == "contradicted"  # the head's `stack` is a local of the lexer, no attribute of ours
    assert stack.evidence.startswith(f"defined in acme/_native.py until 2019-03-01; removed by {removal[:7]} ")
    assert "at the head only named in acme/lexer.py:3" in stack.evidence
    # The head serves the first as a string key and takes the second as a parameter: both still mean something.
    assert by_ref["template_fragments"].status == "verified"
    assert by_ref["render_cache"].status == "verified"


def test_a_definition_that_moved_to_another_file_is_not_removed_by_the_move(git_repo: GitRepo) -> None:
    junit = (
        "def record_property(request):\n    return request\n\n\n"
        "def record_xml_property(request):\n    return record_property(request)\n"
    )
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/junitxml.py", junit)
    git_repo.write("docs/output.md", "# Output\n\nUse `record_property`; `record_xml_property` is the older fixture.\n")
    git_repo.commit("Start", date="2018-01-01T10:00:00+00:00")
    git_repo.move("acme/__init__.py", "src/acme/__init__.py")
    git_repo.move("acme/junitxml.py", "src/acme/junitxml.py")
    git_repo.commit("Switch to src layout", date="2018-05-26T10:00:00+00:00")
    git_repo.write("src/acme/junitxml.py", "def record_property(request):\n    return request\n")
    removal = git_repo.commit("Remove deprecated record_xml_property", date="2018-12-14T10:00:00+00:00")
    for day in range(10):  # the sampled trees since hold neither file's old fixture
        git_repo.write("src/acme/version.py", f"VERSION = '1.{day}'\n")
        git_repo.commit(f"Bump 1.{day}", date=f"2019-01-{day + 1:02d}T10:00:00+00:00")

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "record_xml_property")
    assert finding.status == "contradicted"
    assert finding.evidence.startswith(
        f"defined in src/acme/junitxml.py until 2018-12-14; removed by {removal[:7]} 'Remove deprecated"
    )


def test_a_mention_still_in_use_under_another_qualifier_or_once_vendored_keeps_its_word(git_repo: GitRepo) -> None:
    helper = (
        "class DebugHelper:\n"
        '    """Available in templates as debug."""\n\n'
        "    def show_filters(self):\n        return []\n\n"
        "    def expected_time(self, tokens):\n        return 0\n"
    )
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/debug.py", "def rewrite_traceback(tb):\n    return tb\n")
    git_repo.write("acme/helpers.py", helper)
    git_repo.write(
        "acme/vendored_packages/pluggy.py", "class Manager:\n    def get_plugin(self, name):\n        pass\n"
    )
    git_repo.write(
        "acme/worker.py",
        "# show_filters and get_plugin went away\n\n\ndef wait(bucket):\n    return bucket.expected_time(1)\n",
    )
    git_repo.write(
        "docs/debugging.md",
        "# Debugging\n\n"
        "List them with `debug.show_filters()`, not with `worker.show_filters()`.\n\n"
        "The bucket answers `expected_time(tokens)`; plugins come from `get_plugin`.\n",
    )
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 20, 2)
    git_repo.remove("acme/helpers.py")
    git_repo.remove("acme/vendored_packages/pluggy.py")
    removal = git_repo.commit("A clean restart", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 20, 4)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    # The file the method left named `debug`, the doc's qualifier: that helper is the one gone.
    assert by_ref["debug.show_filters()"].status == "contradicted"
    assert by_ref["debug.show_filters()"].removed_by == f"{removal[:7]} A clean restart"
    # It never named `worker`: the doc's `worker.show_filters()` is about something else.
    assert by_ref["worker.show_filters()"].status == "verified"
    # Called at the head (another library's method, once vendored): still in use.
    assert by_ref["expected_time(tokens)"].status == "verified"
    # Defined only in a vendored copy of another project: never ours to lose.
    assert by_ref["get_plugin"].status == "verified"


def test_a_definition_moved_and_removed_on_a_side_branch_is_traced_to_its_removal(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/conf.py", "def get_queues():\n    return {}\n")
    git_repo.write("docs/routing.md", "# Routing\n\nThe queues come from `get_queues`.\n")
    git_repo.commit("Start", date="2010-07-01T10:00:00+00:00")
    git_repo.git("checkout", "-q", "-b", "refactor")
    git_repo.remove("acme/conf.py")
    git_repo.write("acme/defaults.py", "class Settings:\n    def get_queues(self):\n        return {}\n")
    git_repo.commit("Global settings removed", date="2010-09-13T10:00:00+00:00")
    git_repo.remove("acme/defaults.py")
    git_repo.write("acme/amqp.py", "class AMQP:\n    def get_queues(self):\n        return {}\n")
    git_repo.commit("Intense refactoring", date="2010-09-14T10:00:00+00:00")
    git_repo.remove("acme/amqp.py")
    git_repo.write("acme/app.py", "class AMQP:\n    queues = {}\n")
    removal = git_repo.commit("Introducing AMQP.queues", date="2010-09-16T10:00:00+00:00")
    git_repo.git("checkout", "-q", "main")
    git_repo.git("merge", "-q", "--no-ff", "-m", "Merge the refactor", "refactor", date="2010-09-20T10:00:00+00:00")
    for day in range(10):
        git_repo.write("acme/version.py", f"VERSION = '1.{day}'\n")
        git_repo.commit(f"Bump 1.{day}", date=f"2010-10-{day + 1:02d}T10:00:00+00:00")

    finding = next(f for f in check_repository(git_repo.root).findings if f.ref == "get_queues")
    assert finding.status == "contradicted"
    # Not the first move: the definition went on to acme/defaults.py, then acme/amqp.py, files the branch
    # added and dropped again (the merge shows nothing of them).
    assert finding.evidence.startswith(f"defined in acme/amqp.py until 2010-09-16; removed by {removal[:7]} ")


def test_a_method_a_base_from_another_project_took_over_is_not_removed(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write(
        "acme/wrappers.py",
        "class Request:\n    def get_json(self):\n        return {}\n\n    def get_form(self):\n        return {}\n",
    )
    git_repo.write("examples/app.py", "def view(request):\n    return request.get_json, request.get_form\n")
    git_repo.write("docs/testing.md", "# Testing\n\nRead the body with `get_json`; the form with `get_form`.\n")
    git_repo.commit("Start", date="2019-01-01T10:00:00+00:00")
    _bumps(git_repo, 20, 2)
    git_repo.write(
        "acme/wrappers.py",
        "import json\n\nfrom othertool.wrappers import JSONMixin\n\n\nclass Request(JSONMixin):\n    pass\n",
    )
    git_repo.commit("Use othertool's JSONMixin", date="2019-03-01T10:00:00+00:00")
    _bumps(git_repo, 20, 4)

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    # The commit that dropped both made the file import another project: its mixin may supply them.
    assert by_ref["get_json"].status == "verified"
    assert by_ref["get_form"].status == "verified"
