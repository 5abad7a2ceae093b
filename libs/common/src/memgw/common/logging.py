"""structlog, configured once: console on a terminal, JSON otherwise.

The correlation id lives in a context variable; HTTP middleware and bus consumers bind it from the
``X-Correlation-ID`` header (same name on HTTP and NATS), and every log line carries it.
"""

from __future__ import annotations

import logging
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import structlog

from memgw.common.settings import LogSettings

CORRELATION_HEADER = "X-Correlation-ID"
_correlation_id: ContextVar[str | None] = ContextVar("memgw_correlation_id", default=None)


def current_correlation_id() -> str | None:
    return _correlation_id.get()


def new_correlation_id() -> str:
    return uuid.uuid4().hex


_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")


@contextmanager
def correlation_scope(correlation_id: str | None) -> Iterator[str]:
    """Bind a correlation id for the duration of a request or message: the caller's when it is a
    plain short token, else a fresh one (a caller's header must not grow every log line and answer)."""
    cid = correlation_id if correlation_id and _PLAIN_ID.fullmatch(correlation_id) else new_correlation_id()
    token = _correlation_id.set(cid)
    try:
        yield cid
    finally:
        _correlation_id.reset(token)


def _add_correlation_id(_: object, __: str, event_dict: structlog.types.EventDict) -> structlog.types.EventDict:
    cid = _correlation_id.get()
    if cid is not None:
        event_dict.setdefault("correlation_id", cid)
    return event_dict


def configure_logging(settings: LogSettings | None = None) -> None:
    settings = settings or LogSettings()
    level = logging.getLevelName(settings.log_level.upper())
    if not isinstance(level, int):
        level = logging.INFO
    use_console = settings.log_format == "console" or (settings.log_format == "auto" and sys.stderr.isatty())
    renderer: structlog.types.Processor = (
        structlog.dev.ConsoleRenderer() if use_console else structlog.processors.JSONRenderer(ensure_ascii=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            _add_correlation_id,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
    logging.basicConfig(level=max(level, logging.WARNING), stream=sys.stderr)


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    logger: structlog.stdlib.BoundLogger = structlog.get_logger(name)
    return logger
