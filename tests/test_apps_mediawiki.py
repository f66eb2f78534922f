"""MediaWiki, a real application nobody here wrote, driven end to end: real Chromium, the real
extension, the real host over native messaging and the real `heybro run`; the scripted model reads
every element id off the page map in its prompt. Each outcome is read from the wiki's own SQLite
database (or, for search, checked against the wiki's own search API)."""

from __future__ import annotations

import json
import re
import shutil
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.app_task import run_task
from support.apps import MediaWiki, mediawiki, mediawiki_tree
from support.browser import ExtBrowser, launch
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text

pytestmark = pytest.mark.browser

PAGES = {
    "Kettle": "A '''kettle''' boils water.\n\n== History ==\nOld text about kettles.\n\n"
              "== Use ==\nFill it, switch it on, wait for the click.\n",
    "Electric kettle": "An electric kettle boils water with a heating element.\n",
    "Samovar": "A samovar boils water for tea in Russia.\n",
    "Teapot": "A teapot steeps tea; it does not heat water.\n",
}


@pytest.fixture(scope="module")
def wiki() -> Iterator[MediaWiki]:
    with mediawiki() as site:
        for title, text in PAGES.items():
            site.edit(title, text)
        yield site


@pytest.fixture
def editor(wiki: MediaWiki) -> Iterator[ExtBrowser]:
    """A fresh browser with the extension, logged in to the wiki as its administrator."""
    with launch() as eb:
        wiki.login(eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page())
        yield eb


def plan(goal: str) -> list[Any]:
    return [calls(("set_subtasks", {"subtasks": [goal]}), ("start_work", {}))]


def verified(reason: str) -> list[Any]:
    return [call("mark_complete", reason=reason, confidence=0.9)]


def save_wikitext(text: str, summary: str, save: str = "Save changes") -> Any:
    return lambda b: calls(
        ("fill", {"element_id": find_id(b, 'textbox "Wikitext source editor"'), "value": text}),
        ("fill", {"element_id": find_id(b, 'textbox "Summary"'), "value": summary}),
        ("click", {"element_id": find_id(b, f'button "{save}"'), "expect": "url:index.php"}))


def test_a_new_page_with_a_heading_a_bold_word_and_a_link_is_created(
        wiki: MediaWiki, editor: ExtBrowser) -> None:
    text = "== Descaling ==\nDescale a '''kettle''' with vinegar once a month. See [[Kettle]]."
    script = {"scheduler": plan("Write the Kettle care page"),
              "worker": [save_wikitext(text, "New page on kettle care", save="Save page"),
                         call("mark_done", summary="The page is saved")],
              "verifier": verified("The wiki shows the new page")}
    with ScriptedLLM(script) as llm:
        run = run_task(editor, llm, "Create the wiki page 'Kettle care' with a heading, a bold "
                       "word and a link to the Kettle page",
                       f"{wiki.url}/index.php?title=Kettle_care&action=edit")
        assert run.rc == 0, run.explain()
    assert wiki.page_text("Kettle care") == text
    # MediaWiki's own link table knows the new page links to Kettle.
    assert wiki.sql("SELECT pl_title FROM pagelinks JOIN page ON page_id = pl_from "
                    "WHERE page_title = 'Kettle_care'") == [("Kettle",)]


def test_one_section_of_an_existing_page_is_edited(wiki: MediaWiki, editor: ExtBrowser) -> None:
    history = "== History ==\nThe first electric kettle was sold in 1891."
    script = {"scheduler": plan("Edit the History section of the Kettle page"),
              "worker": [
                  # The page's sections each have an "edit" link: the one under History.
                  lambda b: call("click", element_id=find_id(b, 'link "edit"', within="History"),
                                 expect="url:section=1"),
                  save_wikitext(history, "History: first electric kettle"),
                  call("mark_done", summary="The History section is saved")],
              "verifier": verified("The History section shows the new text")}
    with ScriptedLLM(script) as llm:
        run = run_task(editor, llm, "On the Kettle page, replace the History section's text "
                       "with: The first electric kettle was sold in 1891.",
                       f"{wiki.url}/index.php?title=Kettle")
        assert run.rc == 0, run.explain()
    before = PAGES["Kettle"]
    assert wiki.page_text("Kettle") == before.replace(
        "== History ==\nOld text about kettles.", history).rstrip("\n")


def result_links(b: dict[str, Any]) -> list[tuple[str, str]]:
    """(id, title) of the search results' links, in the order the results page lists them: each
    hit is a link with its size and date ("53 bytes (9 words) - …") on a line soon after."""
    lines = user_text(b).split("PAGE", 1)[-1].splitlines()
    hits = []
    for i, line in enumerate(lines):
        m = re.match(r"\[(e\d+)\] link (.+)", line)
        after = []
        for nxt in lines[i + 1:]:
            if nxt.startswith("["):
                break
            after.append(nxt)
        if m and any(re.search(r"\d+ bytes \(", a) for a in after):
            hits.append((m.group(1), m.group(2)))
    return hits


def test_search_then_open_the_second_result(wiki: MediaWiki, editor: ExtBrowser) -> None:
    opened: list[str] = []

    def open_second(b: dict[str, Any]) -> Any:
        hits = result_links(b)
        opened.append(hits[1][1])
        return call("click", element_id=hits[1][0])

    script = {"scheduler": plan("Search the wiki for 'boils' and open the second result"),
              "worker": [
                  # Enter in the search box, as a person does (its Search button lies under Go).
                  lambda b: calls(
                      ("fill", {"element_id": find_id(b, 'searchbox "Search Heybro Wiki"'),
                                "value": "boils"}),
                      ("press", {"element_id": find_id(b, 'searchbox "Search Heybro Wiki"'),
                                 "keys": "Enter", "expect": "url:search"})),
                  open_second,
                  call("mark_done", summary="The second result is open")],
              "verifier": verified("The second search result is open")}
    with ScriptedLLM(script) as llm:
        run = run_task(editor, llm, "Search the wiki for 'boils' and open the second result",
                       f"{wiki.url}/index.php?title=Main_Page")
        assert run.rc == 0, run.explain()
    # The wiki's own search, asked directly, names the same second hit.
    query = urllib.parse.urlencode({"action": "query", "list": "search", "srsearch": "boils",
                                    "srwhat": "text", "format": "json"})
    with urllib.request.urlopen(f"{wiki.url}/api.php?{query}") as r:
        hits = [h["title"] for h in json.load(r)["query"]["search"]]
    assert len(hits) == 3 and opened == [hits[1]], (hits, opened, [
        r["messages"][1]["content"] for r in llm.role_requests("worker")][1][-3000:])
    final_url = urllib.parse.unquote(run.results("click")[-1]["result"]["url"])
    assert final_url.replace("_", " ").endswith(hits[1]), final_url


def test_the_wiki_is_its_own_on_a_machine_that_serves_a_wiki(tmp_path: Path) -> None:
    """A machine with Debian's MediaWiki set up system-wide has a LocalSettings.php beside the
    package's files: the tests' wiki never reads it (MediaWiki's installer would refuse, and its
    pages would be the machine's), nor writes anywhere but its own folder."""
    # The package's folder as on such a machine: the scripts MediaWiki starts from are real files
    # there (PHP finds the install path from them), the rest may be links.
    machine = mediawiki_tree(tmp_path / "machine")
    for entry in [machine / "maintenance", *machine.glob("*.php")]:
        real = entry.resolve()
        entry.unlink()
        (shutil.copytree if real.is_dir() else shutil.copy)(real, entry)
    (machine / "LocalSettings.php").write_text(
        "<?php\nfwrite(STDERR, 'the machine settings were read'); exit(3);\n")
    with mediawiki(tmp_path / "data", source=machine) as site:
        site.edit("Kettle", "A kettle boils water.")
        with urllib.request.urlopen(f"{site.url}/index.php?title=Kettle&action=raw") as r:
            assert r.read().decode() == "A kettle boils water."
    assert not (site.tree / "LocalSettings.php").exists()
