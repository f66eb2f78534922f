"""Tasks on Syncthing's administration console: add a folder shared with a device, rename a remote
device found among the others, remove a folder (through its confirmation), and answer a folder's
path from its panel — each checked through Syncthing's REST API (and the folder on disk)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..corpus.syncthing import Syncthing
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified
from ..scripted_llm import call, calls, find_id, find_ids


def _when_shown(queue: list[Any], label: str, then: Callable[[dict[str, Any]], dict[str, Any]],
                tries: int = 10) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A worker step that, while the map does not list `label` yet, waits for it and comes back;
    then does `then`. The console fills its folders and devices in by script after the page has
    loaded ("(unknown device)" and no panels until then): a model waits for them."""
    left = [tries]

    def step(b: dict[str, Any]) -> dict[str, Any]:
        if find_ids(b, label) or left[0] == 0:
            return then(b)
        left[0] -= 1
        queue.insert(0, step)  # the same step answers the next prompt
        role, name = label.split(" ", 1)
        return call("wait_for", role=role, name=name.strip('"'), seconds=5)
    return step


def _labels(app: Syncthing) -> list[str]:
    return sorted(f["label"] for f in app.folders())


# --- create: a folder through the Add Folder dialog ---------------------------------------------------

def _add_folder(_: Syncthing) -> dict[str, list[Any]]:
    worker: list[Any] = []
    worker += [
        lambda b: call("click", element_id=find_id(b, 'button "Add Folder"')),
        # The dialog fades in once Syncthing has made the new folder's ID. The path follows the
        # label by itself (~/Garden Plans); sharing is on its own tab.
        _when_shown(worker, 'textbox "Folder Label"', lambda b: calls(
            ("fill", {"element_id": find_id(b, 'textbox "Folder Label"'), "value": "Garden Plans"}),
            ("click", {"element_id": find_id(b, 'link "Sharing"', within="Add Folder")}))),
        _when_shown(worker, 'checkbox "Ann\'s Laptop"', lambda b: calls(
            ("check", {"element_id": find_id(b, 'checkbox "Ann\'s Laptop"', within="Add Folder")}),
            ("click", {"element_id": find_id(b, 'button "Save"', within="Add Folder")}))),
        done("The Garden Plans folder is added and shared with Ann's Laptop"),
    ]
    return {"scheduler": one_subtask("Add the Garden Plans folder, shared with Ann's Laptop"), "worker": worker,
            "verifier": verified("The folder list shows Garden Plans")}


def _add_folder_check(app: Syncthing, run: Any) -> None:
    folder = app.folder("Garden Plans")
    assert folder is not None, _labels(app)
    assert folder["path"].endswith("/Garden Plans"), folder["path"]
    me, laptop = (app.device(n) for n in ("Home Desktop", "Ann's Laptop"))
    assert me is not None and laptop is not None
    assert sorted(d["deviceID"] for d in folder["devices"]) == sorted([me["deviceID"], laptop["deviceID"]]), folder["devices"]
    assert len(app.folders()) == run.before + 1, (run.before, _labels(app))


# --- edit: rename a remote device found among the others ----------------------------------------------

def _rename(_: Syncthing) -> dict[str, list[Any]]:
    worker: list[Any] = []
    worker += [
        # Each remote device is a collapsed panel; its Edit button shows once it is opened.
        _when_shown(worker, 'button "Kitchen Tablet"', lambda b: call(
            "click", element_id=find_id(b, 'button "Kitchen Tablet"', within="Remote Devices"))),
        # The panel slides open, and the dialog fades in: each is waited for when not shown yet.
        _when_shown(worker, 'button "Edit"', lambda b: call(
            "click", element_id=find_id(b, 'button "Edit"', within="Kitchen Tablet"))),
        _when_shown(worker, 'textbox "Device Name"', lambda b: calls(
            ("fill", {"element_id": find_id(b, 'textbox "Device Name"'), "value": "Kitchen iPad"}),
            ("click", {"element_id": find_id(b, 'button "Save"', within="Edit Device")}))),
        done("The device is now called Kitchen iPad"),
    ]
    return {"scheduler": one_subtask("Rename the Kitchen Tablet device to Kitchen iPad"), "worker": worker,
            "verifier": verified("The devices list shows Kitchen iPad")}


def _names(app: Syncthing) -> dict[str, str]:
    return {d["deviceID"]: d["name"] for d in app.devices()}


def _rename_check(app: Syncthing, run: Any) -> None:
    now = _names(app)
    tablet = next(i for i, n in run.before.items() if n == "Kitchen Tablet")
    assert now[tablet] == "Kitchen iPad", now
    assert {i: n for i, n in now.items() if i != tablet} == {i: n for i, n in run.before.items() if i != tablet}, now


# --- delete: remove a folder, confirmed ---------------------------------------------------------------

def _remove(_: Syncthing) -> dict[str, list[Any]]:
    worker: list[Any] = []
    worker += [
        _when_shown(worker, 'button "Old Notes"', lambda b: call(
            "click", element_id=find_id(b, 'button "Old Notes"', within="Folders"))),
        _when_shown(worker, 'button "Edit"', lambda b: call(
            "click", element_id=find_id(b, 'button "Edit"', within="Old Notes"))),
        _when_shown(worker, 'button "Remove"', lambda b: call(
            "click", element_id=find_id(b, 'button "Remove"', within="Edit Folder"))),
        # Syncthing asks first: "Are you sure you want to remove folder Old Notes?"
        _when_shown(worker, 'button "Yes"', lambda b: call(
            "click", element_id=find_id(b, 'button "Yes"', within="Remove Folder"))),
        done("The Old Notes folder is removed"),
    ]
    return {"scheduler": one_subtask("Remove the Old Notes folder"), "worker": worker,
            "verifier": verified("The folder list no longer shows Old Notes")}


def _remove_check(app: Syncthing, run: Any) -> None:
    assert app.folder("Old Notes") is None, _labels(app)
    assert len(app.folders()) == run.before - 1, (run.before, _labels(app))
    # Removing a folder from Syncthing leaves its files on disk.
    assert (app.folders_dir / "old-n0tes1" / "2019" / "ideas.txt").exists()


def _count(app: Syncthing) -> int:
    return len(app.folders())


# --- answer: a folder's path, read from its panel -------------------------------------------------------

def _answer(_: Syncthing) -> dict[str, list[Any]]:
    def read_path(b: dict[str, Any]) -> dict[str, Any]:
        # The opened panel's lines, under its button: "Folder Path | /…/rc5pe-0lmna".
        lines = page_of(b).splitlines()
        start = next(i for i, line in enumerate(lines) if "Recipes" in line and "button" in line)
        path = next(line.split("|", 1)[1].strip() for line in lines[start:] if line.startswith("Folder Path"))
        return calls(("answer", {"text": f"The Recipes folder is at {path}"}),
                     ("mark_done", {"summary": "Read the path in the Recipes folder's panel"}))
    worker: list[Any] = []
    worker += [
        _when_shown(worker, 'button "Recipes"', lambda b: call(
        "click", element_id=find_id(b, 'button "Recipes"', within="Folders"), expect="text:Folder Path")),
        read_path,
    ]
    return {"scheduler": one_subtask("Find the path of the Recipes folder"), "worker": worker,
            "verifier": verified("The Recipes panel shows its path")}


def _answer_check(app: Syncthing, run: Any) -> None:
    recipes = app.folder("Recipes")
    assert recipes is not None
    assert recipes["path"] in (run.final.get("answer") or ""), (recipes["path"], run.final)


TASKS = [
    CorpusTask("syncthing", "adds a folder shared with a device", "Add a folder called Garden Plans and share it with Ann's Laptop",
               "", _add_folder, _add_folder_check, kind="create", before=_count),
    CorpusTask("syncthing", "renames a remote device found among the devices", "Rename the Kitchen Tablet device to Kitchen iPad",
               "", _rename, _rename_check, kind="edit", before=_names),
    CorpusTask("syncthing", "removes a folder, confirming", "Remove the Old Notes folder from Syncthing",
               "", _remove, _remove_check, kind="delete", before=_count),
    CorpusTask("syncthing", "answers a folder's path from its panel", "Where is the Recipes folder stored on this computer?",
               "", _answer, _answer_check, kind="answer"),
]
