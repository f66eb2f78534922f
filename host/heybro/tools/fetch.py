"""`fetch`: HTTP GET of a URL's readable text, within the user's size, time and address limits.

Redirects are followed by hand so that every hop's address is checked like the first; the
connection goes to the address that was checked (the host name travels in Host and TLS SNI).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx2 as httpx

from .builtins import Fetch
from .netguard import checked_addresses
from ..tool_def.errors import ToolFailed
from .outcome import ToolOk
from .readable import readable_text
from .tool import ToolContext

USER_AGENT = "heybro-fetch/1"
_TEXTUAL = ("text/", "application/json", "application/xml", "application/xhtml+xml",
            "application/ld+json", "application/rss+xml", "application/atom+xml")


async def _pinned_request(client: httpx.AsyncClient, url: str,
                          ctx: ToolContext) -> httpx.Response:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolFailed("refused", f"{url!r} is not an http(s) URL with a host name")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ToolFailed("invalid_arguments", f"{url!r} has an invalid port") from None
    s = ctx.settings
    allow = s.allow_private_addresses or parts.hostname.lower() in {
        h.lower().strip("[]") for h in s.allow_private_hosts}
    addresses = await checked_addresses(parts.hostname, port, allow)
    host_header = parts.netloc.rsplit("@", 1)[-1]
    for n, ip in enumerate(addresses):  # the next address when one cannot be reached (IPv6…)
        host_in_url = f"[{ip}]" if isinstance(ip, ipaddress.IPv6Address) else str(ip)
        pinned = urlunsplit((parts.scheme, f"{host_in_url}:{port}", parts.path or "/",
                             parts.query, ""))
        request = client.build_request("GET", pinned, headers={"Host": host_header},
                                       extensions={"sni_hostname": parts.hostname})
        try:
            return await client.send(request, stream=True)
        except httpx.ConnectError:
            if n == len(addresses) - 1:
                raise
    raise AssertionError("checked_addresses returns at least one address")


async def _body(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= limit:
            return b"".join(chunks)[:limit], True
    return b"".join(chunks), False


async def fetch(args: Fetch, ctx: ToolContext) -> ToolOk:
    s = ctx.settings
    url = args.url.strip()
    async with httpx.AsyncClient(follow_redirects=False, trust_env=False, timeout=s.timeout_s,
                                 headers={"User-Agent": USER_AGENT}) as client:
        for _hop in range(s.fetch_max_redirects + 1):
            try:
                response = await _pinned_request(client, url, ctx)
            except httpx.HTTPError as err:
                raise ToolFailed("tool_error", f"could not fetch {url}: {err or type(err).__name__}"
                                  ) from None
            try:
                if response.is_redirect and "location" in response.headers:
                    url = urljoin(url, response.headers["location"])
                    continue
                return await _page(response, url, ctx)
            finally:
                await response.aclose()
    raise ToolFailed("tool_error", f"more than {s.fetch_max_redirects} redirects; stopped at {url}")


async def _page(response: httpx.Response, url: str, ctx: ToolContext) -> ToolOk:
    s = ctx.settings
    if response.status_code >= 400:
        raise ToolFailed("not_found" if response.status_code in (404, 410) else "tool_error",
                          f"{url} answered HTTP {response.status_code} {response.reason_phrase}")
    kind = response.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
    if not kind.startswith(_TEXTUAL):
        raise ToolFailed("tool_error", f"{url} is {kind}, not text")
    try:
        raw, cut = await _body(response, s.fetch_max_bytes)
    except httpx.HTTPError as err:
        raise ToolFailed("tool_error", f"reading {url} failed: {err or type(err).__name__}") from None
    body = _decode(raw, response.charset_encoding)
    title, text = readable_text(body) if "html" in kind else ("", body.strip())
    if len(text) > s.fetch_max_chars:
        text, cut = text[:s.fetch_max_chars], True
    head = f"URL: {url}\n" + (f"Title: {title}\n" if title else "")
    tail = "\n[… cut at the size limit]" if cut else ""
    return ToolOk(text=f"{head}\n{text}{tail}",
                  data={"url": url, "status": response.status_code, "title": title,
                        "truncated": cut})


def _decode(raw: bytes, charset: str | None) -> str:
    try:
        return raw.decode(charset or "utf-8", errors="replace")
    except LookupError:  # a charset name Python does not know
        return raw.decode("utf-8", errors="replace")

