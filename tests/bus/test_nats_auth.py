"""Real NATS authentication and TLS, from the nats CLI's variables, against servers configured for each."""

from __future__ import annotations

import logging
from pathlib import Path

import nats
import nkeys
import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.bus.connection import NatsSettingsError, nats_connection_settings

from .nats_credentials import decentralized_auth, new_nkey, public, tls_files
from .test_bus_real_server import collect, repo_updated

PASSWORD = "correct-horse-battery-staple"


async def round_trip(url: str, env: dict[str, str]) -> None:
    """Connect as ``env`` says, publish through JetStream and read the event back."""
    bus = Bus(build_broker(url, env=env))
    await bus.connect()
    try:
        assert await bus.publish(repo_updated("auth")) is True
        assert [e.run_id for e in await collect(bus) if e is not None] == ["auth"]
    finally:
        await bus.close()


async def refused(url: str, env: dict[str, str]) -> None:
    """The server turns these credentials away (checked with one plain attempt: no reconnect loop)."""
    options = nats_connection_settings(env).nats_py_options()
    with pytest.raises(Exception, match=r"(?i)authorization"):
        await nats.connect(url, allow_reconnect=False, connect_timeout=5, **options)


async def test_user_and_password(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = f'authorization {{\n  user: sextant\n  password: "{PASSWORD}"\n}}\n'
    with EmbeddedNats(tmp_path / "nats", extra_config=config) as server:
        await round_trip(server.url, {"NATS_USER": "sextant", "NATS_PASSWORD": PASSWORD})
        caplog.set_level(logging.DEBUG)
        await refused(server.url, {"NATS_USER": "sextant", "NATS_PASSWORD": "wrong-" + PASSWORD})
        await refused(server.url, {})
    assert PASSWORD not in caplog.text


async def test_token(tmp_path: Path) -> None:
    token = "s3cr3t-t0ken-value"
    with EmbeddedNats(tmp_path / "nats", extra_config=f'authorization {{\n  token: "{token}"\n}}\n') as server:
        await round_trip(server.url, {"NATS_TOKEN": token})
        await refused(server.url, {"NATS_TOKEN": "not-" + token})


async def test_nkey_seed_file_for_the_broker_and_for_a_plain_nats_py_client(tmp_path: Path) -> None:
    user = new_nkey(nkeys.PREFIX_BYTE_USER)
    seed = tmp_path / "user.nk"
    seed.write_bytes(user.seed)
    seed.chmod(0o600)
    config = f"authorization {{\n  users = [ {{ nkey: {public(user)} }} ]\n}}\n"
    with EmbeddedNats(tmp_path / "nats", extra_config=config) as server:
        env = {"NATS_NKEY": str(seed)}
        await round_trip(server.url, env)
        client = await nats.connect(server.url, **nats_connection_settings(env).nats_py_options())
        await client.flush()
        await client.close()
        stranger = tmp_path / "stranger.nk"
        stranger.write_bytes(new_nkey(nkeys.PREFIX_BYTE_USER).seed)
        await refused(server.url, {"NATS_NKEY": str(stranger)})


async def test_jwt_creds_file_with_an_operator_and_an_account(tmp_path: Path) -> None:
    auth = decentralized_auth(tmp_path)
    with EmbeddedNats(tmp_path / "nats", extra_config=auth.server_config) as server:
        await round_trip(server.url, {"NATS_CREDS": str(auth.creds_file)})
        await refused(server.url, {})


async def test_mutual_tls(tmp_path: Path) -> None:
    files = tls_files(tmp_path)
    config = (
        f'tls {{\n  cert_file: "{files.server_cert}"\n  key_file: "{files.server_key}"\n'
        f'  ca_file: "{files.ca}"\n  verify: true\n}}\n'
    )
    with EmbeddedNats(tmp_path / "nats", extra_config=config) as server:
        env = {"NATS_CA": str(files.ca), "NATS_CERT": str(files.client_cert), "NATS_KEY": str(files.client_key)}
        await round_trip(server.url.replace("nats://", "tls://"), env)
        # Without a client certificate the server ends the handshake (one attempt, no reconnect loop).
        options = nats_connection_settings({"NATS_CA": str(files.ca)}).nats_py_options()
        with pytest.raises(Exception):  # noqa: B017 — a refused handshake surfaces in several ways
            await nats.connect(server.url, allow_reconnect=False, connect_timeout=5, **options)


def test_contradictory_or_missing_settings_are_refused_before_connecting(tmp_path: Path) -> None:
    with pytest.raises(NatsSettingsError, match="only one way"):
        nats_connection_settings({"NATS_TOKEN": "a", "NATS_USER": "b", "NATS_PASSWORD": "c"})
    with pytest.raises(NatsSettingsError, match="go together"):
        nats_connection_settings({"NATS_USER": "b"})
    with pytest.raises(NatsSettingsError, match="NATS_CREDS names"):
        nats_connection_settings({"NATS_CREDS": str(tmp_path / "missing.creds")})
    settings = nats_connection_settings({"NATS_USER": "sextant", "NATS_PASSWORD": PASSWORD})
    assert PASSWORD not in repr(settings)
    assert settings.method == "user"
