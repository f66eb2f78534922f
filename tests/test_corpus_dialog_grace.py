"""The corpus harness answers a page's dialogs only once heybro has let the tab's dialogs be: were
heybro's while longer than the harness's wait, heybro would say "stay" to a page the harness leaves
(every later page of the application then fails to open) and "no" to an open step's confirm."""

from __future__ import annotations

import re
from pathlib import Path

from support.corpus.base import DIALOG_GRACE_MS

ROOT = Path(__file__).resolve().parent.parent


def test_the_harness_waits_out_the_while_heybro_answers_a_tabs_dialogs() -> None:
    src = (ROOT / "extension" / "background" / "dialog_answers.js").read_text()
    m = re.search(r"export const GRACE_MS = ([\d_]+);", src)
    assert m, "dialog_answers.js no longer says GRACE_MS"
    assert DIALOG_GRACE_MS > int(m.group(1).replace("_", ""))
