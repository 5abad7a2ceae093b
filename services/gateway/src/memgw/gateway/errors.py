"""Errors the API can answer with, rendered by one handler as ``{"error": ..., "detail": ...}``.

ApiError
 ├── BadRequest          400  the request is malformed beyond what validation catches
 ├── Unauthorized        401  no API key, or an unknown or revoked one
 ├── Forbidden           403  the principal may not act for that user, agent or workspace
 ├── NotFound            404  no such thing, or one the principal may not see
 ├── Conflict            409  a stale version, or a duplicate id
 ├── PayloadTooLarge     413  the body is over the configured limit
 └── Unavailable         503  a dependency (a sync-worker, an upstream) did not answer in time

Validation problems answer 422 with the field and the message. Whatever a handler did not foresee is
mapped here, never left to the server: a value Postgres refuses (NUL, out of range) is 422, a
reference to something missing 404, a duplicate 409, and anything else a logged 500 that names its
correlation id and carries no stack.
"""

from __future__ import annotations

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from memgw.common.logging import CORRELATION_HEADER, correlation_scope, current_correlation_id, get_logger
from memgw.common.outages import TRANSIENT
from memgw.common.secrets import SecretRefused

log = get_logger("memgw.gateway.errors")


class ApiError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class BadRequest(ApiError):
    pass


class Unauthorized(ApiError):
    status_code = 401
    code = "unauthorized"


class Forbidden(ApiError):
    status_code = 403
    code = "forbidden"


class NotFound(ApiError):
    status_code = 404
    code = "not_found"


class Conflict(ApiError):
    status_code = 409
    code = "conflict"


class PayloadTooLarge(ApiError):
    status_code = 413
    code = "payload_too_large"


def error_body(code: str, detail: object) -> dict[str, object]:
    return {"error": code, "detail": detail}


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(app: Starlette, path: str) -> list[str]:
    """The methods some route of ``app`` takes at ``path`` (none: no route has that path)."""
    allowed = []
    for method in _METHODS:
        scope = {"type": "http", "path": path, "method": method, "root_path": ""}
        if any(route.matches(scope)[0] == Match.FULL for route in app.router.routes if not isinstance(route, Mount)):
            allowed.append(method)
    return allowed


async def on_http_error(request: Request, exc: Exception, api: Starlette | None = None) -> JSONResponse:
    """Starlette's own refusals (no such route, a method the route does not take) in the one error
    body, with their headers (Allow). Installed on the MCP app too, which is mounted at / and so
    takes every path no route of the ``api`` takes: there, a path the API has for other methods is a
    405 with Allow, not a 404."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and api is not None and (allowed := allowed_methods(api, request.url.path)):
        exc = StarletteHTTPException(405, headers={"Allow": ", ".join(allowed)})
    code, detail = {
        404: ("not_found", f"no route {request.method} {request.url.path}; the API is under /v1 (see /docs)"),
        405: ("method_not_allowed", f"{request.method} is not allowed on {request.url.path}"),
    }.get(exc.status_code, ("http_error", str(exc.detail)))
    return JSONResponse(error_body(code, detail), status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    async def on_api_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        headers = {"WWW-Authenticate": "Bearer"} if isinstance(exc, Unauthorized) else None
        return JSONResponse(error_body(exc.code, exc.detail), status_code=exc.status_code, headers=headers)

    async def on_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        problems = [
            {"field": ".".join(str(p) for p in err["loc"] if p != "body"), "message": err["msg"]}
            for err in exc.errors()
        ]
        return JSONResponse(error_body("invalid_request", problems), status_code=422)

    async def on_model_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ValidationError)
        problems = [
            {"field": ".".join(str(p) for p in err["loc"]), "message": err["msg"]}
            for err in exc.errors(include_url=False)
        ]
        return JSONResponse(error_body("invalid_request", problems), status_code=422)

    async def on_secret(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(error_body("secret_refused", str(exc)), status_code=422)

    async def on_database_refusal(request: Request, exc: Exception) -> JSONResponse:
        status, code = _database_answer(exc)
        log.warning("request.refused_by_database", path=request.url.path, error=type(exc).__name__, status=status)
        detail = str(exc).split("\n", 1)[0][:300]
        return JSONResponse(error_body(code, detail), status_code=status)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Runs outside the request's correlation scope (Starlette's outermost middleware): take the
        # request's own id again, or make one, so the answer and the log line meet.
        with correlation_scope(current_correlation_id() or request.headers.get(CORRELATION_HEADER)) as cid:
            log.exception("request.failed", path=request.url.path, error=type(exc).__name__)
        detail = f"an internal error; it is logged under correlation id {cid}"
        return JSONResponse(error_body("internal", detail), status_code=500, headers={CORRELATION_HEADER: cid})

    async def on_dependency_down(request: Request, exc: Exception) -> JSONResponse:
        log.warning("request.dependency_down", path=request.url.path, error=type(exc).__name__)
        detail = "the database or the bus is not answering right now; retry in a few seconds"
        return JSONResponse(
            error_body("unavailable", detail), status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)}
        )

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    for down in TRANSIENT:  # Postgres down, frozen or restarting: 503 with Retry-After, not a 500
        app.add_exception_handler(down, on_dependency_down)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(ValidationError, on_model_validation)
    app.add_exception_handler(SecretRefused, on_secret)
    for refused in (asyncpg.DataError, asyncpg.IntegrityConstraintViolationError, OverflowError):
        app.add_exception_handler(refused, on_database_refusal)
    app.add_exception_handler(Exception, on_unexpected)


RETRY_AFTER_S = 5


def _database_answer(exc: Exception) -> tuple[int, str]:
    if isinstance(exc, asyncpg.ForeignKeyViolationError):
        return 404, "not_found"
    if isinstance(exc, asyncpg.UniqueViolationError):
        return 409, "conflict"
    return 422, "invalid_value"


class Unavailable(ApiError):
    status_code = 503
    code = "unavailable"
