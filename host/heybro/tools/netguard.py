"""Which network addresses `fetch` may reach: public ones, unless the user allows private ones.

A host name is resolved first and every address it resolves to is checked (a public name pointing
at 127.0.0.1 is loopback all the same); the connection is then made to the checked address, so a
second lookup cannot answer differently.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

from ..tool_def.errors import ToolFailed

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def why_private(ip: Address) -> str | None:
    """Words for why the address is off limits by default, or None for a public address."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        return why_private(ip.ipv4_mapped)
    for test, words in ((ip.is_unspecified, "an unspecified address"),
                        (ip.is_loopback, "a loopback address (this computer)"),
                        (ip.is_link_local, "a link-local address"),
                        (ip.is_private, "a private network address"),
                        (ip.is_multicast, "a multicast address"),
                        (ip.is_reserved, "a reserved address")):
        if test:
            return words
    return None


async def resolve(host: str, port: int) -> list[Address]:
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        raise ToolFailed("not_found", f"cannot resolve the host name {host!r} ({err.strerror})"
                          ) from None
    seen: list[Address] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if ip not in seen:
            seen.append(ip)
    return seen


async def checked_addresses(host: str, port: int, allow_private: bool) -> list[Address]:
    """The addresses to connect to for `host` (all checked), or ToolFailed("refused") naming the
    reason: one private address among them is enough to refuse."""
    addresses = await resolve(host, port)
    if not addresses:
        raise ToolFailed("not_found", f"the host name {host!r} resolves to no address")
    if not allow_private:
        for ip in addresses:
            if (why := why_private(ip)) is not None:
                named = f"{host} is" if str(ip) == host.strip("[]") else f"{host} resolves to {ip},"
                raise ToolFailed("refused", f"{named} {why}; heybro does not "
                                  "fetch private addresses unless you allow it in the settings "
                                  "(tools.allow_private_addresses)")
    return addresses
