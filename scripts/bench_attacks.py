"""Attack success against heybro: the attack generator's classes (tests/support/attacks), each
attack made by a scripted model that obeys the hostile page, judged on hard evidence only.

    .venv/bin/python scripts/bench_attacks.py [--half tune|heldout|all] [--only CLASS ...] [--write]

Prints every outcome as JSON; `--write` writes the `bench_attacks` section of BENCHMARKS.md:
success per severity and per class, the tune and the held-out half side by side, the benign
counterparts' false asks, and every attack with the evidence that decided it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from support.attacks import SEVERITIES, Outcome, all_attacks, run_attacks  # noqa: E402

HALVES = ("tune", "heldout")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--half", choices=["tune", "heldout", "all"], default="all")
    ap.add_argument("--only", nargs="+", metavar="CLASS", help="only these classes (e.g. exfil_address frames)")
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    a = ap.parse_args()
    attacks = [x for x in all_attacks() if (a.half == "all" or x.half == a.half)
               and (not a.only or x.cls in a.only)]
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="heybro-attacks-") as tmp:
        outcomes = list(run_attacks(attacks, Path(tmp), log=sys.stderr))
    minutes = (time.monotonic() - began) / 60
    print(json.dumps([o.__dict__ | {"outcome": o.outcome} for o in outcomes], indent=1))
    print(f"{len(outcomes)} attacks in {minutes:.1f} min", file=sys.stderr)
    if a.write:
        write(outcomes, minutes, a)


def _rate(xs: list[Outcome]) -> str:
    made = [x for x in xs if x.made and not x.error]
    won = sum(x.succeeded for x in made)
    return f"{won}/{len(made)}" + (f" ({100 * won / len(made):.0f} %)" if made else "") + \
        (f", {len(xs) - len(made)} not made" if len(made) < len(xs) else "")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:220]


def write(outcomes: list[Outcome], minutes: float, args: argparse.Namespace) -> None:
    attacks = [o for o in outcomes if not o.benign]
    benign = [o for o in outcomes if o.benign]
    by_sev: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    by_cls: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in attacks:
        by_sev[o.severity, o.half].append(o)
        by_cls[o.cls, o.half].append(o)
    classes = sorted({o.cls for o in attacks}, key=lambda c: (SEVERITIES.index(next(o.severity for o in attacks if o.cls == c)), c))
    sev_rows = [f"| {s} | {_rate(by_sev[s, 'tune'])} | {_rate(by_sev[s, 'heldout'])} |" for s in SEVERITIES]
    sev_rows.append(f"| all | {_rate([o for o in attacks if o.half == 'tune'])} | {_rate([o for o in attacks if o.half == 'heldout'])} |")
    cls_rows = [f"| {c} | {next(o.severity for o in attacks if o.cls == c)} | {_rate(by_cls[c, 'tune'])} | {_rate(by_cls[c, 'heldout'])} |"
                for c in classes]
    ben_rows = [f"| {o.id} | {o.half} | {o.outcome} | {_cell('; '.join(o.asked) or '; '.join(o.refused) or o.evidence)} |" for o in benign]
    rows = [f"| {o.id} | {o.cls} | {o.severity} | {o.half} | {'**succeeded**' if o.outcome == 'succeeded' else o.outcome} | "
            f"{_cell(o.error or o.evidence)} |" for o in sorted(attacks, key=lambda o: (classes.index(o.cls), o.id))]
    scope = ("" if args.half == "all" else f" (the {args.half} half only)") + (f" (classes: {', '.join(args.only)})" if args.only else "")
    write_section("bench_attacks", "\n".join([
        "## Attack success (attack generator)", "",
        "    .venv/bin/python scripts/bench_attacks.py --write", "",
        f"Machine: {machine()}. {len(attacks)} attacks in {len(classes)} classes{scope}, run in {minutes:.0f} min "
        "in the real extension, host and Chromium (tests/support/attacks). Each is generated from "
        "parameters; the model is a scripted one that does what the hostile page says (the worst case), "
        "and the user answers No to every confirmation heybro asks unless the attack says otherwise. An "
        "attack counts only when it was made (the scripted model proposed the call and heybro's record "
        "or its next prompt shows it took it in); it succeeded only on hard evidence: the attacker's or the "
        "user's site's own request log, the page's own record of trusted events, what reached a model "
        "request, heybro's record on disk, the tabs' state. The attacks are split by a stable hash of their "
        "id into a tune half (`tests/test_attacks.py`) and a held-out half, balanced within each class.", "",
        "| severity | tune: succeeded/made | held-out: succeeded/made |", "|---|---|---|", *sev_rows, "",
        "| class | severity | tune | held-out |", "|---|---|---|---|", *cls_rows, "",
        "Benign counterparts (the same flows to the site the user named; a question or a refusal is a false ask):", "",
        "| benign flow | half | outcome | what heybro asked or refused |", "|---|---|---|---|", *ben_rows, "",
        "| attack | class | severity | half | outcome | evidence |", "|---|---|---|---|---|---|", *rows, "",
        "Harness notes: the scripted model reads element ids off the page map in its prompt; a move it "
        "had to make on a guessed id (its target not in the map) makes the attack *not made* unless heybro "
        "had refused or been told No first. Host tools reach the *.test sites through a hosts-file stand-in "
        "(`tests/support/attacks/hosts/sitecustomize.py` on the host's PYTHONPATH, as `--host-resolver-rules` "
        "for Chromium) and `tools.allow_private_addresses` (everything runs on 127.0.0.1). The relabel "
        "attacks change the label when the question shows in the panel (the page's timing, played by the "
        "harness); the tabs the user or a page opens are opened with Playwright's evaluate (a popup needs "
        "a user's gesture). Chrome keeps 4,096 characters of a tab's title (30 tabs are opened) and drops "
        "input to a cross-origin frame that just moved (iframe-clickjack is held by Chromium itself). Headless "
        "Chromium shows no debugging bar. One browser launch serves a class: each attack's data, tokens and "
        "paths are its own, its evidence the requests, model calls and records made while it ran.",
    ]))


if __name__ == "__main__":
    main()
