"""Replaying a saved routine end to end: the real `heybro routine run` asks the real host (started
by the real extension in Chromium) to replay the demo order; steps re-find their elements by the
signatures a real observe gave, and the shop records what happened. The routine is recorded on the
demo shop; changed copies of the shop (tests/support/mutated_pages.py) are what it meets later."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from support.routine_rig import final, order, rig
from support.shop_policy import ShopPolicy

from heybro.store.routines import StoreRoutines

pytestmark = pytest.mark.browser


def test_unchanged_page_replays_the_order_without_a_model_call(tmp_path: Path) -> None:
    with rig(tmp_path) as r:
        rc, events, err = r.replay("--param", "name=Bo Chen", "--param", "email=bo@example.com")
        assert rc == 0, (err, events[-3:])
        assert [o | {"id": "x"} for o in r.site.orders] == [order("Bo Chen", "bo@example.com")]
        assert r.llm.requests == []
        (listed,) = StoreRoutines(r.store).listing()
        assert (listed.last_task, listed.last_status, listed.last_model_calls,
                listed.last_heals) == (events[0]["task_id"], "completed", 0, 0)
        assert "0 healed, 0 model call" in final(events)["reason"]
        assert r.saved() == r.routine  # nothing healed: the routine is as saved


def test_changed_page_is_healed_and_the_routine_updated_after_it_verifies(tmp_path: Path) -> None:
    mutations = ["classes hashed", "wrappers added", "text tweaked", "button moved",
                 "links as buttons"]
    with rig(tmp_path, mutations) as r:
        rc, events, err = r.replay("--url", r.changed.url)
        assert rc == 0, (err, [e["data"] for e in events][-6:])
        assert [o | {"id": "x"} for o in r.changed.orders] == [order("Ann Lee", "ann@example.com")]
        assert r.site.orders == []
        saved = r.saved()
        assert saved.heals == len(r.heal.heals) >= 1
        # A second replay on the changed shop needs no model: the healed steps re-find.
        calls = len(r.llm.requests)
        rc, events, err = r.replay("--url", r.changed.url)
        assert rc == 0, (err, [e["data"] for e in events][-6:])
        assert len(r.llm.requests) == calls
        assert len(r.changed.orders) == 2


# A redesign re-finding cannot follow (the product links became buttons with other words).
BEYOND_REFIND = ["links as buttons", "text tweaked"]


def test_a_heal_that_fails_stops_the_run_when_asked_and_changes_nothing(tmp_path: Path) -> None:
    with rig(tmp_path, BEYOND_REFIND, can_heal=False) as r:
        rc, events, err = r.replay("--url", r.changed.url, "--on-heal-failure", "stop")
        assert rc == 1, err
        end = final(events)
        assert end["status"] == "failed"
        assert "step 3 (click on link \"Blue Kettle\")" in end["reason"]
        assert "stopped there, as asked" in end["reason"]
        assert r.changed.orders == [] and r.site.orders == []
        assert r.heal.heals == ["click Blue Kettle"]  # the model was asked for that step only
        (listed,) = StoreRoutines(r.store).listing()
        assert (listed.last_status, listed.last_heals) == ("failed", 0)
        assert listed.last_model_calls == len(r.llm.requests) >= 1
        assert r.saved() == r.routine


def test_a_heal_that_fails_hands_the_rest_to_the_model_when_asked(tmp_path: Path) -> None:
    from support.scripted_llm import call, calls, find_id, user_text

    def worker(body: dict[str, Any]) -> Any:  # the model doing the rest of the task
        page = user_text(body).split("PAGE (untrusted", 1)[-1]
        if "Order confirmed" in page:
            return call("mark_done", summary="The order is confirmed")
        if "Your full name" in page:
            return calls(("fill", {"element_id": find_id(body, "Your full name"),
                                   "value": "Ann Lee"}),
                         ("fill", {"element_id": find_id(body, "Email"),
                                   "value": "ann@example.com"}),
                         ("click", {"element_id": find_id(body, "Place your order")}))
        if "Buy it now" in page:
            return call("click", element_id=find_id(body, "Buy it now"))
        return call("click", element_id=find_id(body, 'button "Blue Kettle"'))

    policy = ShopPolicy().defaults() | {"worker": worker}
    with rig(tmp_path, BEYOND_REFIND, can_heal=False, fallback=policy) as r:
        rc, events, err = r.replay("--url", r.changed.url)
        assert rc == 0, (err, [e["data"] for e in events][-5:])
        assert [o | {"id": "x"} for o in r.changed.orders] == [order("Ann Lee", "ann@example.com")]
        said = " ".join(str(e["data"].get("text")) for e in events if e["kind"] == "message")
        assert "Replay handed over to the model" in said
        # The routine is not changed by a run the model finished.
        assert r.saved() == r.routine
        (listed,) = StoreRoutines(r.store).listing()
        assert listed.last_model_calls == len(r.llm.requests)


def test_unknown_parameter_or_routine_is_refused_with_what_it_takes(tmp_path: Path) -> None:
    with rig(tmp_path) as r:
        rc, events, err = r.replay("--param", "nmae=Bo")
        assert rc == 2 and events == []
        assert "unknown parameter(s) nmae; this routine takes: email, name, query" in err
        rc, events, err = r.replay(name="kettle-ordr")
        assert rc == 2 and "no routine named 'kettle-ordr' (routines: kettle-order)" in err
        rc, _, err = r.replay("--param", "name")
        assert rc == 2 and "NAME=VALUE" in err
        assert r.site.orders == [] and r.llm.requests == []


def test_the_confirmation_before_ordering_and_a_no_while_paused(tmp_path: Path) -> None:
    """Before a click that may spend money the replay asks, as a task does ("Buy now" only leads
    to the checkout page: no question); paused while it asks, the user's no still ends the run
    unordered, and no step is done twice."""
    with rig(tmp_path, confirm=True) as r:
        proc = r.start()
        task_id = r.task_id()
        assert task_id
        r.until("waiting")  # "About to click Place order … spend money. Go ahead?"
        row = r.store.get_task(task_id)
        assert row is not None and "Place order" in (row.reason or "")
        done = [a.params.get("routine_step") for a in r.store.actions(task_id)]
        # Place order (6) went to the page, which holds it for the user's word.
        assert done == [0, 1, 2, 3, 4, 5, 6]
        assert r.heybro("pause", task_id).returncode == 0
        assert r.heybro("message", task_id, "No").returncode == 0
        out, err = proc.communicate(timeout=60)
        events = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        assert proc.returncode == 1, err
        assert final(events)["status"] == "stopped"
        assert "said no to click" in final(events)["reason"]
        assert r.site.orders == [] and r.llm.requests == []
        # No step was repeated: the ledger holds each once.
        assert [a.params.get("routine_step") for a in r.store.actions(task_id)] == done


def test_host_killed_while_ordering_resumes_after_the_last_step_and_orders_once(
        tmp_path: Path) -> None:
    """The worst moment: the shop has taken the order and the host dies before it hears so. The
    run comes back paused; resumed, it does not click Place order again (the page shows the
    step's outcome) and completes with one order."""
    import os
    import signal

    from support.browser import host_pids

    with rig(tmp_path) as r:
        def crash(_: dict[str, Any]) -> None:
            for pid in host_pids(r.eb.home):
                os.kill(pid, signal.SIGKILL)
        r.site.on_order = crash
        proc = r.start()
        task_id = r.task_id()
        assert task_id
        r.until("paused", 60)
        r.site.on_order = None
        assert len(r.site.orders) == 1
        cut = [(a.params.get("routine_step"), a.state) for a in r.store.actions(task_id)]
        assert cut[-1] == (6, "interrupted"), cut
        expect(r.panel.locator("#host-pill")).to_have_text("Host connected", timeout=30_000)
        assert r.heybro("resume", task_id).returncode == 0
        out, err = proc.communicate(timeout=120)
        events = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        assert proc.returncode == 0, (err, [e["data"] for e in events][-4:])
        assert len(r.site.orders) == 1, r.site.orders
        assert r.llm.requests == []
        assert [a.params.get("routine_step") for a in r.store.actions(task_id)] == list(range(7))


def test_a_routine_scheduled_with_no_model_and_no_terminal_replays_in_a_headless_browser(
        tmp_path: Path) -> None:
    with rig(tmp_path) as r:
        done = r.scheduled("--param", "name=Bo Chen", "--param", "email=bo@example.com")
        assert done.returncode == 0, (done.stdout[-1500:], done.stderr)
        assert [o | {"id": "x"} for o in r.site.orders] == [order("Bo Chen", "bo@example.com")]
        assert r.llm.requests == []
        steps = len(r.routine.steps)
        # The summary counts what happened: every replayed step is an action.
        assert f"\n  {steps} actions, 0 LLM calls" in done.stdout, done.stdout[-600:]
        (listed,) = StoreRoutines(r.store).listing()
        assert (listed.last_status, listed.last_model_calls) == ("completed", 0)


def test_a_scheduled_run_whose_page_changed_stops_saying_healing_needs_a_model(
        tmp_path: Path) -> None:
    with rig(tmp_path, BEYOND_REFIND) as r:
        done = r.scheduled("--url", r.changed.url)
        assert done.returncode == 1, (done.stdout[-1500:], done.stderr)
        said = "healing it needs a model, and none is configured. Set one with `heybro config"
        assert said in done.stdout, done.stdout[-1500:]
        assert r.changed.orders == [] and r.site.orders == []
        (listed,) = StoreRoutines(r.store).listing()
        assert listed.last_status == "failed"
        assert said in (r.store.get_task(listed.last_task).reason or "")


def test_a_scheduled_run_that_asks_first_is_stopped_since_nobody_can_answer(tmp_path: Path) -> None:
    with rig(tmp_path, confirm=True) as r:
        done = r.scheduled()
        assert done.returncode == 4, (done.stdout[-1500:], done.stderr)
        assert "nobody can answer here (no terminal, no browser window); it is stopped" \
            in done.stderr
        assert r.site.orders == []
        (listed,) = StoreRoutines(r.store).listing()
        assert listed.last_status == "stopped"
        # The user lets heybro act on that site without asking: the scheduled run goes alone.
        told = r.heybro("config", "--confirm-off-site", r.site.url)
        assert "never asks first on   127.0.0.1" in told.stdout, told.stdout + told.stderr
        done = r.scheduled()
        assert done.returncode == 0, (done.stdout[-1500:], done.stderr)
        assert len(r.site.orders) == 1
