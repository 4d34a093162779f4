"""Document vectors kept between runs, so a surface's tools are embedded once, not every run.

One SQLite file in the platform cache folder (``vectors.sqlite3`` beside the trial cache),
keyed by the model (its id and its tokenizer's hash) and the SHA-256 of the text: it holds no
text, only hashes and vectors, and inspect, deferred runs and the embedding baseline share it.
A cache that cannot be opened or written (a read-only folder, a damaged file) is skipped: the
vectors are then computed, as without one. Vectors are float64 numpy arrays (stored as their
little-endian bytes) and stay in memory once read or written, so one process asks SQLite for a
text at most once.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from whichtool_tui.places import cache_home, tag_as_cache

FILE_NAME = "vectors.sqlite3"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors ("
    "model TEXT NOT NULL, digest TEXT NOT NULL, vector BLOB NOT NULL, "
    "PRIMARY KEY (model, digest)) WITHOUT ROWID"
)
_LOOKUP_CHUNK = 500  # bound parameters per query (SQLite's default limit is 999 or more)

Vector = Any  # a 1-D float64 numpy array (numpy ships no precise array type for mypy here)


def text_digest(text: str) -> str:
    """The key of a text: the SHA-256 of its UTF-8 bytes (lone surrogates kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _pack(vector: Vector) -> bytes:
    return np.asarray(vector, dtype="<f8").tobytes()


def _unpack(blob: bytes) -> Vector:
    return np.frombuffer(blob, dtype="<f8")


class VectorCache:
    """Vectors by (model, text digest) in one SQLite file; every failure reads as a miss."""

    def __init__(self, model: str, folder: Path | None = None) -> None:
        self.model = model
        self.path = (folder or cache_home()) / FILE_NAME
        self._db: sqlite3.Connection | None = None
        self._opened = False
        self._memory: dict[str, Vector] = {}

    def _connection(self) -> sqlite3.Connection | None:
        if self._opened:
            return self._db
        self._opened = True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tag_as_cache(self.path.parent, "cache")
            db = sqlite3.connect(self.path, timeout=5.0)
            # A write-ahead log without a sync per commit: a lost write only costs a recompute.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.commit()
        except (OSError, sqlite3.Error):
            return None
        self._db = db
        return db

    def get_many(self, digests: Iterable[str]) -> dict[str, Vector]:
        """The cached vectors of those digests that have one (from memory, else one query per
        500 digests)."""
        wanted = list(dict.fromkeys(digests))
        found = {digest: self._memory[digest] for digest in wanted if digest in self._memory}
        unread = [digest for digest in wanted if digest not in found]
        db = self._connection() if unread else None
        if db is None:
            return found
        read: dict[str, Vector] = {}
        try:
            for start in range(0, len(unread), _LOOKUP_CHUNK):
                part = unread[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(part))
                rows = db.execute(
                    f"SELECT digest, vector FROM vectors WHERE model = ? AND digest IN ({marks})",
                    [self.model, *part],
                )
                read.update((digest, _unpack(blob)) for digest, blob in rows)
        except sqlite3.Error:
            return found
        self._memory.update(read)
        return found | read

    def put_many(self, vectors: Mapping[str, Vector]) -> None:
        """Keep these vectors (a write that fails is dropped: the cache only saves time)."""
        self._memory.update(
            (digest, np.asarray(row, dtype="<f8")) for digest, row in vectors.items()
        )
        db = self._connection()
        if db is None or not vectors:
            return
        with contextlib.suppress(sqlite3.Error):
            db.executemany(
                "INSERT OR IGNORE INTO vectors (model, digest, vector) VALUES (?, ?, ?)",
                [(self.model, digest, _pack(vector)) for digest, vector in vectors.items()],
            )
            db.commit()

    def close(self) -> None:
        """Close the file and forget what was read (the cache can be opened again later)."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db, self._opened = None, False
        self._memory.clear()
