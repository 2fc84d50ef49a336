"""The request id: one per web request, in its X-Request-ID response header and on every log
line written while it runs, and carried by the tasks it queues (config/celery.py) to the
worker's log lines, so a submission can be followed from web to worker.

A proxy's X-Request-ID is kept when it looks like an id (letters, digits, ``.``, ``_``, ``-``,
at most 64), so the proxy's log and ours name the request alike; anything else gets a new one.
"""

import logging
import re
import uuid
from contextvars import ContextVar

#: Response header that carries the id; a task carries it in a message header of this name.
HEADER = "X-Request-ID"
TASK_HEADER = "request_id"
# The header's WSGI name: read from META, not request.headers (which copies every header into
# a new mapping: a twentieth of a cached board read's time in the process).
_META_KEY = "HTTP_" + HEADER.upper().replace("-", "_")
_ACCEPTED = re.compile(r"[A-Za-z0-9._-]{1,64}")
_current: ContextVar[str | None] = ContextVar("request_id", default=None)


def current() -> str | None:
    """The id of the request (or of the task's request) being handled, None outside one."""
    return _current.get()


def accepted(value) -> str | None:
    """``value`` when it can be used as an id as it is, else None."""
    return value if isinstance(value, str) and _ACCEPTED.fullmatch(value) else None


def activate(request_id: str | None):
    """Make ``request_id`` current; returns the token ``deactivate`` takes."""
    return _current.set(request_id)


def deactivate(token) -> None:
    _current.reset(token)


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = accepted(request.META.get(_META_KEY)) or uuid.uuid4().hex
        request.request_id = request_id
        token = activate(request_id)
        try:
            response = self.get_response(request)
        finally:
            deactivate(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` and ``task_id`` to every record ("-" outside a request or a task)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current() or "-"
        if not hasattr(record, "task_id"):
            record.task_id = _current_task_id() or "-"
        return True


def _current_task_id() -> str | None:
    from celery import current_task

    try:
        return current_task.request.id if current_task else None
    except AttributeError:
        return None
