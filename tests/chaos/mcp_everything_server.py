"""A real MCP server that answers with every kind of content the protocol has, for the proxy.

``python mcp_everything_server.py`` serves on stdio with the ``mcp`` package's low-level
server: tools with titles, annotations, icons, ``_meta`` and an output schema; results with
plain (non-JSON) text, an image, audio, embedded text and blob resources, a resource link,
structured content, annotations and ``_meta`` on blocks and results, a tool error; resources
and a resource template; prompts; completions; progress notifications and log messages
during a call. The pass-through test compares what a client gets from it directly with what
it gets through the proxy's clean arm.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server

warnings.simplefilter("ignore")  # the logging capability is deprecated in 2026-07-28
PIXEL = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAE"
    "hQGAhKmMIQAAAABJRU5ErkJggg=="
)
SOUND = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
NOTE = types.Annotations(audience=["user", "assistant"], priority=0.7, last_modified="2026-01-02")
META = {"example.com/origin": "everything", "example.com/rank": 3}

TOOLS = [
    types.Tool(
        name="plain_text",
        title="Plain text",
        description="Says hello in plain text (not JSON).",
        input_schema={"type": "object", "properties": {}},
        annotations=types.ToolAnnotations(title="Hello", read_only_hint=True, idempotent_hint=True),
        _meta=META,
    ),
    types.Tool(
        name="every_block",
        description="Answers with one block of every content type.",
        input_schema={"type": "object", "properties": {"n": {"type": "integer"}}},
        annotations=types.ToolAnnotations(destructive_hint=True, open_world_hint=False),
        icons=[types.Icon(src="https://example.com/icon.png", mime_type="image/png")],
    ),
    types.Tool(
        name="structured",
        description="Answers with structured content and its text.",
        input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
        output_schema={
            "type": "object",
            "properties": {"city": {"type": "string"}, "temp_c": {"type": "number"}},
            "required": ["city", "temp_c"],
        },
    ),
    types.Tool(
        name="fails",
        description="Answers with a tool error result.",
        input_schema={"type": "object", "properties": {}},
    ),
    types.Tool(
        name="counts",
        description="Reports progress three times and logs once, then answers.",
        input_schema={"type": "object", "properties": {}},
    ),
]


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult:
    if params.name == "plain_text":
        return types.CallToolResult(content=[types.TextContent(text="hello")])
    if params.name == "every_block":
        blocks: list[types.ContentBlock] = [
            types.TextContent(text='not "json", and\nmultiline', annotations=NOTE, _meta=META),
            types.ImageContent(data=PIXEL, mime_type="image/png", annotations=NOTE),
            types.AudioContent(data=SOUND, mime_type="audio/wav"),
            types.EmbeddedResource(
                resource=types.TextResourceContents(
                    uri="file:///notes/a.txt", mime_type="text/plain", text="a note"
                ),
                annotations=NOTE,
            ),
            types.EmbeddedResource(
                resource=types.BlobResourceContents(
                    uri="file:///blobs/b.bin", mime_type="application/octet-stream", blob=SOUND
                )
            ),
            types.ResourceLink(
                uri="file:///notes/c.txt",
                name="c",
                title="The note C",
                mime_type="text/plain",
                size=12,
                annotations=NOTE,
            ),
        ]
        return types.CallToolResult(content=blocks, _meta=META)
    if params.name == "structured":
        city = (params.arguments or {}).get("city", "Oslo")
        data = {"city": city, "temp_c": 21.5}
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(data))],
            structured_content=data,
        )
    if params.name == "counts":
        token = (params.meta or {}).get("progress_token")
        for step in range(1, 4):
            if token is not None:
                await ctx.session.send_progress_notification(
                    token, step, 3, f"step {step}", related_request_id=ctx.request_id
                )
        await ctx.session.send_log_message(
            "info", {"counted": 3}, logger="everything", related_request_id=ctx.request_id
        )
        return types.CallToolResult(content=[types.TextContent(text="3")])
    return types.CallToolResult(
        content=[types.TextContent(text="the backend is down (plain text)")], is_error=True
    )


RESOURCES = [
    types.Resource(
        uri="file:///notes/a.txt",
        name="a",
        title="The note A",
        mime_type="text/plain",
        annotations=NOTE,
        _meta=META,
    ),
    types.Resource(uri="file:///blobs/b.bin", name="b", mime_type="application/octet-stream"),
]


async def list_resources(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=RESOURCES)


async def list_templates(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    template = types.ResourceTemplate(
        uri_template="file:///notes/{name}.txt", name="note", title="A note", annotations=NOTE
    )
    return types.ListResourceTemplatesResult(resource_templates=[template])


async def read_resource(
    ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    contents: list[types.TextResourceContents | types.BlobResourceContents]
    if params.uri.endswith(".bin"):
        contents = [types.BlobResourceContents(uri=params.uri, blob=SOUND, _meta=META)]
    else:
        contents = [types.TextResourceContents(uri=params.uri, mime_type="text/plain", text="a")]
    return types.ReadResourceResult(contents=contents)


PROMPT = types.Prompt(
    name="review",
    title="Review code",
    description="Asks for a review.",
    arguments=[types.PromptArgument(name="language", description="The language", required=True)],
)


async def list_prompts(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[PROMPT])


async def get_prompt(
    ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
) -> types.GetPromptResult:
    language = (params.arguments or {}).get("language", "?")
    return types.GetPromptResult(
        description="A review prompt",
        messages=[
            types.PromptMessage(
                role="user", content=types.TextContent(text=f"Review this {language} code.")
            ),
            types.PromptMessage(
                role="assistant",
                content=types.ImageContent(data=PIXEL, mime_type="image/png"),
            ),
        ],
    )


async def complete(
    ctx: ServerRequestContext[Any], params: types.CompleteRequestParams
) -> types.CompleteResult:
    values = [v for v in ("python", "perl", "php") if v.startswith(params.argument.value)]
    return types.CompleteResult(
        completion=types.Completion(values=values, total=len(values), has_more=False)
    )


async def set_level(
    ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
) -> types.EmptyResult:
    return types.EmptyResult()


server: Server[Any] = Server(
    "everything",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_list_resource_templates=list_templates,
    on_read_resource=read_resource,
    on_list_prompts=list_prompts,
    on_get_prompt=get_prompt,
    on_completion=complete,
    on_set_logging_level=set_level,
)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
