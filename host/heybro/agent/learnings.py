"""What a task learns about a site for the next tasks there, and what earlier tasks learned, for a
prompt. Kept only for a site the user named or chose (a page cannot plant learnings for a site the
task merely passed through), with the page it was learned on; shown inside the untrusted fence, as
the page map is — a learning is a model's note of what pages said."""

from __future__ import annotations

from shared_schema.page_text import neutral
from shared_schema.sites import site_of

from .experience import keys_of, origin_of
from .run_state import RunParts, task_ledger


def site_now(env: RunParts) -> str:
    """Where the task is now, as learnings are kept: its last page's origin."""
    snap = env.state.snapshot
    return origin_of((snap.url if snap is not None else "") or env.task.last_url or env.task.url or "")


async def learn(env: RunParts, text: str | None) -> None:
    """Keeps what a role learned about the current page's site (when the ledger says the task may
    learn about it), or tells the user why not."""
    site = site_now(env)
    if not text or not text.strip() or not site:
        return
    page = env.state.snapshot.url if env.state.snapshot is not None else ""
    if not task_ledger(env.task, env.state).learning_site(site_of(page or site)):
        await env.services.recorder.message(env.task, f"Not kept for later: a learning about "
                                            f"{site_of(page or site)}, a site this task was not started on "
                                            "or told to use.", "warning")
        return
    kept = env.services.experiences.add(site, text, env.task.id, page=page or None)
    if kept is not None:
        await env.services.recorder.experience(env.task, kept)


def lines_for(env: RunParts, *urls: str) -> str:
    """What was learned where these pages are, for a prompt ('' when nothing), fenced."""
    keys = dict.fromkeys(k for u in urls for k in keys_of(u))
    lines = [f"- ({e.site}) {neutral(e.text)}" for k in keys for e in env.services.experiences.for_site(k)]
    return '"""\n' + "\n".join(lines) + '\n"""' if lines else ""
