"""The README's lists of tools are read from the tools' definitions: the page tools `heybro mcp`
offers are generated (scripts/gen_readme_tools.py), and the tables of host tools and of `heybro
mcp`'s task tools name every tool that is defined."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from heybro.mcp_server.tools import TASK_TOOLS
from heybro.tools.builtins import BUILTIN_TOOLS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end]


def first_cells(text: str) -> set[str]:
    """The tool names in the first cell of each row of the section's tables."""
    return {name for row in re.findall(r"^\| ([^|]+) \|", text, re.M)
            for name in re.findall(r"`(\w+)", row)}


def test_the_readme_s_list_of_page_tools_is_the_one_generated_from_their_definitions() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_readme_tools.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_the_readme_names_every_host_tool_and_every_task_tool_of_heybro_mcp() -> None:
    assert {t.name for t in BUILTIN_TOOLS} <= first_cells(section("Host tools"))
    mcp = README[README.index("| `run_task(goal, url?)`"):]
    assert set(TASK_TOOLS) <= first_cells(mcp[:mcp.index("\n\n")])
