"""The classic Jupyter Notebook (Debian's notebook 6.4, with ipykernel): a file browser (tree, running
tab, action buttons shown when files are ticked), notebooks of CodeMirror 5 cells with Bootstrap 3
menus and modal dialogs, and a CodeMirror 5 text editor for other files — behind its password login.

The work folder is seeded with five notebooks (sales analysis with an HTML table, a getting-started
notebook of markdown with a table and a formula, a temperature log and a quarterly summary in
`reports/`, a scratch notebook with an error output), their outputs made by running their code as a
kernel does, signed as trusted; a 30-row sales CSV, a Python script, a README, notes, and `reports/`
and `archive/` subfolders. "Sales Analysis.ipynb" has a running kernel from the start (the Running
tab lists it). Every Jupyter folder (config, data, runtime, IPython) lies in the data folder;
terminals are off.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, apt_install, apt_missing

NAME = "notebook"
PACKAGES = ["jupyter-notebook", "python3-notebook", "python3-ipykernel"]
PYTHON = "/usr/bin/python3"  # Debian's, which has the notebook package
USER, PASSWORD = "", "heybro-jupyter-pass-1"
RUNNING = "Sales Analysis.ipynb"

_PRODUCTS = [("Red Mug", 8.50), ("Blue Kettle", 24.00), ("Oak Tray", 18.00), ("Glass Jar", 4.95),
             ("Cast Iron Pan", 42.00), ("Tea Towel", 5.50)]
_CUSTOMERS = [("Ann Lee", "North"), ("Bob Stone", "South"), ("Cleo Park", "West"), ("Dev Shah", "North"),
              ("Eve Moss", "East"), ("Finn Hart", "South")]


def _sales_csv() -> str:
    lines = ["date,product,customer,region,quantity,unit_price"]
    for i in range(30):
        product, price = _PRODUCTS[(i * 5 + i // 4) % len(_PRODUCTS)]
        customer, region = _CUSTOMERS[(i * 7 + 3) % len(_CUSTOMERS)]
        lines.append(f"2026-10-{i + 1:02d},{product},{customer},{region},{1 + (i * 3) % 5},{price:.2f}")
    return "\n".join(lines) + "\n"


_READINGS = "\n".join(["time,room,celsius"] + [
    f"2026-10-0{1 + i // 6} {8 + (i % 6) * 2:02d}:00,{'kitchen' if i % 2 == 0 else 'cellar'},"
    f"{(21.0 + (i % 5) * 0.7) if i % 2 == 0 else (12.0 + (i % 3) * 0.4):.1f}" for i in range(24)]) + "\n"

# path → cells: ("md", source) or ("code", source) or ("code-unrun", source).
NOTEBOOKS: dict[str, list[tuple[str, str]]] = {
    "Sales Analysis.ipynb": [
        ("md", "# Sales Analysis\n\nOrders from **October 2026**, read from `sales.csv`.\n\n"
               "- revenue per product\n- best customers\n- orders per region"),
        ("code", "import csv\nfrom collections import Counter, defaultdict\n\n"
                 "with open(\"sales.csv\") as f:\n    rows = list(csv.DictReader(f))\nlen(rows)"),
        ("code", "rows[0]"),
        ("md", "## Revenue per product"),
        ("code", "revenue = defaultdict(float)\nfor r in rows:\n"
                 "    revenue[r[\"product\"]] += int(r[\"quantity\"]) * float(r[\"unit_price\"])\n\n"
                 "for product, total in sorted(revenue.items(), key=lambda kv: -kv[1]):\n"
                 "    print(f\"{product:<15} £{total:8.2f}\")"),
        ("md", "## Best customers\n\nCustomers by money spent, as a table."),
        ("code", "from IPython.display import HTML\n\nspent = defaultdict(float)\nfor r in rows:\n"
                 "    spent[r[\"customer\"]] += int(r[\"quantity\"]) * float(r[\"unit_price\"])\n\n"
                 "table = \"<table><tr><th>Customer</th><th>Spent</th></tr>\"\n"
                 "for name, total in sorted(spent.items(), key=lambda kv: -kv[1]):\n"
                 "    table += f\"<tr><td>{name}</td><td>£{total:.2f}</td></tr>\"\n"
                 "HTML(table + \"</table>\")"),
        ("md", "## Orders per region"),
        ("code", "Counter(r[\"region\"] for r in rows).most_common()"),
        ("code-unrun", "# TODO: revenue by week\n"),
    ],
    "Getting Started.ipynb": [
        ("md", "# Getting Started\n\nWelcome to the team's notebooks. Each notebook mixes *notes* like this "
               "one with Python code cells.\n\n| Notebook | What it does |\n|---|---|\n"
               "| Sales Analysis | revenue and customers for October |\n"
               "| reports/Temperature Log | kitchen and cellar readings |\n"
               "| reports/Q3 Summary | the quarter in numbers |\n\n"
               "Press **Shift+Enter** to run a cell. See the "
               "[notebook documentation](https://jupyter-notebook.readthedocs.io/)."),
        ("md", "## A formula\n\nThe margin of a product is $m = \\frac{p - c}{p}$ for price $p$ and cost $c$."),
        ("code", "def margin(price, cost):\n    \"\"\"The share of the price that is profit.\"\"\"\n"
                 "    return round((price - cost) / price, 3)\n\nmargin(8.50, 3.10)"),
        ("code", "for name, price, cost in [(\"Red Mug\", 8.50, 3.10), (\"Oak Tray\", 18.00, 11.40),\n"
                 "                          (\"Blue Kettle\", 24.00, 15.75)]:\n"
                 "    print(name, margin(price, cost))"),
        ("md", "## Next steps\n\n1. Open *Sales Analysis*\n2. Run all cells (Cell ▸ Run All)\n"
               "3. Write your own analysis in a new notebook"),
    ],
    "Scratch.ipynb": [
        ("code", "prices = [8.5, 24.0, 18.0, 4.95]\nsum(prices) / len(prices)"),
        ("code", "stock = {\"Red Mug\": 40, \"Oak Tray\": 22}\nstock[\"Blue Kettle\"]"),
        ("code", "sorted(prices, reverse=True)"),
        ("md", "Remember to ask Bob about the kettle stock."),
    ],
    "reports/Temperature Log.ipynb": [
        ("md", "# Temperature Log\n\nReadings from the kitchen and the cellar, first week of October."),
        ("code", "import csv, statistics\n\nwith open(\"readings.csv\") as f:\n"
                 "    readings = list(csv.DictReader(f))\n\nrooms = sorted({r[\"room\"] for r in readings})\n"
                 "rooms"),
        ("code", "for room in rooms:\n    values = [float(r[\"celsius\"]) for r in readings if r[\"room\"] == room]\n"
                 "    print(f\"{room:8} mean {statistics.mean(values):5.2f}  min {min(values):5.1f}  "
                 "max {max(values):5.1f}\")"),
        ("md", "The cellar stays below **13 °C**: good for the cheese."),
    ],
    "reports/Q3 Summary.ipynb": [
        ("md", "# Q3 Summary\n\n* Revenue grew **8%** on the Red Mug line\n* The Blue Kettle launches in "
               "October\n* Two new customers in the West region"),
        ("code", "quarters = {\"Q1\": 12400, \"Q2\": 13950, \"Q3\": 15066}\n"
                 "growth = (quarters[\"Q3\"] - quarters[\"Q2\"]) / quarters[\"Q2\"]\nf\"{growth:.1%}\""),
    ],
}

FILES = {
    "sales.csv": _sales_csv(),
    "reports/readings.csv": _READINGS,
    "archive/orders-2025.csv": "date,product,quantity\n2025-12-01,Red Mug,3\n2025-12-02,Oak Tray,1\n",
    "cleanup.py": '''"""Removes sales rows with no quantity and writes sales-clean.csv."""

import csv
import sys


def clean(src: str, dst: str) -> int:
    kept = 0
    with open(src) as f, open(dst, "w", newline="") as out:
        reader = csv.DictReader(f)
        writer = csv.DictWriter(out, fieldnames=reader.fieldnames)
        writer.writeheader()
        for row in reader:
            if row["quantity"] and int(row["quantity"]) > 0:
                writer.writerow(row)
                kept += 1
    return kept


if __name__ == "__main__":
    print(clean(sys.argv[1] if len(sys.argv) > 1 else "sales.csv", "sales-clean.csv"), "rows kept")
''',
    "README.md": "# Shop notebooks\n\nAnalyses of the shop's sales. Data is in `sales.csv`; reports are in "
                 "`reports/`.\n\nAsk Ann Lee before changing `cleanup.py`.\n",
    "notes.txt": "Call Acme Ltd about the October delivery.\nBlue Kettle: 12 in stock.\nMeeting with Dev on Friday.\n",
}

# How long ago each was last changed, in days (the tree's Last Modified column and its sorting).
AGES = {"archive/orders-2025.csv": 60, "archive": 60, "README.md": 41, "Getting Started.ipynb": 30,
        "reports/Q3 Summary.ipynb": 25, "reports/readings.csv": 20, "reports/Temperature Log.ipynb": 19,
        "reports": 19, "cleanup.py": 12, "sales.csv": 9, "notes.txt": 3, "Sales Analysis.ipynb": 1,
        "Scratch.ipynb": 0.1, ".": 0.1}

# Runs with Debian's Python: builds the notebooks with nbformat, runs each code cell as a kernel would
# (stdout, the last expression's rich repr, errors), and signs them so they open trusted.
_SEED = r'''
import ast, contextlib, io, json, os, sys, traceback
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from nbformat.sign import NotebookNotary
from IPython.core.formatters import DisplayFormatter

spec = json.load(sys.stdin)
work = spec["work"]
fmt = DisplayFormatter()
notary = NotebookNotary(data_dir=spec["data_dir"])
for path, cells in spec["notebooks"].items():
    full = os.path.join(work, path)
    os.chdir(os.path.dirname(full))
    ns = {"__name__": "__main__"}
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python", "version": "%d.%d.%d" % sys.version_info[:3],
                                    "mimetype": "text/x-python", "file_extension": ".py",
                                    "codemirror_mode": {"name": "ipython", "version": 3},
                                    "pygments_lexer": "ipython3", "nbconvert_exporter": "python"}
    n = 0
    for kind, src in cells:
        if kind == "md":
            nb.cells.append(new_markdown_cell(src))
            continue
        cell = new_code_cell(src)
        nb.cells.append(cell)
        if kind == "code-unrun":
            continue
        n += 1
        cell.execution_count = n
        out = io.StringIO()
        name = "<cell %d>" % n
        tree = ast.parse(src)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(tree, name, "exec"), ns)
                value = eval(compile(ast.Expression(last.value), name, "eval"), ns) if last else None
        except Exception as e:
            if out.getvalue():
                cell.outputs.append(new_output("stream", name="stdout", text=out.getvalue()))
            # IPython's own layout and colours: the failing line of the cell with its context.
            ename, evalue = type(e).__name__, str(e)
            lineno = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == name][-1].lineno
            lines = src.splitlines()
            context = "\n".join(("\x1b[0;32m----> %d\x1b[0m " if i == lineno else "\x1b[1;32m%7d\x1b[0m ")
                                % i + lines[i - 1] for i in range(max(1, lineno - 2), lineno + 1))
            tb = ["\x1b[0;31m" + "-" * 75 + "\x1b[0m",
                  "\x1b[0;31m%s\x1b[0m%sTraceback (most recent call last)" % (ename, " " * max(1, 42 - len(ename))),
                  "Cell \x1b[0;32mIn [%d], line %d\x1b[0m\n%s\n" % (n, lineno, context),
                  "\x1b[0;31m%s\x1b[0m: %s" % (ename, evalue)]
            cell.outputs.append(new_output("error", ename=ename, evalue=evalue, traceback=tb))
            continue
        if out.getvalue():
            cell.outputs.append(new_output("stream", name="stdout", text=out.getvalue()))
        if value is not None:
            data, md = fmt.format(value)
            cell.outputs.append(new_output("execute_result", data=data, metadata=md, execution_count=n))
    notary.sign(nb)
    nbformat.write(nb, full)
print("ok")
'''

_CONFIG = """# Written by heybro's corpus: a local notebook server behind a password.
c.NotebookApp.ip = "127.0.0.1"
c.NotebookApp.open_browser = False
c.NotebookApp.password = {password!r}
c.NotebookApp.token = ""
c.NotebookApp.allow_root = True
c.NotebookApp.terminals_enabled = False
c.NotebookApp.nbserver_extensions = {{}}
c.NotebookApp.quit_button = True
c.NotebookApp.shutdown_no_activity_timeout = 0
"""


@dataclass
class Notebook:
    url: str
    work: Path
    user: str = USER
    password: str = PASSWORD
    _opener: urllib.request.OpenerDirector | None = field(default=None, repr=False)
    _jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar, repr=False)

    # --- state -------------------------------------------------------------------------------------

    def files(self, folder: str = "") -> list[str]:
        """Paths under the work folder (relative, sorted), as on disk."""
        base = self.work / folder
        return sorted(str(p.relative_to(self.work)) for p in base.rglob("*")
                      if ".ipynb_checkpoints" not in p.parts)

    def read(self, path: str) -> str:
        return (self.work / path).read_text()

    def notebook(self, path: str) -> dict[str, Any]:
        """A notebook as saved (nbformat JSON)."""
        return dict(json.loads(self.read(path)))

    def cells(self, path: str) -> list[tuple[str, str]]:
        """A saved notebook's cells: (cell_type, source)."""
        out = []
        for c in self.notebook(path)["cells"]:
            src = c["source"]
            out.append((c["cell_type"], "".join(src) if isinstance(src, list) else src))
        return out

    def _session(self) -> urllib.request.OpenerDirector:
        """Logged in as a person is (the login form sets the session cookie)."""
        if self._opener is None:
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self._jar))
            opener.open(f"{self.url}/login", timeout=10).read()
            body = urllib.parse.urlencode({"password": self.password, "_xsrf": self._xsrf()}).encode()
            opener.open(f"{self.url}/login", body, timeout=10).read()
            self._opener = opener
        return self._opener

    def _xsrf(self) -> str:
        return next((c.value for c in self._jar if c.name == "_xsrf"), "") or ""

    def api(self, path: str, method: str = "GET", body: Any = None) -> Any:
        """The REST API with the session cookie, e.g. api("/api/contents/reports"), api("/api/sessions")."""
        opener = self._session()
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                     headers={"X-XSRFToken": self._xsrf(), "Content-Type": "application/json"})
        with opener.open(req, timeout=30) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def contents(self, path: str = "") -> Any:
        """GET /api/contents/PATH: a folder's listing or a file/notebook with its content."""
        return self.api("/api/contents/" + urllib.parse.quote(path))

    def sessions(self) -> list[dict[str, Any]]:
        """Running notebooks (GET /api/sessions)."""
        return list(self.api("/api/sessions"))

    # --- browser -----------------------------------------------------------------------------------

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/login")
        page.fill("#password_input", self.password)
        with page.expect_navigation():
            page.click("#login_submit")
        if "/tree" not in page.url:
            raise RuntimeError(f"the notebook server's login ended on {page.url}")

    def pages(self) -> list[Page]:
        tree_ready = "#notebook_list .list_item .item_name"
        nb_ready = "#notebook-container .code_cell .CodeMirror"
        nb = "/notebooks/" + urllib.parse.quote(RUNNING)
        start = "/notebooks/" + urllib.parse.quote("Getting Started.ipynb")

        def kernel_idle(page: Any) -> None:
            page.wait_for_selector("#kernel_indicator_icon.kernel_idle_icon", timeout=60_000)
            # The "Kernel ready" notice fades out by itself.
            with contextlib.suppress(Exception):
                page.wait_for_selector("#notification_kernel", state="hidden", timeout=10_000)

        def tick(*names: str, then: Callable[[Any], None] | None = None) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                for name in names:
                    page.locator("#notebook_list .list_item", has=page.locator(f".item_name:text-is('{name}')")) \
                        .locator("input[type=checkbox]").check()
                page.wait_for_selector(".dynamic-buttons .delete-button:visible", timeout=10_000)
                if then:
                    then(page)
            return go

        def modal(button: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(button)
                page.wait_for_selector(".modal.in .modal-footer button", timeout=10_000)
                page.wait_for_timeout(400)  # the fade
            return go

        def menu(link: str, item: str | None = None, wait: str = ".modal.in .modal-footer button") \
                -> Callable[[Any], None]:
            def go(page: Any) -> None:
                kernel_idle(page)
                page.click(link)
                page.wait_for_selector(".dropdown.open .dropdown-menu", timeout=10_000)
                if item:
                    page.click(item)
                    page.wait_for_selector(wait, timeout=10_000)
                    page.wait_for_timeout(400)
            return go

        def edit_code(page: Any) -> None:
            kernel_idle(page)
            # The revenue cell: a click into its code puts the notebook in edit mode.
            page.locator("#notebook-container .code_cell").nth(2).locator(".CodeMirror-lines").click()
            page.wait_for_selector(".code_cell.selected .CodeMirror-focused", timeout=10_000)

        def edit_markdown(page: Any) -> None:
            kernel_idle(page)
            page.locator("#notebook-container .text_cell.rendered").nth(1).dblclick()
            page.wait_for_selector(".text_cell.unrendered .CodeMirror", timeout=10_000)

        def help_dialog(page: Any) -> None:
            kernel_idle(page)
            page.click("#notebook-container .text_cell.rendered >> nth=0")  # command mode, a cell selected
            page.keyboard.press("h")
            page.wait_for_selector(".modal.in .modal-footer button", timeout=10_000)
            page.wait_for_timeout(400)

        def palette(page: Any) -> None:
            kernel_idle(page)
            page.click("#notebook-container .text_cell.rendered >> nth=0")
            page.keyboard.press("Control+Shift+P")
            page.wait_for_selector(".modal.in input", timeout=10_000)
            page.wait_for_timeout(400)
            page.keyboard.type("restart")

        def sort_by_modified(page: Any) -> None:
            page.click("#last-modified")
            page.wait_for_timeout(500)

        def running_tab(page: Any) -> None:
            page.click("a[href='#running']")
            page.wait_for_selector("#running_list .list_item .item_name", timeout=10_000)

        def new_dropdown(page: Any) -> None:
            page.click("#new-dropdown-button")
            page.wait_for_selector("#new-menu:visible", timeout=10_000)

        def rename_notebook(page: Any) -> None:
            kernel_idle(page)
            modal("#notebook_name")(page)  # the notebook's name in the header opens it

        def editor_file_menu(page: Any) -> None:
            page.click("#menubar a.dropdown-toggle:text-is('File')")
            page.wait_for_selector(".dropdown.open .dropdown-menu", timeout=10_000)

        def help_menu(page: Any) -> None:
            menu("#menubar .nav > li:last-child > a.dropdown-toggle:text-is('Help')")(page)

        def about(page: Any) -> None:
            help_menu(page)
            page.click("#notebook_about")
            page.wait_for_selector(".modal.in .modal-footer button", timeout=10_000)
            page.wait_for_timeout(400)

        return [
            Page("tree", "/tree", "list", ready=tree_ready),
            Page("tree-reports", "/tree/reports", "list", ready=tree_ready),
            Page("tree-sorted-modified", "/tree", "list", ready=tree_ready, open=sort_by_modified),
            Page("tree-file-selected", "/tree", "list", ready=tree_ready, open=tick("sales.csv")),
            Page("tree-two-selected", "/tree", "list", ready=tree_ready, open=tick("notes.txt", "README.md")),
            Page("tree-new-dropdown", "/tree", "dialog", ready=tree_ready, open=new_dropdown),
            Page("tree-rename-dialog", "/tree", "dialog", ready=tree_ready,
                 open=tick("notes.txt", then=modal(".dynamic-buttons .rename-button"))),
            Page("tree-delete-confirm", "/tree", "dialog", ready=tree_ready,
                 open=tick("Scratch.ipynb", then=modal(".dynamic-buttons .delete-button"))),
            Page("tree-move-dialog", "/tree", "dialog", ready=tree_ready,
                 open=tick("cleanup.py", then=modal(".dynamic-buttons .move-button"))),
            Page("running", "/tree", "list", ready=tree_ready, open=running_tab),
            Page("notebook", nb, "editor", ready=nb_ready, open=kernel_idle),
            Page("notebook-markdown", start, "view", ready=nb_ready, open=kernel_idle),
            Page("notebook-code-edit", nb, "editor", ready=nb_ready, open=edit_code),
            Page("notebook-markdown-edit", start, "editor", ready=nb_ready, open=edit_markdown),
            Page("notebook-error-output", "/notebooks/Scratch.ipynb", "view", ready=nb_ready, open=kernel_idle),
            Page("notebook-subfolder", "/notebooks/reports/" + urllib.parse.quote("Temperature Log.ipynb"),
                 "view", ready=nb_ready, open=kernel_idle),
            Page("menu-file", nb, "dialog", ready=nb_ready, open=menu("#filelink")),
            Page("menu-edit", nb, "dialog", ready=nb_ready, open=menu("#editlink")),
            Page("menu-cell", nb, "dialog", ready=nb_ready, open=menu("#celllink")),
            Page("menu-kernel", nb, "dialog", ready=nb_ready, open=menu("#kernellink")),
            Page("menu-help", nb, "dialog", ready=nb_ready, open=help_menu),
            Page("rename-notebook-dialog", nb, "dialog", ready=nb_ready, open=rename_notebook),
            Page("kernel-restart-confirm", nb, "dialog", ready=nb_ready,
                 open=menu("#kernellink", "#restart_kernel > a")),
            Page("kernel-shutdown-confirm", nb, "dialog", ready=nb_ready,
                 open=menu("#kernellink", "#shutdown_kernel > a")),
            Page("notebook-metadata-dialog", nb, "dialog", ready=nb_ready,
                 open=menu("#editlink", "#edit_nb_metadata > a", wait=".modal.in .CodeMirror")),
            Page("keyboard-shortcuts-help", nb, "dialog", ready=nb_ready, open=help_dialog),
            Page("command-palette", nb, "dialog", ready=nb_ready, open=palette),
            Page("about-dialog", nb, "dialog", ready=nb_ready, open=about),
            Page("edit-python-file", "/edit/cleanup.py", "editor", ready="#texteditor-container .CodeMirror-code"),
            Page("edit-csv-file", "/edit/sales.csv", "editor", ready="#texteditor-container .CodeMirror-code"),
            Page("edit-file-menu", "/edit/README.md", "dialog", ready="#texteditor-container .CodeMirror-code",
                 open=editor_file_menu),
        ]


def _missing() -> str | None:
    need = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(need)}" if need else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[Notebook]:
    work = data / "work"
    jupyter = data / "jupyter"
    env = {"JUPYTER_CONFIG_DIR": str(jupyter / "config"), "JUPYTER_DATA_DIR": str(jupyter / "data"),
           "JUPYTER_RUNTIME_DIR": str(jupyter / "runtime"), "IPYTHONDIR": str(jupyter / "ipython"),
           "JUPYTER_PLATFORM_DIRS": "0", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
           # Debian's Python and its packages only, whatever environment the caller runs in.
           "PYTHONPATH": "", "PYTHONNOUSERSITE": "1"}
    for k in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        Path(env[k]).mkdir(parents=True, exist_ok=True)
    if not work.exists():
        for rel, text in FILES.items():
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            (work / rel).write_text(text)
        spec = {"work": str(work), "data_dir": env["JUPYTER_DATA_DIR"], "notebooks": NOTEBOOKS}
        run([PYTHON, "-c", _SEED], env=env, stdin=json.dumps(spec), cwd=work)
        now = time.time()
        for rel, days in AGES.items():
            os.utime(work / rel, (now - days * 86400, now - days * 86400))
    hashed = run([PYTHON, "-c", "import sys; from notebook.auth import passwd; print(passwd(sys.argv[1]))",
                  PASSWORD], env=env).strip()
    (jupyter / "config" / "jupyter_notebook_config.py").write_text(_CONFIG.format(password=hashed))
    port = free_port()
    server = Process.start(["/usr/bin/jupyter-notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
                            "--port-retries=0", f"--notebook-dir={work}"],
                           data / "notebook.log", env=env, cwd=work)
    try:
        running = Notebook(url=f"http://127.0.0.1:{port}", work=work)
        wait_http(f"{running.url}/login", server, timeout=60)
        # A notebook left running, as the Running tab shows it.
        running.api("/api/sessions", "POST", {"path": RUNNING, "type": "notebook", "name": RUNNING,
                                              "kernel": {"name": "python3"}})
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="notebook server (classic)", half="tune",
          built_from="Debian jupyter-notebook / python3-notebook 6.4.12, python3-ipykernel 6.17.0",
          missing=_missing, install=_install, start=_start)
