"""Plain Django views: no DRF, no authentication, no validation beyond the JSON."""

import json

from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django_redis import get_redis_connection

from floor.tasks import verify
from games import compact


def health(request):
    return HttpResponse(b"ok")


@csrf_exempt
def submit(request, attempt_id, deal_code):
    """The body parsed, one row of the project's size inserted (the log and times as the project
    stores them), one task sent."""
    body = json.loads(request.body)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO floor_submission (attempt_id, deal_code, actions, times, status, submitted_at) "
            "VALUES (%s, %s, %s, %s, 'pending', now()) RETURNING id",
            [attempt_id, deal_code, compact.encode_log(body["actions"]), compact.encode_times(body["times"])],
        )
        row_id = cursor.fetchone()[0]
    verify.apply_async((row_id,), retry=False)
    return JsonResponse({"id": row_id}, status=202)


def page(request, name):
    """A cached board page's bytes from Redis, as stored."""
    stored = get_redis_connection("default").get(f"floor:page:{name}")
    return HttpResponse(stored, content_type="application/json")
