"""WordPress, a real application nobody here wrote, driven end to end: real Chromium, the real
extension, the real host over native messaging and the real `heybro run`; the scripted model reads
every element id off the page map in its prompt. Each outcome is read from WordPress's database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.app_task import run_task
from support.apps import WordPress, wordpress
from support.browser import ExtBrowser, launch
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text

pytestmark = pytest.mark.browser

IMAGE = Path(__file__).parent / "fixtures" / "apps" / "blue-kettle.png"


@pytest.fixture(scope="module")
def wp() -> Iterator[WordPress]:
    with wordpress() as site:
        yield site


@pytest.fixture
def admin(wp: WordPress) -> Iterator[ExtBrowser]:
    """A fresh browser with the extension, logged in to WordPress as its administrator."""
    with launch() as eb:
        wp.login(eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page())
        yield eb


def one_subtask(goal: str) -> list[Any]:
    return [calls(("set_subtasks", {"subtasks": [goal]}), ("start_work", {}))]


def done(summary: str) -> dict[str, Any]:
    return call("mark_done", summary=summary)


def verified(reason: str) -> list[Any]:
    return [call("mark_complete", reason=reason, confidence=0.9)]


def when_page_says(words: str, then: dict[str, Any]) -> Any:
    """A worker step that waits (a second at a time) until the page in its prompt shows `words`."""
    return lambda b: then if words in user_text(b).split("PAGE", 1)[-1] else call("wait", seconds=1)


def type_then_enter(element_id: str, text: str) -> dict[str, Any]:
    return calls(("type", {"element_id": element_id, "text": text}),
                 ("press", {"element_id": element_id, "keys": "Enter"}))


TITLE = "Kettles compared"
PARAS = ["A kettle boils water quickly.", "The blue kettle whistles when it is ready."]


def test_a_post_typed_in_the_block_editor_is_published(wp: WordPress, admin: ExtBrowser) -> None:
    worker = [
        lambda b: calls(("type", {"element_id": find_id(b, 'textbox "Add title"'), "text": TITLE}),
                        ("click", {"element_id": find_id(b, 'button "Add default block"')})),
        lambda b: type_then_enter(find_id(b, "Empty block"), PARAS[0]),
        lambda b: call("type", element_id=find_id(b, "Empty block"), text=PARAS[1]),
        lambda b: call("click", element_id=find_id(b, 'button "Publish"')),
        # The pre-publish check opens in its own part of the editor, with its own Publish button.
        lambda b: call("click", element_id=find_id(b, 'button "Publish"', within="Editor publish")),
    ]
    # Saving is a request the editor makes after the click: done when the page says so.
    await_published = when_page_says("is now live", done("The post is published"))
    script = {"scheduler": one_subtask("Write the post and publish it"), "worker": worker,
              "verifier": verified("WordPress says the post is published")}
    with ScriptedLLM(script, default={"worker": await_published}) as llm:
        run = run_task(admin, llm, f"Publish a post titled '{TITLE}' with two paragraphs",
                       f"{wp.url}/wp-admin/post-new.php")
        assert run.rc == 0, run.explain()
    rows = wp.sql("SELECT post_content FROM wp_posts WHERE post_type = 'post' AND "
                  f"post_status = 'publish' AND post_title = '{TITLE}'")
    assert len(rows) == 1, rows
    content = rows[0][0]
    assert content.count("<!-- wp:paragraph -->") == 2, content
    assert all(f"<p>{p}</p>" in content for p in PARAS), content


def test_the_settings_flyout_menu_leads_to_a_settings_page_that_saves(
        wp: WordPress, admin: ExtBrowser) -> None:
    tagline = "Kettles, teapots and other vessels"
    worker = [
        # The dashboard: Settings is a closed menu whose pages show in a flyout while hovered.
        lambda b: call("hover", element_id=find_id(b, 'link "Settings"')),
        lambda b: call("click", element_id=find_id(b, 'link "General"'),
                       expect="url:options-general.php"),
        # The long form's Save button is far below: Enter in the field submits it.
        lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Tagline"'), "value": tagline}),
                        ("press", {"element_id": find_id(b, 'textbox "Tagline"'), "keys": "Enter"})),
        done("The tagline is saved"),
    ]
    script = {"scheduler": one_subtask("Set the tagline in Settings > General"),
              "worker": worker, "verifier": verified("Settings saved")}
    with ScriptedLLM(script) as llm:
        run = run_task(admin, llm, f"Change the site's tagline to '{tagline}'",
                       f"{wp.url}/wp-admin/")
        assert run.rc == 0, run.explain()
    assert [r["success"] for r in run.results("hover")] == [True]
    assert wp.sql("SELECT option_value FROM wp_options WHERE option_name = 'blogdescription'") \
        == [[tagline]]


def test_an_image_is_uploaded_to_the_media_library(wp: WordPress, admin: ExtBrowser) -> None:
    before = wp.sql("SELECT COUNT(*) FROM wp_posts WHERE post_type = 'attachment'")[0][0]
    worker = [lambda b: call("upload", element_id=find_id(b, 'button "Select Files"'),
                             resource_name="photo")]
    # The upload is a request the page makes after the file is chosen: done when it is listed.
    await_listed = when_page_says("blue-kettle.png", done("The image is in the library"))
    script = {"scheduler": one_subtask("Upload the photo on Media > Add New"), "worker": worker,
              "verifier": verified("The photo is listed as uploaded")}
    with ScriptedLLM(script, default={"worker": await_listed}) as llm:
        run = run_task(admin, llm, "Add the photo to the media library",
                       f"{wp.url}/wp-admin/media-new.php", resources={"photo": IMAGE})
        assert run.rc == 0, run.explain()
    rows = wp.sql("SELECT post_title, post_mime_type, meta_value FROM wp_posts JOIN wp_postmeta "
                  "ON post_id = ID AND meta_key = '_wp_attached_file' "
                  "WHERE post_type = 'attachment' ORDER BY ID DESC")
    assert int(before) + 1 == len(rows)
    title, mime, file = rows[0]
    assert (title, mime) == ("blue-kettle", "image/png") and file.endswith("blue-kettle.png")
    stored = wp.root / "wp-content" / "uploads" / file
    assert stored.read_bytes() == IMAGE.read_bytes()


def test_a_post_is_trashed_through_its_row_action_shown_only_on_hover(wp: WordPress, admin: ExtBrowser) -> None:
    # Each row's Edit | Quick Edit | Trash | View show only while the pointer is over the row: the
    # page map lists them "(on hover)", and heybro's pointer goes over the row before it clicks.
    wp.php("wp_insert_post(['post_title' => 'Kettle clearance', 'post_status' => 'publish']); "
           "wp_insert_post(['post_title' => 'Kettle care', 'post_status' => 'publish']);")
    trash = lambda b: call("click", element_id=find_id(b, 'link "to the Trash"', row="Kettle clearance"),
                           expect="text:moved to the Trash")
    script = {"scheduler": one_subtask("Trash the Kettle clearance post"),
              "worker": [trash, done("The post is in the trash")],
              "verifier": verified("WordPress says the post was moved to the Trash")}
    with ScriptedLLM(script) as llm:
        run = run_task(admin, llm, "Move the post 'Kettle clearance' to the trash", f"{wp.url}/wp-admin/edit.php")
        assert run.rc == 0, run.explain()
    prompt = [r for r in llm.role_requests("worker")][0]
    assert "(on hover)" in user_text(prompt)
    assert wp.sql("SELECT post_status FROM wp_posts WHERE post_type = 'post' AND post_title = 'Kettle clearance'") == [["trash"]]
    assert wp.sql("SELECT post_status FROM wp_posts WHERE post_type = 'post' AND post_title = 'Kettle care'") == [["publish"]]
    # The history names the row the action was on.
    targets = [e["data"].get("target") for e in run.events if e["kind"] == "tool_call" and e["data"]["tool"] == "click"]
    assert targets and "Kettle clearance" in targets[0], targets


def test_a_comment_approved_by_the_model_is_saved_as_a_routine_and_replayed_with_no_model(
        wp: WordPress, admin: ExtBrowser) -> None:
    """Day two: a task done with the model, saved as a routine, the site reset, the routine
    replayed by a browser that has no model configured (its host reads none). Among look-alike
    checkboxes the right comment is approved, read from WordPress's database; the goal's verb is
    not taken for a parameter because a menu offers an option of that name."""
    wp.php("wp_insert_comment(['comment_post_ID' => 1, 'comment_author' => 'Spam Bot', "
           "'comment_content' => 'Buy pills', 'comment_approved' => 0]); "
           "wp_insert_comment(['comment_post_ID' => 1, 'comment_author' => 'Jane Doe', "
           "'comment_content' => 'Nice kettle', 'comment_approved' => 0]);")
    pending = f"{wp.url}/wp-admin/edit-comments.php?comment_status=moderated"
    approved = "SELECT comment_author, comment_approved FROM wp_comments WHERE comment_author IN " \
               "('Jane Doe', 'Spam Bot') ORDER BY comment_author"
    script = {"scheduler": one_subtask("Approve Jane Doe's pending comment"),
              "worker": [lambda b: calls(
                  ("check", {"element_id": find_id(b, 'checkbox "Select comment"', row="Jane Doe")}),
                  ("select", {"element_id": find_id(b, 'combobox "Select bulk action"'),
                              "value": "Approve"}),
                  ("click", {"element_id": find_id(b, 'button "Apply"'),
                             "expect": "text:1 comment approved"})),
                  done("Jane Doe's comment is approved")],
              "verifier": verified("WordPress says 1 comment approved")}
    with ScriptedLLM(script) as llm:
        run = run_task(admin, llm, "In WordPress, approve Jane Doe's pending comment", pending)
        assert run.rc == 0, run.explain()
    assert wp.sql(approved) == [["Jane Doe", "1"], ["Spam Bot", "0"]]
    task_id = run.events[0]["task_id"]
    saved = admin.heybro("routine", "save", task_id, "approve-jane")
    assert saved.returncode == 0, saved.stderr
    shown = json.loads(admin.heybro("routine", "show", "approve-jane", "--json").stdout)
    assert shown["parameters"] == [] and shown["goal"] == \
        "In WordPress, approve Jane Doe's pending comment"

    wp.php("foreach (get_comments(['search' => 'Nice kettle']) as $c) "
           "wp_set_comment_status($c->comment_ID, 'hold');")  # the site reset
    assert wp.sql(approved) == [["Jane Doe", "0"], ["Spam Bot", "0"]]
    replay = admin.heybro("routine", "run", "approve-jane")  # this browser's host has no model
    assert replay.returncode == 0, replay.stdout[-2000:] + replay.stderr
    assert wp.sql(approved) == [["Jane Doe", "1"], ["Spam Bot", "0"]]
    assert "\n  3 actions, 0 LLM calls" in replay.stdout, replay.stdout[-800:]
