"""Domain errors raised by services and selectors; the API maps each to its HTTP status
and the one error shape ``{"error": {"code", "message", "detail"}}``."""


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
