"""A member of a module one of our packages no longer has: history, not an example's mention, decides."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

_OLD_MODULE = "MSG_CLOSE = 8\nMSG_PING = 9\n\n\nclass Message:\n    def __init__(self, tp):\n        self.tp = tp\n"
_DOC = (
    "WebSockets\n==========\n\n"
    "The server answers :const:`~acme.websocket.MSG_PING` by itself.\n\n"
    "Every frame arrives as a :class:`~acme.websocket.Message`.\n\n"
    "Opcodes are listed in :const:`acme.frames.OPCODES`.\n\n"
    "The fast parser is :func:`acme._speedups.parse_frame`.\n\n"
    "Scale workers with :class:`acme.autoscaler.Autoscaler`.\n"
)


def test_a_member_of_a_deleted_module_is_contradicted_though_an_example_still_mentions_it(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from .protocol import *  # noqa\n")
    git_repo.write("acme/protocol.py", "class HttpMessage:\n    websocket = False  # Upgrade: websocket\n")
    git_repo.write("acme/websocket.py", _OLD_MODULE)
    git_repo.write("acme/_speedups.pyx", "def parse_frame(data):\n    return data\n")
    git_repo.write("acme/autoscale.py", "class Autoscaler:\n    pass\n")
    git_repo.write(
        "examples/legacy/echo.py",
        "import acme.websocket\n\n\ndef on_frame(msg):\n"
        "    if msg.tp == acme.websocket.MSG_PING:\n        return acme.websocket.Message(msg.tp)\n",
    )
    git_repo.write("docs/websockets.rst", _DOC)
    git_repo.commit("Start", date="2016-01-04T10:00:00+00:00")
    git_repo.remove("acme/websocket.py")
    git_repo.write(
        "acme/_ws_impl.py",
        "import enum\n\n\nclass WSMsgType(enum.IntEnum):\n    close = 8\n    ping = 9\n\n\n"
        "class WSMessage:\n    pass\n",
    )
    git_repo.commit("WebSocket internal implementation refactoring", date="2016-07-31T10:00:00+00:00")
    for day in range(1, 6):
        git_repo.write("acme/version.py", f"VERSION = '0.{day}'\n")
        git_repo.commit(f"Bump 0.{day}", date=f"2016-08-{day:02d}T10:00:00+00:00")

    by_ref = {f.ref.lstrip("~"): f for f in check_repository(git_repo.root).findings}
    ping = by_ref["acme.websocket.MSG_PING"]
    assert ping.status == "contradicted"  # before: verified, "named in examples/legacy/echo.py"
    assert "removed by" in ping.evidence
    assert "WebSocket internal implementation refactoring" in ping.evidence
    message = by_ref["acme.websocket.Message"]
    assert message.status == "contradicted"
    assert "acme/websocket.py" in message.evidence
    assert by_ref["acme.frames.OPCODES"].status == "unverifiable"  # a module history never had: not ours to call
    assert by_ref["acme._speedups.parse_frame"].status != "contradicted"  # a compiled module's source is there
    moved = by_ref["acme.autoscaler.Autoscaler"]  # before: verified, the bare class exists elsewhere
    assert moved.status == "contradicted"
    assert moved.evidence.startswith("package acme (acme/) has no module autoscaler; class Autoscaler is defined in")


def test_a_module_the_package_binds_is_not_called_missing(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from . import _ws_impl as websocket\n")
    git_repo.write("acme/_ws_impl.py", "MSG_PING = 9\n")
    git_repo.write("docs/websockets.rst", "WebSockets\n==========\n\nSee :const:`acme.websocket.MSG_PING`.\n")
    git_repo.commit("Start", date="2016-01-04T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    assert by_ref["acme.websocket.MSG_PING"].status != "contradicted"


def test_a_module_attribute_set_at_run_time_is_not_missing(git_repo: GitRepo) -> None:
    git_repo.write("src/acme/__init__.py", '"""Acme."""\n')
    git_repo.write("src/acme.py", "from acme.main import Session\n\n__all__ = ['Session']\n")
    git_repo.write(
        "src/acme/main.py",
        "class Session:\n    pass\n\n\ndef acme_configure(config):\n"
        '    __import__("acme").config = config  # compatibility\n',
    )
    git_repo.write(
        "docs/deprecations.rst",
        "Deprecations\n============\n\nThe ``acme.config`` global is deprecated; ``acme.settings`` was removed.\n",
    )
    git_repo.commit("Start", date="2019-01-04T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    assert by_ref["acme.config"].status == "verified"  # before: "module acme has no config"
    assert "at run time" in by_ref["acme.config"].evidence
    assert by_ref["acme.settings"].status != "verified"


def test_the_placeholders_of_a_call_written_as_a_template_are_the_docs_own(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "from .raising import raises\n")
    git_repo.write("acme/raising.py", "def raises(expected, *args, **kwargs):\n    pass\n")
    git_repo.write(
        "docs/assert.rst",
        "Asserting\n=========\n\nYou may also write::\n\n    acme.raises(ExpectedException, func, *args, **kwargs)\n\n"
        "which calls the function and asserts that the given ``ExpectedException`` is raised.\n",
    )
    git_repo.commit("Start", date="2015-01-04T10:00:00+00:00")
    git_repo.write("acme/raising.py", "class ExpectedException(Exception):\n    pass\n\n\ndef raises(e):\n    pass\n")
    git_repo.commit("Add an exception", date="2015-02-04T10:00:00+00:00")
    git_repo.write("acme/raising.py", "def raises(expected, *args, **kwargs):\n    pass\n")
    git_repo.commit("Drop it", date="2015-03-04T10:00:00+00:00")

    refs = {f.ref: f.status for f in check_repository(git_repo.root).findings}
    assert refs.get("ExpectedException") != "contradicted"  # before: removed by 'Drop it'


def test_a_folder_with_an_empty_init_file_is_a_package_whose_modules_are_looked_in(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/bin/__init__.py", "")  # empty: never indexed, still a package
    git_repo.write("acme/bin/base.py", "class Command:\n    def run(self):\n        pass\n")
    git_repo.write("acme/app/__init__.py", "")
    git_repo.write("acme/app/defaults.py", "class Option:\n    pass\n")
    git_repo.write(
        "docs/signals.rst",
        "Signals\n=======\n\nAdd options with :class:`acme.bin.base.Option`; "
        "commands subclass :class:`~acme.bin.base.Command`.\n",
    )
    git_repo.commit("Start", date="2019-01-04T10:00:00+00:00")
    git_repo.write("acme/bin/base.py", "import click\n\n\ndef cli():\n    pass\n")
    git_repo.commit("Use click for the command line", date="2020-08-19T10:00:00+00:00")

    by_ref = {f.ref.lstrip("~"): f for f in check_repository(git_repo.root).findings}
    option = by_ref["acme.bin.base.Option"]
    assert option.status == "contradicted"  # before: verified, a class Option exists in acme/app/defaults.py
    assert option.evidence.startswith("module acme.bin.base (acme/bin/base.py) has no Option")
    command = by_ref["acme.bin.base.Command"]
    assert command.status == "contradicted"
    assert "Use click for the command line" in command.evidence


def test_a_module_made_at_run_time_or_a_lower_case_member_is_no_stale_qualifier(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write(
        "acme/local.py",
        "import sys\nfrom types import ModuleType\n\n"
        "COMPAT_MODULES = {'acme': {'messaging': {'Consumer': 'amqp.Consumer'}}}\n\n\n"
        "def recreate(name):\n    sys.modules[name] = ModuleType(name)\n",
    )
    git_repo.write("acme/amqp.py", "class Consumer:\n    pass\n")
    git_repo.write("acme/bin/__init__.py", "")
    git_repo.write("acme/bin/control.py", "class inspect:\n    pass\n")
    git_repo.write("acme/task/__init__.py", '"""Tasks."""\n')
    git_repo.write(
        "docs/compat.rst",
        "Compat\n======\n\nUse :class:`acme.messaging.Consumer`; ask :class:`acme.task.control.inspect`.\n",
    )
    git_repo.commit("Start", date="2019-01-04T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    assert by_ref["acme.messaging.Consumer"].status != "contradicted"  # the package makes `messaging` at run time
    assert by_ref["acme.task.control.inspect"].status != "contradicted"  # a lower-case class: too often a function
