"""The verdict on one doc claim: the shape the analyzer puts in its event as `doc_claims`."""

from __future__ import annotations

from typing import Literal

import msgspec

ClaimStatus = Literal["verified", "contradicted", "outdated", "unverifiable"]


class ClaimFinding(msgspec.Struct, frozen=True, kw_only=True):
    """One doc claim and what the indexed code says about it (fields match contracts' DocClaim)."""

    doc: str
    """Path of the doc."""
    line: int
    """Line of the claim in the doc."""
    ref: str
    """The reference as the doc writes it."""
    kind: str
    """path, symbol, env, cli, flag or config_key."""
    status: ClaimStatus
    """verified: the code has it; contradicted: it names this repository's code but the code lacks
    it; outdated: the code has it, but after the doc's line was written its definition lost a
    parameter or member the doc writes as code there (docs/doc-claims.md, "Outdated"); unverifiable:
    the code cannot tell (a generic name, another tool's command, an unindexed file type)."""
    evidence: str
    """Where the code confirms or contradicts it, in words."""
    removed_by: str | None = None
    """For a name the code once defined: the commit that removed it, as `<short sha> '<subject>'`."""
    removed_at: str | None = None
    """The calendar day (YYYY-MM-DD, UTC) of that commit."""
    replacement: str | None = None
    """What the code has instead: a definition added by the removing commit, or the nearest name
    among today's symbols. None when nothing fits."""
    changed: str | None = None
    """For an outdated claim: what changed in the definition since the doc line was written, in words
    (`lost parameter max_idle on 2024-12-04, commit 1a2b3c4`)."""
