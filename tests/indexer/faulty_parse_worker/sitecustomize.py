"""Makes the real parse worker misbehave on its real stdout, for tests/indexer/test_parse_process_faults.py.

Python imports ``sitecustomize`` from ``PYTHONPATH`` at the start of every interpreter, so a test that puts
a copy of this module on the ``PYTHONPATH`` it hands the indexer changes what the parse processes started
then do; any other Python process leaves it alone. Nothing of ours is replaced: the worker runs its own
code, and this module stands between its stdout and the pipe to the indexer, forwarding frames until the
fault. The worker inherits only Python's own variables (``PYTHONPATH`` among them), so the fault is read
from the file ``fault`` beside the copy, whose first line says which fault (no file: no fault):

- ``exit-at-start``: the interpreter exits (status 3) before the worker runs, as a broken environment does;
- ``slow-start``: the interpreter takes ``SLOW_START_SECONDS`` before the worker runs, as on a loaded machine;
- ``banner``: a line is printed on stdout before the worker runs (a chatty module), then the worker runs;
- ``garbage-answer``: the first answer's bytes are replaced by bytes that are no msgpack;
- ``truncated-answer``: half of the first answer is written, then the process exits;
- ``die-on-answer``: the process exits (status 9) instead of writing its first answer.

With a second line naming a file, only the first worker to create that file misbehaves. Every parse
worker started adds a line to the file ``starts`` beside the copy, so a test can count the starts.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
import time
from pathlib import Path

HEADER = struct.Struct("!Q")
SLOW_START_SECONDS = 3.0


def _is_parse_worker() -> bool:
    return "sextant.indexer.parse_process" in getattr(sys, "orig_argv", ())


def _first_to_claim(marker: str) -> bool:
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        piece = os.read(fd, size - len(data))
        if not piece:
            break
        data += piece
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _stand_between(fault: str) -> None:
    """Take the worker's stdout and forward its frames to the real one, misbehaving at the first answer."""
    inbound, outbound = os.pipe()
    real_stdout = os.dup(1)
    os.dup2(outbound, 1)
    os.close(outbound)

    def forward() -> None:
        frames = 0
        while len(header := _read_exactly(inbound, HEADER.size)) == HEADER.size:
            (size,) = HEADER.unpack(header)
            body = _read_exactly(inbound, size)
            frames += 1
            if frames == 2:  # the first answer (frame 1 is the ready frame)
                if fault == "garbage-answer":
                    body = b"\xc1" * len(body)  # 0xc1 is never used by msgpack
                elif fault == "truncated-answer":
                    _write_all(real_stdout, header + body[: len(body) // 2])
                    os._exit(0)
                elif fault == "die-on-answer":
                    os._exit(9)
            _write_all(real_stdout, header + body)
        os.close(real_stdout)

    threading.Thread(target=forward, name="faulty-stdout", daemon=True).start()


def _misbehave() -> None:
    if not _is_parse_worker():
        return
    with Path(__file__).with_name("starts").open("a", encoding="utf-8") as starts:
        starts.write(f"{os.getpid()}\n")
    try:
        fault, _, once = Path(__file__).with_name("fault").read_text(encoding="utf-8").partition("\n")
    except FileNotFoundError:
        return
    once = once.strip()
    if not fault or (once and not _first_to_claim(once)):
        return
    if fault == "exit-at-start":
        os._exit(3)
    elif fault == "slow-start":
        time.sleep(SLOW_START_SECONDS)
    elif fault == "banner":
        _write_all(1, b"a module says hello on stdout\n")
    else:
        _stand_between(fault)


_misbehave()
