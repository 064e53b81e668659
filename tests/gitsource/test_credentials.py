"""Tokens against a real HTTP server speaking git's smart-HTTP discovery: sent as a header, shown nowhere."""

from __future__ import annotations

import base64
import logging
import traceback
from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource.access import RepoSource
from sextant.gitsource.errors import GitSourceError, GitTimeoutError
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.recency import scan_recency

TOKEN = "ghs_VerySecretInstallationToken42"
ENCODED = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()


def assert_nowhere(error: BaseException, *texts: str) -> None:
    rendered = "".join(traceback.format_exception(error))
    for text in texts:
        for secret in (TOKEN, ENCODED):
            assert secret not in text
            assert secret not in rendered
            assert secret not in repr(error)


@pytest.mark.parametrize("status", [401, 403, 404])
def test_refused_clone_sends_the_header_and_leaks_nothing(
    fake_forge: Any, status: int, trace2: Any, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    fake_forge.status = status
    source = RepoSource(fake_forge.url, token=TOKEN, provider="github")
    caplog.set_level(logging.DEBUG)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(GitSourceError) as caught:
        scan_recency(source, timeout=30, work_dir=work)
    assert fake_forge.seen_headers, "git never reached the server"
    assert fake_forge.seen_headers[0]["Authorization"] == f"Basic {ENCODED}"
    assert str(caught.value).startswith("git clone failed")
    # trace2 records the argv of every git process and child: the token is in none of them.
    assert_nowhere(caught.value, str(caught.value), caplog.text, trace2.text())
    assert list(work.iterdir()) == []


def test_server_error_echoing_the_token_is_scrubbed(fake_forge: Any, tmp_path: Path) -> None:
    fake_forge.status = 200
    fake_forge.content_type = "application/x-git-upload-pack-advertisement"
    fake_forge.body = pkt(f"ERR bad credentials {TOKEN} / Authorization: Basic {ENCODED}\n")
    source = RepoSource(fake_forge.url, token=TOKEN, provider="github")
    with pytest.raises(GitSourceError) as caught:
        RepoMirror(tmp_path / "cache").sync(source)
    assert "bad credentials ***" in str(caught.value)
    assert_nowhere(caught.value, str(caught.value))


def test_hanging_server_times_out(fake_forge: Any, tmp_path: Path) -> None:
    fake_forge.delay = 30
    source = RepoSource(fake_forge.url, token=TOKEN, provider="github")
    with pytest.raises(GitTimeoutError, match="timed out") as caught:
        scan_recency(source, timeout=1.5, work_dir=tmp_path)
    assert_nowhere(caught.value, str(caught.value))
    assert list(tmp_path.iterdir()) == []


def test_gitlab_and_bitbucket_headers_on_the_wire(fake_forge: Any, tmp_path: Path) -> None:
    for provider, user in (("gitlab", "oauth2"), ("bitbucket", "x-token-auth")):
        fake_forge.seen_headers.clear()
        source = RepoSource(fake_forge.url, token=TOKEN, provider=provider)  # type: ignore[arg-type]
        with pytest.raises(GitSourceError):
            scan_recency(source, timeout=30, work_dir=tmp_path)
        expected = base64.b64encode(f"{user}:{TOKEN}".encode()).decode()
        assert fake_forge.seen_headers[0]["Authorization"] == f"Basic {expected}"


def pkt(text: str) -> bytes:
    data = text.encode()
    return f"{len(data) + 4:04x}".encode() + data + b"0000"
