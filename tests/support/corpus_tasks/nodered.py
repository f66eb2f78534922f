"""Tasks on Node-RED (the flow editor): add a flow and name it, type code into a function node's
code editor, delete a flow, and answer what a flow is for — each checked in the flows the runtime
deployed (its admin API).

The code editor is Monaco unless Node-RED was started with HEYBRO_NODERED_EDITOR=ace: the code task
is the same for both (the worker looks for the editor's textbox in the tray, whichever it is), so

    .venv/bin/python scripts/bench_app_tasks.py --apps nodered
    HEYBRO_NODERED_EDITOR=ace .venv/bin/python scripts/bench_app_tasks.py --apps nodered --only code

run it once on each editor.
"""

from __future__ import annotations

import re
from typing import Any

from ..corpus.nodered import REPORTS_TAB, NodeRed
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified
from ..scripted_llm import call, calls, find_id, find_ids

# Deploying is what makes a change reach the runtime; the editor says so in a notice.
DEPLOYED = "text:Successfully deployed"


def _menu() -> list[Any]:
    """The main menu (the icon-only button at the top right), then its Flows submenu, which opens
    on hover."""
    return [
        lambda b: call("click", element_id=find_id(b, 'link "bars"')),
        lambda b: call("hover", element_id=find_id(b, 'link "Flows"', within="Configuration nodes")),
        # heybro issue: after hover on Flows the submenu (Add, Edit, Delete) is sometimes missing from
        # the map even a second later (the hover's result says a div was added).
        # The submenu is drawn a moment after the pointer arrives: if the map does not show it yet,
        # wait for it as a person would.
        lambda b: call("wait", seconds=0.1 if find_ids(b, 'link "Delete"', within="] link Flows") else 1),
    ]


def _add_flow(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add a flow named Kitchen Alerts and deploy it"),
        "worker": [
            *_menu(),
            lambda b: call("click", element_id=find_id(b, 'link "Add"', within="] link Flows")),
            # The new flow is the open one: Flows > Edit opens its properties.
            *_menu(),
            lambda b: call("click", element_id=find_id(b, 'link "Edit"', within="] link Flows")),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Name"', within="Edit flow"),
                                      "value": "Kitchen Alerts"}),
                            ("click", {"element_id": find_id(b, 'button "Done"', within="Edit flow")})),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("The Kitchen Alerts flow is added and deployed"),
        ],
        "verifier": verified("The tab Kitchen Alerts is shown and the flows are deployed"),
    }


def _tab_labels(app: NodeRed) -> list[str]:
    return sorted(app.tabs())


def _add_flow_check(app: NodeRed, run: Any) -> None:
    tabs = app.tabs()
    assert "Kitchen Alerts" in tabs, tabs
    assert sorted(tabs) == sorted([*run.before, "Kitchen Alerts"]), (run.before, tabs)  # that tab alone
    assert not [n for n in app.nodes() if n.get("z") == tabs["Kitchen Alerts"]]  # an empty flow


# What the user asks to put at the top of the function's code, as they would type it.
CODE_LINES = "// Reviewed by Ann\nif (!msg.payload) return null;\n"


def _selected(b: dict[str, Any], name: str) -> bool:
    """The info panel shows this node: its name (with buttons), then "Node"."""
    return bool(re.search(rf"^{re.escape(name)} \[.*\n\*?Node$", page_of(b), re.M))


def _down_to(name: str) -> Any:
    return lambda b: call("wait", seconds=0.1) if _selected(b, name) else call("press", keys="ArrowDown")


def _edit_code(app: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add two lines at the top of the Validate order function's code and deploy"),
        "worker": [
            # heybro issue: the nodes drawn on the workspace are not in the map (the whole canvas is
            # one clickable) and there is no double-click, which is how a person opens a node. The
            # worker goes by keyboard: filter the sidebar's outline to the node, move to it with the
            # arrow keys (that selects it on the workspace too), then Enter on the workspace edits
            # the selected node.
            lambda b: calls(("type", {"element_id": find_id(b, 'textbox "Search flows"'), "text": "Validate order"}),
                            ("focus", {"element_id": find_id(b, 'clickable "Flows"')})),
            # Down until the info panel under the outline shows the node (which item the outline's
            # keyboard focus is on, the map does not say).
            *[_down_to("Validate order")] * 6,
            lambda b: call("focus", element_id=find_id(b, "clickable", row="Validate order")),
            lambda b: call("press", keys="Enter", expect="text:Edit function node"),
            # heybro issue: the code editor (Monaco's or Ace's) is not in the map as a textbox.
            lambda b: calls(("click", {"element_id": find_id(b, "textbox", within="On Stop")}),
                            ("press", {"keys": "Control+Home"})),
            lambda b: call("type", element_id=find_id(b, "textbox", within="On Stop"), text=CODE_LINES),
            lambda b: call("click", element_id=find_id(b, 'button "Done"', within="Edit function node")),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("The two lines are at the top of Validate order and deployed"),
        ],
        "verifier": verified("The editor deployed the function"),
    }


def _functions(app: NodeRed) -> dict[str, str]:
    return {n["id"]: n["func"] for n in app.nodes("function")}


def _edit_code_check(app: NodeRed, run: Any) -> None:
    func = app.node("Validate order")
    assert func is not None
    # What a person typing these keys gets: the editor's auto-closed brackets are typed over, and
    # a line at the top is not indented.
    assert func["func"].startswith(CODE_LINES + "// Reject orders without items"), func["func"][:200]
    after = _functions(app)
    assert {k: v for k, v in after.items() if k != func["id"]} == \
        {k: v for k, v in run.before.items() if k != func["id"]}  # the other functions untouched


def _delete_flow(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete the Daily Reports flow and deploy"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "Daily Reports"')),
            # The menu's Flows > Delete deletes the flow that is open.
            *_menu(),
            lambda b: call("click", element_id=find_id(b, 'link "Delete"', within="] link Flows")),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("The Daily Reports flow is deleted and deployed"),
        ],
        "verifier": verified("The Daily Reports tab is gone"),
    }


def _delete_before(app: NodeRed) -> dict[str, Any]:
    return {"tabs": _tab_labels(app), "others": sorted(n["id"] for n in app.nodes() if n.get("z") != REPORTS_TAB)}


def _delete_check(app: NodeRed, run: Any) -> None:
    tabs = _tab_labels(app)
    assert "Daily Reports" not in tabs, tabs
    assert tabs == [t for t in run.before["tabs"] if t != "Daily Reports"], (run.before["tabs"], tabs)
    nodes = app.nodes()
    assert not [n for n in nodes if n.get("z") == REPORTS_TAB]  # its nodes went with it
    assert sorted(n["id"] for n in nodes) == run.before["others"]  # and nothing else


def _answer(_: NodeRed) -> dict[str, list[Any]]:
    def read_description(b: dict[str, Any]) -> dict[str, Any]:
        # The info sidebar shows the open flow: its name (with buttons), "Flow", its id, then what
        # it is for.
        lines = page_of(b).splitlines()
        at = next(i for i, line in enumerate(lines) if re.match(r"Sensor Readings \[", line))
        assert lines[at + 1].strip() == "Flow", lines[at:at + 4]
        return calls(("answer", {"text": f"The Sensor Readings flow: {lines[at + 3].strip()}"}),
                     ("mark_done", {"summary": "Read the flow's description in the info sidebar"}))
    return {
        "scheduler": one_subtask("Find what the Sensor Readings flow is for"),
        "worker": [lambda b: call("click", element_id=find_id(b, 'link "Sensor Readings"')), read_description],
        "verifier": verified("The info sidebar shows the flow's description"),
    }


def _answer_check(_: NodeRed, run: Any) -> None:
    assert "Kitchen and cellar temperature sensors" in (run.final.get("answer") or ""), run.final


TASKS = [
    CorpusTask("nodered", "adds a flow and names it", "Add a new flow called Kitchen Alerts and deploy it",
               "/", _add_flow, _add_flow_check, kind="create", before=_tab_labels),
    CorpusTask("nodered", "types code into a function node's code editor",
               "In the Validate order function, add these two lines at the very top of its code, then deploy:\n"
               + CODE_LINES, "/", _edit_code, _edit_code_check, kind="edit", before=_functions),
    CorpusTask("nodered", "deletes a flow", "Delete the Daily Reports flow and deploy",
               "/", _delete_flow, _delete_check, kind="delete", before=_delete_before),
    CorpusTask("nodered", "answers what a flow is for from the info sidebar", "What is the Sensor Readings flow for?",
               "/", _answer, _answer_check, kind="answer"),
]
