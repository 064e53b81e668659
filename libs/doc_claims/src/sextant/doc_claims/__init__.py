"""Check documentation claims against the code index, before any model sees them.

`check_docs(payloads)` is the one call: every doc in the index against all indexed code. Its parts
stand alone for other uses — `extract_claims` (what a doc names: paths, symbols, env vars,
commands, flags, config keys; `Claim.target` is the normalised name) serves the reviewer's
doc-drift check; `CodeFacts` and `check_claims` judge claims; `render_findings_markdown` writes the
evidence block.

Decisions:
- Status precedence: contradicted and unverifiable stand; only a verified claim becomes outdated,
  when the doc's last commit is more than STALE_DOC_GAP older than the file the claim resolved to.
- A claim is contradicted only when the doc was firm (`Claim.explicit`: a relative link, `f()`, a
  Sphinx role, a path with a folder, snake_case, "the `X` class", a declared program's
  subcommand); an absent generic or foreign name is unverifiable. File arguments of the repository's
  own CLI are example values (not firm); a script given to an interpreter is firm.
- The index is judged only where it could hold the path (index_coverage): an absent file of a kind it
  never indexes (unknown extension, an extension-less script) or under a hidden folder it holds
  nothing of (`.sextant/`, `.tools/`) is unverifiable, whatever the wording.
- Changelogs and release notes (and Sphinx versionadded/changed/deprecated notes) are history:
  skipped, listed in `DocCheckReport.skipped_docs`, no findings.
- `DocSummary.likely_outdated` is true when any of the doc's claims is contradicted or outdated.
"""

from sextant.doc_claims.checking import Resolution, check_claims, resolve
from sextant.doc_claims.claim import Claim, ClaimKind
from sextant.doc_claims.code_facts import CodeFacts, CodeFactsCollector, Site, SymbolSite
from sextant.doc_claims.doc_texts import DocText, reassemble_docs
from sextant.doc_claims.extraction import extract_claims
from sextant.doc_claims.finding import ClaimFinding, ClaimStatus
from sextant.doc_claims.history_docs import is_history_doc
from sextant.doc_claims.rendering import render_findings_markdown
from sextant.doc_claims.report import CheckTotals, DocCheckReport, DocSummary, check_docs

__all__ = [
    "CheckTotals",
    "Claim",
    "ClaimFinding",
    "ClaimKind",
    "ClaimStatus",
    "CodeFacts",
    "CodeFactsCollector",
    "DocCheckReport",
    "DocSummary",
    "DocText",
    "Resolution",
    "Site",
    "SymbolSite",
    "check_claims",
    "check_docs",
    "extract_claims",
    "is_history_doc",
    "reassemble_docs",
    "render_findings_markdown",
    "resolve",
]
