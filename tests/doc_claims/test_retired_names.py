"""Old names the code lists as gone (`V2_REMOVED_KEYS`, a renaming dict) contradict a doc presenting them."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.retired_names import retired_names

from ..conftest import GitRepo

_CONFIG = '''"""Model configuration."""

V2_REMOVED_KEYS = {
    'allow_mutation',  # use frozen
    "error_msg_templates",
    'smart_union',
    'copy_on_model_validation',
}
V2_RENAMED_KEYS = {
    'orm_mode': 'from_attributes',
    'validate_all': 'validate_default',
}
DEPRECATED_KEYS = ('json_encoders',)


class ConfigWrapper:
    def __init__(self, config):
        removed = V2_REMOVED_KEYS & config.keys()
        renamed = {k: V2_RENAMED_KEYS[k] for k in config if k in V2_RENAMED_KEYS}
        self.json_encoders = config.get('json_encoders')
        self.problems = (removed, renamed)


def error_msg_templates():
    return {}
'''

_DOC = """Model config
============

Set ``allow_mutation`` to ``False`` to make a model immutable, or ``orm_mode`` to read attributes.
``json_encoders`` customises serialisation; ``error_msg_templates`` overrides the messages.
Set ``smart_union`` for unions; ``copy_on_model_validation`` copies sub-models.
"""


def test_a_name_the_code_lists_as_removed_or_renamed_is_contradicted_though_the_code_names_it(
    git_repo: GitRepo,
) -> None:
    git_repo.write("acme/__init__.py", '"""Acme."""\n')
    git_repo.write("acme/_config.py", _CONFIG)
    git_repo.write("acme/fields.py", "def Field(**extra):\n    return extra.pop('copy_on_model_validation', None)\n")
    git_repo.write("acme/v1/__init__.py", "")
    git_repo.write("acme/v1/config.py", "FIELDS = ('smart_union', 'orm_mode')\n")  # the vendored old major
    git_repo.write("docs/config.rst", _DOC)
    git_repo.commit("Start", date="2023-06-01T10:00:00+00:00")

    by_ref = {f.ref: f for f in check_repository(git_repo.root).findings}
    mutation = by_ref["allow_mutation"]
    assert mutation.status == "contradicted"  # before: verified, "named in acme/_config.py"
    assert mutation.evidence == "the code lists 'allow_mutation' in V2_REMOVED_KEYS of acme/_config.py: gone"
    orm = by_ref["orm_mode"]
    assert orm.status == "contradicted"
    assert orm.replacement == "from_attributes"
    assert by_ref["json_encoders"].status == "verified"  # deprecated is not gone
    assert by_ref["error_msg_templates"].status == "verified"  # listed, but the code defines it too
    assert by_ref["smart_union"].status == "contradicted"  # only the vendored old major still names it
    assert by_ref["copy_on_model_validation"].status == "verified"  # the library still reads it by name


def test_only_literal_collections_under_a_retiring_name_are_read() -> None:
    text = "REMOVED_NAMES = [name for name in OLD]\nRENAMED = {'a': 'b', 'c': 3}\nremoved = {'x'}\n"
    found = retired_names(text)
    assert set(found) == {"a", "c"}
    assert found["a"].replacement == "b"
    assert found["c"].replacement is None
