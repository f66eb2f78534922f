"""Verdaccio (npm verdaccio 5): a private npm registry whose web UI is a React single-page app built
on a component library (MUI): a package list, each package's page with tabs (readme, dependencies,
versions, uplinks) and a sidebar of icon buttons, install commands with copy buttons, a search box
with suggestions, settings and registry-info dialogs, a light/dark switch — behind its own login
dialog (htpasswd).

Seeded through the registry's own npm API (a user added, then each version published as `npm
publish` does: a PUT of the package document with its tarball attached) with a team's private
packages: a component kit with a beta on the `next` tag, an HTTP client that depends on the logger
and the config loader, a logger with five patch releases, a payments SDK, a deprecated date
library, a command-line tool and a lint config; published by two people. No uplink: the registry
never calls out.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, wait_http
from .base import App, Page, first_missing, npm_dir, npm_install, npm_missing, then

NAME = "verdaccio"
PACKAGES = ["verdaccio@5.33.0"]
# A dependency deep in its tree asks for node-fetch by a tag ("cjs") the registry no longer serves.
OVERRIDES = {"node-fetch": "2.7.0"}
USER, PASSWORD = "ann", "heybro-verdaccio-pass-1"
OTHER, OTHER_PASSWORD = "bob", "heybro-verdaccio-pass-2"

_CONFIG = """storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
    max_users: -1
web:
  title: Acme packages
  darkMode: false
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
log: { type: stdout, format: pretty, level: warn }
"""

_UI_KIT_README = """# Acme UI kit

React components for Acme's internal tools: buttons, dialogs, data tables and forms, themed with
the Acme palette.

## Install

```sh
npm install @acme/ui-kit
```

## Components

| Component | What it is | Since |
|---|---|---|
| `Button` | A button in three sizes, with an optional icon | 1.0 |
| `Dialog` | A modal dialog with a title, actions and a close button | 1.0 |
| `DataTable` | A sortable, paginated table | 1.1 |
| `DatePicker` | A date field with a calendar | 1.2 |

## Usage

```jsx
import { Button, Dialog } from "@acme/ui-kit";

export function Confirm({ onYes }) {
  return <Dialog title="Delete the order?"><Button onClick={onYes}>Delete</Button></Dialog>;
}
```

## Changelog

- **1.2.0** — `DatePicker`; `DataTable` remembers its sort.
- **1.1.0** — `DataTable`.
- **1.0.0** — first release.

See the [design guidelines](https://design.acme.test/ui-kit) and [report an issue](https://git.acme.test/platform/ui-kit/issues).
"""

_HTTP_README = """# @acme/http-client

A fetch wrapper with retries (exponential backoff), timeouts and structured logs of every call.

```js
const { client } = require("@acme/http-client");
const api = client({ base: "https://api.acme.test", retries: 3, timeoutMs: 5000 });
const order = await api.get("/orders/1042");
```

### Options

- `retries` — how many times a failed call is tried again (default 2)
- `timeoutMs` — how long one call may take (default 10000)
- `logger` — an `@acme/logger` instance (default: a new one)
"""

_LOGGER_README = """# @acme/logger

JSON logs with levels, fields and child loggers.

```js
const log = require("@acme/logger")({ service: "checkout" });
log.info("order paid", { order: 1042, amount: 59.9 });
```
"""

_PAYMENTS_README = """# @acme/payments-sdk

Charges, refunds and payouts through Acme Pay.

| Method | Does |
|---|---|
| `charge(order, card)` | Charges a card for an order |
| `refund(charge, amount?)` | Refunds all or part of a charge |
| `payouts.list({ from, to })` | Lists payouts to the merchant's bank account |

> Needs an `ACME_PAY_KEY` in the environment. Test keys start with `sk_test_`.
"""

# name, version, description, readme, dependencies, dev dependencies, keywords, publisher, extra
_PUBLISH: list[tuple[str, str, str, str, dict[str, str], dict[str, str], list[str], str, dict[str, Any]]] = [
    ("@acme/logger", "2.0.0", "JSON logs with levels and fields", _LOGGER_README, {}, {"jest": "^29.7.0"}, ["logging", "json"], USER, {}),
    ("@acme/logger", "2.0.1", "JSON logs with levels and fields", _LOGGER_README, {}, {"jest": "^29.7.0"}, ["logging", "json"], USER, {}),
    ("@acme/logger", "2.0.2", "JSON logs with levels and fields", _LOGGER_README, {}, {"jest": "^29.7.0"}, ["logging", "json"], OTHER, {}),
    ("@acme/logger", "2.0.3", "JSON logs with levels and fields", _LOGGER_README, {}, {"jest": "^29.7.0"}, ["logging", "json"], OTHER, {}),
    ("@acme/logger", "2.0.4", "JSON logs with levels, fields and child loggers", _LOGGER_README, {}, {"jest": "^29.7.0"},
     ["logging", "json"], USER, {}),
    ("@acme/config-loader", "1.4.0", "Reads config from files and the environment",
     "# @acme/config-loader\n\nYAML files, then environment variables, then defaults.\n", {"js-yaml": "^4.1.0"}, {}, ["config"], OTHER, {}),
    ("@acme/http-client", "3.0.0", "Retrying HTTP client", _HTTP_README, {"@acme/logger": "^2.0.0"}, {"nock": "^13.5.0"},
     ["http", "fetch", "retry"], USER, {}),
    ("@acme/http-client", "3.1.0", "Retrying HTTP client", _HTTP_README, {"@acme/logger": "^2.0.0", "@acme/config-loader": "^1.4.0"},
     {"nock": "^13.5.0"}, ["http", "fetch", "retry"], USER, {}),
    ("@acme/http-client", "3.2.1", "Retrying HTTP client with timeouts", _HTTP_README,
     {"@acme/logger": "^2.0.4", "@acme/config-loader": "^1.4.0"}, {"nock": "^13.5.0", "jest": "^29.7.0"}, ["http", "fetch", "retry"], USER, {}),
    ("@acme/ui-kit", "1.0.0", "React components for Acme's internal tools", _UI_KIT_README, {"clsx": "^2.1.0"}, {"react": "^18.3.0"},
     ["react", "components", "design-system"], USER, {"peerDependencies": {"react": ">=17"}}),
    ("@acme/ui-kit", "1.1.0", "React components for Acme's internal tools", _UI_KIT_README, {"clsx": "^2.1.0"}, {"react": "^18.3.0"},
     ["react", "components", "design-system"], USER, {"peerDependencies": {"react": ">=17"}}),
    ("@acme/ui-kit", "1.2.0", "React components for Acme's internal tools", _UI_KIT_README, {"clsx": "^2.1.0", "date-fns": "^3.6.0"},
     {"react": "^18.3.0"}, ["react", "components", "design-system"], USER, {"peerDependencies": {"react": ">=17"}}),
    ("@acme/ui-kit", "2.0.0-beta.1", "React components for Acme's internal tools", _UI_KIT_README, {"clsx": "^2.1.0", "date-fns": "^3.6.0"},
     {"react": "^19.0.0"}, ["react", "components", "design-system"], OTHER, {"peerDependencies": {"react": ">=18"}, "tag": "next"}),
    ("@acme/payments-sdk", "4.2.0", "Charges, refunds and payouts through Acme Pay", _PAYMENTS_README,
     {"@acme/http-client": "^3.2.0", "@acme/logger": "^2.0.0"}, {}, ["payments", "billing"], OTHER, {}),
    ("@acme/date-utils", "0.9.0", "Date helpers (deprecated)", "# @acme/date-utils\n\nUse `@acme/time` instead.\n", {}, {}, ["date"], USER,
     {"deprecated": "Replaced by @acme/time: install that instead"}),
    ("@acme/time", "1.0.0", "Dates, times and time zones", "# @acme/time\n\nParse, format and shift dates across time zones.\n",
     {}, {}, ["date", "time", "timezone"], USER, {}),
    ("acme-cli", "1.0.3", "The acme command: deploys, logs and secrets", "# acme-cli\n\n```sh\nacme deploy checkout --env staging\n```\n",
     {"@acme/http-client": "^3.0.0", "@acme/config-loader": "^1.4.0"}, {}, ["cli", "deploy"], OTHER, {"bin": {"acme": "bin/acme.js"}}),
    ("eslint-config-acme", "5.1.0", "Acme's ESLint rules", "# eslint-config-acme\n\n```json\n{ \"extends\": \"acme\" }\n```\n",
     {}, {}, ["eslint", "eslintconfig"], USER, {"peerDependencies": {"eslint": ">=8"}}),
]

_AUTHORS = {USER: ("Ann Lee", "ann@acme.test"), OTHER: ("Bob Stone", "bob@acme.test")}


def _tarball(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo("package/" + name)
            info.size, info.mtime = len(data), 1_790_000_000
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _call(url: str, method: str, path: str, body: Any, auth: str) -> Any:
    headers = {"Content-Type": "application/json", "Authorization": auth}
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def _seed(url: str) -> None:
    """Publishes every version as npm does, as its publisher (basic auth: nobody may sign up, so
    there is no `npm login` to get a token from)."""
    auth = {u: "Basic " + base64.b64encode(f"{u}:{p}".encode()).decode() for u, p in ((USER, PASSWORD), (OTHER, OTHER_PASSWORD))}
    for name, version, desc, readme, deps, dev, keywords, who, extra in _PUBLISH:
        short = name.split("/")[-1]
        author, email = _AUTHORS[who]
        extra = dict(extra)
        tag = extra.pop("tag", "latest")
        manifest = {"name": name, "version": version, "description": desc, "main": "index.js", "license": "MIT",
                    "keywords": keywords, "author": {"name": author, "email": email},
                    "repository": {"type": "git", "url": f"git+https://git.acme.test/platform/{short}.git"},
                    "homepage": f"https://docs.acme.test/{short}", "bugs": {"url": f"https://git.acme.test/platform/{short}/issues"},
                    "dependencies": deps, "devDependencies": dev, **extra}
        data = _tarball({"package.json": json.dumps(manifest, indent=2), "README.md": readme, "index.js": "module.exports = {};\n"})
        version_doc = {**manifest, "_id": f"{name}@{version}", "readme": readme, "maintainers": [{"name": who, "email": email}],
                       "dist": {"shasum": hashlib.sha1(data).hexdigest(),  # noqa: S324 (npm's own tarball checksum)
                                "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
                                "tarball": f"{url}/{name}/-/{short}-{version}.tgz"}}
        doc = {"_id": name, "name": name, "description": desc, "dist-tags": {tag: version}, "versions": {version: version_doc},
               "readme": readme, "_attachments": {f"{name}-{version}.tgz": {
                   "content_type": "application/octet-stream", "data": base64.b64encode(data).decode(), "length": len(data)}}}
        _call(url, "PUT", "/" + name.replace("/", "%2f"), doc, auth[who])


@dataclass
class Verdaccio:
    url: str
    user: str = USER
    password: str = PASSWORD

    def package(self, name: str) -> dict[str, Any]:
        """The registry's document of a package (GET /NAME, as npm reads it)."""
        with urllib.request.urlopen(f"{self.url}/{name.replace('/', '%2f')}", timeout=10) as r:
            return dict(json.load(r))

    # --- browser -----------------------------------------------------------------------------------

    def login(self, page: Any) -> None:
        page.goto(self.url + "/")
        page.click("[data-testid='header--button-login']")
        page.fill("#login--dialog-username", self.user)
        page.fill("#login--dialog-password", self.password)
        page.click("[data-testid='login-dialog-form-login-button']")
        page.wait_for_selector("[data-testid='logInDialogIcon']", timeout=15_000)

    def pages(self) -> list[Page]:
        ready = "[data-testid='package-item-list'], [data-testid='readme-tab'], [data-testid='404']"

        def tab(label: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(f"[role=tab]:has-text('{label}')")
                page.wait_for_timeout(500)
            return go

        def click(selector: str, wait: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(selector)
                page.wait_for_selector(wait, timeout=10_000)
                page.wait_for_timeout(400)  # a dialog or a menu grows in
            return go

        def search(words: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click("input[placeholder='Search Packages']")
                page.keyboard.type(words, delay=40)
                page.wait_for_selector("[role=listbox] [role=option]", timeout=10_000)
                page.wait_for_timeout(400)
            return go

        settings = click("[data-testid='header--tooltip-settings']", "[role=dialog]")
        info = click("[data-testid='header--tooltip-info']", "[role=dialog]")
        detail = "/-/web/detail/"
        return [
            Page("packages", "/", "list", ready=ready),
            Page("package-readme", f"{detail}@acme/ui-kit", "view", ready=ready),
            Page("package-dependencies", f"{detail}@acme/ui-kit", "view", ready=ready, open=tab("Dependencies")),
            Page("package-versions", f"{detail}@acme/ui-kit", "list", ready=ready, open=tab("Versions")),
            Page("package-uplinks", f"{detail}@acme/ui-kit", "view", ready=ready, open=tab("Uplinks")),
            Page("client-readme", f"{detail}@acme/http-client", "view", ready=ready),
            Page("client-dependencies", f"{detail}@acme/http-client", "view", ready=ready, open=tab("Dependencies")),
            Page("logger-versions", f"{detail}@acme/logger", "list", ready=ready, open=tab("Versions")),
            Page("payments-readme", f"{detail}@acme/payments-sdk", "view", ready=ready),
            Page("deprecated-package", f"{detail}@acme/date-utils", "view", ready=ready),
            Page("cli-package", f"{detail}acme-cli", "view", ready=ready),
            Page("old-version", f"{detail}@acme/logger/v/2.0.1", "view", ready=ready),
            Page("missing-package", f"{detail}@acme/nothing-here", "view", ready=ready),
            Page("search-suggestions", "/", "search", ready=ready, open=search("acme")),
            Page("search-in-package", f"{detail}@acme/ui-kit", "search", ready=ready, open=search("log")),
            Page("settings-dialog", "/", "settings", ready=ready, open=settings),
            Page("settings-translations", "/", "settings", ready=ready, open=then(settings, tab("Translations"))),
            Page("info-dialog", "/", "dialog", ready=ready, open=info),
            Page("user-menu", "/", "dialog", ready=ready, open=click("[data-testid='logInDialogIcon']", "[role=menu]")),
            Page("dark-mode", f"{detail}@acme/ui-kit", "view", ready=ready,
                 open=then(click("[data-testid='header--button--light']", "[data-testid='header--button--dark']"))),
        ]


def _missing() -> str | None:
    return first_missing(npm_missing(NAME, PACKAGES))


def _install() -> None:
    npm_install(NAME, PACKAGES, OVERRIDES)


@contextmanager
def _start(data: Path) -> Iterator[Verdaccio]:
    home = data / "verdaccio"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(_CONFIG)
    # The users, in the htpasswd file the registry reads (nobody may sign up: max_users is -1).
    (home / "htpasswd").write_text("".join(
        f"{u}:{{SHA}}{base64.b64encode(hashlib.sha1(p.encode()).digest()).decode()}:autocreated 2026-11-01\n"  # noqa: S324 (htpasswd's format)
        for u, p in ((USER, PASSWORD), (OTHER, OTHER_PASSWORD))))
    port = free_port()
    fresh = not (home / "storage").exists()
    cmd = npm_dir(NAME) / "node_modules" / ".bin" / "verdaccio"
    server = Process.start([str(cmd), "--config", str(home / "config.yaml"), "--listen", f"127.0.0.1:{port}"],
                           data / "verdaccio.log", env={"NO_UPDATE_NOTIFIER": "1"})
    try:
        running = Verdaccio(url=f"http://127.0.0.1:{port}")
        wait_http(f"{running.url}/-/ping", server, timeout=60)
        if fresh:
            _seed(running.url)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="package registry (React single-page app on a component library)", half="heldout",
          built_from="npm verdaccio 5.33.0 (Node.js 20; React + MUI web UI, htpasswd auth)",
          missing=_missing, install=_install, start=_start)
