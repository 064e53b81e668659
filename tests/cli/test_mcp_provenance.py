"""MCP `get_analysis`: the provenance an agent gets names everything the Markdown's Provenance section does."""

from __future__ import annotations

from sextant.cli.mcp_operations import analysis_provenance
from sextant.contracts import AnalysisCompleted, Provenance, ReadChunk, RepoRef, StaleDocFraming

from ..support.events import event


def test_the_provenance_names_reads_claims_model_cost_vectors_and_revision() -> None:
    provenance = Provenance(
        chunks=[ReadChunk(path="a.py"), ReadChunk(path="README.md", kind="doc")],
        code_chunks=1, doc_chunks=1, doc_share=0.5,
        stale_docs=[StaleDocFraming(path="README.md", reason="14 months older than typical code")],
        claims_checked=7, claims_by_status={"verified": 6, "contradicted": 1},
        model="claude-x", provider="anthropic", input_tokens=1200, output_tokens=300,
        dense_vectors=False, search="payload scroll", revision_of="e-first",
    )  # fmt: skip
    analysis = event(
        AnalysisCompleted, RepoRef.for_url("https://example.com/a/b.git"), "run-1", "x", markdown="# x",
        head_sha="abc", model="claude-x", provider="anthropic", provenance=provenance,
    )  # fmt: skip

    shown = analysis_provenance(analysis, 42)

    assert (shown["run_id"], shown["head_sha"], shown["stream_sequence"]) == ("run-1", "abc", 42)
    assert (shown["chunks_read"], shown["code_chunks"], shown["doc_chunks"], shown["doc_share"]) == (2, 1, 1, 0.5)
    assert shown["stale_docs"][0]["path"] == "README.md"
    assert (shown["claims_checked"], shown["claims_by_status"]) == (7, {"verified": 6, "contradicted": 1})
    assert (shown["model"], shown["input_tokens"], shown["output_tokens"]) == ("claude-x", 1200, 300)
    assert (shown["dense_vectors"], shown["search"]) == (False, "payload scroll")
    assert (shown["revision_of"], shown["doc_history_note"], shown["unchanged_since"]) == ("e-first", None, None)
