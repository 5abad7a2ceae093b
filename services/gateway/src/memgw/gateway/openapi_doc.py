"""The OpenAPI document as the API answers: every operation but the probes needs an API key as a
bearer token (the ``apiKey`` security scheme), and every refusal comes as ``{"error", "detail"}``
(``ErrorBody``; a 422's detail lists ``{field, message}``), not as FastAPI's default validation model."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

PUBLIC = ("/healthz", "/readyz", "/metrics")  # the probes answer without a key
_ERRORS = {
    "401": "No API key, or one that is revoked or unknown (`WWW-Authenticate: Bearer`).",
    "403": "The key's principal may not do this; `detail` gives the policy's reason (audited).",
    "404": "Nothing of that id that this key may see.",
    "422": "The request is invalid: `detail` lists each problem as `{field, message}`.",
    "429": "This key is over its rate or in-flight share (`Retry-After`).",
    "503": "Postgres or the bus is not answering right now (`Retry-After`).",
}


class ErrorBody(BaseModel):
    """Every refusal: a stable code, and a sentence (or, for 422, a list of ``{field, message}``)."""

    error: str = Field(examples=["invalid_request"], description="A stable code: not_found, forbidden, …")
    detail: Any = Field(examples=[[{"field": "content", "message": "String should have at least 1 character"}]])


def document(app: FastAPI) -> None:
    """Make ``app.openapi()`` describe the key and the error body on every operation."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        components = spec.setdefault("components", {})
        components.setdefault("securitySchemes", {})["apiKey"] = {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key (`mgw_…`), as `Authorization: Bearer <key>`.",
        }
        schemas = components.setdefault("schemas", {})
        schemas["ErrorBody"] = ErrorBody.model_json_schema()
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        for path, operations in spec.get("paths", {}).items():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for code, why in _ERRORS.items():
                    if path in PUBLIC and code in ("401", "403", "404", "429"):
                        continue
                    responses[code] = {"description": why, "content": error}
                if path not in PUBLIC:
                    operation["security"] = [{"apiKey": []}]
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
