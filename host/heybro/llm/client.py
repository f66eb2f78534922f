"""`LLMClient.complete()`: one role call with retries, timeout, usage/latency, and two modes.

native: OpenAI tool calling. json: the tools are described in the system prompt and the model
answers with a ProposedReply JSON object (for models or servers without tool calling). auto starts
native and moves to json for the rest of the task (one client serves one task) when the server
rejects `tools` (HTTP 400) or ignores them and answers in prose; the move is logged, and the model
is told the JSON format in its repair turn.

Retries: 5xx, timeouts and connection errors up to `retries` times, with exponential backoff and
jitter; 429 up to `rate_limit_retries` times, each after the server's retry-after-ms / Retry-After
(capped by `retry_after_max_s`). A 429 saying the account has no quota left (`insufficient_quota`)
is not retried: waiting does not fix it, and the task fails saying so.
"""

from __future__ import annotations

import email.utils
import json
import time
from typing import Any, Literal

import openai
from tenacity import AsyncRetrying, RetryCallState, RetryError, retry_if_exception, \
    wait_exponential_jitter

from .. import logs
from ..agent.models import ProposedToolCall, Usage
from ..tool_def import RoleTool
from ..config import Settings
from .jsonreply import SCHEMA, ReplyFormatError, parse_reply
from .pricing import cost_usd
from .types import LLMError, LLMReply, Turn

log = logs.get("heybro.llm")


def no_quota(err: BaseException | None) -> bool:
    """A 429 meaning the account is out of credit, not busy (OpenAI's insufficient_quota)."""
    if not isinstance(err, openai.APIStatusError) or err.status_code != 429:
        return False
    return "insufficient_quota" in (err.code, err.type) or "insufficient_quota" in str(err.body)


def rate_limited(err: BaseException | None) -> bool:
    return isinstance(err, openai.APIStatusError) and err.status_code == 429 and not no_quota(err)


def transient(err: BaseException) -> bool:
    if isinstance(err, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    if isinstance(err, openai.APIStatusError):
        return rate_limited(err) or err.status_code >= 500
    return False


def retry_after(err: BaseException | None) -> float | None:
    """Seconds the server asked to wait: retry-after-ms, or Retry-After in seconds or as a date."""
    headers = getattr(getattr(err, "response", None), "headers", None)
    if headers is None:
        return None
    try:
        if headers.get("retry-after-ms"):
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
    except ValueError:
        pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


JSON_INSTRUCTIONS = f"""Reply with ONE JSON object and nothing else:
{SCHEMA}
Tools, as name(parameters) — what it does ("?": optional; a parameter without a type is a string):
"""
# (said once, where the tools take it, instead of at every tool: tool_def.SAID_ONCE)
EXPECT_NOTE = "Every page action below also takes expect? (the checks explained above)."
SWITCHED = ("Your reply called no tool: it came back as prose, without tool calls. From now on "
            f"answer with ONE JSON object and nothing else, in this format: {SCHEMA} (the tools "
            "and their parameters are listed in the system message).")


class LLMClient:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.mode: Literal["native", "json"] = "json" if settings.tool_mode == "json" else "native"
        self._client = openai.AsyncOpenAI(
            base_url=settings.base_url, api_key=settings.api_key or "not-needed",
            timeout=settings.timeout_s, max_retries=0)

    async def close(self) -> None:
        await self._client.close()

    def _messages(self, system: str, user: str, tools: list[RoleTool],
                  turns: list[Turn], images: list[str] | None = None) -> list[dict[str, Any]]:
        if self.mode == "json":
            listing = "\n".join(f"- {t.signature()}" for t in tools)
            if any("expect" in t.schema().get("properties", {}) for t in tools):
                listing = f"{EXPECT_NOTE}\n{listing}"
            system = f"{system}\n\n{JSON_INSTRUCTIONS}{listing}"
        content: Any = user
        if images:
            content = [{"type": "text", "text": user}] + [
                {"type": "image_url", "image_url": {"url": url}} for url in images]
        msgs: list[dict[str, Any]] = [{"role": "system", "content": system},
                                      {"role": "user", "content": content}]
        for turn in turns:
            r = turn.reply
            if r.mode == "native" and r.call_ids and self.mode == "native":
                msgs.append({"role": "assistant", "content": r.text or None, "tool_calls": [
                    {"id": cid, "type": "function",
                     "function": {"name": c.tool, "arguments": json.dumps(c.parameters)}}
                    for cid, c in zip(r.call_ids, r.calls, strict=True)]})
                # Every call needs its answer; the rejection is the reply's, said once.
                for n, cid in enumerate(r.call_ids):
                    msgs.append({"role": "tool", "tool_call_id": cid, "content": turn.feedback
                                 if n == 0 else "Not run: the whole reply was rejected (above)."})
            else:
                msgs.append({"role": "assistant", "content": r.raw_content or r.text or "(empty)"})
                msgs.append({"role": "user", "content": turn.feedback})
        return msgs

    async def complete(self, role: str, system: str, user: str, tools: list[RoleTool],
                       turns: list[Turn] | None = None,
                       images: list[str] | None = None) -> LLMReply:
        model = self.settings.model_for(role)
        attempts = 0
        started = time.perf_counter()

        async def once() -> Any:
            nonlocal attempts
            attempts += 1
            kwargs: dict[str, Any] = {"model": model,
                                      "messages": self._messages(system, user, tools, turns or [],
                                                                images)}
            if self.settings.temperature is not None:
                kwargs["temperature"] = self.settings.temperature
            if self.mode == "native":
                kwargs["tools"] = [t.openai() for t in tools]
                kwargs["tool_choice"] = "required" if len(tools) else "auto"
            else:
                kwargs["response_format"] = {"type": "json_object"}
            return await self._client.chat.completions.create(**kwargs)

        retrying = AsyncRetrying(stop=self._stop, wait=self._wait,
                                 retry=retry_if_exception(transient), reraise=True)
        switched: str | None = None
        try:
            try:
                resp: Any = await retrying(once)
            except openai.BadRequestError as err:
                if self.mode == "native" and self.settings.tool_mode == "auto" and _no_tools(err):
                    switched = self._to_json(model, "the server rejected tool calling "
                                             f"({_describe(err)})")
                    resp = await retrying(once)
                else:
                    raise
        except (openai.APIError, RetryError) as err:
            log.warning("llm_failed", role=role, model=model, attempts=attempts, error=str(err)[:500])
            where = self.settings.base_url or "api.openai.com"
            if no_quota(err):
                raise LLMError(f"The account behind the API key for {where} has no quota left "
                               f"(insufficient_quota: {str(getattr(err, 'message', err))[:200]}). "
                               "Add credit to it, or point heybro at another key or model with "
                               "`heybro config`.") from err
            raise LLMError(f"The LLM at {where} failed after {attempts} attempt(s): "
                           f"{_describe(err)}") from err
        latency = (time.perf_counter() - started) * 1000
        u = getattr(resp, "usage", None)
        usage = Usage(role=role, model=model,  # type: ignore[arg-type]
                      prompt_tokens=getattr(u, "prompt_tokens", 0) or 0,
                      completion_tokens=getattr(u, "completion_tokens", 0) or 0,
                      total_tokens=getattr(u, "total_tokens", 0) or 0,
                      latency_ms=latency, attempts=attempts, mode=self.mode)
        usage.cost_usd = cost_usd(model, usage.prompt_tokens, usage.completion_tokens,
                                  self.settings.prices, self.settings.base_url)
        reply = self._read(resp, usage, model, offered=bool(tools))
        reply.switched = reply.switched or switched
        log.info("llm_call", role=role, model=model, mode=self.mode, attempts=attempts,
                 latency_ms=round(latency, 1), prompt_tokens=usage.prompt_tokens,
                 completion_tokens=usage.completion_tokens, calls=[c.tool for c in reply.calls],
                 format_error=reply.format_error)
        return reply

    def _stop(self, state: RetryCallState) -> bool:
        err = state.outcome.exception() if state.outcome else None
        limit = self.settings.rate_limit_retries if rate_limited(err) else self.settings.retries
        return state.attempt_number > limit

    def _wait(self, state: RetryCallState) -> float:
        err = state.outcome.exception() if state.outcome else None
        if rate_limited(err):
            asked = retry_after(err)
            if asked is not None:
                return min(asked, self.settings.retry_after_max_s)
        base = self.settings.retry_base_s
        return wait_exponential_jitter(multiplier=base, jitter=base,
                                       max=self.settings.retry_max_s)(state)

    def _to_json(self, model: str, why: str) -> str:
        """Moves this client (and so the rest of its task) to JSON mode."""
        self.mode = "json"
        log.warning("llm_fallback_json", model=model, base_url=self.settings.base_url, reason=why)
        return why

    def _read(self, resp: Any, usage: Usage, model: str = "", offered: bool = True) -> LLMReply:
        try:
            msg = resp.choices[0].message
        except (AttributeError, IndexError, TypeError):
            return LLMReply("", [], [], usage, self.mode, "The reply had no message.")
        content = msg.content or ""
        native = getattr(msg, "tool_calls", None) or []
        if self.mode == "native" and native:
            calls, ids, errors = [], [], []
            for tc in native:
                fn = tc.function
                try:
                    params = json.loads(fn.arguments or "{}")
                    if not isinstance(params, dict):
                        raise ValueError("arguments must be a JSON object")
                except ValueError as err:
                    errors.append(f"arguments of {fn.name} are not valid JSON ({err})")
                    params = {}
                calls.append(ProposedToolCall(tool=fn.name or "?", parameters=params))
                ids.append(tc.id)
            return LLMReply(content, calls, ids, usage, "native",
                            "; ".join(errors) or None, content)
        # JSON mode, or a model that wrote its calls as text despite native tools.
        try:
            parsed = parse_reply(content)
        except ReplyFormatError as err:
            if self.mode == "native" and err.kind == "no_json" and offered:
                if self.settings.tool_mode == "auto":
                    # The server ignored `tools` (or the model cannot use them): JSON from now on.
                    why = self._to_json(model, "the model answered in prose, without tool calls")
                    return LLMReply(content, [], [], usage, "json", SWITCHED, content, why)
                return LLMReply(content, [], [], usage, "json", "Your reply called no tool: "
                                "answer with tool calls only, not prose.", content)
            return LLMReply(content, [], [], usage, "json", str(err), content)
        return LLMReply(parsed.reasoning, parsed.tool_calls, [], usage, "json", None, content)


def _no_tools(err: openai.BadRequestError) -> bool:
    text = str(err).lower()
    return "tool" in text or "function" in text


def _describe(err: BaseException) -> str:
    if isinstance(err, openai.APIStatusError):
        return f"HTTP {err.status_code}: {str(err.message)[:200]}"
    if isinstance(err, openai.APITimeoutError):
        return "timed out"
    if isinstance(err, openai.APIConnectionError):
        return "could not connect"
    return str(err)[:200]
