"""Leases: at most one holder of a named piece of work across every process on the bus.

A lease is a key in a JetStream key-value bucket, created only if absent (JetStream checks the
subject's last sequence, so of two processes creating it at once exactly one succeeds). The holder
renews it while it works and deletes it when done; the bucket's age limit frees the lease of a holder
that died (kill -9, a lost node) after ``LEASE_SECONDS``; a waiter on the same machine sees at once
that the holder process is gone (see ``process_identity``) and takes the lease over. A holder that
fails to renew in time (it was cut off) sees ``Lease.lost`` and must stop before doing more of the
work. See docs/bus.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from sextant.bus.buckets import LazyBucket
from sextant.bus.delivery import DeliveryAbandoned

logger = logging.getLogger(__name__)

LEASE_BUCKET = "sextant-leases"
"""Key-value bucket holding the leases."""
LEASE_SECONDS = 60.0
"""Age at which a lease nobody renewed expires (its holder is presumed dead)."""
RENEW_SECONDS = LEASE_SECONDS / 4
"""Interval of renewals while the lease is held."""
WAIT_POLL_SECONDS = 1.0
"""Interval of attempts while another holder has the lease."""


@dataclass
class Lease:
    """A lease this process holds; ``lost`` turns True if a renewal failed (another holder may have it)."""

    name: str
    holder: str
    revision: int
    lost: bool = False


class Leases:
    """Acquire leases in the bus's key-value bucket (created on first use)."""

    def __init__(self, js: JetStreamContext, *, replicas: int = 1, ttl_seconds: float = LEASE_SECONDS) -> None:
        self._ttl_seconds = ttl_seconds
        config = KeyValueConfig(
            bucket=LEASE_BUCKET, history=1, ttl=ttl_seconds, storage=StorageType.FILE, replicas=replicas
        )
        self._bucket: LazyBucket[KeyValue] = LazyBucket(
            lambda: js.key_value(LEASE_BUCKET), lambda: js.create_key_value(config=config)
        )

    @contextlib.asynccontextmanager
    async def hold(self, name: str, *, stopping: asyncio.Event | None = None) -> AsyncIterator[Lease]:
        """Wait until ``name`` is free, hold it for the block, then free it.

        Args:
            name: What the lease is for (any text; it is hashed into a key).
            stopping: Set when the process shuts down: waiting then ends in ``DeliveryAbandoned``.

        Yields:
            The lease (check ``lost`` before each unit of work).

        Raises:
            DeliveryAbandoned: when ``stopping`` is set while waiting.
        """
        kv = await self._bucket.get()
        key = lease_key(name)
        holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]} {process_identity()}"
        lease = Lease(name=name, holder=holder, revision=await _acquire(kv, key, holder, stopping))
        renewing = asyncio.create_task(_renew(kv, key, lease, self._ttl_seconds / 4))
        try:
            yield lease
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            if not lease.lost:
                with contextlib.suppress(Exception):  # the age limit frees it anyway
                    await kv.delete(key, last=lease.revision)


def process_identity(pid: int | None = None) -> str:
    """Who a process is on this machine: kernel boot, pid namespace, pid and start time ("" off Linux).

    Together they name one process exactly: two containers on one kernel differ in pid namespace, and
    a pid reused after a reboot or by a later process differs in boot or start time.
    """
    pid = os.getpid() if pid is None else pid
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        namespace = os.readlink("/proc/self/ns/pid")
        state, *fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        started = fields[18]
    except (OSError, IndexError):
        return ""
    if state in {"Z", "X"}:  # exited, not yet reaped by its parent
        return ""
    return f"{boot}/{namespace}/{pid}/{started}"


def holder_is_gone(holder: str) -> bool:
    """Whether a lease's holder is a process of this machine and pid namespace that no longer runs.

    A holder elsewhere (another machine or container), or one that cannot be told, counts as alive:
    only the age limit frees its lease.
    """
    identity = holder.rpartition(" ")[2]
    try:
        boot, namespace, pid, _ = identity.rsplit("/", 3)
    except ValueError:
        return False
    here = process_identity()
    if not here or here.rsplit("/", 2)[0] != f"{boot}/{namespace}":
        return False
    return process_identity(int(pid)) != identity


def lease_key(name: str) -> str:
    """A valid key for any name (keys allow only a few characters)."""
    return "lease." + hashlib.sha256(name.encode()).hexdigest()[:40]


async def _acquire(kv: KeyValue, key: str, holder: str, stopping: asyncio.Event | None) -> int:
    while True:
        if stopping is not None and stopping.is_set():
            raise DeliveryAbandoned("stopping while waiting for a lease")
        try:
            return await kv.create(key, holder.encode())
        except KeyWrongLastSequenceError:
            pass  # someone else holds it: try again shortly, unless it died on this machine
        with contextlib.suppress(KeyNotFoundError, KeyWrongLastSequenceError):
            entry = await kv.get(key)
            if entry.value is not None and holder_is_gone(entry.value.decode(errors="replace")):
                revision = await kv.update(key, holder.encode(), last=entry.revision)
                logger.warning("took over the lease %s from a process that is gone", key)
                return revision
        if stopping is None:
            await asyncio.sleep(WAIT_POLL_SECONDS)
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), WAIT_POLL_SECONDS)


async def _renew(kv: KeyValue, key: str, lease: Lease, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            lease.revision = await kv.update(key, lease.holder.encode(), last=lease.revision)
        except KeyWrongLastSequenceError:
            logger.warning("lost the lease %s (it expired and was taken); stopping that work", lease.name)
            lease.lost = True
            return
        except Exception as error:  # a blip: try again at the next interval (the lease outlives a few)
            logger.warning("could not renew the lease %s: %s", lease.name, error)
