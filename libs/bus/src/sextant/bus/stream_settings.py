"""Limits of the SEXTANT stream when Sextant creates it, from the environment (bounded by default)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from sextant.config import env_int, env_str

DEFAULT_MAX_AGE_SECONDS = 30 * 24 * 3600
"""Events older than 30 days go (a repository's later runs carry everything a reader needs)."""

DEFAULT_MAX_BYTES = 8 * 1024**3
"""At most 8 GiB on disk; the oldest events go first."""

DEFAULT_MAX_MSGS_PER_SUBJECT = 1000
"""At most the last 1,000 events of one type for one repository (a subject is type + repository)."""

_DURATION = re.compile(r"^(?P<number>\d+)(?P<unit>[smhd]?)$")
_SECONDS_PER_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_SIZE = re.compile(r"^(?P<number>\d+)(?P<unit>|[KMGT]i?B?)$", re.IGNORECASE)


@dataclass(frozen=True)
class StreamSettings:
    """What the stream is created with. An existing stream is never changed: it is the operator's.

    Attributes:
        replicas: Copies on a NATS cluster (3 on a 3-node cluster; 1 on a single server).
        max_age_seconds: Oldest event kept; claim-check objects expire with the same age.
        max_bytes: Disk budget of the stream.
        max_msgs_per_subject: Events kept per type and repository.
    """

    replicas: int = 1
    max_age_seconds: int = DEFAULT_MAX_AGE_SECONDS
    max_bytes: int = DEFAULT_MAX_BYTES
    max_msgs_per_subject: int = DEFAULT_MAX_MSGS_PER_SUBJECT


def stream_settings_from_env(env: Mapping[str, str]) -> StreamSettings:
    """``SEXTANT_STREAM_REPLICAS``, ``SEXTANT_STREAM_MAX_AGE`` (seconds, or 30d/12h/15m),
    ``SEXTANT_STREAM_MAX_BYTES`` (bytes, or 8GiB/512MiB) and ``SEXTANT_STREAM_MAX_MSGS_PER_SUBJECT``.

    Args:
        env: The environment.

    Returns:
        The settings; unset variables keep the bounded defaults.

    Raises:
        ValueError: on a value that is not a positive number of the right kind.
    """
    settings = StreamSettings(
        replicas=env_int(env, "SEXTANT_STREAM_REPLICAS", 1),
        max_age_seconds=_duration(env, "SEXTANT_STREAM_MAX_AGE", DEFAULT_MAX_AGE_SECONDS),
        max_bytes=_size(env, "SEXTANT_STREAM_MAX_BYTES", DEFAULT_MAX_BYTES),
        max_msgs_per_subject=env_int(env, "SEXTANT_STREAM_MAX_MSGS_PER_SUBJECT", DEFAULT_MAX_MSGS_PER_SUBJECT),
    )
    if min(settings.replicas, settings.max_age_seconds, settings.max_bytes, settings.max_msgs_per_subject) < 1:
        raise ValueError("SEXTANT_STREAM_* limits must be positive (a stream without limits grows forever)")
    return settings


def _duration(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env_str(env, name)
    if raw is None:
        return default
    match = _DURATION.match(raw.strip().lower())
    if match is None:
        raise ValueError(f"{name}={raw!r} is not a duration (seconds, or e.g. 30d, 12h, 15m)")
    return int(match["number"]) * _SECONDS_PER_UNIT[match["unit"]]


def _size(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env_str(env, name)
    if raw is None:
        return default
    match = _SIZE.match(raw.strip())
    if match is None:
        raise ValueError(f"{name}={raw!r} is not a size (bytes, or e.g. 8GiB, 512MiB)")
    power = " KMGT".index(match["unit"][:1].upper() or " ")
    return int(match["number"]) << (10 * power)
