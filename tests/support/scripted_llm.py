"""A scripted OpenAI-compatible chat-completions server: the only stand-in in heybro's tests.

Each role (detected from the system prompt) answers from its own queue of steps:
  call("click", element_id="e3")            one tool call   (calls(...) for several)
  text("...")                               plain content (no tool call)
  fault(429) / fault(500)                   an HTTP error (headers=, code=, message= to shape it:
                                            fault(429, headers={"retry-after": "1"}),
                                            fault(429, code="insufficient_quota"))
  slow(seconds, step)                       answer `step` after a delay
  raw("{not json")                          malformed content / JSON-mode text
  a callable (request) -> step              decided from the prompt (e.g. find an element id);
                                            stay(step) from it answers `step` and keeps the
                                            callable first in the queue (a scroll until a row
                                            shows, then the step that needed it)
Requests are recorded (`.requests`, their arrival times in `.times`) for assertions.
`reject_tools=True` makes it a server without tool calling: any request carrying `tools` gets the
HTTP 400 such servers send. Binds 127.0.0.1 on a free port.
As a real server does, it lists its models at GET /v1/models (`models`, default ["scripted"]),
answers a one-token request (max_tokens=1, what "Test connection" sends) with "OK" outside the
script (kept in `.probes`), and, given `api_key=`, refuses any other key with OpenAI's 401;
`strict_models=True` answers a request for a model it does not list with OpenAI's 404.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = Any


def stay(step: Any) -> dict[str, Any]:
    """From a callable step: answer `step` now and keep the callable for the next request."""
    return {"stay": step}


def call(tool: str, **params: Any) -> dict[str, Any]:
    return {"calls": [(tool, params)]}


def calls(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"calls": list(pairs)}


def text(content: str) -> dict[str, Any]:
    return {"text": content}


def raw(content: str) -> dict[str, Any]:
    return {"raw": content}


def fault(status: int, *, headers: dict[str, str] | None = None, code: str | None = None,
          message: str | None = None) -> dict[str, Any]:
    return {"fault": status, "headers": headers or {}, "code": code, "message": message}


def slow(seconds: float, step: Step) -> dict[str, Any]:
    return {"slow": seconds, "step": step}


def role_of(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    for role in ("scheduler", "worker", "verifier", "analyst", "technician"):
        if f"You are the {role.capitalize()}" in system:
            return role
    return "unknown"


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][1]["content"]
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
    return content


def find_ids(body: dict[str, Any], label: str, within: str | None = None, row: str | None = None,
             after: str | None = None) -> list[str]:
    """The ids of every page-map element named `label`, in the map's order: `'link "Blue
    Kettle"'` (role and name), `'"Email"'` or `'Email'` (name only). Matches on words, not on the
    map's punctuation, so the DOM agent may render a line as `[e5] link "Blue Kettle"` or
    `[e5] link Blue Kettle`, or the control inside a sentence as `[e5 link Blue Kettle]`.
    `within`: only after the first line that contains these words (a section's heading, as a
    person looks in one part of the page). `row`: only on lines that hold these words too (a
    table's row read as one line: the Edit link in the row of "Red Mug"). `after`: only what follows
    these words on their line (the field a form's label stands before: `· Status [e23 combobox]`)."""
    page = user_text(body).split("PAGE", 1)[-1]
    if within is not None:
        at = page.find(within)
        page = page[at:] if at >= 0 else ""
    m = re.fullmatch(r'(\w+) "(.+)"', label)
    role, name = (m.group(1).lower(), m.group(2)) if m else (None, label.strip('"'))
    found_ids = []
    for line in page.splitlines():
        if row is not None and not re.search(rf"(?<!\w){re.escape(row.lower())}(?!\w)", line.lower()):
            continue
        if after is not None:
            at = re.search(rf"(?<!\w){re.escape(after.lower())}(?!\w)", line.lower())
            if not at:
                continue
            line = line[at.end():]
        # A control on its own line (`[e5] link Blue Kettle`), or inside a sentence (`[e5 link Blue Kettle]`).
        # (An element of a cross-origin frame carries its frame: `[f5e1]`.)
        found = re.search(r"\[((?:f\d+)?[A-Za-z]*\d+)\](.*)$", line)
        for eid, rest in [found.groups()] if found else re.findall(r"\[((?:f\d+)?[A-Za-z]*\d+) ([^\]]*)\]", line):
            rest = rest.replace('"', " ").lower()
            if role and not re.search(rf"\b{re.escape(role)}\b", rest):
                continue
            if re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", rest):
                found_ids.append(eid)
    return found_ids


def find_id(body: dict[str, Any], label: str, within: str | None = None, row: str | None = None,
            after: str | None = None) -> str:
    """The id of the first page-map element named `label` (as `find_ids`)."""
    ids = find_ids(body, label, within, row, after)
    if not ids:
        page = user_text(body).split("PAGE", 1)[-1]
        where = (f" after {within!r}" if within else "") + (f" in the row of {row!r}" if row else "") + (f" after the words {after!r}" if after else "")
        raise AssertionError(f"no element {label!r}{where} in the page map:\n{page[:3000]}")
    return ids[0]


def _ts(schema: dict[str, Any]) -> str:
    if schema.get("type") == "object" and "properties" in schema:
        req = set(schema.get("required", []))
        return "{" + ", ".join(f"{k}{'' if k in req else '?'}: {_ts(v)}"
                               for k, v in schema["properties"].items()) + "}"
    if schema.get("type") == "array":
        return f"{_ts(schema.get('items', {}))}[]"
    if "enum" in schema:
        return "|".join(json.dumps(x) for x in schema["enum"])
    return str(schema.get("type", "any"))


def estimate_tokens(body: dict[str, Any]) -> int:
    """~4 characters per token over the message texts and the tools rendered as signatures
    (`click(element_id: string, expect?: {...}) // doc`), roughly how OpenAI bills tool schemas."""
    chars = 0
    for m in body.get("messages", []):
        c = m.get("content")
        chars += len(c) if isinstance(c, str) else len(json.dumps(c or ""))
        chars += len(json.dumps(m.get("tool_calls", ""))) if m.get("tool_calls") else 0
    for t in body.get("tools", []):
        f = t["function"]
        chars += len(f"{f['name']}{_ts(f['parameters'])} // {f.get('description', '')}\n")
    return max(1, chars // 4)


@dataclass
class ScriptedLLM:
    script: dict[str, list[Step]]
    requests: list[dict[str, Any]] = field(default_factory=list)
    default: dict[str, Step] = field(default_factory=dict)
    reject_tools: bool = False
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # script steps that raised (answered 500)
    models: list[str] = field(default_factory=lambda: ["scripted"])
    api_key: str | None = None
    strict_models: bool = False
    probes: list[dict[str, Any]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def env(self, **extra: str) -> dict[str, str]:
        # Ask-first for risky actions is off unless a test turns it on (HEYBRO_CONFIRM="1"):
        # most tests place orders, and the confirmation tests ask on purpose.
        return {"HEYBRO_LLM_BASE_URL": self.base_url, "HEYBRO_LLM_API_KEY": "test-key",
                "HEYBRO_MODEL": "scripted", "HEYBRO_RETRY_BASE": "0.01", "HEYBRO_CONFIRM": "0",
                **extra}

    def role_requests(self, role: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if role_of(r) == role]

    def remaining(self) -> dict[str, int]:
        return {k: len(v) for k, v in self.script.items() if v}

    def _next(self, body: dict[str, Any]) -> Step:
        with self._lock:
            self.requests.append(body)
            self.times.append(time.monotonic())
            queue = self.script.get(role_of(body)) or []
            if queue:
                return queue.pop(0)
            step = self.default.get(role_of(body))
            if step is None:
                return fault(599)
            return step

    def refused(self, authorization: str | None) -> tuple[int, dict[str, Any], dict[str, str]] | None:
        """OpenAI's 401 for a wrong or missing key, when the server has one."""
        if self.api_key is None or authorization == f"Bearer {self.api_key}":
            return None
        return 401, {"error": {"message": "Incorrect API key provided.", "type":
                               "invalid_request_error", "code": "invalid_api_key"}}, {}

    def model_list(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": m, "object": "model", "created": 0,
                                            "owned_by": "scripted"} for m in self.models]}

    def probe(self, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._lock:
            self.probes.append(body)
        model = body.get("model", "")
        if self.strict_models and model not in self.models:
            return 404, {"error": {"message": f"The model `{model}` does not exist.", "type":
                                   "invalid_request_error", "code": "model_not_found"}}, {}
        return 200, {"id": "chatcmpl-probe", "object": "chat.completion",
                     "created": int(time.time()), "model": model,
                     "choices": [{"index": 0, "finish_reason": "length",
                                  "message": {"role": "assistant", "content": "OK"}}],
                     "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}, {}

    def respond(self, body: dict[str, Any]) -> tuple[int, dict[str, Any] | str, dict[str, str]]:
        if body.get("max_tokens") == 1 or body.get("max_completion_tokens") == 1:
            return self.probe(body)
        if self.reject_tools and body.get("tools"):
            with self._lock:
                self.requests.append(body)
                self.times.append(time.monotonic())
            return 400, {"error": {"message": "registry.ollama.ai/library/gemma:2b does not "
                                   "support tools", "type": "invalid_request_error"}}, {}
        step = self._next(body)
        while True:
            if callable(step):
                try:
                    made = step(body)
                except Exception:
                    # A step that cannot be made of this page (its element is not in the map) is
                    # asked again on the retry, never skipped: the next step on a page the script
                    # did not expect could do what the task never meant (delete another flow).
                    with self._lock:
                        self.script.setdefault(role_of(body), []).insert(0, step)
                    raise
                if isinstance(made, dict) and "stay" in made:  # the callable answers again next time
                    with self._lock:
                        self.script.setdefault(role_of(body), []).insert(0, step)
                    made = made["stay"]
                step = made
            elif "slow" in step:
                time.sleep(step["slow"])
                step = step["step"]
            else:
                break
        if "fault" in step:
            error = {"message": step.get("message") or f"scripted fault {step['fault']}",
                     "type": step.get("code") or "server_error"}
            if step.get("code"):
                error["code"] = step["code"]
            return step["fault"], {"error": error}, step.get("headers") or {}
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if "calls" in step:
            if body.get("tools"):
                message["tool_calls"] = [
                    {"id": f"call_{uuid.uuid4().hex[:8]}", "type": "function",
                     "function": {"name": name, "arguments": json.dumps(params)}}
                    for name, params in step["calls"]]
                message["content"] = step.get("text")  # the model's words beside its calls
            else:  # JSON mode: the same calls as a ProposedReply
                message["content"] = json.dumps({"reasoning": "scripted", "tool_calls": [
                    {"tool": n, "parameters": p, "reason": ""} for n, p in step["calls"]]})
        elif "text" in step:
            message["content"] = step["text"]
        elif "raw" in step:
            message["content"] = step["raw"]
        prompt = estimate_tokens(body)
        return 200, {"id": f"chatcmpl-{uuid.uuid4().hex[:8]}", "object": "chat.completion",
                     "created": int(time.time()), "model": body.get("model", "scripted"),
                     "choices": [{"index": 0, "message": message,
                                  "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
                     "usage": {"prompt_tokens": prompt, "completion_tokens": 20,
                               "total_tokens": prompt + 20}}, {}

    def __enter__(self) -> ScriptedLLM:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                refused = outer.refused(self.headers.get("authorization"))
                if refused:
                    self.reply(*refused)
                elif self.path.rstrip("/").endswith("/v1/models"):
                    self.reply(200, outer.model_list(), {})
                else:
                    self.reply(404, {"error": {"message": f"no route {self.path}"}}, {})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length))
                headers: dict[str, str] = {}
                try:
                    refused = outer.refused(self.headers.get("authorization"))
                    if not self.path.rstrip("/").endswith("/v1/chat/completions"):
                        refused = 404, {"error": {"message": f"no route {self.path}"}}, {}
                    status, payload, headers = refused or outer.respond(body)
                except Exception as err:  # noqa: BLE001
                    outer.errors.append(f"{type(err).__name__}: {err}")
                    status, payload = 500, {"error": {"message": f"script error: {err}"}}
                self.reply(status, payload, headers)

            def reply(self, status: int, payload: dict[str, Any] | str,
                      headers: dict[str, str]) -> None:
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()


ScriptFn = Callable[[dict[str, Any]], Step]
__all__ = ["ScriptedLLM", "call", "calls", "fault", "find_id", "find_ids", "raw", "slow", "text", "role_of"]
