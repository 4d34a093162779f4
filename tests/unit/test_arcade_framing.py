"""Frame reading: dialect detection, the lock, the cap and the named errors."""

from __future__ import annotations

import pytest

from whichtool_tui.mcp_client.framing import (
    MAX_FRAME_BYTES,
    FrameReader,
    FramingError,
    encode_frame,
)


def reader_over(data: bytes, mode: str = "auto", chunk: int = 7) -> FrameReader:
    """A reader fed ``data`` in small chunks, so frames straddle reads."""
    pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]

    async def receive() -> bytes:
        return pieces.pop(0) if pieces else b""

    return FrameReader(receive, mode)  # type: ignore[arg-type]


async def read_all(reader: FrameReader) -> list[dict[str, object]]:
    messages = []
    while (message := await reader.read()) is not None:
        messages.append(message)
    return messages


async def test_auto_detects_ndjson_and_skips_blank_lines() -> None:
    data = b"\n\n" + encode_frame({"id": 1}, "ndjson") + b"\r\n" + encode_frame({"id": 2}, "ndjson")
    reader = reader_over(data)
    assert await read_all(reader) == [{"id": 1}, {"id": 2}]
    assert (reader.dialect, reader.source) == ("ndjson", "detected")


async def test_auto_detects_content_length_with_case_insensitive_headers() -> None:
    body = b'{"id":1,"text":"caf\xc3\xa9"}'
    data = b"content-length: " + str(len(body)).encode() + b"\r\nX-Extra: 1\r\n\r\n" + body
    data += encode_frame({"id": 2}, "content-length")
    reader = reader_over(data)
    assert await read_all(reader) == [{"id": 1, "text": "café"}, {"id": 2}]
    assert reader.dialect == "content-length"


async def test_pinned_dialect_is_reported_as_flag() -> None:
    reader = reader_over(encode_frame({"id": 1}, "content-length"), "content-length")
    assert await read_all(reader) == [{"id": 1}]
    assert reader.source == "flag"


async def test_header_under_ndjson_lock_is_an_invalid_json_body() -> None:
    data = encode_frame({"id": 1}, "ndjson") + encode_frame({"id": 2}, "content-length")
    reader = reader_over(data)
    assert await reader.read() == {"id": 1}
    with pytest.raises(FramingError) as caught:
        await reader.read()
    assert caught.value.name == "invalid-json"
    assert "invalid JSON body" in str(caught.value)


async def test_json_under_content_length_lock_is_a_malformed_header() -> None:
    data = encode_frame({"id": 1}, "content-length") + encode_frame({"id": 2}, "ndjson")
    reader = reader_over(data)
    assert await reader.read() == {"id": 1}
    with pytest.raises(FramingError) as caught:
        await reader.read()
    assert caught.value.name == "malformed-header"


async def test_undetectable_first_line() -> None:
    with pytest.raises(FramingError, match="cannot detect framing from first line"):
        await reader_over(b"hello world\n").read()


async def test_non_object_message_is_refused() -> None:
    with pytest.raises(FramingError) as caught:
        await reader_over(b"[1,2]\n", "ndjson").read()
    assert caught.value.name == "not-an-object"


async def test_content_length_over_the_cap_is_refused_before_reading_the_body() -> None:
    header = f"Content-Length: {MAX_FRAME_BYTES + 1}\r\n\r\n".encode()
    with pytest.raises(FramingError) as caught:
        await reader_over(header, "content-length").read()
    assert caught.value.name == "frame-too-large"


async def test_an_endless_line_is_cut_at_the_cap() -> None:
    sent = 0
    block = b"a" * (1024 * 1024)

    async def receive() -> bytes:
        nonlocal sent
        sent += 1
        return block if sent < 40 else b""

    with pytest.raises(FramingError) as caught:
        await FrameReader(receive, "ndjson").read()
    assert caught.value.name == "frame-too-large"
    assert sent < 40


async def test_truncated_body_is_named() -> None:
    with pytest.raises(FramingError) as caught:
        await reader_over(b"Content-Length: 50\r\n\r\n{}", "content-length").read()
    assert caught.value.name == "truncated"


def test_encode_is_compact_and_keeps_unicode() -> None:
    assert encode_frame({"a": "é\n"}, "ndjson") == '{"a":"é\\n"}\n'.encode()
    framed = encode_frame({"a": 1}, "content-length")
    assert framed == b'Content-Length: 7\r\n\r\n{"a":1}'
