"""How many planted secrets reach each sink: child environments, a hosted embedder, MCP answers.

Two kinds of secret are planted. Ours, in this process's environment (provider keys, chat tokens,
the bus password, one under a name nobody listed: ``tests/support/our_secrets.py``): counted in the
environment each child really started with — every git the CLI's local repository check starts
(read through a recording ``git`` first on PATH) and the embedded nats-server (``/proc/<pid>/environ``).
A repository's, in its files (``tests/support/planted_repository.py``: keys, tokens, a key block,
passwords in code, ``.env`` and YAML): counted in what a hosted embedding provider received for the
repository's chunks (a local server speaking OpenAI's wire format), and in what ``sextant mcp``
answered and every hosted provider (embedder, Cohere reranker) received while it indexed the
repository and answered ``review_context`` (a diff and title holding tokens) and ``search_code``.

Run it with the interpreter of the code to measure (the planted data comes from this checkout):

    .venv/bin/python bench/secret_masks/sinks.py                      # this branch
    /path/to/other/checkout/.venv/bin/python bench/secret_masks/sinks.py   # e.g. main, for "before"

Takes about 30 s (the MCP run indexes the repository with the embedded runtime).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.our_secrets import OUR_SECRETS, held_secrets  # noqa: E402
from tests.support.planted_repository import (  # noqa: E402
    DIFF_TOKEN,
    SECRETS,
    SENT_DIFF,
    TITLE_TOKEN,
    build_planted_repository,
)
from tests.support.provider_server import ProviderServer  # noqa: E402
from tests.support.wire_formats import cohere_scores, openai_embeddings  # noqa: E402


class _Repo:
    """Just enough of the tests' GitRepo for ``build_planted_repository``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True)
        self._git("init", "-q", "-b", "main")
        self._git("config", "user.email", "bench@example.com")
        self._git("config", "user.name", "Sextant Bench")

    def _git(self, *args: str, date: str | None = None) -> None:
        env = {**os.environ, **({"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date} if date else {})}
        subprocess.run(["git", "-C", str(self.root), *args], check=True, capture_output=True, env=env)

    def write(self, path: str, content: str) -> None:
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(content)

    def commit(self, message: str, date: str) -> None:
        self._git("add", "-A")
        self._git("commit", "-q", "-m", message, date=date)


def _vector(text: str) -> list[float]:
    return [float(text.lower().count(letter)) + 1.0 for letter in "etaoinsr"]


def _provider_answer(request: Any) -> Any:
    if "documents" in request:
        return cohere_scores(request)
    return openai_embeddings([_vector(text) for text in request["input"]], model=request["model"])


def _found(secrets: tuple[str, ...] | list[str], text: str) -> int:
    return sum(1 for secret in secrets if secret in text)


def git_children(scratch: Path, repo: Path) -> str:
    """Our secrets in the environment of each git the CLI's local repository check starts."""
    from sextant.cli.index_access import current_repository
    from sextant.cli.repository_check import check_local_repository

    records = scratch / "git-env"
    records.mkdir()
    wrapper = scratch / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nenv -0 > "{records}/$$.env"\nexec "{shutil.which("git")}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    path = os.environ["PATH"]
    os.environ["PATH"] = f"{wrapper.parent}{os.pathsep}{path}"
    try:
        check_local_repository(str(repo), branch="main", refs=["HEAD"])
        current_repository(repo)
    finally:
        os.environ["PATH"] = path
    held = []
    for record in records.iterdir():
        entries = record.read_bytes().decode("utf-8", "replace").split("\0")
        held.append(len(held_secrets(dict(entry.split("=", 1) for entry in entries if "=" in entry))))
    return f"{max(held)} of {len(OUR_SECRETS)} (the most any of its {len(held)} git children held)"


def nats_server(scratch: Path) -> str:
    """Our secrets in the embedded nats-server's environment."""
    from sextant.bus import EmbeddedNats

    with EmbeddedNats(scratch / "nats") as server:
        assert server.pid is not None
        entries = Path(f"/proc/{server.pid}/environ").read_bytes().decode("utf-8", "replace").split("\0")
    environment = dict(entry.split("=", 1) for entry in entries if "=" in entry)
    return f"{len(held_secrets(environment))} of {len(OUR_SECRETS)}"


async def hosted_embedder(repo: Path) -> str:
    """The repository's planted values in what a hosted embedding provider received for its chunks."""
    from sextant.embedding import OpenAICompatibleEmbedder
    from sextant.parsing import build_chunks

    texts = []
    for path in ("app/settings.py", "app/deploy.py", "app/rotated.py", ".env", "config/service.yaml", "README.md"):
        texts += [chunk.dense_text for chunk in build_chunks(path, (repo / path).read_text(), max_chars=1000)]
    planted = _found(SECRETS, "\n".join(texts))
    with ProviderServer(answer=_provider_answer) as server:
        embedder = OpenAICompatibleEmbedder(
            model="fake-embed", dimension=8, max_chars=1000, batch_size=4, base_url=f"{server.url}/v1"
        )
        await embedder.embed(texts)
        await embedder.aclose()
        wire = "\n".join(json.dumps(request.body) for request in server.requests)
    return f"{_found(SECRETS, wire)} of {planted} planted values in the chunks"


async def mcp_session(scratch: Path, repo: Path) -> tuple[str, str]:
    """The planted values in `sextant mcp` answers, and in every hosted provider request it caused."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "EMBED"))}
    with ProviderServer(answer=_provider_answer) as providers:
        env |= {
            "SEXTANT_HOME": str(scratch / "home"), "INDEX_FILE_RECENCY": "true", "EMBEDDINGS_PROVIDER": "openai",
            "EMBEDDINGS_BASE_URL": f"{providers.url}/v1", "EMBEDDINGS_MODEL": "fake-embed",
            "EMBEDDINGS_DIMENSION": "8", "OPENAI_API_KEY": "sk-bench-fake-key-000000", "COHERE_API_KEY": "fake",
            "COHERE_BASE_URL": providers.url,
        }  # fmt: skip
        params = StdioServerParameters(command=sys.executable, args=["-m", "sextant.cli", "mcp"], env=env, cwd=repo)
        async with Client(params) as client:
            await client.call_tool("index_repository", {"repo": str(repo), "until": "indexed"})
            arguments = {"diff": SENT_DIFF, "title": f"rotate {TITLE_TOKEN}", "description": f"was {DIFF_TOKEN}"}
            context = await client.call_tool("review_context", arguments)
            found = await client.call_tool("search_code", {"query": "database password token settings", "limit": 20})
        wire = "\n".join(json.dumps(request.body) for request in providers.requests)
    answers = json.dumps([context.structured_content, found.structured_content])
    return (
        f"{_found(SECRETS, answers)} of {len(SECRETS)}",
        f"{_found(SECRETS, wire)} of {len(SECRETS)} (in {len(providers.requests)} requests)",
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="sextant-bench-sinks-") as folder:
        scratch = Path(folder)
        repo_dir = scratch / "orders"
        build_planted_repository(_Repo(repo_dir))
        saved = dict(os.environ)
        os.environ.update(OUR_SECRETS)
        try:
            rows = [("git children of the CLI's local check", git_children(scratch, repo_dir))]
            rows.append(("embedded nats-server", nats_server(scratch)))
        finally:
            os.environ.clear()
            os.environ.update(saved)
        rows.append(("hosted embedder requests (index)", asyncio.run(hosted_embedder(repo_dir))))
        answers, requests = asyncio.run(mcp_session(scratch, repo_dir))
        rows += [("MCP review_context + search_code answers", answers), ("hosted requests during MCP", requests)]
    width = max(len(sink) for sink, _ in rows)
    print("our secrets (environment):")
    for sink, figure in rows:
        if sink.startswith("hosted embedder"):
            print("the repository's secrets (its files):")
        print(f"  {sink:<{width}}  {figure}")


if __name__ == "__main__":
    main()
