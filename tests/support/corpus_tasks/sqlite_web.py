"""Tasks on sqlite-web (the shop's database): insert a row, change one found by its name in the data
grid, delete one, and answer a question from the grid — each checked in the SQLite file."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.sqlite_web import SqliteWeb
from ..corpus_task import CorpusTask, done, id_before, map_line, one_subtask, verified
from ..scripted_llm import call, calls, find_id


def _insert(_: SqliteWeb) -> dict[str, list[Any]]:
    fields = {"name": "Copper Ladle", "price": "13.75", "stock": "16", "category": "Kitchen"}
    return {
        "scheduler": one_subtask("Insert the product row"),
        "worker": [
            # The stock field is off (it has a default) until its column's box beside it is ticked.
            lambda b: call("check", element_id=id_before(b, "checkbox", 'textbox "stock"')),
            # At most three actions a reply: two fields, two more, then Insert.
            lambda b: calls(*[("fill", {"element_id": find_id(b, f'textbox "{k}"', within="Insert row"), "value": fields[k]})
                              for k in ("name", "price")]),
            lambda b: calls(*[("fill", {"element_id": find_id(b, f'textbox "{k}"', within="Insert row"), "value": fields[k]})
                              for k in ("stock", "category")]),
            lambda b: call("click", element_id=find_id(b, 'button "Insert"'), expect="url:/content/"),
            done("The row is inserted"),
        ],
        "verifier": verified("The table lists Copper Ladle"),
    }


def _insert_check(app: SqliteWeb, _: Any) -> None:
    assert app.sql("SELECT name, price, stock, category FROM products WHERE name = 'Copper Ladle'") \
        == [("Copper Ladle", 13.75, 16, "Kitchen")]


def _edit(_: SqliteWeb) -> dict[str, list[Any]]:
    # The Edit link of the row of Blue Kettle, read off the grid's row line.
    return {
        "scheduler": one_subtask("Change the Blue Kettle's stock to 30"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "Edit"', row="Blue Kettle"), expect="url:/update/"),
            # Each field is off until the box beside it says to update that column.
            lambda b: call("check", element_id=id_before(b, "checkbox", 'textbox "stock"')),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "stock"'), "value": "30"}),
                            ("click", {"element_id": find_id(b, 'button "Update"')})),
            done("The stock is 30"),
        ],
        "verifier": verified("The row shows stock 30"),
    }


def _edit_check(app: SqliteWeb, _: Any) -> None:
    assert app.sql("SELECT stock FROM products WHERE name = 'Blue Kettle'") == [(30,)]
    assert app.sql("SELECT COUNT(*) FROM products WHERE stock = 30") == [(1,)]  # no other row touched


def _delete(_: SqliteWeb) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Delete the Bread Bin row"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "Delete"', row="Bread Bin"), expect="url:/delete/"),
            lambda b: call("click", element_id=find_id(b, 'button "Delete"'), expect="url:/content/"),
            done("Bread Bin is deleted"),
        ],
        "verifier": verified("The table no longer lists Bread Bin"),
    }


def _count(app: SqliteWeb) -> int:
    return int(app.sql("SELECT COUNT(*) FROM products")[0][0])


def _delete_check(app: SqliteWeb, run: Any) -> None:
    assert app.sql("SELECT COUNT(*) FROM products WHERE name = 'Bread Bin'") == [(0,)]
    assert _count(app) == run.before - 1, (run.before, _count(app))  # that row alone


def _answer(_: SqliteWeb) -> dict[str, list[Any]]:
    def read_price(b: dict[str, Any]) -> dict[str, Any]:
        # What a model reads: the row of Green Teapot, with the header of each cell.
        line = map_line(b, "Green Teapot")
        price = re.search(r"\bprice (\S+)", line)
        assert price, line
        return calls(("answer", {"text": f"The Green Teapot costs {price.group(1)}."}),
                     ("mark_done", {"summary": "Read the price in the products table"}))
    return {"scheduler": one_subtask("Read the Green Teapot's price"), "worker": [read_price],
            "verifier": verified("The table shows the price")}


def _answer_check(_: SqliteWeb, run: Any) -> None:
    assert "31.25" in (run.final.get("answer") or ""), run.final


TASKS = [
    CorpusTask("sqlite_web", "inserts a product", "Add a product Copper Ladle, 13.75, 16 in stock, category Kitchen",
               "/products/insert/", _insert, _insert_check, kind="create"),
    CorpusTask("sqlite_web", "changes a product's stock found by its name in the grid", "Set the Blue Kettle's stock to 30",
               "/products/content/", _edit, _edit_check, kind="edit"),
    CorpusTask("sqlite_web", "deletes a product found by its name in the grid", "Delete the Bread Bin product",
               "/products/content/", _delete, _delete_check, kind="delete", before=_count),
    CorpusTask("sqlite_web", "answers a price read from the grid", "What does the Green Teapot cost?",
               "/products/content/", _answer, _answer_check, kind="answer"),
]
