"""HostTools: the host tools of one task — which each role gets, and calling them safely.

`call` never raises for a tool's failure: bad arguments, a refusal, a timeout, a crashed MCP server
or a bug in a handler all come back as a ToolError with a code and a message in words, so the role
that asked can read it and go on. Only cancellation (the user's Stop) passes through.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import jsonschema
from pydantic import ValidationError

from .. import logs
from ..agent.validation import pydantic_errors
from ..tool_def import Effects, RoleTool
from ..tool_def.errors import ToolFailed
from .outcome import ToolError, ToolOk, ToolOutcome, error_code
from .builtins import BUILTIN_TOOLS, SHELL
from .settings import ToolSettings
from .tool import RawArgs, ToolContext

if TYPE_CHECKING:  # the mcp SDK takes a second to import: only tasks with MCP servers pay it
    from .mcp_servers import McpConnection

log = logs.get("heybro.tools")


def builtin_tools(settings: ToolSettings) -> dict[str, RoleTool]:
    """heybro's own host tools (builtins.py) as the user's settings give them: the shell only when
    they turned it on (off by default), within its own time limit (its timeout fires first, in
    words)."""
    tools = {t.name: t for t in BUILTIN_TOOLS if t is not SHELL}
    if settings.shell.enabled:
        tools[SHELL.name] = dataclasses.replace(SHELL, timeout_s=settings.shell.timeout_s + 5)
    return tools


class HostTools:
    def __init__(self, settings: ToolSettings,
                 extra: Sequence[tuple[RoleTool, Sequence[str]]] = ()) -> None:
        """`extra`: host tools defined elsewhere, each with the roles it is offered to (called,
        bounded and reported like the built-ins)."""
        self.settings = settings
        self._tools: dict[str, RoleTool] = builtin_tools(settings)
        self._extra_roles: dict[str, list[str]] = {}
        for tool, roles in extra:
            self._tools[tool.name] = tool
            for role in roles:
                self._extra_roles.setdefault(role, []).append(tool.name)
        self._servers: dict[str, McpConnection] = {}
        self._offered: dict[str, list[str]] = {}  # server → its exposed tool names
        self.problems: list[ToolError] = []  # servers that would not start, for the user to see

    # --- which tools a role gets ----------------------------------------------------------------
    async def for_role(self, role: str, ctx: ToolContext) -> list[RoleTool]:
        """The built-ins the settings give `role`, then the tools of every MCP server offered to
        it (started now if need be; one that fails is left out and noted in `problems`)."""
        names = [n for n in self.settings.roles.get(role, []) if n in self._tools]
        names += self._extra_roles.get(role, [])
        for server, config in self.settings.mcp_servers.items():
            if role in config.roles:
                names += await self._server_tools(server, ctx)
        return [self._tools[n] for n in names]

    async def _server_tools(self, server: str, ctx: ToolContext) -> list[str]:
        if server not in self._offered:
            try:
                connection = await self._connect(server, ctx)
            except ToolFailed as failure:
                self.problems.append(ToolError(tool=server, code=error_code(failure.code),
                                               message=failure.message))
                log.warning("mcp_server_unavailable", server=server, error=failure.message)
                self._offered[server] = []  # not tried again for every role run of the task
                return []
            adopted = (self._adopt(server, t) for t in connection.tools)
            self._offered[server] = [n for n in adopted if n]
        return self._offered[server]

    async def _connect(self, server: str, ctx: ToolContext) -> McpConnection:
        connection = self._servers.get(server)
        if connection is not None and connection.alive:
            return connection
        if connection is not None:
            await connection.close()  # crashed: start it again
        ctx.workspace.mkdir(parents=True, exist_ok=True)
        from .mcp_servers import McpConnection
        connection = McpConnection(server, self.settings.mcp_servers[server], ctx.workspace)
        self._servers[server] = connection
        await connection.start()
        return connection

    def _adopt(self, server: str, tool: Any) -> str | None:
        from .mcp_servers import exposed_name
        name = exposed_name(server, tool.name)
        if name in self._tools and self._tools[name].parameters is None:
            self.problems.append(ToolError(tool=name, code="unavailable", message=f"MCP server "
                                           f"{server!r}'s tool {tool.name!r} clashes with a "
                                           "built-in tool's name and is left out"))
            return None
        config = self.settings.mcp_servers[server]
        hints = tool.annotations
        remote = tool.name

        async def handler(args: dict[str, Any], ctx: ToolContext) -> ToolOk:
            result = await (await self._connect(server, ctx)).call(remote, args, config.timeout_s)
            return result.model_copy(update={"tool": name})

        self._tools[name] = RoleTool(
            name, RawArgs, (tool.description or tool.name).strip() + f" (MCP server {server})",
            "host", Effects(read_only=bool(hints and hints.read_only_hint), sends=f"mcp:{server}"),
            run=handler,
            timeout_s=config.timeout_s + config.start_timeout_s,  # may restart a crashed server
            parameters=tool.input_schema or {"type": "object", "properties": {}})
        return name

    def definition(self, name: str) -> RoleTool | None:
        """The tool of that name (a built-in, or an MCP server's once its role was offered it)."""
        return self._tools.get(name)

    # --- calling --------------------------------------------------------------------------------
    async def call(self, name: str, params: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        tool = self._tools.get(name)
        if tool is None:
            return ToolError(tool=name, code="unknown_tool", message=f"no host tool named "
                             f"{name!r}; available: {', '.join(sorted(self._tools))}")
        timeout = tool.timeout_s or ctx.settings.timeout_s
        run = tool.host_run
        assert run is not None, f"{name} is offered as a host tool without a handler"
        try:
            args = _validated(tool, params)
            async with asyncio.timeout(timeout):
                out: ToolOk | str = await run(args, ctx)
        except ToolFailed as failure:
            outcome: ToolOutcome = ToolError(tool=name, code=error_code(failure.code),
                                             message=failure.message)
        except TimeoutError:
            outcome = ToolError(tool=name, code="timeout", message=f"{name} ran longer than "
                                f"{timeout:g} s and was stopped")
        except Exception as err:  # noqa: BLE001 — a bug in one tool must not end the task
            log.exception("host_tool_crashed", tool=name)
            outcome = ToolError(tool=name, code="failed", message=f"{name} failed unexpectedly: "
                                f"{type(err).__name__}: {err}")
        else:
            outcome = (ToolOk(tool=name, text=out) if isinstance(out, str)
                       else out.model_copy(update={"tool": name}))
        log.info("host_tool", tool=name, ok=outcome.ok,
                 code=getattr(outcome, "code", None))
        return outcome

    async def aclose(self) -> None:
        """Stops the task's MCP servers (safe to call twice)."""
        servers, self._servers = list(self._servers.values()), {}
        await asyncio.gather(*(s.close() for s in servers), return_exceptions=True)

    async def __aenter__(self) -> HostTools:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _validated(tool: RoleTool, params: dict[str, Any]) -> Any:
    if not isinstance(params, dict):
        raise ToolFailed("invalid_arguments", "the parameters must be an object")
    if tool.parameters is not None:
        try:
            jsonschema.validate(params, tool.parameters)
        except jsonschema.ValidationError as err:
            where = ".".join(map(str, err.absolute_path)) or "(parameters)"
            raise ToolFailed("invalid_arguments", f"{where}: {err.message}") from None
        except jsonschema.SchemaError:
            pass  # the server's schema is broken: let the server judge the arguments
        return dict(params)
    try:
        return tool.args.model_validate(params)
    except ValidationError as err:
        raise ToolFailed("invalid_arguments", pydantic_errors(err)) from None


