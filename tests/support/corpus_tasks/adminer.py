"""Tasks on Adminer (the shop's MariaDB database): insert a product, change a price found by the
product's name in the data grid, delete an order (Adminer asks "Are you sure?" in a confirm()), and
answer a question read off the grid — each checked in MariaDB."""

from __future__ import annotations

import json
import re
from typing import Any

from ..corpus.adminer import USER, Adminer
from ..corpus_task import CorpusTask, done, one_subtask, page_of, scrolled_to, verified
from ..scripted_llm import call, calls, find_id, user_text

_DB = f"/?server=&username={USER}&db=shop"
PRODUCTS = f"{_DB}&select=products"
ORDERS = f"{_DB}&select=orders"


def _insert(_: Adminer) -> dict[str, list[Any]]:
    fields = {"name": "Enamel Colander", "price": "17.40", "stock": "9", "category": "Kitchen"}

    def field(b: dict[str, Any], k: str) -> str:
        # Each field's row reads as a person reads the form: `stock [function select] [value field]`;
        # the stock column is a number, whose field the map lists as a spinbutton.
        return find_id(b, "spinbutton" if k == "stock" else "textbox", within="Insert: products", row=k)

    return {
        "scheduler": one_subtask("Insert the Enamel Colander product row"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "New item"'), expect="url:edit=products"),
            # At most three actions a reply: two fields, two more with Save.
            lambda b: calls(*[("fill", {"element_id": field(b, k), "value": fields[k]}) for k in ("name", "price")]),
            lambda b: calls(*[("fill", {"element_id": field(b, k), "value": fields[k]}) for k in ("stock", "category")],
                            ("click", {"element_id": find_id(b, 'button "Save"'), "expect": "text:has been inserted"})),
            done("The product row is inserted"),
        ],
        "verifier": verified("The grid says the item has been inserted"),
    }


def _insert_check(app: Adminer, _: Any) -> None:
    rows = [{k: p[k] for k in ("name", "price", "stock", "category")} for p in app.products() if p["name"] == "Enamel Colander"]
    assert rows == [{"name": "Enamel Colander", "price": "17.40", "stock": "9", "category": "Kitchen"}], rows


def _edit(_: Adminer) -> dict[str, list[Any]]:
    # The edit link of the row of Oak Tray, read off the grid's row line among 24 look-alike rows.
    return {
        "scheduler": one_subtask("Change the Oak Tray's price to 19.50"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "edit"', row="Oak Tray"), expect="url:edit=products"),
            lambda b: calls(("fill", {"element_id": find_id(b, "textbox", within="Edit: products", row="price"), "value": "19.50"}),
                            ("click", {"element_id": find_id(b, 'button "Save"'), "expect": "text:has been updated"})),
            done("The Oak Tray costs 19.50"),
        ],
        "verifier": verified("The grid shows Oak Tray at 19.50"),
    }


def _prices(app: Adminer) -> dict[str, str]:
    return {p["name"]: p["price"] for p in app.products()}


def _edit_check(app: Adminer, run: Any) -> None:
    now = _prices(app)
    assert now["Oak Tray"] == "19.50", now
    # Every other product keeps its price (the look-alike rows of the grid).
    others = {k: v for k, v in now.items() if k != "Oak Tray" and k in run.before}
    assert others == {k: v for k, v in run.before.items() if k != "Oak Tray" and k in now}, (run.before, now)


def _dialog_seen(b: dict[str, Any]) -> bool:
    """Whether the worker's prompt reports the confirm() the last click met (what a model reads)."""
    return "Are you sure?" in json.dumps(b["messages"])


def _delete(_: Adminer) -> dict[str, list[Any]]:
    def again(b: dict[str, Any]) -> dict[str, Any]:
        # The first click met Adminer's "Are you sure?" and heybro answered Cancel (its default);
        # the model reads that in the click's result and clicks again, accepting.
        assert _dialog_seen(b), "the worker was not told of the confirm dialog"
        return call("click", element_id=find_id(b, 'button "Delete"', within="Edit: orders"), dialog="accept",
                    expect="text:has been deleted")

    return {
        "scheduler": one_subtask("Delete order 14"),
        "worker": [
            # Order 14 is the grid row whose id cell is 14 (its customer and product cells are links).
            scrolled_to("· id 14 ·", lambda b: call("click", element_id=find_id(b, 'link "edit"', row="id 14"),
                                                    expect="url:edit=orders")),
            lambda b: call("click", element_id=find_id(b, 'button "Delete"', within="Edit: orders")),
            again,
            done("Order 14 is deleted"),
        ],
        "verifier": verified("The grid says the item has been deleted"),
    }


def _orders(app: Adminer) -> int:
    return int(app.sql("SELECT COUNT(*) FROM orders")[0][0])


def _delete_check(app: Adminer, run: Any) -> None:
    assert app.sql("SELECT COUNT(*) FROM orders WHERE id = 14") == [["0"]], "order 14 is still in the orders table"
    assert _orders(app) == run.before - 1, (run.before, _orders(app))  # that row alone


def _grid_rows(b: dict[str, Any]) -> dict[int, tuple[str, float, str]]:
    """The products grid's rows the page map shows: id → (name, price, category), each cell read
    by its column's header (`· id 4 · name Oak Tray · price 18.00 · …`)."""
    rows = {}
    for line in page_of(b).splitlines():
        cells = dict(re.findall(r"· (id|name|price|category) ([^·\[\]]+?)\s*(?=·|$)", line))
        if len(cells) == 4 and cells["id"].isdigit():
            rows[int(cells["id"])] = (cells["name"], float(cells["price"]), cells["category"])
    return rows


def _answer(_: Adminer) -> dict[str, list[Any]]:
    worker: list[Any] = []
    scrolls = 0

    def count(b: dict[str, Any]) -> dict[str, Any]:
        # What a model does: read the rows the map shows; a long grid's rows below the fold are
        # left out of the map, so note what was counted (memory), scroll, and read on until every
        # row of the result ("24 rows") has been seen.
        nonlocal scrolls
        rows = _grid_rows(b)
        total = re.search(r"checkbox (\d+) rows", page_of(b))
        noted = re.search(r"- kitchen_over_20: ids up to (\d+): (.*)", user_text(b))
        upto, names = (int(noted.group(1)), [n for n in noted.group(2).split(", ") if n]) if noted else (0, [])
        names += [n for i, (n, price, cat) in sorted(rows.items()) if i > upto and cat == "Kitchen" and price > 20]
        upto = max([upto, *rows])
        if total and upto < int(total.group(1)) and scrolls < 4:
            scrolls += 1
            worker.insert(0, count)  # this step again, on the next prompt
            return calls(("extract", {"name": "kitchen_over_20", "value": f"ids up to {upto}: {', '.join(names)}"}),
                         ("scroll", {"direction": "down"}))
        return calls(("answer", {"text": f"{len(names)} Kitchen products cost more than 20: {', '.join(names)}."}),
                     ("mark_done", {"summary": "Counted the Kitchen rows priced over 20 in the products grid"}))

    worker.append(count)
    return {"scheduler": one_subtask("Count the Kitchen products that cost more than 20"), "worker": worker,
            "verifier": verified("The grid lists every product with its price and category")}


def _answer_check(app: Adminer, run: Any) -> None:
    want = sorted(r[0] for r in app.sql("SELECT name FROM products WHERE category = 'Kitchen' AND price > 20"))
    answer = run.final.get("answer") or ""
    said = re.match(r"(\d+) Kitchen products cost more than 20: (.*)\.$", answer)
    assert said and int(said.group(1)) == len(want) and sorted(said.group(2).split(", ")) == want, (want, run.final)


TASKS = [
    CorpusTask("adminer", "inserts a product", "Add a product Enamel Colander, price 17.40, 9 in stock, category Kitchen",
               PRODUCTS, _insert, _insert_check, kind="create"),
    CorpusTask("adminer", "changes a product's price found by its name in the grid", "Change the price of the Oak Tray to 19.50",
               PRODUCTS, _edit, _edit_check, kind="edit", before=_prices),
    # heybro issue: the worker's prompt reports the Delete click as "ok, page changed" and never says
    # that a confirm("Are you sure?") opened and was dismissed, so a model cannot know to accept it.
    CorpusTask("adminer", "deletes an order, past Adminer's confirm dialog", "Delete order 14 from the orders table",
               ORDERS, _delete, _delete_check, kind="delete", before=_orders),
    CorpusTask("adminer", "answers a count read from the grid", "How many Kitchen products cost more than 20?",
               PRODUCTS, _answer, _answer_check, kind="answer"),
]
