"""Experiences: what a role learned about a site is kept per site in the real SQLite store (capped,
de-duplicated, deletable) and handed to the scheduler and the worker the next time they work there
— a second run of the same task takes fewer steps."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from support.agent_harness import prompts, run_task
from support.fake_browser import El, FakeBrowser
from support.scripted_llm import ScriptedLLM, call, calls, user_text

from heybro.agent.experience import PER_SITE
from heybro.agent.models import TaskStatus
from heybro.store import TaskStore
from heybro.store.experiences import StoreExperiences

TIP = "Search is inside the Menu button; the search page is /search"


def site() -> FakeBrowser:
    return FakeBrowser(pages={
        "http://shop.test/": [El("e1", "button", "Menu", href="http://shop.test/menu")],
        "http://shop.test/menu": [El("e1", "link", "Search", href="http://shop.test/search")],
        "http://shop.test/search": [El("e1", "input", "Search products")]})


def worker(body: dict[str, Any]) -> Any:
    """Plays a model: uses what was learned when the prompt carries it, else explores."""
    text = user_text(body)
    page = text.split("PAGE (untrusted", 1)[-1]
    if "Search products" in page:
        return call("mark_done", summary="On the search page", learned=TIP)
    if TIP in text:
        return call("navigate", url="http://shop.test/search")
    return call("click", element_id="e1")


def run(store: TaskStore) -> tuple[Any, Any, ScriptedLLM]:
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Open the search page"]}),
                                  ("start_work", {}))],
              "verifier": [call("mark_complete", reason="search page", confidence=0.9)]}
    with ScriptedLLM(script, default={"worker": worker}) as llm:
        task, rec, result = run_task(llm, site(), goal="Open the shop's search",
                                     url="http://shop.test/",
                                     env_hook=lambda env: setattr(env.services, "experiences",
                                                                  StoreExperiences(store)))
    assert result.status == TaskStatus.completed, task.result
    return task, rec, llm


def test_a_second_run_uses_what_the_first_learned_and_takes_fewer_steps(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "tasks.sqlite3")
    first, rec1, _ = run(store)
    assert [e.text for e in StoreExperiences(store).for_site("http://shop.test")] == [TIP]
    assert rec1.kinds("experience")[0]["site"] == "http://shop.test"
    store.close()

    store = TaskStore(tmp_path / "tasks.sqlite3")  # another host, later
    second, rec2, llm = run(store)
    assert TIP in prompts(llm, "scheduler")[0] and TIP in prompts(llm, "worker")[0]
    assert second.steps < first.steps, (first.steps, second.steps)
    assert rec2.kinds("experience") == []  # the same learning again is not kept twice
    assert len(StoreExperiences(store).for_site("http://shop.test")) == 1


def test_two_applications_on_one_host_do_not_share_what_was_learned(tmp_path: Path) -> None:
    """Learnings are kept by origin: 127.0.0.1:8080 and 127.0.0.1:8081 are two applications; a
    learning an older heybro kept under a bare host name still reaches it on its default port."""
    store = TaskStore(tmp_path / "tasks.sqlite3")
    book = StoreExperiences(store)
    book.add("http://127.0.0.1:8080", "The wiki's search is in the sidebar")
    book.add("127.0.0.1", "Kept under a bare host name by an older heybro")

    def scheduler_sees(url: str) -> str:
        script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Look"]}), ("start_work", {}))],
                  "worker": [call("mark_done", summary="looked")],
                  "verifier": [call("mark_complete", reason="looked", confidence=0.9)]}
        with ScriptedLLM(script) as llm:
            run_task(llm, FakeBrowser(pages={url: [El("e1", "link", "Home", href=url)]}),
                     goal="Look around", url=url,
                     env_hook=lambda env: setattr(env.services, "experiences", book))
            return prompts(llm, "scheduler")[0]

    wiki, admin, plain = (scheduler_sees("http://127.0.0.1:8080/wiki/Main"),
                          scheduler_sees("http://127.0.0.1:8081/admin"),
                          scheduler_sees("http://127.0.0.1/start"))
    assert "search is in the sidebar" in wiki and "older heybro" not in wiki
    assert "sidebar" not in admin and "older heybro" not in admin
    assert "older heybro" in plain and "sidebar" not in plain


def test_learnings_are_capped_per_site_deduplicated_and_deletable(tmp_path: Path) -> None:
    book = StoreExperiences(TaskStore(tmp_path / "tasks.sqlite3"))
    for i in range(PER_SITE + 5):
        book.add("a.test", f"Tip number {i} about widgets {i * 7}")
    assert len(book.for_site("a.test")) == PER_SITE
    assert book.for_site("a.test")[-1].text == f"Tip number {PER_SITE + 4} about widgets {(PER_SITE + 4) * 7}"
    assert book.add("a.test", "tip number 24 about  widgets 168") is None  # said already
    kept = book.add("b.test", "Login is under Account")
    assert kept is not None and [e.text for e in book.for_site("b.test")] == ["Login is under Account"]
    assert book.delete(kept.id) and book.for_site("b.test") == []


def test_the_terminal_lists_and_deletes_what_was_learned(tmp_path: Path) -> None:
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("HEYBRO_")}
    env["HEYBRO_HOME"] = str(tmp_path)

    def heybro(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "heybro.cli", "experiences", *args], env=env,
                              capture_output=True, text=True, timeout=60)

    assert "not learned anything yet" in heybro().stdout
    (tmp_path / "data").mkdir(parents=True, exist_ok=True)
    book = StoreExperiences(TaskStore(tmp_path / "data" / "tasks.sqlite3"))
    kept = book.add("http://shop.test", TIP, "t-1", page="http://shop.test/menu")
    book.add("other.test", "Prices include VAT\x1b[2J")  # a page's escape sequence, kept
    assert kept is not None
    listed = heybro().stdout
    assert "shop.test" in listed and f"#{kept.id}  {TIP}  (" in listed and "other.test" in listed
    assert "on http://shop.test/menu)" in listed  # the page it was learned on
    assert "\x1b" not in listed and "Prices include VAT\N{REPLACEMENT CHARACTER}[2J" in listed
    assert "Prices include VAT" not in heybro("shop.test").stdout
    assert "Deleted learning" in heybro("--delete", str(kept.id)).stdout
    assert book.for_site("shop.test") == []
    gone = heybro("--delete", str(kept.id))
    assert gone.returncode == 1 and "No learning" in gone.stderr


def test_the_panels_learned_list_lists_and_forgets_through_the_native_host(tmp_path: Path) -> None:
    """The panel's "Learned" list, as the host answers it over native messaging (the real host
    process, frames on stdio as Chrome sends them): every learning with its site, page, task and
    time; a page's own first; one forgotten, then a whole site — and the next task on that site
    is no longer given them."""
    import os

    from heybro.endpoint.files import NO_ENDPOINT
    from heybro.native.client import HostProcess

    db = tmp_path / "tasks.sqlite3"
    book = StoreExperiences(TaskStore(db))
    tip = book.add("http://shop.test", TIP, "t-first", page="http://shop.test/menu")
    vat = book.add("shop.test", "Prices include VAT")  # kept by an older heybro, by host name
    wiki = [book.add("http://127.0.0.1:8080", text, "t-wiki", page="http://127.0.0.1:8080/wiki")
            for text in ("The wiki's search is in the sidebar", "Edit needs the pencil icon")]
    assert tip and vat and all(wiki)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("HEYBRO_")},
           "HEYBRO_HOME": str(tmp_path / "home"), "HEYBRO_DB": str(db), NO_ENDPOINT: "1"}
    with HostProcess([sys.executable, "-m", "heybro.native"], env=env) as host:
        assert host.hello()["type"] == "hello_ok"

        def ask(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
            return host.request(type_, payload)

        everything = ask("experience.list", {})
        assert everything["type"] == "experience.list_result"
        listed = {e["text"]: e for e in everything["payload"]["experiences"]}
        assert set(listed) == {TIP, "Prices include VAT", "The wiki's search is in the sidebar",
                               "Edit needs the pencil icon"}
        assert {k: listed[TIP][k] for k in ("id", "site", "page", "task_id")} == {
            "id": tip.id, "site": "http://shop.test", "page": "http://shop.test/menu",
            "task_id": "t-first"}
        assert abs(listed[TIP]["created_at"] - tip.created_at) < 1
        # What a page of the shop is given: its origin's, and what was kept under its host name.
        here = ask("experience.list", {"site": "http://shop.test/search?q=kettle"})
        assert {e["text"] for e in here["payload"]["experiences"]} == {"Prices include VAT", TIP}

        assert ask("experience.forget", {"id": tip.id})["payload"] == {"ids": [tip.id]}
        assert ask("experience.forget", {"id": tip.id})["payload"] == {"ids": []}  # gone already
        whole = ask("experience.forget", {"site": "http://127.0.0.1:8080"})
        assert whole["type"] == "experience.forgotten"
        assert sorted(whole["payload"]["ids"]) == sorted(w.id for w in wiki if w)
        host.send({"v": 1, "id": "both-at-once", "type": "experience.forget",
                   "payload": {"id": vat.id, "site": "shop.test"}})  # (build() refuses it)
        both = host.recv()
        assert both["re"] == "both-at-once" and both["payload"]["code"] == "schema_violation"
        left = ask("experience.list", {})["payload"]["experiences"]
        assert [e["text"] for e in left] == ["Prices include VAT"]

    # The next task on the shop is given what is left, not what was forgotten.
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Look"]}), ("start_work", {}))],
              "worker": [call("mark_done", summary="looked")],
              "verifier": [call("mark_complete", reason="looked", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        run_task(llm, site(), goal="Look around the shop", url="http://shop.test/",
                 env_hook=lambda env: setattr(env.services, "experiences", book))
    for role in ("scheduler", "worker"):
        seen = prompts(llm, role)[0]
        assert "Prices include VAT" in seen and TIP not in seen, seen
