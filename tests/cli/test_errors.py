"""Every mistake a person can fix ends in one line saying what to do, exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats
from sextant.cli.home_lock import HomeLock

from ..conftest import GitRepo
from .conftest import SextantRunner

SECRET = "s3cr3t-t0ken"
CREDENTIALED = f"https://user:{SECRET}@github.com/acme/widgets.git"


def assert_one_line_mistake(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for text in expected:
        assert text in lines[0]


@pytest.mark.parametrize(
    "command",
    [
        ("review", CREDENTIALED, "--base", "main", "--head", "feature"),
        ("index", CREDENTIALED),
        ("analyze", CREDENTIALED),
        ("publish", "repo-updated", CREDENTIALED),
        ("show", CREDENTIALED),
        ("recency", CREDENTIALED),
    ],
)
def test_a_url_with_credentials_is_refused_before_anything_is_published(
    sextant: SextantRunner, tmp_path: Path, command: tuple[str, ...]
) -> None:
    with EmbeddedNats(tmp_path / "nats") as server:
        refused = sextant(*command, check=False, NATS_URL=server.url)
        stored = sextant("events", "--json", NATS_URL=server.url).stdout
    assert_one_line_mistake(refused, "carries credentials", "GITHUB_TOKEN")
    assert SECRET not in refused.stderr + refused.stdout
    assert stored == ""  # nothing reached the stream


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"url": "https://github.com/a/b.git", ', "not valid JSON"),
        ('{"url": 5}', "wrong shape"),
        ('{"url": "https://github.com/a/b.git", "changed_paths": "src/a.py"}', "wrong shape"),
        ('{"url": "https://github.com/a/b.git", "chaged_paths": ["a.py"]}', "wrong shape"),
    ],
)
def test_a_bad_json_request_is_one_line(sextant: SextantRunner, tmp_path: Path, content: str, expected: str) -> None:
    request = tmp_path / "request.json"
    request.write_text(content)
    result = sextant("publish", "repo-updated", "--from-json", str(request), check=False, NATS_URL="nats://127.0.0.1:9")
    assert_one_line_mistake(result, expected)


def test_missing_files_are_one_line(sextant: SextantRunner, tmp_path: Path, git_repo: GitRepo) -> None:
    missing = str(tmp_path / "missing.json")
    assert_one_line_mistake(sextant("publish", "repo-updated", "--from-json", missing, check=False), "no such file")
    review = sextant("review", str(git_repo.root), "--diff", str(tmp_path / "missing.diff"), check=False)
    assert review.returncode == 2
    assert "does not exist" in review.stderr
    assert "Traceback" not in review.stderr


def test_unknown_local_repository_branch_and_ref(sextant: SextantRunner, tmp_path: Path, git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    repo = str(git_repo.root)
    assert_one_line_mistake(sextant("index", str(tmp_path / "nowhere"), check=False), "no such folder")
    plain = tmp_path / "plain"
    plain.mkdir()
    assert_one_line_mistake(sextant("analyze", str(plain), check=False), "not a git repository")
    assert_one_line_mistake(sextant("index", repo, "--branch", "nope", check=False), "no branch 'nope'")
    review = sextant("review", repo, "--base", "main", "--head", "no-such-ref", check=False)
    assert_one_line_mistake(review, "no-such-ref")


@pytest.fixture
def missing_http_repo(tmp_path: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 serving an empty folder: git's smart-HTTP discovery gets a 404."""
    empty = tmp_path / "served"
    empty.mkdir()

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(empty)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/acme/missing.git"
    finally:
        server.shutdown()
        server.server_close()


def test_an_unknown_remote_repository_is_one_line_before_anything_is_published(
    sextant: SextantRunner, tmp_path: Path, missing_http_repo: str
) -> None:
    missing_bare = f"file://{tmp_path / 'nowhere.git'}"
    with EmbeddedNats(tmp_path / "nats") as server:
        for command in (
            ("index", missing_bare),
            ("analyze", missing_http_repo),
            ("review", missing_http_repo, "--base", "main", "--head", "feature"),
            ("recency", missing_bare),
        ):
            result = sextant(*command, check=False, NATS_URL=server.url)
            assert_one_line_mistake(result, "cannot read the repository", command[1], "check the URL", "GIT_TOKEN")
        stored = sextant("events", "--json", NATS_URL=server.url).stdout
    assert stored == ""  # nothing reached the stream


def test_an_unknown_remote_branch_or_ref_is_one_line(sextant: SextantRunner, git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    git_repo.git("tag", "v1")
    url = f"file://{git_repo.root}"
    assert_one_line_mistake(sextant("analyze", url, "--branch", "nope", check=False), "no branch 'nope'", url)
    review = sextant("review", url, "--base", "v1", "--head", "no-such-ref", check=False)
    assert_one_line_mistake(review, "no branch or tag 'no-such-ref'", url)


def test_show_and_search_refuse_a_folder_that_is_not_a_repository(sextant: SextantRunner, tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere")
    assert_one_line_mistake(sextant("show", missing, check=False), "no such folder")
    assert_one_line_mistake(sextant("search", "login", missing, check=False), "no such folder")


def test_docs_check_on_an_unknown_folder_commit_or_a_url_is_one_line(
    sextant: SextantRunner, tmp_path: Path, git_repo: GitRepo
) -> None:
    git_repo.write("README.md", "# demo\n")
    git_repo.commit("one")
    assert_one_line_mistake(sextant("docs-check", str(tmp_path / "nowhere"), check=False), "no such folder")
    unknown = sextant("docs-check", str(git_repo.root), "--commit", "no-such-ref", check=False)
    assert_one_line_mistake(unknown, "no-such-ref", "does not name a commit")
    url = sextant("docs-check", f"file://{git_repo.root}", check=False)
    assert_one_line_mistake(url, "local repository, not a URL")


def test_a_second_command_on_a_busy_home_says_a_run_is_in_progress(
    sextant: SextantRunner, sextant_env: dict[str, str], git_repo: GitRepo
) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    with HomeLock(Path(sextant_env["SEXTANT_HOME"])):  # as a running command holds it
        result = sextant("index", str(git_repo.root), check=False)
    assert_one_line_mistake(result, "another sextant command", "sextant up")


def test_unreachable_nats_is_one_line(sextant: SextantRunner) -> None:
    result = sextant("events", check=False, NATS_URL="nats://127.0.0.1:9")
    assert_one_line_mistake(result, "cannot reach NATS at nats://127.0.0.1:9")


def test_unreachable_qdrant_is_one_line(sextant: SextantRunner, git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    result = sextant("index", str(git_repo.root), check=False, QDRANT_URL="http://127.0.0.1:9")
    assert_one_line_mistake(result, "Qdrant", "QDRANT_URL")


def test_a_wrong_nats_password_is_one_line_and_the_password_is_not_shown(
    sextant: SextantRunner, password_nats: str
) -> None:
    wrong = password_nats.replace("nats://", "nats://alice:wrong-password@")
    result = sextant("events", check=False, NATS_URL=wrong)
    assert_one_line_mistake(result, "refused the credentials")
    assert "wrong-password" not in result.stderr


def test_publish_in_ci_without_nats_url_is_an_error(sextant: SextantRunner, sextant_env: dict[str, str]) -> None:
    result = sextant("publish", "repo-updated", "https://github.com/acme/widgets.git", check=False, CI="true")
    assert_one_line_mistake(result, "NATS_URL is not set")
    assert not (Path(sextant_env["SEXTANT_HOME"]) / "nats").exists()  # no throwaway store was started


def test_debug_shows_the_traceback(sextant: SextantRunner) -> None:
    result = sextant("--debug", "publish", "repo-updated", CREDENTIALED, check=False, CI="true")
    assert result.returncode == 2
    assert "Traceback" in result.stderr
    assert SECRET not in result.stderr


def test_version_and_python_dash_m(sextant_env: dict[str, str]) -> None:
    import sys

    for module in ("sextant", "sextant.cli"):
        done = subprocess.run(
            [sys.executable, "-m", module, "--version"], env=sextant_env, capture_output=True, text=True, check=True
        )
        assert done.stdout.startswith("sextant ")
