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

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.contracts import AnalysisCompleted, DocClaim, RepoRef, event_id_for, utc_now_iso
from sextant.doc_claims import check_repository, doc_claims

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
