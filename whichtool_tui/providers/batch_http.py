"""The HTTP calls of the batch APIs, made with a provider the one provider builder opened.

The batch endpoints live under the same base URL as the direct endpoint and carry the same
headers, so the key goes exactly where ``route_provider`` already allowed it, and nowhere else:
a URL the provider hands back (Anthropic's ``results_url``) is fetched only on that origin.
Answers are capped (16 MiB for JSON objects, per JSONL line, and a total for result files).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import httpx

from whichtool_tui.limits import MAX_INPUT_BYTES, byte_size
from whichtool_tui.providers.base import ProviderError
from whichtool_tui.providers.batch_api import compact_json
from whichtool_tui.providers.http import ERROR_BODY_CHARS, HttpProvider
from whichtool_tui.redact import redact_url

MAX_RESULTS_BYTES = 2 * 1024 * 1024 * 1024  # one result file: far above any documented batch


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port


class BatchTransport:
    """GET, POST JSON and POST bytes on the provider's own origin, errors as ProviderError."""

    def __init__(self, provider: HttpProvider) -> None:
        self.provider = provider
        self.base_url = provider.options.base_url.rstrip("/")
        self._origin = _origin(self.base_url)
        self._client: httpx.AsyncClient | None = None

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.provider.options.timeout),
                follow_redirects=False,
                trust_env=self.provider.poster._trust_env,
            )
        return self._client

    def headers(self, content_type: str | None = "application/json") -> dict[str, str]:
        """The direct endpoint's headers (its key header included), with this content type."""
        headers = dict(self.provider.headers())
        headers.pop("content-type", None)
        if content_type is not None:
            headers["content-type"] = content_type
        return headers

    def _check_origin(self, url: str) -> None:
        if _origin(url) != self._origin:
            raise ProviderError(
                "batch/foreign-url",
                f"The batch API pointed at {redact_url(url)}, outside "
                f"{redact_url(self.base_url)}; nothing was sent there",
                "The key only goes where the direct endpoint's requests go.",
            )

    def _fail(self, url: str, status: int, text: str) -> ProviderError:
        excerpt = self.provider.poster.scrub(text)[:ERROR_BODY_CHARS]
        return ProviderError(
            "provider/http-error",
            f"{redact_url(url)} answered HTTP {status}: {excerpt}",
            "Check the key and that this account may use the batch API.",
            retryable=status == 429 or status >= 500,
            status=status,
        )

    def _unreachable(self, url: str, exc: Exception) -> ProviderError:
        reason = self.provider.poster.scrub(str(exc) or type(exc).__name__)
        return ProviderError(
            "provider/unreachable",
            f"{redact_url(url)} could not be reached: {reason}",
            "Check the base URL and that the server is running.",
            retryable=True,
        )

    async def _read(self, method: str, url: str, **kwargs: Any) -> bytes:
        self._check_origin(url)
        try:
            async with self._get_client().stream(method, url, **kwargs) as response:
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_INPUT_BYTES:
                        raise ProviderError(
                            "provider/response-too-large",
                            f"{redact_url(url)} answered with more than "
                            f"{byte_size(MAX_INPUT_BYTES)}",
                        )
                if not 200 <= response.status_code < 300:
                    raise self._fail(url, response.status_code, body.decode("utf-8", "replace"))
                return bytes(body)
        except httpx.HTTPError as exc:
            raise self._unreachable(url, exc) from None

    def _object(self, url: str, raw: bytes) -> dict[str, Any]:
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            parsed = None
        if not isinstance(parsed, dict):
            raise ProviderError(
                "provider/invalid-response",
                f"{redact_url(url)} did not answer with a JSON object",
                "The endpoint may not speak this batch API; check the provider and base URL.",
            )
        return parsed

    async def get_json(self, url: str) -> dict[str, Any]:
        """GET a JSON object."""
        return self._object(url, await self._read("GET", url, headers=self.headers(None)))

    async def post_json(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST a JSON body and read a JSON object."""
        # Compact, as ``line_bytes`` counts it: the byte limit holds for the body actually sent.
        payload = compact_json(body).encode("utf-8")
        return self._object(
            url, await self._read("POST", url, content=payload, headers=self.headers())
        )

    async def post_bytes(self, url: str, content: bytes, content_type: str) -> dict[str, Any]:
        """POST a prepared body (a multipart upload) and read a JSON object."""
        headers = self.headers(content_type)
        return self._object(url, await self._read("POST", url, content=content, headers=headers))

    async def get_jsonl(self, url: str) -> list[dict[str, Any]]:
        """GET a JSONL file: every non-blank line must be a JSON object (16 MiB per line)."""
        self._check_origin(url)
        rows: list[dict[str, Any]] = []
        try:
            async with self._get_client().stream(
                "GET", url, headers=self.headers(None)
            ) as response:
                if not 200 <= response.status_code < 300:
                    text = (await response.aread())[: ERROR_BODY_CHARS * 4]
                    raise self._fail(url, response.status_code, text.decode("utf-8", "replace"))
                pending = bytearray()
                total = 0
                async for chunk in response.aiter_bytes():
                    total += len(chunk)
                    if total > MAX_RESULTS_BYTES:
                        raise ProviderError(
                            "provider/response-too-large",
                            f"{redact_url(url)} sent more than {byte_size(MAX_RESULTS_BYTES)}",
                        )
                    cut = chunk.rfind(b"\n")
                    if cut < 0:
                        pending += chunk
                        complete: list[bytes] = []
                    else:
                        complete = (bytes(pending) + chunk[:cut]).split(b"\n")
                        pending = bytearray(chunk[cut + 1 :])
                    if len(pending) > MAX_INPUT_BYTES:
                        raise ProviderError(
                            "provider/response-too-large",
                            f"{redact_url(url)} sent a line above {byte_size(MAX_INPUT_BYTES)}",
                        )
                    rows += (self._object(url, line) for line in complete if line.strip())
                if pending.strip():
                    rows.append(self._object(url, bytes(pending)))
        except httpx.HTTPError as exc:
            raise self._unreachable(url, exc) from None
        return rows

    async def aclose(self) -> None:
        """Close this client and the provider's (idempotent)."""
        if self._client is not None:
            client, self._client = self._client, None
            await client.aclose()
        await self.provider.aclose()
