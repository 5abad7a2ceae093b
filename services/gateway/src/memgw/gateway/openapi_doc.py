"""The OpenAPI document as the API answers: every operation but the probes needs an API key as a
bearer token (the ``apiKey`` security scheme), and every refusal comes as ``{"error", "detail"}``
(``ErrorBody``; a 422's detail lists ``{field, message}``), not as FastAPI's default validation model.

Every operation shows an example of what it takes and answers (``openapi_examples.json``: one real
request and answer of each operation, recorded from a running gateway, and an example of each
parameter by its name). Where a model has examples of its own, those stand."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
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
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                for code, why in _ERRORS.items():
                    if path in PUBLIC and code in ("401", "403", "404", "429"):
                        continue
                    responses[code] = {"description": why, "content": error}
                if path not in PUBLIC:
                    operation["security"] = [{"apiKey": []}]
                _with_examples(operation, f"{method.upper()} {path}", schemas)
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]


@cache
def examples() -> dict[str, Any]:
    """``{"parameters": {name: example}, "operations": {"METHOD /path": {"request"?, "response",
    "parameters"?}}}``: a parameter's example by its name, unless its operation gives its own."""
    return dict(json.loads(resources.files(__package__).joinpath("openapi_examples.json").read_text("utf-8")))


def _with_examples(operation: dict[str, Any], name: str, schemas: dict[str, Any]) -> None:
    recorded = examples()["operations"].get(name, {})
    by_name = {**examples()["parameters"], **recorded.get("parameters", {})}  # the operation's own first
    for parameter in operation.get("parameters", []):
        if not _has_example(parameter, schemas) and parameter["name"] in by_name:
            parameter["example"] = by_name[parameter["name"]]
    body = operation.get("requestBody", {}).get("content", {})
    for media in body.values():
        if not _has_example(media, schemas) and "request" in recorded:
            media["example"] = recorded["request"]
    for code, response in operation.get("responses", {}).items():
        for media in response.get("content", {}).values() if code.startswith("2") else ():
            if not _has_example(media, schemas) and "response" in recorded:
                media["example"] = recorded["response"]


def _has_example(holder: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Whether a parameter or media type shows an example, itself or by its schema (and what it names)."""
    return bool("example" in holder or holder.get("examples")) or _schema_has_example(holder.get("schema"), schemas)


def _schema_has_example(schema: dict[str, Any] | None, schemas: dict[str, Any]) -> bool:
    if not schema:
        return False
    if "$ref" in schema:
        return _schema_has_example(schemas.get(schema["$ref"].rsplit("/", 1)[-1]), schemas)
    if schema.get("examples") or "example" in schema:
        return True
    return schema.get("type") == "array" and _schema_has_example(schema.get("items"), schemas)
