"""`LLMClient.complete()`: one role call with retries, timeout, usage/latency, and two modes.

native: OpenAI tool calling. json: the tools are described in the system prompt and the model
answers with a ProposedReply JSON object (for models or servers without tool calling). auto starts
native and falls back to json for good when the server rejects tools.
"""

from __future__ import annotations

import json
import time
from typing import Any, Literal

import openai
from tenacity import (AsyncRetrying, RetryError, retry_if_exception, stop_after_attempt,
                      wait_exponential_jitter)

from .. import logs
from .pricing import cost_usd
from ..agent.models import ProposedToolCall, Usage
from ..agent.toolbox import RoleTool
from ..config import Settings
from .jsonreply import ReplyFormatError, parse_reply
from .types import LLMError, LLMReply, Turn

log = logs.get("heybro.llm")


def transient(err: BaseException) -> bool:
    if isinstance(err, (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError)):
        return True
    if isinstance(err, openai.APIStatusError):
        return err.status_code == 429 or err.status_code >= 500
    return False


JSON_INSTRUCTIONS = """Reply with ONE JSON object and nothing else:
{"reasoning": "<short thinking>", "tool_calls": [{"tool": "<name>", "parameters": {...}, "reason": "<why>"}]}
Tools (name: JSON schema of parameters — description):
"""


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
            listing = "\n".join(f"- {t.name}: {json.dumps(t.schema(), separators=(',', ':'))} — "
                                f"{t.doc}" for t in tools)
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
                for cid in r.call_ids:
                    msgs.append({"role": "tool", "tool_call_id": cid, "content": turn.feedback})
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

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.settings.retries + 1),
            wait=wait_exponential_jitter(multiplier=self.settings.retry_base_s,
                                         max=self.settings.retry_max_s),
            retry=retry_if_exception(transient), reraise=True)
        try:
            try:
                resp = await retrying(once)
            except openai.BadRequestError as err:
                if self.mode == "native" and self.settings.tool_mode == "auto" and _no_tools(err):
                    log.warning("llm_fallback_json", model=model, error=str(err)[:300])
                    self.mode = "json"
                    resp = await retrying(once)
                else:
                    raise
        except (openai.APIError, RetryError) as err:
            log.warning("llm_failed", role=role, model=model, attempts=attempts, error=str(err)[:500])
            raise LLMError(f"The LLM at {self.settings.base_url or 'api.openai.com'} failed after "
                           f"{attempts} attempt(s): {_describe(err)}") from err
        latency = (time.perf_counter() - started) * 1000
        u = getattr(resp, "usage", None)
        usage = Usage(role=role, model=model,  # type: ignore[arg-type]
                      prompt_tokens=getattr(u, "prompt_tokens", 0) or 0,
                      completion_tokens=getattr(u, "completion_tokens", 0) or 0,
                      total_tokens=getattr(u, "total_tokens", 0) or 0,
                      latency_ms=latency, attempts=attempts, mode=self.mode)
        usage.cost_usd = cost_usd(model, usage.prompt_tokens, usage.completion_tokens,
                                  self.settings.prices, self.settings.base_url)
        reply = self._read(resp, usage)
        log.info("llm_call", role=role, model=model, mode=self.mode, attempts=attempts,
                 latency_ms=round(latency, 1), prompt_tokens=usage.prompt_tokens,
                 completion_tokens=usage.completion_tokens, calls=[c.tool for c in reply.calls],
                 format_error=reply.format_error)
        return reply

    def _read(self, resp: Any, usage: Usage) -> LLMReply:
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
            if self.mode == "native" and "{" not in content:
                return LLMReply(content, [], [], usage, "json", "Your reply called no tool: answer "
                                "with tool calls only, not prose.", content)
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
