"""pgAdmin 4 (PyPI): PostgreSQL's administration tool — an object tree without ARIA roles, docked
panels of tabs (dashboard with live charts, properties, SQL, statistics, dependencies), a query
tool (CodeMirror editor, toolbar of icon buttons, a data grid of results), and forms in dialogs,
all a React single-page app on a component library (MUI, react-select, rc-dock) — in server mode,
behind its own login, over a PostgreSQL server of Debian's.

Seeded with a web shop's database (customers, products, orders in a `sales` schema with an enum,
order lines, a trigger keeping totals, a view and a materialized view in `reporting`, functions, a
sequence), a warehouse database, and three roles with grants; the server registered for the admin
with no password to ask (the server trusts local connections).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, apt_install, apt_missing, first_missing, then, venv_dir, venv_install, venv_missing

NAME = "pgadmin"
VERSION = "9.18"
REQUIREMENTS = [f"pgadmin4=={VERSION}"]
PACKAGES = ["postgresql", "postgresql-client"]
# pgAdmin checks addresses with email-validator, which refuses reserved names (.test, .example).
EMAIL, PASSWORD = "admin@acmeshop.co.uk", "heybro-pgadmin-pass-1"
SERVER = "Acme production"

_SEED = r"""
CREATE ROLE app_reader LOGIN PASSWORD 'reader-pass-2026';
CREATE ROLE app_writer LOGIN PASSWORD 'writer-pass-2026';
CREATE ROLE analysts NOLOGIN;
GRANT analysts TO app_reader;
CREATE DATABASE shop OWNER pgadmin;
CREATE DATABASE warehouse OWNER pgadmin;
\connect shop
COMMENT ON DATABASE shop IS 'Orders, customers and the catalogue of the Acme web shop';
CREATE SCHEMA sales;
CREATE SCHEMA reporting;
CREATE TYPE sales.order_status AS ENUM ('new', 'paid', 'shipped', 'cancelled', 'refunded');
CREATE TABLE public.customers (
  id serial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  full_name text NOT NULL,
  city text,
  country char(2) NOT NULL DEFAULT 'GB',
  created_at timestamptz NOT NULL DEFAULT now());
COMMENT ON TABLE public.customers IS 'People who bought at least once';
COMMENT ON COLUMN public.customers.country IS 'ISO 3166-1 alpha-2 code';
CREATE TABLE public.products (
  id serial PRIMARY KEY,
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  price numeric(10,2) NOT NULL CHECK (price >= 0),
  stock integer NOT NULL DEFAULT 0,
  discontinued boolean NOT NULL DEFAULT false);
CREATE TABLE sales.orders (
  id serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES public.customers(id),
  status sales.order_status NOT NULL DEFAULT 'new',
  placed_at timestamptz NOT NULL DEFAULT now(),
  total numeric(10,2) NOT NULL DEFAULT 0);
CREATE INDEX orders_customer_idx ON sales.orders(customer_id);
CREATE INDEX orders_placed_idx ON sales.orders(placed_at);
CREATE TABLE sales.order_lines (
  order_id integer NOT NULL REFERENCES sales.orders(id) ON DELETE CASCADE,
  product_id integer NOT NULL REFERENCES public.products(id),
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10,2) NOT NULL,
  PRIMARY KEY (order_id, product_id));
INSERT INTO public.customers (email, full_name, city, country, created_at) VALUES
 ('ann.lee@example.com', 'Ann Lee', 'Leeds', 'GB', '2026-03-02'),
 ('bob.stone@example.com', 'Bob Stone', 'York', 'GB', '2026-03-15'),
 ('cleo.park@example.com', 'Cleo Park', 'Dublin', 'IE', '2026-04-01'),
 ('dev.shah@example.com', 'Dev Shah', 'Manchester', 'GB', '2026-05-20'),
 ('eve.moss@example.com', 'Eve Moss', 'Lyon', 'FR', '2026-06-11'),
 ('fay.wong@example.com', 'Fay Wong', 'Bristol', 'GB', '2026-07-04'),
 ('gus.hale@example.com', 'Gus Hale', 'Cork', 'IE', '2026-08-19'),
 ('hal.kerr@example.com', 'Hal Kerr', 'Glasgow', 'GB', '2026-09-30');
INSERT INTO public.products (sku, name, price, stock, discontinued) VALUES
 ('MUG-RED', 'Red Mug', 8.50, 120, false), ('KET-BLU', 'Blue Kettle', 34.00, 18, false),
 ('TRAY-OAK', 'Oak Tray', 22.00, 40, false), ('POT-TEA', 'Teapot, stoneware', 27.50, 9, false),
 ('CUP-SET', 'Espresso cup set', 19.90, 0, true), ('JAR-HONEY', 'Honey jar', 6.25, 75, false);
INSERT INTO sales.orders (customer_id, status, placed_at, total)
 SELECT 1 + (i % 8), (ARRAY['new','paid','shipped','shipped','cancelled','refunded','paid','shipped'])[1 + i % 8]::sales.order_status,
        timestamptz '2026-10-01' + i * interval '9 hours', 0
 FROM generate_series(1, 60) AS i;
INSERT INTO sales.order_lines SELECT o.id, 1 + (o.id * 7) % 6, 1 + o.id % 3, p.price
 FROM sales.orders o JOIN public.products p ON p.id = 1 + (o.id * 7) % 6;
UPDATE sales.orders o SET total = (SELECT sum(quantity * unit_price) FROM sales.order_lines l WHERE l.order_id = o.id);
CREATE VIEW reporting.monthly_revenue AS
 SELECT date_trunc('month', placed_at) AS month, count(*) AS orders, sum(total) AS revenue
 FROM sales.orders WHERE status IN ('paid', 'shipped') GROUP BY 1 ORDER BY 1;
CREATE MATERIALIZED VIEW reporting.top_products AS
 SELECT p.name, sum(l.quantity) AS sold FROM sales.order_lines l JOIN public.products p ON p.id = l.product_id
 GROUP BY p.name ORDER BY sold DESC;
CREATE FUNCTION sales.order_count(customer integer) RETURNS bigint LANGUAGE sql STABLE
 AS $$ SELECT count(*) FROM sales.orders WHERE customer_id = customer $$;
CREATE FUNCTION sales.touch_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sales.orders SET total = (SELECT coalesce(sum(quantity * unit_price), 0)
    FROM sales.order_lines WHERE order_id = NEW.order_id) WHERE id = NEW.order_id;
  RETURN NEW;
END $$;
CREATE TRIGGER order_lines_total AFTER INSERT OR UPDATE ON sales.order_lines
 FOR EACH ROW EXECUTE FUNCTION sales.touch_total();
CREATE SEQUENCE public.invoice_numbers START 1000;
GRANT USAGE ON SCHEMA sales, reporting TO analysts;
GRANT SELECT ON ALL TABLES IN SCHEMA sales, reporting TO analysts;
GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public, sales TO app_writer;
\connect warehouse
CREATE TABLE bins (code text PRIMARY KEY, aisle integer NOT NULL, capacity integer NOT NULL);
INSERT INTO bins SELECT 'A' || a || '-' || b, a, 50 FROM generate_series(1, 4) a, generate_series(1, 5) b;
"""

# pgAdmin's settings, read from the file CONFIG_DISTRO_FILE_PATH names: everything it keeps goes
# under the run's folder; no call out (upgrade check, gravatar); no master password to ask.
_CONFIG = """import os
HELP_PATH = '../../docs/en_US/_build/html/'
MINIFY_HTML = False
SERVER_MODE = True
DATA_DIR = os.environ['HEYBRO_PGADMIN_DATA']
LOG_FILE = os.path.join(DATA_DIR, 'pgadmin4.log')
SQLITE_PATH = os.path.join(DATA_DIR, 'pgadmin4.db')
SESSION_DB_PATH = os.path.join(DATA_DIR, 'sessions')
STORAGE_DIR = os.path.join(DATA_DIR, 'storage')
AZURE_CREDENTIAL_CACHE_DIR = os.path.join(DATA_DIR, 'azurecredentialcache')
KERBEROS_CCACHE_DIR = os.path.join(DATA_DIR, 'krbccache')
DEFAULT_SERVER = '127.0.0.1'
DEFAULT_SERVER_PORT = int(os.environ['HEYBRO_PGADMIN_PORT'])
UPGRADE_CHECK_ENABLED = False
SHOW_GRAVATAR_IMAGE = False
MASTER_PASSWORD_REQUIRED = False
ENABLE_SERVER_PASS_EXEC_CMD = True
CONSOLE_LOG_LEVEL = 40
"""


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise RuntimeError("no PostgreSQL server binary under /usr/lib/postgresql")
    return Path(found[-1]).parent


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: as root, the command runs as Debian's postgres user."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def _postgres(data: Path) -> Iterator[int]:
    """A PostgreSQL server of its own on 127.0.0.1 (trusting local connections, superuser
    `pgadmin`), its cluster in `data`; yields its port."""
    cluster, sockets = data / "cluster", data / "sockets"
    if os.geteuid() == 0:  # the postgres user must reach the folder (a temporary folder is 0700)
        data.parent.chmod(data.parent.stat().st_mode | 0o011)
    data.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
        shutil.chown(sockets, "postgres")
    fresh = not (cluster / "PG_VERSION").exists()
    bindir = _pg_bin()
    if fresh:
        run(_as_postgres([str(bindir / "initdb"), "-D", str(cluster), "-U", "pgadmin", "--auth=trust",
                          "-E", "UTF8", "--locale=C.UTF-8"]))
    port = free_port()
    server = Process.start(_as_postgres([str(bindir / "postgres"), "-D", str(cluster), "-k", str(sockets),
                                         "-p", str(port), "-c", "listen_addresses=127.0.0.1",
                                         "-c", "fsync=off", "-c", "shared_buffers=32MB"]),
                           data.parent / "postgres.log")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", str(port), "-U", "pgadmin"], timeout=10)
                break
            except RuntimeError:
                if time.monotonic() > deadline or server.proc.poll() is not None:
                    raise RuntimeError(f"PostgreSQL did not start (see {data.parent / 'postgres.log'})") from None
                time.sleep(0.3)
        if fresh:
            run(["psql", "-q", "-h", "127.0.0.1", "-p", str(port), "-U", "pgadmin", "-d", "postgres",
                 "-v", "ON_ERROR_STOP=1"], stdin=_SEED)
        yield port
    finally:
        # A fast shutdown: the default (smart) one waits for every client to leave.
        with contextlib.suppress(RuntimeError):
            run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(cluster), "stop", "-m", "fast", "-w"]), timeout=60)
        server.stop()


def _package_dir() -> Path:
    found = glob.glob(str(venv_dir(NAME) / "lib" / "python3*" / "site-packages" / "pgadmin4"))
    if not found:
        raise RuntimeError(f"pgAdmin is not installed in {venv_dir(NAME)}")
    return Path(found[0])


@dataclass
class PgAdmin:
    url: str
    port: int  # PostgreSQL's
    user: str = EMAIL
    password: str = PASSWORD

    def sql(self, query: str, database: str = "shop") -> str:
        """A query on the PostgreSQL server as its superuser; what psql prints (unaligned, no header)."""
        return run(["psql", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", str(self.port), "-U", "pgadmin",
                    "-d", database, "-c", query])

    # --- browser -----------------------------------------------------------------------------------

    def login(self, page: Any) -> None:
        page.goto(self.url + "/login")
        page.fill("input[name=email]", self.user)
        page.fill("input[name=password]", self.password)
        page.keyboard.press("Enter")
        page.wait_for_selector(".file-entry .file-name", timeout=30_000)

    def pages(self) -> list[Page]:
        ready = ".file-entry .file-name"
        db = ["Servers", SERVER, "Databases", "shop"]
        sales = [*db, "Schemas", "sales"]
        orders = [*sales, "Tables", "orders"]

        def tree(*names: str, expand_last: bool = False) -> Callable[[Any], None]:
            """Opens the object tree down to a node, then selects it. The tree remembers what was
            open (a node may show open with its children not yet loaded after a reload): a toggle
            is clicked until the child wanted shows."""
            def node(page: Any, depth: int, name: str) -> Any:
                return page.locator(f".file-entry[data-depth='{depth}']:has(.file-name:text-is('{name}'))").first

            def go(page: Any) -> None:
                node(page, 1, names[0]).wait_for(timeout=30_000)
                for i in range(len(names) - 1):
                    parent, child = node(page, i + 1, names[i]), node(page, i + 2, names[i + 1])
                    for _ in range(3):
                        if child.is_visible():
                            break
                        toggle = parent.locator(".directory-toggle")
                        if "open" in (toggle.get_attribute("class") or ""):
                            toggle.click()  # shown open with no children: closed, to open again
                            page.wait_for_timeout(300)
                        toggle.click()
                        with contextlib.suppress(Exception):
                            child.wait_for(timeout=10_000)
                    child.wait_for(timeout=5_000)
                last = node(page, len(names), names[-1])
                last.locator(".file-name").click()
                if expand_last and "directory-toggle open" not in last.inner_html():
                    last.locator(".directory-toggle").click()
                    page.locator(f".file-entry[data-depth='{len(names) + 1}']").first.wait_for(timeout=20_000)
                page.wait_for_timeout(800)
            return go

        def fresh(page: Any) -> None:
            """pgAdmin keeps each user's docked tabs and open tree nodes on the server: they are
            forgotten, and the page reloaded, so that each page starts as a first visit does."""
            # (pgAdmin asks "leave this page?" whatever its setting says, from its own window and
            # from its tools' frames; the question is taken away before it is asked — in every
            # window of the page, the event can no longer ask — and, should one still come, accepted.)
            page.evaluate("""async () => {
                const headers = {[pgAdmin.csrf_token_header]: pgAdmin.csrf_token};
                await fetch('/settings/layout', {method: 'DELETE', headers});
                await fetch('/settings/reset_tree_state', {method: 'DELETE', headers});
                const silence = (w) => {
                    try {
                        w.onbeforeunload = null;
                        const p = w.BeforeUnloadEvent.prototype;
                        Object.defineProperty(p, 'returnValue', {get: () => '', set: () => {}, configurable: true});
                        p.preventDefault = () => {};
                        w.addEventListener('beforeunload', (e) => e.stopImmediatePropagation(), true);
                    } catch (e) { /* a frame of another origin: not pgAdmin's */ }
                    for (let i = 0; i < w.frames.length; i++) silence(w.frames[i]);
                };
                silence(window);
            }""")

            def leave(dialog: Any) -> None:  # pgAdmin asks "leave this page?" whatever its setting says
                if dialog.type == "beforeunload":
                    with contextlib.suppress(Exception):
                        dialog.accept()
            page.on("dialog", leave)
            try:
                # (Waited for as far as the new page's start only: its load may wait on a request
                # pgAdmin keeps open; the application's own ready mark says when it is there.)
                page.reload(timeout=60_000, wait_until="commit")
            finally:
                page.remove_listener("dialog", leave)
            page.wait_for_selector(ready, timeout=60_000)
            page.wait_for_timeout(1000)

        def tab(label: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.locator(f".dock-tab:has-text('{label}')").first.click()
                page.wait_for_timeout(1200)
            return go

        def menu(top: str, *items: str, wait: str | None = None) -> Callable[[Any], None]:
            """A menu of the bar, then its items in turn (a submenu, then its item)."""
            def go(page: Any) -> None:
                page.locator(f"[data-label='{top}']").first.click()
                for it in items:
                    page.locator(f"[role=menuitem]:visible:has-text('{it}')").first.click()
                    page.wait_for_timeout(300)
                if wait:
                    page.wait_for_selector(wait, state="visible", timeout=20_000)
                page.wait_for_timeout(900)
            return go

        def right_click(name: str, depth: int) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.locator(f".file-entry[data-depth='{depth}'] .file-name:text-is('{name}')").first.click(button="right")
                page.wait_for_selector(".szh-menu--state-open", state="visible", timeout=10_000)
                page.wait_for_timeout(500)
            return go

        def dialog_tab(label: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.locator(f".dock-style-dialogs [role=tab]:has-text('{label}')").first.click()
                page.wait_for_timeout(700)
            return go

        def framed(page: Any, selector: str) -> Any:
            """The frame showing `selector` (the query tool is drawn in a frame of the page)."""
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                for f in page.frames:
                    with contextlib.suppress(Exception):
                        if f.locator(selector).first.is_visible():
                            return f
                page.wait_for_timeout(300)
            raise TimeoutError(f"nothing shows {selector!r} in any frame")

        def editor_shown(page: Any) -> None:
            framed(page, ".cm-content")
            page.wait_for_timeout(800)

        def query(sql: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                frame = framed(page, ".cm-content")
                frame.locator(".cm-content").first.click()
                page.keyboard.type(sql)
                page.keyboard.press("F5")
                framed(page, "[role=grid] [role=gridcell]")
                page.wait_for_timeout(800)
            return go

        dialog = ".dock-style-dialogs"  # a dialog is a floating panel of the dock
        query_tool = then(tree(*db), menu("Tools", "Query Tool"), editor_shown)
        return [
            Page("welcome", "/browser/", "view", ready=ready, open=then(fresh, tab("Dashboard"))),
            Page("server-dashboard", "/browser/", "view", ready=ready, open=then(fresh, tree("Servers", SERVER), tab("Dashboard"))),
            Page("database-properties", "/browser/", "view", ready=ready, open=then(fresh, tree(*db), tab("Properties"))),
            Page("schema-tree", "/browser/", "list", ready=ready, open=then(fresh, tree(*sales, expand_last=True), tab("Properties"))),
            Page("tables-list", "/browser/", "list", ready=ready, open=then(fresh, tree(*sales, "Tables"), tab("Properties"))),
            Page("table-properties", "/browser/", "view", ready=ready, open=then(fresh, tree(*orders), tab("Properties"))),
            Page("table-sql", "/browser/", "view", ready=ready, open=then(fresh, tree(*orders), tab("SQL"))),
            Page("table-statistics", "/browser/", "grid", ready=ready, open=then(fresh, tree(*orders), tab("Statistics"))),
            Page("table-dependencies", "/browser/", "grid", ready=ready, open=then(fresh, tree(*orders), tab("Dependencies"))),
            Page("table-columns", "/browser/", "list", ready=ready, open=then(fresh, tree(*orders, "Columns", expand_last=True), tab("Properties"))),
            Page("object-menu", "/browser/", "dialog", ready=ready, open=then(fresh, tree(*orders), menu("Object"))),
            Page("context-menu", "/browser/", "dialog", ready=ready, open=then(fresh, tree(*orders), right_click("orders", len(orders)))),
            Page("table-dialog", "/browser/", "form", ready=ready, open=then(fresh, tree(*orders), menu("Object", "Properties...", wait=dialog))),
            Page("table-dialog-columns", "/browser/", "form", ready=ready,
                 open=then(fresh, tree(*orders), menu("Object", "Properties...", wait=dialog), dialog_tab("Columns"))),
            Page("create-database", "/browser/", "form", ready=ready,
                 open=then(fresh, tree("Servers", SERVER, "Databases"), menu("Object", "Create", "Database...", wait=dialog))),
            Page("register-server", "/browser/", "form", ready=ready,
                 open=then(fresh, tab("Dashboard"), lambda p: p.get_by_text("Add New Server").click(),
                           lambda p: p.wait_for_selector(dialog, timeout=20_000), dialog_tab("Connection"))),
            Page("role-properties", "/browser/", "view", ready=ready,
                 open=then(fresh, tree("Servers", SERVER, "Login/Group Roles", "app_reader"), tab("Properties"))),
            Page("function-sql", "/browser/", "view", ready=ready,
                 open=then(fresh, tree(*sales, "Functions", "order_count(customer integer)"), tab("SQL"))),
            Page("query-tool", "/browser/", "editor", ready=ready, open=then(fresh, query_tool)),
            Page("query-results", "/browser/", "grid", ready=ready,
                 open=then(fresh, query_tool, query("SELECT id, customer_id, status, placed_at, total FROM sales.orders ORDER BY id"))),
            Page("view-data", "/browser/", "grid", ready=ready,
                 open=then(fresh, tree(*orders), menu("Object", "View/Edit Data", "All Rows"), lambda p: framed(p, "[role=grid] [role=gridcell]"))),
            Page("search-objects", "/browser/", "search", ready=ready,
                 open=then(fresh, tree(*db), menu("Tools", "Search Objects...", wait=dialog))),
            Page("preferences", "/browser/", "settings", ready=ready, open=then(fresh, menu("File", "Preferences", wait=".dock-tab:has-text('Preferences')"))),
            Page("about", "/browser/", "dialog", ready=ready, open=then(fresh, menu("Help", "About pgAdmin 4", wait="[role=dialog]"))),
        ]


def _missing() -> str | None:
    apt = apt_missing(PACKAGES)
    return first_missing(f"Debian packages {' '.join(apt)}" if apt else None, venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    apt_install(PACKAGES)
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[PgAdmin]:
    port = free_port()
    home = data / "pgadmin"
    fresh = not home.exists()
    home.mkdir(parents=True, exist_ok=True)
    config = data / "config_heybro.py"
    config.write_text(_CONFIG)
    env = {"CONFIG_DISTRO_FILE_PATH": str(config), "HEYBRO_PGADMIN_DATA": str(home),
           "HEYBRO_PGADMIN_PORT": str(port)}
    python, pkg = str(venv_dir(NAME) / "bin" / "python"), _package_dir()
    with _postgres(data / "postgres") as pg_port:
        if fresh:
            run([python, str(pkg / "setup.py"), "setup-db"],
                env={**env, "PGADMIN_SETUP_EMAIL": EMAIL, "PGADMIN_SETUP_PASSWORD": PASSWORD})
            servers = data / "servers.json"
            servers.write_text(
                '{"Servers": {"1": {"Name": "%s", "Group": "Servers", "Host": "127.0.0.1", "Port": %d, '
                '"MaintenanceDB": "postgres", "Username": "pgadmin", "SSLMode": "disable", '
                '"Comment": "Orders and catalogue of the web shop", "PasswordExecCommand": "echo trusted"}}}'
                % (SERVER, pg_port))
            run([python, str(pkg / "setup.py"), "load-servers", str(servers), "--user", EMAIL], env=env)
            # A reopened pgAdmin would bring back the tabs of the page before: each page starts clean.
            run([python, str(pkg / "setup.py"), "set-prefs", EMAIL, "misc:user_interface:save_app_state=false"], env=env)
        else:  # the server's port changes with each start
            run([python, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                 "c.execute('UPDATE server SET port = ?', (int(sys.argv[2]),)); c.commit()",
                 str(home / "pgadmin4.db"), str(pg_port)])
        server = Process.start([python, str(pkg / "pgAdmin4.py")], data / "pgadmin.log", env=env)
        try:
            running = PgAdmin(url=f"http://127.0.0.1:{port}", port=pg_port)
            wait_http(f"{running.url}/misc/ping", server, timeout=90)
            yield running
        finally:
            server.stop()


APP = App(name=NAME, kind="database administration (React single-page app on a component library)", half="heldout",
          built_from=f"PyPI pgadmin4 {VERSION} (Flask; React + MUI, rc-dock, CodeMirror 6) in server mode, Debian postgresql 15",
          missing=_missing, install=_install, start=_start, network_idle=False)
