"""Document vectors kept between runs, so a surface's tools are embedded once, not every run.

One SQLite file in the platform cache folder (``vectors.sqlite3`` beside the trial cache),
keyed by the model (its id and its tokenizer's hash) and the SHA-256 of the text: it holds no
text, only hashes and vectors, and inspect, deferred runs and the embedding baseline share it.
A cache that cannot be opened or written (a read-only folder, a damaged file) is skipped: the
vectors are then computed, as without one.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from array import array
from collections.abc import Iterable, Mapping
from pathlib import Path

from whichtool_tui.places import cache_home, tag_as_cache

FILE_NAME = "vectors.sqlite3"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors ("
    "model TEXT NOT NULL, digest TEXT NOT NULL, vector BLOB NOT NULL, "
    "PRIMARY KEY (model, digest)) WITHOUT ROWID"
)
_LOOKUP_CHUNK = 500  # bound parameters per query (SQLite's default limit is 999 or more)

Vector = tuple[float, ...]


def text_digest(text: str) -> str:
    """The key of a text: the SHA-256 of its UTF-8 bytes (lone surrogates kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _pack(vector: Vector) -> bytes:
    return array("d", vector).tobytes()


def _unpack(blob: bytes) -> Vector:
    values = array("d")
    values.frombytes(blob)
    return tuple(values)


class VectorCache:
    """Vectors by (model, text digest) in one SQLite file; every failure reads as a miss."""

    def __init__(self, model: str, folder: Path | None = None) -> None:
        self.model = model
        self.path = (folder or cache_home()) / FILE_NAME
        self._db: sqlite3.Connection | None = None
        self._opened = False

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
        """The cached vectors of those digests that have one."""
        db = self._connection()
        wanted = list(dict.fromkeys(digests))
        found: dict[str, Vector] = {}
        if db is None:
            return found
        try:
            for start in range(0, len(wanted), _LOOKUP_CHUNK):
                part = wanted[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(part))
                rows = db.execute(
                    f"SELECT digest, vector FROM vectors WHERE model = ? AND digest IN ({marks})",
                    [self.model, *part],
                )
                found.update((digest, _unpack(blob)) for digest, blob in rows)
        except sqlite3.Error:
            return {}
        return found

    def put_many(self, vectors: Mapping[str, Vector]) -> None:
        """Keep these vectors (a write that fails is dropped: the cache only saves time)."""
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
        """Close the file (the cache can be opened again later)."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db, self._opened = None, False
