""""Test connection": asks the server for its models (`/models`) and each configured model for a
one-token answer, and says what failed in words a person can act on.

Nothing is retried (a test that waits through backoff looks like a hang), and each request has a
short timeout. A server without `/models` (some proxies) is not a failure by itself: the answers
from the models decide. The API key never appears in what is said.
"""

from __future__ import annotations

import time

import openai

from shared_schema.settings import ProbeStep, SettingsTestResult

from ..config import ROLES, Settings
from .client import no_quota

PROBE_TIMEOUT_S = 10.0
MAX_LISTED = 200


def _where(settings: Settings) -> str:
    return settings.base_url or "https://api.openai.com/v1"


def _server_message(err: openai.APIStatusError) -> str:
    text = str(getattr(err, "message", "") or "").strip()
    return f" The server said: {text[:200]}" if text else ""


def explain(err: Exception, settings: Settings, model: str | None = None) -> str:
    """One failure in words: what happened and what to change."""
    where = _where(settings)
    if isinstance(err, openai.APITimeoutError):
        return f"{where} did not answer within {PROBE_TIMEOUT_S:.0f} s. Is the server up and not " \
               "overloaded?"
    if isinstance(err, openai.APIConnectionError):
        cause = err.__cause__ or err.__context__
        why = f" ({cause})" if cause else ""
        return f"Cannot reach {where}{why}. Is the server running, and is the address right?"
    if isinstance(err, openai.AuthenticationError):
        if not settings.api_key:
            return f"{where} asks for an API key (401) and none is set."
        return f"{where} refused the API key (401 bad key): check it, or replace it." \
               + _server_message(err)
    if isinstance(err, openai.PermissionDeniedError):
        return f"The API key may not use {model or 'this'} at {where} (403)." + _server_message(err)
    if isinstance(err, openai.NotFoundError):
        if model:
            return f'Model not found: {where} does not know "{model}" (404).' + _server_message(err)
        return f"{where} has no such API (404). An OpenAI-compatible address usually ends in /v1."
    if isinstance(err, openai.RateLimitError):
        if no_quota(err):
            return f"The account behind the key has no quota left at {where} (429)." \
                   + _server_message(err)
        return f"{where} is rate limiting (429): wait a moment and test again." \
               + _server_message(err)
    if isinstance(err, openai.APIStatusError):
        return f"{where} answered HTTP {err.status_code}." + _server_message(err)
    return f"{where}: {str(err)[:200]}"


def _models(settings: Settings) -> list[str]:
    """The distinct models the roles use, in role order."""
    seen: list[str] = []
    for role in ROLES:
        m = settings.model_for(role)
        if m and m not in seen:
            seen.append(m)
    return seen


async def _list_models(client: openai.AsyncOpenAI, settings: Settings,
                       steps: list[ProbeStep]) -> list[str] | None:
    """The server's model ids; None when it cannot be reached at all (nothing more to try)."""
    try:
        page = await client.models.list()
    except (openai.APIConnectionError, openai.AuthenticationError) as err:
        steps.append(ProbeStep(name="list models", ok=False, detail=explain(err, settings)))
        return None
    except openai.APIError as err:  # some servers have no /models: their answers decide
        steps.append(ProbeStep(name="list models", ok=False, detail=explain(err, settings)))
        return []
    ids = [m.id for m in page.data]
    steps.append(ProbeStep(name="list models", ok=True,
                           detail=f"{_where(settings)} offers {len(ids)} model(s)."))
    return ids


async def _answer(client: openai.AsyncOpenAI, settings: Settings, model: str,
                  offered: list[str], no_api: bool) -> ProbeStep:
    """One model's one-token answer. A 404 where `/models` was a 404 too means the address is
    wrong, not the model."""
    name = f"answer from {model}"
    started = time.perf_counter()
    try:
        await client.chat.completions.create(
            model=model, max_tokens=1, messages=[{"role": "user", "content": "Say OK."}])
    except openai.APIError as err:
        wrong_address = no_api and isinstance(err, openai.NotFoundError)
        detail = explain(err, settings, None if wrong_address else model)
        if offered and model not in offered:
            sample = ", ".join(offered[:5]) + (" …" if len(offered) > 5 else "")
            detail += f" It offers: {sample}."
        return ProbeStep(name=name, ok=False, detail=detail)
    ms = (time.perf_counter() - started) * 1000
    return ProbeStep(name=name, ok=True, detail=f'"{model}" answered in {ms:.0f} ms.')


async def probe(settings: Settings) -> SettingsTestResult:
    steps: list[ProbeStep] = []
    models = _models(settings)
    client = openai.AsyncOpenAI(base_url=settings.base_url,
                                api_key=settings.api_key or "not-needed",
                                timeout=PROBE_TIMEOUT_S, max_retries=0)
    try:
        offered = await _list_models(client, settings, steps)
        if offered is not None:
            if not models:
                steps.append(ProbeStep(name="model", ok=False, detail="No model is set: name one "
                                       "for all roles, or one per role."))
            no_api = "(404)" in steps[0].detail and not steps[0].ok
            for model in models:
                steps.append(await _answer(client, settings, model, offered, no_api))
    finally:
        await client.close()
    answered = [s for s in steps if s.name.startswith("answer") and s.ok]
    failed = [s for s in steps if not s.ok and not s.name == "list models"]
    listing = steps[0]
    ok = bool(answered) and not failed
    if ok:
        summary = f"Connected: {', '.join(models)} answered at {_where(settings)}."
    elif failed:
        summary = failed[0].detail
    else:
        summary = listing.detail
    return SettingsTestResult(ok=ok, summary=summary, steps=steps,
                              models=(offered or [])[:MAX_LISTED])
