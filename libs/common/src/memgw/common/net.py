"""The one guard for outbound HTTP: every network reader fetches through ``GuardedFetcher``.

- http and https only;
- the host is resolved once, every address is checked, and the connection is pinned to the vetted
  address (TLS still verifies the real host name through SNI), so DNS cannot be swapped in between;
- private, loopback, link-local, multicast and reserved addresses are refused unless the host (or
  host:port, or a CIDR) is on the allowlist of the settings;
- redirects are followed by hand, each hop checked again, and credentials (Authorization, API-key
  and cookie headers) are dropped as soon as a hop leaves the origin they were meant for;
- bodies are read up to a size limit, and the whole fetch has a time limit.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class OutboundRefused(Exception):
    """The guard refused a URL (scheme, address, redirect, size or time)."""


@dataclass(frozen=True)
class FetchResult:
    url: str
    status_code: int
    headers: httpx.Headers
    content: bytes

    @property
    def text(self) -> str:
        encoding = "utf-8"
        content_type = self.headers.get("content-type", "")
        if "charset=" in content_type:
            encoding = content_type.split("charset=", 1)[1].split(";")[0].strip() or "utf-8"
        try:
            return self.content.decode(encoding, errors="replace")
        except LookupError:
            return self.content.decode("utf-8", errors="replace")


class Allowlist:
    """Entries: a host name, ``host:port``, an IP address, or a CIDR network."""

    def __init__(self, entries: list[str]):
        self.hosts: set[str] = set()
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in entries:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self.hosts.add(entry.lower())

    def allows(self, host: str, port: int, address: IPAddress) -> bool:
        host = host.lower()
        if host in self.hosts or f"{host}:{port}" in self.hosts or f"{address}:{port}" in self.hosts:
            return True
        return any(address in network for network in self.networks)


_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
CREDENTIAL_HEADERS = frozenset({"authorization", "x-api-key", "cookie", "proxy-authorization"})


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """IPv4 addresses an IPv6 address carries and a network may route to: mapped (::ffff:a.b.c.d),
    compatible (::a.b.c.d), 6to4 (2002:AABB:CCDD::), Teredo (both ends) and NAT64 (64:ff9b::/96, /48)."""
    found = [a for a in (address.ipv4_mapped, address.sixtofour) if a is not None]
    if address.teredo:
        found += list(address.teredo)
    if int(address) >> 32 == 0 and int(address) > 1:
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if any(address in net for net in _NAT64):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def is_public(address: IPAddress) -> bool:
    """Globally reachable by Python's ``is_global`` (which leaves out private, loopback, link-local,
    shared 100.64/10, documentation and reserved ranges), not multicast, and for IPv6 no embedded
    IPv4 address that is not public either."""
    if not address.is_global or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        return all(is_public(v4) for v4 in embedded_ipv4(address))
    return True


def origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme, (parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80)


class GuardedFetcher:
    def __init__(
        self,
        *,
        allow: list[str] | None = None,
        max_bytes: int = 5 * 1024 * 1024,
        timeout_s: float = 30.0,
        max_redirects: int = 5,
        user_agent: str = "memory-gateway/0.1 (+https://github.com/memory-gateway)",
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.allowlist = Allowlist(allow or [])
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s
        self.max_redirects = max_redirects
        self._client = httpx.AsyncClient(
            follow_redirects=False, timeout=timeout_s, transport=transport, headers={"User-Agent": user_agent}
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def _vet(self, url: str) -> tuple[str, str, int, IPAddress]:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise OutboundRefused(f"only http and https URLs may be fetched, not {parts.scheme or 'none'}: {url}")
        host = parts.hostname
        if not host:
            raise OutboundRefused(f"no host in {url}")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise OutboundRefused(f"cannot resolve {host}: {exc}") from exc
        addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
        for address in addresses:
            if not is_public(address) and not self.allowlist.allows(host, port, address):
                raise OutboundRefused(
                    f"{host} resolves to {address}, a private or local address; allow it in MEMGW_OUTBOUND_ALLOW"
                )
        return parts.scheme, host, port, addresses[0]

    async def fetch(
        self, url: str, *, headers: dict[str, str] | None = None, method: str = "GET", json: Any = None
    ) -> FetchResult:
        """Request ``url`` through the guard; raises OutboundRefused or httpx errors. A redirect turns
        any method into GET, as browsers do."""
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._fetch(url, headers or {}, method, json)
        except TimeoutError as exc:
            raise OutboundRefused(f"fetching {url} took longer than {self.timeout_s} s") from exc
        except httpx.HTTPError as exc:  # refused connection, reset, bad TLS ...: the caller's item or stage fails
            raise OutboundRefused(f"fetching {url} failed: {type(exc).__name__}: {exc}") from exc

    async def _fetch(self, url: str, headers: dict[str, str], method: str, json: Any) -> FetchResult:
        for _ in range(self.max_redirects + 1):
            scheme, host, port, address = await self._vet(url)
            parts = urlsplit(url)
            ip_host = f"[{address}]" if address.version == 6 else str(address)
            pinned = parts._replace(netloc=f"{ip_host}:{port}").geturl()
            request = self._client.build_request(
                method,
                pinned,
                headers={**headers, "Host": parts.netloc.rsplit("@", 1)[-1]},
                json=json,
                extensions={"sni_hostname": host} if scheme == "https" else {},
            )
            response = await self._client.send(request, stream=True)
            try:
                if response.is_redirect:
                    location = response.headers.get("location")
                    if not location:
                        raise OutboundRefused(f"redirect without a Location from {url}")
                    target = urljoin(url, location)
                    if origin(target) != origin(url):
                        headers = {k: v for k, v in headers.items() if k.lower() not in CREDENTIAL_HEADERS}
                    url = target
                    method, json = "GET", None
                    continue
                declared = response.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > self.max_bytes:
                    raise OutboundRefused(f"{url} is {declared} bytes, over the {self.max_bytes}-byte limit")
                body = bytearray()
                async for piece in response.aiter_bytes():
                    body.extend(piece)
                    if len(body) > self.max_bytes:
                        raise OutboundRefused(f"{url} is over the {self.max_bytes}-byte limit")
                return FetchResult(
                    url=url, status_code=response.status_code, headers=response.headers, content=bytes(body)
                )
            finally:
                await response.aclose()
        raise OutboundRefused(f"more than {self.max_redirects} redirects from {url}")
