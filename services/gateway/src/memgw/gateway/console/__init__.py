"""The web console: static files (no build step, no Node.js to run or install) served at ``/``,
talking only to the public ``/v1`` API and its WebSocket. Vanilla ES modules were chosen over a
framework: the pages are a handful of forms and tables, and a dependency-free page has nothing to
vendor, patch or rebuild."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

HERE = Path(__file__).parent
# The page runs only its own files and talks only to its own origin (its WebSocket included).
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
        " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def install_console(app: FastAPI) -> None:
    app.mount("/console", StaticFiles(directory=HERE, check_dir=True), name="console")

    @app.get("/", include_in_schema=False)
    async def console() -> FileResponse:
        return FileResponse(HERE / "index.html", headers=HEADERS, media_type="text/html")
