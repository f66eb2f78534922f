"""Node-RED (npm node-red 4.1): a flow editor for automation — a single page of an SVG workspace of
wired nodes, a palette, a sidebar (info, help, debug, config nodes, context), node edit trays with a
Monaco code editor, jQuery UI dialogs (import, export, user settings) — behind its own login form
(adminAuth, one user with a bcrypt password).

Seeded with a flows.json of three flow tabs ("Order Processing", "Sensor Readings", "Daily
Reports"): injects, function nodes with JavaScript, change, switch, template (HTML), debug, comment,
link, delay and http request nodes, a group, a subflow ("Format price", with an environment
property) used on two tabs, and config nodes (a TLS config used by the http request node, an unused
MQTT broker). Telemetry, update checks, the palette catalogue and the welcome tours are off, so the
editor never calls out and opens no dialog by itself.

The code editor is Monaco (Node-RED's default). To get Ace instead, start it with the environment
variable HEYBRO_NODERED_EDITOR=ace (or call `start(data, editor="ace")`): settings.js then says
`codeEditor: {lib: "ace"}`.
"""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, npm_dir, npm_install, npm_missing

NAME = "nodered"
# Two small node modules of the Node-RED project, so the palette manager lists more than the core.
PACKAGES = ["node-red@4.1.15", "node-red-node-random@0.4.1", "node-red-node-smooth@0.1.2"]
USER, PASSWORD = "ann", "heybro-red-pass-1"
EDITORS = ("monaco", "ace")

ORDERS_TAB, SENSORS_TAB, REPORTS_TAB = "a1f0c0de0rders01", "b2e1d1ce5en50r02", "c3d2e2bd0rep0r03"
SUBFLOW = "d4c3f3ac5ubf1o04"
TLS, BROKER = "e5b4a4fbc0nf1g05", "f6a5b5eab0ker006"

_VALIDATE = """// Reject orders without items or a customer, and add the order total.
const order = msg.payload;
if (!order || !Array.isArray(order.items) || order.items.length === 0) {
    node.warn("Order without items: " + JSON.stringify(order));
    return null;
}
if (!order.customer) {
    node.error("Order " + order.id + " has no customer", msg);
    return null;
}
let total = 0;
for (const item of order.items) {
    total += item.price * item.qty;
}
order.total = Math.round(total * 100) / 100;
msg.topic = "order/" + order.id;
node.status({fill: "green", shape: "dot", text: "last: " + order.id});
return msg;
"""

_FAHRENHEIT = """// Sensors report Celsius; the dashboard wants both.
const c = Number(msg.payload.celsius);
msg.payload.fahrenheit = Math.round((c * 9 / 5 + 32) * 10) / 10;
flow.set("lastReading", msg.payload);
return msg;
"""

_REPORT = """// Count today's orders by status from the flow context.
const orders = global.get("orders") || [];
const counts = {};
for (const o of orders) {
    counts[o.status] = (counts[o.status] || 0) + 1;
}
msg.payload = {date: new Date().toISOString().slice(0, 10), counts: counts, total: orders.length};
return msg;
"""

_FORMAT_PRICE = """// Formats msg.payload.total in the subflow's currency.
const currency = env.get("CURRENCY") || "GBP";
const fmt = new Intl.NumberFormat("en-GB", {style: "currency", currency: currency});
msg.payload.totalText = fmt.format(msg.payload.total || 0);
return msg;
"""

_EMAIL = """<h1>Thank you for your order, {{payload.customer}}!</h1>
<p>Order <b>{{payload.id}}</b> will ship by {{shipping}} delivery.</p>
<ul>
{{#payload.items}}
  <li>{{qty}} x {{name}} at &pound;{{price}}</li>
{{/payload.items}}
</ul>
<p>Total: <b>{{payload.totalText}}</b></p>
"""

_REPORT_HTML = """<h2>Daily report {{payload.date}}</h2>
<table>
  <tr><th>Status</th><th>Orders</th></tr>
  <tr><td>paid</td><td>{{payload.counts.paid}}</td></tr>
  <tr><td>shipped</td><td>{{payload.counts.shipped}}</td></tr>
</table>
"""

_ORDER = {"id": "A-1042", "customer": "Ann Lee", "status": "paid",
          "items": [{"name": "Red Mug", "price": 8.5, "qty": 2}, {"name": "Oak Tray", "price": 18, "qty": 1}]}
_BIG_ORDER = {"id": "A-1043", "customer": "Bob Stone", "status": "paid",
              "items": [{"name": "Cast Iron Pan", "price": 42, "qty": 3}]}


def _inject(id_: str, z: str, name: str, x: int, y: int, wires: list[str], payload: str = "",
            ptype: str = "date", topic: str = "", repeat: str = "", crontab: str = "") -> dict[str, Any]:
    props: list[dict[str, str]] = [{"p": "payload"}, {"p": "topic", "vt": "str"}]
    if ptype != "date":
        props[0] = {"p": "payload", "v": payload, "vt": ptype}
    return {"id": id_, "type": "inject", "z": z, "name": name, "props": props, "repeat": repeat,
            "crontab": crontab, "once": False, "onceDelay": 0.1, "topic": topic, "payload": payload,
            "payloadType": ptype, "x": x, "y": y, "wires": [wires]}


def _function(id_: str, z: str, name: str, code: str, x: int, y: int, wires: list[list[str]],
              g: str | None = None) -> dict[str, Any]:
    n: dict[str, Any] = {"id": id_, "type": "function", "z": z, "name": name, "func": code,
                         "outputs": len(wires), "timeout": 0, "noerr": 0, "initialize": "", "finalize": "",
                         "libs": [], "x": x, "y": y, "wires": wires}
    if g:
        n["g"] = g
    return n


def _debug(id_: str, z: str, name: str, x: int, y: int, complete: str = "payload",
           active: bool = True) -> dict[str, Any]:
    return {"id": id_, "type": "debug", "z": z, "name": name, "active": active, "tosidebar": True,
            "console": False, "tostatus": False, "complete": complete,
            "targetType": "full" if complete == "true" else "msg", "statusVal": "", "statusType": "auto",
            "x": x, "y": y, "wires": []}


def _change(id_: str, z: str, name: str, rules: list[dict[str, Any]], x: int, y: int,
            wires: list[str]) -> dict[str, Any]:
    return {"id": id_, "type": "change", "z": z, "name": name, "rules": rules, "action": "", "property": "",
            "from": "", "to": "", "reg": False, "x": x, "y": y, "wires": [wires]}


def _template(id_: str, z: str, name: str, html: str, x: int, y: int, wires: list[str]) -> dict[str, Any]:
    return {"id": id_, "type": "template", "z": z, "name": name, "field": "payload", "fieldType": "msg",
            "format": "html", "syntax": "mustache", "template": html, "output": "str", "x": x, "y": y,
            "wires": [wires]}


def _comment(id_: str, z: str, name: str, info: str, x: int, y: int) -> dict[str, Any]:
    return {"id": id_, "type": "comment", "z": z, "name": name, "info": info, "x": x, "y": y, "wires": []}


def flows() -> list[dict[str, Any]]:
    """The seeded flows.json."""
    o, s, r = ORDERS_TAB, SENSORS_TAB, REPORTS_TAB
    return [
        {"id": o, "type": "tab", "label": "Order Processing", "disabled": False,
         "info": "Takes orders from the shop, checks them and sends the confirmation email.", "env": []},
        {"id": s, "type": "tab", "label": "Sensor Readings", "disabled": False,
         "info": "Kitchen and cellar temperature sensors.", "env": []},
        {"id": r, "type": "tab", "label": "Daily Reports", "disabled": False,
         "info": "Builds the daily order report at 9am.", "env": []},
        # The subflow and the nodes inside it.
        {"id": SUBFLOW, "type": "subflow", "name": "Format price",
         "info": "Adds `payload.totalText`, the order total as money in the CURRENCY property.",
         "category": "", "in": [{"x": 60, "y": 80, "wires": [{"id": "d4c3f3ac5ubf1n01"}]}],
         "out": [{"x": 420, "y": 80, "wires": [{"id": "d4c3f3ac5ubf1n01", "port": 0}]}],
         "env": [{"name": "CURRENCY", "type": "str", "value": "GBP"}], "meta": {}, "color": "#E2D96E",
         "icon": "font-awesome/fa-gbp"},
        _function("d4c3f3ac5ubf1n01", SUBFLOW, "Format as money", _FORMAT_PRICE, 240, 80, [[]]),
        # Config nodes.
        {"id": TLS, "type": "tls-config", "name": "Shop API TLS", "cert": "", "key": "", "ca": "",
         "certname": "", "keyname": "", "caname": "", "servername": "shop.example.com",
         "verifyservercert": True, "alpnprotocol": ""},
        {"id": BROKER, "type": "mqtt-broker", "name": "Home Broker", "broker": "192.0.2.10", "port": "1883",
         "clientid": "", "autoConnect": True, "usetls": False, "protocolVersion": "4", "keepalive": "60",
         "cleansession": True, "autoUnsubscribe": True, "birthTopic": "", "birthQos": "0",
         "birthPayload": "", "birthMsg": {}, "closeTopic": "", "closeQos": "0", "closePayload": "",
         "closeMsg": {}, "willTopic": "", "willQos": "0", "willPayload": "", "willMsg": {},
         "userProps": "", "sessionExpiry": ""},
        # Order Processing.
        _comment("a1f0c0de00000c01", o, "Orders arrive here from the shop",
                 "The shop posts each new order as JSON.\n\nPress **New order** to try the flow.", 170, 40),
        {"id": "a1f0c0de00000g01", "type": "group", "z": o, "name": "Checking", "style": {"label": True},
         "nodes": ["a1f0c0de00000f01", "a1f0c0de00000s01"], "x": 314, "y": 79, "w": 332, "h": 82},
        _inject("a1f0c0de00000i01", o, "New order", 120, 120, ["a1f0c0de00000f01"],
                payload=json.dumps(_ORDER), ptype="json", topic="orders"),
        _inject("a1f0c0de00000i02", o, "Large order", 120, 180, ["a1f0c0de00000f01"],
                payload=json.dumps(_BIG_ORDER), ptype="json", topic="orders"),
        _function("a1f0c0de00000f01", o, "Validate order", _VALIDATE, 410, 120, [["a1f0c0de00000s01"]],
                  g="a1f0c0de00000g01"),
        {"id": "a1f0c0de00000s01", "type": "switch", "z": o, "g": "a1f0c0de00000g01", "name": "By status",
         "property": "payload.status", "propertyType": "msg",
         "rules": [{"t": "eq", "v": "paid", "vt": "str"}, {"t": "eq", "v": "cancelled", "vt": "str"},
                   {"t": "else"}],
         "checkall": "true", "repair": False, "outputs": 3, "x": 570, "y": 120,
         "wires": [["a1f0c0de00000h01"], ["a1f0c0de00000d02"], ["a1f0c0de00000d03"]]},
        _change("a1f0c0de00000h01", o, "Set shipping",
                [{"t": "set", "p": "shipping", "pt": "msg", "to": "standard", "tot": "str"},
                 {"t": "set", "p": "payload.status", "pt": "msg", "to": "processing", "tot": "str"}],
                760, 100, ["a1f0c0de0000sf01"]),
        {"id": "a1f0c0de0000sf01", "type": f"subflow:{SUBFLOW}", "z": o, "name": "", "env": [],
         "x": 950, "y": 100, "wires": [["a1f0c0de00000t01", "a1f0c0de00000d01"]]},
        _template("a1f0c0de00000t01", o, "Order email", _EMAIL, 1140, 100, ["a1f0c0de00000d04"]),
        _debug("a1f0c0de00000d01", o, "Order total", 1150, 160),
        _debug("a1f0c0de00000d02", o, "Cancelled orders", 790, 160),
        _debug("a1f0c0de00000d03", o, "Unknown status", 780, 220, complete="true", active=False),
        _debug("a1f0c0de00000d04", o, "Email preview", 1330, 100),
        {"id": "a1f0c0de00000r01", "type": "http request", "z": o, "name": "Fetch stock levels",
         "method": "GET", "ret": "obj", "paytoqs": "ignore", "url": "https://shop.example.com/api/stock",
         "tls": TLS, "persist": False, "proxy": "", "insecureHTTPParser": False, "authType": "", "senderr": False,
         "headers": [], "x": 350, "y": 300, "wires": [["a1f0c0de00000d05"]]},
        _inject("a1f0c0de00000i03", o, "Check stock", 130, 300, ["a1f0c0de00000r01"]),
        _debug("a1f0c0de00000d05", o, "Stock levels", 560, 300),
        {"id": "a1f0c0de00000l01", "type": "link out", "z": o, "name": "to reports", "mode": "link",
         "links": ["c3d2e2bd00000l02"], "x": 575, "y": 360, "wires": []},
        _change("a1f0c0de00000h02", o, "Remember order",
                [{"t": "set", "p": "lastOrder", "pt": "global", "to": "payload", "tot": "msg"}],
                410, 360, ["a1f0c0de00000l01"]),
        # Sensor Readings.
        _comment("b2e1d1ce00000c01", s, "Temperatures every minute", "Values are in Celsius.", 150, 40),
        _inject("b2e1d1ce00000i01", s, "Kitchen temperature", 150, 100, ["b2e1d1ce00000f01"],
                payload='{"room":"kitchen","celsius":21.5}', ptype="json", topic="sensors/kitchen"),
        _inject("b2e1d1ce00000i02", s, "Cellar temperature", 150, 160, ["b2e1d1ce00000f01"],
                payload='{"room":"cellar","celsius":12.0}', ptype="json", topic="sensors/cellar"),
        _inject("b2e1d1ce00000i03", s, "Read humidity", 140, 280, ["b2e1d1ce00000n01"]),
        {"id": "b2e1d1ce00000n01", "type": "random", "z": s, "name": "Simulated humidity", "low": "30",
         "high": "70", "inte": "true", "property": "payload", "x": 360, "y": 280,
         "wires": [["b2e1d1ce00000m01"]]},
        {"id": "b2e1d1ce00000m01", "type": "smooth", "z": s, "name": "Average of 10", "property": "payload",
         "action": "mean", "count": "10", "round": "1", "mult": "single", "reduce": False, "x": 580, "y": 280,
         "wires": [["b2e1d1ce00000d03"]]},
        _debug("b2e1d1ce00000d03", s, "Humidity", 780, 280),
        _function("b2e1d1ce00000f01", s, "Celsius to Fahrenheit", _FAHRENHEIT, 400, 130,
                  [["b2e1d1ce00000s01", "b2e1d1ce00000d01"]]),
        {"id": "b2e1d1ce00000s01", "type": "switch", "z": s, "name": "Too hot?", "property": "payload.celsius",
         "propertyType": "msg", "rules": [{"t": "gt", "v": "25", "vt": "num"}, {"t": "lt", "v": "5", "vt": "num"}],
         "checkall": "false", "repair": False, "outputs": 2, "x": 610, "y": 130,
         "wires": [["b2e1d1ce00000h01"], ["b2e1d1ce00000h01"]]},
        _change("b2e1d1ce00000h01", s, "Make alert",
                [{"t": "set", "p": "payload", "pt": "msg", "to": "Temperature out of range", "tot": "str"}],
                790, 130, ["b2e1d1ce00000y01"]),
        {"id": "b2e1d1ce00000y01", "type": "delay", "z": s, "name": "One alert a minute", "pauseType": "rate",
         "timeout": "5", "timeoutUnits": "seconds", "rate": "1", "nbRateUnits": "1", "rateUnits": "minute",
         "randomFirst": "1", "randomLast": "5", "randomUnits": "seconds", "drop": True, "allowrate": False,
         "outputs": 1, "x": 990, "y": 130, "wires": [["b2e1d1ce00000d02"]]},
        _debug("b2e1d1ce00000d01", s, "Readings", 630, 200),
        _debug("b2e1d1ce00000d02", s, "Alerts", 1170, 130),
        # Daily Reports.
        _comment("c3d2e2bd00000c01", r, "Report at 9am on weekdays", "", 160, 40),
        _inject("c3d2e2bd00000i01", r, "Weekdays at 9am", 150, 100, ["c3d2e2bd00000f01"],
                crontab="00 09 * * 1,2,3,4,5"),
        {"id": "c3d2e2bd00000l02", "type": "link in", "z": r, "name": "from orders", "links": ["a1f0c0de00000l01"],
         "x": 125, "y": 180, "wires": [["c3d2e2bd00000d02"]]},
        _function("c3d2e2bd00000f01", r, "Build report", _REPORT, 370, 100, [["c3d2e2bd0000sf01"]]),
        {"id": "c3d2e2bd0000sf01", "type": f"subflow:{SUBFLOW}", "z": r, "name": "Price in euros",
         "env": [{"name": "CURRENCY", "value": "EUR", "type": "str"}], "x": 570, "y": 100,
         "wires": [["c3d2e2bd00000t01"]]},
        _template("c3d2e2bd00000t01", r, "Report page", _REPORT_HTML, 760, 100, ["c3d2e2bd00000d01"]),
        _debug("c3d2e2bd00000d01", r, "Report", 940, 100),
        _debug("c3d2e2bd00000d02", r, "Orders seen", 330, 180),
    ]


def _settings(port: int, user_hash: str, editor: str) -> str:
    settings = {
        "uiHost": "127.0.0.1",
        "uiPort": port,
        "flowFile": "flows.json",
        "credentialSecret": "heybro-red-credentials",
        "adminAuth": {"type": "credentials",
                      "users": [{"username": USER, "password": user_hash, "permissions": "*"}]},
        "diagnostics": {"enabled": False, "ui": False},
        "runtimeState": {"enabled": False, "ui": False},
        "telemetry": {"enabled": False, "updateNotification": False},
        "logging": {"console": {"level": "info", "metrics": False, "audit": False}},
        "exportGlobalContextKeys": False,
        "externalModules": {},
        "editorTheme": {
            "tours": False,
            "palette": {"catalogues": []},
            "projects": {"enabled": False},
            "codeEditor": {"lib": editor},
            "markdownEditor": {"mermaid": {"enabled": True}},
            "multiplayer": {"enabled": False},
        },
        "functionExternalModules": False,
        "debugMaxLength": 1000,
        "mqttReconnectTime": 15000,
        "serialReconnectTime": 15000,
    }
    return "// Written by heybro's corpus: a local editor that never calls out.\nmodule.exports = " + \
        json.dumps(settings, indent=2) + ";\n"


@dataclass
class NodeRed:
    url: str
    userdir: Path
    editor: str
    user: str = USER
    password: str = PASSWORD
    _token: str = field(default="", repr=False)

    # --- state -------------------------------------------------------------------------------------

    def flows_file(self) -> list[dict[str, Any]]:
        """flows.json as the runtime last saved it (on deploy)."""
        return list(json.loads((self.userdir / "flows.json").read_text()))

    def token(self) -> str:
        """An admin API access token, got as node-red-admin gets one."""
        if not self._token:
            body = urllib.parse.urlencode({"client_id": "node-red-admin", "grant_type": "password",
                                           "scope": "*", "username": self.user,
                                           "password": self.password}).encode()
            with urllib.request.urlopen(f"{self.url}/auth/token", body, timeout=10) as r:
                self._token = json.load(r)["access_token"]
        return self._token

    def api(self, path: str) -> Any:
        """GET on the admin HTTP API (e.g. "/flows", "/settings", "/nodes")."""
        req = urllib.request.Request(f"{self.url}{path}", headers={"Authorization": f"Bearer {self.token()}",
                                                                   "Accept": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def flows(self) -> list[dict[str, Any]]:
        """The deployed flows, from GET /flows."""
        return list(self.api("/flows"))

    def tabs(self) -> dict[str, str]:
        """Flow tab label → id, deployed."""
        return {n["label"]: n["id"] for n in self.flows() if n.get("type") == "tab"}

    def nodes(self, type_: str | None = None, name: str | None = None) -> list[dict[str, Any]]:
        """Deployed nodes (not tabs), optionally of one type and/or one name."""
        return [n for n in self.flows() if n.get("type") not in ("tab", "subflow")
                and (type_ is None or n.get("type") == type_) and (name is None or n.get("name") == name)]

    def node(self, name: str) -> dict[str, Any] | None:
        """The deployed node with this name (first), e.g. node("Validate order")["func"]."""
        return next(iter(self.nodes(name=name)), None)

    # --- browser -----------------------------------------------------------------------------------

    def login(self, page: Any) -> None:
        page.goto(self.url + "/")
        page.fill("#node-dialog-login-username", self.user)
        page.fill("#node-dialog-login-password", self.password)
        page.click("#node-dialog-login-submit")
        page.wait_for_selector("#red-ui-workspace-chart .red-ui-flow-node", timeout=30_000)

    def pages(self) -> list[Page]:
        ready = "#red-ui-workspace-chart g.red-ui-flow-node-group"

        def tab(label: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(f"#red-ui-workspace-tabs .red-ui-tab a:has-text('{label}')")
                page.wait_for_timeout(300)
            return go

        def node_at(page: Any, name: str) -> Any:
            return page.locator("#red-ui-workspace-chart g.red-ui-flow-node-group",
                                has=page.locator(f"text.red-ui-flow-node-label-text:text-is('{name}'), "
                                                 f"text:text-is('{name}')")).first

        def edit(name: str, label: str | None = None, wait: str = ".red-ui-tray .red-ui-tray-body") \
                -> Callable[[Any], None]:
            def go(page: Any) -> None:
                if label:
                    tab(label)(page)
                node_at(page, name).locator("rect.red-ui-flow-node").first.dblclick()
                page.wait_for_selector(wait, timeout=10_000)
                page.wait_for_timeout(500)  # the tray slides in
            return go

        def click(*selectors: str, wait: str | None = None) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                for sel in selectors:
                    page.click(sel)
                    page.wait_for_timeout(200)
                if wait:
                    page.wait_for_selector(wait, timeout=10_000)
            return go

        def settings(tab_id: str, wait: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click("#red-ui-header-button-sidemenu")
                page.click("#menu-item-user-settings")
                page.wait_for_selector("#user-settings-tabs", timeout=10_000)
                page.click(f"#user-settings-tabs a[href='#red-ui-settings-tab-{tab_id}']")
                page.wait_for_selector(wait, timeout=10_000)
                page.wait_for_timeout(300)
            return go

        def sidebar(tab_id: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                button = page.locator(f"#red-ui-tab-{tab_id}-link-button")  # icon-only buttons
                if button.is_visible():
                    button.click()
                else:  # the tabs that do not fit are in the sidebar's own menu
                    page.click("#red-ui-sidebar .red-ui-tab-link-button-menu")
                    page.click(f"#red-ui-tabs-menu-option-{tab_id}")
                page.wait_for_timeout(300)
            return go

        def debug_messages(page: Any) -> None:
            # Press two inject buttons, as a person trying the flow does.
            for name in ("New order", "Large order"):
                node_at(page, name).locator(".red-ui-flow-node-button").first.click()
                page.wait_for_timeout(300)
            sidebar("debug")(page)
            page.wait_for_selector(".red-ui-debug-msg", timeout=10_000)
            # The "Successfully injected" notices slide away after a few seconds.
            page.wait_for_selector(".red-ui-notification", state="detached", timeout=10_000)

        def select_node(page: Any) -> None:
            node_at(page, "Validate order").locator("rect.red-ui-flow-node").first.click()
            page.wait_for_timeout(300)
            sidebar("info")(page)

        def context_data(page: Any) -> None:
            # A reading sets the flow's context ("lastReading"); its refresh button loads it.
            tab("Sensor Readings")(page)
            node_at(page, "Kitchen temperature").locator(".red-ui-flow-node-button").first.click()
            sidebar("context")(page)
            page.click(".red-ui-sidebar-context-stack .red-ui-palette-header:has-text('Flow') "
                       "button.red-ui-button:not(.red-ui-toggleButton)")
            page.wait_for_selector(".red-ui-sidebar-context-stack :text('lastReading')", timeout=10_000)
            page.wait_for_selector(".red-ui-notification", state="detached", timeout=10_000)

        def node_help(page: Any) -> None:
            select_node(page)
            sidebar("help")(page)

        def search(page: Any) -> None:
            menu("menu-item-search", wait="#red-ui-search input")(page)
            page.keyboard.type("order")
            page.wait_for_selector("#red-ui-search .red-ui-search-result", timeout=10_000)

        def context_menu(page: Any) -> None:
            page.click("#red-ui-workspace-chart", button="right", position={"x": 330, "y": 520})
            page.wait_for_selector("#red-ui-workspace-context-menu", timeout=10_000)

        def subflow_template(page: Any) -> None:
            edit("Format price")(page)
            page.click(".red-ui-tray button:has-text('Edit subflow template')")
            page.wait_for_selector("#red-ui-subflow-edit", timeout=10_000)
            page.wait_for_timeout(500)

        def subflow_props(page: Any) -> None:
            subflow_template(page)
            page.click("#red-ui-subflow-edit")
            page.wait_for_selector(".red-ui-tray .red-ui-tray-body", timeout=10_000)
            page.wait_for_timeout(500)

        def flow_props(page: Any) -> None:
            page.locator("#red-ui-workspace-tabs .red-ui-tab a:has-text('Order Processing')").dblclick()
            page.wait_for_selector(".red-ui-tray .red-ui-tray-body", timeout=10_000)
            page.wait_for_timeout(500)

        def menu(*ids: str, wait: str | None = None) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click("#red-ui-header-button-sidemenu")
                for i in ids[:-1]:
                    page.hover(f"#{i}")
                    page.wait_for_timeout(300)
                page.click(f"#{ids[-1]}") if wait else page.hover(f"#{ids[-1]}")
                if wait:
                    page.wait_for_selector(wait, timeout=10_000)
                page.wait_for_timeout(300)
            return go

        def fresh(go: Callable[[Any], None] | None) -> Callable[[Any], None]:
            """The sidebar shows the tab last chosen (kept in the user's settings): each page starts
            from the info tab, so it reads the same whichever page came before."""
            def run(page: Any) -> None:
                if "selected" not in (page.get_attribute("#red-ui-tab-info-link-button", "class") or ""):
                    sidebar("info")(page)
                if go:
                    go(page)
            return run

        code = ".red-ui-tray .monaco-editor:visible" if self.editor == "monaco" else ".red-ui-tray .ace_editor:visible"
        pages = [
            Page("flow-orders", "/", "editor", ready=ready),
            Page("flow-sensors", "/", "editor", ready=ready, open=tab("Sensor Readings")),
            Page("flow-reports", "/", "editor", ready=ready, open=tab("Daily Reports")),
            Page("function-edit", "/", "editor", ready=ready, open=edit("Validate order", wait=code)),
            Page("function-edit-sensors", "/", "editor", ready=ready,
                 open=edit("Celsius to Fahrenheit", "Sensor Readings", wait=code)),
            Page("template-edit", "/", "editor", ready=ready, open=edit("Order email", wait=code)),
            Page("inject-edit", "/", "form", ready=ready, open=edit("New order")),
            Page("switch-edit", "/", "form", ready=ready, open=edit("By status")),
            Page("change-edit", "/", "form", ready=ready, open=edit("Set shipping")),
            Page("http-request-edit", "/", "form", ready=ready, open=edit("Fetch stock levels")),
            Page("flow-properties", "/", "form", ready=ready, open=flow_props),
            Page("subflow-instance-edit", "/", "form", ready=ready, open=edit("Price in euros", "Daily Reports")),
            Page("subflow-template", "/", "editor", ready=ready, open=subflow_template),
            Page("subflow-properties", "/", "form", ready=ready, open=subflow_props),
            Page("deploy-menu", "/", "dialog", ready=ready,
                 open=click("#red-ui-header-button-deploy-options",
                            wait="#red-ui-header-button-deploy-options-submenu")),
            Page("main-menu", "/", "dialog", ready=ready,
                 open=click("#red-ui-header-button-sidemenu", wait="#red-ui-header-button-sidemenu-submenu")),
            Page("view-submenu", "/", "dialog", ready=ready, open=menu("menu-item-view-menu")),
            Page("import-dialog", "/", "dialog", ready=ready,
                 open=menu("menu-item-import", wait="#red-ui-clipboard-dialog-import-text")),
            Page("export-dialog", "/", "dialog", ready=ready,
                 open=menu("menu-item-export", wait="#red-ui-clipboard-dialog-export-tab-clipboard-preview-list")),
            Page("settings-view", "/", "settings", ready=ready, open=settings("view", "#user-settings-view-show-grid")),
            Page("settings-keyboard", "/", "settings", ready=ready,
                 open=settings("keyboard", "#red-ui-settings-tab-keyboard .red-ui-editableList-item-content")),
            Page("settings-environment", "/", "settings", ready=ready,
                 open=settings("envvar", "#red-ui-settings-tab-envvar")),
            Page("palette-manager", "/", "settings", ready=ready,
                 open=settings("palette", "#red-ui-palette-module-list .red-ui-editableList-item-content")),
            Page("info-sidebar", "/", "view", ready=ready, open=sidebar("info")),
            Page("node-info", "/", "view", ready=ready, open=select_node),
            Page("debug-sidebar", "/", "view", ready=ready, open=debug_messages),
            Page("help-sidebar", "/", "view", ready=ready, open=node_help),
            Page("config-sidebar", "/", "list", ready=ready, open=sidebar("config")),
            Page("context-sidebar", "/", "view", ready=ready, open=context_data),
            Page("search-dialog", "/", "search", ready=ready, open=search),
            Page("workspace-context-menu", "/", "dialog", ready=ready, open=context_menu),
        ]
        return [replace(p, open=fresh(p.open)) for p in pages]


def _missing() -> str | None:
    return first_missing(npm_missing(NAME, PACKAGES))


def _install() -> None:
    npm_install(NAME, PACKAGES)


def _hash(password: str) -> str:
    """A bcrypt hash made with the bcryptjs Node-RED ships (what `node-red admin hash-pw` does)."""
    modules = npm_dir(NAME) / "node_modules"
    return run(["node", "-e", "process.stdout.write(require('bcryptjs').hashSync(process.argv[1], 8))",
                password], env={"NODE_PATH": str(modules)}).strip()


@contextmanager
def _start(data: Path, editor: str | None = None) -> Iterator[NodeRed]:
    editor = editor or os.environ.get("HEYBRO_NODERED_EDITOR") or "monaco"
    if editor not in EDITORS:
        raise ValueError(f"HEYBRO_NODERED_EDITOR must be one of {EDITORS}, not {editor!r}")
    userdir = data / "nodered"
    userdir.mkdir(parents=True, exist_ok=True)
    if not (userdir / "flows.json").exists():
        (userdir / "flows.json").write_text(json.dumps(flows(), indent=2))
        # The sidebar's rotating tips are off (User Settings > View), so a page reads the same each time.
        (userdir / ".config.users.json").write_text(json.dumps(
            {USER: {"editor": {"view": {"view-show-tips": False}}}}, indent=4))
    port = free_port()
    (userdir / "settings.js").write_text(_settings(port, _hash(PASSWORD), editor))
    red = npm_dir(NAME) / "node_modules" / "node-red" / "red.js"
    server = Process.start(["node", str(red), "--userDir", str(userdir), "--port", str(port),
                            "--settings", str(userdir / "settings.js")],
                           data / "nodered.log", env={"NODE_RED_ENABLE_PROJECTS": "", "NO_UPDATE_NOTIFIER": "1"})
    try:
        running = NodeRed(url=f"http://127.0.0.1:{port}", userdir=userdir, editor=editor)
        wait_http(f"{running.url}/auth/login", server, timeout=60)
        yield running
    finally:
        server.stop()


def start(data: Path, editor: str = "monaco") -> Any:
    """Starts it with the chosen code editor ("monaco" or "ace")."""
    return _start(data, editor)


APP = App(name=NAME, kind="flow editor (automation console)", half="tune",
          built_from="npm node-red 4.1.15 (Node.js 20; Monaco code editor, Ace on request)",
          missing=_missing, install=_install, start=_start,
          notes=["HEYBRO_NODERED_EDITOR=ace starts it with the Ace code editor instead of Monaco"],
          network_idle=False)  # the editor keeps a websocket (comms) open for status and debug messages
