"""The key rule holds on every face (issue 25, item 1): a vendor key never follows a base URL that
only a config file named, and the same request with the URL typed is sent.

Each face runs against the header-logging loopback API: the CLI's improve, surface-diff and
tasks generate, a bout's model seat, the TUI's Run screen (Pilot and the real binary in tmux)
and the MCP server's improve override. The config points the OpenAI key at the loopback API,
which is not OpenAI's host: refused, zero requests. Typed on the command line or edited in the
form, the same URL receives the key. A bout seat never reads the config's provider at all: its
URL is ``--seat-endpoint`` alone, so without it the key goes to OpenAI's own host (here the
refusing loopback proxy), never to the config's URL.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.support.cli import clean_env, run_headless
from tests.support.fake_apis import FakeApi, chat_reply, fake_api_server
from tests.support.logging_proxy import logging_proxy
from tests.support.mcp_session import call, mcp_session
from tests.support.paths import SNAPSHOTS
from tests.support.run_project import write_project
from tests.support.tmux import start_terminal
from tests.support.ui_run import SIZE, open_lab_run
from whichtool_tui.config import parse_config
from whichtool_tui.ui.app import WhichtoolApp
from whichtool_tui.ui.session import default_run_form

pytestmark = pytest.mark.slow  # starts processes, servers or the whole app

SENTINEL = "sk-SENTINEL-everyface-7c2b"
KEY = {"OPENAI_API_KEY": SENTINEL}


_env = clean_env


def _provider(api: FakeApi) -> dict[str, str]:
    return {"name": "openai-chat", "model": "m", "baseUrl": api.base_url + "/v1"}


def _config(folder: Path, api: FakeApi) -> None:
    (folder / "whichtool.config.json").write_text(
        json.dumps({"provider": _provider(api)}), encoding="utf-8"
    )


def _demo(folder: Path) -> None:
    for name in ("demo-lab.json", "demo-lab.tasks.yaml", "demo-lab.improve.tasks.yaml"):
        shutil.copy(SNAPSHOTS / name, folder / name)


def _keyed(api: FakeApi) -> list[str]:
    return [r.headers.get("authorization", "") for r in api.requests]


def _refused(done: Any) -> None:
    assert done.returncode == 2, done.stderr
    assert "provider/key-host-mismatch" in done.stderr or "Refusing to send" in done.stderr
    assert "Traceback" not in done.stderr
    assert SENTINEL not in done.stdout + done.stderr


# --- improve -----------------------------------------------------------------------------------


def test_improve_refuses_a_config_url_and_sends_a_typed_one(tmp_path: Path) -> None:
    _demo(tmp_path)
    args = ("improve", "demo-lab.json", "--tasks", "demo-lab.improve.tasks.yaml")
    args += ("--repeat", "1", "--max-trials", "200")
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(text="no tool")
        _config(tmp_path, api)
        refused = run_headless(*args, env=_env(KEY), cwd=tmp_path)
        _refused(refused)
        assert api.requests == []
        typed = run_headless(*args, "--base-url", api.base_url + "/v1", env=_env(KEY), cwd=tmp_path)
        assert "Traceback" not in typed.stderr
        assert api.requests and set(_keyed(api)) == {f"Bearer {SENTINEL}"}
    assert not (tmp_path / "demo-lab.patch.json").exists() or refused.returncode == 2


# --- surface-diff --provider -----------------------------------------------------------------


def test_surface_diff_refuses_a_config_url_and_sends_a_typed_one(tmp_path: Path) -> None:
    _demo(tmp_path)
    head = json.loads((tmp_path / "demo-lab.json").read_text(encoding="utf-8"))
    tools = head["tools"] if isinstance(head, dict) else head
    tools[0]["description"] = "Changed: " + str(tools[0].get("description", ""))
    (tmp_path / "head.json").write_text(json.dumps(head), encoding="utf-8")
    args = ("surface-diff", "demo-lab.json", "head.json", "--tasks", "demo-lab.tasks.yaml")
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(text="no tool")
        _config(tmp_path, api)
        refused = run_headless(*args, "--provider", "openai-chat", env=_env(KEY), cwd=tmp_path)
        _refused(refused)
        assert api.requests == []
        typed = run_headless(
            *args,
            "--provider",
            "openai-chat",
            "--base-url",
            api.base_url + "/v1",
            env=_env(KEY),
            cwd=tmp_path,
        )
        assert "Traceback" not in typed.stderr
        assert api.requests and set(_keyed(api)) == {f"Bearer {SENTINEL}"}


# --- tasks generate --------------------------------------------------------------------------


def test_tasks_generate_refuses_a_config_url_and_sends_a_typed_one(tmp_path: Path) -> None:
    _demo(tmp_path)
    args = ("tasks", "generate", "demo-lab.json", "--out", "drafted.yaml")
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(text="no tasks")
        _config(tmp_path, api)
        refused = run_headless(*args, env=_env(KEY), cwd=tmp_path)
        _refused(refused)
        assert api.requests == []
        assert not (tmp_path / "drafted.yaml").exists()
        typed = run_headless(*args, "--base-url", api.base_url + "/v1", env=_env(KEY), cwd=tmp_path)
        assert "Traceback" not in typed.stderr
        assert SENTINEL not in typed.stdout + typed.stderr
        assert api.requests and set(_keyed(api)) == {f"Bearer {SENTINEL}"}


# --- bout model seat -------------------------------------------------------------------------


def test_bout_seat_never_takes_the_config_url_and_sends_a_typed_one(tmp_path: Path) -> None:
    args = ("bout", "--target", "fixture", "--agent", "openai-chat:m", "--no-prompt")
    with fake_api_server() as api, logging_proxy() as proxy:
        api.responder = lambda request: chat_reply(text="no tool")
        _config(tmp_path, api)
        env = _env({**KEY, **proxy.env()})
        untyped = run_headless(*args, "-o", str(tmp_path / "a.json"), env=env, cwd=tmp_path)
        assert "Traceback" not in untyped.stderr
        assert api.requests == []  # the config's URL: never
        assert proxy.requests and {r.target for r in proxy.requests} == {"api.openai.com:443"}
        typed = run_headless(
            *args,
            "--seat-endpoint",
            api.base_url + "/v1",
            "-o",
            str(tmp_path / "b.json"),
            env=env,
            cwd=tmp_path,
        )
        assert typed.returncode == 0, typed.stderr
        assert api.requests and set(_keyed(api)) == {f"Bearer {SENTINEL}"}
    for done in (untyped, typed):
        assert SENTINEL not in done.stdout + done.stderr
    for receipt in ("a.json", "b.json"):
        assert SENTINEL not in (tmp_path / receipt).read_text(encoding="utf-8")


# --- the TUI ---------------------------------------------------------------------------------


async def test_tui_run_keeps_a_prefilled_config_url_as_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    with fake_api_server() as api:
        api.responder = lambda request: chat_reply(text="no tool")
        app = WhichtoolApp()
        app.session.settings = parse_config({"provider": _provider(api)}, source="test")
        form = default_run_form(app.session)
        assert form.base_url == api.base_url + "/v1" and form.base_url_source == "config"
        async with app.run_test(size=SIZE) as pilot:
            await open_lab_run(app, pilot, tmp_path, "1", form=form)
            await pilot.pause()
            assert app.screen.query_one("#run-base-url", Input).value == form.base_url
            await pilot.press("r")
            await app.workers.wait_for_complete()
            await pilot.pause()
            plan = str(app.screen.query_one("#run-plan", Static).render())
            assert "provider/key-host-mismatch" in plan
            assert "type the URL" in plan
            assert api.requests == []
            # The user types the URL themselves (clears the field, types it back): now theirs.
            field = app.screen.query_one("#run-base-url", Input)
            field.value = ""
            await pilot.pause()
            field.value = form.base_url or ""
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
    assert api.requests and set(_keyed(api)) == {f"Bearer {SENTINEL}"}


def test_tui_binary_refuses_a_config_url_in_tmux(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    for name in list(os.environ):
        if "proxy" in name.lower() or name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    with fake_api_server() as api:
        _config(tmp_path, api)
        term = start_terminal(tmp_path, "run surface.json --tasks whichtool.tasks.yaml")
        try:
            # Ready once the plan is drawn from the loaded snapshot, not merely the screen.
            term.wait_until(
                lambda pane: "Nothing run yet" in pane and "prompt floor" in pane,
                "the Run screen's plan",
                timeout=60,
            )
            term.press("r")
            screen = term.wait_for("key-host-mismatch", timeout=30)
        finally:
            term.close()
        assert api.requests == []
    assert SENTINEL not in screen


# --- the MCP server --------------------------------------------------------------------------


async def test_mcp_improve_override_never_sends_the_key_to_the_operators_url(
    tmp_path: Path,
) -> None:
    _demo(tmp_path)
    with fake_api_server() as api:
        config = tmp_path / "whichtool.mcp.json"
        config.write_text(
            json.dumps(
                {
                    "target": {"transport": "snapshot", "path": "demo-lab.json"},
                    "tasks": "demo-lab.improve.tasks.yaml",
                    "provider": _provider(api),
                }
            ),
            encoding="utf-8",
        )
        async with mcp_session(
            tmp_path,
            ["--allow-paid-runs", "--allow-provider-overrides"],
            config=config,
            env=KEY,
        ) as session:
            body = await call(
                session,
                "improve_descriptions",
                snapshot="demo-lab.json",
                tasks="demo-lab.improve.tasks.yaml",
                provider="openai-chat",
                model="m",
                repeat=1,
            )
        assert api.requests == []
    assert body["error"]["code"] == "provider/key-host-mismatch", body
    assert SENTINEL not in json.dumps(body)
