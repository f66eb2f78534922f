"""Compact text views of the task for prompts: queue, cycles, memory, resources."""

from __future__ import annotations


from shared_schema.page_text import neutral

from .expect import expect_text
from .models import ExecutionCycle, Task, ToolCall


def queue(task: Task) -> str:
    if not task.subtasks:
        return "(empty)"
    lines = []
    for i, s in enumerate(task.subtasks):
        mark = ("done" if i < task.current_subtask_index else
                "CURRENT" if i == task.current_subtask_index else "pending")
        check = f"  (done when: {expect_text(s.done_when)})" if s.done_when else ""
        lines.append(f"{i}. [{mark}] {s.text}{check}")
    return "\n".join(lines)


def call_line(c: ToolCall) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in c.parameters.items() if k != "expect")
    dialog = dialog_text(c)
    if c.success and dialog:
        moved = isinstance(c.result, dict) and (c.result.get("navigated") or c.result.get("url_changed"))
        outcome = "ok" + (", page changed" if moved else "") + f"; {dialog}"
    elif c.success:
        outcome = "ok" + (", page changed" if c.page_changed else "")
    elif c.success is False:
        outcome = f"FAILED {c.error_code or ''}: {c.error}" + candidates_text(c)
    else:
        outcome = "not run"
    withheld = c.result.get("trusted_withheld") if c.success and isinstance(c.result, dict) else None
    if isinstance(withheld, str) and withheld:
        outcome += f"; {withheld}"  # (heybro's own words: whether the page took it, the page shows)
    if c.decided:
        outcome = f"{c.decided}; {outcome}"
    if c.expectation is not None:
        outcome += f"; expected: {'met' if c.expectation.met else 'NOT met'} "\
                   f"({c.expectation.detail})"
    return f"{c.tool}({params}) → {outcome}"


def decisions(calls: list[ToolCall]) -> str:
    """What the user decided in these calls (confirmations asked first, questions answered)."""
    return "\n".join(f"- {c.tool}{' ' + c.target if c.target else ''}: {c.decided}"
                     for c in calls if c.decided)


def dialog_text(c: ToolCall) -> str:
    """What a browser dialog the action opened asked and what heybro answered — a confirm answered
    Cancel means what the click was for did not happen."""
    d = c.result.get("dialog") if isinstance(c.result, dict) else None
    if not isinstance(d, dict) or not d.get("kind"):
        return ""
    kind, text, answer = str(d.get("kind")), " ".join(str(d.get("text") or "").split())[:120], d.get("answer")
    if kind == "alert":
        return f'the page showed an alert "{text}"'
    if answer == "accepted":
        given = f' with "{d["value"]}"' if kind == "prompt" and d.get("value") is not None else ""
        return f'the page asked ({kind}) "{text}" and heybro answered OK{given}'
    return (f'the page asked ({kind}) "{text}" and heybro answered Cancel, so it did not go ahead; '
            f'to answer OK, repeat the action with dialog="accept"')


def candidates_text(c: ToolCall) -> str:
    """The elements re-finding weighed when it refused to guess (its element was gone and it was
    not sure, or nothing matched well): the model picks one by its id from the page, or re-plans."""
    cands = c.result.get("candidates") if isinstance(c.result, dict) else None
    if not cands:
        return ""
    shown = [f"{x.get('id') or '?'} {x.get('tag', '')} {str(x.get('name') or '')[:40]!r} ({x.get('score')})"
             for x in cands[:3] if isinstance(x, dict)]
    return f" Closest elements now: {'; '.join(shown)} — choose one by its id if it is the one meant, else re-plan."


def tab_line(t: dict) -> str:  # type: ignore[type-arg]
    title = neutral(str(t.get("title") or ""))[:80]  # (a page names its tab)
    return (f"[tab {t.get('tab_id')}] {title or '(untitled)'} — {neutral(str(t.get('url', '')))}"
            + (" (active)" if t.get("active") else ""))


def cycle_text(c: ExecutionCycle, *, detail: bool) -> str:
    lines = [f"Cycle {c.index}: assignment: {c.assignment}"]
    if detail and c.worker:
        for it in c.worker.iterations:
            for tc in it.tool_calls:
                if not tc.transition:  # its summary is shown apart
                    lines.append(f"  - {call_line(tc)}")
    if c.worker_summary:
        lines.append(f"  worker: {c.worker_summary}")
    if c.verdict:
        v = c.verdict
        who = "host (done_when checked on the page)" if v.by == "host" else "verifier"
        lines.append(f"  {who}: {v.decision} ({v.confidence:.2f}{'' if v.accepted else ', not accepted'}): {v.reason}")
    return "\n".join(lines)


def cycles(task: Task, *, last: int | None = None, detail: bool = False) -> str:
    hist = task.execution_history if last is None else task.execution_history[-last:]
    done = [c for c in hist if c.worker_summary or c.verdict]
    return "\n".join(cycle_text(c, detail=detail) for c in done) or "(none yet)"


def memory(task: Task) -> str:
    return "\n".join(f"- {m.name}: {m.value}" for m in task.memory) or "(empty)"


def resources(task: Task) -> str:
    return ", ".join(task.resources) or "(none)"
