"""The MCP server itself: the SDK's low-level Server with our tools, served over stdio.

The low-level Server is used (not the decorator API) because the published schemas, the
annotations and the envelope are our contract, not something inferred from Python signatures.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any, cast

import mcp_types as types
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from whichtool_tui import __version__
from whichtool_tui.errors import WhichtoolError
from whichtool_tui.server import envelope
from whichtool_tui.server.arguments import (
    DiffArguments,
    ImproveArguments,
    InspectArguments,
    RunArguments,
    SurfaceDiffArguments,
    ValidateArguments,
    parse_arguments,
)
from whichtool_tui.server.handlers import (
    ServerState,
    diff_tool,
    inspect_tool,
    run_tool,
    validate_tool,
)
from whichtool_tui.server.improve_tool import improve_tool
from whichtool_tui.server.options import ServerOptions
from whichtool_tui.server.surface_diff_tool import surface_diff_tool
from whichtool_tui.server.tools import SERVER_TOOLS

SERVER_NAME = "whichtool-tui"
MAX_CALLS_IN_FLIGHT = 4
SERVER_BUSY = -32000
DISCOVERY_TTL_MS = 3_600_000
INSTRUCTIONS = (
    "Measure whether models pick the right tool from an MCP server's tools/list. "
    "inspect_surface is free and static; validate_task_file checks a task set; run_evaluation "
    "with dryRun prices a run before anything is spent; diff_saved_results compares two saved "
    "runs; improve_descriptions proposes description rewrites and returns, as a JSON Patch, only "
    "those a held-out run shows help; diff_surfaces tells which tasks a surface change can move. "
    "No tool of the measured server is ever executed."
)

Handler = Callable[[ServerState, dict[str, Any] | None], Awaitable[dict[str, Any]]]


def _tool_handlers() -> dict[str, Handler]:
    async def inspect(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        return await inspect_tool(state, parse_arguments(InspectArguments, "inspect_surface", raw))

    async def validate(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        arguments = parse_arguments(ValidateArguments, "validate_task_file", raw)
        return await validate_tool(state, arguments)

    async def run(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        return await run_tool(state, parse_arguments(RunArguments, "run_evaluation", raw))

    async def diff(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        return await diff_tool(state, parse_arguments(DiffArguments, "diff_saved_results", raw))

    async def improve(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        arguments = parse_arguments(ImproveArguments, "improve_descriptions", raw)
        return await improve_tool(state, arguments)

    async def surfaces(state: ServerState, raw: dict[str, Any] | None) -> dict[str, Any]:
        arguments = parse_arguments(SurfaceDiffArguments, "diff_surfaces", raw)
        return await surface_diff_tool(state, arguments)

    return {
        "inspect_surface": inspect,
        "validate_task_file": validate,
        "run_evaluation": run,
        "diff_saved_results": diff,
        "improve_descriptions": improve,
        "diff_surfaces": surfaces,
    }


def published_tools() -> list[types.Tool]:
    """The tools as the SDK publishes them, with input and output schemas."""
    return [
        types.Tool(
            name=tool.name,
            title=tool.title,
            description=tool.description,
            input_schema=tool.input_schema,
            output_schema=envelope.RESULT_OUTPUT_SCHEMA,
            annotations=types.ToolAnnotations(
                title=tool.title,
                read_only_hint=tool.read_only,
                destructive_hint=tool.destructive,
                idempotent_hint=tool.idempotent,
                open_world_hint=tool.open_world,
            ),
        )
        for tool in SERVER_TOOLS
    ]


def _result(body: dict[str, Any]) -> types.CallToolResult:
    bounded = envelope.bounded(body)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=bounded["summary"])],  # already capped
        structured_content=bounded,
        is_error="error" in bounded,
    )


def build_server(options: ServerOptions) -> Server[Any]:
    """A Server bound to one ServerOptions; every tool error becomes an envelope, never a trace."""
    state = ServerState(options)
    handlers = _tool_handlers()
    tools = published_tools()
    in_flight = 0

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        nonlocal in_flight
        handler = handlers.get(params.name)
        if handler is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        if in_flight >= MAX_CALLS_IN_FLIGHT:
            raise MCPError(SERVER_BUSY, "Server busy")
        in_flight += 1
        try:
            body = await handler(state, params.arguments)
        except WhichtoolError as error:
            body = envelope.failure(error)
        except Exception as error:  # a bug must reach the agent as one line, not a traceback
            body = envelope.failure(
                WhichtoolError(
                    "mcp/internal",
                    f"Internal error in {params.name} ({type(error).__name__})",
                    "Please report it with the arguments you passed.",
                )
            )
        finally:
            in_flight -= 1
        return _result(body)

    return Server(
        SERVER_NAME,
        version=__version__,
        title="whichtool-tui",
        instructions=INSTRUCTIONS,
        # The published surface never changes while the process lives; one hour, as upstream.
        cache_hints={
            "server/discover": CacheHint(ttl_ms=DISCOVERY_TTL_MS, scope="private"),
            "tools/list": CacheHint(ttl_ms=DISCOVERY_TTL_MS, scope="private"),
        },
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def banner(options: ServerOptions) -> str:
    """The startup line on stderr: what this server will and will not do."""
    dynamic = "enabled" if options.allow_dynamic_targets else "disabled"
    paid = "enabled" if options.allow_paid_runs else "disabled"
    overrides = "enabled" if options.allow_provider_overrides else "disabled"
    return (
        f"whichtool-tui mcp {__version__}: {len(SERVER_TOOLS)} tools on stdio; dynamic targets "
        f"{dynamic}; paid runs {paid}; provider overrides {overrides}; limits "
        f"{options.max_trials} trials, {options.max_tools} tools; cache "
        f"{'on' if options.cache else 'off'}\n"
    )


async def serve_stdio(options: ServerOptions) -> None:
    """Serve until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    from whichtool_tui.server.stdio_lines import CappedLines

    server = build_server(options)
    sys.stderr.write(banner(options))
    sys.stderr.flush()
    stdin = cast(Any, CappedLines(sys.stdin.buffer))  # the SDK only iterates it
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
