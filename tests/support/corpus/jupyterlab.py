"""JupyterLab (PyPI): the notebook IDE — a file browser, notebooks with a Python kernel, a code and
text editor, a CSV grid viewer, terminals, a settings editor — as a single-page app (Lumino widgets,
CodeMirror 6 editors) served by `jupyter lab` behind its own password page.

Seeded as a small analytics project: a work folder with an executed sales notebook (markdown
headings, code cells with text, HTML-table and SVG-chart outputs), a churn notebook not yet run,
a README, CSV data (30 sales orders, 12 customers), Python scripts and a reports subfolder; at start
a kernel is running for the sales notebook and a terminal is open. Every Jupyter folder (config,
data, runtime, IPython, workspaces, user settings, HOME) lies in the data folder; news and update
checks are off (server-side and in the user's settings) and the extension manager is read-only,
so nothing calls out.
"""

from __future__ import annotations

import json
import urllib.request
from pprint import pformat
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "jupyterlab"
VERSION = "4.6.6"
REQUIREMENTS = [f"jupyterlab=={VERSION}", "ipykernel==7.4.0"]
PASSWORD = "heybro-jupyter-pass-1"
TOKEN = "heybro-jupyter-token-0123456789abcdef"

REGIONS = ["North", "South", "East", "West"]
PRODUCTS = {"Red Mug": 8.50, "Blue Kettle": 24.00, "Green Teapot": 31.25, "Oak Tray": 18.00,
            "Linen Napkins": 12.75, "Cast Iron Pan": 42.00}
# order id, date, region, product, units (prices from PRODUCTS)
SALES = [(1000 + i, f"2026-{7 + i // 10:02d}-{1 + (i * 3) % 28:02d}", REGIONS[(i * 7) % 4],
          list(PRODUCTS)[(i * 5) % 6], 1 + (i * 11) % 9) for i in range(30)]
CUSTOMERS = [("C001", "Ann Lee", "Leeds", "annual", 34, "no"), ("C002", "Bob Stone", "York", "monthly", 5, "yes"),
             ("C003", "Cleo Park", "Bath", "annual", 27, "no"), ("C004", "Dev Shah", "Hull", "monthly", 11, "no"),
             ("C005", "Eve Moss", "Ely", "monthly", 2, "yes"), ("C006", "Fay Wong", "Leeds", "annual", 48, "no"),
             ("C007", "Gus Hale", "York", "monthly", 7, "yes"), ("C008", "Hal Kerr", "Bath", "monthly", 15, "no"),
             ("C009", "Ida Ross", "Hull", "annual", 22, "no"), ("C010", "Jon Bell", "Ely", "monthly", 3, "yes"),
             ("C011", "Kim Ford", "Leeds", "annual", 40, "no"), ("C012", "Lou Grant", "York", "monthly", 9, "no")]


def _md(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": text.strip("\n").splitlines(keepends=True)}


def _code(text: str, n: int | None = None, outputs: list[dict[str, Any]] | None = None,
          tags: list[str] | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": n, "metadata": {"tags": tags} if tags else {},
            "outputs": outputs or [], "source": text.strip("\n").splitlines(keepends=True)}


def _stream(text: str) -> dict[str, Any]:
    return {"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}


def _result(n: int, data: dict[str, str]) -> dict[str, Any]:
    return {"data": data, "execution_count": n, "metadata": {}, "output_type": "execute_result"}


def _notebook(cells: list[dict[str, Any]]) -> str:
    return json.dumps({"cells": cells, "metadata": {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                          "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                          "pygments_lexer": "ipython3", "version": "3.11.7"}},
        "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def _sales_notebook() -> str:
    # The outputs are what the code prints for the seeded CSV (worked out here the same way).
    revenue: dict[str, float] = defaultdict(float)
    by_product: dict[str, int] = defaultdict(int)
    for _, _, region, product, units in SALES:
        revenue[region] += units * PRODUCTS[product]
        by_product[product] += units
    total = sum(revenue.values())
    regions = sorted(revenue.items(), key=lambda kv: -kv[1])
    top = sorted(by_product.items(), key=lambda kv: -kv[1])[:3]
    table = "".join(f"<tr><td>{r}</td><td>{v:,.2f}</td><td>{v / total:.1%}</td></tr>" for r, v in regions)
    bars = "".join(f'<rect x="90" y="{10 + i * 30}" width="{v / regions[0][1] * 280:.0f}" height="20" fill="#1f77b4"/>'
                   f'<text x="80" y="{25 + i * 30}" text-anchor="end" font-size="12">{r}</text>'
                   for i, (r, v) in enumerate(regions))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="{20 + 30 * len(regions)}">{bars}</svg>'
    return _notebook([
        _md("# Q3 sales analysis\n\nOrders from July to September 2026, by region and product. "
            "Source: `data/sales.csv` (exported from the shop on 2026-10-02)."),
        _md("## Load the data"),
        _code('import csv\nfrom collections import defaultdict\n\nwith open("data/sales.csv") as f:\n'
              '    rows = list(csv.DictReader(f))\nprint(f"{len(rows)} orders loaded")', 1,
              [_stream(f"{len(SALES)} orders loaded\n")]),
        _code("rows[0]", 2, [_result(2, {"text/plain": pformat({
            "order_id": str(SALES[0][0]), "date": SALES[0][1], "region": SALES[0][2], "product": SALES[0][3],
            "units": str(SALES[0][4]), "unit_price": f"{PRODUCTS[SALES[0][3]]:.2f}",
            "revenue": f"{SALES[0][4] * PRODUCTS[SALES[0][3]]:.2f}"})})]),
        _md("## Revenue by region"),
        _code('revenue = defaultdict(float)\nfor r in rows:\n    revenue[r["region"]] += float(r["revenue"])\n'
              'total = sum(revenue.values())\nprint(f"Total revenue: {total:,.2f}")\n'
              'for region, value in sorted(revenue.items(), key=lambda kv: -kv[1]):\n'
              '    print(f"{region:6} {value:10,.2f}")', 3,
              [_stream(f"Total revenue: {total:,.2f}\n" + "".join(f"{r:6} {v:10,.2f}\n" for r, v in regions))]),
        _code('from IPython.display import HTML\n\nHTML("<table><tr><th>Region</th><th>Revenue</th><th>Share</th></tr>"\n'
              '     + "".join(f"<tr><td>{r}</td><td>{v:,.2f}</td><td>{v / total:.1%}</td></tr>"\n'
              '               for r, v in sorted(revenue.items(), key=lambda kv: -kv[1]))\n     + "</table>")', 4,
              [_result(4, {"text/html": "<table><tr><th>Region</th><th>Revenue</th><th>Share</th></tr>"
                           + table + "</table>", "text/plain": "<IPython.core.display.HTML object>"})]),
        _code('import sys\nfrom IPython.display import SVG\n\nsys.path.append("scripts")\n'
              'from charts import bar_chart\n\nSVG(bar_chart(revenue))', 5,
              [_result(5, {"image/svg+xml": svg, "text/plain": "<IPython.core.display.SVG object>"})],
              tags=["chart"]),
        _md("## Top products"),
        _code('units = defaultdict(int)\nfor r in rows:\n    units[r["product"]] += int(r["units"])\n'
              'sorted(units.items(), key=lambda kv: -kv[1])[:3]', 6,
              [_result(6, {"text/plain": repr(top)})]),
        _md("## Conclusions\n\n- **{0}** brings the most revenue ({1:.0%} of the total).\n"
            "- {2} is the best seller by units.\n- Next: compare with Q2 and check the West region's "
            "returns.".format(regions[0][0], regions[0][1] / total, top[0][0])),
    ])


def _churn_notebook() -> str:
    return _notebook([
        _md("# Customer churn\n\nWhich monthly customers are likely to cancel? Data: `data/customers.csv`."),
        _code('import csv\n\nwith open("data/customers.csv") as f:\n    customers = list(csv.DictReader(f))\n'
              'len(customers)'),
        _md("## Churn rate by plan"),
        _code('for plan in ("annual", "monthly"):\n    group = [c for c in customers if c["plan"] == plan]\n'
              '    churned = sum(c["churned"] == "yes" for c in group)\n'
              '    print(plan, f"{churned}/{len(group)}")'),
        _md("## Short tenure\n\nCustomers with fewer than 6 months are the ones to call first."),
        _code('[c["name"] for c in customers if int(c["tenure_months"]) < 6]'),
    ])


FILES: dict[str, str] = {
    "README.md": (
        "# Shop analytics\n\nNotebooks and scripts for the shop's monthly reporting.\n\n"
        "## Contents\n\n| Path | What |\n|---|---|\n"
        "| `sales_analysis.ipynb` | Q3 revenue by region and product |\n"
        "| `customer_churn.ipynb` | Churn by plan and tenure (draft) |\n"
        "| `data/` | CSV exports from the shop |\n| `scripts/` | Cleaning and chart helpers |\n"
        "| `reports/` | Written summaries |\n\n"
        "## How to refresh\n\n1. Export the orders to `data/sales.csv`.\n"
        "2. Run `python scripts/clean_sales.py data/sales.csv`.\n3. Re-run *sales_analysis.ipynb*.\n\n"
        "> Owner: Ann Lee (analytics). Questions to bob.stone@example.com.\n"),
    "data/sales.csv": "order_id,date,region,product,units,unit_price,revenue\n" + "".join(
        f"{o},{d},{r},{p},{u},{PRODUCTS[p]:.2f},{u * PRODUCTS[p]:.2f}\n" for o, d, r, p, u in SALES),
    "data/customers.csv": "customer_id,name,city,plan,tenure_months,churned\n" + "".join(
        ",".join(map(str, c)) + "\n" for c in CUSTOMERS),
    "scripts/clean_sales.py": (
        '"""Cleans a sales export: drops test orders, fixes region names, recomputes revenue."""\n\n'
        "import csv\nimport sys\nfrom pathlib import Path\n\nREGIONS = {\"north\": \"North\", \"south\": "
        "\"South\", \"east\": \"East\", \"west\": \"West\"}\n\n\n"
        "def clean(path: Path) -> int:\n    rows = list(csv.DictReader(path.open()))\n    kept = []\n"
        "    for row in rows:\n        if row[\"product\"].startswith(\"TEST\"):\n            continue\n"
        "        row[\"region\"] = REGIONS.get(row[\"region\"].lower(), row[\"region\"])\n"
        "        row[\"revenue\"] = f\"{int(row['units']) * float(row['unit_price']):.2f}\"\n"
        "        kept.append(row)\n    with path.open(\"w\", newline=\"\") as f:\n"
        "        writer = csv.DictWriter(f, fieldnames=list(rows[0]))\n        writer.writeheader()\n"
        "        writer.writerows(kept)\n    return len(rows) - len(kept)\n\n\n"
        "if __name__ == \"__main__\":\n    dropped = clean(Path(sys.argv[1]))\n"
        "    print(f\"dropped {dropped} test orders\")\n"),
    "scripts/charts.py": (
        '"""Small SVG charts for notebooks (no plotting library needed)."""\n\n\n'
        "def bar_chart(values: dict[str, float], width: int = 280) -> str:\n"
        "    top = max(values.values())\n    bars = []\n"
        "    for i, (name, value) in enumerate(sorted(values.items(), key=lambda kv: -kv[1])):\n"
        "        bars.append(f'<rect x=\"90\" y=\"{10 + i * 30}\" width=\"{value / top * width:.0f}\" height=\"20\"'\n"
        "                    f' fill=\"#1f77b4\"/><text x=\"80\" y=\"{25 + i * 30}\" text-anchor=\"end\"'\n"
        "                    f' font-size=\"12\">{name}</text>')\n"
        "    return f'<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"{20 + 30 * len(values)}\">'"
        " + ''.join(bars) + '</svg>'\n"),
    "reports/q3_summary.md": (
        "# Q3 summary\n\nRevenue grew in the North and East; the West fell behind after the kettle recall.\n\n"
        "- Best seller: Red Mug\n- Largest order: 9 x Cast Iron Pan\n- Action: restock Oak Tray before November\n"),
    "reports/meeting_notes.txt": (
        "2026-10-06 analytics sync\n- Ann: Q3 notebook done, numbers checked against finance.\n"
        "- Bob: churn notebook needs the October export.\n- Cleo: dashboards move to the new server next week.\n"),
    "reports/q2/q2_summary.md": "# Q2 summary\n\nFlat quarter; South up 4%, the rest unchanged.\n",
    "config.json": json.dumps({"shop": "Corner Kitchen", "currency": "GBP", "fiscal_year_start": "04-01",
                               "regions": REGIONS}, indent=2) + "\n",
}


def _seed(work: Path) -> None:
    for rel, text in {**FILES, "sales_analysis.ipynb": _sales_notebook(),
                      "customer_churn.ipynb": _churn_notebook()}.items():
        p = work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _user_settings(folder: Path) -> None:
    """The person's own settings as JupyterLab saves them: never fetch news or check for updates
    (the first-run "get official Jupyter news?" question would call out), and the extension
    manager's disclaimer already read."""
    for plugin, values in (("@jupyterlab/apputils-extension/notification",
                            {"fetchNews": "false", "checkForUpdates": False}),
                           ("@jupyterlab/extensionmanager-extension/plugin", {"disclaimed": True})):
        p = folder / f"{plugin}.jupyterlab-settings"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(values, indent=4) + "\n")


@dataclass
class JupyterLab:
    url: str
    work: Path
    token: str = TOKEN
    user: str = ""
    password: str = PASSWORD

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Jupyter's REST API with the token, e.g. api("GET", "/api/contents/reports")."""
        req = urllib.request.Request(self.url + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def contents(self, path: str = "") -> Any:
        """A file or folder through /api/contents (a folder's `content` lists its entries)."""
        return self.api("GET", f"/api/contents/{urllib.request.quote(path)}")

    def sessions(self) -> list[dict[str, Any]]:
        """Open notebook/console sessions with their kernels (/api/sessions)."""
        return list(self.api("GET", "/api/sessions"))

    def kernels(self) -> list[dict[str, Any]]:
        return list(self.api("GET", "/api/kernels"))

    def terminals(self) -> list[dict[str, Any]]:
        return list(self.api("GET", "/api/terminals"))

    def files(self) -> list[str]:
        """Every file under the work folder, as paths relative to it."""
        return sorted(str(p.relative_to(self.work)) for p in self.work.rglob("*")
                      if p.is_file() and ".ipynb_checkpoints" not in p.parts)

    def read(self, path: str) -> str:
        return (self.work / path).read_text()

    def notebook(self, path: str) -> dict[str, Any]:
        """A notebook as saved on disk (nbformat JSON)."""
        return dict(json.loads(self.read(path)))

    def cell_sources(self, path: str) -> list[str]:
        return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in self.notebook(path)["cells"]]

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/login?next=%2Flab")
        page.fill("input[name=password]", self.password)
        with page.expect_navigation():
            page.click("#login_submit")
        page.wait_for_selector("#jp-main-dock-panel", timeout=60_000)
        if "/login" in page.url:
            raise RuntimeError("JupyterLab refused the password")

    def pages(self) -> list[Page]:
        nb = "/lab/tree/sales_analysis.ipynb?reset"
        nb_ready = ".jp-Notebook .jp-OutputArea-output"
        fb_item = ".jp-DirListing-item[title*='sales_analysis.ipynb']"

        def steps(*actions: tuple[str, str]) -> Callable[[Any], None]:
            """Clicks, right-clicks, double-clicks or key presses, in order."""
            def go(page: Any) -> None:
                for how, what in actions:
                    if how == "key":
                        page.keyboard.press(what)
                    elif how == "wait":
                        page.wait_for_selector(what, timeout=10_000)
                    else:
                        loc = page.locator(what).first
                        {"click": loc.click, "dblclick": loc.dblclick,
                         "right": lambda: loc.click(button="right")}[how]()
                    page.wait_for_timeout(300)
            return go

        def menu(name: str) -> tuple[str, str]:
            return ("click", f".lm-MenuBar-item:has-text('{name}')")

        def item(label: str) -> tuple[str, str]:
            return ("click", f".lm-Menu-item:visible:has-text('{label}')")

        def tab(data_id: str) -> tuple[str, str]:
            return ("click", f".jp-SideBar li[data-id='{data_id}']")

        def file_item(name: str) -> str:
            return f".jp-DirListing-item[title^='Name: {name}']"

        return [
            Page("launcher", "/lab?reset", "view", ready=".jp-Launcher-content"),
            Page("file-browser", "/lab/tree/reports?reset", "list", ready=file_item("q3_summary.md")),
            Page("file-context-menu", "/lab?reset", "dialog", ready=fb_item,
                 open=steps(("right", file_item("customer_churn.ipynb")))),
            Page("notebook", nb, "editor", ready=nb_ready),
            Page("notebook-cell-editing", nb, "editor", ready=nb_ready,
                 open=steps(("click", ".jp-CodeCell:nth-child(6) .cm-content"))),
            Page("notebook-markdown-editing", nb, "editor", ready=nb_ready,
                 open=steps(("dblclick", ".jp-MarkdownCell:last-child .jp-RenderedMarkdown"))),
            Page("notebook-not-run", "/lab/tree/customer_churn.ipynb?reset", "editor", ready=".jp-Notebook .jp-Cell"),
            Page("notebook-find", nb, "search", ready=nb_ready,
                 open=steps(("click", ".jp-Notebook .jp-Cell:nth-child(3)"), ("key", "Control+f"),
                            ("wait", ".jp-DocumentSearch-overlay"))),
            Page("notebook-toc", nb, "view", ready=nb_ready, open=steps(tab("table-of-contents"))),
            Page("notebook-property-inspector", nb, "form", ready=nb_ready,
                 open=steps(("click", ".jp-Notebook .jp-Cell:nth-child(7)"), tab("jp-property-inspector"))),
            Page("python-file", "/lab/tree/scripts/clean_sales.py?reset", "editor", ready=".jp-FileEditor .cm-content"),
            Page("csv-viewer", "/lab/tree/data/sales.csv?reset", "grid", ready=".jp-CSVViewer .lm-DataGrid"),
            Page("markdown-file", "/lab/tree/README.md?reset", "editor", ready=".jp-FileEditor .cm-content"),
            Page("markdown-preview", "/lab?reset", "view", ready=fb_item,
                 open=steps(("right", file_item("README.md")), item("Open With"), item("Markdown Preview"),
                            ("wait", ".jp-RenderedMarkdown h1"))),
            Page("settings-editor", "/lab?reset", "settings", ready=fb_item,
                 open=steps(menu("Settings"), item("Settings Editor"), ("wait", ".jp-SettingsPanel"))),
            Page("settings-json", "/lab?reset", "editor", ready=fb_item,
                 open=steps(menu("Settings"), item("Settings Editor"), ("wait", ".jp-SettingsPanel"),
                            ("click", "text=JSON Settings Editor"),
                            # (It opens on no plugin: a person picks one in its list.)
                            ("click", ".jp-PluginList-entry:visible:has-text('Cell Toolbar')"),
                            ("wait", ".jp-SettingsRawEditor"))),
            Page("command-palette", "/lab?reset", "search", ready=fb_item,
                 open=steps(("key", "Control+Shift+c"), ("wait", ".jp-ModalCommandPalette"))),
            Page("file-menu", "/lab?reset", "dialog", ready=fb_item, open=steps(menu("File"))),
            Page("edit-menu", nb, "dialog", ready=nb_ready, open=steps(menu("Edit"))),
            Page("kernel-menu", nb, "dialog", ready=nb_ready, open=steps(menu("Kernel"))),
            Page("rename-dialog", nb, "dialog", ready=nb_ready,
                 open=steps(menu("File"), item("Rename Notebook"), ("wait", ".jp-Dialog"))),
            Page("delete-confirm", "/lab?reset", "dialog", ready=fb_item,
                 open=steps(("right", file_item("config.json")), item("Move to Trash"), ("wait", ".jp-Dialog"))),
            Page("change-kernel-dialog", nb, "dialog", ready=nb_ready,
                 open=steps(menu("Kernel"), item("Change Kernel"), ("wait", ".jp-Dialog"))),
            Page("running-panel", "/lab?reset", "list", ready=fb_item, open=steps(tab("jp-running-sessions"))),
            Page("extension-manager", "/lab?reset", "list", ready=fb_item,
                 open=steps(tab("extensionmanager.main-view"))),
            # (JupyterLab has no address for a terminal: a person opens one from the launcher.)
            Page("terminal", "/lab?reset", "editor", ready=".jp-Launcher-content",
                 open=steps(("click", ".jp-LauncherCard[title*='erminal']"), ("wait", ".jp-Terminal .xterm"))),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[JupyterLab]:
    venv = venv_dir(NAME)
    jup = data / "jupyter"
    work = data / "work"
    fresh = not work.exists()
    if fresh:
        _seed(work)
    settings = jup / "lab" / "user-settings"
    _user_settings(settings)
    hashed = run([str(venv / "bin" / "python"), "-c",
                  f"from jupyter_server.auth import passwd; print(passwd({PASSWORD!r}))"]).strip()
    config = jup / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "jupyter_server_config.json").write_text(json.dumps({
        "IdentityProvider": {"token": TOKEN},
        "PasswordIdentityProvider": {"hashed_password": hashed, "allow_password_change": False},
        # The test machines run as root; Jupyter refuses to start as root unless told.
        "ServerApp": {"open_browser": False, "allow_root": True, "terminado_settings": {"shell_command": ["/bin/bash"]}},
        "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                   "extension_manager": "readonly", "user_settings_dir": str(settings),
                   "workspaces_dir": str(jup / "lab" / "workspaces")},
    }, indent=1))
    env = {"JUPYTER_CONFIG_DIR": str(config), "JUPYTER_DATA_DIR": str(jup / "data"),
           "JUPYTER_RUNTIME_DIR": str(jup / "runtime"), "IPYTHONDIR": str(data / "ipython"),
           "HOME": str(data / "home"), "JUPYTER_PLATFORM_DIRS": "1", "TMPDIR": str(data / "tmp"),
           "SHELL": "/bin/bash"}
    for d in ("home", "tmp"):
        (data / d).mkdir(exist_ok=True)
    port = free_port()
    server = Process.start([str(venv / "bin" / "jupyter"), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
                            f"--ServerApp.port={port}", f"--ServerApp.root_dir={work}"],
                           data / "jupyterlab.log", env=env, cwd=work)
    try:
        running = JupyterLab(url=f"http://127.0.0.1:{port}", work=work)
        wait_http(f"{running.url}/api/status", server, timeout=90)
        # What a person left running: the sales notebook's kernel and a terminal.
        running.api("POST", "/api/sessions", {"path": "sales_analysis.ipynb", "name": "sales_analysis.ipynb",
                                              "type": "notebook", "kernel": {"name": "python3"}})
        running.api("POST", "/api/terminals", {"name": "1"})
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="notebook server", half="tune",
          built_from=f"PyPI jupyterlab {VERSION} + ipykernel 7.4.0 (jupyter_server 2, Lumino, CodeMirror 6)",
          missing=_missing, install=_install, start=_start)
