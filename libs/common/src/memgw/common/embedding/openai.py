"""Any OpenAI-compatible ``/v1/embeddings`` endpoint over httpx.

Sends ``input_type`` (query or passage) so E5-style servers apply the right prefix; servers that do
not know the field ignore it. Retries 429 and 5xx with backoff; anything else is an EmbeddingError.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Sequence
from typing import Any

import httpx

from memgw.common.embedding.base import EmbeddingError


def _on_loopback(url: str) -> bool:
    host = httpx.URL(url).host
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: somewhere else
        return False


class OpenAIEmbedder:
    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        dim: int,
        api_key: str | None = None,
        batch: int = 64,
        timeout_s: float = 60.0,
        retries: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.name = f"openai/{model}"
        self.dim = dim
        self.shares_cores = _on_loopback(base_url)  # a server on this machine computes on its cores
        self._model = model
        self._batch = batch
        self._retries = retries
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/", headers=headers, timeout=timeout_s, transport=transport
        )

    async def _post(self, texts: list[str], input_type: str) -> list[list[float]]:
        body = {"model": self._model, "input": texts, "input_type": input_type, "encoding_format": "float"}
        for attempt in range(self._retries + 1):
            try:
                response = await self._client.post("embeddings", json=body)
            except httpx.TransportError as exc:
                if attempt == self._retries:
                    raise EmbeddingError(f"embedding endpoint unreachable: {exc}") from exc
            else:
                if response.status_code == 200:
                    return self._parse(response.json(), len(texts))
                if (response.status_code != 429 and response.status_code < 500) or attempt == self._retries:
                    raise EmbeddingError(f"embedding endpoint answered {response.status_code}: {response.text[:300]}")
            await asyncio.sleep(0.2 * 2**attempt)
        raise EmbeddingError("unreachable")  # pragma: no cover - the loop always returns or raises

    def _parse(self, payload: Any, expected: int) -> list[list[float]]:
        try:
            data = sorted(payload["data"], key=lambda d: d["index"])
            vectors = [[float(x) for x in d["embedding"]] for d in data]
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingError(f"malformed embeddings answer: {exc}") from exc
        if len(vectors) != expected or any(len(v) != self.dim for v in vectors):
            raise EmbeddingError(f"expected {expected} vectors of {self.dim} dimensions")
        return vectors

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            vectors.extend(await self._post(list(texts[start : start + self._batch]), "passage"))
        return vectors

    async def embed_query(self, text: str, *, scope: str = "") -> list[float]:
        return (await self._post([text], "query"))[0]

    async def close(self) -> None:
        await self._client.aclose()
