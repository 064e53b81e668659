"""The parse worker starts with what Python needs, never the indexer's provider keys, tokens or passwords.

It reads repository text; a key in its environment could only leak (to a crash report, to anything a
parser or an imported module starts). The real worker is started and its environment read back from
``/proc`` as the operating system gave it.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from sextant.embedding import SparseEncoder
from sextant.indexer.parse_process import BlobToParse, ParsedChunks, ParseProcess, ParseRequest, worker_environment

pytestmark = pytest.mark.process

SECRETS = {
    "OPENAI_API_KEY": "sk-test-openai-0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-test-0123456789abcdef",
    "GITHUB_TOKEN": "ghp_testtesttesttesttesttesttesttest0000",
    "GITLAB_TOKEN": "glpat-test-0123456789",
    "NATS_PASSWORD": "hunter2-nats",
    "NATS_URL": "nats://sextant:hunter2-url@127.0.0.1:4222",
    "SLACK_BOT_TOKEN": "xoxb-test-0123456789-abcdef",
    "PYTHONANYWHERE_API_TOKEN": "pa-test-0123456789",
}


def _environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(entry.split("=", 1) for entry in raw.decode("utf-8", "replace").split("\0") if "=" in entry)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads a process's environment from /proc")
def test_the_worker_gets_none_of_the_indexers_secrets_and_still_parses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    client = ParseProcess()
    try:
        request = ParseRequest(
            [BlobToParse("a.py", b"def f():\n    return 1\n")], 1 << 20, 2000, pickle.dumps(SparseEncoder())
        )
        reply = client.submit(request).result(timeout=120)
        assert client.pid is not None
        seen = _environ_of(client.pid)
    finally:
        client.close()
    assert isinstance(reply.outcomes[0], ParsedChunks)
    leaked = {name for name, value in seen.items() if any(secret in value for secret in SECRETS.values())}
    assert leaked == set()
    assert seen["PYTHONPATH"].split(os.pathsep)[0] == str(tmp_path)  # Python's own settings are kept
    assert seen["LC_ALL"] == "C.UTF-8"
    assert seen.get("PATH") == os.environ.get("PATH")


def test_the_kept_variables_are_pythons_the_locale_and_where_things_are() -> None:
    env = {
        **SECRETS,
        "PATH": "/usr/bin",
        "HOME": "/home/someone",
        "LANG": "en_GB.UTF-8",
        "LC_CTYPE": "C.UTF-8",
        "TMPDIR": "/tmp/x",
        "VIRTUAL_ENV": "/venv",
        "PYTHONPATH": "/extra",
        "PYTHONHASHSEED": "0",
        "PYTHONUTF8": "1",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "SEXTANT_HOME": "/data",
        "INDEX_EXCLUDE": "vendor/**",
    }
    assert worker_environment(env) == {
        "PATH": "/usr/bin",
        "HOME": "/home/someone",
        "LANG": "en_GB.UTF-8",
        "LC_CTYPE": "C.UTF-8",
        "TMPDIR": "/tmp/x",
        "VIRTUAL_ENV": "/venv",
        "PYTHONPATH": "/extra",
        "PYTHONHASHSEED": "0",
        "PYTHONUTF8": "1",
    }
