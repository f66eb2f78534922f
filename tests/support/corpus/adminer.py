"""Adminer (Debian's adminer package): a one-file PHP database manager — databases, tables, their
structure, rows as a grid to sort, filter, page through and edit, forms to insert rows and to create
or alter tables, a SQL command page, export, users and privileges, the process list — served by
PHP's built-in server and connected to a private MariaDB on a Unix socket in the data folder.

Seeded with a small shop's database `shop` (24 products, 16 customers, 32 orders with foreign keys to
both, a view, an index) and a small `blog` database, and three MariaDB accounts: `admin` (all
privileges, the one that logs in), `reporter` (reads `shop`) and `shop_app` (reads and writes `shop`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, apt_install, apt_missing

NAME = "adminer"
PACKAGES = ["adminer", "mariadb-server", "mariadb-client", "php-cli", "php-mysql"]
ADMINER_PHP = Path("/usr/share/adminer/adminer.php")
USER, PASSWORD = "admin", "heybro-adminer-pass-1"

# Debian's /etc/adminer/conf.php as it is shipped: no plugin but the one that keeps Adminer from
# asking adminer.org for a newer version.
_INDEX_PHP = """<?php
define('ADMINER_DIR', '/usr/share/adminer');

function adminer_object() {
    include_once ADMINER_DIR . "/plugins/plugin.php";
    include_once ADMINER_DIR . "/plugins/version-noverify.php";
    return new AdminerPlugin(array(new AdminerVersionNoverify()));
}

include ADMINER_DIR . "/adminer.php";
"""

PRODUCTS = [
    ("Red Mug", 8.50, 40, "Kitchen"), ("Blue Kettle", 24.00, 12, "Kitchen"),
    ("Green Teapot", 31.25, 7, "Kitchen"), ("Oak Tray", 18.00, 22, "Dining"),
    ("Linen Napkins", 12.75, 60, "Dining"), ("Steel Whisk", 6.40, 35, "Kitchen"),
    ("Glass Jar", 4.95, 80, "Pantry"), ("Bread Bin", 29.90, 9, "Pantry"),
    ("Salt Mill", 15.00, 18, "Dining"), ("Cast Iron Pan", 42.00, 5, "Kitchen"),
    ("Tea Towel", 5.50, 70, "Kitchen"), ("Butter Dish", 11.20, 14, "Dining"),
    ("Herb Planter", 19.95, 25, "Garden"), ("Watering Can", 22.50, 11, "Garden"),
    ("Pruning Shears", 16.80, 0, "Garden"), ("Bamboo Bath Mat", 27.00, 13, "Bath"),
    ("Cotton Towel Set", 34.90, 20, "Bath"), ("Soap Dish", 7.25, 45, "Bath"),
    ("Spice Rack", 26.40, 8, "Pantry"), ("Flour Canister", 13.60, 17, "Pantry"),
    ("Wine Glasses", 21.00, 30, "Dining"), ("Cheese Board", 23.75, 0, "Dining"),
    ("Garden Kneeler", 14.50, 19, "Garden"), ("Shower Caddy", 18.90, 16, "Bath"),
]
CUSTOMERS = [
    ("Ann Lee", "ann.lee@example.com", "Leeds", "2025-01-14"),
    ("Bob Stone", "bob.stone@example.com", "York", "2025-02-03"),
    ("Cleo Park", "cleo.park@example.com", "Bath", "2025-02-21"),
    ("Dev Shah", "dev.shah@example.com", "Hull", "2025-03-09"),
    ("Eve Moss", "eve.moss@example.com", "Ely", "2025-03-30"),
    ("Finn Hale", "finn.hale@example.com", "Derby", "2025-04-12"),
    ("Gina Ortiz", "gina.ortiz@example.com", "Leeds", "2025-04-28"),
    ("Hugo Brandt", "hugo.brandt@example.com", "Oxford", "2025-05-06"),
    ("Iris Novak", "iris.novak@example.com", "York", "2025-05-19"),
    ("Jack Reid", "jack.reid@example.com", "Bristol", "2025-06-02"),
    ("Kira Tanaka", "kira.tanaka@example.com", "Bath", "2025-06-17"),
    ("Liam Walsh", "liam.walsh@example.com", "Cork", "2025-07-01"),
    ("Maya Singh", "maya.singh@example.com", "Leeds", "2025-07-22"),
    ("Noah Fischer", "noah.fischer@example.com", "Hull", "2025-08-08"),
    ("Olga Petrova", "olga.petrova@example.com", "Derby", "2025-08-25"),
    ("Paul Dubois", "paul.dubois@example.com", "Oxford", "2025-09-11"),
]
_STATUSES = ["new", "paid", "shipped", "shipped", "paid", "cancelled", "shipped", "new"]
# (customer, product, quantity, placed, status): spread over customers, products and states.
ORDERS = [(1 + (i * 7) % 16, 1 + (i * 5) % 24, 1 + i % 4, f"2025-{9 + i // 12:02d}-{1 + (i * 2) % 28:02d}",
           _STATUSES[i % len(_STATUSES)]) for i in range(32)]
POSTS = [("Welcome to the shop blog", "Ann Lee", "published"), ("Caring for cast iron", "Bob Stone", "published"),
         ("Five herbs for a windowsill", "Cleo Park", "draft"), ("Autumn table ideas", "Ann Lee", "published"),
         ("Our new bath range", "Dev Shah", "draft")]


def _q(v: object) -> str:
    if isinstance(v, (int, float)):
        return str(v)
    return "'" + str(v).replace("\\", "\\\\").replace("'", "''") + "'"


def _values(rows: list[tuple[Any, ...]]) -> str:
    return ",\n".join("(" + ", ".join(_q(v) for v in r) + ")" for r in rows)


def _seed_sql() -> str:
    return f"""
CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE shop;
CREATE TABLE products (
  id INT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  price DECIMAL(8,2) NOT NULL,
  stock INT NOT NULL DEFAULT 0,
  category VARCHAR(40) NOT NULL,
  KEY products_category (category)
) ENGINE=InnoDB COMMENT='Everything the shop sells';
CREATE TABLE customers (
  id INT AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(120) NOT NULL UNIQUE,
  city VARCHAR(60),
  joined DATE NOT NULL
) ENGINE=InnoDB;
CREATE TABLE orders (
  id INT AUTO_INCREMENT PRIMARY KEY,
  customer_id INT NOT NULL,
  product_id INT NOT NULL,
  quantity INT NOT NULL DEFAULT 1,
  placed DATE NOT NULL,
  status ENUM('new','paid','shipped','cancelled') NOT NULL DEFAULT 'new',
  CONSTRAINT orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id),
  CONSTRAINT orders_product FOREIGN KEY (product_id) REFERENCES products (id),
  KEY orders_status (status)
) ENGINE=InnoDB;
INSERT INTO products (name, price, stock, category) VALUES {_values(PRODUCTS)};
INSERT INTO customers (name, email, city, joined) VALUES {_values(CUSTOMERS)};
INSERT INTO orders (customer_id, product_id, quantity, placed, status) VALUES {_values(ORDERS)};
CREATE VIEW order_totals AS
  SELECT o.id, c.name AS customer, p.name AS product, o.quantity, o.quantity * p.price AS total, o.status
  FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id;

CREATE DATABASE blog CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
USE blog;
CREATE TABLE posts (
  id INT AUTO_INCREMENT PRIMARY KEY,
  title VARCHAR(200) NOT NULL,
  author VARCHAR(100) NOT NULL,
  state ENUM('draft','published') NOT NULL DEFAULT 'draft',
  body TEXT
) ENGINE=InnoDB;
INSERT INTO posts (title, author, state) VALUES {_values(POSTS)};

CREATE USER '{USER}'@'localhost' IDENTIFIED BY '{PASSWORD}';
GRANT ALL PRIVILEGES ON *.* TO '{USER}'@'localhost' WITH GRANT OPTION;
CREATE USER 'reporter'@'localhost' IDENTIFIED BY 'reporter-pass-2';
GRANT SELECT ON shop.* TO 'reporter'@'localhost';
CREATE USER 'shop_app'@'localhost' IDENTIFIED BY 'shop-app-pass-3';
GRANT SELECT, INSERT, UPDATE, DELETE ON shop.* TO 'shop_app'@'localhost';
FLUSH PRIVILEGES;
"""


def _unescape(value: str) -> str:
    """A value as the mariadb client's batch mode prints it (\\n, \\t, \\\\ escaped)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m[1], m[1]), value)


def _mariadb(sock: Path, sql: str, database: str = "") -> str:
    return run(["mariadb", "--no-defaults", "-S", str(sock), "-u", "root",
                *(["-D", database] if database else []), "--batch", "--skip-column-names"], stdin=sql)


@contextmanager
def _mariadb_server(data: Path) -> Iterator[Path]:
    """A private MariaDB with real grant tables (Adminer's privileges pages read them), on a Unix
    socket in `data`, networking off; root has no password and is reached only through the socket."""
    datadir, sock = data / "mysql", data / "mysql.sock"
    fresh = not datadir.exists()
    sizes = ["--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M"]
    user = ["--user=root"] if os.geteuid() == 0 else []
    if fresh:
        run(["mariadb-install-db", "--no-defaults", f"--datadir={datadir}", "--skip-test-db",
             "--auth-root-authentication-method=normal", "--skip-name-resolve", *user, *sizes])
    server = Process.start(["/usr/sbin/mariadbd", "--no-defaults", f"--datadir={datadir}", f"--socket={sock}",
                            f"--pid-file={data / 'mysql.pid'}", "--skip-networking", "--skip-name-resolve",
                            "--innodb-flush-log-at-trx-commit=0", "--innodb-doublewrite=0", "--skip-log-bin",
                            f"--log-error={data / 'mysql.log'}", *user, *sizes], data / "mysql.out")
    server.log = data / "mysql.log"
    try:
        deadline = time.monotonic() + 30
        while not sock.exists():
            if server.proc.poll() is not None or time.monotonic() > deadline:
                raise server.failed("MariaDB did not start")
            time.sleep(0.05)
        if fresh:
            _mariadb(sock, _seed_sql())
        yield sock
    finally:
        server.stop()


@dataclass
class Adminer:
    url: str
    socket: Path
    user: str = USER
    password: str = PASSWORD

    def sql(self, query: str, database: str = "shop") -> list[list[str]]:
        """Rows of a query run as MariaDB's root, each a list of strings (NULL is "NULL")."""
        out = _mariadb(self.socket, query, database)
        return [[_unescape(v) for v in line.split("\t")] for line in out.splitlines()]

    def products(self) -> list[dict[str, str]]:
        cols = ["id", "name", "price", "stock", "category"]
        return [dict(zip(cols, r)) for r in self.sql(f"SELECT {', '.join(cols)} FROM products ORDER BY id")]

    def tables(self, database: str = "shop") -> list[str]:
        return [r[0] for r in self.sql("SHOW TABLES", database)]

    def users(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.sql("SELECT User, Host FROM mysql.user ORDER BY User", "mysql")]

    def login(self, page: Any) -> None:
        """Adminer's own login form (System: MySQL; the server field left empty means the local
        socket PHP is told of)."""
        page.goto(f"{self.url}/")
        page.fill("input[name='auth[username]']", self.user)
        page.fill("input[name='auth[password]']", self.password)
        with page.expect_navigation():
            page.click("input[type=submit][value=Login]")
        if page.locator("input[name='auth[password]']").count():
            raise RuntimeError(f"Adminer refused the login: {page.locator('.error').all_inner_texts()}")

    def pages(self) -> list[Page]:
        base = f"/?server=&username={self.user}"
        db = f"{base}&db=shop"

        def click(selector: str, wait: str | None = None) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(selector)
                if wait:
                    page.wait_for_selector(wait, state="visible", timeout=5000)
            return go

        def run_query(page: Any) -> None:
            # The textarea is hidden behind a contenteditable <pre> that highlights the SQL.
            page.click("pre.sqlarea")
            page.keyboard.type("SELECT category, COUNT(*) AS products, SUM(stock) AS in_stock\n"
                               "FROM products GROUP BY category ORDER BY in_stock DESC;")
            with page.expect_navigation():
                page.click("input[type=submit][value=Execute]")

        def search_all(page: Any) -> None:
            page.fill("input[type=search][name=query]", "Leeds")
            with page.expect_navigation():
                page.click("input[type=submit][name=search]")

        def edit_cell(page: Any) -> None:
            # Ctrl+click on a value turns the cell into a field (saved with the Modify button).
            page.click("table.checkable tbody tr:nth-child(5) td:nth-child(5)", modifiers=["Control"])
            page.wait_for_selector("table.checkable tbody tr:nth-child(5) td:nth-child(5) input, "
                                   "table.checkable tbody tr:nth-child(5) td:nth-child(5) textarea", timeout=5000)

        def tick_rows(page: Any) -> None:
            page.check("table.checkable tbody tr:nth-child(2) input[type=checkbox]")
            page.check("table.checkable tbody tr:nth-child(4) input[type=checkbox]")

        return [
            Page("databases", f"{base}", "list"),
            Page("shop-tables", db, "list"),
            Page("products-structure", f"{db}&table=products", "view"),
            Page("products-select", f"{db}&select=products", "grid"),
            Page("products-sorted", f"{db}&select=products&order%5B0%5D=price&desc%5B0%5D=1", "grid"),
            Page("products-filtered", f"{db}&select=products&where%5B0%5D%5Bcol%5D=category"
                 "&where%5B0%5D%5Bop%5D=%3D&where%5B0%5D%5Bval%5D=Kitchen", "grid"),
            Page("products-page2", f"{db}&select=products&limit=10&page=1", "grid"),
            Page("products-search-open", f"{db}&select=products", "form",
                 open=click("a[href='#fieldset-search']", "#fieldset-search")),
            Page("products-cell-edit", f"{db}&select=products", "grid", open=edit_cell),
            Page("products-rows-ticked", f"{db}&select=products", "grid", open=tick_rows),
            Page("product-edit", f"{db}&edit=products&where%5Bid%5D=3", "form"),
            Page("product-insert", f"{db}&edit=products", "form"),
            Page("orders-select", f"{db}&select=orders", "grid"),
            Page("order-edit", f"{db}&edit=orders&where%5Bid%5D=5", "form"),
            Page("customers-select", f"{db}&select=customers&order%5B0%5D=name", "grid"),
            Page("orders-structure", f"{db}&table=orders", "view"),
            Page("products-alter", f"{db}&create=products", "form"),
            Page("create-table", f"{db}&create=", "form"),
            Page("orders-foreign-key", f"{db}&foreign=orders&name=orders_customer", "form"),
            Page("products-indexes", f"{db}&indexes=products", "form"),
            Page("sql-command", f"{db}&sql=", "editor"),
            Page("sql-result", f"{db}&sql=", "grid", open=run_query),
            Page("search-tables", db, "search", open=search_all),
            Page("export", f"{db}&dump=", "form"),
            Page("schema", f"{db}&schema=", "view"),
            Page("privileges", f"{base}&privileges=", "list"),
            Page("user-edit", f"{base}&user=reporter&host=localhost", "form"),
            Page("process-list", f"{base}&processlist=", "grid"),
            Page("variables", f"{base}&variables=", "grid"),
            Page("create-database", f"{base}&database=", "form"),
        ]


def _missing() -> str | None:
    need = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(need)}" if need else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[Adminer]:
    with ExitStack() as stack:
        sock = stack.enter_context(_mariadb_server(data))
        www, tmp, sessions = data / "www", data / "tmp", data / "sessions"
        for d in (www, tmp, sessions):
            d.mkdir(parents=True, exist_ok=True)
        (www / "index.php").write_text(_INDEX_PHP)
        port = free_port()
        # PHP's own settings keep sessions and Adminer's key file in `data` and point mysqli's
        # "localhost" at this MariaDB's socket.
        ini = {"mysqli.default_socket": str(sock), "pdo_mysql.default_socket": str(sock),
               "session.save_path": str(sessions), "upload_tmp_dir": str(tmp), "sys_temp_dir": str(tmp),
               "sendmail_path": "/bin/true", "memory_limit": "256M"}
        server = Process.start(["php", *[a for k, v in ini.items() for a in ("-d", f"{k}={v}")],
                                "-S", f"127.0.0.1:{port}", "-t", str(www)], data / "php.log",
                               env={"PHP_CLI_SERVER_WORKERS": "4"})
        stack.callback(server.stop)
        running = Adminer(url=f"http://127.0.0.1:{port}", socket=sock)
        wait_http(f"{running.url}/", server)
        yield running


APP = App(name=NAME, kind="database admin", half="heldout",
          built_from="Debian adminer 4.8.1-1, mariadb-server 10.11, php-cli 8.2",
          missing=_missing, install=_install, start=_start)
