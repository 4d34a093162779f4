"""A deliberately broken stdio MCP server for fault tests; argv[1] picks the fault.

Hand-written NDJSON (no SDK) so it starts in milliseconds. Modes: honest, paginate,
crash_start, hang, crash_mid, garbage, oversize, stderr_flood, notify_flood, wrong_framing,
spawn_child.
"""

from __future__ import annotations

import json
import subprocess
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "honest"
ECHO = {
    "name": "echo",
    "description": "Echo text back.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}


def send(message: dict[str, object], framing: str = "ndjson") -> None:
    body = json.dumps(message, separators=(",", ":"))
    if framing == "ndjson":
        sys.stdout.write(body + "\n")
    else:
        sys.stdout.write(f"Content-Length: {len(body.encode())}\r\n\r\n{body}")
    sys.stdout.flush()


def reply(request: dict[str, object], result: dict[str, object], framing: str = "ndjson") -> None:
    send({"jsonrpc": "2.0", "id": request["id"], "result": result}, framing)


def main() -> None:
    if MODE == "crash_start":
        sys.stderr.write("boom: could not start\n")
        sys.exit(3)
    if MODE == "garbage":
        sys.stdout.write("this is not json at all\n")
        sys.stdout.flush()
    if MODE == "stderr_flood":
        for _ in range(2000):
            sys.stderr.write("x" * 1023 + "\n")
        sys.stderr.write("last words of the flood\n")
        sys.stderr.flush()
    if MODE == "spawn_child":
        subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)", "arcade-grandchild-marker"]
        )
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        method = request.get("method")
        if "id" not in request:
            continue
        if method == "initialize":
            version = request["params"]["protocolVersion"]
            reply(
                request,
                {
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": f"faulty-{MODE}", "version": "0"},
                },
            )
        elif method == "tools/list":
            if MODE == "crash_mid":
                sys.exit(4)
            if MODE == "hang":
                continue
            if MODE == "oversize":
                sys.stdout.write('{"pad":"' + "a" * (17 * 1024 * 1024) + '"}\n')
                sys.stdout.flush()
                continue
            if MODE == "notify_flood":
                for index in range(5000):
                    send(
                        {
                            "jsonrpc": "2.0",
                            "method": "notifications/message",
                            "params": {"level": "info", "data": f"n{index}"},
                        }
                    )
            if MODE == "paginate":
                cursor = (request.get("params") or {}).get("cursor")
                page = (
                    {"tools": [{**ECHO, "name": "second"}]}
                    if cursor == "p2"
                    else {"tools": [ECHO], "nextCursor": "p2"}
                )
                reply(request, page)
                continue
            framing = "content-length" if MODE == "wrong_framing" else "ndjson"
            reply(request, {"tools": [ECHO]}, framing)
        elif method == "tools/call":
            text = request["params"].get("arguments", {}).get("text", "")
            reply(request, {"content": [{"type": "text", "text": text}], "isError": False})
        else:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request["id"],
                    "error": {"code": -32601, "message": "no such method"},
                }
            )


if __name__ == "__main__":
    main()
