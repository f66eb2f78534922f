"""A file a page downloads during a task is the task's, end to end — real Chromium with the
extension, the real host, `heybro run`, the scripted model: "download last month's report and tell
me the total". The worker clicks the report's link; the file is copied into the task's workspace
(never opened), listed to the roles by name, type and size and shown in the panel; the analyst reads
it as text and answers the total it adds up from what it read."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import prompts
from support.app_task import run_task
from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text
from support.static_server import serve

REPORTS = Path(__file__).parent / "fixtures" / "reports"
GOAL = "Download last month's report and tell me the total"


def resource_named(body: dict[str, Any], ext: str) -> str:
    """The name of the resource the prompt lists with this extension (as the model reads it)."""
    m = re.search(r"RESOURCES \([^)]*\): (.*)", user_text(body))
    assert m, user_text(body)
    names = re.findall(r"([\w.\- ()]+?\." + ext + r") \(", m.group(1))
    assert names, m.group(1)
    return names[0].strip()


def total_of(body: dict[str, Any]) -> str:
    """The sum of the amounts of the CSV the analyst's prompt shows (what read_file brought back)."""
    amounts = re.findall(r"^\s*\d{4}-\d{2}-\d{2},[^,\n]+,(\d+\.\d\d)\s*$", user_text(body), re.M)
    assert amounts, user_text(body)
    return f"{sum(Decimal(a) for a in amounts):.2f}"


def script() -> dict[str, list[Any]]:
    return {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            "Download last month's report",
            {"subtask": "Add up the amounts of last month's report and tell the total", "role": "analyst"}]}),
            ("start_work", {}))],
        "worker": [lambda b: call("click", element_id=find_id(b, "link \"Download last month's report\"")),
                   call("mark_done", summary="Last month's report is downloaded")],
        "analyst": [lambda b: call("read_file", path=resource_named(b, "csv")),
                    lambda b: call("answer", text=f"Last month's total is {total_of(b)}.")],
        "verifier": [call("mark_complete", reason="the report is downloaded", confidence=0.9),
                     call("mark_complete", reason="the total is answered", confidence=0.9)],
    }


@pytest.mark.browser
def test_download_last_month_s_report_and_tell_me_the_total() -> None:
    with serve(REPORTS) as site, launch() as eb, ScriptedLLM(script()) as llm:
        run = run_task(eb, llm, GOAL, site + "/index.html", timeout_s=180)
        worker, analyst = prompts(llm, "worker"), prompts(llm, "analyst")
        panel = next(p for p in eb.ctx.pages if p.url.endswith("panel.html"))
        panel_text = panel.inner_text("body")
        opened = [p.url for p in eb.ctx.pages if ".csv" in p.url]
        home = eb.home
        assert run.rc == 0, run.explain()
        # The answer, added up from the file's own rows.
        assert "74.75" in run.final["answer"], run.explain()
        # Kept in the task's workspace, the user's alone, as the site served it; never opened.
        (click,) = run.results("click")
        (got,) = click["result"]["downloads"]
        kept = Path(got["path"])
        assert got["name"] == "sales-2026-10.csv" == kept.name and kept.parent.name == "downloads"
        assert kept.is_relative_to(home) and "workspaces" in kept.parts
        assert kept.read_bytes() == (REPORTS / "october.csv").read_bytes()
        assert kept.stat().st_mode & 0o777 == 0o600 and not opened
        size = (REPORTS / "october.csv").stat().st_size
        listed = f"sales-2026-10.csv (text/csv, {size} bytes)"
        # Listed to the model (name, type, size), told to the user and shown in the panel.
        assert f"RESOURCES (for upload): {listed}" in worker[-1]
        assert f"RESOURCES (files): {listed}" in analyst[0]
        assert any(f"The file {listed} is now a resource of the task (downloaded from 127.0.0.1"
                   in e["data"]["text"] for e in run.events if e["kind"] == "message"), run.explain()
        assert f"The file {listed} is now a resource" in panel_text
        # What the analyst read is the file's text.
        assert "2026-10-19,Green teapot,35.25" in analyst[1]
