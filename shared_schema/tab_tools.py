"""Tools the coordinator runs on tabs: navigate, back, open, switch, list, screenshot.

The tab is the `tool.call`'s `tab_id`; `navigate` without one opens a new tab (so a task started
from the terminal never takes over the tab the user is looking at).
"""

from __future__ import annotations

from pydantic import Field

from .reach import NAMES_TAB, OPENS
from .tool_spec import ToolArgs, ToolOutput, ToolSpec


class NavigateArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=8000, json_schema_extra=OPENS)


class TabArgs(ToolArgs):
    pass


class NewTabArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=8000, json_schema_extra=OPENS)


class SwitchTabArgs(ToolArgs):
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


class ScreenshotArgs(ToolArgs):
    quality: int | None = Field(None, ge=10, le=100, description="JPEG quality; PNG when omitted.")
    clear_boxes: bool | None = Field(
        None, description="Turn the numbered boxes (observe's `highlight`) off once captured, or "
        "when no capture can be taken.")


class Screenshot(ToolOutput):
    tab_id: int
    data_url: str = Field(description="data:image/...;base64,…")


TAB_TOOLS: dict[str, ToolSpec] = {
    "navigate": ToolSpec(args=NavigateArgs, result=TabInfo,
                         doc="Load a URL in the call's tab (a new tab when none is given); "
                             "resolves when the page has loaded."),
    "back": ToolSpec(args=TabArgs, result=TabInfo, doc="History back in the call's tab."),
    "new_tab": ToolSpec(args=NewTabArgs, result=TabInfo, doc="Open a URL in a new active tab."),
    "switch_tab": ToolSpec(args=SwitchTabArgs, result=TabInfo, doc="Activate a tab."),
    "list_tabs": ToolSpec(args=TabArgs, result=TabList,
                          doc="The task's tabs (the call's tab, tabs the task opened or was handed, and "
                              "tabs their pages opened while it ran), and how many other tabs the user "
                              "has open."),
    "screenshot": ToolSpec(args=ScreenshotArgs, result=Screenshot,
                           doc="The visible part of the call's tab, as a data URL; refused "
                               "(never brought to the front) when the tab is in the background. "
                               "Frames on sites the user keeps heybro off are covered (refused when "
                               "where one is cannot be told)."),
}
