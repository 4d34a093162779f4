"""OpenAI's Responses API (``POST /responses``), the ``openai`` preset.

The seed is never sent (the API has none). The response and each of its items must be
``completed``; a refusal part is an error; at least one message or function_call must be present.
"""

from __future__ import annotations

from typing import Any

from whichtool_tui.providers.base import ProposedCall, RouteReply, RouteRequest
from whichtool_tui.providers.http import HttpProvider, json_text_value, read_usage
from whichtool_tui.providers.presets import ENDPOINT_PATHS

_TERMINAL_ITEMS = ("message", "function_call")


class ResponsesProvider(HttpProvider):
    """The ``openai`` preset."""

    endpoint_path = ENDPOINT_PATHS["responses"]

    def build_body(self, request: RouteRequest) -> dict[str, Any]:
        """The exact request body for one routing request."""
        body: dict[str, Any] = {"model": self.options.model, "store": False}
        if request.reasoning_effort is not None:
            body["reasoning"] = {"effort": request.reasoning_effort}
        body["input"] = request.prompt
        tools: list[dict[str, Any]] = []
        for tool in request.tools:
            entry: dict[str, Any] = {"type": "function", "name": tool.name}
            if tool.description is not None:
                entry["description"] = tool.description
            entry["parameters"] = tool.input_schema
            tools.append(entry)
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        body["temperature"] = request.temperature
        if self.options.max_output_tokens:
            body["max_output_tokens"] = self.options.max_output_tokens
        return body

    def _check_status(self, answer: dict[str, Any]) -> None:
        status = answer.get("status")
        if status == "completed":
            return
        details = answer.get("incomplete_details")
        reason = details.get("reason") if isinstance(details, dict) else None
        if status == "incomplete" and reason == "max_output_tokens":
            raise self.fail(
                "provider/truncated",
                "the answer was cut off at max_output_tokens",
                "The reply hit the output token limit before it finished.",
            )
        if status == "incomplete" and reason == "content_filter":
            raise self.fail("provider/content-filter", "the answer was stopped by a content filter")
        shown = f" ({reason})" if isinstance(reason, str) else ""
        raise self.fail("provider/unexpected-stop", f"response status {status!r}{shown}")

    def parse(self, answer: dict[str, Any], latency_ms: float) -> RouteReply:
        """Turn a Responses answer into calls, text and usage, or raise ProviderError."""
        self._check_status(answer)
        output = answer.get("output")
        if not isinstance(output, list) or not all(isinstance(i, dict) for i in output):
            raise self.fail("provider/invalid-response", "the answer has no output item list")
        calls: list[ProposedCall] = []
        texts: list[str] = []
        reasoning = 0
        terminal = 0
        for item in output:
            kind = item.get("type")
            item_status = item.get("status")
            if item_status is not None and item_status != "completed":
                raise self.fail(
                    "provider/unexpected-stop", f"output item {kind!r} has status {item_status!r}"
                )
            if kind == "function_call":
                terminal += 1
                name = item.get("name")
                calls.append(
                    ProposedCall(name if isinstance(name, str) else None, item.get("arguments"))
                )
            elif kind == "message":
                terminal += 1
                texts.extend(self._message_text(item))
            elif kind == "reasoning":
                reasoning += _reasoning_chars(item)
        if terminal == 0:
            raise self.fail("provider/malformed-reply", "no message or function_call in the output")
        usage = read_usage(answer, "input_tokens", "output_tokens")
        return RouteReply(
            calls=tuple(calls),
            text="".join(texts),
            usage=usage,
            reasoning_chars=reasoning or None,
            latency_ms=latency_ms,
            stop_reason="completed",
        )

    def _message_text(self, item: dict[str, Any]) -> list[str]:
        content = item.get("content")
        parts: list[str] = []
        for part in content if isinstance(content, list) else []:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "refusal":
                refusal = part.get("refusal")
                shown = f": {refusal[:200]}" if isinstance(refusal, str) and refusal else ""
                raise self.fail("provider/refusal", f"the model refused the request{shown}")
            if part.get("type") == "output_text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return parts

    def text_body(
        self, prompt: str, temperature: float, max_output_tokens: int | None
    ) -> dict[str, Any]:
        """Free text without tools."""
        body: dict[str, Any] = {
            "model": self.options.model,
            "store": False,
            "input": prompt,
            "temperature": temperature,
        }
        limit = max_output_tokens or self.options.max_output_tokens
        if limit:
            body["max_output_tokens"] = limit
        return body

    def structured_body(
        self, prompt: str, name: str, schema: dict[str, Any], max_output_tokens: int | None
    ) -> dict[str, Any]:
        """Free text constrained by ``text.format`` json_schema (strict)."""
        body = self.text_body(prompt, 0.0, max_output_tokens)
        body["text"] = {
            "format": {"type": "json_schema", "name": name, "strict": True, "schema": schema}
        }
        return body

    def structured_value(self, reply: RouteReply, name: str) -> Any:
        """The output text parsed as JSON."""
        return json_text_value(self, reply)


def _reasoning_chars(item: dict[str, Any]) -> int:
    total = 0
    for key in ("summary", "content"):
        parts = item.get(key)
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                total += len(part["text"])
    return total
