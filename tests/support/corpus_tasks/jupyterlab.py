"""Tasks on JupyterLab: make a folder, type a function into the file editor (CodeMirror 6), add a
line to a notebook cell found among the cells by its code (CodeMirror 6), delete a cell, delete a
file from the file browser, rename one from its context menu (a right click), and answer a total a cell printed — each checked in the work folder on
disk (the saved file or notebook)."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.jupyterlab import PRODUCTS, SALES, JupyterLab
from ..corpus_task import CorpusTask, done, map_line, one_subtask, verified
from ..scripted_llm import call, calls, find_id, find_ids

SAVED = 1.5  # seconds for the save to reach the disk after Ctrl+S


def _ready(text: str) -> dict[str, Any]:
    """The first step: JupyterLab draws itself by script after the page has loaded, and the first
    map can be empty; a model waits for what it came for."""
    return call("wait_for", text=text)


def _new_folder(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Create a folder named invoices"),
        "worker": [
            _ready("New Folder"),
            # New Folder makes "Untitled Folder" with its name's box open for typing.
            lambda b: call("click", element_id=find_id(b, 'button "New Folder"'), expect="text:Untitled Folder"),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Untitled Folder"'), "value": "invoices"}),
                            ("press", {"keys": "Enter", "element_id": find_id(b, 'textbox "Untitled Folder"'),
                                       "expect": "text:invoices"})),
            done("The folder invoices is created"),
        ],
        "verifier": verified("The file browser lists invoices"),
    }


def _top(app: JupyterLab) -> list[str]:
    return sorted(p.name for p in app.work.iterdir() if not p.name.startswith("."))


def _new_folder_check(app: JupyterLab, run: Any) -> None:
    assert (app.work / "invoices").is_dir()
    assert _top(app) == sorted([*run.before, "invoices"]), (run.before, _top(app))  # no Untitled Folder left


# What the user asks to add at the end of the script, as they would write it.
FUNCTION = ('\n\ndef count_orders(path: Path) -> int:\n'
            '    """The number of orders in a sales export."""\n'
            '    return len(list(csv.DictReader(path.open())))\n')


def _file_code(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add the function at the end of scripts/clean_sales.py and save"),
        "worker": [
            _ready("Cleans a sales export"),
            # The editor is the main area's textbox: the caret to the end of the file, then the code.
            lambda b: calls(("click", {"element_id": find_id(b, "textbox", within="main area content")}),
                            ("press", {"keys": "Control+End"})),
            lambda b: call("type", element_id=find_id(b, "textbox", within="main area content"), text=FUNCTION),
            lambda b: calls(("press", {"keys": "Control+s"}), ("wait", {"seconds": SAVED})),
            done("The function is at the end of clean_sales.py, saved"),
        ],
        "verifier": verified("The editor shows the function"),
    }


def _file_code_check(app: JupyterLab, run: Any) -> None:
    text = app.read("scripts/clean_sales.py")
    # What a person expects: the code as written, after the file's last line (the caret may be on
    # the empty line after it or at its end), its indentation its own — lines are pasted into the
    # editor, which would add its own indentation to every typed new line.
    assert text in (run.before + FUNCTION, run.before.rstrip("\n") + FUNCTION), text[-400:]


CHURN = "customer_churn.ipynb"
CELL_LINE = 'print(customers[0]["name"])'


def _cell_code(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Add the line to the cell that loads the customers and save"),
        "worker": [
            _ready("Customer churn"),
            # The cell is found among the cells by its code (its textbox's value).
            lambda b: calls(("click", {"element_id": find_id(b, "textbox", row="customers.csv")}),
                            ("press", {"keys": "Control+End"})),
            lambda b: call("type", element_id=find_id(b, "textbox", row="customers.csv"), text="\n" + CELL_LINE),
            lambda b: calls(("press", {"keys": "Control+s"}), ("wait", {"seconds": SAVED})),
            done("The line is added to the cell and the notebook saved"),
        ],
        "verifier": verified("The cell shows the new line"),
    }


def _churn_cells(app: JupyterLab) -> list[str]:
    return app.cell_sources(CHURN)


def _cell_code_check(app: JupyterLab, run: Any) -> None:
    cells = _churn_cells(app)
    # What a person typing these keys gets: the brackets and quotes the editor closes are typed over.
    assert cells[1] == run.before[1] + "\n" + CELL_LINE, cells[1]
    assert cells[:1] + cells[2:] == run.before[:1] + run.before[2:]  # the other cells untouched


SALES_NB = "sales_analysis.ipynb"


def _delete_cell(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete the cell rows[0] from the sales notebook and save"),
        "worker": [
            _ready("Q3 sales analysis"),
            # Clicking the cell's code makes it the active cell; the cell toolbar acts on it.
            lambda b: call("click", element_id=find_id(b, 'textbox "rows[0]"')),
            lambda b: call("click", element_id=find_id(b, 'button "Delete the cell"')),
            # JupyterLab asks first: "Are you sure you want to delete this cell?"
            lambda b: call("click", element_id=find_id(b, 'button "Delete"', within="Are you sure")),
            lambda b: calls(("press", {"keys": "Control+s"}), ("wait", {"seconds": SAVED})),
            done("The rows[0] cell is deleted and the notebook saved"),
        ],
        "verifier": verified("The notebook no longer has the rows[0] cell"),
    }


def _sales_cells(app: JupyterLab) -> list[str]:
    return app.cell_sources(SALES_NB)


def _delete_cell_check(app: JupyterLab, run: Any) -> None:
    cells = _sales_cells(app)
    assert "rows[0]" not in cells, cells
    assert cells == [c for c in run.before if c != "rows[0]"], cells  # that cell alone


def _delete_file(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete config.json"),
        "worker": [
            _ready("config.json"),
            # The listing's items wait at tabindex -1 but the current one (a roving tabindex): each
            # is a control in the map. A selected item is deleted with the Delete key; the server
            # moves it to the trash where it can (Send2Trash), and the confirming button says so.
            lambda b: call("click", element_id=find_id(b, '"config.json"', within="side panel content")),
            lambda b: call("press", keys="Delete", expect="text:Are you sure"),
            lambda b: call("click", element_id=(find_ids(b, 'button "Move to Trash"', within="Are you sure")
                                                 or find_ids(b, 'button "Delete"', within="Are you sure"))[0]),
            done("config.json is deleted"),
        ],
        "verifier": verified("The file browser no longer lists config.json"),
    }


def _delete_file_check(app: JupyterLab, run: Any) -> None:
    assert not (app.work / "config.json").exists()
    assert _top(app) == [n for n in run.before if n != "config.json"], (run.before, _top(app))


def _total(_: JupyterLab) -> dict[str, list[Any]]:
    def read_total(b: dict[str, Any]) -> dict[str, Any]:
        line = map_line(b, "Total revenue:")
        total = re.search(r"Total revenue: ([\d,.]+)", line)
        assert total, line
        return calls(("answer", {"text": f"The total revenue is {total.group(1)}."}),
                     ("mark_done", {"summary": "Read the total printed by the revenue cell"}))
    return {"scheduler": one_subtask("Read the total revenue in the sales notebook"), "worker": [_ready("Total revenue"), read_total],
            "verifier": verified("The notebook shows the total")}


def _total_check(_: JupyterLab, run: Any) -> None:
    total = sum(units * PRODUCTS[product] for _, _, _, product, units in SALES)
    assert f"{total:,.2f}" in (run.final.get("answer") or ""), (total, run.final)


def _rename(_: JupyterLab) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Rename the data folder to datasets"),
        "worker": [
            _ready("README.md"),
            # A person right-clicks the file and picks Rename from the file browser's own menu,
            # which the next map shows; the name then opens for typing in place.
            # (The listing's first item is the one the map gives an id: the others are plain text.)
            lambda b: call("right_click", element_id=find_id(b, "data", within="side panel content"),
                           expect="text:Rename"),
            lambda b: call("click", element_id=find_id(b, 'menuitem "Rename"')),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "data"'), "value": "datasets"}),
                            ("press", {"keys": "Enter", "element_id": find_id(b, 'textbox "data"'),
                                       "expect": "text:datasets"})),
            done("The data folder is renamed datasets"),
        ],
        "verifier": verified("The file browser lists datasets"),
    }


def _rename_check(app: JupyterLab, run: Any) -> None:
    assert (app.work / "datasets" / "sales.csv").is_file() and not (app.work / "data").exists(), _top(app)
    assert _top(app) == sorted(n if n != "data" else "datasets" for n in run.before), (run.before, _top(app))


TASKS = [
    CorpusTask("jupyterlab", "creates a folder and names it", "Create a new folder called invoices",
               "/lab/tree/?reset", _new_folder, _new_folder_check, kind="create", before=_top),
    CorpusTask("jupyterlab", "types a function into the file editor",
               "Add this function at the end of scripts/clean_sales.py and save it:" + FUNCTION,
               "/lab/tree/scripts/clean_sales.py?reset", _file_code, _file_code_check, kind="edit",
               before=lambda app: app.read("scripts/clean_sales.py")),
    CorpusTask("jupyterlab", "types a line into a notebook cell found by its code",
               f"In customer_churn.ipynb, add the line {CELL_LINE} at the end of the cell that loads the "
               "customers, and save", f"/lab/tree/{CHURN}?reset", _cell_code, _cell_code_check, kind="edit",
               before=_churn_cells),
    CorpusTask("jupyterlab", "deletes a notebook cell found by its code",
               "Delete the rows[0] cell from the sales analysis notebook and save it",
               f"/lab/tree/{SALES_NB}?reset", _delete_cell, _delete_cell_check, kind="delete", before=_sales_cells),
    CorpusTask("jupyterlab", "deletes a file from the file browser", "Delete config.json",
               "/lab/tree/?reset", _delete_file, _delete_file_check, kind="delete", before=_top),
    CorpusTask("jupyterlab", "answers a total a notebook cell printed",
               "What is the total revenue in the sales analysis notebook?",
               f"/lab/tree/{SALES_NB}?reset", _total, _total_check, kind="answer"),
    CorpusTask("jupyterlab", "renames a folder from the file browser's context menu",
               "Rename the data folder to datasets",
               "/lab/tree/?reset", _rename, _rename_check, kind="edit", before=_top),
]
