"""Host tools a role may call: calculate, now, the workspace's files, shell — through HostTools,
on real files and real processes; every failure comes back as a typed error in words."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from heybro import config
from heybro.tool_def import Args
from heybro.tool_def import RoleTool
from heybro.tools import (Effects, HostTools, ShellSettings, ToolContext, ToolError,
                          ToolOk, ToolSettings)


def run(name: str, params: dict[str, Any], ctx: ToolContext,
        tools: HostTools | None = None) -> ToolOk | ToolError:
    return asyncio.run((tools or HostTools(ctx.settings)).call(name, params, ctx))


def ok(name: str, params: dict[str, Any], ctx: ToolContext) -> str:
    out = run(name, params, ctx)
    assert isinstance(out, ToolOk), out
    return out.text


def error(name: str, params: dict[str, Any], ctx: ToolContext) -> ToolError:
    out = run(name, params, ctx)
    assert isinstance(out, ToolError), out
    return out


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(workspace=tmp_path / "workspace", settings=ToolSettings())


# --- calculate ----------------------------------------------------------------------------------
@pytest.mark.parametrize("expression, value", [
    ("19.99 * 3", "59.97"), ("0.1 + 0.2", "0.3"), ("(1 + 2) * -3", "-9"), ("2 ** 10", "1024"),
    ("7 // 2", "3"), ("-7 // 2", "-4"), ("-7 % 3", "2"), ("10 / 4", "2.5"), ("2 ** -2", "0.25"),
    ("round(2 ** 0.5, 3)", "1.414"), ("round(1.25, 1)", "1.3"), ("round(1234.5)", "1235"),
    ("min(3, 1.5, 2)", "1.5"), ("max(4)", "4"), ("abs(-2.50)", "2.5"), ("sqrt(16)", "4"),
    ("+5 - -5", "10"),
])
def test_calculate_gives_exact_decimal_answers(ctx: ToolContext, expression: str,
                                               value: str) -> None:
    assert ok("calculate", {"expression": expression}, ctx) == f"{expression} = {value}"


@pytest.mark.parametrize("expression, words", [
    ("__import__('os')", "calling '__import__' is not allowed"),
    ("__import__('os').system('id')", "calling \"__import__('os').system\" is not allowed"),
    ("open('/etc/passwd')", "calling 'open' is not allowed"),
    ("(1).__class__", "the attribute .__class__ is not allowed"),
    ("x + 1", "the name 'x' is not allowed"),
    ("'a' * 3", "the value 'a' is not allowed"),
    ("1 < 2", "the operator Lt is not allowed"),
    ("[1, 2]", "'[1, 2]' is not allowed"),
    ("lambda: 1", "'lambda: 1' is not allowed"),
    ("round(1.5, ndigits=1)", "round() takes 1 to 2 plain argument(s)"),
    ("max()", "max() takes 1 to 50 plain argument(s)"),
    ("1 / 0", "division by zero"), ("5 % 0", "division by zero"),
    ("2 ** 5000", "exponent 5000 is too large (at most 1000)"),
    ("(10 ** 1000) ** 1000", "the result is too large"),
    ("sqrt(-4)", "sqrt of a negative number (-4)"),
    ("(-8) ** 0.5", "undefined result"),
    ("round(1.5, 0.5)", "digits must be a whole number"),
    ("2 +* 3", "not a valid expression"),
    ("+".join(["1"] * 200), "expression too long"),
])
def test_calculate_refuses_anything_but_arithmetic_in_words(ctx: ToolContext, expression: str,
                                                            words: str) -> None:
    err = error("calculate", {"expression": expression}, ctx)
    assert err.code == "tool_error" and words in err.message
    if "not allowed" in words:
        assert "use only numbers, + - * / // % **, parentheses and round" in err.message


def test_bad_arguments_are_named_in_the_error(ctx: ToolContext) -> None:
    err = error("calculate", {"expr": "1+1"}, ctx)
    assert err.code == "invalid_arguments"
    assert "expression: Field required" in err.message and "expr: Extra inputs" in err.message
    assert "calculate failed (invalid_arguments): expression: Field required" in err.for_model()


# --- workspace files ----------------------------------------------------------------------------
def test_files_are_written_and_read_in_the_tasks_workspace(ctx: ToolContext) -> None:
    assert ok("write_file", {"path": "notes/prices.csv", "content": "kettle,39.99\n"}, ctx) == \
        "wrote 13 bytes to notes/prices.csv (overwrite); it is the task's resource 'notes/prices.csv' " \
        "(upload it by that name)"
    ok("write_file", {"path": "notes/prices.csv", "content": "mug,4.50\n", "mode": "append"}, ctx)
    assert (ctx.workspace / "notes" / "prices.csv").read_text() == "kettle,39.99\nmug,4.50\n"
    assert ok("read_file", {"path": "notes/prices.csv"}, ctx) == "kettle,39.99\nmug,4.50\n"
    assert ok("read_file", {"path": "."}, ctx) == "notes/"
    assert ok("read_file", {"path": "notes"}, ctx) == "prices.csv"
    ok("write_file", {"path": "notes/prices.csv", "content": "replaced"}, ctx)
    assert ok("read_file", {"path": "notes/prices.csv"}, ctx) == "replaced"


def test_the_workspace_lives_under_heybros_data_dir(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    ctx = ToolContext.for_task("task42", ToolSettings())
    ok("write_file", {"path": "a.txt", "content": "x"}, ctx)
    assert (tmp_path / "home" / "data" / "workspaces" / "task42" / "a.txt").read_text() == "x"


def test_paths_outside_the_workspace_are_refused(ctx: ToolContext, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's private file")
    ctx.workspace.mkdir(parents=True)
    os.symlink(secret, ctx.workspace / "link.txt")
    os.symlink(tmp_path, ctx.workspace / "up")
    (ctx.workspace / "inside.txt").write_text("fine")
    os.symlink(ctx.workspace / "inside.txt", ctx.workspace / "alias.txt")
    cases = {
        str(secret): "is an absolute path; give a path relative to the task's workspace folder",
        "/etc/passwd": "is an absolute path",
        "C:\\Windows\\win.ini": "is an absolute path",
        "~/.ssh/id_rsa": "is an absolute path",
        "../secret.txt": "leaves the task's workspace folder ('..' is not allowed)",
        "notes/../../secret.txt": "('..' is not allowed)",
        "..\\secret.txt": "('..' is not allowed)",
        "link.txt": "leads outside the task's workspace folder (through a symbolic link)",
        "up/secret.txt": "(through a symbolic link)",
    }
    for path, words in cases.items():
        for tool, params in (("read_file", {"path": path}),
                             ("write_file", {"path": path, "content": "overwritten"})):
            err = error(tool, params, ctx)
            assert err.code == "refused" and words in err.message, (tool, path, err)
    assert secret.read_text() == "the user's private file"
    assert ok("read_file", {"path": "alias.txt"}, ctx) == "fine"  # a link that stays inside


def test_file_errors_say_what_is_wrong(ctx: ToolContext) -> None:
    limited = ToolContext(ctx.workspace, ToolSettings(file_max_bytes=10))
    missing = error("read_file", {"path": "nothing.txt"}, ctx)
    assert missing.code == "not_found" and "no file 'nothing.txt' in the task's workspace" in \
        missing.message
    big = error("write_file", {"path": "big.txt", "content": "x" * 11}, limited)
    assert big.code == "refused" and "would be 11 bytes; the limit is 10" in big.message
    assert not (ctx.workspace / "big.txt").exists()
    ok("write_file", {"path": "nine.txt", "content": "x" * 9}, limited)
    grown = error("write_file", {"path": "nine.txt", "content": "xx", "mode": "append"}, limited)
    assert grown.code == "refused" and "would be 11 bytes" in grown.message
    (ctx.workspace / "large.txt").write_text("y" * 50)
    assert "is 50 bytes; the limit is 10" in error("read_file", {"path": "large.txt"},
                                                   limited).message
    (ctx.workspace / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    binary = error("read_file", {"path": "image.png"}, ctx)
    assert binary.code == "tool_error" and "'image.png' is not UTF-8 text (image/png)" in binary.message
    (ctx.workspace / "report.pdf").write_bytes(b"%PDF-1.7\n\xe2\xe3\xcf\xd3")
    pdf = error("read_file", {"path": "report.pdf"}, ctx).message
    assert "(application/pdf)" in pdf and "no PDF or image reader" in pdf
    folder = error("write_file", {"path": ".", "content": "x"}, ctx)
    assert folder.code == "refused" and "is a folder" in folder.message


# --- now ----------------------------------------------------------------------------------------
def test_now_tells_the_time_in_the_users_time_zone(tmp_path: Path) -> None:
    ctx = ToolContext(tmp_path, ToolSettings(timezone="Asia/Tokyo"))
    text = ok("now", {}, ctx)
    iso = text.rsplit("ISO ", 1)[1]
    moment = datetime.fromisoformat(iso)
    assert moment.utcoffset() == ZoneInfo("Asia/Tokyo").utcoffset(moment.replace(tzinfo=None))
    assert abs((moment - datetime.now(ZoneInfo("UTC"))).total_seconds()) < 60
    assert "(Asia/Tokyo, UTC+0900)" in text and moment.strftime("%A") in text
    other = datetime.fromisoformat(ok("now", {"timezone": "America/New_York"}, ctx)
                                   .rsplit("ISO ", 1)[1])
    assert other.utcoffset() in (ZoneInfo("America/New_York").utcoffset(
        other.replace(tzinfo=None)),)
    err = error("now", {"timezone": "Mars/Olympus"}, ctx)
    assert err.code == "tool_error" and "unknown time zone 'Mars/Olympus'" in err.message


# --- shell --------------------------------------------------------------------------------------
def shell_ctx(tmp_path: Path, **shell: Any) -> ToolContext:
    return ToolContext(tmp_path / "ws", ToolSettings(shell=ShellSettings(enabled=True, **shell)))


def test_shell_is_off_unless_the_user_turns_it_on(ctx: ToolContext) -> None:
    err = error("shell", {"command": "ls"}, ctx)
    assert err.code == "unknown_tool" and "no host tool named 'shell'" in err.message
    assert "shell" not in [t.name for t in asyncio.run(HostTools(ctx.settings).for_role(
        "technician", ctx))]


def test_allowed_commands_run_in_the_workspace_and_others_wait_for_the_user(tmp_path: Path
                                                                            ) -> None:
    ctx = shell_ctx(tmp_path, allow=["ls", "python3 -c *", "touch allowed.txt"])
    tools = HostTools(ctx.settings)
    shell = next(t for t in asyncio.run(tools.for_role("technician", ctx)) if t.name == "shell")
    assert shell.effects == Effects(read_only=False, sends="shell")
    ok("write_file", {"path": "report.txt", "content": "x"}, ctx)
    assert ok("shell", {"command": "ls"}, ctx).split() == ["report.txt"]
    ok("shell", {"command": "touch allowed.txt"}, ctx)
    assert (ctx.workspace / "allowed.txt").exists()
    for command in ("touch other.txt", "rm report.txt", "ls; touch other.txt",
                    "python3 script.py"):
        err = error("shell", {"command": command}, ctx)
        assert err.code == "needs_confirmation", command
        assert f"`{command}` is not on your allow-list" in err.message
        assert "needs your confirmation before it runs" in err.message
    assert sorted(p.name for p in ctx.workspace.iterdir()) == ["allowed.txt", "report.txt"]
    # No shell in between: `;` is an argument to ls, not a second command.
    with_semicolon = error("shell", {"command": "ls ';' touch"}, ctx)
    assert with_semicolon.code == "tool_error"
    assert not (ctx.workspace / "touch").exists()


def test_shell_commands_are_bounded_and_fail_in_words(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEYBRO_LLM_API_KEY", "sk-secret")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-secret")
    ctx = shell_ctx(tmp_path, allow=["python3 -c *", "sleep *", "no-such-program"],
                    timeout_s=60, max_output=100)
    quick = shell_ctx(tmp_path, allow=["sleep *"], timeout_s=0.5)
    py = "python3 -c"
    env = ok("shell", {"command": f"{py} 'import os; print(\"PATH\" in os.environ, [k for k in "
                              "os.environ if \"KEY\" in k or \"TOKEN\" in k])'"}, ctx)
    assert env.strip() == "True []"  # the host's API keys stay out of the command's reach
    loud = ok("shell", {"command": f"{py} 'print(\"x\" * 100000)'"}, ctx)
    assert loud == "x" * 100 + "\n[… output cut at the limit]"
    started = time.monotonic()
    slow = error("shell", {"command": "sleep 30"}, quick)
    assert slow.code == "timeout" and "`sleep 30` ran longer than 0.5 s and was stopped" in \
        slow.message
    assert time.monotonic() - started < 5
    failing = error("shell", {"command": f"{py} 'import sys; print(\"bad input\"); sys.exit(3)'"},
                    ctx)
    assert failing.code == "tool_error" and "exited with status 3:\nbad input" in failing.message
    missing = error("shell", {"command": "no-such-program --help"}, ctx)
    assert missing.code == "not_found" and "no program named 'no-such-program'" in missing.message
    unbalanced = error("shell", {"command": "sleep 'x"}, ctx)
    assert unbalanced.code == "invalid_arguments" and "No closing quotation" in unbalanced.message


# --- the registry -------------------------------------------------------------------------------
def test_each_role_gets_the_built_ins_the_settings_give_it(ctx: ToolContext) -> None:
    def names(settings: ToolSettings, role: str) -> list[str]:
        return [t.name for t in asyncio.run(HostTools(settings).for_role(role, ctx))]

    default = ToolSettings()
    assert names(default, "worker") == ["calculate", "now"]
    assert names(default, "analyst") == ["calculate", "now", "read_file", "fetch"]
    assert names(default, "technician") == ["calculate", "now", "read_file", "write_file", "fetch"]
    assert names(default, "scheduler") == []
    mine = ToolSettings(roles={"worker": ["calculate", "fetch"]})
    assert names(mine, "worker") == ["calculate", "fetch"]
    # A config written when the page worker was also called the operator still says the same.
    assert ToolSettings(roles={"operator": ["calculate", "fetch"]}).roles == mine.roles
    assert names(mine, "analyst") == ["calculate", "now", "read_file", "fetch"]  # kept
    with pytest.raises(ValueError, match="role 'worker': unknown built-in tool\\(s\\) browse"):
        ToolSettings(roles={"worker": ["browse"]})


class Boom(Args):
    seconds: float = 0


async def _boom(args: Boom, ctx: ToolContext) -> str:
    if args.seconds:
        await asyncio.sleep(args.seconds)
        return "woke"
    raise RuntimeError("disk on fire")


def test_a_crashing_or_hanging_tool_is_an_error_not_a_dead_task(ctx: ToolContext) -> None:
    boom = RoleTool("boom", Boom, "Test tool.", "host", run=_boom, timeout_s=0.3)
    tools = HostTools(ctx.settings, extra=[(boom, ["analyst"])])
    assert "boom" in [t.name for t in asyncio.run(tools.for_role("analyst", ctx))]
    crashed = run("boom", {}, ctx, tools)
    assert isinstance(crashed, ToolError) and crashed.code == "failed"
    assert crashed.message == "boom failed unexpectedly: RuntimeError: disk on fire"
    hung = run("boom", {"seconds": 10}, ctx, tools)
    assert isinstance(hung, ToolError) and hung.code == "timeout"
    assert hung.message == "boom ran longer than 0.3 s and was stopped"
    unknown = run("teleport", {}, ctx, tools)
    assert isinstance(unknown, ToolError) and unknown.code == "unknown_tool"
    assert "no host tool named 'teleport'; available: boom, calculate" in unknown.message


def test_a_host_tool_is_offered_to_the_model_like_the_page_tools(ctx: ToolContext) -> None:
    tool = asyncio.run(HostTools(ctx.settings).for_role("technician", ctx))[3]
    assert tool.name == "write_file" and tool.kind == "host"
    # (a parameter is a string unless a type follows it: said once in JSON mode's instructions)
    assert tool.signature() == ("write_file(path (Relative to the task's workspace.), "
                                "content, mode?: \"overwrite\"|\"append\" = \"overwrite\")"
                                " — Write or append a text file in the task's workspace folder.")
    assert tool.openai()["function"]["parameters"]["required"] == ["path", "content"]


# --- settings -----------------------------------------------------------------------------------
def test_tool_settings_come_from_the_config_file_and_the_environment(tmp_path: Path) -> None:
    file = tmp_path / "config.json"
    file.write_text(json.dumps({"model": "m", "tools": {
        "shell": {"allow": ["git status"]}, "roles": {"analyst": ["calculate"]},
        "mcp_servers": {"files": {"command": "npx", "args": ["-y", "server-filesystem"],
                                  "env": {"TOKEN": "t0ken"}, "roles": ["technician"]}}}}))
    settings = config.load(env={"HEYBRO_TOOLS_SHELL": "1", "HEYBRO_TIMEZONE": "Europe/Paris",
                                "HEYBRO_TOOLS_ALLOW_PRIVATE": "yes"}, file=file)
    tools = settings.tools
    assert tools.shell.enabled and tools.shell.allow == ["git status"]
    assert tools.timezone == "Europe/Paris" and tools.allow_private_addresses
    assert tools.roles["analyst"] == ["calculate"] and tools.mcp_servers["files"].command == "npx"
    assert tools.redacted()["mcp_servers"]["files"]["env"] == {"TOKEN": "***"}
    # Handed over whole (heybro run → the browser's host) and read back the same.
    assert config.from_dict(settings.model_dump(mode="json")).tools == tools
    assert config.load(env={}, file=tmp_path / "none.json").tools == ToolSettings()
    file.write_text(json.dumps({"tools": {"timezone": "Nowhere/Town"}}))
    with pytest.raises(config.ConfigError, match="unknown time zone 'Nowhere/Town'"):
        config.load(env={}, file=file)
    file.write_text(json.dumps({"tools": {"mcp_servers": {"my files": {"command": "x"}}}}))
    with pytest.raises(config.ConfigError, match="use letters, digits, _ or -"):
        config.load(env={}, file=file)


def test_names_match_what_function_calling_accepts() -> None:
    from heybro.tools.mcp_servers import exposed_name
    assert exposed_name("files", "read.text file") == "files_read_text_file"
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", exposed_name("s" * 30, "t" * 60))


def test_reading_the_settings_does_not_load_the_tools_libraries() -> None:
    """Every heybro command and the host's start read the settings; the MCP SDK (a second to
    import) and the HTTP client are loaded only by a task that uses host tools."""
    import subprocess
    import sys
    probe = ("import sys, heybro.config; heybro.config.Settings(); "
             "print(sorted(m for m in ('mcp', 'jsonschema', 'heybro.tools.registry') "
             "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
