"""private_folder: the one rule every data folder is created by, on real folders with umask 022."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from sextant.config import PrivateFolderError, private_folder, try_lock_file


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_missing_folders_are_created_owner_only_parents_included(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"

    assert private_folder(home) == home

    assert (_mode(tmp_path / "new"), _mode(home)) == (0o700, 0o700)


def test_a_loose_folder_keeps_its_owner_bits_and_loses_the_rest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o775)

    with caplog.at_level(logging.WARNING):
        private_folder(shared)
        private_folder(shared)  # already private: nothing to say the second time

    assert _mode(shared) == 0o700
    assert [record.getMessage() for record in caplog.records] == [
        f"{shared} was open to other users (mode 775); made it owner-only (700)"
    ]


def test_a_file_where_the_folder_should_be_is_refused_and_left_alone(tmp_path: Path) -> None:
    taken = tmp_path / "home"
    taken.write_text("notes\n")
    taken.chmod(0o644)

    with pytest.raises(PrivateFolderError, match="is not a folder"):
        private_folder(taken)
    with pytest.raises(PrivateFolderError, match="cannot create the data folder"):
        private_folder(taken / "nats")
    assert (taken.read_text(), _mode(taken)) == ("notes\n", 0o644)


def test_a_lock_files_folder_is_made_private(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    store.chmod(0o755)

    descriptor = try_lock_file(store / "server.lock")
    assert descriptor is not None
    os.close(descriptor)

    assert (_mode(store), _mode(store / "server.lock")) == (0o700, 0o600)
