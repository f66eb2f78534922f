"""The side panel's step stream on a long run: 500 steps fed one event at a time, as the live panel
gets them, each followed by the redraw and a forced layout, in headless Chromium.

    .venv/bin/python scripts/bench_panel.py [--steps 500] [--write]

Two shapes: the steps spread over 10 subtasks, and all 500 in one subtask (the worst case for one
open group). Each step is a tool_call and its tool_result; every 5th step a verdict follows. The
panel's own modules (step_stream.js, stream_view.js) and style sheets are used; the page is served
by the tests' static server. Reported: time per event (add + redraw + layout), the list's DOM
element count at the end against the lines of the run, and a full-rebuild baseline (every line of
the run drawn on each event) for comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, machine, percentile, serve, write_section  # noqa: E402

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/extension/pages/common/theme.css"><link rel="stylesheet" href="/extension/pages/panel/panel.css">
</head><body style="width:400px;height:720px"><section id="task"><ol id="plan" class="stream"></ol></section></body></html>"""

RUN = """async ([steps, groups, naive]) => {
  const { StepStream } = await import('/extension/pages/panel/step_stream.js');
  const { StreamView } = await import('/extension/pages/panel/stream_view.js');
  const list = document.getElementById('plan');
  list.replaceChildren();
  const stream = new StepStream('bench');
  const view = new StreamView(list);
  const titles = Array.from({ length: groups }, (_, i) => `Subtask ${i + 1}: open the page and fill the form`);
  const events = [];
  let seq = 0;
  const ev = (kind, data) => events.push({ task_id: 'bench', seq: seq++, kind, at: 1_795_000_000 + seq, data });
  ev('status', { status: 'planning', goal: 'A long task' });
  const per = Math.ceil(steps / groups);
  for (let i = 0; i < steps; i++) {
    if (i % per === 0) ev('plan', { subtasks: titles, current: Math.floor(i / per) });
    ev('tool_call', { role: 'worker', tool: 'click', parameters: { element_id: `e${i}` }, target: `button "Item ${i}"` });
    ev('tool_result', { role: 'worker', tool: 'click', success: i % 17 !== 0, error: i % 17 ? null : 'Covered by a dialog',
      result: { url: `http://shop.test/p/${i}` }, expectation: { met: i % 3 !== 0, detail: 'the cart shows 1 item' } });
    if (i % 5 === 4) ev('verdict', { decision: 'continue_work', reason: 'Not there yet', confidence: 0.6, threshold: 0.7, accepted: false });
  }
  const plan = () => titles.map((text, i) => ({ text, state: i < stream.reader.current ? 'done' : i === stream.reader.current ? 'current' : 'pending' }));
  const times = [];
  for (const e of events) {
    const t0 = performance.now();
    stream.add(e);
    if (naive) {
      list.replaceChildren(...stream.reader.lines.map((l) => { const li = document.createElement('li'); li.textContent = l.text; return li; }));
    } else {
      view.render(stream, plan(), 'executing');
    }
    void list.offsetHeight;  // the layout the browser would do before painting
    times.push(performance.now() - t0);
  }
  return { times, events: events.length, lines: stream.reader.lines.length, elements: list.querySelectorAll('*').length };
}"""


def run(page, steps: int, groups: int, naive: bool) -> dict:  # type: ignore[no-untyped-def]
    r = page.evaluate(RUN, [steps, groups, naive])
    t = r.pop("times")
    return {**r, "p50": percentile(t, 0.5), "p95": percentile(t, 0.95), "max": max(t),
            "total": sum(t)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--write", action="store_true", help="write the table into BENCHMARKS.md")
    args = ap.parse_args()
    rows = []
    with serve(ROOT) as base, chromium() as page:
        page.route(f"{base}/bench-panel.html", lambda route: route.fulfill(
            status=200, content_type="text/html", body=PAGE))
        page.goto(f"{base}/bench-panel.html")
        run(page, 50, 5, False)  # warm-up
        for groups in (10, 1):
            for naive in (False, True):
                r = run(page, args.steps, groups, naive)
                rows.append((groups, naive, r))
                print(json.dumps({"groups": groups, "naive": naive, **r}))
    table = ["| shape | drawing | events | lines in the run | DOM elements at the end | p50 / event | p95 / event | max | total |",
             "|---|---|---|---|---|---|---|---|---|"]
    for groups, naive, r in rows:
        shape = f"{args.steps} steps over {groups} subtask{'s' if groups > 1 else ''}"
        how = "full rebuild (baseline)" if naive else "step stream (bounded)"
        table.append(f"| {shape} | {how} | {r['events']:,} | {r['lines']:,} | {r['elements']:,} | "
                     f"{r['p50']:.2f} ms | {r['p95']:.2f} ms | {r['max']:.1f} ms | {r['total']:.0f} ms |")
    md = f"""## Side panel step stream, {args.steps} steps (`scripts/bench_panel.py`)

    .venv/bin/python scripts/bench_panel.py --steps {args.steps} --write

Machine: {machine()}.

Each event of a {args.steps}-step run (a tool call and its result per step, a verdict every 5th step) is
added to the panel's StepStream and redrawn by its StreamView, then a layout is forced, in headless
Chromium with the panel's style sheets; the baseline redraws every line of the run on each event.
Target: p95 per event under one frame (16 ms) and a DOM that does not grow with the run.

{chr(10).join(table)}

Reading: the step stream's DOM holds the subtask headings plus the newest {40} lines of the open
subtask(s), whatever the run's length; closed subtasks hold none until opened, and a new step adds
one element instead of redrawing the list. The largest single events are a subtask ending (its lines
dropped, the next one opened) and the shared machine's load (2 cores shared with other test runs)."""
    if args.write:
        write_section("bench_panel", md)
    print(md)


if __name__ == "__main__":
    main()
