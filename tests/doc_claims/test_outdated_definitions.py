"""`outdated` is raised only where the doc writes, as code, a name its definition lost after the doc.

A small repository with history: a doc written against the first version of the code, then the
code's definitions lose parameters and members. What the doc shows as code near a claim of the
definition (code spans, the lines of a code sample, API directives) is what can go stale; prose
words, keyword arguments of other calls, the body of a `.. note::` and raw HTML are not. The
evidence names the commit and the day the definition lost the name, also when the word itself
stays elsewhere in that commit's diff (`theme.styles`). The doc's side is when the claim's line was
last written (blame), not the doc's last commit. The rules are described in docs/doc-claims.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sextant.doc_claims import ClaimFinding, DocCheckReport, check_repository
from sextant.doc_claims.judging.signatures import parameter_names

from ..conftest import GitRepo

CONSOLE_BEFORE = """\
class Console:
    def __init__(self, styles=None, width=80):
        self.styles = styles
        self.width = width

    def print(self, text, style=None):
        return text


class Syntax:
    def __init__(self, code, style=None):
        self.code = code


class Layout:
    def split(self, *layouts, direction=None):
        return layouts


class Live:
    def __init__(self, renderable, item=None):
        self.renderable = renderable

    @property
    def item(self):
        return self.renderable


class Session:
    def request(self, method, url, headers=None):
        return url
"""
CONSOLE_AFTER = """\
class Console:
    def __init__(self, theme=None, width=80):
        self.theme = theme
        self.styles = theme.styles if theme else {}
        self.width = width

    def print(self, text, style=None):
        return text


class Syntax:
    def __init__(self, code, theme=None):
        self.code = code


class Layout:
    def split(self, *layouts, splitter="column"):
        return layouts


class Live:
    def __init__(self, renderable):
        self.renderable = renderable


class Session:
    def request(self, method, url, **kwargs):
        return self.transport.send(method, url, **kwargs)
"""

STYLES_DOC = """\
Styles
======

You can define a mapping of names to styles in the :class:`~acme.console.Console`
constructor. Here's an example::

    styles = {"info": "dim cyan"}
    console = Console(styles=styles)
"""
LAYOUT_DOC = """\
Layout
======

Split a region with :meth:`~acme.console.Layout.split`::

    layout.split(
        Layout(name="left"),
        Layout(name="right"),
        direction="horizontal",
    )
"""
PRINTING_DOC = """\
Printing
========

Print with a style, for instance::

    console.print("FOO", style="white on blue")
    style = "bold"
    console.print(Syntax(code), style)

Rich objects such as :class:`~acme.console.Syntax` can be printed too. Each keeps its own style
of rendering, which the prose here describes in plain words.

.. raw:: html

    <pre style="font-family:Menlo"><span style="color: red">x</span></pre>
"""
LIVE_DOC = """\
Live
====

Pass a renderable to :class:`~acme.console.Live` and it is shown until the context ends.

.. note::

    With a file console only the last item is shown once the live context is left.

Last frame
~~~~~~~~~~

When the display stops, its last item stays on the terminal.
"""
REQUESTS_DOC = """\
Requests
========

Send one with :meth:`~acme.console.Session.request`::

    session.request("GET", url, headers={"Accept": "text/html"})
"""

LIVE_HISTORY_DOC = """\
Live display
============

A :class:`~acme.console.Live` display shows its renderable. The ``item`` property has been removed
and should no longer be used.
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("outdated") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/console.py", CONSOLE_BEFORE)
    docs = {
        "docs/style.rst": STYLES_DOC,
        "docs/layout.rst": LAYOUT_DOC,
        "docs/printing.rst": PRINTING_DOC,
        "docs/live.rst": LIVE_DOC,
        "docs/requests.rst": REQUESTS_DOC,
        "docs/live-display.rst": LIVE_HISTORY_DOC,
        # Two sentences: the lost name is in the second, which is not about the claim of the first.
        "docs/terminal.rst": "A :class:`~acme.console.Console` writes to the terminal. Colours come from ``styles``.\n",
    }
    for path, text in docs.items():
        repo.write(path, text)
    repo.commit("Console, layout and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/console.py", CONSOLE_AFTER)
    # Written with the change itself: the line knows `direction` is gone.
    repo.write("docs/splitting.rst", "Call :meth:`~acme.console.Layout.split` with ``splitter`` (not ``direction``).\n")
    repo.commit("Themes replace styles; splitter replaces direction", date="2024-03-05T09:00:00+00:00")
    # A later edit of another line of the doc: the claim's own line is still from January.
    repo.write("docs/style.rst", STYLES_DOC + "\nSee also the colour guide.\n")
    repo.commit("Docs: point to the colour guide", date="2024-04-01T09:00:00+00:00")
    return check_repository(repo.root)


def _finding(report: DocCheckReport, doc: str, ref: str) -> ClaimFinding:
    return next(f for f in report.findings if f.doc == doc and f.ref == ref)


def test_a_parameter_the_docs_code_sample_passes_is_outdated_with_commit_and_day(report: DocCheckReport) -> None:
    # The doc was edited after the change, but not this line: the line's own date is the doc's side.
    found = _finding(report, "docs/style.rst", "~acme.console.Console")
    assert found.status == "outdated"
    # The commit's diff still holds the word (`theme.styles`): the parameter form is what left.
    assert found.changed is not None
    assert found.changed.startswith("Console.__init__ lost parameter styles on 2024-03-05, commit ")
    assert "'Themes replace styles; splitter replaces direction' (doc line last changed 2024-01-02)" in found.changed


def test_a_keyword_of_a_call_spanning_sample_lines_is_read_as_one_call(report: DocCheckReport) -> None:
    found = _finding(report, "docs/layout.rst", "~acme.console.Layout.split")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("Layout.split lost parameter direction on 2024-03-05")


def test_another_calls_keyword_prose_words_and_raw_html_do_not_make_an_alarm(report: DocCheckReport) -> None:
    # Syntax lost `style`; near it the doc says style only as print's keyword, as a sample's own
    # variable, in prose and in HTML.
    assert _finding(report, "docs/printing.rst", "~acme.console.Syntax").status == "verified"


def test_the_body_of_a_note_and_a_section_under_tildes_are_prose(report: DocCheckReport) -> None:
    # Live lost member and parameter `item`; the doc says "item" only in a note's prose and in the
    # prose of a section whose heading is underlined with tildes (not a `~~~` code fence).
    assert _finding(report, "docs/live.rst", "~acme.console.Live").status == "verified"


def test_a_parameter_list_that_now_takes_any_keyword_may_still_take_the_dropped_one(report: DocCheckReport) -> None:
    # request(method, url, headers=None) became request(method, url, **kwargs), passed on to a
    # transport this repository does not define: headers may go there.
    assert _finding(report, "docs/requests.rst", "~acme.console.Session.request").status == "verified"


def test_a_line_written_in_the_commit_that_made_the_change_is_not_outdated(report: DocCheckReport) -> None:
    assert _finding(report, "docs/splitting.rst", "~acme.console.Layout.split").status == "verified"


def test_a_lost_name_the_doc_tells_as_history_is_no_alarm(report: DocCheckReport) -> None:
    # "The ``item`` property has been removed": the doc already says what changed.
    assert _finding(report, "docs/live-display.rst", "~acme.console.Live").status == "verified"


def test_a_comment_inside_a_parameter_list_hides_no_parameter() -> None:
    signature = "def __init__(self, id, backend=None,\n        task_name=None,  # deprecated\n        app=None):"
    assert parameter_names(signature, "__init__") == ["id", "backend", "task_name", "app"]


def test_strings_inside_a_parameter_list_hide_no_parameter() -> None:
    signature = 'def command(self, name: Annotated[str, Doc("The name (if any), or none")] = "", url="http://a#b"):'
    assert parameter_names(signature, "command") == ["name", "url"]


def test_the_commit_named_is_the_one_that_dropped_the_parameter_not_a_use_of_it(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/pool.py", "class Pool:\n    def connect(self, host, retries=3):\n        self.tries = retries\n")
    repo.write("docs/pool.md", "Call `Pool.connect(host, retries)` to connect.\n")
    repo.commit("Pool and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/pool.py", "class Pool:\n    def connect(self, host, retries=3):\n        self.tries = 1\n")
    repo.commit("Ignore retries (deprecated)", date="2024-06-01T10:00:00+00:00")
    repo.write("acme/pool.py", "class Pool:\n    def connect(self, host):\n        self.tries = 1\n")
    repo.commit("Remove the retries parameter", date="2024-09-01T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/pool.md")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("Pool.connect lost parameter retries on 2024-09-01, commit ")
    assert "'Remove the retries parameter'" in found.changed


def test_a_span_of_another_sentence_is_not_about_the_claim(report: DocCheckReport) -> None:
    assert _finding(report, "docs/terminal.rst", "~acme.console.Console").status == "verified"


def test_sphinx_optional_brackets_in_a_directive_mark_parameters(tmp_path: Path) -> None:
    # `.. autofunction:: connect(host, [retries=3, timeout])`: the brackets say "optional", the
    # names inside are still parameters the doc lists.
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/pool.py", "def connect(host, retries=3, timeout=None):\n    return host\n")
    repo.write("docs/pool.rst", "Pool\n====\n\n.. autofunction:: acme.pool.connect(host, [retries=3, timeout])\n")
    repo.commit("Pool and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/pool.py", "def connect(host, timeout=None):\n    return host\n")
    repo.commit("Remove the retries parameter", date="2024-09-01T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/pool.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("connect lost parameter retries on 2024-09-01")


def test_a_name_on_a_directives_continuation_line_is_dated_by_that_line(tmp_path: Path) -> None:
    # The directive's first line is from 2015; `response_factory` was added on its continuation
    # line in 2016, when the method gained it, and the method lost it in 2017.
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write(
        "acme/router.py", "class Router:\n    def add_static(self, prefix, path, *, name=None):\n        return name\n"
    )
    first = ".. method:: acme.router.Router.add_static(prefix, path, *, name=None, \\\n"
    repo.write("docs/router.rst", "Router\n======\n\n" + first + "                          show_index=False)\n")
    repo.commit("Router and docs", date="2015-05-23T10:00:00+00:00")
    repo.write(
        "acme/router.py",
        "class Router:\n    def add_static(self, prefix, path, *, name=None, response_factory=None,\n"
        "                   show_index=False):\n        return name\n",
    )
    repo.write(
        "docs/router.rst",
        "Router\n======\n\n" + first + "                          response_factory=StreamResponse, \\\n"
        "                          show_index=False)\n",
    )
    repo.commit("add_static takes response_factory", date="2016-09-28T10:00:00+00:00")
    repo.write(
        "acme/router.py",
        "class Router:\n    def add_static(self, prefix, path, *, name=None, show_index=False):\n        return name\n",
    )
    repo.commit("Drop unused response_factory", date="2017-10-08T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/router.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("Router.add_static lost parameter response_factory on 2017-10-08")
    assert "(doc line last changed 2016-09-28)" in found.changed


def test_a_name_on_a_directives_old_line_keeps_its_date_when_another_line_is_newer(tmp_path: Path) -> None:
    # `reader` is on the directive's 2016 line; another of its lines was rewritten after `reader`
    # was dropped (2017): the 2016 line still says `reader`.
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/testing.py", "def make_request(method, path, *, reader=None, app=None):\n    return path\n")
    first = ".. function:: acme.testing.make_request(method, path, *, reader=None, \\\n"
    repo.write("docs/testing.rst", "Testing\n=======\n\n" + first + "                                  app=None)\n")
    repo.commit("Testing helpers and docs", date="2016-11-24T10:00:00+00:00")
    repo.write("acme/testing.py", "def make_request(method, path, *, app=None):\n    return path\n")
    repo.commit("Cleanup request attributes", date="2017-02-13T10:00:00+00:00")
    repo.write(
        "acme/testing.py", "def make_request(method, path, *, app=None, client_max_size=1024):\n    return path\n"
    )
    repo.write(
        "docs/testing.rst",
        "Testing\n=======\n\n" + first + "                                  app=None, client_max_size=1024)\n",
    )
    repo.commit("client_max_size", date="2018-01-10T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/testing.rst")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("make_request lost parameter reader on 2017-02-13")
    assert "(doc line last changed 2016-11-24)" in found.changed


def test_an_attribute_a_sample_reads_is_a_member_not_a_lost_constructor_parameter(tmp_path: Path) -> None:
    # Application lost its `router` parameter but keeps the `router` property the sample reads.
    repo = GitRepo(tmp_path / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    code = "class Application:\n    def __init__(self, *, router=None, debug=False):\n        self._router = router\n"
    prop = "\n    @property\n    def router(self):\n        return self._router\n"
    repo.write("acme/web.py", code + prop)
    doc = "Apps\n====\n\n:class:`acme.web.Application` holds the routes::\n\n"
    doc += "    app = make_app()\n    app.router.add_get('/', go)\n"
    repo.write("docs/apps.rst", doc)
    repo.commit("Application and docs", date="2018-05-27T10:00:00+00:00")
    code = "class Application:\n    def __init__(self, *, debug=False):\n        self._router = Router()\n"
    repo.write("acme/web.py", code + prop)
    repo.commit("Drop custom router support", date="2019-01-16T10:00:00+00:00")
    found = next(f for f in check_repository(repo.root).findings if f.doc == "docs/apps.rst")
    assert found.status == "verified"
