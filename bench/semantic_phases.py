"""Where a cold `inspect --tasks --retriever semantic` spends its time, phase by phase.

The parent runs one whole child process (an empty vector cache in a temp folder) that calls the
CLI's ``main`` with timers wrapped around the phases, and prints each phase's wall seconds:
process start and exit (the child's wall outside ``main``), inspect without findability, the
model load (onnxruntime import, hashes, session), tokenization, the model's run (pooling
included), the vector cache's reads and writes, ranking (the semantic searches) and the rest of
the findability section. The timers wrap whole calls; two batches run at once inside the model's
run, so its wall time, not the sum of its threads', is what counts. Asserts nothing.
Run: .venv/bin/python bench/semantic_phases.py SNAPSHOT TASKS  (bench/inspect_registry.py
--semantic makes both and calls it after the cold run.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import whole_process

PHASES = (
    ("start", "process start, imports before main, exit"),  # with the timers' imports (numpy)
    ("inspect", "inspect without findability"),
    ("load", "model load (onnxruntime import, hashes, session)"),
    ("tokenize", "tokenization"),
    ("model", "model run and pooling"),
    ("cache", "vector cache reads and writes"),
    ("rank", "ranking (the semantic searches)"),
    ("findability", "rest of the findability section"),
)


def _timed(seconds: dict[str, float], phase: str, function: Callable[..., Any]) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[phase] += time.perf_counter() - started

    return wrapper


class _TimedTokenizer:
    """The model's tokenizer with ``encode_batch`` timed (the Rust object takes no new attrs)."""

    def __init__(self, tokenizer: Any, seconds: dict[str, float]) -> None:
        self._tokenizer = tokenizer
        self.encode_batch = _timed(seconds, "tokenize", tokenizer.encode_batch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tokenizer, name)


def child(argv: list[str]) -> None:
    """Run ``main(argv)`` with the phase timers; print the seconds as JSON on the last line."""
    from whichtool_tui.cli import main
    from whichtool_tui.discovery import attach, embedding, semantic, vector_cache

    seconds: dict[str, float] = defaultdict(float)
    load = embedding.load_embedding_model

    def timed_load() -> Any:
        started = time.perf_counter()
        fresh = embedding._model is None
        model = load()
        if fresh:
            seconds["load"] += time.perf_counter() - started
            model.tokenizer = _TimedTokenizer(model.tokenizer, seconds)
        return model

    embedding.load_embedding_model = timed_load
    cache = vector_cache.VectorCache
    cache.get_many = _timed(seconds, "cache", cache.get_many)  # type: ignore[method-assign]
    cache.put_many = _timed(seconds, "cache", cache.put_many)  # type: ignore[method-assign]
    retriever = semantic.SemanticRetriever
    retriever.search = _timed(seconds, "rank", retriever.search)  # type: ignore[method-assign]
    model_class = embedding.EmbeddingModel
    encode = _timed(seconds, "encode", model_class._encode_batches)
    model_class._encode_batches = encode  # type: ignore[method-assign]
    attach_findability = attach.with_findability
    attach.with_findability = _timed(seconds, "with_findability", attach_findability)
    started = time.perf_counter()
    main(argv)
    seconds["main"] = time.perf_counter() - started
    print(json.dumps(seconds))


def phases(snapshot: Path, tasks: Path) -> list[tuple[str, float]]:
    """(phase, seconds) of one cold whole process, the phases of ``PHASES`` in order."""
    with tempfile.TemporaryDirectory() as folder:
        argv = ["--no-ui", "inspect", str(snapshot), "--tasks", str(tasks), "--retriever"]
        argv += ["semantic", "--format", "json", "--out", str(Path(folder) / "out.json")]
        env = {**whole_process._ENV, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, __file__, "--child", *argv],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        wall = time.perf_counter() - started
    seconds = json.loads(done.stdout.strip().splitlines()[-1])
    # The findability section's share once its named phases are taken out (the searches' reads
    # of the prompts' vectors, from memory, count in both ranking and the cache).
    findability = seconds["with_findability"] - seconds["encode"] - seconds["load"]
    findability -= seconds["rank"] + seconds["cache"]
    figures = {
        "start": wall - seconds["main"],
        "inspect": seconds["main"] - seconds["with_findability"],
        "load": seconds["load"],
        "tokenize": seconds["tokenize"],
        "model": seconds["encode"] - seconds["tokenize"],
        "cache": seconds["cache"],
        "rank": seconds["rank"],
        "findability": findability,
    }
    return [(name, figures[name]) for name, _label in PHASES] + [("whole", wall)]


def report(snapshot: Path, tasks: Path) -> None:
    """Print one cold run's phases, one a line."""
    labels = dict(PHASES) | {"whole": "whole process"}
    print(f"semantic cold run by phase (load {os.getloadavg()[0]:.1f}):")
    for name, value in phases(snapshot, tasks):
        print(f"  {labels[name]:<50} {value:6.2f} s")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2:])
    else:
        report(Path(sys.argv[1]), Path(sys.argv[2]))
