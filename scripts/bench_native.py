#!/usr/bin/env python3
"""Native-messaging round trip through the real Chrome port: Chromium with the extension, the real
host, 1 KB and 512 KB ping payloads echoed back. Writes its section of BENCHMARKS.md.

    .venv/bin/python scripts/bench_native.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the real-browser harness

from bench_common import machine, summary, write_section  # noqa: E402
from support.browser import launch  # noqa: E402

MEASURE = """async ({size, rounds}) => {
  const data = "x".repeat(size);
  const out = [];
  for (let i = 0; i < rounds + 5; i++) {
    const t0 = performance.now();
    const reply = await globalThis.heybro.link.call("ping", {nonce: String(i), data});
    const dt = performance.now() - t0;
    if (reply.payload.data.length !== size) throw new Error("echo mismatch");
    if (i >= 5) out.push(dt);  // the first few warm the host up
  }
  return out;
}"""

PANEL_MEASURE = """async ({size, rounds}) => {
  const data = "x".repeat(size);
  const out = [];
  for (let i = 0; i < rounds + 5; i++) {
    const t0 = performance.now();
    const r = await globalThis.heybroPanel.client.call("ping", {data});
    if (r.echoed !== size) throw new Error("echo mismatch");
    if (i >= 5) out.push(performance.now() - t0);
  }
  return out;
}"""

COLD = """async () => {
  const link = globalThis.heybro.link;
  link.drop();
  const t0 = performance.now();
  await link.ensure();
  return performance.now() - t0;
}"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    rows = []
    with launch() as eb:
        panel = eb.open_panel()
        panel.locator("#host-pill[data-state=connected]").wait_for()
        for size, label in ((1024, "1 KB"), (512 * 1024, "512 KB")):
            rounds = args.rounds if size <= 1024 else max(20, args.rounds // 4)
            sw = summary(eb.sw.evaluate(MEASURE, {"size": size, "rounds": rounds}))
            ui = summary(panel.evaluate(PANEL_MEASURE, {"size": size, "rounds": rounds}))
            rows.append((label, "coordinator ⇄ host", sw))
            rows.append((label, "side panel ⇄ coordinator ⇄ host", ui))
        colds = []
        for _ in range(10):
            colds.append(eb.sw.evaluate(COLD))
            time.sleep(0.2)
        cold = summary(colds)
    lines = [
        "## Native messaging round trip (`scripts/bench_native.py`)",
        "",
        f"Command: `.venv/bin/python scripts/bench_native.py --rounds {args.rounds}`  ",
        f"Machine: {machine()}; load average at the start {os.getloadavg()[0]:.1f} "
        "(other jobs were running: figures are noisy)  ",
        "Path: a ping whose `data` is echoed back by the real host through Chrome's native port "
        "(headless Chromium, the unpacked extension, the host installed into the profile). "
        "Times in milliseconds, measured in the browser with `performance.now()`.",
        "",
        "| payload | path | n | p50 ms | p95 ms | mean ms |",
        "|---|---|---|---|---|---|",
    ]
    for label, path, s in rows:
        lines.append(f"| {label} | {path} | {s['n']} | {s['p50']:.2f} | {s['p95']:.2f} | "
                     f"{s['mean']:.2f} |")
    lines += ["", f"Host cold start (connectNative → handshake done), n={cold['n']}: "
              f"p50 {cold['p50']:.0f} ms, p95 {cold['p95']:.0f} ms."]
    write_section("bench_native", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
