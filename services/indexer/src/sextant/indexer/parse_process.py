"""Parsing and sparse encoding in a second process, so the run's store writes overlap the next files' parsing.

Both the parsing and the sparse encoding are pure Python and hold the GIL, and so does the embedded
store's write (the binding's conversion and the engine call): in threads of one process they take
turns. One worker process per indexer process (``shared_parse_process``), started once and reused by
every run, takes slices of (path, blob) pairs and answers each with the files' chunks and sparse
vectors (``file_parsing.parse_file`` and the run's own encoder, so the points are the same as when
parsing in the run's process). The run reads the blobs and writes the points itself.

Requests and answers are msgpack frames on the worker's stdin and stdout, in order, after a ready frame
the worker sends once its imports are done. The worker keeps no state of a run: a run that is cancelled
or fails leaves at most the slices it had sent, whose answers are dropped. The worker ends when its
stdin closes, which the operating system does when the indexer process ends however it ends (a
``kill -9`` included), so it never outlives the indexer. The client keeps every request until it is
answered, so no file is lost to a worker that dies, writes what is not a frame of ours, or goes quiet:
that worker is ended and a new one redoes its requests; a request a second worker dies on fails the
run with an error naming its files; a worker that cannot start at all (twice) leaves this process to
parse in place, and a long-running indexer tries one worker again after every ``RETRY_AFTER_REQUESTS``
requests it parsed in place (a count of work, never a timer), ``RETRY_ROUNDS`` times before it keeps
parsing in place; each step is logged.
The worker gets only the environment an interpreter and its imports need (``worker_environment``):
it reads repository text and never needs a provider key, a token or a bus password, so none is handed
to it (nor to anything a parser or an imported module might start).
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
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from sextant.chunkstore.payload import SparseVector
from sextant.doc_rules.kinds import ChunkKind
from sextant.indexer.file_parsing import NotParsed, parse_file
from sextant.parsing import Chunk
from sextant.secret_rules import child_environment

logger = logging.getLogger(__name__)

_HEADER = struct.Struct("!Q")
"""Each frame: its length, then the msgpack bytes."""
CLOSE_SECONDS = 10.0
"""How long ``close`` waits for the worker to finish what it was sent before killing it."""
READY = b"sextant parse process 1"
"""The worker's first frame, once its imports are done: a worker that ends or writes anything else first
did not start (a broken interpreter or environment, or a module printing on stdout)."""
MAX_FRAME_BYTES = 1 << 40
"""Longer is not a frame of ours but other bytes read as a length (a frame is read piece by piece, so a
wrong length below this costs no memory: the read ends with the worker)."""
READ_PIECE_BYTES = 1 << 20
ANSWER_SECONDS = 300.0
"""A worker holding requests that answers nothing for this long is stuck (a parser looping on a file):
it is ended and its requests go to a new worker. A slice of 32 files at the size cap parses in seconds.
Counted from the worker's ready frame: its start is held to ``START_SECONDS``."""
START_SECONDS = 60.0
"""How long a worker given requests may take to send its ready frame (a loaded machine starts an
interpreter slowly) before it counts as a start that failed."""
WATCH_SECONDS = 1.0
"""How often the watchdog looks (it never waits longer than the limit it enforces)."""
START_ATTEMPTS = 2
"""Workers tried in a row that fail to start before this process parses in place instead."""
RETRY_AFTER_REQUESTS = 64
"""Requests (slices of up to 32 files) parsed in place before one worker is tried again: a cause that
went away (a full disk, a package being reinstalled) gives the worker back to a long-running indexer,
and a cause that stays costs one failed start per this much work."""
RETRY_ROUNDS = 3
"""Workers tried again, one after each ``RETRY_AFTER_REQUESTS``, before this process parses in place for
good (a worker that becomes ready starts the count afresh)."""
WORKER_VARIABLES = frozenset({"VIRTUAL_ENV", "COVERAGE_PROCESS_START"})
"""Variables the worker keeps by name besides every child's runtime ones (``secret_rules``): the user's
site packages and the coverage hook (and Python's own ``PYTHON*``, unless named like a credential)."""
DEATHS_PER_REQUEST = 2
"""Workers that may die holding one request before it fails: a restart redoes a request whose worker
was killed; a second death on the same files points at the files, which then fail the run visibly."""


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


class SentChunk(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A chunk as the worker sends it back: what the run stores of it, the text once.

    A ``Chunk`` holds its text up to four times (``text``, the symbol's ``source``, ``dense_text`` and
    ``sparse_text``); the run needs only the text and the dense header before it, since the worker has
    used the sparse text and nothing stores the source. Celery's replies: 53 -> 20 MB.
    """

    path: str
    kind: ChunkKind
    name: str | None
    symbol_type: str
    language: str
    parent: str | None
    package: str | None
    signature: str
    docstring: str | None
    annotations: tuple[str, ...]
    start_line: int
    end_line: int
    symbol_start_line: int
    symbol_end_line: int
    window: int
    window_count: int
    text: str
    dense_head: str
    """What the dense text holds before ``text``."""
    dense_whole: str | None
    """The whole dense text, only when it does not end with ``text``."""

    @classmethod
    def of(cls, chunk: Chunk) -> SentChunk:
        """The chunk as sent."""
        whole = chunk.dense_text
        ends_with_text = whole.endswith(chunk.text)
        return cls(
            chunk.path,
            chunk.kind,
            chunk.name,
            chunk.symbol_type,
            chunk.language,
            chunk.parent,
            chunk.package,
            chunk.signature,
            chunk.docstring,
            chunk.annotations,
            chunk.start_line,
            chunk.end_line,
            chunk.symbol_start_line,
            chunk.symbol_end_line,
            chunk.window,
            chunk.window_count,
            chunk.text,
            whole[: len(whole) - len(chunk.text)] if ends_with_text else "",
            None if ends_with_text else whole,
        )

    def chunk(self) -> Chunk:
        """The chunk again, without the two texts the run never reads: ``source`` and ``sparse_text``
        are empty (the worker encoded the sparse text; the store keeps neither)."""
        return Chunk(
            path=self.path,
            kind=self.kind,
            name=self.name,
            symbol_type=self.symbol_type,
            language=self.language,
            parent=self.parent,
            package=self.package,
            signature=self.signature,
            docstring=self.docstring,
            annotations=self.annotations,
            start_line=self.start_line,
            end_line=self.end_line,
            symbol_start_line=self.symbol_start_line,
            symbol_end_line=self.symbol_end_line,
            source="",
            window=self.window,
            window_count=self.window_count,
            text=self.text,
            dense_text=self.dense_whole if self.dense_whole is not None else self.dense_head + self.text,
            sparse_text="",
        )


class ParsedChunks(msgspec.Struct, frozen=True, tag="parsed"):
    """A file's chunks and their sparse vectors, in chunk order."""

    sent: list[SentChunk]
    sparse: list[SparseVector]

    def chunks(self) -> list[Chunk]:
        """The file's chunks (see ``SentChunk.chunk``)."""
        return [sent.chunk() for sent in self.sent]


class ParseReply(msgspec.Struct, frozen=True):
    """The outcome of every file of a request, in order, or the error that failed the whole request."""

    outcomes: list[ParsedChunks | NotParsed]
    cpu_seconds: float
    """The worker's CPU time since it started (its imports included)."""
    error: str | None = None
    parse_ns: tuple[int, int] = (0, 0)
    """When the worker parsed the request's files (start, end; ns since the epoch), for the run's trace."""
    sparse_ns: tuple[int, int] = (0, 0)
    """When it sparse-encoded their chunks (start, end; ns since the epoch)."""


class ParseProcessError(Exception):
    """A request the parse process could not answer: its worker died on it twice, or its encoder failed."""


class _FrameError(Exception):
    """The worker's output is not a frame of ours (an impossible length)."""


def _write_frame(stream: IO[bytes], body: bytes) -> None:
    stream.write(_HEADER.pack(len(body)))
    stream.write(body)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> bytes | None:
    """The next frame's body, or None when the stream ends (mid-frame included)."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_FRAME_BYTES:
        raise _FrameError(f"a frame of {size} bytes")
    body = bytearray()
    while len(body) < size:
        piece = stream.read(min(size - len(body), READ_PIECE_BYTES))
        if not piece:
            return None
        body += piece
    return bytes(body)


@dataclass
class _Request:
    """A request waiting for its answer, kept until it has one so that another worker can redo it."""

    request: ParseRequest
    body: bytes
    future: Future[ParseReply]
    deaths: int = 0
    """Workers that died (after they were ready) while this request was theirs."""


@dataclass
class _Worker:
    """One worker process and the requests it was sent, oldest first."""

    process: subprocess.Popen[bytes]
    pending: deque[_Request] = field(default_factory=deque)
    writing: threading.Lock = field(default_factory=threading.Lock)
    """Held while a frame is written, so frames never interleave (apart from the client's lock: a write
    may block on a full pipe, and the watchdog must still be able to end the worker)."""
    ready: bool = False
    ended: threading.Event = field(default_factory=threading.Event)
    closing: bool = False
    last_heard: float = field(default_factory=time.monotonic)
    """When the worker was started, became ready, last answered, or was given work while idle."""


class ParseProcess:
    """The client side of one worker process: requests go in order and each answer resolves its future.

    A worker that dies, writes anything but frames of ours, or answers nothing for ``answer_seconds``
    is ended, and the requests it held are sent to a new worker; a request whose second worker dies
    too fails with ``ParseProcessError`` (its files may be what kills the parser, so they are not
    parsed in this process). A worker that cannot start (it exits, or writes something else, before
    its ready frame) is tried ``START_ATTEMPTS`` times; then this process parses in place.
    """

    def __init__(self, *, answer_seconds: float = ANSWER_SECONDS, start_seconds: float = START_SECONDS) -> None:
        """Args:
        answer_seconds: How long a ready worker may hold requests without answering before it is
            taken for stuck and ended.
        start_seconds: How long a worker holding requests may take to become ready.
        """
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        self._encoder = msgspec.msgpack.Encoder()
        self._cpu_seconds = 0.0
        self._answer_seconds = answer_seconds
        self._start_seconds = start_seconds
        self._failed_starts = 0
        self._retries = 0
        """Workers tried again since the last one that became ready."""
        self._in_place = 0
        """Requests answered in this process since the last start that failed."""
        self._encoders: dict[bytes, Any] = {}

    @property
    def pid(self) -> int | None:
        """The worker's process id (None when none runs)."""
        worker = self._worker
        return worker.process.pid if worker is not None else None

    @property
    def parses_in_place(self) -> bool:
        """True once the worker could not start ``START_ATTEMPTS`` times: requests are answered here
        (until a worker tried again after ``RETRY_AFTER_REQUESTS`` of them becomes ready)."""
        return self._failed_starts >= START_ATTEMPTS

    @property
    def retries(self) -> int:
        """Workers tried again after parsing in place, since the last one that became ready."""
        return self._retries

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
            A future of the answer; it fails with ``ParseProcessError`` if two workers die on it, or if
            encoding failed.
        """
        future: Future[ParseReply] = Future()
        future.set_running_or_notify_cancel()  # never cancelled: its answer comes in its turn
        self._dispatch(_Request(request, self._encoder.encode(request), future))
        return future

    def close(self) -> None:
        """Stop the worker (it finishes the requests it was sent) and wait for it."""
        with self._lock:
            worker, self._worker = self._worker, None
            if worker is not None:
                worker.closing = True
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

    def _dispatch(self, item: _Request) -> None:
        """Hand a request to the running worker (starting one if needed), or answer it here."""
        while True:
            with self._lock:
                worker = self._running()
            if worker is None:
                self._answer_in_place(item)
                return
            with worker.writing:
                with self._lock:
                    if worker.ended.is_set():
                        continue  # it died meanwhile: the next one takes the request
                    if not worker.pending:
                        worker.last_heard = time.monotonic()
                    worker.pending.append(item)
                try:
                    _write_frame(_stream(worker.process.stdin), item.body)
                except OSError as error:  # the worker died: its reader hands the request on
                    logger.debug("the parse process did not take a request: %s", error)
            return

    def _answer_in_place(self, item: _Request) -> None:
        with self._lock:
            self._in_place += 1
        try:
            reply = _answer(item.request, self._encoders)
        except Exception as error:  # the encoder failed (a bug): the run fails visibly, as in the worker
            item.future.set_exception(ParseProcessError(f"{type(error).__name__}: {error}"))
        else:
            item.future.set_result(reply)

    def _running(self) -> _Worker | None:
        """The worker to send to (started if none runs), or None once starting it has failed for good."""
        while not self.parses_in_place or self._try_again():
            if self._worker is not None and not self._worker.ended.is_set() and self._worker.process.poll() is None:
                return self._worker
            try:
                process = subprocess.Popen(
                    # -P: the working folder (often the repository being indexed) is not put on sys.path.
                    [sys.executable, "-P", "-m", "sextant.indexer.parse_process"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    close_fds=True,
                    env=worker_environment(os.environ),
                )
            except OSError as error:
                self._failed_start(f"it could not be started: {error}")
                continue
            worker = self._worker = _Worker(process)
            self._cpu_seconds = 0.0
            for target, name in ((self._read_answers, "answers"), (self._watch, "watchdog")):
                threading.Thread(target=target, args=(worker,), name=f"parse-process-{name}", daemon=True).start()
            return worker
        return None

    def _try_again(self) -> bool:
        """Whether to try one worker again now, parsing in place (the client's lock held)."""
        if self._retries >= RETRY_ROUNDS or self._in_place < RETRY_AFTER_REQUESTS:
            return False
        self._retries += 1
        self._failed_starts = START_ATTEMPTS - 1  # one attempt: a failure returns to parsing in place
        logger.info(
            "trying the parse process again after %d requests parsed in this process (retry %d of %d)",
            self._in_place,
            self._retries,
            RETRY_ROUNDS,
        )
        return True

    def _failed_start(self, why: str) -> None:
        """Count a start that failed (the client's lock held)."""
        self._failed_starts += 1
        if not self.parses_in_place:
            logger.warning("the parse process failed to start (%s): starting another", why)
            return
        self._in_place = 0
        tried = f"{START_ATTEMPTS} times" if not self._retries else f"again (retry {self._retries} of {RETRY_ROUNDS})"
        then = (
            f"trying it again after {RETRY_AFTER_REQUESTS} requests"
            if self._retries < RETRY_ROUNDS
            else "from now on (no more retries)"
        )
        logger.warning("the parse process failed to start %s (%s): parsing in this process; %s", tried, why, then)

    def _read_answers(self, worker: _Worker) -> None:
        """Resolve each request's future with its answer, then end the worker when its output stops."""
        try:
            why = self._take_answers(worker, _stream(worker.process.stdout))
        except (_FrameError, msgspec.DecodeError) as error:
            why = f"it wrote {error}" if isinstance(error, _FrameError) else f"its answer could not be read: {error}"
        except OSError as error:
            why = f"its output could not be read: {error}"
        self._end(worker, why)

    def _take_answers(self, worker: _Worker, answers: IO[bytes]) -> str:
        """Read the ready frame and then the answers, until the output ends (returns why it stopped)."""
        if _read_frame(answers) != READY:
            raise _FrameError("something other than its ready frame")
        with self._lock:
            worker.ready = True
            worker.last_heard = time.monotonic()  # its start does not count against its answers
            if self._retries:
                logger.info("the parse process started again (retry %d): parsing in it", self._retries)
            self._failed_starts = self._retries = self._in_place = 0
        decoder = msgspec.msgpack.Decoder(ParseReply)
        while (body := _read_frame(answers)) is not None:
            reply = decoder.decode(body)
            with self._lock:
                if not worker.pending:
                    if worker.ended.is_set():
                        return "it was ended"  # by the watchdog, which handed its requests on
                    raise _FrameError("an answer to no request")
                item = worker.pending.popleft()
                worker.last_heard = time.monotonic()
                if self._worker is worker:
                    self._cpu_seconds = reply.cpu_seconds
            if reply.error is not None:
                item.future.set_exception(ParseProcessError(reply.error))
            else:
                item.future.set_result(reply)
        return "its output ended"

    def _watch(self, worker: _Worker) -> None:
        """End a worker that holds requests and has not become ready in ``start_seconds``, or, once ready,
        has answered nothing for ``answer_seconds``."""
        while not worker.ended.wait(min(WATCH_SECONDS, self._answer_seconds, self._start_seconds)):
            with self._lock:
                quiet = time.monotonic() - worker.last_heard
                limit = self._answer_seconds if worker.ready else self._start_seconds
                stuck = bool(worker.pending) and quiet > limit
            if stuck:
                why = "it answered nothing for" if worker.ready else "it was not ready after"
                self._end(worker, f"{why} {quiet:.0f} s")
                return

    def _end(self, worker: _Worker, why: str) -> None:
        """End a worker that failed, and hand each request it held to the next one (or fail it)."""
        with self._lock:
            if worker.ended.is_set():
                return
            worker.ended.set()
            held = list(worker.pending)
            worker.pending.clear()
            if self._worker is worker:
                self._worker = None
            if not worker.ready and not worker.closing:
                self._failed_start(why)
        process = worker.process
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        code = process.wait()
        if worker.closing:
            for item in held:
                item.future.set_exception(ParseProcessError(f"the parse process was closed (exit code {code})"))
            return
        if worker.ready:
            logger.warning("the parse process ended (%s; exit code %s) holding %d requests", why, code, len(held))
        for item in held:
            item.deaths += worker.ready
            if item.deaths >= DEATHS_PER_REQUEST:
                paths = ", ".join(file.path for file in item.request.files)
                item.future.set_exception(
                    ParseProcessError(
                        f"the parse process died {item.deaths} times on the same files ({why}; exit code {code}): "
                        f"{paths}; leave them out with INDEX_EXCLUDE if they crash the parser, or set "
                        "INDEX_PARSE_PROCESS=false to parse in the indexer's own process"
                    )
                )
            else:
                self._dispatch(item)


def worker_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The part of an environment the parse worker is started with: what Python and its imports need.

    Args:
        env: The indexer's environment.

    Returns:
        Every child's runtime variables (``secret_rules.child_environment``), ``WORKER_VARIABLES`` and
        every ``PYTHON*`` not named like a credential; nothing else (provider keys, git tokens and bus
        credentials stay in the indexer).
    """
    return child_environment(env, keep=WORKER_VARIABLES, keep_prefixes=("PYTHON",))


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
    parse_start = time.time_ns()
    outcomes: list[list[Chunk] | NotParsed] = [
        parse_file(file.path, file.data, max_file_bytes=request.max_file_bytes, max_chars=request.max_chars)
        for file in request.files
    ]
    texts = [chunk.sparse_text for outcome in outcomes if isinstance(outcome, list) for chunk in outcome]
    sparse_start = time.time_ns()
    vectors = encoder.encode_documents(texts)
    sparse_end = time.time_ns()
    answered: list[ParsedChunks | NotParsed] = []
    start = 0
    for outcome in outcomes:
        if isinstance(outcome, NotParsed):
            answered.append(outcome)
            continue
        end = start + len(outcome)
        answered.append(ParsedChunks([SentChunk.of(chunk) for chunk in outcome], vectors[start:end]))
        start = end
    return ParseReply(
        answered,
        cpu_seconds=time.process_time(),
        parse_ns=(parse_start, sparse_start),
        sparse_ns=(sparse_start, sparse_end),
    )


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
    outbox.put(READY)
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
