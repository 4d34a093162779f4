"""The one HTTP poster every model back-end shares, and the base class of the HTTP families.

One ``httpx.AsyncClient`` per provider carries all its requests. A request is POSTed JSON with a
total timeout (300 s by default); answers are capped at 16 MiB and must be a JSON object.
Retries are off unless asked for, and then only for 429, 5xx and network failures, with a
500 ms x 2^(n-1) backoff and no jitter. Every error text has credentials removed.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx

from whichtool_tui.limits import DEFAULT_REQUEST_TIMEOUT_SECONDS, MAX_INPUT_BYTES, byte_size
from whichtool_tui.mcp_client.auth import is_loopback_host
from whichtool_tui.providers.base import (
    Capabilities,
    ProviderError,
    ProviderIdentity,
    RouteReply,
    RouteRequest,
    Usage,
    credential_fingerprint,
)
from whichtool_tui.redact import redact_url
from whichtool_tui.text_safety import redact_message

DEFAULT_TIMEOUT_SECONDS = DEFAULT_REQUEST_TIMEOUT_SECONDS
MAX_RESPONSE_BYTES = MAX_INPUT_BYTES
ERROR_BODY_CHARS = 300
BACKOFF_BASE_SECONDS = 0.5

HintFor = Callable[[int, str], str | None]


def parse_retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header as seconds to wait (delta-seconds or an HTTP date), else None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        seconds = float(text)
    except ValueError:
        seconds = None
    if seconds is not None:
        return seconds if seconds >= 0 and seconds == seconds else None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def backoff_seconds(retry_number: int) -> float:
    """Delay before retry ``n`` (1-based): 500 ms x 2^(n-1)."""
    return BACKOFF_BASE_SECONDS * float(2 ** (retry_number - 1))


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Remove every secret value from ``text``, then redact URLs, paths and control characters."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return redact_message(text)


@dataclass(frozen=True)
class HttpProviderOptions:
    """Everything an HTTP family needs to be built; the key never appears in its repr."""

    name: str
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    key_env: str | None = None
    timeout: float = DEFAULT_TIMEOUT_SECONDS
    retries: int = 0
    max_output_tokens: int | None = None
    capabilities: Capabilities = field(default_factory=Capabilities)
    request_fingerprint: str | None = None

    @property
    def cache_fingerprint(self) -> str | None:
        """The request fingerprint mixed with the key in use (see credential_fingerprint)."""
        if self.request_fingerprint is None:
            return None
        return credential_fingerprint(self.request_fingerprint, self.api_key)


class JsonPoster:
    """POST JSON, read a capped JSON-object answer, turn every failure into a ProviderError."""

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        retries: int = 0,
        secrets: Iterable[str] = (),
        key_env: str | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        trust_env: bool = False,
    ) -> None:
        self.timeout = timeout
        self._trust_env = trust_env
        self.retries = max(0, retries)
        self._secrets = tuple(s for s in secrets if s)
        self._key_env = key_env
        self._sleep = sleep
        self._client: httpx.AsyncClient | None = None

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout),
                limits=httpx.Limits(max_connections=128, max_keepalive_connections=64),
                follow_redirects=False,
                trust_env=self._trust_env,
            )
        return self._client

    def scrub(self, text: str) -> str:
        """Redact this poster's secrets and any URL credentials from ``text``."""
        return scrub(text, self._secrets)

    async def post(
        self,
        url: str,
        body: dict[str, Any],
        headers: dict[str, str],
        hint_for: HintFor | None = None,
    ) -> dict[str, Any]:
        """POST ``body`` to ``url``; retry only when opted in and the failure is retryable."""
        attempt = 0
        while True:
            try:
                return await self._post_once(url, body, headers, hint_for)
            except ProviderError as error:
                if not error.retryable or attempt >= self.retries:
                    raise
                attempt += 1
                await self._sleep(backoff_seconds(attempt))

    async def _post_once(
        self,
        url: str,
        body: dict[str, Any],
        headers: dict[str, str],
        hint_for: HintFor | None,
    ) -> dict[str, Any]:
        endpoint = redact_url(url)
        try:
            payload = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise ProviderError(
                "provider/invalid-request",
                f"The request for {endpoint} cannot be sent as JSON: {exc}",
                "A tool schema holds a value JSON cannot carry (NaN, Infinity or a non-JSON type).",
            ) from None
        try:
            async with asyncio.timeout(self.timeout):
                status, raw, retry_after = await self._exchange(url, payload, headers, endpoint)
        except (TimeoutError, httpx.TimeoutException):
            raise ProviderError(
                "provider/timeout",
                f"{endpoint} did not answer within {self.timeout:g} s",
                "A slow model or server: raise --timeout (or trials.timeout in the config), "
                "lower --max-output-tokens, or retry later.",
                retryable=True,
            ) from None
        except httpx.HTTPError as exc:
            reason = self.scrub(str(exc) or type(exc).__name__)
            raise ProviderError(
                "provider/unreachable",
                f"{endpoint} could not be reached: {reason}",
                "Check the base URL and that the server is running.",
                retryable=True,
            ) from None
        text = raw.decode("utf-8", errors="replace")
        if not 200 <= status < 300:
            raise self._http_error(endpoint, status, text, hint_for, retry_after)
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            raise ProviderError(
                "provider/invalid-json",
                f"{endpoint} answered HTTP {status} with a body that is not JSON: "
                f"{self.scrub(text)[:ERROR_BODY_CHARS]}",
                "The endpoint may not speak this API; check the provider name and base URL.",
            ) from None
        if not isinstance(parsed, dict):
            raise ProviderError(
                "provider/invalid-response",
                f"{endpoint} answered HTTP {status} with JSON that is not an object",
                "The endpoint may not speak this API; check the provider name and base URL.",
            )
        return parsed

    async def _exchange(
        self, url: str, payload: bytes, headers: dict[str, str], endpoint: str
    ) -> tuple[int, bytes, float | None]:
        client = self._get_client()
        async with client.stream("POST", url, content=payload, headers=headers) as response:
            declared = response.headers.get("content-length")
            if declared is not None and declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
                raise self._too_large(endpoint)
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_RESPONSE_BYTES:
                    raise self._too_large(endpoint)
                chunks.append(chunk)
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            return response.status_code, b"".join(chunks), retry_after

    @staticmethod
    def _too_large(endpoint: str) -> ProviderError:
        return ProviderError(
            "provider/response-too-large",
            f"{endpoint} answered with more than {byte_size(MAX_RESPONSE_BYTES)}",
            "The answer was dropped unread past the cap.",
        )

    def _http_error(
        self,
        endpoint: str,
        status: int,
        text: str,
        hint_for: HintFor | None,
        retry_after: float | None = None,
    ) -> ProviderError:
        excerpt = self.scrub(text)[:ERROR_BODY_CHARS]
        hint: str | None = None
        if status in (401, 403):
            if self._key_env:
                # Not "NAME_KEY: words": redaction rightly masks what follows a key name and colon.
                hint = f"The endpoint refused the credentials: check {self._key_env}."
            else:
                hint = "The endpoint refused the request; this preset sends no key."
        elif hint_for is not None:
            hint = hint_for(status, text)
        if hint is None and status == 429:
            hint = "Rate limited: lower --concurrency or try again later."
        return ProviderError(
            "provider/http-error",
            f"{endpoint} answered HTTP {status}: {excerpt}",
            self.scrub(hint) if hint else None,
            retryable=status == 429 or status >= 500,
            status=status,
            retry_after=retry_after,
        )

    async def aclose(self) -> None:
        """Close the shared client (idempotent)."""
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()


class HttpProvider(ABC):
    """What the three HTTP families share: options, identity, poster, timing, closing."""

    endpoint_path = ""

    def __init__(self, options: HttpProviderOptions) -> None:
        self.options = options
        self.url = options.base_url.rstrip("/") + self.endpoint_path
        self.poster = JsonPoster(
            timeout=options.timeout,
            retries=options.retries,
            secrets=(options.api_key,) if options.api_key else (),
            key_env=options.key_env,
            # Remote APIs may need the user's HTTP(S)_PROXY; loopback servers never go via one.
            trust_env=not _is_loopback(self.url),
        )
        self.identity = ProviderIdentity(
            name=options.name,
            model=options.model,
            endpoint=redact_url(self.url),
            request_fingerprint=options.request_fingerprint,
            capabilities=options.capabilities,
            cache_fingerprint=options.cache_fingerprint,
        )

    @property
    def endpoint(self) -> str:
        """The redacted request URL, as shown in messages."""
        return self.identity.endpoint or ""

    def fail(self, code: str, message: str, hint: str | None = None) -> ProviderError:
        """A non-retryable error about the answer's content, with the endpoint named."""
        return ProviderError(code, self.poster.scrub(f"{self.endpoint}: {message}"), hint)

    async def post_timed(
        self, body: dict[str, Any], headers: dict[str, str], hint_for: HintFor | None = None
    ) -> tuple[dict[str, Any], float]:
        """POST and return the parsed answer with the wall-clock latency in milliseconds."""
        started = time.perf_counter()
        answer = await self.poster.post(self.url, body, headers, hint_for)
        return answer, (time.perf_counter() - started) * 1000.0

    def headers(self) -> dict[str, str]:
        """Request headers; the OpenAI shapes send the key as a bearer token."""
        return bearer_headers(self.options.api_key)

    def hint_for_400(self, request: RouteRequest | None) -> HintFor | None:
        """An extra hint for refused requests (``request`` is None for free text)."""
        return None

    @abstractmethod
    def build_body(self, request: RouteRequest) -> dict[str, Any]:
        """The exact request body for one routing request."""

    @abstractmethod
    def text_body(
        self, prompt: str, temperature: float, max_output_tokens: int | None
    ) -> dict[str, Any]:
        """The request body for free text without tools (task drafting)."""

    @abstractmethod
    def structured_body(
        self, prompt: str, name: str, schema: dict[str, Any], max_output_tokens: int | None
    ) -> dict[str, Any]:
        """The request body asking for one JSON object that matches ``schema`` (no tools)."""

    @abstractmethod
    def structured_value(self, reply: RouteReply, name: str) -> Any:
        """The JSON value a structured answer carries, before it is checked against the schema."""

    @abstractmethod
    def parse(self, answer: dict[str, Any], latency_ms: float) -> RouteReply:
        """The API's answer as a reply; raise ProviderError when it is not a clean one."""

    async def route(self, request: RouteRequest) -> RouteReply:
        """One bare user message with the tools in the given order."""
        body = self.build_body(request)
        answer, latency = await self.post_timed(body, self.headers(), self.hint_for_400(request))
        return self.parse(answer, latency)

    async def generate(
        self, prompt: str, temperature: float, max_output_tokens: int | None = None
    ) -> str:
        """Free text without tools; tool calls or empty text are errors."""
        body = self.text_body(prompt, temperature, max_output_tokens)
        answer, latency = await self.post_timed(body, self.headers(), self.hint_for_400(None))
        reply = self.parse(answer, latency)
        if reply.calls:
            raise self.fail("provider/unexpected-calls", "the model proposed tool calls")
        if not reply.text.strip():
            raise self.fail("provider/empty-text", "the model returned no text")
        return reply.text

    async def generate_structured(
        self,
        prompt: str,
        name: str,
        schema: dict[str, Any],
        max_output_tokens: int | None = None,
    ) -> dict[str, Any]:
        """One JSON object in the API's structured-output shape; anything else is an error."""
        body = self.structured_body(prompt, name, schema, max_output_tokens)
        answer, latency = await self.post_timed(body, self.headers(), self.hint_for_400(None))
        value = self.structured_value(self.parse(answer, latency), name)
        if not isinstance(value, dict):
            raise self.fail(
                "provider/invalid-structured-output", "the structured answer is not a JSON object"
            )
        return value

    async def aclose(self) -> None:
        """Release the shared HTTP client."""
        await self.poster.aclose()


def json_text_value(provider: HttpProvider, reply: RouteReply) -> Any:
    """The JSON a text-carrying structured answer holds (Chat Completions, Responses)."""
    if reply.calls:
        raise provider.fail("provider/unexpected-calls", "the model proposed tool calls")
    try:
        return json.loads(reply.text)
    except (ValueError, RecursionError):
        raise provider.fail(
            "provider/invalid-structured-output",
            f"the structured answer is not JSON: {provider.poster.scrub(reply.text)[:200]}",
        ) from None


def _is_loopback(url: str) -> bool:
    try:
        return is_loopback_host(urlsplit(url).hostname)
    except ValueError:
        return False


def as_int(value: Any) -> int | None:
    """A token count as reported, or None when missing or not a whole number."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def read_usage(answer: dict[str, Any], prompt_key: str, completion_key: str) -> Usage | None:
    """The ``usage`` block of a reply under the API's own key names, or None when absent."""
    usage_raw = answer.get("usage")
    if not isinstance(usage_raw, dict):
        return None
    return Usage(as_int(usage_raw.get(prompt_key)), as_int(usage_raw.get(completion_key)))


def bearer_headers(api_key: str | None) -> dict[str, str]:
    """JSON content type plus ``Authorization: Bearer`` when a key is set (OpenAI shapes)."""
    headers = {"content-type": "application/json"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    return headers
