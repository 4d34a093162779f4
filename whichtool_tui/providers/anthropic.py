"""Anthropic's Messages API (``POST /v1/messages``).

Sends no temperature, seed, ``tool_choice`` or reasoning effort, so those are recorded as
unsupported. A refusal, a truncation or any unexpected stop reason is an error, as is a
``tool_use`` stop without a tool_use block or tool_use blocks under another stop reason.
"""

from __future__ import annotations

from typing import Any

from whichtool_tui.providers.base import ProposedCall, RouteReply, RouteRequest
from whichtool_tui.providers.http import HttpProvider, read_usage
from whichtool_tui.providers.presets import ENDPOINT_PATHS

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 8192
_CLEAN_STOPS = ("end_turn", "stop_sequence", "tool_use")


class AnthropicProvider(HttpProvider):
    """The ``anthropic`` preset."""

    endpoint_path = ENDPOINT_PATHS["messages"]

    def headers(self) -> dict[str, str]:
        """JSON, the API version, and the key as ``x-api-key``."""
        headers = {"content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION}
        if self.options.api_key:
            headers["x-api-key"] = self.options.api_key
        return headers

    def _max_tokens(self, override: int | None = None) -> int:
        return override or self.options.max_output_tokens or DEFAULT_MAX_TOKENS

    def build_body(self, request: RouteRequest) -> dict[str, Any]:
        """The exact request body for one routing request."""
        tools: list[dict[str, Any]] = []
        for tool in request.tools:
            entry: dict[str, Any] = {"name": tool.name}
            if tool.description is not None:
                entry["description"] = tool.description
            entry["input_schema"] = tool.input_schema
            tools.append(entry)
        body: dict[str, Any] = {
            "model": self.options.model,
            "max_tokens": self._max_tokens(),
            "messages": [{"role": "user", "content": request.prompt}],
        }
        if tools:
            body["tools"] = tools
        return body

    def _blocks(self, answer: dict[str, Any]) -> list[dict[str, Any]]:
        content = answer.get("content")
        if not isinstance(content, list) or not all(isinstance(b, dict) for b in content):
            raise self.fail("provider/invalid-response", "the answer has no content block list")
        return content

    def _check_stop(self, answer: dict[str, Any], stop: Any) -> None:
        if stop == "refusal":
            details = answer.get("stop_details")
            category = details.get("category") if isinstance(details, dict) else None
            shown = f" (category: {category})" if isinstance(category, str) and category else ""
            raise self.fail("provider/refusal", f"the model refused the request{shown}")
        if stop == "max_tokens":
            raise self.fail(
                "provider/truncated",
                "the answer was cut off at max_tokens",
                "The reply hit the output token limit before it finished.",
            )
        if stop not in _CLEAN_STOPS:
            raise self.fail("provider/unexpected-stop", f"unexpected stop_reason {stop!r}")

    def parse(self, answer: dict[str, Any], latency_ms: float) -> RouteReply:
        """Turn a Messages answer into calls, text and usage, or raise ProviderError."""
        stop = answer.get("stop_reason")
        self._check_stop(answer, stop)
        blocks = self._blocks(answer)
        calls: list[ProposedCall] = []
        texts: list[str] = []
        reasoning = 0
        for block in blocks:
            kind = block.get("type")
            if kind == "tool_use":
                name = block.get("name")
                calls.append(
                    ProposedCall(name if isinstance(name, str) else None, block.get("input"))
                )
            elif kind == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif kind == "thinking" and isinstance(block.get("thinking"), str):
                reasoning += len(block["thinking"])
        if stop == "tool_use" and not calls:
            raise self.fail(
                "provider/malformed-reply", "stop_reason tool_use without a tool_use block"
            )
        if stop != "tool_use" and calls:
            raise self.fail(
                "provider/malformed-reply", f"tool_use blocks under stop_reason {stop!r}"
            )
        usage = read_usage(answer, "input_tokens", "output_tokens")
        return RouteReply(
            calls=tuple(calls),
            text="".join(texts),
            usage=usage,
            reasoning_chars=reasoning or None,
            latency_ms=latency_ms,
            stop_reason=str(stop),
        )

    def text_body(
        self, prompt: str, temperature: float, max_output_tokens: int | None
    ) -> dict[str, Any]:
        """Free text without tools; temperature is not sent (the API's default applies)."""
        return {
            "model": self.options.model,
            "max_tokens": self._max_tokens(max_output_tokens),
            "messages": [{"role": "user", "content": prompt}],
        }

    def structured_body(
        self, prompt: str, name: str, schema: dict[str, Any], max_output_tokens: int | None
    ) -> dict[str, Any]:
        """One forced tool whose ``input_schema`` is the schema: its input is the answer."""
        body = self.text_body(prompt, 0.0, max_output_tokens)
        body["tools"] = [
            {
                "name": name,
                "description": "Return the answer as this tool's input.",
                "input_schema": schema,
            }
        ]
        body["tool_choice"] = {"type": "tool", "name": name}
        return body

    def structured_value(self, reply: RouteReply, name: str) -> Any:
        """The input of the one forced tool_use block."""
        if len(reply.calls) != 1 or reply.calls[0].name != name:
            raise self.fail(
                "provider/invalid-structured-output",
                f"expected exactly one `{name}` tool_use block, got {len(reply.calls)} call(s)",
            )
        return reply.calls[0].arguments
