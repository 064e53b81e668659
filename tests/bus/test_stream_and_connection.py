"""The stream is the operator's (created bounded, never changed), and connection losses are logged."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from nats.js.api import StreamConfig

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.bus.settings import CLAIM_BUCKET
from sextant.bus.stream_settings import StreamSettings, stream_settings_from_env
from sextant.contracts import STREAM_NAME, STREAM_SUBJECTS

from .test_bus_real_server import repo_updated

SETTINGS = StreamSettings(max_age_seconds=7200, max_bytes=64 * 1024**2, max_msgs_per_subject=50)


async def test_a_missing_stream_is_created_with_bounded_limits(nats_url: str) -> None:
    bus = Bus(build_broker(nats_url), stream=SETTINGS, claim_threshold=10)
    await bus.connect()
    config = (await bus.js.stream_info(STREAM_NAME)).config
    assert config.max_age == 7200
    assert config.max_bytes == 64 * 1024**2
    assert config.max_msgs_per_subject == 50
    await bus.publish(repo_updated())  # over the tiny threshold: goes through the claim check
    bucket = (await bus.js.stream_info(f"OBJ_{CLAIM_BUCKET}")).config
    assert bucket.max_age == 7200, "claim-check objects expire with the events that name them"
    await bus.close()


async def test_an_existing_stream_keeps_the_operators_limits_and_the_difference_is_logged(
    nats_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    admin = Bus(build_broker(nats_url), stream=SETTINGS)
    await admin.broker.connect()
    operator = StreamConfig(
        name=STREAM_NAME, subjects=list(STREAM_SUBJECTS), max_age=86400.0, max_msgs_per_subject=5, duplicate_window=600
    )
    await admin.js.add_stream(operator)
    caplog.set_level(logging.WARNING, logger="sextant.bus.stream")
    for _ in range(2):  # every service start used to reset the limits
        bus = Bus(build_broker(nats_url), stream=SETTINGS)
        await bus.connect()
        await bus.close()
    config = (await admin.js.stream_info(STREAM_NAME)).config
    assert config.max_age == 86400
    assert config.max_msgs_per_subject == 5
    warnings = [r.getMessage() for r in caplog.records if "kept as its operator configured it" in r.getMessage()]
    assert len(warnings) == 2
    assert "max_msgs_per_subject is 5, settings say 50" in warnings[0]
    await admin.close()


def test_stream_settings_read_the_environment() -> None:
    env = {
        "SEXTANT_STREAM_REPLICAS": "3",
        "SEXTANT_STREAM_MAX_AGE": "7d",
        "SEXTANT_STREAM_MAX_BYTES": "2GiB",
        "SEXTANT_STREAM_MAX_MSGS_PER_SUBJECT": "200",
    }
    assert stream_settings_from_env(env) == StreamSettings(
        replicas=3, max_age_seconds=7 * 86400, max_bytes=2 * 1024**3, max_msgs_per_subject=200
    )
    assert stream_settings_from_env({}) == StreamSettings()
    with pytest.raises(ValueError, match="SEXTANT_STREAM_MAX_AGE"):
        stream_settings_from_env({"SEXTANT_STREAM_MAX_AGE": "forever"})
    with pytest.raises(ValueError, match="positive"):
        stream_settings_from_env({"SEXTANT_STREAM_MAX_MSGS_PER_SUBJECT": "0"})


async def test_a_lost_connection_and_the_reconnect_are_logged_without_credentials(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="sextant.bus.broker")
    server = EmbeddedNats(tmp_path / "nats")
    url = server.start()
    port = int(url.rsplit(":", 1)[1])
    shown_url = url.replace("nats://", "nats://someone:hunter2@")  # no auth on this server: ignored
    bus = Bus(build_broker(shown_url))
    await bus.connect()
    server.stop()
    server = EmbeddedNats(tmp_path / "nats", port=port)
    server.start()
    deadline = asyncio.get_running_loop().time() + 60
    while not any("reconnected to NATS" in r.getMessage() for r in caplog.records):
        assert asyncio.get_running_loop().time() < deadline, "no reconnect logged"
        await asyncio.sleep(0.1)
    await bus.close()
    server.stop()
    messages = [r.getMessage() for r in caplog.records]
    assert any("disconnected from NATS" in m for m in messages)
    assert not any("hunter2" in m for m in messages)
    assert not any(
        "disconnected" in m for m in messages[messages.index(next(m for m in messages if "reconnected" in m)) :]
    )
