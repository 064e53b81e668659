"""Gather every fact the offline report and summary use, in one pass over the repository's payloads."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sextant.analyzer.evidence.index_digest import IndexDigest
from sextant.analyzer.evidence.inventory import Inventory, InventoryCollector
from sextant.analyzer.evidence.manifests import Manifest, ManifestCollector
from sextant.analyzer.evidence.payload_lines import FileTexts
from sextant.analyzer.evidence.security_scan import SecurityCollector, SecurityFacts
from sextant.analyzer.evidence.symbols import SymbolCollector, SymbolStats
from sextant.analyzer.evidence.test_files import is_test_path
from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import DocCheckReport, RepositoryHistory, check_docs
from sextant.doc_rules import median_date
from sextant.telemetry import tracer

_ROOT_README = re.compile(r"^readme(\.[a-z]+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class RepoEvidence:
    """Facts about one repository, all computed from its index."""

    inventory: Inventory
    manifests: list[Manifest]
    symbols: SymbolStats
    security: SecurityFacts
    doc_report: DocCheckReport
    test_files: list[str]
    readme_path: str | None
    readme_text: str | None
    median_code: str | None
    """The selector's median code-file date, or the one computed here when the event had none."""
    index_digest: str = ""
    """Digest of every indexed file (path, blob SHA, day): an input of the evidence-only report."""


def gather_evidence(
    payloads: Iterable[ChunkPayload],
    median_code: str | None,
    *,
    check_doc_claims: bool = True,
    doc_history: RepositoryHistory | None = None,
) -> RepoEvidence:
    """Compute the facts from every chunk payload of one repository, streaming (one pass, no list).

    Args:
        payloads: Every payload of the repository (one scroll).
        median_code: The selection's median code-file date, when known.
        check_doc_claims: Check every doc's claims (the analysis); the summary skips it.
        doc_history: The repository's history for the doc-claim check (or one saying why none).

    Returns:
        The evidence, doc-claim findings included (checked over all docs against all code).
    """
    with tracer(__name__).start_as_current_span("analyzer.gather_evidence") as span:
        inventory, manifests = InventoryCollector(), ManifestCollector()
        symbols, security, readmes = SymbolCollector(), SecurityCollector(), FileTexts()
        index = IndexDigest()
        seen = 0

        def observed() -> Iterator[ChunkPayload]:
            # Every collector sees each payload as it streams past, on its way to the doc-claim
            # check: no list of every chunk is ever held.
            nonlocal seen
            for payload in payloads:
                seen += 1
                inventory.add(payload)
                manifests.add(payload)
                symbols.add(payload)
                security.add(payload)
                index.add(payload.path, payload.blob_sha, payload.last_modified_at)
                if _ROOT_README.match(payload.path):
                    readmes.add(payload)
                yield payload

        if check_doc_claims:
            doc_report = check_docs(observed(), history=doc_history)
        else:
            deque(observed(), maxlen=0)
            doc_report = check_docs([])
        files = inventory.build()
        readme_texts = readmes.texts()
        readme_path = min(readme_texts, key=lambda p: (not p.lower().endswith(".md"), p), default=None)
        code_dates = [info.last_modified_at for info in files.of_kind("code")]
        evidence = RepoEvidence(
            inventory=files,
            manifests=manifests.build(),
            symbols=symbols.build(),
            security=security.build(),
            doc_report=doc_report,
            index_digest=index.digest(),
            test_files=[info.path for info in files.of_kind("code") if is_test_path(info.path)],
            readme_path=readme_path,
            readme_text=readme_texts.get(readme_path) if readme_path else None,
            median_code=median_code or median_date(code_dates),
        )
        span.set_attributes(
            {
                "sextant.chunks": seen,
                "sextant.files": len(files.files),
                "sextant.manifests": len(evidence.manifests),
                "sextant.doc_claims": len(evidence.doc_report.findings),
                "sextant.security_hits": len(evidence.security.hits),
            }
        )
    return evidence
