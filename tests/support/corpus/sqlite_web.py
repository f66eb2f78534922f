"""sqlite-web (PyPI): a database browser for one SQLite file — tables, their rows as a grid, forms to
insert, edit and delete rows, a SQL query page — behind a password, seeded with a small shop's
tables (products, customers, orders)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "sqlite_web"
REQUIREMENTS = ["sqlite-web==0.8.2"]
PASSWORD = "heybro-sqlite-pass-1"

PRODUCTS = [("Red Mug", 8.50, 40, "Kitchen"), ("Blue Kettle", 24.00, 12, "Kitchen"),
            ("Green Teapot", 31.25, 7, "Kitchen"), ("Oak Tray", 18.00, 22, "Dining"),
            ("Linen Napkins", 12.75, 60, "Dining"), ("Steel Whisk", 6.40, 35, "Kitchen"),
            ("Glass Jar", 4.95, 80, "Pantry"), ("Bread Bin", 29.90, 9, "Pantry"),
            ("Salt Mill", 15.00, 18, "Dining"), ("Cast Iron Pan", 42.00, 5, "Kitchen"),
            ("Tea Towel", 5.50, 70, "Kitchen"), ("Butter Dish", 11.20, 14, "Dining")]
CUSTOMERS = [("Ann Lee", "ann@example.com", "Leeds"), ("Bob Stone", "bob@example.com", "York"),
             ("Cleo Park", "cleo@example.com", "Bath"), ("Dev Shah", "dev@example.com", "Hull"),
             ("Eve Moss", "eve@example.com", "Ely")]
ORDERS = [(1, 2, 1, "2026-10-01", "shipped"), (2, 1, 4, "2026-10-03", "paid"),
          (3, 4, 2, "2026-10-05", "new"), (1, 10, 1, "2026-10-07", "new"),
          (5, 7, 6, "2026-10-09", "cancelled"), (4, 3, 1, "2026-10-12", "paid")]


def _seed(db: Path) -> None:
    con = sqlite3.connect(db)
    with con:
        con.executescript("""
            CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL,
                                   stock INTEGER NOT NULL DEFAULT 0, category TEXT);
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE,
                                    city TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                                 product_id INTEGER REFERENCES products(id), quantity INTEGER,
                                 placed TEXT, status TEXT);
            CREATE INDEX orders_by_status ON orders(status);
            CREATE VIEW stock_value AS SELECT name, price * stock AS value FROM products;
        """)
        con.executemany("INSERT INTO products (name, price, stock, category) VALUES (?, ?, ?, ?)", PRODUCTS)
        con.executemany("INSERT INTO customers (name, email, city) VALUES (?, ?, ?)", CUSTOMERS)
        con.executemany("INSERT INTO orders (customer_id, product_id, quantity, placed, status) "
                        "VALUES (?, ?, ?, ?, ?)", ORDERS)
    con.close()


@dataclass
class SqliteWeb:
    url: str
    db: Path
    user: str = ""
    password: str = PASSWORD

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(self.db, timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/login/")
        page.fill("input[name=password]", self.password)
        with page.expect_navigation():
            page.press("input[name=password]", "Enter")
        if "/login" in page.url:
            raise RuntimeError("sqlite-web refused the password")

    def pages(self) -> list[Page]:
        def follow(what: str, row: int):
            """The row's own link to a page (its address is a key token the app makes)."""
            def go(page: Any) -> None:
                with page.expect_navigation():
                    page.locator(f"table tbody tr:nth-child({row}) a[href*='/{what}/']").first.click()
            return go

        def toggle_menu(page: Any) -> None:
            page.click("text=Table")
            page.wait_for_selector(".dropdown-menu.show", timeout=5000)

        return [
            Page("index", "/", "list"),
            Page("products-structure", "/products/", "view"),
            Page("products-content", "/products/content/", "grid"),
            Page("products-content-sorted", "/products/content/?ordering=-price", "grid"),
            Page("products-content-page2", "/products/content/?page=2", "grid"),
            Page("products-insert", "/products/insert/", "form"),
            Page("products-update", "/products/content/", "form", open=follow("update", 1)),
            Page("products-delete", "/products/content/", "form", open=follow("delete", 3)),
            Page("products-row", "/products/content/", "view", open=follow("row", 2)),
            Page("customers-update", "/customers/content/", "form", open=follow("update", 2)),
            Page("new-table-menu", "/", "dialog", open=toggle_menu),
            Page("products-query", "/products/query/", "editor"),
            Page("products-query-result", "/products/query/?sql=SELECT+name%2C+price+FROM+products+WHERE+price+%3E+10",
                 "grid"),
            Page("products-add-column", "/products/add-column/", "form"),
            Page("products-add-index", "/products/add-index/", "form"),
            Page("products-export", "/products/export/", "form"),
            Page("products-import", "/products/import/", "form"),
            Page("customers-content", "/customers/content/", "grid"),
            Page("orders-content", "/orders/content/", "grid"),
            Page("orders-structure", "/orders/", "view"),
            Page("view-content", "/stock_value/content/", "grid"),
            Page("query", "/query/", "editor"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[SqliteWeb]:
    db = data / "shop.db"
    if not db.exists():
        _seed(db)
    port = free_port()
    server = Process.start([str(venv_dir(NAME) / "bin" / "sqlite_web"), str(db), "--host", "127.0.0.1",
                            "--port", str(port), "--no-browser", "--password", "--rows-per-page", "10"],
                           data / "sqlite_web.log", env={"SQLITE_WEB_PASSWORD": PASSWORD})
    try:
        running = SqliteWeb(url=f"http://127.0.0.1:{port}", db=db)
        wait_http(f"{running.url}/login/", server)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="database browser", half="tune", built_from="PyPI sqlite-web 0.8.2 (Flask)",
          missing=_missing, install=_install, start=_start)
