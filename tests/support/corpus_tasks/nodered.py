"""Tasks on Node-RED (the flow editor): add a flow and name it, type into the code editor a flow's
description is written in, delete a flow, answer what a flow is for, drag a node from the
palette onto the flow, wire one node to another (a drag from its output port) and rename a node in
the edit tray a double click on it opens — each checked in the flows the runtime
deployed (its admin API).

The code editor is Monaco unless Node-RED was started with HEYBRO_NODERED_EDITOR=ace: the editor
task is the same for both (the worker looks for the editor's textbox in the tray, whichever it is), so

    .venv/bin/python scripts/bench_app_tasks.py --apps nodered
    HEYBRO_NODERED_EDITOR=ace .venv/bin/python scripts/bench_app_tasks.py --apps nodered --only editor

(A function node's code is edited from the node on the workspace, which a person double-clicks; the
map lists the workspace as one clickable and heybro has no double-click yet.)

run it once on each editor.
"""

from __future__ import annotations

import re
from typing import Any

from ..corpus.nodered import REPORTS_TAB, NodeRed
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified
from ..scripted_llm import call, calls, find_id, find_ids, stay

# Deploying is what makes a change reach the runtime; the editor says so in a notice.
DEPLOYED = "text:Successfully deployed"


def _menu() -> list[Any]:
    """The main menu (the icon-only button at the top right), then its Flows submenu, which opens
    on hover."""
    return [
        lambda b: call("click", element_id=find_id(b, 'link "bars"')),
        lambda b: call("hover", element_id=find_id(b, 'link "Flows"', within="Configuration nodes")),
        # The submenu opens under the browser's own pointer (a :hover style; the editor's script
        # answers a script's mouseover with a tooltip, which once kept heybro from moving the
        # pointer), drawn a moment after it arrives: if the map does not show it yet, wait for it
        # as a person would.
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


# What the user asks to add at the end of the flow's description, as they would type it.
NOTE = "Owner: Ann (kitchen team)"


def _edit_description(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add a line naming Ann as owner at the end of the Order Processing flow's description, and deploy"),
        "worker": [
            # The open flow is Order Processing; the menu's Flows > Edit opens its properties, whose
            # description is written in the code editor (Monaco, or Ace): one textbox in the map.
            *_menu(),
            lambda b: call("click", element_id=find_id(b, 'link "Edit"', within="] link Flows")),
            lambda b: calls(("click", {"element_id": find_id(b, "textbox", within="Description")}),
                            ("press", {"element_id": find_id(b, "textbox", within="Description"), "keys": "Control+End"})),
            lambda b: call("type", element_id=find_id(b, "textbox", within="Description"), text="\n" + NOTE),
            lambda b: call("click", element_id=find_id(b, 'button "Done"', within="Edit flow")),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("The description ends with the owner line, deployed"),
        ],
        "verifier": verified("The flow is deployed with its new description"),
    }


def _infos(app: NodeRed) -> dict[str, str]:
    return {n["label"]: n.get("info", "") for n in app.flows() if n.get("type") == "tab"}


def _edit_description_check(app: NodeRed, run: Any) -> None:
    infos = _infos(app)
    # What a person typing these keys at the end of the text gets: one line more.
    assert infos["Order Processing"] == run.before["Order Processing"].rstrip("\n") + "\n" + NOTE, infos["Order Processing"]
    assert {k: v for k, v in infos.items() if k != "Order Processing"} == \
        {k: v for k, v in run.before.items() if k != "Order Processing"}  # the other flows untouched


def _delete_flow(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete the Daily Reports flow and deploy"),
        "worker": [
            # While the editor loads ("Adding flows to workspace") its tabs are under the loader.
            call("wait_for", role="link", name="Daily Reports"),
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
        # While the editor loads ("Adding flows to workspace") its tabs are under the loader: first
        # the tab, as a person waits for the editor.
        "worker": [call("wait_for", role="link", name="Sensor Readings"),
                   lambda b: call("click", element_id=find_id(b, 'link "Sensor Readings"')), read_description],
        "verifier": verified("The info sidebar shows the flow's description"),
    }


def _answer_check(_: NodeRed, run: Any) -> None:
    assert "Kitchen and cellar temperature sensors" in (run.final.get("answer") or ""), run.final


def _drag_inject(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add an inject node to the Order Processing flow and deploy"),
        "worker": [
            _drawn("New order"),
            # The palette item (drawn with a move cursor) is dragged onto the workspace, the flow's
            # SVG drawing, which the map lists as a clickable named by the nodes' labels (before
            # each node, a clickable of its own): dropped low on it, below the flow's nodes.
            lambda b: call("drag", element_id=find_id(b, "clickable inject", within="filter nodes"),
                           to_element_id=find_id(b, "New order"), x=0.5, y=0.85),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("An inject node is dropped on the Order Processing flow and deployed"),
        ],
        "verifier": verified("The flow shows the new inject node and is deployed"),
    }


def _injects(app: NodeRed) -> list[str]:
    return sorted(n["id"] for n in app.nodes("inject") if n.get("z") == app.tabs()["Order Processing"])


def _drag_inject_check(app: NodeRed, run: Any) -> None:
    now = _injects(app)
    new = [i for i in now if i not in run.before]
    assert len(new) == 1 and len(now) == len(run.before) + 1, (run.before, now)


def _drawn(words: str) -> Any:
    """The editor loads the flows after the page: wait for the flow's nodes to be drawn."""
    return lambda b: call("wait", seconds=0.1) if words in page_of(b) else stay(call("wait", seconds=1))


def _wire(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Wire Check stock to Remember order and deploy"),
        "worker": [
            _drawn("Remember order"),
            # A node of the flow is a control of the map, named by its label: a wire is drawn from
            # its output port (its right edge) onto the other node's input port (its left edge).
            lambda b: call("drag", element_id=find_id(b, "clickable Check stock"), from_x=0.98,
                           to_element_id=find_id(b, "clickable Remember order"), x=0.02, y=0.5),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("Check stock is wired to Remember order and deployed"),
        ],
        "verifier": verified("A wire joins Check stock to Remember order, deployed"),
    }


def _wires_of(app: NodeRed, name: str) -> list[list[str]]:
    return app.nodes(name=name)[0]["wires"]


def _wire_check(app: NodeRed, run: Any) -> None:
    (remember,) = app.nodes(name="Remember order")
    wires = _wires_of(app, "Check stock")
    assert sorted(wires[0]) == sorted([*run.before[0], remember["id"]]), (run.before, wires)


def _rename_node(_: NodeRed) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Rename the Stock levels node to Stock report and deploy"),
        "worker": [
            _drawn("Stock levels"),
            # A double click on a node opens its edit tray.
            lambda b: call("double_click", element_id=find_id(b, "clickable Stock levels"),
                           expect="text:Edit debug node"),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Name"', within="Edit debug node"),
                                      "value": "Stock report"}),
                            ("click", {"element_id": find_id(b, 'button "Done"', within="Edit debug node")})),
            lambda b: call("click", element_id=find_id(b, 'link "Deploy"'), expect=DEPLOYED),
            done("The Stock levels node is renamed Stock report and deployed"),
        ],
        "verifier": verified("The node shows Stock report and the flow is deployed"),
    }


def _rename_node_check(app: NodeRed, run: Any) -> None:
    assert not app.nodes(name="Stock levels"), app.nodes("debug")
    (node,) = app.nodes("debug", name="Stock report")
    assert node["id"] == run.before and node["z"] == app.tabs()["Order Processing"], (run.before, node)


TASKS = [
    CorpusTask("nodered", "adds a flow and names it", "Add a new flow called Kitchen Alerts and deploy it",
               "/", _add_flow, _add_flow_check, kind="create", before=_tab_labels),
    CorpusTask("nodered", "types into the code editor of a flow's description",
               f"Add the line '{NOTE}' at the end of the Order Processing flow's description, then deploy",
               "/", _edit_description, _edit_description_check, kind="edit", before=_infos),
    CorpusTask("nodered", "deletes a flow", "Delete the Daily Reports flow and deploy",
               "/", _delete_flow, _delete_check, kind="delete", before=_delete_before),
    CorpusTask("nodered", "answers what a flow is for from the info sidebar", "What is the Sensor Readings flow for?",
               "/", _answer, _answer_check, kind="answer"),
    CorpusTask("nodered", "drags an inject node from the palette onto the flow",
               "Add an inject node to the Order Processing flow and deploy",
               "/", _drag_inject, _drag_inject_check, kind="create", before=_injects),
    CorpusTask("nodered", "wires one node to another by dragging from its output port",
               "Wire Check stock to Remember order and deploy",
               "/", _wire, _wire_check, kind="edit", before=lambda app: _wires_of(app, "Check stock")),
    CorpusTask("nodered", "renames a node in the edit tray a double click opens",
               "Rename the Stock levels node to Stock report and deploy",
               "/", _rename_node, _rename_node_check, kind="edit",
               before=lambda app: app.nodes(name="Stock levels")[0]["id"]),
]
