"""The Chat Completions family (``POST /chat/completions``): openai-chat, openrouter, together,
vllm, ollama and any openai-compatible endpoint.

The trial seed is sent when the preset honours seeds; ``tool_choice`` stays unset. ``length``,
``content_filter``, a refusal or any unexpected finish reason is an error, as is ``tool_calls``
without calls or ``stop`` with calls. Tool names are never rewritten; a 400 that looks like a
name or reasoning-effort problem gets a hint saying so.
"""

from __future__ import annotations

import re
from typing import Any

from whichtool_tui.providers.base import ProposedCall, RouteReply, RouteRequest
from whichtool_tui.providers.http import HintFor, HttpProvider, json_text_value, read_usage
from whichtool_tui.providers.presets import ENDPOINT_PATHS

OPENAI_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class ChatCompletionsProvider(HttpProvider):
    """Every preset that speaks Chat Completions."""

    endpoint_path = ENDPOINT_PATHS["chat"]

    def build_body(self, request: RouteRequest) -> dict[str, Any]:
        """The exact request body for one routing request."""
        body: dict[str, Any] = {
            "model": self.options.model,
            "messages": [{"role": "user", "content": request.prompt}],
        }
        tools: list[dict[str, Any]] = []
        for tool in request.tools:
            function: dict[str, Any] = {"name": tool.name}
            if tool.description is not None:
                function["description"] = tool.description
            function["parameters"] = tool.input_schema
            tools.append({"type": "function", "function": function})
        if tools:
            body["tools"] = tools
        body["temperature"] = request.temperature
        capabilities = self.options.capabilities
        if request.reasoning_effort is not None and capabilities.reasoning_effort:
            body["reasoning_effort"] = request.reasoning_effort
        if capabilities.seed:
            body["seed"] = request.seed
        if self.options.max_output_tokens:
            body["max_tokens"] = self.options.max_output_tokens
        return body

    def hint_for_400(self, request: RouteRequest | None) -> HintFor:
        """Name the likely cause of a 400: reasoning effort, or tool names the API may refuse."""

        def hint(status: int, text: str) -> str | None:
            if status != 400:
                return None
            if "reasoning_effort" in text or "reasoning effort" in text.lower():
                return "This model rejects the reasoning effort; try --reasoning-effort none."
            if request is not None:
                bad = [t.name for t in request.tools if not OPENAI_TOOL_NAME.match(t.name)]
                if bad:
                    shown = ", ".join(bad[:10])
                    return (
                        f"Tool names outside ^[a-zA-Z0-9_-]{{1,64}}$ may be refused: {shown}. "
                        "Names are sent as served, never rewritten."
                    )
            return None

        return hint

    def _message(self, answer: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        choices = answer.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self.fail("provider/invalid-response", "the answer has no choices")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise self.fail("provider/invalid-response", "the first choice has no message")
        return message, choice.get("finish_reason")

    def _calls(self, message: dict[str, Any]) -> list[ProposedCall]:
        raw_calls = message.get("tool_calls")
        if raw_calls is None:
            return []
        if not isinstance(raw_calls, list):
            raise self.fail("provider/invalid-response", "message.tool_calls is not a list")
        calls: list[ProposedCall] = []
        for raw in raw_calls:
            function = raw.get("function") if isinstance(raw, dict) else None
            if not isinstance(function, dict):
                calls.append(ProposedCall(None, None))
                continue
            name = function.get("name")
            calls.append(
                ProposedCall(name if isinstance(name, str) else None, function.get("arguments"))
            )
        return calls

    def parse(self, answer: dict[str, Any], latency_ms: float) -> RouteReply:
        """Turn a Chat Completions answer into calls, text and usage, or raise ProviderError."""
        message, finish = self._message(answer)
        if finish == "length":
            raise self.fail(
                "provider/truncated",
                "the answer was cut off (finish_reason length)",
                "The reply hit the output token limit before it finished.",
            )
        if finish == "content_filter":
            raise self.fail("provider/content-filter", "the answer was stopped by a content filter")
        if finish not in ("stop", "tool_calls"):
            raise self.fail("provider/unexpected-stop", f"unexpected finish_reason {finish!r}")
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal.strip():
            raise self.fail("provider/refusal", f"the model refused the request: {refusal[:200]}")
        calls = self._calls(message)
        if finish == "tool_calls" and not calls:
            raise self.fail("provider/malformed-reply", "finish_reason tool_calls without calls")
        if finish == "stop" and calls:
            raise self.fail("provider/malformed-reply", "tool calls under finish_reason stop")
        content = message.get("content")
        reasoning = message.get("reasoning")
        if not isinstance(reasoning, str):
            reasoning = message.get("reasoning_content")
        usage = read_usage(answer, "prompt_tokens", "completion_tokens")
        return RouteReply(
            calls=tuple(calls),
            text=content if isinstance(content, str) else "",
            usage=usage,
            reasoning_chars=len(reasoning) if isinstance(reasoning, str) else None,
            latency_ms=latency_ms,
            stop_reason=str(finish),
        )

    def text_body(
        self, prompt: str, temperature: float, max_output_tokens: int | None
    ) -> dict[str, Any]:
        """Free text without tools."""
        body: dict[str, Any] = {
            "model": self.options.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": temperature,
        }
        limit = max_output_tokens or self.options.max_output_tokens
        if limit:
            body["max_tokens"] = limit
        return body

    def structured_body(
        self, prompt: str, name: str, schema: dict[str, Any], max_output_tokens: int | None
    ) -> dict[str, Any]:
        """Free text constrained by ``response_format`` json_schema (strict)."""
        body = self.text_body(prompt, 0.0, max_output_tokens)
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": name, "strict": True, "schema": schema},
        }
        return body

    def structured_value(self, reply: RouteReply, name: str) -> Any:
        """The message content parsed as JSON."""
        return json_text_value(self, reply)
