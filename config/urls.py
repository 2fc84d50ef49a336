from django.conf import settings
from django.contrib import admin
from django.db import connection
from django.http import JsonResponse
from django.urls import include, path, re_path
from django.views.decorators.cache import never_cache
from django.views.static import serve
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView


@never_cache
def healthz(request):
    """Liveness for the container health check: the process answers and the database does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/", include("leaderboard.urls")),
]

# With DEBUG on, runserver (django.contrib.staticfiles) serves static files itself.
# With DEBUG off there is no other static server in docker-compose: Django serves the
# collected STATIC_ROOT unless DJANGO_SERVE_STATIC=0 (a proxy or CDN does it instead).
if not settings.DEBUG and settings.SERVE_STATIC:
    urlpatterns += [
        re_path(
            r"^%s(?P<path>.*)$" % settings.STATIC_URL.lstrip("/"),
            serve,
            {"document_root": settings.STATIC_ROOT},
        ),
    ]

# Last: the frontend owns the site root.
urlpatterns += [path("", include("frontend.urls"))]
