"""Every tool is one definition with all its pieces: a tool missing one (a wire, an action module in
the extension, a handler) fails here rather than silently at run time. Also the definitions'
effects at work: the ledger, the conversions to wire arguments."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.browser_tools import EFFECTS, HOST_CALLED, call_browser_tool, effects_of
from heybro.agent.models import Task, TaskStatus
from heybro.tool_def import Args, RoleTool
from heybro.agent.toolbox import PAGE_TOOLS, ROLE_TOOLS
from heybro.agent.wire import copied, upload_args, wire_json
from heybro.store import TaskStore
from heybro.store.recorder import StoreRecorder
from shared_schema.dom_tools import ClickArgs, ExtractArgs, Upload, WaitFor
from shared_schema.tools import DECLARED, TOOLS

ROOT = Path(__file__).resolve().parents[1]
ALL = [t for tools in ROLE_TOOLS.values() for t in tools]


def test_every_role_tool_runs_somehow_and_page_tools_reach_the_browser() -> None:
    for t in ALL:
        if t.kind in ("browser", "tab"):
            assert t.wire is not None, f"{t.name} acts on pages but has no wire to the browser"
        elif t.kind == "local":
            assert t.run is not None or t.wire is not None, f"{t.name} has no handler nor wire"
        if t.wire is not None:
            spec = TOOLS.get(t.wire.tool)
            assert spec is not None, f"{t.name} calls {t.wire.tool}, which shared_schema lacks"
            assert t.wire.model is spec.args, f"{t.name}'s wire model is not {t.wire.tool}'s args"


def test_host_tools_are_role_tools_of_their_own_kind_run_by_their_handler() -> None:
    """One tool type: a host tool is a RoleTool like the browser's and the roles' (kind "host"),
    whose handler the host tools' registry runs, never the role's local dispatch."""
    from heybro.tools.registry import builtin_tools
    from heybro.tools.settings import ShellSettings, ToolSettings

    tools = builtin_tools(ToolSettings(shell=ShellSettings(enabled=True)))
    assert {"calculate", "now", "read_file", "write_file", "fetch", "shell"} <= set(tools)
    for t in tools.values():
        assert isinstance(t, RoleTool) and t.kind == "host", t.name
        assert t.host_run is not None and t.local_run is None, t.name
    assert all(t.host_run is None for t in ALL), "a role tool would be run as a host tool"


def test_every_browser_tool_of_the_schema_is_used_by_a_definition_or_by_the_host() -> None:
    reached = {t.wire.tool for t in ALL if t.wire is not None} | set(HOST_CALLED)
    assert set(TOOLS) == reached, f"no host definition for {sorted(set(TOOLS) - reached)}"


def action_modules() -> dict[str, dict[str, Any]]:
    """The extension's action modules: name → what it declares (`needs`, `judged`)."""
    # The service worker's modules touch `chrome` as they load: any property of it will do here.
    out = subprocess.run(["node", "--input-type=module", "-e", (
        "const any = new Proxy(function () {}, {get: (_, k) => (k === 'then' ? undefined : any),"
        " apply: () => any}); globalThis.chrome = any;"
        "const { ACTIONS } = await import(process.argv[1]);"
        "const { SETTLE_ASYNC, SETTLE_DEFAULT, SETTLE_HOVER, SETTLE_NONE } ="
        " await import(new URL('../content/dom_changes.js', process.argv[1]));"
        "const settles = {async: SETTLE_ASYNC, default: SETTLE_DEFAULT, hover: SETTLE_HOVER,"
        " none: SETTLE_NONE};"
        "const out = [];"
        "for (const a of ACTIONS) {"
        "  const own = (await import(new URL(`./${a.name}.js`, process.argv[1]))).action;"
        "  const settle = Object.keys(settles).filter((k) => a.settle && Object.entries(settles[k])"
        "    .every(([key, v]) => a.settle[key] === v || (own.settle && key === 'graceMs')));"
        "  out.push([a.name, typeof a.run, {needs: a.needs, judged: a.judged ?? null,"
        "    own_judged: own.judged ?? null, settle}]);"
        "}"
        "console.log(JSON.stringify(out))"),
        (ROOT / "extension" / "actions" / "index.js").as_uri()], capture_output=True, text=True,
        check=True)
    found = json.loads(out.stdout)
    assert all(kind == "function" for _, kind, _ in found), "an action module without run()"
    return {name: module for name, _, module in found}


def test_every_browser_tool_has_one_action_module_and_every_module_a_definition() -> None:
    modules = action_modules()
    assert set(modules) == set(TOOLS), (
        f"tools without an action module: {sorted(set(TOOLS) - set(modules))}; "
        f"action modules without a tool: {sorted(set(modules) - set(TOOLS))}")


def test_every_action_module_does_what_its_declaration_says() -> None:
    """The extension keeps only the code that runs in the page; what the host and the wire know of
    the tool is its declaration's, and the module agrees with it: where it runs, whether it needs
    an element; what the page's gate judges of it and how long the page settles after it come
    from the declaration alone."""
    for name, module in action_modules().items():
        declared = DECLARED[name]
        assert ("page" if "page" in module["needs"] else "tab") == declared.runs, name
        assert module["own_judged"] is None, f"{name}: what the gate judges is its declaration's `risk`"
        assert module["judged"] == declared.risk, name
        if declared.runs == "page":
            assert declared.settle in module["settle"], (
                f"{name} settles as {module['settle']}, its declaration says {declared.settle!r}")
        if declared.runs == "page" and declared.kind is not None:
            field = declared.args.model_fields.get("element_id")
            required = field is not None and field.is_required()
            assert (module["needs"]["page"]["element"] == "required") == required, (
                f"{name}: its module and its declaration disagree on needing an element")


def test_every_declared_tool_a_role_may_call_is_the_worker_s_with_its_declared_words() -> None:
    worker = {t.name: t for t in ROLE_TOOLS["worker"]}
    for name, declared in DECLARED.items():
        if declared.kind is None:  # the host calls it itself (a local tool of its name may use it)
            assert name in HOST_CALLED and (name not in worker or worker[name].kind == "local")
            continue
        tool = worker[name]
        assert (tool.doc, tool.kind, tool.effects) == (declared.doc, declared.kind, declared.effects)
        assert tool.wire is not None and tool.wire.model is declared.wire_args
        assert set(tool.args.model_fields) - {"expect"} == set(declared.args.model_fields)
        assert ("expect" in tool.args.model_fields) == declared.expect


def test_an_argument_without_a_wire_field_is_refused_when_the_tool_is_defined() -> None:
    class Forgetful(Args):
        element_id: str
        note: str = ""  # nothing on the wire takes it: it would be dropped

    with pytest.raises(TypeError, match="note"):
        copied("click", Forgetful, ClickArgs)


class Page:
    """A WireContext: one element on the page, one secret, one resource."""

    def __init__(self, resource: Path) -> None:
        self.resource = resource

    def signature(self, element_id: str | None) -> dict[str, Any] | None:
        return {"tag": "button", "name": "Go"} if element_id == "e1" else None

    def resource_path(self, name: str) -> str:
        return str(self.resource)


def test_wait_for_carries_the_model_s_words_and_upload_reads_its_file(tmp_path: Path) -> None:
    doc = tmp_path / "cv.pdf"
    doc.write_bytes(b"%PDF")
    page = Page(doc)
    wire = PAGE_TOOLS["wait_for"].wire
    assert wire is not None
    w = wire.args(WaitFor(url_contains="/done", seconds=2.5, gone=True, text="{{secret:pin}}"), page)
    # (a secret is filled in by the browser sink once it judged where it goes, not by the wire)
    assert wire_json(w) == {"url_contains": "/done", "seconds": 2.5, "gone": True,
                            "text": "{{secret:pin}}"}
    assert wire.timeout(w) == 7_500  # the wait, and time to answer
    # The host's own wait for a quiet page, which the model is not offered.
    assert "quiet_ms" not in json.dumps(WaitFor.model_json_schema())
    assert WaitFor(quiet_ms=250, seconds=1.5).quiet_ms == 250
    u = upload_args(Upload(element_id="e1", resource_name="cv"), page)
    assert (u.file.name, u.file.mime, u.file.data_base64) == ("cv.pdf", "application/pdf", "JVBERg==")
    assert u.signature == {"tag": "button", "name": "Go"}


def test_effects_of_browser_tools_come_from_their_definitions() -> None:
    assert effects_of("wait_for").interruptible and effects_of("wait_for").read_only
    assert effects_of("navigate").ends_batch and not effects_of("navigate").read_only
    assert effects_of("click").may_navigate and effects_of("click").held_on_repeat
    assert effects_of("observe").read_only and effects_of("extract").read_only
    assert set(EFFECTS) == set(TOOLS)


class Recorded:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any], int]] = []

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: Any = None) -> dict[str, Any]:
        self.calls.append((tool, args, timeout_ms))
        return {"ok": True}


def test_one_browser_tool_runs_by_name_with_typed_wire_arguments() -> None:
    browser = Recorded()
    asyncio.run(call_browser_tool(browser, "click", ClickArgs(element_id="e3"), tab_id=7))
    assert browser.calls == [("click", {"element_id": "e3"}, 15_000)]
    with pytest.raises(TypeError):
        asyncio.run(call_browser_tool(browser, "click", ExtractArgs(element_id="e3"), tab_id=7))


def test_the_ledger_keeps_acts_and_skips_tools_that_only_look(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    """A host tool that only computes (calculate) is no 'action that may have happened' after a
    crash; a click and a file written are."""
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    store = TaskStore(tmp_path / "t.sqlite3")
    seen: list[Task] = []

    def on_store(env: Any) -> None:
        env.services.recorder = StoreRecorder(store)
        seen.append(env.task)

    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Work out the total", "role": "technician"}, "Open the blue kettle"]}),
            ("start_work", {}))],
        "technician": [calls(("calculate", {"expression": "2 * 21"}),
                             ("write_file", {"path": "total.txt", "content": "42"})),
                       call("mark_done", summary="42, written down")],
        "worker": [calls(("click", {"element_id": "e2"}), ("wait", {"seconds": 0.01})),
                   call("mark_done", summary="Opened")],
        "verifier": [call("mark_complete", reason="ok", confidence=0.9),
                     call("mark_complete", reason="ok", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, _, result = run_task(llm, shop(), env_hook=on_store)
    assert result.status == TaskStatus.completed, task.result
    ledgered = [a.tool for a in store.actions(task.id)]
    assert ledgered == ["write_file", "click"]
    assert re.search("calculate", json.dumps(task.model_dump(mode="json")))  # it did run


HOST = ROOT / "host" / "heybro"


def tool_names() -> set[str]:
    """Every tool's name: the roles', the browser's (shared_schema) and heybro's own host tools."""
    names = {t.name for t in ALL} | set(TOOLS)
    for path in (HOST / "tools").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and ast.unparse(node.func) == "RoleTool" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value))
    return names


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return set().union(*(_strings(x) for x in node.elts)) if node.elts else set()
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("frozenset", "set") and node.args:
        return _strings(node.args[0])
    return set()


def _names_a_tool(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return text in ("tool", "name", "action") or text.endswith((".tool", "tool_name", ".name"))


def keyed_by_name(source: str, names: set[str]) -> list[tuple[int, str]]:
    """Where code decides by a tool's name instead of reading its definition: a comparison or a
    match on a tool's name, a set or table of names, a browser call by a literal name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        hit: set[str] = set()
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_a_tool(s) for s in sides):
                hit = set().union(*(_strings(s) for s in sides)) & names
        elif isinstance(node, ast.Match) and _names_a_tool(node.subject):
            hit = {ast.unparse(c.pattern) for c in node.cases}
        elif isinstance(node, (ast.Set, ast.Call)) and len(_strings(node) & names) >= 2:
            hit = _strings(node) & names
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            hit = keys & names if len(keys & names) >= 2 else set()
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "call" and node.args):
            hit = _strings(node.args[0]) & names
        if hit:
            found.append((getattr(node, "lineno", 0), ", ".join(sorted(hit))))
    return sorted(set(found))


def test_the_scan_finds_names_keyed_outside_a_definition() -> None:
    names = {"click", "press", "navigate", "select"}
    code = ('HELD = frozenset({"click", "press"})\n'
            'if call.tool == "select": pass\n'
            'verb = {"click": "click", "press": "press on"}[call.tool]\n'
            'await env.calls.call("navigate", {})\n'
            'match step.tool:\n    case "click": pass\n')
    assert sorted({line for line, _ in keyed_by_name(code, names)}) == [1, 2, 3, 4, 5]
    assert keyed_by_name('if x.type == "select": pass\nkind = {"type": "text"}\n', names) == []


def test_a_tool_name_appears_in_its_definition_only() -> None:
    """What a name decides (held on repeat, acts on the page, risk, export, value argument, …) is
    a field of the definition; code reads the definition, never a list of names."""
    names = tool_names()
    found = [f"{path.relative_to(ROOT)}:{line}: {hit}"
             for path in sorted(HOST.rglob("*.py"))
             for line, hit in keyed_by_name(path.read_text(), names)]
    assert found == [], "tool names keyed outside their definitions:\n" + "\n".join(found)


# The whole extension but its action modules: what an action does beyond its run (settling, the
# browser's own input, its keyboard, what the coordinator does for it) is a field of its module in
# extension/actions/, and what the panel says of a call comes with it from the host (its kind, its
# report, its result in words), never a list of names.
EXTENSION_CODE = [p for p in (ROOT / "extension").rglob("*.js")
                  if p.parent.name != "actions" and not p.name.endswith(".classic.js")]


def js_keyed_by_name(source: str, names: set[str]) -> list[str]:
    alt = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    quoted = rf"[\"']({alt})[\"']"
    found: list[str] = []
    for m in re.finditer(rf"(?:\baction|\btool|\.name|\.tool|\.action)\s*[!=]==?\s*{quoted}"
                         rf"|{quoted}\s*[!=]==?\s*(?:action|tool)\b", source):
        found.append(m.group(0))
    for m in re.finditer(r"new Set\(\[([^\]]*)\]\)", source):
        if len(set(re.findall(quoted, m.group(1)))) >= 2:
            found.append(m.group(0)[:80])
    keys = re.findall(rf"^\s*[\"']?({alt})[\"']?\s*:\s*\{{", source, re.M)
    if len(set(keys)) >= 2:
        found.append(f"a table keyed by {sorted(set(keys))}")
    # (a DOM event of the same name — "scroll", "select" — is not the tool)
    found += [m.group(0) for m in re.finditer(rf"\b(?!addEventListener|removeEventListener)\w+\(\s*{quoted}\s*,", source)]
    return found


def test_the_extension_scan_finds_names_keyed_outside_an_action_module() -> None:
    names = {"click", "press", "hover", "wait_for"}
    code = ('const TRUSTED = new Set(["click", "hover"]);\n'
            'if (action === "press") keys();\n'
            'const SETTLE = {\n  click: { maxMs: 1 },\n  hover: { maxMs: 2 },\n};\n'
            'send(trustedSteps("hover", {}, el));\n')
    assert len(js_keyed_by_name(code, names)) == 4
    assert js_keyed_by_name('if (tag === "select" || step.type === "click") x();', names) == []


def test_a_tool_name_appears_in_its_action_module_only() -> None:
    names = set(TOOLS)
    found = [f"{p.relative_to(ROOT)}: {hit}" for p in sorted(EXTENSION_CODE)
             for hit in js_keyed_by_name(p.read_text(), names)]
    assert found == [], "tool names keyed outside their action modules:\n" + "\n".join(found)
