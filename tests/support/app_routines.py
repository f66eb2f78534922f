"""Two tasks on real applications as saved routines, recorded like the demo order's (signatures
from a real observe of the application's pages), with the agent's scripted moves for the same
task and a check of each outcome in the application's own database."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page

from heybro.agent.expect import parse_expect
from heybro.routines.model import Outcome, Parameter, Routine, Step

from .apps import MediaWiki, WordPress
from .browser import ExtBrowser
from .scripted_llm import call, calls, find_id
from .shop_routine import observe_tab, run_tool, signature


@dataclass
class AppTask:
    name: str
    goal: str  # with {{param:…}}
    start: Callable[[str, dict[str, str]], str]  # (origin, values) -> the start page there
    record: Callable[[ExtBrowser, Page, Any], Routine]
    agent: Callable[[dict[str, str]], dict[str, list[Any]]]  # the scripted agent's moves
    done: Callable[[Any, dict[str, str]], bool]  # the outcome is in the database
    snapshot: Callable[[Any], Any]  # what else a wrong action would change


def _step(sigs: dict[str, Any], tool: str, on: str, intent: str, expect: str | None = None,
          **args: Any) -> Step:
    return Step(tool=tool, args=args, signature=sigs[on], intent=intent,
                expect=parse_expect(expect) if expect else None)


def _plan(goal: str) -> list[Any]:
    return [calls(("set_subtasks", {"subtasks": [goal]}), ("start_work", {}))]


def _verified(reason: str) -> list[Any]:
    return [call("mark_complete", reason=reason, confidence=0.9)]


# --- MediaWiki: create a page --------------------------------------------------------------------

def _wiki_record(eb: ExtBrowser, page: Page, wiki: MediaWiki) -> Routine:
    page.goto(f"{wiki.url}/index.php?title=Recorded_page&action=edit")
    obs = observe_tab(eb, page)
    sigs = {k: signature(obs, k, role) for k, role in (("Wikitext source editor", "textbox"),
                                                         ("Summary:", "textbox"),
                                                         ("Save page", "button"))}
    return Routine(
        name="wiki-new-page", goal="Create the wiki page {{param:title}}",
        start_url=f"{wiki.url}/index.php?title={{{{param:title}}}}&action=edit",
        parameters=[Parameter(name="title", default="Recorded_page"),
                    Parameter(name="text", default="Kettles boil water."),
                    Parameter(name="summary", default="New page")],
        subtasks=[Outcome(text="Write and save the page",
                          done_when=parse_expect('no element:button "Save page"'))],
        steps=[_step(sigs, "fill", "Wikitext source editor", "write the page's wikitext",
                     value="{{param:text}}"),
               _step(sigs, "fill", "Summary:", "describe the edit", value="{{param:summary}}"),
               _step(sigs, "click", "Save page", "save the page",
                     'no element:button "Save page"')])


def _wiki_agent(v: dict[str, str]) -> dict[str, list[Any]]:
    return {"scheduler": _plan("Write and save the page"),
            "worker": [lambda b: calls(
                ("fill", {"element_id": find_id(b, 'textbox "Wikitext source editor"'),
                          "value": v["text"]}),
                ("fill", {"element_id": find_id(b, 'textbox "Summary"'), "value": v["summary"]}),
                ("click", {"element_id": find_id(b, 'button "Save page"')})),
                call("mark_done", summary="The page is saved")],
            "verifier": _verified("The wiki shows the new page")}


WIKI_PAGE = AppTask(
    name="MediaWiki: create a page (3 steps)", goal="Create the wiki page {{param:title}}",
    start=lambda base, v: f"{base}/index.php?title={v['title']}&action=edit",
    record=_wiki_record, agent=_wiki_agent,
    done=lambda wiki, v: wiki.page_text(v["title"]) == v["text"],
    snapshot=lambda wiki: wiki.sql("SELECT COUNT(*) FROM revision")[0][0])


# --- WordPress: set the tagline through the Settings flyout --------------------------------------

def _wp_record(eb: ExtBrowser, page: Page, wp: WordPress) -> Routine:
    page.goto(f"{wp.url}/wp-admin/")
    settings = signature(observe_tab(eb, page), "Settings", "link")
    for _ in range(5):  # its pages show in a flyout while it is hovered
        run_tool(eb, page, "hover", {"signature": settings})
        page.wait_for_timeout(300)
        try:
            general = signature(observe_tab(eb, page), "General", "link")
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("the Settings flyout never showed General")
    page.goto(f"{wp.url}/wp-admin/options-general.php")
    form = observe_tab(eb, page)
    page.goto(f"{wp.url}/wp-admin/")
    sigs = {"Settings": settings, "General": general, "Tagline": signature(form, "Tagline", "textbox")}
    return Routine(
        name="wp-tagline", goal="Change the site's tagline to {{param:tagline}}",
        start_url=f"{wp.url}/wp-admin/",
        parameters=[Parameter(name="tagline", default="Kettles and teapots")],
        subtasks=[Outcome(text="Set the tagline in Settings > General",
                          done_when=parse_expect("text:Settings saved"))],
        steps=[_step(sigs, "hover", "Settings", "open the Settings menu"),
               _step(sigs, "click", "General", "open Settings > General",
                     "url:options-general.php"),
               _step(sigs, "fill", "Tagline", "enter the new tagline", value="{{param:tagline}}"),
               _step(sigs, "press", "Tagline", "submit the settings form", "text:Settings saved",
                     keys="Enter")])


def _wp_agent(v: dict[str, str]) -> dict[str, list[Any]]:
    return {"scheduler": _plan("Set the tagline in Settings > General"),
            "worker": [lambda b: call("hover", element_id=find_id(b, 'link "Settings"')),
                       lambda b: call("click", element_id=find_id(b, 'link "General"'),
                                      expect="url:options-general.php"),
                       lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Tagline"'),
                                                 "value": v["tagline"]}),
                                       ("press", {"element_id": find_id(b, 'textbox "Tagline"'),
                                                  "keys": "Enter"})),
                       call("mark_done", summary="The tagline is saved")],
            "verifier": _verified("Settings saved")}


def _wp_option(wp: WordPress, name: str) -> str:
    rows = wp.sql(f"SELECT option_value FROM wp_options WHERE option_name = '{name}'")
    return rows[0][0] if rows else ""


WP_TAGLINE = AppTask(
    name="WordPress: set the tagline (4 steps)",
    goal="Change the site's tagline to {{param:tagline}}",
    start=lambda base, v: f"{base}/wp-admin/", record=_wp_record, agent=_wp_agent,
    done=lambda wp, v: _wp_option(wp, "blogdescription") == v["tagline"],
    snapshot=lambda wp: (_wp_option(wp, "blogname"), _wp_option(wp, "admin_email")))
