"""upload onto a drop zone in real Chromium: a file among the task's resources dropped onto a div
that takes files by its dragover and drop listeners (no file input anywhere), through the events a
person's drop brings — the page records the dropped file's name, size and first line. A zone is
listed in the map by what the page calls it; an element whose page takes no files refuses the drop
instead of pretending."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site, tool  # noqa: F401 (fixtures)

CSV = b"name,email\nAnn,ann@example.com\nBo,bo@example.com\n"


def csv_file() -> dict[str, str]:
    return {"name": "contacts.csv", "mime": "text/csv", "data_base64": base64.b64encode(CSV).decode()}


@pytest.mark.browser
def test_a_resource_is_dropped_onto_a_drop_zone_that_is_no_file_input(browser: ExtBrowser, page: Any,
                                                                      site: str) -> None:
    open_page(page, site + "/drop_zone.html")
    obs = ok(browser, "observe")
    zone = find_id(obs, "Drop a CSV file here")
    assert any(line.startswith(f"[{zone}] drop zone") for line in obs["text"].splitlines()), obs["text"]
    r = ok(browser, "upload", {"element_id": zone, "resource_name": "contacts.csv", "file": csv_file()})
    assert r["uploaded"] == {"name": "contacts.csv", "size": len(CSV), "via": "drop"}
    page.wait_for_function("document.getElementById('content').textContent !== ''")
    assert page.text_content("#dropped") == f"contacts.csv:{len(CSV)}"
    assert page.text_content("#content") == "name,email"
    assert page.text_content("#events") == "dragenter* drop*"  # (the zone's own events, in order)


@pytest.mark.browser
def test_an_element_that_takes_no_files_refuses_the_drop(browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/drop_zone.html")
    obs = ok(browser, "observe")
    r = tool(browser, "upload", {"element_id": find_id(obs, "Notes box"), "resource_name": "contacts.csv", "file": csv_file()})
    assert not r["ok"] and r["error"]["code"] == "not_interactable", r
    assert "takes no dropped file" in r["error"]["message"]
    assert page.text_content("#dropped") == ""
