"""Post every new Sextant analysis to a Slack channel: its overview, Documentation Accuracy and provenance.

A durable JetStream consumer of `AnalysisCompleted` events (subject `sextant.analysis.completed.*`).
Durable means it resumes where it stopped: start it after Sextant has run and it posts what it
missed; run two copies and they share the work instead of posting twice. An analysis republished
because its inputs did not change (``unchanged_since`` set) is not posted again.

A revision is posted as one: a blob-less mirror's first analysis judges doc claims before the
history is fetched (its context line says so), and once the fetch ends Sextant judges them again and,
when a finding changed, publishes a revised analysis of the same run and then `DocClaimsRejudged`
with the claim counts before and after. The revised analysis is not posted as a second, unrelated
one: a second durable consumer (`<durable>-revisions`) takes the `DocClaimsRejudged` and posts
"Sextant analysis revised", the counts that changed (``contradicted 1 → 4``) and the revised
findings, read from the stream (the revised analysis is the repository's current one). A revision
that changed no count (often only the evidence's wording: it names the history searched) is not
posted; `sextant show` prints it.

    SLACK_WEBHOOK_URL=https://hooks.slack.com/services/… NATS_URL=nats://127.0.0.1:4222 \
        uv run --no-sync python examples/slack_responder/slack_responder.py

Environment:
    SLACK_WEBHOOK_URL   Slack incoming-webhook URL (required; a secret: it is never logged or shown).
    NATS_URL            The NATS server Sextant publishes to (required: it never guesses a bus).
    SLACK_RESPONDER_DURABLE  Durable consumer name (default slack-responder; its revisions consumer
                        adds "-revisions").
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from faststream.nats import NatsRouter
from nats.js.errors import NotFoundError

from sextant.bus import Bus, ServiceSpec, build_broker, consume, start_routers, wait_for_stop_signal
from sextant.contracts import STREAM_NAME, AnalysisCompleted, DocClaim, DocClaimsRejudged, Event, subject_pattern

logger = logging.getLogger("slack_responder")

SERVICE_NAME = "slack-responder"
DEFAULT_DURABLE = "slack-responder"
REVISIONS_SUFFIX = "-revisions"
"""The revisions consumer's durable is the responder's durable with this suffix."""
OVERVIEW_SECTION = "Architecture Overview"
ACCURACY_SECTION = "Documentation Accuracy"

# Slack's limits for incoming-webhook blocks.
HEADER_LIMIT = 150
SECTION_LIMIT = 3000
MAX_BLOCKS = 50
CLAIMS_SHOWN = 10
OVERVIEW_CHARS = 1500
CONTEXT_CHARS = 300
CLAIM_STATUSES = ("contradicted", "outdated", "unverifiable", "verified")


class SlackPostError(Exception):
    """Slack did not take the message; the text never holds the webhook URL."""


class SlackWebhook:
    """Posts JSON messages to one incoming-webhook URL, which it keeps out of every repr and error."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        if not url.startswith("https://") and not url.startswith("http://"):
            raise ValueError("SLACK_WEBHOOK_URL must be an http(s) URL")
        self._url = url
        self._timeout = timeout
        # httpx logs each request's full URL at INFO (httpcore traces at DEBUG); this URL is the secret.
        for name in ("httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.WARNING)

    def __repr__(self) -> str:
        return "SlackWebhook(url=<hidden>)"

    async def post(self, message: Mapping[str, Any]) -> None:
        """Send one message.

        Raises:
            SlackPostError: when Slack cannot be reached or does not answer 200; the consumer then
                retries the event later and parks it after its last attempt.
        """
        try:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                response = await client.post(self._url, json=message)
        except httpx.HTTPError as error:
            raise SlackPostError(f"could not reach the Slack webhook ({type(error).__name__})") from None
        if response.status_code != 200:
            raise SlackPostError(f"Slack answered HTTP {response.status_code}: {response.text[:100]}")


def escape(text: str) -> str:
    """Escape Slack's control characters, so repository text cannot ping a channel or forge a link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_mrkdwn(markdown: str) -> str:
    """Markdown as Slack mrkdwn: escaped, bold as *x*, tables and headings left out."""
    lines = [line for line in markdown.splitlines() if not line.lstrip().startswith(("|", "#"))]
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", escape("\n".join(lines)))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def shorten(text: str, limit: int) -> str:
    """Cut at a line end before `limit` characters when possible, and say that it was cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    return cut + "\n…"


def _code(text: str) -> str:
    return "`" + escape(text).replace("`", "'").replace("\n", " ") + "`"


def claim_evidence(claim: DocClaim) -> str:
    """What the code says about one claim, with history where the check found it.

    The evidence sentence usually says already which commit removed the name and what replaced it;
    the structured fields add only what it leaves out, so nothing is said twice.
    """
    evidence = claim.evidence
    parts = [escape(evidence)]
    sha = claim.removed_by.split(maxsplit=1)[0] if claim.removed_by else ""
    if claim.removed_by and sha not in evidence:
        when = f" on {escape(claim.removed_at)}" if claim.removed_at else ""
        parts.append(f"removed by {escape(claim.removed_by)}{when}")
    if claim.replacement and "now " not in evidence:
        parts.append(f"now {_code(claim.replacement)}")
    if claim.changed and claim.changed not in evidence:
        parts.append(escape(claim.changed))
    return "; ".join(part for part in parts if part)


def claim_line(claims: Sequence[DocClaim]) -> str:
    """The findings of one doc line as one Slack list item (a command line can hold several refs).

    With several refs on the line, each ref's evidence is named after it, so the reader can tell
    which evidence belongs to which name.
    """
    first = claims[0]
    refs = ", ".join(_code(claim.ref) for claim in claims)
    if len(claims) == 1:
        evidence = claim_evidence(first)
    else:
        evidence = "; ".join(f"{_code(claim.ref)}: {claim_evidence(claim)}" for claim in claims)
    return f"• {_code(f'{first.doc}:{first.line}')} {refs} — *{first.status}*: {evidence}"


def _by_doc_line(claims: Sequence[DocClaim], status: str) -> list[list[DocClaim]]:
    lines: dict[tuple[str, int], list[DocClaim]] = {}
    for claim in claims:
        if claim.status == status:
            lines.setdefault((claim.doc, claim.line), []).append(claim)
    return [lines[key] for key in sorted(lines)]


def accuracy_text(event: AnalysisCompleted) -> str:
    """The findings: counts by status, contradicted then outdated (one line per doc line), verified per doc."""
    if not event.doc_claims:
        return to_mrkdwn(event.sections.get(ACCURACY_SECTION, "")) or "No documentation claims were checked."
    counts = Counter(claim.status for claim in event.doc_claims)
    totals = ", ".join(f"{counts[s]} {s}" for s in ("contradicted", "outdated", "verified", "unverifiable"))
    suspect = _by_doc_line(event.doc_claims, "contradicted") + _by_doc_line(event.doc_claims, "outdated")
    lines = [f"{len(event.doc_claims)} doc claims checked against the code: {totals}."]
    lines += [claim_line(group) for group in suspect[:CLAIMS_SHOWN]]
    if len(suspect) > CLAIMS_SHOWN:
        lines.append(f"… and {len(suspect) - CLAIMS_SHOWN} more")
    verified = Counter(claim.doc for claim in event.doc_claims if claim.status == "verified")
    if verified:
        docs = ", ".join(f"{_code(doc)} ({n})" for doc, n in sorted(verified.items())[:CLAIMS_SHOWN])
        more = f" and {len(verified) - CLAIMS_SHOWN} more" if len(verified) > CLAIMS_SHOWN else ""
        lines.append(f"Verified claims per doc: {docs}{more}.")
    return "\n".join(lines)


def provenance_text(event: AnalysisCompleted) -> str | None:
    """One line on what the analysis stands on, or None for an event without provenance."""
    p = event.provenance
    if not p.chunks:
        return None
    stale = f", {len(p.stale_docs)} framed as possibly outdated" if p.stale_docs else ""
    dense = "dense vectors used" if p.dense_vectors else "no dense vectors"
    return (
        f"read {p.code_chunks} code and {p.doc_chunks} doc chunks{stale}; "
        f"{p.claims_checked} doc claims checked; {dense}"
    )


def history_text(event: AnalysisCompleted) -> str | None:
    """Why the doc claims were judged without the whole history (a revision may follow), or None."""
    note = event.provenance.doc_history_note
    return f"doc claims judged without the whole history: {escape(note)}" if note else None


def _context_block(items: Sequence[str]) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": shorten(item, CONTEXT_CHARS)} for item in items]}


def _commit(head_sha: str | None) -> str:
    return f"commit `{escape(head_sha[:12])}`" if head_sha else "commit unknown"


def slack_message(event: AnalysisCompleted) -> dict[str, Any]:
    """The webhook message for one analysis: a header, a context line, the overview and the findings.

    Args:
        event: The analysis.

    Returns:
        JSON for Slack's incoming webhook: `text` (the notification fallback) and `blocks`.
    """
    title = f"Sextant analysis: {event.repo.url}"
    model = "no language model (computed from evidence)" if event.model == "none" else escape(event.model)
    overview = to_mrkdwn(event.sections.get(OVERVIEW_SECTION, "")) or "(no overview)"
    first_line = event.markdown.splitlines()[0] if event.markdown else ""
    context = [_commit(event.head_sha), model]
    context += [escape(first_line)] if first_line.startswith("No language model") else []
    context += [text for text in (provenance_text(event), history_text(event)) if text is not None]
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": shorten(title, HEADER_LIMIT)}},
        _context_block(context),
        {"type": "section", "text": {"type": "mrkdwn", "text": shorten(f"*Overview*\n{overview}", OVERVIEW_CHARS)}},
        {"type": "divider"},
        {
            "type": "section",
            "text": {
                "type": "mrkdwn",
                "text": shorten(f"*Documentation Accuracy*\n{accuracy_text(event)}", SECTION_LIMIT),
            },
        },
    ]
    return {"text": shorten(title, HEADER_LIMIT), "blocks": blocks[:MAX_BLOCKS]}


def claim_changes(rejudged: DocClaimsRejudged) -> str:
    """``contradicted 1 → 4, unverifiable 6 → 2``: each claim count the second judgement changed."""
    before, after = rejudged.claims_before, rejudged.claims_after
    changes = [
        f"{status} {before.get(status, 0)} → {after.get(status, 0)}"
        for status in CLAIM_STATUSES
        if before.get(status, 0) != after.get(status, 0)
    ]
    return ", ".join(changes) or "the same counts by status, other evidence"


def counts_changed(rejudged: DocClaimsRejudged) -> bool:
    """Whether the second judgement changed any claim count (not only the evidence's wording)."""
    before, after = rejudged.claims_before, rejudged.claims_after
    return any(before.get(status, 0) != after.get(status, 0) for status in CLAIM_STATUSES)


def revision_message(rejudged: DocClaimsRejudged, revised: AnalysisCompleted | None) -> dict[str, Any]:
    """The webhook message for a revised analysis: what changed since the run's first one, then its findings.

    Args:
        rejudged: The run's DocClaimsRejudged (``revised`` true).
        revised: The revised analysis it names, or None when the stream's current analysis of the
            repository is another one (a later run's): then only the counts are posted.

    Returns:
        JSON for Slack's incoming webhook: `text` and `blocks`.
    """
    title = f"Sextant analysis revised: {rejudged.repo.url}"
    # The note is the fetch's budget or the history search's own (how far back it read): either way a caveat.
    history = "the history now fetched" + (f" ({escape(rejudged.history_note)})" if rejudged.history_note else "")
    changes = (
        f"*Revision of the analysis posted earlier for this run* (`{escape(rejudged.run_id[:12])}`): "
        f"the doc claims were judged again with {history}.\nChanged: {escape(claim_changes(rejudged))}."
    )
    context = [_commit(rejudged.head_sha)]
    if revised is not None and (read := provenance_text(revised)) is not None:
        context.append(read)
    findings = (
        f"*Documentation Accuracy (revised)*\n{accuracy_text(revised)}"
        if revised is not None
        else "A later analysis of this repository has been posted since: it is the current one."
    )
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": shorten(title, HEADER_LIMIT)}},
        _context_block(context),
        {"type": "section", "text": {"type": "mrkdwn", "text": shorten(changes, SECTION_LIMIT)}},
        {"type": "divider"},
        {"type": "section", "text": {"type": "mrkdwn", "text": shorten(findings, SECTION_LIMIT)}},
    ]
    return {"text": shorten(f"{title}: {claim_changes(rejudged)}", HEADER_LIMIT), "blocks": blocks}


async def revised_analysis(bus: Bus, rejudged: DocClaimsRejudged) -> AnalysisCompleted | None:
    """The revised analysis a DocClaimsRejudged names, when it is still the repository's current one.

    It was published just before the DocClaimsRejudged, on the repository's analysis subject, so the
    last message there is it unless a later run's analysis came since.
    """
    subject = subject_pattern(AnalysisCompleted, rejudged.repo.repo_key)
    try:
        raw = await bus.js.get_last_msg(STREAM_NAME, subject)
    except NotFoundError:
        return None
    event = await bus.decode(raw.data or b"", dict(raw.headers or {}))
    if isinstance(event, AnalysisCompleted) and event.event_id == rejudged.analysis_event_id:
        return event
    return None


def create_router(bus: Bus, webhook: SlackWebhook, durable: str = DEFAULT_DURABLE) -> NatsRouter:
    """A router with two durable consumers: analyses, and the revisions of a first run's doc claims."""
    router = bus.router()

    async def handle(event: AnalysisCompleted) -> Sequence[Event]:
        if event.unchanged_since:
            # The inputs did not change: the channel already has this analysis, word for word.
            logger.info(
                "analysis of %s unchanged since %s: not posted again", event.repo.repo_key, event.unchanged_since
            )
            return []
        if event.provenance.revision_of is not None:
            # Posted with the run's DocClaimsRejudged, which says what changed since the first one.
            logger.info("revised analysis of %s (run %s): posted as a revision", event.repo.repo_key, event.run_id)
            return []
        await webhook.post(slack_message(event))
        logger.info("posted the analysis of %s (run %s) to Slack", event.repo.repo_key, event.run_id)
        return []  # nothing to publish back

    async def handle_rejudged(event: DocClaimsRejudged) -> Sequence[Event]:
        if not event.revised:
            logger.info("doc claims of %s (run %s) not revised: %s", event.repo.repo_key, event.run_id, event.reason)
            return []
        if not counts_changed(event):
            # Typically only the evidence changed (it now names the history searched instead of "still
            # being fetched"): a second post would say nothing the channel can act on.
            logger.info("revision of %s (run %s) changed no count: not posted", event.repo.repo_key, event.run_id)
            return []
        await webhook.post(revision_message(event, await revised_analysis(bus, event)))
        logger.info("posted the revision of %s (run %s) to Slack", event.repo.repo_key, event.run_id)
        return []

    consume(router, bus, event_type=AnalysisCompleted, durable=durable, stage="slack_responder", handle=handle)
    consume(
        router,
        bus,
        event_type=DocClaimsRejudged,
        durable=durable + REVISIONS_SUFFIX,
        stage="slack_responder",
        handle=handle_rejudged,
    )
    return router


async def run(env: Mapping[str, str], stop: asyncio.Event | None = None) -> None:
    """Consume until `stop` is set (or, without one, until Ctrl-C / SIGTERM).

    Args:
        env: SLACK_WEBHOOK_URL, NATS_URL, SLACK_RESPONDER_DURABLE.
        stop: Set it to stop (tests); None waits for a signal.
    """
    url = env.get("SLACK_WEBHOOK_URL", "").strip()
    if not url:
        raise SystemExit("set SLACK_WEBHOOK_URL to a Slack incoming-webhook URL")
    nats_url = env.get("NATS_URL", "").strip()
    if not nats_url:  # joining whatever listens on NATS's usual port would be a silent surprise
        raise SystemExit("set NATS_URL to the NATS server Sextant publishes to (e.g. nats://127.0.0.1:4222)")
    webhook = SlackWebhook(url)
    durable = env.get("SLACK_RESPONDER_DURABLE", "").strip() or DEFAULT_DURABLE
    bus = Bus(build_broker(nats_url), service=SERVICE_NAME)
    await start_routers(bus, [ServiceSpec(SERVICE_NAME, lambda b: create_router(b, webhook, durable))])
    logger.info("waiting for analyses (durable consumer %s)", durable)
    try:
        await (stop.wait() if stop is not None else wait_for_stop_signal())
    finally:
        await bus.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    asyncio.run(run(os.environ))
