"""Tools the coordinator runs on tabs: navigate, back, open, switch, close, list, screenshot.

The tab is the `tool.call`'s `tab_id`; `navigate` without one opens a new tab (so a task started
from the terminal never takes over the tab the user is looking at).
"""

from __future__ import annotations

from pydantic import Field

from .reach import NAMES_TAB, OPENS
from .tool_spec import LOOKS, MOVES, Effects, PageTool, ToolArgs, ToolOutput, ToolSpec


class NavigateArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=8000, json_schema_extra=OPENS)


class TabArgs(ToolArgs):
    pass


class NewTabArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=8000, json_schema_extra=OPENS)


class SwitchTabArgs(ToolArgs):
    tab_id: int = Field(json_schema_extra=NAMES_TAB)


class CloseTabArgs(ToolArgs):
    tab_id: int = Field(json_schema_extra=NAMES_TAB)


class TabInfo(ToolOutput):
    tab_id: int
    url: str
    title: str
    active: bool | None = None


class TabList(ToolOutput):
    tabs: list[TabInfo] = Field(description="The task's tabs: its own, those it opened, and those its pages opened.")
    other_tabs: int = Field(0, ge=0, description="How many of the user's other tabs there are (not shown: "
                                                 "their titles and addresses are the user's business).")


class ClosedTab(TabInfo):
    """The tab the task works in once the other is closed (another of its tabs, when it closed the
    one it was in)."""
    closed: int = Field(description="The tab closed.")


class ScreenshotArgs(ToolArgs):
    quality: int | None = Field(None, ge=10, le=100, description="JPEG quality; PNG when omitted.")
    clear_boxes: bool | None = Field(
        None, description="Turn the numbered boxes (observe's `highlight`) off once captured, or "
        "when no capture can be taken.")


class Screenshot(ToolOutput):
    tab_id: int
    data_url: str = Field(description="data:image/...;base64,…")


# The tools the coordinator runs on tabs, each declared once, in the order the worker is offered them.
NAVIGATE = PageTool("navigate", NavigateArgs, "Open a URL in the task's tab.", TabInfo, runs="tab",
                    kind="tab", effects=MOVES, expect=True, timeout_ms=30_000, reports="tab",
                    playwright="goto",
                    wire_doc="Load a URL in the call's tab (a new tab when none is given); "
                    "resolves when the page has loaded.")
BACK = PageTool("back", TabArgs, "Go back in history.", TabInfo, runs="tab", kind="tab",
                effects=MOVES, reports="tab", playwright="go_back",
                wire_doc="History back in the call's tab.")
NEW_TAB = PageTool("new_tab", NewTabArgs, "Open a URL in a new tab.", TabInfo, runs="tab",
                   kind="tab", effects=Effects(ends_batch=True, held_on_repeat=True, changes_tab=True),
                   timeout_ms=30_000, reports="tab", playwright="new_tab",
                   wire_doc="Open a URL in a new active tab.")
SWITCH_TAB = PageTool("switch_tab", SwitchTabArgs, "Work in another tab.", TabInfo, runs="tab",
                      kind="tab", effects=Effects(ends_batch=True, changes_tab=True), reports="tab",
                      playwright="newest_tab", wire_doc="Activate a tab.")
CLOSE_TAB = PageTool("close_tab", CloseTabArgs, "Close a tab the task opened.", ClosedTab,
                     runs="tab", kind="tab",
                     effects=Effects(ends_batch=True, held_on_repeat=True, changes_tab=True),
                     reports="tab", playwright="close_page",
                     wire_doc="Close a tab the task opened (or its pages opened while it ran); a "
                     "tab the user had before the task is refused. Answers with the tab the task "
                     "works in after it.")
LIST_TABS = PageTool("list_tabs", TabArgs, "The task's tabs.", TabList, runs="tab", kind="local",
                     effects=LOOKS, reports="tabs",
                     wire_doc="The task's tabs (the call's tab, tabs the task opened or was "
                     "handed, and tabs their pages opened while it ran), and how many other tabs "
                     "the user has open.")
SCREENSHOT = PageTool("screenshot", ScreenshotArgs, "The visible part of the call's tab, as a data "
                      "URL; refused (never brought to the front) when the tab is in the "
                      "background. Frames on sites the user keeps heybro off are covered (refused "
                      "when where one is cannot be told).", Screenshot, runs="tab", kind=None,
                      effects=LOOKS)

TAB_DECLARED: tuple[PageTool, ...] = (NAVIGATE, BACK, NEW_TAB, SWITCH_TAB, CLOSE_TAB, LIST_TABS,
                                      SCREENSHOT)

TAB_TOOLS: dict[str, ToolSpec] = {t.name: t.spec for t in TAB_DECLARED}
