"""Domain errors raised by services and selectors; the API maps each to its HTTP status
and the one error shape ``{"error": {"code", "message", "detail"}}``."""

from django.utils.translation import gettext

import games


class ServiceError(Exception):
    status = 400
    code = "invalid"
    retry_after: int | None = None  # seconds, sent as Retry-After

    def __init__(self, message: str, detail=None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.detail = detail
        if code:
            self.code = code


class Invalid(ServiceError):
    pass


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class TooLarge(ServiceError):
    status, code = 413, "too_large"


class Unavailable(ServiceError):
    status, code, retry_after = 503, "unavailable", 5


def refusal_words(error: str, refusal) -> str:
    """An engine's words (a ReplayResult's ``error``) in the reader's language: its refusal
    translated, after the same prefix the engine put before it (an illegal action's "3>5: ")."""
    if refusal is None:
        return error
    english = games.render(refusal)
    prefix = error[: len(error) - len(english)] if error.endswith(english) else ""
    return prefix + games.render(refusal, gettext)
