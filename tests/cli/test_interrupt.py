"""Ctrl-C during a run exits 130 with no traceback, and leaves the home ready for the next command."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from ..conftest import GitRepo
from ..support.provider_server import ProviderServer, Reply
from .conftest import SextantRunner

STALL_SECONDS = 3600.0
"""How long the embeddings provider holds a request: until the test ends (teardown releases it)."""


def test_ctrl_c_exits_130_and_the_next_command_runs(
    sextant: SextantRunner, sextant_env: dict[str, str], git_repo: GitRepo, provider_server: ProviderServer
) -> None:
    provider_server.script(Reply(delay=STALL_SECONDS))  # a run that reaches it is certainly in progress
    git_repo.write("shop.py", 'def order(item):\n    """Place an order."""\n    return item\n')
    git_repo.commit("one")
    embeddings = {
        "EMBEDDINGS_PROVIDER": "openai",
        "EMBEDDINGS_BASE_URL": f"{provider_server.url}/v1",
        "EMBEDDINGS_MODEL": "stalled-test-model",
        "EMBEDDINGS_DIMENSION": "8",
        "EMBEDDINGS_MAX_ATTEMPTS": "1",
    }
    run = subprocess.Popen(
        [sys.executable, "-m", "sextant.cli", "index", str(git_repo.root)],
        env={**sextant_env, **embeddings}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        # The run is certainly in progress once its embedding request arrives (no clock involved).
        while not provider_server.arrived.wait(1.0):
            assert run.poll() is None, run.communicate()
        run.send_signal(signal.SIGINT)
        _, errors = run.communicate()
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130, errors
    assert "Traceback" not in errors
    home = Path(sextant_env["SEXTANT_HOME"])
    assert not (home / "runtime.json").exists()  # the runtime record went with the run
    # The home is free again: the embedded store and the bus open for the next command.
    after = sextant("select", str(git_repo.root), "--json", check=False, **embeddings)
    assert after.returncode in (0, 1), after.stderr
    assert "another sextant command" not in after.stderr
    assert "Traceback" not in after.stderr
