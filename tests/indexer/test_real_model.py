"""The indexer with the real local model: what it stores can be found by meaning."""

from __future__ import annotations

from typing import Any

import pytest

from sextant.embedding import SparseEncoder

FILES = {
    "billing/invoice.py": '''def render_invoice_pdf(invoice):
    """Render an invoice as a PDF document for the customer."""
    return pdf.render(invoice.lines, total=invoice.total)
''',
    "auth/password.py": '''def hash_password(password, salt):
    """Hash a user's password with a salt before storing it."""
    return scrypt(password.encode(), salt=salt, n=2**14)
''',
    "net/retry.go": """package net

// RetryWithBackoff calls fn until it succeeds, sleeping longer after each failure.
func RetryWithBackoff(fn func() error, attempts int) error {
\tvar err error
\tfor i := 0; i < attempts; i++ {
\t\tif err = fn(); err == nil {
\t\t\treturn nil
\t\t}
\t\ttime.Sleep(time.Duration(1<<i) * time.Second)
\t}
\treturn err
}
""",
    "docs/deploy.md": "# Deploying\n\nBuild the container image and push it to the registry.\n",
}

QUERIES = {
    "securely store user credentials": "auth/password.py",
    "try again after a failure with exponential waiting": "net/retry.go",
    "produce a printable bill for a client": "billing/invoice.py",
}


@pytest.mark.model
async def test_indexed_chunks_are_found_by_meaning(build_harness: Any, minilm: Any, git_repo: Any) -> None:
    for path, text in FILES.items():
        git_repo.write(path, text)
    git_repo.commit("seed")
    harness = build_harness(minilm)
    indexed = await harness.run()
    assert (indexed.files_added, indexed.failed_files) == (4, [])
    assert indexed.collection.endswith("__384")
    encoder = SparseEncoder()
    for query, expected in QUERIES.items():
        dense = await minilm.embed_query(query)
        hits = harness.deps.store.hybrid_search(harness.ref.repo_key, dense, encoder.encode_query(query), limit=3)
        assert hits[0].payload.path == expected, (query, [hit.payload.path for hit in hits])
    again = await harness.run()
    assert (again.embedding_calls, again.files_unchanged) == (0, 4)
