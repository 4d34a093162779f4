"""A loopback stand-in for a model in the improve loop: it routes like the keyword baseline over
whatever descriptions it is sent, and answers rewrite requests with scripted descriptions.

Routing by the descriptions on the wire makes the measurement real: a scripted rewrite changes
what the next routing requests carry, and so what this "model" picks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from tests.support.fake_apis import (
    FakeReply,
    RecordedRequest,
    anthropic_reply,
    chat_reply,
    responses_reply,
)
from whichtool_tui.improve.rewrite_request import SCHEMA_NAME
from whichtool_tui.providers.base import ToolSpec
from whichtool_tui.providers.keyword import KeywordProvider

_TOOL_NAME = re.compile(r'The tool, as served:\n\{\n  "name": "([^"]+)"')
_CURRENT = re.compile(r'"description": "((?:[^"\\]|\\.)*)"')


def is_rewrite(body: Mapping[str, Any]) -> bool:
    """A structured rewrite request in any of the three shapes (not a routing trial)."""
    if "response_format" in body or "text" in body:
        return True
    choice = body.get("tool_choice")
    return isinstance(choice, dict) and choice.get("type") == "tool"


def _prompt(body: Mapping[str, Any]) -> str:
    if "input" in body:
        return str(body["input"])
    return str(body["messages"][0]["content"])


def _tools(body: Mapping[str, Any]) -> list[ToolSpec]:
    specs = []
    for tool in body.get("tools", []):
        entry = tool.get("function", tool)
        specs.append(ToolSpec(entry["name"], entry.get("description"), {}))
    return specs


def rewrite_prompt_tool(body: Mapping[str, Any]) -> tuple[str, str]:
    """The tool a rewrite request is about, and its current description."""
    prompt = _prompt(body)
    name = _TOOL_NAME.search(prompt)
    current = _CURRENT.search(prompt)
    assert name is not None and current is not None, prompt[:300]
    return name.group(1), json.loads(f'"{current.group(1)}"')


def keyword_model(shape: str, rewrites: Mapping[str, Mapping[str, Any]]) -> Any:
    """A responder for ``fake_api_server``: ``shape`` is chat, responses or messages."""
    router = KeywordProvider()

    def respond(request: RecordedRequest) -> FakeReply:
        body = request.json
        if is_rewrite(body):
            name, current = rewrite_prompt_tool(body)
            value = dict(rewrites.get(name, {"description": current, "title": None}))
            if shape == "messages":
                return anthropic_reply(calls=[(SCHEMA_NAME, value)])
            text = json.dumps(value)
            return chat_reply(text=text) if shape == "chat" else responses_reply(text=text)
        picked = router.choose(_prompt(body), _tools(body))
        if shape == "messages":
            return anthropic_reply(
                calls=[(picked, {})] if picked else [], text="" if picked else "no tool"
            )
        if shape == "chat":
            return chat_reply(
                calls=[(picked, "{}")] if picked else [], text=None if picked else "no tool"
            )
        return responses_reply(
            calls=[(picked, "{}")] if picked else [], text="" if picked else "no tool"
        )

    return respond
