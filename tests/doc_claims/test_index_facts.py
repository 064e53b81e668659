"""Names the code has though no file writes them whole, and definitions a doc about the library means.

Each test builds a small git repository shaped like a real project's case and judges it as
`sextant docs-check` does: setting names a configuration module forms from templates and the keys of
a nested table, upper-cased; a module that replaces itself at import and a class of another module;
an enum base; a dotted name a string template forms. Each test also keeps a real finding beside what
it clears.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {finding.ref: finding for finding in check_repository(git_repo.root).findings}


OLD_CONF = """\
ACME_IMPORTS = ()
ACMED_CONCURRENCY = 4
ACMED_REDIRECT_LEVEL = 'WARNING'
ACMED_OLD_TIMER = None
BROKER_CONNECTION_TIMEOUT = 4
ACME_TASK_SEND_SENT_EVENT = False
"""
DEFAULTS = """\
from collections import deque

OLD_NS = {'acme_{0}'}
OLD_NS_WORKER = {'acmed_{0}'}


def Namespace(__old__=None, **options):
    if __old__ is not None:
        for key, opt in options.items():
            if not opt.old:
                opt.old = {o.format(key) for o in __old__}
    return options


class Option:
    old = set()

    def __init__(self, default=None, **kwargs):
        self.default = default
        for attr, value in kwargs.items():
            setattr(self, attr, value)


NAMESPACES = Namespace(
    imports=Option((), old=OLD_NS),
    broker=Namespace(
        connection_timeout=Option(4),
        connection_retry=Option(True),
    ),
    task=Namespace(
        __old__=OLD_NS,
        send_sent_event=Option(False, old={'acme_send_task_sent_event'}),
    ),
    worker=Namespace(
        __old__=OLD_NS_WORKER,
        concurrency=Option(0),
        redirect_level=Option(
            'WARNING', old={'acme_redirect_level'},
        ),
    ),
)


def _to_compat(ns, key, opt):
    if opt.old:
        return [(oldkey.format(key).upper(), ns + key, opt) for oldkey in opt.old]
    return [((ns + key).upper(), ns + key, opt)]


def flatten(d, root='', keyfilter=_to_compat):
    stack = deque([(root, d)])
    while stack:
        ns, options = stack.popleft()
        for key, opt in options.items():
            if isinstance(opt, dict):
                stack.append((ns + key + '_', opt))
            else:
                yield from keyfilter(ns, key, opt)
"""
SETTINGS_DOC = """\
# Settings

Old setting names are still accepted:

| Setting name | Replace with |
|---|---|
| `ACME_IMPORTS` | `imports` |
| `ACMED_CONCURRENCY` | `worker_concurrency` |
| `BROKER_CONNECTION_TIMEOUT` | `broker_connection_timeout` |
| `ACME_SEND_TASK_SENT_EVENT` | `task_send_sent_event` |
| `ACMED_REDIRECT_LEVEL` | `worker_redirect_level` |
| `ACMED_OLD_TIMER` | `worker_timer` |
"""


def test_setting_names_a_module_forms_from_templates_and_table_keys_are_the_code_s(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Settings module",
        {"acme/__init__.py": '"""Acme."""\n', "acme/conf.py": OLD_CONF, "README.md": "# acme\n"},
        date="2020-01-04T10:00:00+00:00",
    )
    git_repo.remove("acme/conf.py")
    git_repo.write("acme/defaults.py", DEFAULTS)
    git_repo.write("docs/settings.md", SETTINGS_DOC)
    git_repo.commit("Lowercase settings, old names still accepted", date="2022-03-01T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    # `'acme_{0}'` filled with a key, a nested table's namespace joined to its key, a literal old
    # name: all upper-cased by the module, so the doc names settings the code accepts.
    for name in ("ACME_IMPORTS", "ACMED_CONCURRENCY", "BROKER_CONNECTION_TIMEOUT", "ACME_SEND_TASK_SENT_EVENT"):
        assert found[name].status == "verified", (name, found[name].evidence)
    assert "acme/defaults.py" in found["ACMED_CONCURRENCY"].evidence
    # A key whose entry writes its own old name (`old={'acme_redirect_level'}`) takes no template's
    # name, and a setting no template or table forms is still gone.
    assert found["ACMED_REDIRECT_LEVEL"].status == "contradicted", found["ACMED_REDIRECT_LEVEL"].evidence
    assert found["ACMED_OLD_TIMER"].status == "contradicted", found["ACMED_OLD_TIMER"].evidence


def test_a_module_that_never_upper_cases_forms_no_setting_names(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Settings module",
        {"acme/__init__.py": '"""Acme."""\n', "acme/conf.py": OLD_CONF, "README.md": "# acme\n"},
        date="2020-01-04T10:00:00+00:00",
    )
    git_repo.remove("acme/conf.py")
    git_repo.write("acme/defaults.py", DEFAULTS.replace(".upper()", ""))
    git_repo.write("docs/settings.md", SETTINGS_DOC)
    git_repo.commit("Lowercase settings, old names dropped", date="2022-03-01T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    assert found["ACMED_CONCURRENCY"].status == "contradicted", found["ACMED_CONCURRENCY"].evidence
    assert found["BROKER_CONNECTION_TIMEOUT"].status == "contradicted"


FIVE_PY = """\
import sys

import vendored.five

sys.modules[__name__] = vendored.five
"""
CONTROL_BIN = """\
class control:
    def call(self, method):
        return method
"""
CONTROL_APP = """\
class Control:
    def inspect(self):
        return self
"""
COMPAT_DOC = """\
# Compatibility

Time tasks with `acme.five.monotonic`; inspect workers with `acme.tasks.control.inspect`.
`acme.bin.control.control.call` sends a command and `acme.bin.control.control.shout` is gone.
"""


def test_a_module_replacing_itself_and_a_class_of_another_module_are_not_contradicted(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Compat modules",
        {
            "acme/__init__.py": '"""Acme."""\n',
            "acme/five.py": FIVE_PY,
            "acme/tasks/__init__.py": "from acme.local import recreate_module\n",
            "acme/bin/__init__.py": '"""Programs."""\n',
            "acme/bin/control.py": CONTROL_BIN,
            "acme/app/__init__.py": '"""The app."""\n',
            "acme/app/control.py": CONTROL_APP,
            "docs/compat.md": COMPAT_DOC,
        },
    )

    found = findings_by_ref(git_repo)

    # `sys.modules[__name__] = …`: the module is another at import, which may hold any name.
    assert found["acme.five.monotonic"].status == "verified", found["acme.five.monotonic"].evidence
    # `control` after `acme.tasks` is none of that module's classes: not `acme/bin/control.py`'s class.
    inspect = found["acme.tasks.control.inspect"]
    assert inspect.status != "contradicted", inspect.evidence
    # The class under its own module is still held to its members.
    assert found["acme.bin.control.control.call"].status == "verified"
    assert found["acme.bin.control.control.shout"].status == "contradicted"


CLOSE_CODES_PY = """\
from enum import IntEnum

from .vendor import LegacyCodes


class WSCloseCode(IntEnum):
    OK = 1000
    MESSAGE_TOO_BIG = 1009


class HTTPCodes(LegacyCodes):
    NOT_FOUND = 404
"""
CLOSE_CODES_DOC = """\
# Close codes

`WSCloseCode.MESSAGE_TOO_BIG` and its `WSCloseCode.value`; `WSCloseCode.message_too_big` is the old
spelling. `HTTPCodes.gone` may be the vendored base's.
"""


def test_an_enum_base_supplies_only_its_own_members(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Close codes",
        {"acme/__init__.py": '"""Acme."""\n', "acme/codes.py": CLOSE_CODES_PY, "docs/codes.md": CLOSE_CODES_DOC},
    )

    found = findings_by_ref(git_repo)

    assert found["WSCloseCode.MESSAGE_TOO_BIG"].status == "verified"
    assert found["WSCloseCode.value"].status == "verified", found["WSCloseCode.value"].evidence
    # IntEnum gives `name` and `value`, not a lower-case twin of a member: the doc is behind.
    assert found["WSCloseCode.message_too_big"].status == "contradicted", found["WSCloseCode.message_too_big"].evidence
    # Any other base from elsewhere may still supply anything.
    assert found["HTTPCodes.gone"].status == "unverifiable", found["HTTPCodes.gone"].evidence


COMMANDS_PY = """\
from importlib.metadata import entry_points


class CeleryCommand:
    ext_fmt = '{self.namespace}.commands'

    def load_extensions(self):
        return entry_points(group=self.ext_fmt.format(self=self))
"""
EXTENDING_DOC = """\
# Extending

Register a sub-command in the `acme.commands` entry-point group; `acme.plugins` is gone.
"""


def test_a_dotted_name_a_string_template_forms_under_our_root_is_named(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Commands",
        {"acme/__init__.py": '"""Acme."""\n', "acme/bin/__init__.py": '"""Programs."""\n'}
        | {"acme/bin/acme.py": COMMANDS_PY, "docs/extending.md": EXTENDING_DOC},
    )

    found = findings_by_ref(git_repo)

    commands = found["acme.commands"]
    assert commands.status == "verified", commands.evidence
    assert "{}.commands" in commands.evidence
    assert found["acme.plugins"].status == "contradicted"
