"""Datasette (PyPI): a tool to explore and publish data — a database's tables and views, a table's
rows with facets, filters built from selects, column menus opened from a cog on each header, row
pages with the rows that refer to them, a SQL editor (CodeMirror) with its results, canned queries
— server-rendered HTML with small scripts, no login.

Seeded with a shop's SQLite file: products, customers, orders with foreign keys (so rows link to
the rows they refer to and back), a view, full-text search on products, and a canned query in
its metadata.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, wait_http
from .base import App, Page, click_until, first_missing, venv_dir, venv_install, venv_missing

NAME = "datasette"
REQUIREMENTS = ["datasette==0.65.2"]

PRODUCTS = [("Red Mug", 8.50, 40, "Kitchen", "A stoneware mug, dishwasher safe."),
            ("Blue Kettle", 24.00, 12, "Kitchen", "A stove-top kettle with a whistle."),
            ("Green Teapot", 31.25, 7, "Kitchen", "Cast iron teapot, 0.9 litres."),
            ("Oak Tray", 18.00, 22, "Dining", "Solid oak serving tray."),
            ("Linen Napkins", 12.75, 60, "Dining", "Set of four linen napkins."),
            ("Steel Whisk", 6.40, 35, "Kitchen", "Balloon whisk, 30 cm."),
            ("Glass Jar", 4.95, 80, "Pantry", "Clip-top storage jar."),
            ("Bread Bin", 29.90, 9, "Pantry", "Enamel bread bin with a wooden lid."),
            ("Salt Mill", 15.00, 18, "Dining", "Ceramic grinder salt mill."),
            ("Cast Iron Pan", 42.00, 5, "Kitchen", "Pre-seasoned 26 cm pan."),
            ("Tea Towel", 5.50, 70, "Kitchen", "Cotton tea towel, striped."),
            ("Butter Dish", 11.20, 14, "Dining", "Porcelain butter dish with a lid.")]
CUSTOMERS = [("Ann Lee", "ann@example.com", "Leeds"), ("Bob Stone", "bob@example.com", "York"),
             ("Cleo Park", "cleo@example.com", "Bath"), ("Dev Shah", "dev@example.com", "Hull"),
             ("Eve Moss", "eve@example.com", "Ely"), ("Finn Hart", "finn@example.com", "Leeds")]
STATUSES = ["new", "paid", "shipped", "cancelled"]


def _seed(db: Path) -> None:
    con = sqlite3.connect(db)
    with con:
        con.executescript("""
            CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL,
                                   stock INTEGER NOT NULL DEFAULT 0, category TEXT, description TEXT);
            CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, city TEXT);
            CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                                 product_id INTEGER REFERENCES products(id), quantity INTEGER,
                                 placed TEXT, status TEXT);
            CREATE INDEX orders_by_status ON orders(status);
            CREATE VIEW stock_value AS SELECT name, category, price * stock AS value FROM products;
            CREATE VIRTUAL TABLE products_fts USING fts5(name, description, content='products', content_rowid='id');
        """)
        con.executemany("INSERT INTO products (name, price, stock, category, description) VALUES (?, ?, ?, ?, ?)", PRODUCTS)
        con.executemany("INSERT INTO customers (name, email, city) VALUES (?, ?, ?)", CUSTOMERS)
        orders = [(1 + (i * 5) % len(CUSTOMERS), 1 + (i * 7) % len(PRODUCTS), 1 + i % 4,
                   f"2026-10-{1 + i % 28:02d}", STATUSES[(i * 3) % 4]) for i in range(64)]
        con.executemany("INSERT INTO orders (customer_id, product_id, quantity, placed, status) VALUES (?, ?, ?, ?, ?)", orders)
        con.execute("INSERT INTO products_fts (rowid, name, description) SELECT id, name, description FROM products")
    con.close()


METADATA = {
    "title": "Kitchen shop data",
    "description": "Products, customers and orders of a small kitchen shop.",
    "databases": {"shop": {"queries": {
        "low_stock": {"sql": "SELECT name, stock FROM products WHERE stock < :limit ORDER BY stock",
                      "title": "Products running low"}},
        "tables": {"products": {"facets": ["category"], "sortable_columns": ["name", "price", "stock"]},
                   "orders": {"facets": ["status"], "label_column": "placed"},
                   "customers": {"label_column": "name"}}}},
}


@dataclass
class Datasette:
    url: str
    db: Path
    user: str = ""
    password: str = ""

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/")  # no login: the data is published to whoever reaches it

    def pages(self) -> list[Page]:

        return [
            Page("index", "/", "list"),
            Page("database", "/shop", "view"),
            Page("products", "/shop/products", "grid"),
            Page("products-faceted", "/shop/products?category=Kitchen", "grid"),
            Page("products-sorted", "/shop/products?_sort_desc=price", "grid"),
            Page("products-search", "/shop/products?_search=kettle", "search"),
            Page("products-column-menu", "/shop/products", "dialog",
                 open=click_until("th[data-column=price] .dropdown-menu-icon, th[data-column=price] svg", ".dropdown-menu")),
            Page("products-filtered", "/shop/products?price__gt=20&stock__lt=15", "grid"),
            Page("orders", "/shop/orders", "grid"),
            Page("orders-by-customer", "/shop/orders?customer_id=2", "grid"),
            Page("orders-page-2", "/shop/orders?_next=50", "grid"),
            Page("orders-status-facet", "/shop/orders?status=paid&_facet=customer_id", "grid"),
            Page("order-row", "/shop/orders/7", "view"),
            Page("customer-row", "/shop/customers/2", "view"),
            Page("customers", "/shop/customers", "grid"),
            Page("view-stock-value", "/shop/stock_value", "grid"),
            Page("query-editor", "/shop?sql=select+name%2C+price+from+products+order+by+price+desc", "editor"),
            Page("query-error", "/shop?sql=select+nme+from+products", "editor"),
            Page("canned-query", "/shop/low_stock?limit=10", "form"),
            Page("canned-query-blank", "/shop/low_stock", "form"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[Datasette]:
    data.mkdir(parents=True, exist_ok=True)
    db = data / "shop.db"
    if not db.exists():
        _seed(db)
    meta = data / "metadata.json"
    meta.write_text(json.dumps(METADATA, indent=1))
    port = free_port()
    server = Process.start([str(venv_dir(NAME) / "bin" / "datasette"), "serve", str(db), "--host", "127.0.0.1",
                            "--port", str(port), "--metadata", str(meta), "--setting", "default_page_size", "50"],
                           data / "datasette.log")
    try:
        d = Datasette(url=f"http://127.0.0.1:{port}", db=db)
        wait_http(f"{d.url}/-/versions.json", server)
        yield d
    finally:
        server.stop()


APP = App(name=NAME, kind="data explorer", half="heldout",
          built_from="PyPI datasette 0.65.2 (server-rendered, CodeMirror SQL editor, SQLite)",
          missing=_missing, install=_install, start=_start, notes=["no login: the data is published on 127.0.0.1"])
