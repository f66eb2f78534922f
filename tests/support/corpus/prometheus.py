"""Prometheus (Debian's 2.42): a monitoring server's console — the classic UI Debian ships (Go
templates, Bootstrap 4 and jQuery; an expression browser with a typeahead, tabs, a Rickshaw chart
with its legend and a date-time picker; alert rules to unfold; scrape targets and discovered labels
to filter and fold; status, flags and configuration pages) — with no login.

Seeded by its configuration: seven scrape jobs over the server's own metrics endpoint (labelled as
a shop's services), one of them found through a file of targets with relabelling that drops some,
three targets that refuse connections (ports nothing listens on), and rule files with alerts that
fire, one that waits its `for` time (pending), ones that never fire (inactive), and recording rules.
Nothing is scraped outside 127.0.0.1.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, wait_http
from .base import App, Page, click_until, apt_install, apt_missing, then

NAME = "prometheus"
PACKAGES = ["prometheus"]

# job, labels of its targets (each scrapes the server's own /metrics), refused targets (ports nothing listens on)
JOBS: list[tuple[str, dict[str, str], list[str]]] = [
    ("prometheus", {"env": "prod"}, []),
    ("shop-api", {"team": "payments", "env": "prod"}, ["127.0.0.1:9", "127.0.0.1:11"]),
    ("checkout", {"team": "payments", "env": "staging"}, []),
    ("inventory", {"team": "warehouse", "env": "prod"}, ["127.0.0.1:13"]),
    ("search", {"team": "discovery", "env": "prod"}, []),
    ("mailer", {"team": "growth", "env": "prod"}, []),
]

RULES = """
groups:
  - name: availability
    interval: 5s
    rules:
      - alert: TargetDown
        expr: up == 0
        labels: {severity: page}
        annotations:
          summary: "{{ $labels.instance }} of {{ $labels.job }} is down"
          description: "The scrape of {{ $labels.instance }} failed; check that the service is running."
          runbook_url: "http://127.0.0.1/runbooks/target-down"
      - alert: PaymentsDegraded
        expr: count by (team) (up{team="payments"} == 0) >= 1
        for: 2h
        labels: {severity: warning}
        annotations: {summary: "Payments has {{ $value }} targets down (waiting two hours before paging)"}
      - alert: ServerUp
        expr: up{job="prometheus"} == 1
        labels: {severity: info}
        annotations: {summary: "The monitoring server scrapes itself"}
  - name: capacity
    rules:
      - alert: DiskAlmostFull
        expr: vector(0.42) > 0.9
        for: 15m
        labels: {severity: warning}
        annotations: {summary: "Disk usage above 90 %"}
      - alert: TooManyRequests
        expr: sum(rate(prometheus_http_requests_total[5m])) > 10000
        for: 5m
        labels: {severity: page}
        annotations: {summary: "More than ten thousand requests a second"}
  - name: recording
    rules:
      - record: job:up:sum
        expr: sum by (job) (up)
      - record: team:up:ratio
        expr: avg by (team) (up)
      - record: instance:http_requests:rate5m
        expr: sum by (instance) (rate(prometheus_http_requests_total[5m]))
"""


def _config(port: int, data: Path) -> str:
    me = f"127.0.0.1:{port}"
    jobs = []
    for job, labels, refused in JOBS:
        if job == "mailer":
            continue  # found through a file (below)
        jobs.append({"job_name": job, "static_configs": [{"targets": [me, *refused], "labels": labels}]})
    # The mailer's targets come from a file; relabelling keeps only those marked to scrape.
    (data / "mailer-targets.json").write_text(json.dumps([
        {"targets": [me], "labels": {"team": "growth", "scrape": "yes"}},
        {"targets": ["127.0.0.1:15", "127.0.0.1:17"], "labels": {"team": "growth", "scrape": "no"}},
    ]))
    jobs.append({"job_name": "mailer", "file_sd_configs": [{"files": [str(data / "mailer-targets.json")]}],
                 "relabel_configs": [{"source_labels": ["scrape"], "regex": "yes", "action": "keep"},
                                     {"regex": "scrape", "action": "labeldrop"}]})
    return json.dumps({"global": {"scrape_interval": "5s", "evaluation_interval": "5s",
                                  "external_labels": {"site": "leeds"}},
                       "rule_files": [str(data / "rules.yml")], "scrape_configs": jobs}, indent=1)


@dataclass
class Prometheus:
    url: str
    data: Path
    user: str = ""
    password: str = ""

    def api(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}", timeout=10) as r:
            return json.loads(r.read())["data"]

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/classic/graph")  # no login: the console is open to whoever reaches it

    def pages(self) -> list[Page]:
        graph = "/classic/graph"


        def typed(text: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                box = page.locator("textarea.expression_input").first
                box.click()
                box.type(text, delay=40)
                page.wait_for_selector("ul.typeahead", state="visible", timeout=10_000)
            return go

        chart = "g0.expr=sum%20by%20(job)%20(rate(prometheus_http_requests_total%5B1m%5D))&g0.tab=0&g0.range_input=15m"
        return [
            Page("graph", graph, "search", ready="textarea.expression_input"),
            Page("graph-table", f"{graph}?g0.expr=up&g0.tab=1", "grid", ready=".console_table tr td"),
            Page("graph-chart", f"{graph}?{chart}", "view", ready=".rickshaw_legend"),
            Page("graph-chart-series-hidden", f"{graph}?{chart}", "view", ready=".rickshaw_legend",
                 open=click_until(".rickshaw_legend .action", ".rickshaw_legend .line.disabled")),
            Page("graph-two-panels", f"{graph}?g0.expr=job%3Aup%3Asum&g0.tab=1&g1.expr=ALERTS&g1.tab=1", "grid",
                 ready=".console_table tr td"),
            Page("graph-error", f"{graph}?g0.expr=sum(up&g0.tab=1", "search", ready=".alert-danger"),
            Page("graph-autocomplete", graph, "search", ready="textarea.expression_input",
                 open=typed("prometheus_http_req")),
            Page("graph-end-time-picker", f"{graph}?g0.expr=up&g0.tab=0", "form", ready=".rickshaw_legend",
                 open=click_until("input.date_input", ".bootstrap-datetimepicker-widget")),
            Page("graph-status-menu", graph, "dialog", ready="textarea.expression_input",
                 open=click_until("a.dropdown-toggle", ".dropdown-menu.show")),
            Page("alerts", "/classic/alerts", "list", ready=".alert_header"),
            Page("alerts-unfolded", "/classic/alerts", "list", ready=".alert_header",
                 open=then(click_until(".alert_header >> nth=0", ".alert_details >> nth=0"),
                           click_until(".alert_header >> nth=1", ".alert_details >> nth=1"))),
            Page("alerts-annotations", "/classic/alerts", "list", ready=".alert_header",
                 open=then(click_until(".alert_header >> nth=0", ".alert_details >> nth=0"),
                           click_until("button.show-annotations", ".alert_annotations"))),
            Page("alerts-firing-only", "/classic/alerts", "list", ready=".alert_header",
                 open=then(click_until("label:has(#inactiveAlerts)", ".alert_header"),
                           click_until("label:has(#pendingAlerts)", ".alert_header"))),
            Page("rules", "/classic/rules", "list"),
            Page("targets", "/classic/targets", "list"),
            Page("targets-unhealthy", "/classic/targets", "list",
                 open=click_until("label:has(#unhealthy-targets)", "h1")),
            Page("targets-job-folded", "/classic/targets", "list",
                 open=click_until("button.targets.expanded-table >> nth=1", "h1")),
            Page("targets-all-folded", "/classic/targets", "list", open=click_until("button.collapse-all", "h1")),
            Page("service-discovery", "/classic/service-discovery", "list"),
            Page("service-discovery-unfolded", "/classic/service-discovery", "list",
                 open=click_until("button.targets.collapsed-table >> nth=-1", "button.targets.expanded-table")),
            Page("status", "/classic/status", "view"),
            Page("flags", "/classic/flags", "list"),
            Page("config", "/classic/config", "view"),
        ]


def _missing() -> str | None:
    need = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(need)}" if need else None


def _install() -> None:
    apt_install(PACKAGES)


def _alerts_settled(p: Prometheus, server: Process, timeout: float = 60) -> None:
    """Until the refused targets were scraped and their alerts fire (the pages read the alerts)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise server.failed("prometheus exited")
        try:
            states = [a["state"] for a in p.api("alerts")["alerts"]]
        except OSError:
            states = []
        if states.count("firing") >= 4 and "pending" in states:
            return
        time.sleep(1)
    raise server.failed("prometheus's alerts did not fire")


@contextmanager
def _start(data: Path) -> Iterator[Prometheus]:
    port = free_port()
    data.mkdir(parents=True, exist_ok=True)
    (data / "rules.yml").write_text(RULES)
    (data / "prometheus.yml").write_text(_config(port, data))
    server = Process.start(["prometheus", f"--config.file={data / 'prometheus.yml'}",
                            f"--storage.tsdb.path={data / 'tsdb'}", f"--web.listen-address=127.0.0.1:{port}",
                            "--web.enable-lifecycle"], data / "prometheus.log")
    try:
        p = Prometheus(url=f"http://127.0.0.1:{port}", data=data)
        wait_http(f"{p.url}/-/ready", server)
        _alerts_settled(p, server)
        yield p
    finally:
        server.stop()


APP = App(name=NAME, kind="monitoring console", half="heldout",
          built_from="Debian prometheus 2.42.0 (Go; classic UI: Bootstrap 4, jQuery, Rickshaw charts)",
          missing=_missing, install=_install, start=_start,
          notes=["no login: the console is open on 127.0.0.1", "the newer React UI is not in Debian's package"],
          network_idle=False)  # the expression browser's chart keeps refreshing on a timer
