"""Memory Gateway's Python client: ``MemoryGateway`` (sync) and ``AsyncMemoryGateway`` (async), one
method per REST call, answers as typed dictionaries, errors as ``GatewayError``.

    from memgw.client import MemoryGateway
    with MemoryGateway("http://127.0.0.1:8080", api_key="mgw_...") as gw:
        gw.remember("The user prefers green tea.", memory_type="preference")
        hits = gw.search("what does the user drink?")

It depends on httpx only, so an agent's environment can take it without the server's packages.
"""

from memgw.client.api import AsyncMemoryGateway, MemoryGateway
from memgw.client.calls import GatewayError
from memgw.client.types import Created, Episode, Hit, Memory, Namespace, SourceStatus

__all__ = [
    "AsyncMemoryGateway",
    "Created",
    "Episode",
    "GatewayError",
    "Hit",
    "Memory",
    "MemoryGateway",
    "Namespace",
    "SourceStatus",
]
