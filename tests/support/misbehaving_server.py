"""A deliberately bad MCP server on stdio, for the client's bad-input tests.

Written without the SDK so it can break the protocol on purpose. The first argument picks the
misbehaviour; ``MISBEHAVE_PIDFILE`` (passed through config ``env``) receives this process's pid
and that of a grandchild it starts, so tests can prove neither survives (``MISBEHAVE_SETSID=1``
makes the grandchild call setsid()).

Modes: ok, exit, hang, hang-tools, garbage, huge, not-jsonrpc, malformed, paged, loop, endless,
error, no-tools, env, slow-exit, stderr-noise, chatty.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

TOOLS: list[Any] = [
    {"name": "alpha", "description": "First tool", "inputSchema": {"type": "object"}},
    {"name": "beta", "description": "Second tool", "inputSchema": {"type": "object"}},
]
MALFORMED: list[Any] = [
    {"name": "good", "description": "Fine", "inputSchema": {"type": "object"}},
    "not an object",
    {"description": "no name", "inputSchema": {"type": "object"}},
    {"name": "weird", "description": 42, "extra": {"kept": True}},
]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request: dict[str, Any], result: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def initialize_result() -> dict[str, Any]:
    return {
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "misbehaving", "version": "0.0.1"},
    }


def tools_page(mode: str, cursor: str | None) -> dict[str, Any]:
    if mode == "malformed":
        return {"tools": MALFORMED}
    if mode == "paged":
        page = int(cursor or "0")
        result: dict[str, Any] = {"tools": [{"name": f"tool_{page}", "inputSchema": {}}]}
        if page < 2:
            result["nextCursor"] = str(page + 1)
        return result
    if mode == "loop":
        return {"tools": [{"name": f"tool_{cursor}", "inputSchema": {}}], "nextCursor": "same"}
    if mode == "endless":
        page = int(cursor or "0")
        return {"tools": [{"name": f"tool_{page}", "inputSchema": {}}], "nextCursor": str(page + 1)}
    if mode == "env":
        names = sorted(os.environ)
        return {"tools": [{"name": "env", "description": " ".join(names), "inputSchema": {}}]}
    return {"tools": TOOLS}


def start_grandchild() -> int:
    # With MISBEHAVE_SETSID=1 the grandchild leaves our process group and session, as a
    # daemonising helper would: killing the server's group no longer reaches it.
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=os.environ.get("MISBEHAVE_SETSID") == "1",
    )
    return child.pid


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    pidfile = os.environ.get("MISBEHAVE_PIDFILE")
    if pidfile:
        grandchild = start_grandchild()
        with open(pidfile, "w", encoding="utf-8") as stream:
            stream.write(f"{os.getpid()} {grandchild}\n")
    sys.stderr.write(f"misbehaving server starting in mode {mode}\n")
    sys.stderr.flush()
    if mode == "exit":
        sys.stderr.write("fatal: missing configuration file\n")
        sys.exit(3)
    if mode == "stderr-noise":
        for index in range(2000):
            sys.stderr.write(f"noise line {index} " + "x" * 200 + "\n")
        sys.stderr.flush()
    for line in sys.stdin:
        request = json.loads(line)
        method = request.get("method")
        if "id" not in request:
            continue
        if mode == "hang":
            continue
        if method is None:
            continue  # a client's answer to something we never asked
        if method == "initialize":
            if mode == "garbage":
                sys.stdout.write("Server listening on port 3000\n")
                sys.stdout.flush()
                continue
            if mode == "not-jsonrpc":
                sys.stdout.write("[1, 2, 3]\n")
                sys.stdout.flush()
                continue
            answer(request, initialize_result())
        elif method == "tools/list":
            if mode == "hang-tools":
                continue
            if mode == "huge":
                filler = "y" * (17 * 1024 * 1024)
                answer(request, {"tools": [{"name": "big", "description": filler}]})
                continue
            if mode == "no-tools":
                code, text = -32601, "Method not found"
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": request["id"],
                        "error": {"code": code, "message": text},
                    }
                )
                continue
            if mode == "error":
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": request["id"],
                        "error": {"code": -32603, "message": "database unavailable"},
                    }
                )
                continue
            if mode == "chatty":
                # Things a client must skip: a notification, an answer to nobody, a log line.
                send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/message",
                        "params": {"level": "info", "data": "listing tools"},
                    }
                )
                send({"jsonrpc": "2.0", "id": 9999, "result": {"tools": [{"name": "ghost"}]}})
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
            cursor = (request.get("params") or {}).get("cursor")
            answer(request, tools_page(mode, cursor))
        else:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request["id"],
                    "error": {"code": -32601, "message": "Method not found"},
                }
            )
    if mode == "slow-exit":
        # Ignore the closed stdin and SIGTERM: the client must escalate to SIGKILL.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)


if __name__ == "__main__":
    main()
