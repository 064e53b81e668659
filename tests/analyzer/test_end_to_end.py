"""The whole chain on a real nats-server and the embedded store, from RepoUpdated to the analysis.

A repository built here has a design doc, last touched in 2024, that names a function the code no
longer has, and a usage doc written this year that names the function the code does have. The
analysis must flag the first, trust the second, and put code before docs in its context.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sextant.analyzer import app as analyzer
from sextant.analyzer.prompting.context import DOCS_BANNER
from sextant.bootstrap import bootstrap, host_all
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import AnalysisCompleted, RepoRef, SummaryCompleted
from sextant.indexer import app as indexer
from sextant.recency_scanner import app as recency_scanner
from sextant.selector import app as selector

from ..support.events import repo_updated
from ..support.runs import settled_analysis

OLD = "2024-01-10T12:00:00+00:00"
NEW = "2026-05-01T12:00:00+00:00"


def build_repository(repo: Any) -> None:
    repo.write(
        "app/sessions.py",
        'def create_legacy_session(user):\n    """Open a session."""\n    return {"user": user}\n',
    )
    repo.write(
        "docs/design.md",
        "# Session design\n\nSessions are opened by `create_legacy_session()` in `app/sessions.py`.\n",
    )
    repo.commit("first design", date=OLD)
    repo.write(
        "app/sessions.py",
        'def open_session(user: str) -> dict[str, str]:\n    """Open a session."""\n    return {"user": user}\n',
    )
    repo.write(
        "app/main.py",
        "from app.sessions import open_session\n\n\ndef main() -> None:\n    print(open_session('ada'))\n",
    )
    repo.write("docs/usage.md", "# Usage\n\nCall `open_session()` from `app/sessions.py`.\n")
    repo.write("README.md", "# Sessions\n\nA tiny session library.\n")
    repo.commit("rename and document", date=NEW)


async def analyse_through_the_bus(
    repo: RepoRef, env: dict[str, str], embedder: Any, tmp_path: Path
) -> tuple[AnalysisCompleted, SummaryCompleted]:
    """Index, select and analyse one repository with the real services on a real nats-server."""
    store = EdgeChunkStore(tmp_path / "qdrant", collection_name(embedder.model_id, embedder.dimension), 26)
    adapters = bootstrap(env, store=store, embedder=embedder)
    services = host_all(
        [recency_scanner.SERVICE, indexer.SERVICE, selector.SERVICE, analyzer.SERVICE, analyzer.REVISER], adapters, env
    )
    request = repo_updated(repo, "e2e-run")
    try:
        with EmbeddedNats(tmp_path / "nats") as server:
            bus = Bus(build_broker(server.url))
            await start_routers(bus, services)
            try:
                await bus.publish(request)
                return await settled_analysis(bus, request.run_id)
            finally:
                await bus.close()
    finally:
        store.close()


async def test_the_analysis_flags_the_stale_doc_and_trusts_the_fresh_one(
    git_repo: Any, tmp_path: Path, letter_embedder: Any
) -> None:
    build_repository(git_repo)
    env = {"INDEX_FILE_RECENCY": "true", "SEXTANT_HOME": str(tmp_path / "home"), "LLM_PROVIDER": "none"}
    repo = RepoRef.for_url(git_repo.url, branch="main")
    analysis, summary = await analyse_through_the_bus(repo, env, letter_embedder, tmp_path)

    claims = {(c.doc, c.ref): c for c in analysis.doc_claims}
    stale = claims[("docs/design.md", "create_legacy_session()")]
    assert (stale.status, stale.line) == ("contradicted", 3)
    # Through the blob-less mirror, hydrated by the indexer: history names the removing commit.
    removal = git_repo.git("log", "-1", "--format=%h").strip()
    assert stale.removed_by == f"{removal} rename and document"
    assert claims[("docs/usage.md", "open_session()")].status == "verified"
    assert not [c for c in analysis.doc_claims if c.doc == "docs/usage.md" and c.status != "verified"]

    accuracy = analysis.sections["Documentation Accuracy"]
    assert "docs/design.md:3 `create_legacy_session()` (symbol) — contradicted" in accuracy
    assert "Docs whose claims check out: " in accuracy
    assert "docs/usage.md (2 verified)" in accuracy
    assert "`docs/design.md` (last modified 2024-01-10 — 27 months older than typical code in this repo)" in accuracy

    prompt = analysis.prompt
    assert prompt.index("// app/sessions.py (last modified 2026-05-01)") < prompt.index(DOCS_BANNER)
    assert prompt.index(DOCS_BANNER) < prompt.index(
        "// docs/design.md (last modified 2024-01-10 — 27 months older than typical code in this repo)"
    )
    assert "// docs/usage.md (last modified 2026-05-01)\n" in prompt
    assert analysis.markdown.startswith("No language model was used for this analysis")
    assert analysis.median_code is not None
    assert analysis.median_code.startswith("2026-05-01")
    assert summary.purpose == "A tiny session library."
