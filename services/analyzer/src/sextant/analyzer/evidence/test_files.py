"""Which indexed files are tests, by the naming conventions of the common test runners."""

from __future__ import annotations

import re

_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing", "e2e"})
_TEST_NAME = re.compile(
    r"^(test_.+\.py|.+_test\.(py|go|rs|exs?)|conftest\.py"
    r"|.+\.(test|spec)\.(js|jsx|ts|tsx|mjs|cjs)"
    r"|.+Tests?\.(java|kt|php|cs|swift)|.+_spec\.rb)$"
)


def is_test_path(path: str) -> bool:
    """Whether a path is a test file: under a test folder, or named like a test.

    Args:
        path: Repository path.

    Returns:
        True for `tests/…`, `src/__tests__/…`, `test_x.py`, `x_test.go`, `x.spec.ts`, `XTest.java`, ….
    """
    *folders, name = path.split("/")
    return any(folder.lower() in _TEST_FOLDERS for folder in folders) or _TEST_NAME.match(name) is not None
