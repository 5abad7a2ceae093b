"""Errors the API can answer with, rendered by one handler as ``{"error": ..., "detail": ...}``.

ApiError
 ├── BadRequest          400  the request is malformed beyond what validation catches
 ├── Unauthorized        401  no API key, or an unknown or revoked one
 ├── Forbidden           403  the principal may not act for that user, agent or workspace
 ├── NotFound            404  no such thing, or one the principal may not see
 ├── Conflict            409  a stale version, or a duplicate id
 └── PayloadTooLarge     413  the body is over the configured limit
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


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

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation)


class Unavailable(ApiError):
    status_code = 503
    code = "unavailable"
