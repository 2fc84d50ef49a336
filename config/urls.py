import sys

from django.contrib import admin
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.urls import include, path
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.metrics import metrics_view
from leaderboard.api.errors import UNAVAILABLE, api_not_found, error_body


@never_cache
def healthz(request):
    """Liveness for the container health check: the process answers and the database does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def _database_unreachable(exc) -> bool:
    """``exc`` or what it was raised from is a lost connection to the database."""
    while exc is not None:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _unavailable(request):
    if request.path.startswith("/api/") or request.path == "/healthz":
        response = JsonResponse(error_body("unavailable", UNAVAILABLE), status=503)
    else:
        response = HttpResponse(f"<!doctype html><title>Unavailable</title><h1>{UNAVAILABLE}</h1>", status=503)
    response["Retry-After"] = "5"
    return response


def server_error(request):
    """A database that cannot be reached is a 503 to retry outside the API's views too: the
    health check, the admin, the pages (under /api/ and for /healthz in the API's error shape)."""
    if _database_unreachable(sys.exc_info()[1]):
        return _unavailable(request)
    return defaults.server_error(request)


def bad_request(request, exception):
    """Django reports a session it could not save after the view as "interrupted" (400): when
    the database was lost, that is a 503 as well."""
    if _database_unreachable(exception):
        return _unavailable(request)
    return defaults.bad_request(request, exception)


def not_found(request, exception):
    """A path under /api/ that no route matches (one with a newline, say) keeps the API's
    error shape; the site's other 404s are Django's page."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


handler400 = bad_request
handler404 = not_found
handler500 = server_error

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Prometheus' scrape, for the bearer of METRICS_TOKEN only (config/metrics.py).
    path("metrics", metrics_view, name="metrics"),
    path("admin/", admin.site.urls),
    # Passkeys: registration and log-in ceremonies (django-otp-webauthn's views).
    path("webauthn/", include("django_otp_webauthn.urls", namespace="otp_webauthn")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI from the project's static files (drf_spectacular_sidecar), its start-up script
    # a file too (the split view): nothing inline, nothing from a CDN, under the CSP.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="frontend/swagger_ui.html"),
        name="swagger-ui",
    ),
    path("api/", include("leaderboard.api.urls")),
    # The language switch (Django's set_language: a POST that sets the language cookie) and
    # the ES modules' translations (locale/*/djangojs.po), a classic script base.html loads.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend"]), name="javascript-catalog"),
]

# Static files never reach these patterns: WhiteNoise's middleware answers them first
# (config/staticfiles.py), with DEBUG on or off.

# Last: the frontend owns the site root.
urlpatterns += [path("", include("frontend.urls"))]
