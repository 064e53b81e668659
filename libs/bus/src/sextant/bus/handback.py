"""Handing a delivery back at shutdown without spending one of its attempts.

JetStream counts every delivery of a message against the consumer's ``max_deliver``, whether it is
acked, nacked or left to time out; only a new message starts again at one. So when our own shutdown
interrupts a handler (``DeliveryAbandoned`` while ``Bus.stopping`` is set), the bus publishes a fresh
copy of the message on a subject that only the same durable reads (its second filter subject,
``sextant.handback.<durable>.<event>.<repo_key>``) and then acks the original. The copy carries the
deliveries that did count before it (``Sextant-Earlier-Deliveries``: failures and crashes), so those
still add up to ``max_deliver`` across copies, and a shutdown neither spends an attempt nor gives one
back.

Crash safety: the copy is published before the original is acked, and its ``Nats-Msg-Id`` depends only
on the durable and the original's stream sequence. A crash between the two redelivers the original (a
counted delivery: the process did crash); if it is handed back again the copy has the same id and
JetStream stores it once within the duplicate window. Outside it too, nothing runs twice: a
delivery first looks for a copy of itself (``stored_copy``) and, when there is one, is only
acked. See docs/bus.md for what remains.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from sextant.bus.publishing import publish_acknowledged
from sextant.bus.settings import EARLIER_DELIVERIES_HEADER, HANDBACK_SUBJECT_PREFIX, HANDED_BACK_FROM_HEADER
from sextant.contracts import STREAM_NAME
from sextant.contracts.subjects import SUBJECT_PREFIX

if TYPE_CHECKING:
    from sextant.bus.bus import Bus

logger = logging.getLogger(__name__)


def handback_filter(durable: str) -> str:
    """The filter subject under which ``durable`` receives the copies it handed back."""
    return f"{HANDBACK_SUBJECT_PREFIX}.{durable}.>"


def handback_subject(durable: str, subject: str) -> str:
    """Where the copy of a message on ``subject`` goes (a copy handed back again keeps its subject)."""
    own = f"{HANDBACK_SUBJECT_PREFIX}.{durable}."
    if subject.startswith(own):
        return subject
    return own + subject.removeprefix(f"{SUBJECT_PREFIX}.")


def original_subject(subject: str) -> str:
    """The event subject a message stands for: a handed-back copy's original, else ``subject`` itself."""
    if not subject.startswith(f"{HANDBACK_SUBJECT_PREFIX}."):
        return subject
    parts = subject.split(".", 3)
    return f"{SUBJECT_PREFIX}.{parts[3]}" if len(parts) == 4 else subject


def handback_id(durable: str, sequence: int) -> str:
    """The copy's ``Nats-Msg-Id``: the same for every hand-back of one stored message by one durable."""
    return f"handback:{durable}:{sequence}"


def handed_back_by(subject: str, headers: Mapping[str, str] | None) -> tuple[str, int] | None:
    """(durable, sequence of the message it stands for) when a stored message is a handed-back copy.

    A reader of the whole stream (``sextant events``) tells a copy from a new event with it: a copy
    carries the same event, queued again for one durable, and is no news of its own.
    """
    if not subject.startswith(f"{HANDBACK_SUBJECT_PREFIX}."):
        return None
    durable = subject.split(".")[2]
    replaced = (headers or {}).get(HANDED_BACK_FROM_HEADER, "")
    return (durable, int(replaced)) if replaced.isdigit() else None


def earlier_deliveries(headers: Mapping[str, str] | None) -> int:
    """Deliveries that counted before this message was (re)published: 0 for an original."""
    value = (headers or {}).get(EARLIER_DELIVERIES_HEADER, "")
    return int(value) if value.isdigit() else 0


async def hand_back(bus: Bus, raw: Msg, *, durable: str, sequence: int, counted: int) -> None:
    """Publish the fresh copy of a delivery given back at shutdown (the caller acks the original after).

    Args:
        bus: Its connection publishes the copy.
        raw: The delivery (its body and headers are copied as they are: a claim check stays valid).
        durable: The durable that gives it back, the only one that reads the copy.
        sequence: The delivery's stream sequence.
        counted: Deliveries of this work that counted so far (failed or crashed), carried on.
    """
    headers = dict(raw.headers or {})
    headers["Nats-Msg-Id"] = handback_id(durable, sequence)
    headers[EARLIER_DELIVERIES_HEADER] = str(counted)
    headers[HANDED_BACK_FROM_HEADER] = str(sequence)
    await publish_acknowledged(bus.broker, raw.data, handback_subject(durable, raw.subject), headers)


async def stored_copy(js: JetStreamContext, *, durable: str, subject: str, sequence: int) -> int | None:
    """The stream sequence of a copy ``durable`` already handed back of the message at ``sequence``.

    Asked of every delivery: a process that died after storing the copy and before acking the
    original leaves both, and a durable made anew reads both again; the copy is the one to run. A
    copy is always stored after its original, on ``handback_subject``, so the search walks that
    subject forward from ``sequence`` (a handful of copies at most: one per shutdown that interrupted
    this repository's work).

    Returns:
        The copy's sequence, or None when no copy of this message is stored.
    """
    copies = handback_subject(durable, subject)
    after = sequence
    while True:
        try:
            stored = await js.get_msg(STREAM_NAME, seq=after + 1, subject=copies, next=True)
        except NotFoundError:
            return None
        if stored.seq is None:
            return None
        if (stored.headers or {}).get(HANDED_BACK_FROM_HEADER) == str(sequence):
            return stored.seq
        after = stored.seq


async def read_handbacks(js: JetStreamContext, durable: str) -> None:
    """Make an existing ``durable`` also read its handed-back copies (one made before they existed).

    A missing durable is left alone: its subscriber creates it with both filter subjects. One without
    any filter already reads everything.
    """
    try:
        info = await js.consumer_info(STREAM_NAME, durable)
    except NotFoundError:
        return
    config = info.config
    filters = [config.filter_subject] if config.filter_subject else []
    filters += config.filter_subjects or []
    wanted = handback_filter(durable)
    if not filters or wanted in filters:
        return
    config.filter_subject = None
    config.filter_subjects = [*filters, wanted]
    await js.add_consumer(STREAM_NAME, config)
    logger.info("durable %s now also reads %s", durable, wanted)
