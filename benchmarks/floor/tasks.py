from celery import shared_task
from django.db import connection
from django_redis import get_redis_connection

import games
from games import compact


@shared_task(name="floor.verify")
def verify(row_id: int) -> None:
    """Select the row, replay its log with the engine, store the result, rank it in a sorted set."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT deal_code, actions FROM floor_submission WHERE id = %s", [row_id])
        deal_code, actions = cursor.fetchone()
        result = games.replay(deal_code, compact.decode_log(bytes(actions)))
        cursor.execute(
            "UPDATE floor_submission SET status = %s, won = %s, score = %s, moves = %s, verified_at = now() "
            "WHERE id = %s",
            ["verified" if result.ok else "rejected", result.won, result.score, result.moves, row_id],
        )
    if result.ok:
        get_redis_connection("default").zadd("floor:board", {str(row_id): result.moves * 100_000 - result.score})
