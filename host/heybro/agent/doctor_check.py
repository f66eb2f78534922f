"""`heybro doctor`: is an LLM configured?"""

from __future__ import annotations

from collections.abc import Iterator

from .. import config
from ..install import doctor


def check_llm() -> Iterator[doctor.Check]:
    try:
        s = config.load()
    except config.ConfigError as err:
        yield doctor.Check(False, f"LLM settings invalid ({err})", f"fix {config.config_file()}")
        return
    if not s.configured:
        yield doctor.Check(False, "no LLM configured: tasks cannot run",
                           "`heybro config --model gpt-4o-mini --api-key`, or for Ollama "
                           "`heybro config --base-url http://localhost:11434/v1 --model qwen2.5:7b`")
        return
    yield doctor.Check(True, f"LLM configured: {s.base_url or 'api.openai.com'} · model "
                       f"{s.model_for('worker')} · tool mode {s.tool_mode}")

