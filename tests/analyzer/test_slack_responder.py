"""The Slack responder example: real nats-server, and a local server that checks Slack's webhook JSON."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import msgspec
import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.contracts import (
    AnalysisCompleted,
    DocClaim,
    DocClaimsRejudged,
    Provenance,
    ReadChunk,
    RepoRef,
    event_id_for,
    utc_now_iso,
)
from sextant.doc_claims import check_repository, doc_claims
from sextant.gitsource.history_blobs import UNDER_WAY_NOTE

from ..conftest import GitRepo
from ..doc_claims.test_history_evidence import renamed_history
from ..support.events import doc_claim

SECRET_PATH = "/services/T0000/B0000/XXXXsecretXXXX"
BLOCK_TYPES = {"header", "section", "context", "divider"}


def slack_shape_errors(message: Any) -> list[str]:
    """What Slack's incoming webhook would reject in a message (the subset of Block Kit we use)."""
    errors = []
    if not isinstance(message, dict) or set(message) - {"text", "blocks"}:
        return ["top level must be an object with text and blocks"]
    if not isinstance(message.get("text"), str) or not message["text"]:
        errors.append("text (the notification fallback) must be a non-empty string")
    blocks = message.get("blocks", [])
    if not isinstance(blocks, list) or not 0 < len(blocks) <= 50:
        return [*errors, "blocks must be a list of 1 to 50 blocks"]
    for block in blocks:
        kind = block.get("type")
        if kind not in BLOCK_TYPES:
            errors.append(f"unknown block type {kind!r}")
        elif kind == "header":
            text = block.get("text", {})
            if text.get("type") != "plain_text" or not 0 < len(text.get("text", "")) <= 150:
                errors.append("header needs plain_text of at most 150 characters")
        elif kind == "section":
            text = block.get("text", {})
            if text.get("type") not in {"mrkdwn", "plain_text"} or not 0 < len(text.get("text", "")) <= 3000:
                errors.append("section text must be 1..3000 characters")
        elif kind == "context":
            elements = block.get("elements", [])
            if not 0 < len(elements) <= 10 or any(e.get("type") not in {"mrkdwn", "plain_text"} for e in elements):
                errors.append("context needs 1..10 text elements")
        elif set(block) != {"type"}:
            errors.append("divider takes no fields")
    return errors


class FakeSlack:
    """Answers like Slack: 200 "ok" for a valid message, 400 "invalid_blocks" otherwise (or a set status)."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.paths: list[str] = []
        self.status = 200
        self.received = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                fake.paths.append(self.path)
                ok = self.headers.get("content-type", "").startswith("application/json")
                message = json.loads(body) if ok else None
                errors = slack_shape_errors(message) if ok else ["not JSON"]
                status = 400 if errors else fake.status
                if status == 200:
                    fake.messages.append(message)
                    fake.received.set()
                answer = b"ok" if status == 200 else (b"invalid_blocks" if errors else b"internal_error")
                self.send_response(status)
                self.send_header("content-type", "text/plain")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{SECRET_PATH}"


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    fake = FakeSlack()
    thread = threading.Thread(target=fake.server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.server.shutdown()
        fake.server.server_close()
        thread.join(timeout=5)


def analysis(**fields: Any) -> AnalysisCompleted:
    values: dict[str, Any] = {
        "event_id": event_id_for(AnalysisCompleted, "run-s", "x"),
        "run_id": "run-s",
        "occurred_at": utc_now_iso(),
        "repo": RepoRef.for_url("https://example.com/acme/shop.git"),
        "markdown": "No language model was used for this analysis (none is configured).\n\n## Architecture Overview\n",
        "sections": {
            "Architecture Overview": "The index holds **3 files**.\n\n| a | b |\n|---|---|\n\nAsk <!channel> & co.",
            "Documentation Accuracy": "…",
        },
        "doc_claims": [
            doc_claim(
                "create_legacy_session()",
                "contradicted",
                "no file or symbol named create_legacy_session in the indexed code",
            ),
            doc_claim("open_session()", doc="docs/usage.md"),
        ],
        "head_sha": "0123456789abcdef",
    }
    values.update(fields)
    return AnalysisCompleted(**values)


def test_message_shape_and_content(slack_responder: Any) -> None:
    message = slack_responder.slack_message(analysis())
    assert slack_shape_errors(message) == []
    header, context, overview, divider, accuracy = message["blocks"]
    assert header["text"]["text"] == "Sextant analysis: https://example.com/acme/shop.git"
    assert [e["text"] for e in context["elements"]][:2] == [
        "commit `0123456789ab`",
        "no language model (computed from evidence)",
    ]
    assert overview["text"]["text"] == "*Overview*\nThe index holds *3 files*.\n\nAsk &lt;!channel&gt; &amp; co."
    assert divider == {"type": "divider"}
    assert accuracy["text"]["text"] == (
        "*Documentation Accuracy*\n2 doc claims checked against the code: 1 contradicted, 0 outdated, "
        "1 verified, 0 unverifiable.\n• `docs/design.md:3` `create_legacy_session()` — *contradicted*: "
        "no file or symbol named create_legacy_session in the indexed code\n"
        "Verified claims per doc: `docs/usage.md` (1)."
    )


def test_findings_contradicted_first_one_line_per_doc_line_with_history(slack_responder: Any) -> None:
    claims = [
        DocClaim(doc="a.md", line=9, ref="old_flag", kind="flag", status="outdated", evidence="e", changed="lost x"),
        DocClaim(doc="a.md", line=4, ref="run --a", kind="flag", status="contradicted", evidence="gone"),
        DocClaim(
            doc="a.md", line=4, ref="run --b", kind="flag", status="contradicted", evidence="gone",
            removed_by="1a2b3c4 'Rename'", removed_at="2024-12-04", replacement="run --c",
        ),
    ]  # fmt: skip
    text = slack_responder.accuracy_text(analysis(doc_claims=claims))
    lines = text.splitlines()
    assert lines[1].startswith(
        "• `a.md:4` `run --a`, `run --b` — *contradicted*: `run --a`: gone; `run --b`: gone; removed by"
    )
    assert "on 2024-12-04; now `run --c`" in lines[1]
    assert lines[2].startswith("• `a.md:9` `old_flag` — *outdated*: e; lost x")
    assert len(lines) == 3


def test_history_evidence_of_a_real_check_is_said_once(slack_responder: Any, git_repo: GitRepo) -> None:
    renamed_history(git_repo)
    rename = git_repo.git("log", "--format=%h", "--grep=Rename").strip()
    claims = doc_claims(check_repository(git_repo.root).findings)

    text = slack_responder.accuracy_text(analysis(doc_claims=claims))

    line = next(line for line in text.splitlines() if line.startswith("• `docs/sessions.md:3`"))
    assert line.count(rename) == 2  # once per ref on the line, never repeated from the structured fields
    assert line.count("now ") == 2
    assert "`SyncSession`: defined in acme/session.py until 2019-05-11; removed by" in line
    assert line.index("`SyncSession.refresh()`:") > line.index("`SyncSession`:")


def test_without_claims_the_section_text_is_posted(slack_responder: Any) -> None:
    message = slack_responder.slack_message(
        analysis(doc_claims=[], sections={"Documentation Accuracy": "No documentation was provided."})
    )
    assert message["blocks"][-1]["text"]["text"] == "*Documentation Accuracy*\nNo documentation was provided."
    assert slack_shape_errors(message) == []


async def test_posts_to_slack_through_a_durable_consumer(
    slack_responder: Any, slack: FakeSlack, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with EmbeddedNats(tmp_path / "nats") as server:
        publisher = Bus(build_broker(server.url))
        await publisher.connect()
        try:
            # Published before the responder starts: the durable consumer still gets it.
            await publisher.publish(analysis())
            stop = asyncio.Event()
            env = {"SLACK_WEBHOOK_URL": slack.url, "NATS_URL": server.url}
            responder = asyncio.create_task(slack_responder.run(env, stop))
            received = await asyncio.to_thread(slack.received.wait, 30)
            stop.set()
            await responder
        finally:
            await publisher.close()
    assert received
    assert slack.paths == [SECRET_PATH]
    [message] = slack.messages
    assert "create_legacy_session()" in message["blocks"][-1]["text"]["text"]
    assert SECRET_PATH not in caplog.text
    assert "XXXXsecretXXXX" not in caplog.text


async def test_a_refused_post_raises_without_the_url(slack_responder: Any, slack: FakeSlack) -> None:
    slack.status = 500
    webhook = slack_responder.SlackWebhook(slack.url)
    with pytest.raises(slack_responder.SlackPostError) as caught:
        await webhook.post(slack_responder.slack_message(analysis()))
    assert str(caught.value) == "Slack answered HTTP 500: internal_error"
    assert "secret" not in repr(webhook)
    unreachable = slack_responder.SlackWebhook("http://127.0.0.1:9/services/T/B/XXXXsecretXXXX", timeout=2)
    with pytest.raises(slack_responder.SlackPostError) as caught:
        await unreachable.post({"text": "x"})
    assert "secret" not in str(caught.value)


async def test_without_nats_url_it_refuses_to_start_instead_of_guessing_a_bus(slack_responder: Any) -> None:
    with pytest.raises(SystemExit, match="NATS_URL"):
        await slack_responder.run({"SLACK_WEBHOOK_URL": "https://hooks.slack.invalid/services/x"})


FIRST_CLAIMS = [
    doc_claim("create_legacy_session()", "unverifiable", "absent at the head; " + UNDER_WAY_NOTE),
    doc_claim("open_session()", doc="docs/usage.md"),
]
REVISED_CLAIMS = [
    doc_claim(
        "create_legacy_session()",
        "contradicted",
        "defined in shop/session.py until 2024-02-01; removed by 1a2b3c4 'Rename sessions'",
        removed_by="1a2b3c4 'Rename sessions'",
        removed_at="2024-02-01",
        replacement="open_session()",
    ),
    doc_claim("open_session()", doc="docs/usage.md"),
]
BEFORE = {"verified": 1, "contradicted": 0, "outdated": 0, "unverifiable": 1}
AFTER = {"verified": 1, "contradicted": 1, "outdated": 0, "unverifiable": 0}


def first_and_revision(run_id: str = "run-s") -> tuple[AnalysisCompleted, AnalysisCompleted, DocClaimsRejudged]:
    """A blob-less mirror's run as the analyzer publishes it: first analysis, revised analysis, DocClaimsRejudged."""
    chunks = [ReadChunk(path="shop/session.py"), ReadChunk(path="README.md", kind="doc")]
    first = analysis(
        event_id=event_id_for(AnalysisCompleted, run_id, "first"),
        run_id=run_id,
        doc_claims=FIRST_CLAIMS,
        provenance=Provenance(
            chunks=chunks, code_chunks=1, doc_chunks=1, claims_checked=2, doc_history_note=UNDER_WAY_NOTE
        ),
    )
    revised = analysis(
        event_id=event_id_for(AnalysisCompleted, run_id, "history", "h"),
        run_id=run_id,
        doc_claims=REVISED_CLAIMS,
        provenance=Provenance(chunks=chunks, code_chunks=1, doc_chunks=1, claims_checked=2, revision_of=first.event_id),
    )
    rejudged = DocClaimsRejudged(
        event_id=event_id_for(DocClaimsRejudged, run_id, "h"),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=first.repo,
        head_sha=first.head_sha,
        revised=True,
        analysis_event_id=revised.event_id,
        claims_before=BEFORE,
        claims_after=AFTER,
    )
    return first, revised, rejudged


def context_texts(message: Any) -> list[str]:
    return [element["text"] for element in message["blocks"][1]["elements"]]


def test_a_first_analysis_without_the_history_says_a_revision_may_follow(slack_responder: Any) -> None:
    first, _, _ = first_and_revision()
    message = slack_responder.slack_message(first)
    assert slack_shape_errors(message) == []
    [note] = [text for text in context_texts(message) if text.startswith("doc claims judged without")]
    assert "revised analysis follows" in note


def test_a_revision_says_it_revises_the_run_s_first_analysis_and_what_changed(slack_responder: Any) -> None:
    _, revised, rejudged = first_and_revision()
    message = slack_responder.revision_message(rejudged, revised)

    assert slack_shape_errors(message) == []
    header, context, changes, divider, findings = message["blocks"]
    assert header["text"]["text"] == "Sextant analysis revised: https://example.com/acme/shop.git"
    assert message["text"].endswith(": contradicted 0 → 1, unverifiable 1 → 0")  # the notification says it too
    assert context["elements"][0]["text"] == "commit `0123456789ab`"
    assert changes["text"]["text"] == (
        "*Revision of the analysis posted earlier for this run* (`run-s`): the doc claims were judged again "
        "with the history now fetched.\nChanged: contradicted 0 → 1, unverifiable 1 → 0."
    )
    assert divider == {"type": "divider"}
    text = findings["text"]["text"]
    assert text.startswith("*Documentation Accuracy (revised)*\n2 doc claims checked against the code: 1 contradicted")
    assert "removed by 1a2b3c4" in text
    assert UNDER_WAY_NOTE not in text  # the first judgement's caveat is gone with it


def test_a_revision_overtaken_by_a_later_analysis_posts_only_what_changed(slack_responder: Any) -> None:
    _, _, rejudged = first_and_revision()
    incomplete = msgspec.structs.replace(rejudged, history_note="the 64 MiB budget stopped the fetch")
    message = slack_responder.revision_message(incomplete, None)
    assert slack_shape_errors(message) == []
    assert "with the history now fetched (the 64 MiB budget stopped the fetch)." in message["blocks"][2]["text"]["text"]
    assert message["blocks"][-1]["text"]["text"] == (
        "A later analysis of this repository has been posted since: it is the current one."
    )


async def _posted(slack: FakeSlack, count: int) -> list[Any]:
    for _ in range(600):  # a bound, not a timing assumption: the posts come when the consumers get to them
        if len(slack.messages) >= count:
            return slack.messages
        await asyncio.sleep(0.05)
    raise AssertionError(f"{len(slack.messages)} of {count} messages posted")


async def _settled(bus: Bus, durable: str) -> None:
    """Wait until the durable consumer has acknowledged everything it was given."""
    for _ in range(600):
        info = await bus.js.consumer_info("SEXTANT", durable)
        if info.num_pending == 0 and info.num_ack_pending == 0 and info.delivered.stream_seq > 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{durable} did not settle")


async def test_a_run_revised_with_history_is_posted_once_then_once_as_a_revision(
    slack_responder: Any, slack: FakeSlack, tmp_path: Path
) -> None:
    first, revised, rejudged = first_and_revision()
    _, _, unrevised = first_and_revision("run-u")
    unrevised = msgspec.structs.replace(
        unrevised,
        revised=False,
        analysis_event_id=None,
        claims_after=BEFORE,
        reason="the doc-claim findings are unchanged",
    )
    # Another repository's run, revised, but only the evidence's wording changed: no count moved.
    other = RepoRef.for_url("https://example.com/acme/other.git")
    _, reworded_analysis, reworded = first_and_revision("run-w")
    reworded_analysis = msgspec.structs.replace(reworded_analysis, repo=other)
    reworded = msgspec.structs.replace(reworded, repo=other, claims_after=BEFORE)
    with EmbeddedNats(tmp_path / "nats") as server:
        publisher = Bus(build_broker(server.url))
        await publisher.connect()
        try:
            for event in (first, revised, rejudged, unrevised, reworded_analysis, reworded):  # the analyzer's order
                await publisher.publish(event)
            stop = asyncio.Event()
            env = {"SLACK_WEBHOOK_URL": slack.url, "NATS_URL": server.url}
            responder = asyncio.create_task(slack_responder.run(env, stop))
            messages = await _posted(slack, 2)
            await _settled(publisher, "slack-responder")
            await _settled(publisher, "slack-responder-revisions")
            stop.set()
            await responder
        finally:
            await publisher.close()

    assert len(slack.messages) == 2  # a revision is not a second, unrelated post; nothing when no count changed
    headers = sorted(message["blocks"][0]["text"]["text"] for message in messages)
    assert headers == [
        "Sextant analysis revised: https://example.com/acme/shop.git",
        "Sextant analysis: https://example.com/acme/shop.git",
    ]
    revision = next(message for message in messages if "revised" in message["blocks"][0]["text"]["text"])
    assert "Changed: contradicted 0 → 1, unverifiable 1 → 0." in revision["blocks"][2]["text"]["text"]
    assert "removed by 1a2b3c4" in revision["blocks"][-1]["text"]["text"]  # the revised findings, read from the stream
