"""What heybro learned about a site, end to end in real Chromium with the real extension and host
(the scripted model): a task keeps two learnings, the open "Learned" list in the side panel shows
them as they are kept — as plain text, with the page each was learned on — Forget removes one from
the store at once, and the next task on that site is given the other one only."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from heybro.demo import DemoSite
from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, calls, user_text
from support.shop_rig import wait_status

pytestmark = pytest.mark.browser

# A page can shape what a model notes: markup in a learning is words, never markup in the panel.
WRONG = "Search is under <b>Account</b>, not at the top"
RIGHT = "The search box is at the top of every page"


def test_the_panel_lists_what_a_task_learned_and_forget_keeps_it_from_the_next_task(
        tmp_path: Path) -> None:
    plan = calls(("set_subtasks", {"subtasks": ["Find the shop's search"]}), ("start_work", {}))
    script = {"scheduler": [plan, plan],
              "worker": [call("mark_done", summary="Found the search box", learned=WRONG),
                         call("mark_done", summary="Found the search box")],
              "verifier": [call("mark_complete", reason="the search box is there", confidence=0.9,
                                learned=RIGHT),
                           call("mark_complete", reason="the search box is there", confidence=0.9)]}
    with DemoSite() as site, ScriptedLLM(script) as llm, \
            launch(env_extra=llm.env(), home=tmp_path / "home") as eb:
        origin = site.url.rstrip("/")
        eb.ctx.new_page().goto(site.url)
        panel = eb.open_panel()
        errors: list[str] = []
        panel.on("pageerror", lambda e: errors.append(str(e)))
        expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=30_000)
        panel.get_by_text("Learned", exact=True).click()
        box = panel.locator("#learned-list")
        expect(box).to_contain_text("Nothing learned yet.")

        panel.fill("#goal", "Find the shop's search")
        panel.click("#send")
        wait_status(panel, "Completed", 90_000)
        # Kept during the task: the open list shows both, under the site the user looks at.
        here = box.get_by_role("group", name=f"This site · {origin}")
        expect(here.get_by_role("heading")).to_have_text(f"This site · {origin}")
        expect(here.get_by_role("button", name=f"Forget all 2 learned about {origin}")).to_be_visible()
        items = here.locator("li.learning")
        expect(items).to_have_count(2)
        wrong = items.filter(has_text="Account")
        expect(wrong.locator("[data-field=text]")).to_have_text(WRONG)  # the words, as words
        assert wrong.locator("b").count() == 0
        expect(wrong.locator("[data-field=page]")).to_have_text(f"on {site.url}")
        expect(wrong.locator("[data-field=when]")).not_to_be_empty()

        # Forget, from the keyboard: gone from the list and the store at once.
        forget = wrong.get_by_role("button", name="Forget: Search is under <b>Account</b>")
        forget.focus()
        panel.keyboard.press("Enter")
        expect(items).to_have_count(1)
        expect(items.locator("[data-field=text]")).to_have_text(RIGHT)
        expect(panel.locator("#learned-status")).to_have_text(f"Forgot “{WRONG}”.")
        expect(items.get_by_role("button", name=f"Forget: {RIGHT[:40]}")).to_be_focused()
        kept = eb.heybro("experiences").stdout
        assert "Account" not in kept and RIGHT in kept and f"on {site.url}" in kept, kept

        # The next task on the shop is given what is left, not what was forgotten. (Its worker
        # reads them with the page; its planner, planning before any page is read on a task
        # started on the current tab, is given a site's learnings when it plans again.)
        before = len(llm.role_requests("worker"))
        panel.click("#dismiss")
        panel.fill("#goal", "Find the shop's search again")
        panel.click("#send")
        expect(panel.locator("#task-goal")).to_have_text("Find the shop's search again")
        wait_status(panel, "Completed", 90_000)
        seen = user_text(llm.role_requests("worker")[before])
        assert RIGHT in seen and "Account" not in seen, seen
        assert errors == []
