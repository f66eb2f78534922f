"""Estimated cost of a model call, for the panel's "about $…" line.

Prices are USD per million tokens (input, output) as published by OpenAI when this was written;
they change, so `prices` in the config file overrides or extends them. Models not listed, and every
model on a local server, count as free (the panel then says no cost was recorded).
"""

from __future__ import annotations

DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "o3-mini": (1.10, 4.40),
}

LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]", "0.0.0.0")


def price_of(model: str, overrides: dict[str, list[float]] | None = None,
             base_url: str | None = None) -> tuple[float, float] | None:
    """(input, output) per million tokens; the longest matching name prefix wins."""
    table: dict[str, tuple[float, float]] = dict(DEFAULT_PRICES)
    for name, pair in (overrides or {}).items():
        table[name] = (float(pair[0]), float(pair[1]))
    if base_url and any(h in base_url for h in LOCAL_HOSTS) and model not in (overrides or {}):
        return None
    matches = [name for name in table if model == name or model.startswith(name + "-")]
    return table[max(matches, key=len)] if matches else None


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int,
             overrides: dict[str, list[float]] | None = None, base_url: str | None = None) -> float:
    price = price_of(model, overrides, base_url)
    if price is None:
        return 0.0
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000
