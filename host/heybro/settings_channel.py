"""The options page's settings over native messaging: settings.get / settings.set / settings.test,
entries of the native boundary's one command table (session/commands.py `NATIVE`).

The host owns the settings file (`settings_file`); the page sees the saved values and whether a key
is saved, never the key. A saved change applies to the next task (each task reads the settings
when it starts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from shared_schema import ErrorCode, ProtocolError
from shared_schema.payload import Payload
from shared_schema.settings import (LimitsForm, RoleModels, SettingsGet, SettingsSet, SettingsTest,
                                    SettingsTestResult, SettingsView)

from . import config, logs, settings_file

log = logs.get("heybro.settings")


def view(data: settings_file.FileData) -> SettingsView:
    """The file's settings as the page shows them."""
    s = settings_file.check(data)
    return SettingsView(
        base_url=s.base_url, model=s.model,
        models=RoleModels(**{r: s.models.get(r) for r in RoleModels.model_fields}),
        tool_mode=s.tool_mode, vision=s.vision, confidence_threshold=s.confidence_threshold,
        limits=LimitsForm(**{k: getattr(s.limits, k) for k in LimitsForm.model_fields}),
        sites=s.sites, api_key_set=bool(s.api_key), file=str(config.config_file()),
        from_environment=settings_file.overridden())


def merged(data: settings_file.FileData, form: SettingsSet) -> settings_file.FileData:
    """The file with the form applied; keys the page does not edit (prices, timeouts, other
    limits) are kept as they are."""
    out = dict(data)
    for key in ("base_url", "model"):
        value = (getattr(form, key) or "").strip()
        if value:
            out[key] = value
        else:
            out.pop(key, None)  # none: OpenAI's address / no model for all roles
    roles = {r: m.strip() for r, m in form.models.model_dump().items() if m and m.strip()}
    if roles:
        out["models"] = roles
    else:
        out.pop("models", None)
    out["tool_mode"], out["vision"] = form.tool_mode, form.vision
    out["confidence_threshold"] = form.confidence_threshold
    out["limits"] = {**(out.get("limits") or {}), **form.limits.model_dump()}
    out["sites"] = form.sites.model_dump()
    if form.clear_api_key:
        out.pop("api_key", None)
    elif form.api_key is not None:
        out["api_key"] = form.api_key.strip()
    return out


def _invalid(err: settings_file.InvalidSettings) -> ProtocolError:
    return ProtocolError(ErrorCode.invalid_settings, str(err), detail={"fields": err.fields})


def _unreadable(err: config.ConfigError) -> ProtocolError:
    return ProtocolError(ErrorCode.invalid_settings, str(err), detail={"fields": {}})


async def get_settings(_: SettingsGet) -> SettingsView:
    try:
        return view(await asyncio.to_thread(settings_file.read))
    except settings_file.InvalidSettings as err:
        raise _invalid(err) from None
    except config.ConfigError as err:
        raise _unreadable(err) from None


async def set_settings(form: SettingsSet) -> SettingsView:
    try:
        saved = await asyncio.to_thread(settings_file.update, lambda d: merged(d, form))
    except settings_file.InvalidSettings as err:
        raise _invalid(err) from None
    except config.ConfigError as err:
        raise _unreadable(err) from None
    log.info("settings_saved", file=str(config.config_file()),  # never the values: a key may be one
             api_key="replaced" if form.api_key else "cleared" if form.clear_api_key else "kept")
    return view(saved)


async def try_settings(form: SettingsTest) -> SettingsTestResult:
    from .llm.probe import probe  # loads the openai package only when a test is asked for

    try:
        data = await asyncio.to_thread(settings_file.read)
        settings = settings_file.check(merged(data, form))
    except settings_file.InvalidSettings as err:
        raise _invalid(err) from None
    except config.ConfigError as err:
        raise _unreadable(err) from None
    result = await probe(settings)
    log.info("settings_tested", ok=result.ok, steps=[(s.name, s.ok) for s in result.steps])
    return result


# Entries of the native boundary's command table (session/commands.py NATIVE), in its shape:
# `(session, payload, listener) -> (reply type, reply)`; the settings need no session.
async def on_get(session: Any, payload: SettingsGet, listener: Any) -> tuple[str, SettingsView]:
    return "settings.current", await get_settings(payload)


async def on_set(session: Any, payload: SettingsSet, listener: Any) -> tuple[str, SettingsView]:
    return "settings.current", await set_settings(payload)


async def on_test(session: Any, payload: SettingsTest,
                  listener: Any) -> tuple[str, SettingsTestResult]:
    return "settings.test_result", await try_settings(payload)


COMMANDS: dict[str, Callable[[Any, Any, Any], Awaitable[tuple[str, Payload]]]] = {
    "settings.get": on_get, "settings.set": on_set, "settings.test": on_test}

