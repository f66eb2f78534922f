"""Acting on fields like a person, in the real extension in real Chromium: a list is never guessed
from part of a label, editing keys edit (as frameworks see it), typing goes after a field's text,
a refused value is an error, hover says what it cannot do, and controlled checkboxes and selects
(React-style and v-model-style pages) take what the agent sets."""

from __future__ import annotations

import json
import re

import pytest

from shared_schema.tools import TOOLS
from support.dom_rig import browser, error, fenced, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_select_takes_exact_or_unique_labels_and_refuses_to_guess(browser, page, site):
    open_page(page, site + "/keys.html")
    country = find_id(ok(browser, "observe"), "Country")
    err = error(browser, "select", {"element_id": country, "value": "Korea"})
    assert err["code"] == "ambiguous" and err["detail"]["options"] == ["North Korea", "South Korea"]
    assert page.input_value("#country") == ""
    assert ok(browser, "select", {"element_id": country, "value": "south korea"})["selected"] == {"value": "kr", "label": "South Korea"}
    assert ok(browser, "select", {"element_id": country, "value": "Fran"})["selected"]["value"] == "fr"  # one option has it
    assert ok(browser, "select", {"element_id": country, "value": "kp"})["selected"]["label"] == "North Korea"
    assert error(browser, "select", {"element_id": country, "value": "Spain"})["code"] == "not_found"


def test_editing_keys_edit_text_fields_as_frameworks_see_it(browser, page, site):
    open_page(page, site + "/keys.html")
    obs = ok(browser, "observe")
    comment = find_id(obs, "Comment")
    ok(browser, "type", {"element_id": comment, "text": "ab"})
    ok(browser, "press", {"element_id": comment, "keys": "Enter"})
    ok(browser, "type", {"element_id": comment, "text": "cd"})
    assert page.input_value("#comment") == "ab\ncd"
    ok(browser, "press", {"element_id": comment, "keys": "Backspace"})
    assert page.input_value("#comment") == "ab\nc"
    # The caret moves: Home goes to the line's start, Delete takes the character after it.
    ok(browser, "press", {"element_id": comment, "keys": "ArrowUp"})
    ok(browser, "press", {"element_id": comment, "keys": "Home"})
    ok(browser, "press", {"element_id": comment, "keys": "Delete"})
    assert page.input_value("#comment") == "b\nc"
    ok(browser, "press", {"element_id": comment, "keys": "ArrowRight"})
    ok(browser, "type", {"element_id": comment, "text": "X"})
    assert page.input_value("#comment") == "bX\nc"
    events = page.text_content("#events")
    assert "comment:insertLineBreak" in events and "comment:deleteContentBackward" in events and "comment:deleteContentForward" in events
    # Shift extends the selection; Control+Backspace takes a word.
    surname = find_id(obs, "Surname")
    ok(browser, "press", {"element_id": surname, "keys": "Shift+ArrowLeft"})
    ok(browser, "press", {"element_id": surname, "keys": "Backspace"})
    assert page.input_value("#surname") == "Smit"
    ok(browser, "press", {"element_id": surname, "keys": "Control+Backspace"})
    assert page.input_value("#surname") == ""
    # A number field steps with the arrows.
    ok(browser, "press", {"element_id": find_id(obs, "Quantity"), "keys": "ArrowUp"})
    assert page.input_value("#qty") == "4"


def test_editing_keys_in_an_editable_region(browser, page, site):
    open_page(page, site + "/keys.html")
    note = find_id(ok(browser, "observe"), "Note")
    ok(browser, "type", {"element_id": note, "text": " there"})
    assert page.text_content("#note") == "Hello there"  # after its text, not before
    ok(browser, "press", {"element_id": note, "keys": "Backspace"})
    assert page.inner_text("#note") == "Hello ther"
    ok(browser, "press", {"element_id": note, "keys": "Enter"})
    ok(browser, "type", {"element_id": note, "text": "Bye"})
    assert page.inner_text("#note").split("\n") == ["Hello ther", "Bye"]
    assert "note:deleteContentBackward" in page.text_content("#events")


def test_a_model_based_rich_text_editor_takes_typing_filling_and_keys(browser, page, site):
    """An editor that keeps its own model of blocks (Draft.js, Lexical, ProseMirror) places each
    edit where the DOM caret maps to in it: the caret goes inside its last block's text, never on
    the editable root, and a fill selects from its first text to its last. It stands for the
    hidden field its label names."""
    open_page(page, site + "/block_editor.html")
    obs = ok(browser, "observe")
    assert '[e1] textbox Body ="Dear team, ⏎ The meeting moved."' in obs["text"], obs["text"]
    body = "e1"
    ok(browser, "type", {"element_id": body, "text": " See you there."})
    assert page.input_value("#body-field") == "Dear team,\nThe meeting moved. See you there."
    ok(browser, "fill", {"element_id": body, "value": "Hello all"})
    assert page.input_value("#body-field") == "Hello all"
    ok(browser, "press", {"element_id": body, "keys": "Enter"})
    ok(browser, "type", {"element_id": body, "text": "Bye"})
    assert page.input_value("#body-field") == "Hello all\nBye"
    assert page.text_content("#errors") == ""


def test_type_goes_after_the_text_already_in_a_field(browser, page, site):
    open_page(page, site + "/keys.html")
    ok(browser, "type", {"element_id": find_id(ok(browser, "observe"), "Surname"), "text": "son"})
    assert page.input_value("#surname") == "Smithson"


def test_fill_that_the_field_refuses_is_an_error(browser, page, site):
    open_page(page, site + "/keys.html")
    obs = ok(browser, "observe")
    err = error(browser, "fill", {"element_id": find_id(obs, "Quantity"), "value": "two"})
    assert err["code"] == "not_accepted" and err["detail"]["value"] == "" and "number" in err["message"]
    err = error(browser, "fill", {"element_id": find_id(obs, "Start date"), "value": "03/04/2025"})
    assert err["code"] == "not_accepted" and "YYYY-MM-DD" in err["message"]
    assert ok(browser, "fill", {"element_id": find_id(obs, "Start date"), "value": "2025-04-03"})["element"]["state"]["value"] == "2025-04-03"
    assert ok(browser, "fill", {"element_id": find_id(obs, "Quantity"), "value": "12"})["element"]["state"]["value"] == "12"


def test_hover_fires_pointer_events_and_reaches_css_hover_with_the_browsers_pointer(browser, page, site):
    open_page(page, site + "/keys.html")
    obs = ok(browser, "observe")
    # The browser's own pointer (chrome.debugger), as a person's: a menu a script opens on
    # mouseover opens under it, and so does one shown only by a :hover style.
    r = ok(browser, "hover", {"element_id": find_id(obs, "Account")})
    assert page.is_visible("#accountmenu") and r["input"] == "trusted"
    r = ok(browser, "hover", {"element_id": find_id(obs, "Products")})
    assert page.is_visible("text=Laptops") and r["input"] == "trusted"
    assert ":hover" in TOOLS["hover"].doc


def test_react_style_controlled_checkbox_and_select(browser, page, site):
    open_page(page, site + "/controlled.html")
    obs = ok(browser, "observe")
    assert ok(browser, "check", {"element_id": find_id(obs, "Send me news")})["checked"] is True
    ok(browser, "select", {"element_id": find_id(obs, "Size"), "value": "Large"})
    assert page.text_content("#shown") == "agree=true size=l"
    ok(browser, "uncheck", {"element_id": find_id(obs, "Send me news")})
    assert page.text_content("#shown") == "agree=false size=l"
    assert page.evaluate("document.getElementById('agree').checked") is False


def test_vue_style_v_model_form(browser, page, site):
    open_page(page, site + "/vue.html")
    obs = ok(browser, "observe")
    ok(browser, "fill", {"element_id": find_id(obs, "City"), "value": "Lyon"})
    ok(browser, "check", {"element_id": find_id(obs, "Gift wrap")})
    ok(browser, "select", {"element_id": find_id(obs, "Speed"), "value": "Express"})
    assert page.text_content("#summary") == "Lyon|true|exp"
    ok(browser, "type", {"element_id": find_id(obs, "City"), "text": " 2"})
    assert page.text_content("#summary") == "Lyon 2|true|exp"


def test_typed_punctuation_carries_its_own_keys_not_delete_or_arrows(browser, page, site):
    # "." has the character code 46, which is Delete's keyCode, and "&" 38 (ArrowUp): an editor
    # that reads keyCode (the block editor, CodeMirror) deleted or moved instead of typing.
    open_page(page, site + "/keys.html")
    page.evaluate("""() => { window.keys = []; document.getElementById('comment').addEventListener(
        'keydown', (e) => keys.push([e.key, e.keyCode, e.code])); }""")
    obs = ok(browser, "observe")
    ok(browser, "type", {"element_id": find_id(obs, "Comment"), "text": "a.&(-"})
    assert page.evaluate("keys") == [["a", 65, "KeyA"], [".", 190, "Period"], ["&", 55, "Digit7"],
                                     ["(", 57, "Digit9"], ["-", 189, "Minus"]]
    assert page.input_value("#comment").endswith("a.&(-")


def test_a_code_editor_typing_through_a_hidden_field_is_one_textbox_with_its_lines(browser, page, site):
    # As Monaco, Ace and CodeMirror 5 are built: lines drawn out of order, a gutter, a 1px textarea.
    open_page(page, site + "/code_editor.html")
    text = fenced(ok(browser, "observe")["text"])
    m = re.search(r'\[(e\d+)\] textbox ~"Code" ="const order = msg\.payload; ⏎ if \(!order\) return null; ⏎ return msg;"', text)
    assert m, text  # its lines in the order drawn, no line numbers; not listed as page text too
    ed = m.group(1)
    assert text.count("msg.payload") == 1, text
    ok(browser, "click", {"element_id": ed})
    ok(browser, "press", {"element_id": ed, "keys": "Control+Home"})
    r = ok(browser, "type", {"element_id": ed, "text": "// Reviewed by Ann\n"})
    assert r["input"] == "trusted", r  # the browser's own keys: the hidden field holds nothing to set
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Save")})
    assert json.loads(page.text_content("#saved")) == "// Reviewed by Ann\nconst order = msg.payload;\nif (!order) return null;\nreturn msg;"
    ok(browser, "fill", {"element_id": ed, "value": "return null;"})
    assert ok(browser, "extract", {"element_id": ed})["text"] == "return null;"


def test_a_code_editor_inside_a_cell_one_can_focus_is_still_its_textbox(browser, page, site):
    # A notebook's cell is focusable (selecting it) and holds a code editor: the editor is a field
    # of its own inside that control, at its box — its clipped hidden field no pointer reaches.
    open_page(page, site + "/code_editor.html")
    page.evaluate("""() => {
        const ed = document.getElementById('ed'), cell = document.createElement('div');
        cell.tabIndex = 2; cell.innerHTML = '<div class="prompt">In [1]:</div>';
        ed.before(cell); cell.append(ed);
        const ta = ed.querySelector('textarea'), clip = document.createElement('div');
        clip.style.cssText = 'overflow: hidden; position: relative; width: 3px; height: 0px';
        ta.before(clip); clip.append(ta);
    }""")
    text = fenced(ok(browser, "observe")["text"])
    m = re.search(r'\[(e\d+)\] textbox[^\n]*="const order = msg\.payload; ⏎ if \(!order\) return null; ⏎ return msg;"', text)
    assert m, text
    ok(browser, "click", {"element_id": m.group(1)})
    ok(browser, "press", {"element_id": m.group(1), "keys": "Control+End"})
    ok(browser, "type", {"element_id": m.group(1), "text": "\n// done"})
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Save")})
    assert json.loads(page.text_content("#saved")).endswith("return msg;\n// done")


def test_lines_of_code_go_into_an_editor_that_indents_as_pasted_not_indented_twice(browser, page, site):
    # A code editor (CodeMirror 6, Monaco, Ace) indents each new line typed after a block opener,
    # and takes a paste whole: lines of code given to type or fill end in it as written.
    open_page(page, site + "/code_editor.html")
    page.evaluate("""() => {
        const ed = document.createElement('div');
        ed.contentEditable = 'true'; ed.setAttribute('aria-label', 'Script'); ed.textContent = '# tools';
        ed.addEventListener('keydown', (e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            const line = ed.innerText.split('\\n').pop();
            document.execCommand('insertText', false, '\\n' + (line.trimEnd().endsWith(':') ? '    ' : ''));
        });
        ed.addEventListener('paste', (e) => {
            e.preventDefault();
            document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
        });
        document.body.append(ed);
    }""")
    obs = ok(browser, "observe")
    script = find_id(obs, "Script")
    ok(browser, "press", {"element_id": script, "keys": "End"})
    code = "\ndef f():\n    return 1\n"
    ok(browser, "type", {"element_id": script, "text": code})
    def shown() -> str:  # (an editable region's last new line is drawn as one more)
        return page.evaluate("document.querySelector('[aria-label=Script]').innerText").replace("\xa0", " ").rstrip("\n")
    assert shown() == "# tools\ndef f():\n    return 1"
    ok(browser, "fill", {"element_id": script, "value": "def g():\n    pass"})
    assert shown() == "def g():\n    pass"


def test_a_new_line_typed_is_the_enter_key_the_editor_handles(browser, page, site):
    # CodeMirror 6 and its like take Enter on keydown (and indent the new line themselves).
    open_page(page, site + "/code_editor.html")
    page.evaluate("""() => {
        const ed = document.createElement('div');
        ed.contentEditable = 'true'; ed.setAttribute('aria-label', 'Script'); ed.textContent = 'def f():';
        ed.addEventListener('keydown', (e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            document.execCommand('insertText', false, '\\n    ');
        });
        const ta = document.createElement('textarea'); ta.setAttribute('aria-label', 'Notes');
        document.body.append(ed, ta);
    }""")
    obs = ok(browser, "observe")
    ok(browser, "press", {"element_id": find_id(obs, "Script"), "keys": "End"})
    ok(browser, "type", {"element_id": find_id(obs, "Script"), "text": "\nreturn 1"})
    assert page.evaluate("document.querySelector('[aria-label=Script]').innerText").replace("\xa0", " ") == "def f():\n    return 1"
    ok(browser, "type", {"element_id": find_id(obs, "Notes"), "text": "one\ntwo"})
    assert page.evaluate("document.querySelector('textarea[aria-label=Notes]').value") == "one\ntwo"
