"""Parsing and sparse encoding in a second process, so the run's store writes overlap the next files' parsing.

Both the parsing and the sparse encoding are pure Python and hold the GIL, and so does the embedded
store's write (the binding's conversion and the engine call): in threads of one process they take
turns. One worker process per indexer process (``shared_parse_process``), started once and reused by
every run, takes slices of (path, blob) pairs and answers each with the files' chunks and sparse
vectors (``file_parsing.parse_file`` and the run's own encoder, so the points are the same as when
parsing in the run's process). The run reads the blobs and writes the points itself.

Requests and answers are msgpack frames on the worker's stdin and stdout, in order. The worker keeps
no state of a run: a run that is cancelled or fails leaves at most the slices it had sent, whose
answers are dropped. The worker ends when its stdin closes, which the operating system does when the
indexer process ends however it ends (a ``kill -9`` included), so it never outlives the indexer.
``INDEX_PARSE_PROCESS`` chooses: ``true``, ``false``, or ``auto`` (the default), the worker for a run
without the history fetch beside it, such as a repository read in place (beside the fetch, whose git
processes want the second core too, the worker measured no better: docs/indexing.md).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from sextant.chunkstore.payload import SparseVector
from sextant.indexer.file_parsing import NotParsed, parse_file
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)

_HEADER = struct.Struct("!Q")
"""Each frame: its length, then the msgpack bytes."""
CLOSE_SECONDS = 10.0
"""How long ``close`` waits for the worker to finish what it was sent before killing it."""


class BlobToParse(msgspec.Struct, frozen=True, array_like=True):
    """One file of a request."""

    path: str
    data: bytes | None


class ParseRequest(msgspec.Struct, frozen=True):
    """A slice of files to parse and encode."""

    files: list[BlobToParse]
    max_file_bytes: int
    max_chars: int
    encoder: bytes
    """The run's sparse encoder, pickled (its settings travel with it)."""


class ParsedChunks(msgspec.Struct, frozen=True, tag="parsed"):
    """A file's chunks and their sparse vectors, in chunk order."""

    chunks: list[Chunk]
    sparse: list[SparseVector]


class ParseReply(msgspec.Struct, frozen=True):
    """The outcome of every file of a request, in order, or the error that failed the whole request."""

    outcomes: list[ParsedChunks | NotParsed]
    cpu_seconds: float
    """The worker's CPU time since it started (its imports included)."""
    error: str | None = None


class ParseProcessError(Exception):
    """The parse process died or failed a request (the run fails; the next request starts a new worker)."""


def _write_frame(stream: IO[bytes], body: bytes) -> None:
    stream.write(_HEADER.pack(len(body)))
    stream.write(body)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> bytes | None:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    body = stream.read(size)
    return body if len(body) == size else None


@dataclass
class _Worker:
    """One worker process and the futures of the requests it was sent, oldest first."""

    process: subprocess.Popen[bytes]
    pending: deque[Future[ParseReply]] = field(default_factory=deque)


class ParseProcess:
    """The client side of one worker process: requests go in order, answers resolve their futures in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._encoder = msgspec.msgpack.Encoder()
        self._cpu_seconds = 0.0

    @property
    def pid(self) -> int | None:
        """The worker's process id (None when none runs)."""
        worker = self._worker
        return worker.process.pid if worker is not None else None

    @property
    def cpu_seconds(self) -> float:
        """The running worker's CPU time by its last answer."""
        return self._cpu_seconds

    def start(self) -> None:
        """Start the worker unless it runs (returns at once: the worker imports its modules on its own)."""
        with self._lock:
            self._running()

    def submit(self, request: ParseRequest) -> Future[ParseReply]:
        """Send a request (blocks while the worker's input pipe is full; call it off the event loop).

        Args:
            request: The files to parse.

        Returns:
            A future of the answer; it fails with ``ParseProcessError`` if the worker dies first.
        """
        body = self._encoder.encode(request)
        with self._lock:
            worker = self._running()
            future: Future[ParseReply] = Future()
            future.set_running_or_notify_cancel()  # never cancelled: its answer comes in its turn
            worker.pending.append(future)
            try:
                _write_frame(_stream(worker.process.stdin), body)
            except OSError as error:  # the worker died: its reader fails the pending futures
                logger.warning("the parse process did not take a request: %s", error)
        return future

    def close(self) -> None:
        """Stop the worker (it finishes the requests it was sent) and wait for it."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is None:
            return
        process = worker.process
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _running(self) -> _Worker:
        if self._worker is not None and self._worker.process.poll() is None:
            return self._worker
        process = subprocess.Popen(
            # -P: the working folder (often the repository being indexed) is not put on sys.path.
            [sys.executable, "-P", "-m", "sextant.indexer.parse_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        worker = self._worker = _Worker(process)
        self._cpu_seconds = 0.0
        threading.Thread(target=self._read_answers, args=(worker,), name="parse-process-answers", daemon=True).start()
        return worker

    def _read_answers(self, worker: _Worker) -> None:
        decoder = msgspec.msgpack.Decoder(ParseReply)
        process = worker.process
        answers = _stream(process.stdout)
        while (body := _read_frame(answers)) is not None:
            reply = decoder.decode(body)
            with self._lock:
                future = worker.pending.popleft()
                if self._worker is worker:
                    self._cpu_seconds = reply.cpu_seconds
            if reply.error is not None:
                future.set_exception(ParseProcessError(reply.error))
            else:
                future.set_result(reply)
        code = process.wait()
        with self._lock:
            failed = list(worker.pending)
            worker.pending.clear()
            if self._worker is worker:
                self._worker = None
        if failed:
            logger.warning("the parse process ended (exit code %s) with %d requests unanswered", code, len(failed))
        for future in failed:
            future.set_exception(ParseProcessError(f"the parse process ended (exit code {code})"))


def _stream(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:  # never: both pipes are asked for
        raise ParseProcessError("the parse process has no pipe")
    return stream


_SHARED = ParseProcess()
"""The one worker of this process (it starts on the first ``start`` or request)."""
atexit.register(_SHARED.close)


def shared_parse_process() -> ParseProcess:
    """The process's one parse worker client (the worker starts on ``start`` or on the first request)."""
    return _SHARED


def _answer(request: ParseRequest, encoders: dict[bytes, Any]) -> ParseReply:
    encoder = encoders.get(request.encoder)
    if encoder is None:
        encoder = encoders[request.encoder] = pickle.loads(request.encoder)  # noqa: S301 - from our parent
    outcomes: list[list[Chunk] | NotParsed] = [
        parse_file(file.path, file.data, max_file_bytes=request.max_file_bytes, max_chars=request.max_chars)
        for file in request.files
    ]
    texts = [chunk.sparse_text for outcome in outcomes if isinstance(outcome, list) for chunk in outcome]
    vectors = encoder.encode_documents(texts)
    answered: list[ParsedChunks | NotParsed] = []
    start = 0
    for outcome in outcomes:
        if isinstance(outcome, NotParsed):
            answered.append(outcome)
            continue
        end = start + len(outcome)
        answered.append(ParsedChunks(outcome, vectors[start:end]))
        start = end
    return ParseReply(answered, cpu_seconds=time.process_time())


def _serve() -> None:
    """The worker: answer requests from stdin on stdout until stdin closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the indexer's to handle
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to stderr, never into the answers
    requests = os.fdopen(os.dup(0), "rb")
    decoder = msgspec.msgpack.Decoder(ParseRequest)
    encoder = msgspec.msgpack.Encoder()
    outbox: queue.Queue[bytes | None] = queue.Queue()

    def send() -> None:
        # Its own thread: the worker parses on while the indexer, busy writing, reads answers late.
        while (body := outbox.get()) is not None:
            _write_frame(answers, body)

    sender = threading.Thread(target=send, name="answers")
    sender.start()
    encoders: dict[bytes, Any] = {}
    try:
        while (body := _read_frame(requests)) is not None:
            try:
                reply = _answer(decoder.decode(body), encoders)
            except Exception as error:  # the encoder failed (a bug): the run fails visibly
                reply = ParseReply([], time.process_time(), error=f"{type(error).__name__}: {error}")
            outbox.put(encoder.encode(reply))
    finally:
        outbox.put(None)
        sender.join()


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):  # the indexer is gone
        _serve()
