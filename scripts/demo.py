#!/usr/bin/env python3
"""Run heybro on the bundled demo shop.

    scripts/demo                 # uses your LLM (HEYBRO_LLM_BASE_URL / HEYBRO_MODEL / key, or config)
    scripts/demo --scripted      # no LLM needed: a scripted stand-in model drives the same run
    scripts/demo --serve         # only serve the shop (open the URL and try the panel yourself)

It starts the shop on 127.0.0.1, runs `heybro run "<goal>" --url <shop>` (launching Chromium with
the extension when no browser is running heybro), and prints the orders the shop recorded.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
GOAL = "Buy one Blue Kettle for Ann Lee (ann@example.com) and tell me the order number."


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scripted", action="store_true", help="use the scripted stand-in LLM")
    ap.add_argument("--serve", action="store_true", help="only serve the demo shop")
    ap.add_argument("--headless", action="store_true")
    ap.add_argument("--goal", default=GOAL)
    args = ap.parse_args()
    from heybro.demo import DemoSite

    with DemoSite() as site:
        print(f"Demo shop: {site.url}", flush=True)
        if args.serve:
            try:
                input("Serving; press Enter to stop.\n")
            except (KeyboardInterrupt, EOFError):
                pass
            return 0
        env = dict(os.environ)
        cmd = [sys.executable, "-m", "heybro.cli", "run", args.goal, "--url", site.url]
        if args.headless:
            cmd.append("--headless")
        if args.scripted:
            from support import demo_script
            from support.scripted_llm import ScriptedLLM
            with ScriptedLLM(demo_script.happy()) as llm:
                env |= llm.env()
                rc = subprocess.call(cmd + ["--new-browser"], env=env)
        else:
            rc = subprocess.call(cmd, env=env)
            if rc == 2:
                print("(No model at hand? `scripts/demo --scripted` runs the same task with the "
                      "test suite's scripted stand-in model.)")
        print(f"Orders recorded by the shop: {site.orders}")
        return rc


if __name__ == "__main__":
    raise SystemExit(main())
