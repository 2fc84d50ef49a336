"""One error shape for every 4xx (and 503) of the API: {"error": {"code", "message", "detail"}}.

The message is in the request's language (LocaleMiddleware: the language cookie, else
Accept-Language); the code and detail are the same in every language."""

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, DataError
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ..core.errors import ServiceError

log = logging.getLogger(__name__)
UNAVAILABLE = gettext_lazy("The service is briefly unavailable: try again shortly.")


def error_body(code: str, message: str, detail=None) -> dict:
    return {"error": {"code": code, "message": str(message), "detail": detail}}


def api_exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return Response(error_body(exc.code, exc.message, exc.detail), status=exc.status, headers=headers)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body("too_large", too_large_message(limit), {"limit_bytes": limit}),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, DataError):  # a value PostgreSQL cannot take (a NUL character): the request's fault
        return Response(
            error_body("invalid", gettext("The request holds a value that cannot be stored or looked up.")),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DatabaseError):
        log.error("database unavailable", exc_info=exc)
        return Response(
            error_body("unavailable", UNAVAILABLE),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        message = _first_message(exc.detail) or gettext("Invalid input.")
        response.data = error_body("invalid", message, exc.detail)
    else:
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        response.data = error_body(code, str(exc.detail))
    return response


def too_large_message(limit: int) -> str:
    """The 413's words, the limit written the reader's way."""
    return gettext("The request body is larger than the limit of %(limit)s bytes.") % {
        "limit": number_format(limit, force_grouping=True)
    }


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            inner = _first_message(value)
            if inner:
                return inner if field == "non_field_errors" else f"{field}: {inner}"
    if isinstance(detail, list):
        return next((m for m in map(_first_message, detail) if m), "")
    return str(detail) if detail else ""


class SafeJSONParser(JSONParser):
    """JSON that is too deeply nested is a client error, not a crash."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(gettext("JSON parse error - nested too deeply.")) from None


@csrf_exempt  # it changes nothing: a POST to a wrong path is a 404, not a CSRF page
def api_not_found(request, path=""):
    """Any other path under /api/ keeps the API's error shape (DEBUG or not)."""
    from django.http import JsonResponse

    return JsonResponse(
        error_body("not_found", gettext("No API endpoint at %(path)s.") % {"path": request.path}), status=404
    )
