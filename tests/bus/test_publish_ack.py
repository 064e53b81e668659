"""Publishing waits long enough for a replicated stream's ack and retries a leaderless stream, boundedly.

On a 3-node cluster an R3 stream acknowledges a message once a quorum has written it; FastStream's
own half-second ack timeout made every publish from a handler fail there ("nats: timeout", then "no
response from stream"). These tests pin the two halves of the fix on a real server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from faststream.nats import NatsBroker
from nats.js.errors import NoStreamResponseError

from sextant.bus import Bus
from sextant.bus.publishing import publish_acknowledged
from sextant.bus.settings import PUBLISH_ACK_TIMEOUT_SECONDS, PUBLISH_ATTEMPTS

from .test_bus_real_server import repo_updated

pytestmark = pytest.mark.bus


class RecordingBroker(NatsBroker):
    """A real broker that notes the ack timeout of each publish it is asked for."""

    timeouts: list[float | None]

    async def publish(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self.timeouts.append(kwargs.get("timeout"))
        return await super().publish(*args, **kwargs)


@pytest.fixture
async def recorded(nats_url: str) -> AsyncIterator[tuple[RecordingBroker, Bus]]:
    """A recording broker and the connected Bus over it (closed after the test)."""
    broker = RecordingBroker(nats_url)
    broker.timeouts = []
    bus = Bus(broker)
    await bus.connect()
    yield broker, bus
    await bus.close()


async def test_an_event_is_published_with_our_ack_timeout_not_the_half_second_default(
    recorded: tuple[RecordingBroker, Bus],
) -> None:
    broker, bus = recorded
    assert await bus.publish(repo_updated("run-ack"))
    assert broker.timeouts == [PUBLISH_ACK_TIMEOUT_SECONDS]
    assert PUBLISH_ACK_TIMEOUT_SECONDS > 0.5


async def test_a_subject_no_stream_answers_is_tried_a_bounded_number_of_times_then_raises(
    recorded: tuple[RecordingBroker, Bus],
) -> None:
    broker, _ = recorded
    with pytest.raises(NoStreamResponseError):
        await publish_acknowledged(broker, b"{}", "outside.any.stream", {"Nats-Msg-Id": "x"})
    assert len(broker.timeouts) == PUBLISH_ATTEMPTS
