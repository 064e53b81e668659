"""Reading the stream: decode a stored message (claim check resolved), read in order, the newest sequence."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy

from sextant.bus.claim_check import ClaimCheck, MissingClaimError
from sextant.bus.settings import CLAIM_HEADER
from sextant.contracts import STREAM_NAME, AnyEvent, EventDecodeError, decode_event

READ_IDLE_SECONDS = 1.0
"""How long a non-following read waits for the next message before deciding it has caught up."""


async def decode_body(claims: ClaimCheck, data: bytes, headers: Mapping[str, str] | None) -> AnyEvent:
    """Decode a message body, resolving a claim check transparently.

    Raises:
        EventDecodeError: when the body is not an event this version understands.
        MissingClaimError: when the body lives in a claim-check object that is gone.
    """
    claim = (headers or {}).get(CLAIM_HEADER)
    if claim:
        data = await claims.get(claim)
    return decode_event(data)


async def last_sequence(js: JetStreamContext) -> int:
    """Sequence of the newest message in the stream (0 when empty)."""
    info = await js.stream_info(STREAM_NAME)
    return int(info.state.last_seq)


async def read_stream(
    js: JetStreamContext,
    claims: ClaimCheck,
    subject: str = "sextant.>",
    *,
    follow: bool = False,
    after_sequence: int | None = None,
) -> AsyncIterator[tuple[int, AnyEvent | None, Msg]]:
    """Read the stream in order through an ephemeral ordered consumer.

    A message that cannot be decoded (malformed, unknown type, claim-check object gone) is yielded
    with ``None`` in place of the event, so one bad message never hides the ones after it.

    Args:
        js: JetStream context.
        claims: Resolves claim-checked bodies.
        subject: Subject filter.
        follow: Keep waiting for new events after catching up.
        after_sequence: Start after this stream sequence (e.g. ``last_sequence()`` taken before
            publishing a request, to see only what follows it); None reads from the start.

    Yields:
        (stream sequence, decoded event or None when undecodable, raw message).
    """
    if after_sequence is None:
        config = ConsumerConfig(deliver_policy=DeliverPolicy.ALL)
    else:
        config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=after_sequence + 1)
    if not follow and await last_sequence(js) <= (after_sequence or 0):
        return
    subscription = await js.subscribe(subject, ordered_consumer=True, config=config, stream=STREAM_NAME)
    try:
        while True:
            try:
                raw = await subscription.next_msg(timeout=None if follow else READ_IDLE_SECONDS)
            except TimeoutError:
                return
            try:
                event: AnyEvent | None = await decode_body(claims, raw.data, raw.headers)
            except (EventDecodeError, MissingClaimError):
                event = None
            yield raw.metadata.sequence.stream, event, raw
            if not follow and raw.metadata.num_pending == 0:
                return
    finally:
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()
