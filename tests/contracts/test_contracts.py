"""Event contracts: evolution, unknown types, deterministic ids, subjects, schema."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sextant.contracts import (
    EVENT_TYPES,
    AnalysisCompleted,
    EventDecodeError,
    RepoRef,
    RepoUpdated,
    decode_event,
    encode_event,
    event_id_for,
    event_json_schema,
    event_name,
    repo_key_for,
    subject_for,
    utc_now_iso,
)

REPO = RepoRef.for_url("https://github.com/acme/widgets.git", provider="github", branch="main")


class RepoUpdatedV0(msgspec.Struct, kw_only=True, tag="repo.updated"):
    """What an old consumer knew of RepoUpdated: fewer fields."""

    event_id: str
    run_id: str
    repo: RepoRef


def test_old_decoder_reads_a_newer_event_with_extra_fields() -> None:
    event = RepoUpdated(event_id="e1", run_id="r1", occurred_at=utc_now_iso(), repo=REPO, force=True)
    old = msgspec.json.decode(encode_event(event), type=RepoUpdatedV0)
    assert old.event_id == "e1"
    assert old.repo == REPO


def test_current_decoder_ignores_fields_from_the_future() -> None:
    body = json.loads(encode_event(RepoUpdated(event_id="e", run_id="r", occurred_at="t", repo=REPO)))
    body["added_in_v7"] = {"anything": [1, 2, 3]}
    body["repo"]["mirror_url"] = "https://mirror.example"
    decoded = decode_event(json.dumps(body).encode())
    assert isinstance(decoded, RepoUpdated)
    assert decoded.repo == REPO


@pytest.mark.parametrize(
    "body",
    [b'{"type": "repo.exploded", "event_id": "x"}', b"not json", b'{"event_id": "no type"}', b""],
)
def test_unknown_or_malformed_events_raise_a_clean_error(body: bytes) -> None:
    with pytest.raises(EventDecodeError):
        decode_event(body)


def test_every_event_round_trips_and_has_a_dotted_name() -> None:
    for event_type in EVENT_TYPES:
        name = event_name(event_type)
        assert "." in name
        assert name == name.lower()


def test_event_ids_are_deterministic() -> None:
    assert event_id_for(RepoUpdated, "run", "x") == event_id_for(RepoUpdated, "run", "x")
    assert event_id_for(RepoUpdated, "run", "x") != event_id_for(AnalysisCompleted, "run", "x")
    assert event_id_for(RepoUpdated, "run", "x") != event_id_for(RepoUpdated, "run2", "x")


def test_subject_is_event_then_repo_key() -> None:
    event = RepoUpdated(event_id="e", run_id="r", occurred_at="t", repo=REPO)
    assert subject_for(event) == f"sextant.repo.updated.{REPO.repo_key}"


def test_repo_key_drops_credentials_and_scheme() -> None:
    key = repo_key_for("https://user:s3cret@github.com/acme/widgets.git")
    assert "s3cret" not in key
    assert key == repo_key_for("https://github.com/acme/widgets")
    assert key.startswith("github_com_acme_widgets-")


@given(st.text(min_size=1, max_size=200))
def test_repo_key_is_always_one_safe_subject_token(url: str) -> None:
    key = repo_key_for(url)
    assert key
    assert all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    assert key == key.lower()


def test_every_field_has_a_docstring_in_the_json_schema() -> None:
    schema = event_json_schema()
    for name, definition in schema["$defs"].items():
        for field, spec in definition.get("properties", {}).items():
            if field == "type":
                continue
            assert spec.get("description") or "$ref" in spec or "anyOf" in spec, f"{name}.{field}"


def test_credentials_are_detected_and_removed_from_urls() -> None:
    from sextant.contracts import url_has_credentials, url_without_credentials

    assert url_has_credentials("https://x-access-token:abc@github.com/a/b.git")
    assert not url_has_credentials("https://github.com/a/b.git")
    assert not url_has_credentials("git@github.com:a/b.git")
    assert url_without_credentials("https://u:p@host.example/a.git") == "https://host.example/a.git"
    assert url_without_credentials("/local/path") == "/local/path"
