"""`heybro run` end to end: the real CLI launches Chromium with the real extension and host, the
agent acts on the demo shop through native messaging, and the shop records the order once."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from support import demo_script
from support.browser import host_pids
from support.browser import test_env as base_env
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text
from support.static_server import serve

from heybro.demo import DemoSite

pytestmark = pytest.mark.browser


def heybro_run(llm: ScriptedLLM, site: DemoSite, home: Path, goal: str,
               **extra: str) -> tuple[int, list[dict], str]:
    env = base_env(home) | llm.env(**extra)
    r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", goal, "--url", site.url,
                        "--new-browser", "--headless", "--json"], env=env, capture_output=True,
                       text=True, timeout=240)
    events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    return r.returncode, events, r.stderr


def final(events: list[dict]) -> dict:
    return [e for e in events if e["kind"] == "status"][-1]["data"]


def test_run_demo_happy_path_with_faults_and_correction_orders_once() -> None:
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, \
            ScriptedLLM(demo_script.happy(faults=True, correction=True)) as llm:
        home = Path(tmp)
        rc, events, err = heybro_run(llm, site, home, "Buy a blue kettle for Ann Lee")
        assert rc == 0, (err, final(events) if events else None)
        assert len(site.orders) == 1, site.orders
        assert site.orders[0] | {"id": "x"} == {"id": "x", "product": "p1", "name": "Ann Lee",
                                                "email": "ann@example.com", "qty": 1}
        # The order number was read off the confirmation page and reported back.
        assert site.orders[0]["id"] in final(events)["reason"]
        verdicts = [e["data"]["decision"] for e in events if e["kind"] == "verdict"]
        assert verdicts == ["mark_complete", "continue_work", "mark_complete", "mark_complete"]
        msgs = " ".join(str(e["data"].get("text")) for e in events if e["kind"] == "message")
        assert "element_id 'e999' is not on the current page" in msgs
        assert any(u["data"]["attempts"] >= 3 for u in events if u["kind"] == "usage")
        assert llm.remaining() == {}
        assert host_pids(home) == []


def test_checked_subtasks_and_reports_order_once_in_fewer_model_calls() -> None:
    """The same order with the subtasks' declared outcomes checked by the host on the real page
    and reports closing checked batches: 6 model calls for 7 actions, the verifier only at the end
    — once the page shows the last subtask done, the worker is not asked again (its scripted note
    of the order number is left unasked)."""
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, \
            ScriptedLLM(demo_script.lean()) as llm:
        rc, events, err = heybro_run(llm, site, Path(tmp), "Buy a blue kettle for Ann Lee")
        assert rc == 0, (err, final(events) if events else None)
        assert llm.remaining() == {"worker": 1}
    assert len(site.orders) == 1 and site.orders[0]["id"] in final(events)["reason"]
    verdicts = [e["data"] for e in events if e["kind"] == "verdict"]
    assert [v.get("by") for v in verdicts] == ["host", "host", "verifier"]
    assert "Blue Kettle" in verdicts[0]["reason"]
    assert len(llm.requests) == 6


def test_run_demo_reschedule_then_guardrail_stop() -> None:
    # The first plan is wrong (checkout without a product): the verifier asks for a new plan; the
    # worker then clicks Search with an empty query again and again: every click reloads the same
    # empty results page, so the page-state loop guard warns the worker (at the third return to
    # that state, and the fourth), then stops the task at the fifth.
    def click_search(b: dict) -> dict:
        return call("click", element_id=demo_script.find_id(b, 'button "Search"'))

    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Go to checkout"]}),
                                  ("start_work", {})),
                            calls(("set_subtasks", {"subtasks": ["Search for kettles"]}),
                                  ("start_work", {}))],
              "worker": [call("mark_done", summary="There is no checkout without a product")],
              "verifier": [call("request_reschedule", reason="Must pick a product first",
                                confidence=0.9)]}
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, \
            ScriptedLLM(script, default={"worker": click_search}) as llm:
        rc, events, err = heybro_run(llm, site, Path(tmp), "Order something")
        second_plan = llm.role_requests("scheduler")[1]["messages"][1]["content"]
        worker = [r["messages"][1]["content"] for r in llm.role_requests("worker")]
    assert rc == 1
    assert "WHY YOU ARE CALLED: Must pick a product first" in second_plan
    end = final(events)
    assert end["status"] == "failed"
    assert end["reason"] == ("Guardrail (loop): Loop detected: the page came back to the same "
                             "state 5 times.")
    clicks = [e for e in events if e["kind"] == "tool_result" and e["data"]["tool"] == "click"]
    assert len(clicks) == 6 and all(c["data"]["success"] for c in clicks)
    warned = [w for w in worker if "WARNING: the page came back to this same state" in w]
    assert len(worker) == 7 and len(warned) == 2
    assert "came back to this same state 3 times" in worker[5]
    assert "came back to this same state 4 times" in worker[6]
    assert site.orders == []


def test_run_in_a_browser_started_without_llm_settings_uses_the_terminals(monkeypatch) -> None:
    """The user's own browser: Chrome started the host with Chrome's environment (no HEYBRO_*
    model settings, no config file). `heybro run` in a terminal that has them hands them over
    with the task; the host's logs and store never hold the API key."""
    import time

    from support.browser import launch

    from heybro.endpoint import files

    secret = "sk-terminal-only-5f3a9c"
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Look at the shop"]}),
                                  ("start_work", {}))],
              "worker": [call("mark_done", summary="The shop's home page is open")],
              "verifier": [call("mark_complete", reason="Home page shown", confidence=0.9)]}
    with DemoSite() as site, ScriptedLLM(script) as llm, launch() as eb:
        monkeypatch.setenv("HEYBRO_HOME", str(eb.home))
        eb.open_panel()  # the panel connects the extension, which starts its host
        deadline = time.monotonic() + 30
        while files.read() is None:
            assert time.monotonic() < deadline, "the browser's host never announced itself"
            time.sleep(0.1)
        host = files.read()["pid"]
        host_env = Path(f"/proc/{host}/environ").read_bytes()
        assert b"HEYBRO_LLM_BASE_URL" not in host_env and b"HEYBRO_MODEL" not in host_env
        terminal = eb.env | llm.env(HEYBRO_LLM_API_KEY=secret)
        r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", "Look at the shop",
                            "--url", site.url], env=terminal, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, (r.stdout, r.stderr)
        assert f"Using your running browser (heybro host pid {host})" in r.stdout
        assert "✓ completed: Home page shown" in r.stdout
        assert len(llm.requests) == 3 and llm.remaining() == {}
        leaked = [p for p in eb.home.rglob("*") if p.is_file()
                  and secret.encode() in p.read_bytes()]
        assert leaked == []


def test_the_browser_heybro_run_starts_and_its_host_never_get_the_key(tmp_path: Path, monkeypatch) -> None:
    """`heybro run` starts Chromium without the terminal's API keys in its environment: nor do the
    host it starts, or their helpers, see them (the task carries its settings over the endpoint)."""
    import asyncio

    from heybro.cli_run import LaunchedChromium

    secret = "sk-terminal-only-9d1e7b"
    for k, v in (base_env(tmp_path / "home") | {"HEYBRO_LLM_API_KEY": secret, "OPENAI_API_KEY": secret}).items():
        monkeypatch.setenv(k, v)
    chromium = LaunchedChromium(tmp_path / "profile", headless=True)
    try:
        info = asyncio.run(chromium.endpoint())
        kids = subprocess.run(["pgrep", "-s", str(chromium.proc.pid)], capture_output=True, text=True).stdout.split()
        pids = {chromium.proc.pid, int(info["pid"]), *map(int, kids)}
        seen = {p: Path(f"/proc/{p}/environ").read_bytes() for p in pids if Path(f"/proc/{p}").exists()}
        assert int(info["pid"]) in seen and len(seen) > 2
        assert not [p for p, env in seen.items() if secret.encode() in env]
    finally:
        chromium.close()


def _chromium_in(profile: Path) -> subprocess.Popen[bytes]:
    """A Chromium holding `profile`, started the way `heybro run` starts one, once it is up."""
    import time

    from heybro.browser.chromium import QUIET_FLAGS, find_chromium
    chromium = find_chromium()
    assert chromium
    proc = subprocess.Popen([chromium, *QUIET_FLAGS, f"--user-data-dir={profile}", "--headless=new",
                             "--no-sandbox", "--remote-debugging-port=0", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 30
    while not (profile / "DevToolsActivePort").exists() or not (profile / "SingletonLock").is_symlink():
        assert time.monotonic() < deadline and proc.poll() is None, "Chromium did not start"
        time.sleep(0.05)
    return proc


def test_a_profile_left_by_a_killed_browser_is_used_again_and_a_live_one_is_named() -> None:
    """`heybro run --profile P` after the Chromium in P was killed outright (its lock and its
    DevToolsActivePort left behind, naming a port nobody listens on): the run works. While a
    Chromium still holds P, the run refuses at once and names it."""
    import os
    import signal

    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site:
        home, profile = Path(tmp) / "home", Path(tmp) / "profile"
        old = _chromium_in(profile)
        env = base_env(home)
        args = [sys.executable, "-m", "heybro.cli", "run", "Buy a blue kettle for Ann Lee", "--url", site.url,
                "--profile", str(profile), "--new-browser", "--headless", "--json"]
        try:
            with ScriptedLLM(demo_script.happy()) as llm:
                r = subprocess.run(args, env=env | llm.env(), capture_output=True, text=True, timeout=60)
            assert r.returncode == 1 and f"The profile {profile} is in use by a running Chromium (pid {old.pid})" in r.stderr, r.stderr
            assert old.poll() is None  # (the user's browser is left alone)
        finally:
            os.killpg(old.pid, signal.SIGKILL)
            old.wait(timeout=10)
        assert (profile / "DevToolsActivePort").exists() and (profile / "SingletonLock").is_symlink()
        with ScriptedLLM(demo_script.happy()) as llm:
            r = subprocess.run(args, env=env | llm.env(), capture_output=True, text=True, timeout=240)
        events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
        assert r.returncode == 0, (r.stderr, final(events) if events else None)
        assert len(site.orders) == 1


SIZED_PAGE = """<!doctype html><title>{title}</title><h1>{title}</h1><a href="{link}">{label}</a>
<p id="size"></p><script>
const size = document.getElementById("size");
size.textContent = "Viewport " + innerWidth + "x" + innerHeight;
addEventListener("resize", () => {{ size.textContent += "; resized to " + innerWidth + "x" + innerHeight; }});
</script>"""


def test_the_page_keeps_its_size_while_heybro_works_in_the_browser_it_starts(tmp_path: Path) -> None:
    """heybro holds the tab's debugger while it acts (to answer the page's dialogs). In the Chromium
    `heybro run` starts, Chrome's "started debugging" bar must not slide in over the page: the
    page heybro located its elements on would shrink and be laid out anew under it."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(SIZED_PAGE.format(title="Start", link="next.html", label="Next page"))
    (site / "next.html").write_text(SIZED_PAGE.format(title="Next", link="index.html", label="Back"))
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Open the next page"]}),
                                  ("start_work", {}))],
              # After the click, 2 s for the next page to be resized (the bar sliding in): a wait,
              # then the page read again (a wait_for that never sees its words is a failed check).
              "worker": [lambda b: call("click", element_id=find_id(b, 'link "Next page"'),
                                        expect="text:Next"),
                         call("wait", seconds=2),
                         call("mark_done", summary="The next page is open")],
              "verifier": [call("mark_complete", reason="The next page is open", confidence=0.9)]}
    with serve(site) as url, ScriptedLLM(script) as llm:
        r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", "Open the next page",
                            "--url", f"{url}/index.html", "--new-browser", "--headless", "--json"],
                           env=base_env(tmp_path / "home") | llm.env(), capture_output=True,
                           text=True, timeout=240)
        assert r.returncode == 0, r.stderr
        pages = [user_text(b).split("PAGE", 1)[-1] for b in llm.role_requests("worker")]
    sizes = [m.group(1) for p in pages if (m := re.search(r"Viewport (\d+x\d+)", p))]
    assert len(sizes) == len(pages) == 3 and "Next page" in pages[0] and "Back" in pages[-1], pages
    # The start page before heybro acted, the next page after its click and 2 s later: one size,
    # never resized.
    assert set(sizes) == {sizes[0]}, pages
    assert not any("resized" in p for p in pages), pages
