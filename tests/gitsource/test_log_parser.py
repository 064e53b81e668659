"""The streaming git-log parser on fixed output, split at every possible byte boundary."""

from __future__ import annotations

import pytest

from sextant.gitsource.log_parser import LogFormatError, NameStatusParser

SHA = {name: (name * 40)[:40].encode() for name in "abcdef"}


def header(name: str, time: int) -> bytes:
    return b"\x01" + SHA[name] + b" " + str(time).encode() + b"\0"


def commit(name: str, time: int, *pairs: tuple[str, bytes]) -> bytes:
    """One commit's header and its name-status block."""
    return header(name, time) + entries(*pairs)


def entries(*pairs: tuple[str, bytes]) -> bytes:
    """The name-status block of one commit: a newline, then NUL-terminated status/path tokens."""
    body = b"".join(status.encode() + b"\0" + path + b"\0" for status, path in pairs)
    return b"\n" + body


def parse(log: bytes, wanted: set[bytes] | None, boundary: frozenset[bytes] = frozenset()) -> NameStatusParser:
    parser = NameStatusParser(wanted, boundary)
    parser.feed(log)
    parser.finish()
    return parser


def test_newest_first_sighting_wins_for_adds_and_modifies() -> None:
    log = (
        commit("a", 300, ("M", b"src/app.py"))
        + commit("b", 200, ("M", b"src/app.py"), ("A", b"README.md"))
        + commit("c", 100, ("A", b"src/app.py"), ("A", b"old.txt"))
    )
    parser = parse(log, {b"src/app.py", b"README.md", b"old.txt"})
    assert parser.first_seen == {b"src/app.py": b"300", b"README.md": b"200", b"old.txt": b"100"}
    assert parser.commits_read == 3


def test_merge_commits_carry_no_entries() -> None:
    # git log --diff-merges=off prints a merge as a bare header; the side commit dates the file.
    log = header("a", 500) + commit("b", 400, ("M", b"feature.py")) + commit("c", 300, ("M", b"main.py"))
    parser = parse(log, {b"feature.py", b"main.py"})
    assert parser.first_seen == {b"feature.py": b"400", b"main.py": b"300"}
    assert parser.commits_read == 3


def test_deletion_and_re_addition() -> None:
    log = (
        commit("a", 300, ("A", b"back.txt"))
        + commit("b", 200, ("D", b"back.txt"))
        + commit("c", 100, ("A", b"back.txt"))
    )
    assert parse(log, {b"back.txt"}).first_seen == {b"back.txt": b"300"}


def test_deleted_paths_outside_the_tree_are_not_kept() -> None:
    log = commit("a", 200, ("D", b"gone.txt")) + commit("b", 100, ("A", b"gone.txt"))
    assert parse(log, {b"kept.txt"}).first_seen == {}


def test_boundary_commit_entries_are_ignored() -> None:
    # A shallow boundary lists every file as added: those files are older than the window.
    log = commit("a", 300, ("M", b"recent.txt")) + commit("b", 200, ("A", b"recent.txt"), ("A", b"ancient.txt"))
    parser = parse(log, {b"recent.txt", b"ancient.txt"}, frozenset({SHA["b"]}))
    assert parser.first_seen == {b"recent.txt": b"300"}
    assert not parser.complete


def test_rename_and_copy_entries_date_the_new_path_only() -> None:
    log = (
        header("a", 300)
        + b"\nR100\0old/name.py\0new/name.py\0C75\0orig.py\0copy.py\0"
        + commit("b", 100, ("A", b"orig.py"))
    )
    parser = parse(log, None)
    assert parser.first_seen == {b"new/name.py": b"300", b"copy.py": b"300", b"orig.py": b"100"}


def test_weird_paths_come_out_byte_exact() -> None:
    weird = [b"with space.txt", b'quote"d.txt', b"new\nline.txt", "ünïcode/日本.md".encode(), b"\xff\xfe.bin"]
    weird.append(b"\x01looks-like-a-header")
    weird.append(b"\nstarts-with-newline")
    log = commit("a", 100, *[("A", path) for path in weird])
    assert parse(log, set(weird)).first_seen == dict.fromkeys(weird, b"100")


def test_any_chunking_gives_the_same_result() -> None:
    log = (
        commit("a", 300, ("M", b"a b"), ("D", b"x"))
        + header("b", 250)
        + header("c", 200)
        + b"\nR090\0p\0q\0"
        + commit("d", 100, ("A", b"a b"), ("A", b"p"), ("A", b"x"))
    )
    expected = parse(log, None).first_seen
    for cut in range(1, len(log)):
        parser = NameStatusParser(None)
        parser.feed(log[:cut])
        parser.feed(log[cut:])
        parser.finish()
        assert parser.first_seen == expected, cut
        assert parser.commits_read == 4


def test_complete_once_every_wanted_path_is_dated() -> None:
    parser = NameStatusParser({b"one"})
    parser.feed(commit("a", 100, ("A", b"one")))
    assert parser.complete


@pytest.mark.parametrize(
    "log",
    [
        b"\x01" + SHA["a"] + b" notatime\0",
        header("a", 1) + b"\nZ\0path\0",
        header("a", 1) + b"\nM\0",
    ],
)
def test_malformed_output_is_an_error(log: bytes) -> None:
    def parse_all() -> None:
        parser = NameStatusParser(None)
        parser.feed(log)
        parser.finish()

    with pytest.raises(LogFormatError):
        parse_all()


def test_truncated_output_is_an_error() -> None:
    parser = NameStatusParser(None)
    parser.feed(header("a", 1) + b"\nM\0unterminated")
    with pytest.raises(LogFormatError):
        parser.finish()
