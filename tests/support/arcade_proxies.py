"""Three small stdio MCP proxies for the defence-conformance tests, standard library only.

    python arcade_proxies.py forward -- CMD ...          relays every line both ways
    python arcade_proxies.py deny -- CMD ...             refuses every tools/call itself
    python arcade_proxies.py pin [--pins FILE] -- CMD ...

``pin`` hashes each tool's description, input schema and annotations under its name. Without
``--pins`` it trusts the first tools/list of the session; with it, only the hashes in FILE
(name -> hash JSON). A later listing serves the pinned definition for a changed tool, drops
tools it never approved, and answers any tools/call of a changed or unapproved name itself with
a JSON-RPC error, so that call never reaches the server. NDJSON framing only.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from typing import Any

BLOCKED = -32001


def tool_hash(tool: dict[str, Any]) -> str:
    """What a pin covers: description, input schema and annotations."""
    content = {
        "description": tool.get("description"),
        "inputSchema": tool.get("inputSchema") or {},
        "annotations": tool.get("annotations"),
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Pins:
    """Approved definitions by name, and the names currently blocked."""

    def __init__(self, approved: dict[str, str] | None) -> None:
        self.approved = approved
        self.definitions: dict[str, dict[str, Any]] = {}
        self.blocked: set[str] = set()
        self.lock = threading.Lock()

    def filter(self, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The listing the client may see."""
        with self.lock:
            if self.approved is None:
                self.approved = {str(t.get("name")): tool_hash(t) for t in tools}
            served: list[dict[str, Any]] = []
            seen: set[str] = set()
            for tool in tools:
                name = str(tool.get("name"))
                seen.add(name)
                if self.approved.get(name) == tool_hash(tool):
                    self.definitions[name] = tool
                    self.blocked.discard(name)
                    served.append(tool)
                    continue
                self.blocked.add(name)
                if name in self.definitions:
                    served.append(self.definitions[name])
            served += [d for n, d in self.definitions.items() if n not in seen]
            return served

    def refuses(self, name: str) -> bool:
        """True for a call the proxy answers itself."""
        with self.lock:
            known = self.approved is None or name in self.approved
            return name in self.blocked or not known


def _write(stream: Any, lock: threading.Lock, message: dict[str, Any]) -> None:
    with lock:
        stream.write(json.dumps(message, separators=(",", ":")) + "\n")
        stream.flush()


def main(argv: list[str]) -> int:
    mode = argv[0]
    split = argv.index("--")
    options, command = argv[1:split], argv[split + 1 :]
    pins: Pins | None = None
    if mode == "pin":
        approved = None
        if options[:1] == ["--pins"]:
            with open(options[1], encoding="utf-8") as handle:
                approved = json.load(handle)
        pins = Pins(approved)
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert child.stdin is not None and child.stdout is not None
    to_client, to_server = threading.Lock(), threading.Lock()
    lists: set[Any] = set()

    def from_server() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if not line.strip():
                continue
            message = json.loads(line)
            if pins is not None and "method" not in message and message.get("id") in lists:
                lists.discard(message.get("id"))
                result = message.get("result")
                if isinstance(result, dict) and isinstance(result.get("tools"), list):
                    result["tools"] = pins.filter(result["tools"])
            _write(sys.stdout, to_client, message)

    reader = threading.Thread(target=from_server, daemon=True)
    reader.start()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method = message.get("method")
        if pins is not None and method == "tools/list":
            lists.add(message.get("id"))
        if method == "tools/call" and (mode == "deny" or pins is not None):
            name = str((message.get("params") or {}).get("name"))
            if pins is None or pins.refuses(name):
                refusal = {"code": BLOCKED, "message": f"blocked by pin: {name} is not approved"}
                _write(
                    sys.stdout,
                    to_client,
                    {"jsonrpc": "2.0", "id": message.get("id"), "error": refusal},
                )
                continue
        _write(child.stdin, to_server, message)
    child.stdin.close()
    reader.join(timeout=10)
    return child.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
