"""The event catalog. One Struct per fact, named in the past tense; the tag is the event name.

Evolution: add fields only, always with defaults; never forbid unknown fields.
``last_modified_at`` is an ISO 8601 date, or None = age unknown (never "now").
"""

from __future__ import annotations

from typing import Literal, Protocol

import msgspec

from sextant.contracts.envelope import Event, stable_id, utc_now_iso
from sextant.secret_rules import redact_change

RecencyStatus = Literal["computed", "skipped", "failed"]
Purpose = Literal["analysis", "summary"]
ChunkKind = Literal["doc", "code"]
ClaimStatus = Literal["verified", "contradicted", "outdated", "unverifiable"]


class RepoUpdated(Event, frozen=True, kw_only=True, tag="repo.updated"):
    """A branch of a repository changed (CI after a merge, a webhook, or a user asking for a run)."""

    head_sha: str | None = None
    """Commit at the head of the branch, when the publisher knows it."""
    head_commit_date: str | None = None
    """ISO 8601 committer date of the head commit; dates changed files in incremental runs."""
    changed_paths: list[str] | None = None
    """Paths changed by the push; set for an incremental run, None for a full run."""
    removed_paths: list[str] | None = None
    """Paths deleted by the push (incremental runs)."""
    force: bool = False
    """Re-index every file even when its content is unchanged."""


class FileRecencyComputed(Event, frozen=True, kw_only=True, tag="recency.computed"):
    """The recency scanner finished (or skipped, or failed): path → date of the last commit."""

    request: RepoUpdated
    """The RepoUpdated this scan answers; the indexer continues the run from it."""
    status: RecencyStatus
    """computed: ``dates`` holds the map; skipped: feature off, no map; failed: see ``reason``."""
    dates: dict[str, str | None] | None = None
    """Path → ISO date of its last commit, or None when older than the scan window/unknown."""
    reason: str | None = None
    """Why the scan failed or was skipped (safe to show: never carries credentials)."""
    mode: Literal["full", "incremental"] = "full"
    """full: a history scan; incremental: changed paths stamped with the head commit date."""
    commits_read: int = 0
    """Commits the git log pass read."""
    files: int = 0
    """Paths in the map."""
    seconds: float = 0.0
    """Wall time of the scan."""


class FailedFile(msgspec.Struct, frozen=True, kw_only=True):
    """A file the indexer could not (re-)index; its previous points are kept."""

    path: str
    """Path of the file in the repository."""
    reason: str
    """Why it failed or was skipped (binary, too large, embedding failed after retries, ...)."""


class SkippedFiles(msgspec.Struct, frozen=True, kw_only=True):
    """Files of the tree left out of the index for one reason."""

    reason: str
    """binary, too large, excluded, vendored, not a regular file, not UTF-8 text."""
    count: int
    """How many files."""
    paths: list[str] = msgspec.field(default_factory=list)
    """Their paths (text form: exact, escaped where not plain UTF-8)."""


class ChunksIndexed(Event, frozen=True, kw_only=True, tag="chunks.indexed"):
    """The indexer brought the repository's chunks in the store up to date with the branch head."""

    head_sha: str | None = None
    """Commit that was indexed."""
    collection: str = ""
    """Store collection (one per embedding model) the chunks live in."""
    files_seen: int = 0
    """Indexable files in the tree after filters."""
    files_unchanged: int = 0
    """Files whose blob SHA matched the stored one (no fetch, parse or embedding)."""
    files_changed: int = 0
    """Files re-indexed because their content changed."""
    files_added: int = 0
    """Files indexed for the first time."""
    files_deleted: int = 0
    """Files no longer in the tree whose points were removed."""
    files_restamped: int = 0
    """Unchanged files whose ``last_modified_at`` was brought in line with the scan (no re-embedding)."""
    failed_files: list[FailedFile] = msgspec.field(default_factory=list)
    """Files skipped or failed, each with a reason; never silently dropped."""
    skipped: list[SkippedFiles] = msgspec.field(default_factory=list)
    """Every file of the tree not indexed, grouped by reason (path rules and content checks)."""
    chunks_upserted: int = 0
    """Points written."""
    chunks_deleted: int = 0
    """Points removed (replaced symbols and deleted files)."""
    embedding_calls: int = 0
    """Calls made to the dense embedding model or provider (0 when dense vectors follow in ChunksEmbedded)."""
    points_total: int = 0
    """Points of the repository in the store when the event was published."""
    points_missing_dense: int = 0
    """Of those, points still without a dense vector: the dense phase that follows writes them and
    publishes ChunksEmbedded (0 = hybrid search already sees everything)."""
    recency_status: RecencyStatus = "skipped"
    """Status of the recency scan that stamped ``last_modified_at``."""
    duration_seconds: float = 0.0
    """Wall time of the index run."""
    history_fetch_follows: bool = False
    """The run's fetch of the whole history (a blob-less mirror's first run) started after this event:
    the analysis that follows judges doc claims without it, and HistoryHydrated follows when it ends."""


HistoryOutcome = Literal["complete", "incomplete", "failed"]


class HistoryHydrated(Event, frozen=True, kw_only=True, tag="history.hydrated"):
    """The history fetch that followed a run's ChunksIndexed ended: the doc claims can be judged again.

    Published by the indexer once per run whose ChunksIndexed said ``history_fetch_follows``; the
    analyzer's reviser answers it with DocClaimsRejudged (and a revised AnalysisCompleted when the
    findings changed).
    """

    head_sha: str | None = None
    """Commit whose history was fetched (the run's head)."""
    outcome: HistoryOutcome = "complete"
    """complete: every past source blob is in the mirror; incomplete: the budget stopped the fetch (see
    ``note``); failed: the fetch failed (the history stays as it was)."""
    note: str | None = None
    """Why the history is not complete, safe to show; None when it is."""
    missing: int = 0
    """Past source blobs the mirror lacked when the fetch began."""
    fetched: int = 0
    """Blobs the fetch brought."""
    bytes_fetched: int = 0
    """Bytes the mirror grew by."""
    seconds: float = 0.0
    """Wall time of the fetch."""


class DocClaimsRejudged(Event, frozen=True, kw_only=True, tag="doc_claims.rejudged"):
    """The analyzer judged a run's doc claims again once its history fetch ended (answering HistoryHydrated)."""

    head_sha: str | None = None
    """Commit analysed."""
    revised: bool = False
    """A revised AnalysisCompleted of the run was published (its doc-claim findings changed)."""
    analysis_event_id: str | None = None
    """event_id of that revised analysis, when ``revised``."""
    claims_before: dict[str, int] = msgspec.field(default_factory=dict)
    """verified / contradicted / outdated / unverifiable → count, in the analysis judged first."""
    claims_after: dict[str, int] = msgspec.field(default_factory=dict)
    """The same, judged with the history now in the mirror (equal to ``claims_before`` when not revised)."""
    history_note: str | None = None
    """Why the history is still not complete when judged again (the fetch's budget), None when it is."""
    reason: str = ""
    """Why nothing was revised, in words (findings unchanged, a later run's analysis is current, ...)."""


class ChunksEmbedded(Event, frozen=True, kw_only=True, tag="chunks.embedded"):
    """Dense vectors were written for the repository's points after a ChunksIndexed (its second phase).

    ChunksIndexed is published once payloads and sparse vectors are stored (enough for selection,
    doc claims and analysis); dense vectors, which only hybrid search (review, search) reads, follow.
    ``points_missing == 0`` means every point of the repository — so every point of the run — can be
    found by dense search. Points still missing (a provider outage) are picked up by the next pass,
    found from the store itself.
    """

    head_sha: str | None = None
    """Commit of the ChunksIndexed this pass followed."""
    collection: str = ""
    """Store collection (one per embedding model) the vectors live in."""
    model: str = ""
    """Dense embedding model id."""
    points_total: int = 0
    """Points of the repository when the pass ended."""
    points_embedded: int = 0
    """Dense vectors this pass wrote (never a point that already had one)."""
    points_missing: int = 0
    """Points of the repository still without a dense vector when the pass ended (0 = complete)."""
    complete: bool = False
    """Every point of the repository has its dense vector (hybrid search sees everything)."""
    reason: str | None = None
    """Why points are still missing (e.g. the provider was down), safe to show."""
    embedding_calls: int = 0
    """Calls made to the dense embedding model or provider by this pass."""
    duration_seconds: float = 0.0
    """Wall time of the pass."""


class SelectedChunk(msgspec.Struct, frozen=True, kw_only=True):
    """One chunk chosen for an analysis or summary prompt."""

    path: str
    """File path in the repository."""
    kind: ChunkKind
    """doc or code (by extension)."""
    text: str
    """The chunk's source text (untrusted repository content)."""
    last_modified_at: str | None = None
    """ISO date of the file's last commit; None = age unknown."""
    start_line: int = 1
    """First line of the chunk."""
    end_line: int = 1
    """Last line of the chunk."""
    symbol: str | None = None
    """Symbol or section name, when any."""
    symbol_type: str | None = None
    """function, class, section, window, ..."""
    language: str | None = None
    """Language of the file."""
    reason: Literal["seed", "code", "doc"] = "code"
    """Why it was picked: a README/manifest seed, the code budget, or the doc budget."""
    blob_sha: str | None = None
    """Git blob SHA of the chunk's file (part of the analysis fingerprint); None from older selectors."""
    symbol_last_modified_at: str | None = None
    """When the symbol's own lines last changed, when the index knows it; None otherwise."""


class SelectionCounts(msgspec.Struct, frozen=True, kw_only=True):
    """How a selection was made up."""

    total_chunks: int = 0
    """Chunks of the repository that were scrolled."""
    code_available: int = 0
    """Code chunks available."""
    doc_available: int = 0
    """Doc chunks available."""
    picked_code: int = 0
    """Code chunks picked (seeds included)."""
    picked_doc: int = 0
    """Doc chunks picked (seeds included)."""


class ChunksSelected(Event, frozen=True, kw_only=True, tag="chunks.selected"):
    """The selector chose the chunks an analysis or a summary will read."""

    purpose: Purpose
    """analysis (80 chunks) or summary (40 chunks)."""
    limit: int
    """How many chunks were asked for."""
    chunks: list[SelectedChunk] = msgspec.field(default_factory=list)
    """The selection, in prompt order."""
    median_code: str | None = None
    """Median last-modified date over code files: the repo's staleness reference, None if unknown."""
    counts: SelectionCounts = msgspec.field(default_factory=SelectionCounts)
    """How the selection was made up."""
    head_sha: str | None = None
    """Commit the index reflected."""


class DocClaim(msgspec.Struct, frozen=True, kw_only=True):
    """One checkable claim a doc makes about the code, and what the code says."""

    doc: str
    """Path of the doc."""
    line: int
    """Line of the claim in the doc."""
    ref: str
    """What the doc refers to (a path, symbol, env var, command, flag or config key)."""
    kind: str
    """path, symbol, env, cli, flag or config_key."""
    status: ClaimStatus
    """verified, contradicted, outdated or unverifiable."""
    evidence: str
    """Where the code confirms or contradicts it, in words."""
    removed_by: str | None = None
    """For a name the repository's code once defined: the commit that removed it (`<short sha> '<subject>'`)."""
    removed_at: str | None = None
    """Calendar day (YYYY-MM-DD, UTC) of that commit."""
    replacement: str | None = None
    """The name the code has instead (added by the removing commit, or the nearest current symbol)."""
    changed: str | None = None
    """For an outdated claim: what changed in the definition after the doc line, and when, in words."""


class TokenUsage(msgspec.Struct, frozen=True, kw_only=True):
    """Tokens a language model call consumed."""

    input_tokens: int = 0
    """Prompt tokens."""
    output_tokens: int = 0
    """Completion tokens."""


class _PlacedChunk(Protocol):
    """A chunk's place in its file and its kind (a stored payload or a selected chunk)."""

    @property
    def path(self) -> str: ...
    @property
    def start_line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def kind(self) -> str: ...


class ReadChunk(msgspec.Struct, frozen=True, kw_only=True):
    """One chunk an analysis, summary or review read: where it sits, what it is, how old it is."""

    path: str
    """File path in the repository."""
    start_line: int = 1
    """First line of the chunk."""
    end_line: int = 1
    """Last line of the chunk."""
    kind: ChunkKind = "code"
    """doc or code."""
    last_modified_at: str | None = None
    """The chunk's date (its symbol's last change when known, else its file's); None = age unknown."""

    @classmethod
    def of(cls, chunk: _PlacedChunk, date: str | None) -> ReadChunk:
        """The entry of a stored or selected chunk: its place, doc or code, and the date it is read at."""
        kind: ChunkKind = "doc" if chunk.kind == "doc" else "code"
        return cls(
            path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line, kind=kind, last_modified_at=date
        )


class StaleDocFraming(msgspec.Struct, frozen=True, kw_only=True):
    """A doc the prompt framed as possibly outdated, and why."""

    path: str
    """Path of the doc."""
    last_modified_at: str | None = None
    """The doc's date."""
    reason: str = ""
    """Why, in words: its age against the median code-file date."""


class Provenance(msgspec.Struct, frozen=True, kw_only=True):
    """What an output stands on: the chunks it read, the docs it framed stale, the claims, the model."""

    chunks: list[ReadChunk] = msgspec.field(default_factory=list)
    """Every chunk the output read, in prompt order."""
    code_chunks: int = 0
    """Code chunks among them."""
    doc_chunks: int = 0
    """Doc chunks among them."""
    doc_share: float = 0.0
    """doc_chunks / all chunks read (0 when none)."""
    stale_docs: list[StaleDocFraming] = msgspec.field(default_factory=list)
    """Docs framed as possibly outdated in the prompt, and why."""
    median_code: str | None = None
    """The median code-file date the framing used."""
    claims_checked: int = 0
    """Doc claims checked against the code (the analysis; 0 for a summary)."""
    claims_by_status: dict[str, int] = msgspec.field(default_factory=dict)
    """verified / contradicted / outdated / unverifiable → count."""
    model: str = "none"
    """The model that wrote the text, or "none"."""
    provider: str = "none"
    """Its provider."""
    input_tokens: int = 0
    """Prompt tokens the text cost when it was written."""
    output_tokens: int = 0
    """Completion tokens the text cost when it was written."""
    dense_vectors: bool = False
    """Whether dense vectors were used to find what was read (selection and doc checks never use them)."""
    search: str = ""
    """How context was found: "payload scroll" (analysis, summary), "hybrid" or "sparse-only" (review)."""
    doc_history_note: str | None = None
    """Why the doc claims were judged without the whole history (e.g. it was still being fetched);
    None when they were judged with it, or nothing says otherwise."""
    revision_of: str | None = None
    """For an analysis revised once the run's history fetch ended: event_id of the analysis it revises."""


class AnalysisCompleted(Event, frozen=True, kw_only=True, tag="analysis.completed"):
    """The analyzer wrote the repository's seven-section analysis."""

    markdown: str
    """The whole analysis as Markdown."""
    sections: dict[str, str] = msgspec.field(default_factory=dict)
    """Section title → its text."""
    doc_claims: list[DocClaim] = msgspec.field(default_factory=list)
    """Doc claims checked against the code, before any model saw them."""
    model: str = "none"
    """Model that wrote the text, or "none" when the analysis was computed from evidence alone."""
    provider: str = "none"
    """Provider of that model (anthropic, openai-compatible, none)."""
    usage: TokenUsage = msgspec.field(default_factory=TokenUsage)
    """Tokens used."""
    counts: SelectionCounts = msgspec.field(default_factory=SelectionCounts)
    """How the chunk selection was made up."""
    median_code: str | None = None
    """Median code-file date used for staleness."""
    head_sha: str | None = None
    """Commit analysed."""
    prompt: str = ""
    """The prompt that was (or would have been) sent: inspectable, repository text fenced as data."""
    warnings: list[str] = msgspec.field(default_factory=list)
    """Non-fatal problems (e.g. the model failed and the evidence-only report was written instead)."""
    fingerprint: str = ""
    """Digest of every input (selection, doc-claim findings, model, prompt version; docs/analysis.md).
    Empty when the text must not be reused (the model failed and the evidence-only report stands in)."""
    unchanged_since: str | None = None
    """Set when this run's inputs matched the last analysis: when that text was first written
    (ISO 8601 UTC). The text, claims and provenance are then the earlier ones, and `usage` is zero."""
    provenance: Provenance = msgspec.field(default_factory=Provenance)
    """What the analysis read and who wrote it."""


class SummaryCompleted(Event, frozen=True, kw_only=True, tag="summary.completed"):
    """The analyzer wrote the short summary (40 chunks, no Documentation Accuracy section)."""

    purpose: str
    """What the repository is for, in a sentence or two."""
    summary: str
    """A short summary of the repository."""
    model: str = "none"
    """Model that wrote it, or "none"."""
    provider: str = "none"
    """Provider of that model."""
    usage: TokenUsage = msgspec.field(default_factory=TokenUsage)
    """Tokens used."""
    head_sha: str | None = None
    """Commit summarised."""
    warnings: list[str] = msgspec.field(default_factory=list)
    """Non-fatal problems (e.g. the model failed and the evidence-only summary was written instead)."""
    markdown: str = ""
    """Purpose, summary and the closing provenance section, as Markdown."""
    fingerprint: str = ""
    """Digest of every input (selection, model, prompt version); empty when it must not be reused."""
    unchanged_since: str | None = None
    """Set when this run's inputs matched the last summary: when that text was first written."""
    provenance: Provenance = msgspec.field(default_factory=Provenance)
    """What the summary read and who wrote it."""


class ReviewRequested(Event, frozen=True, kw_only=True, tag="review.requested"):
    """Someone asked for a review of a change (a pull request or two refs)."""

    pr_number: int | None = None
    """Pull/merge request number, when any."""
    title: str = ""
    """Title of the change."""
    description: str = ""
    """Description of the change."""
    base_ref: str | None = None
    """Base ref; with ``head_ref`` the reviewer computes the diff with git."""
    head_ref: str | None = None
    """Head ref."""
    diff: str | None = None
    """A unified diff, when the publisher sends it instead of refs."""

    def __post_init__(self) -> None:
        """Mask credentials in the title, description and diff, whoever builds or decodes the request.

        These texts come from a pull request or a diff file and go to a hosted model and into the
        review; a token pasted in a description or a key in a diff stops here. Built by us, the
        request is published masked; decoded from a publisher that did not mask, it is masked before
        any handler reads it. Masking is idempotent, so a re-decoded request is unchanged.
        """
        title, description, diff = redact_change(self.title, self.description, self.diff or "")
        masked = {"title": title, "description": description, "diff": diff if self.diff else self.diff}
        for name, value in masked.items():
            if value != getattr(self, name):
                msgspec.structs.force_setattr(self, name, value)


class ReviewFinding(msgspec.Struct, frozen=True, kw_only=True):
    """One review comment."""

    path: str
    """File the finding is about."""
    line: int | None = None
    """Line in that file, when known."""
    severity: Literal["info", "warning", "error"] = "info"
    """How much it matters."""
    message: str
    """What the reviewer says."""
    kind: str = "review"
    """review, or doc_drift (a doc that references what this change removes or renames)."""
    doc: str | None = None
    """For doc drift: the doc to update."""


class ContextItem(msgspec.Struct, frozen=True, kw_only=True):
    """Provenance of one retrieved chunk in the review context."""

    path: str
    """File of the chunk."""
    kind: ChunkKind
    """doc or code."""
    score: float | None = None
    """Rerank score (None when reranking failed and the search order was kept)."""
    last_modified_at: str | None = None
    """ISO date of the file's last commit, None = unknown."""
    kept: bool = True
    """Whether the chunk reached the prompt."""
    reason: str = ""
    """Why it was kept or dropped."""
    start_line: int = 1
    """First line of the chunk."""
    end_line: int = 1
    """Last line of the chunk."""


class ReviewCompleted(Event, frozen=True, kw_only=True, tag="review.completed"):
    """The reviewer finished a review."""

    request_id: str
    """event_id of the ReviewRequested this answers."""
    pr_number: int | None = None
    """Pull/merge request number, when any."""
    findings: list[ReviewFinding] = msgspec.field(default_factory=list)
    """Review comments and doc-drift findings."""
    context: list[ContextItem] = msgspec.field(default_factory=list)
    """What was retrieved, its ages, what was kept or demoted and why."""
    markdown: str = ""
    """The review, readable."""
    model: str = "none"
    """Model used, or "none"."""
    provider: str = "none"
    """Provider used."""
    usage: TokenUsage = msgspec.field(default_factory=TokenUsage)
    """Tokens used."""
    warnings: list[str] = msgspec.field(default_factory=list)
    """Non-fatal problems (e.g. rerank failed, original order kept)."""
    prompt: str = ""
    """The review prompt as assembled."""
    provenance: Provenance = msgspec.field(default_factory=Provenance)
    """What the review read: the kept context, how it was searched (hybrid or sparse-only), the model."""


class StageFailed(Event, frozen=True, kw_only=True, tag="stage.failed"):
    """A stage could not finish a run; what a user sees instead of silence."""

    stage: str
    """recency_scanner, indexer, selector, analyzer or reviewer."""
    reason: str
    """What went wrong, safe to show (never credentials)."""
    cause_event_id: str | None = None
    """event_id of the event the stage was handling."""
    cause_type: str | None = None
    """Event type the stage was handling."""


class EventParked(Event, frozen=True, kw_only=True, tag="event.parked"):
    """A message a consumer could not handle (malformed, unknown type, or out of deliveries).

    It is acknowledged and recorded here so it never crash-loops and a user can find it.
    """

    consumer: str
    """Durable consumer that parked it."""
    subject: str
    """Subject the message arrived on."""
    stream_sequence: int | None = None
    """Its sequence in the stream, to read the original message."""
    deliveries: int = 0
    """How many times it was delivered."""
    reason: str
    """Why it was parked."""


AnyEvent = (
    RepoUpdated
    | FileRecencyComputed
    | ChunksIndexed
    | ChunksEmbedded
    | HistoryHydrated
    | ChunksSelected
    | AnalysisCompleted
    | SummaryCompleted
    | DocClaimsRejudged
    | ReviewRequested
    | ReviewCompleted
    | StageFailed
    | EventParked
)

EVENT_TYPES: tuple[type[Event], ...] = (
    RepoUpdated,
    FileRecencyComputed,
    ChunksIndexed,
    ChunksEmbedded,
    HistoryHydrated,
    ChunksSelected,
    AnalysisCompleted,
    SummaryCompleted,
    DocClaimsRejudged,
    ReviewRequested,
    ReviewCompleted,
    StageFailed,
    EventParked,
)


def event_id_for(event_type: type[Event], run_id: str, *key: object) -> str:
    """Deterministic event id: the event name, the run and what distinguishes it within the run.

    A redelivered or replayed input produces the same id, so JetStream's de-duplication
    (``Nats-Msg-Id``) stores the fact once.
    """
    tag = event_type.__struct_config__.tag
    return stable_id(tag, run_id, *key)


def stage_failed(cause: Event, stage: str, reason: str) -> StageFailed:
    """The StageFailed a user sees when ``stage`` cannot finish the run ``cause`` belongs to.

    Args:
        cause: The event the stage was handling.
        stage: recency_scanner, indexer, selector, analyzer or reviewer.
        reason: What went wrong, safe to show (never credentials).

    Returns:
        A StageFailed with a deterministic id (one per stage and cause).
    """
    tag = type(cause).__struct_config__.tag
    return StageFailed(
        event_id=event_id_for(StageFailed, cause.run_id, stage, cause.event_id),
        run_id=cause.run_id,
        occurred_at=utc_now_iso(),
        repo=cause.repo,
        stage=stage,
        reason=reason,
        cause_event_id=cause.event_id,
        cause_type=tag if isinstance(tag, str) else None,
    )
