"""A real repository, indexed through the real chain, then a PR that renames a function an old doc describes."""

from __future__ import annotations

from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.cli.run_watch import await_result
from sextant.cli.services import all_services
from sextant.contracts import ChunksIndexed, RepoRef, ReviewCompleted
from sextant.publish import build_repo_updated

from ..conftest import GitRepo
from ..support.events import review_requested

AUTH_BEFORE = '''"""Sessions for the web app."""


def login_user(name: str, password: str) -> bool:
    """Check a user's password and open a session."""
    return check_password(name, password)


def check_password(name: str, password: str) -> bool:
    """Compare against the stored hash."""
    return bool(name and password)
'''

DESIGN_DOC = """# Authentication design

Users sign in through `login_user()`, which checks the password with `check_password()`
and opens a session.
"""


@pytest.mark.model
async def test_pr_renaming_a_function_an_old_doc_describes(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("docs/design.md", DESIGN_DOC)
    git_repo.commit("design doc", date="2024-03-01T10:00:00+00:00")
    git_repo.write("src/auth.py", AUTH_BEFORE)
    git_repo.write("src/app.py", "from auth import login_user\n\n\ndef main() -> None:\n    login_user('a', 'b')\n")
    git_repo.commit("code", date="2026-06-01T10:00:00+00:00")
    git_repo.git("checkout", "-q", "-b", "rename")
    git_repo.write("src/auth.py", AUTH_BEFORE.replace("login_user", "authenticate"))
    git_repo.write("src/app.py", "from auth import authenticate\n\n\ndef main() -> None:\n    authenticate('a', 'b')\n")
    git_repo.commit("rename login_user to authenticate", date="2026-07-01T10:00:00+00:00")
    git_repo.git("checkout", "-q", "main")

    env = {"SEXTANT_HOME": str(tmp_path / "home"), "INDEX_FILE_RECENCY": "true"}
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await start_routers(bus, all_services(env))
        indexed = await await_result(bus, build_repo_updated(str(git_repo.root)), ChunksIndexed, show_progress=False)
        assert indexed.files_added == 3
        repo = RepoRef.for_url(str(git_repo.root))
        request = review_requested(
            repo, "review-1", pr_number=7, title="Rename login_user to authenticate", base_ref="main", head_ref="rename"
        )
        review = await await_result(bus, request, ReviewCompleted, show_progress=False)
        await bus.close()

    drift = [f for f in review.findings if f.kind == "doc_drift"]
    assert [f.doc for f in drift] == ["docs/design.md"]
    assert drift[0].line == 3
    assert "login_user" in drift[0].message
    assert review.model == "none"
    assert review.pr_number == 7
    assert "Where documentation and code conflict, the code is authoritative." in review.prompt
    by_path = {item.path: item for item in review.context}
    assert by_path["src/auth.py"].kept
    assert by_path["src/auth.py"].last_modified_at is not None
    design = by_path.get("docs/design.md")
    if design is not None:  # retrieved: it is 27 months older than the retrieved code
        assert design.kept == (design.score is not None and design.score >= 0.6)
        assert "stale doc" in design.reason
    assert "## Doc drift" in review.markdown
