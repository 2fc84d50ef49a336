"""A game from start to result: ``attempts`` (start a deal, hints), ``intake`` (a submitted
log's checks, its insert and the queueing of its verification), ``verification`` (the worker's
claim, replay and result, and the re-queueing of stale claims) and ``reads`` (an attempt or a
submission as a viewer may see it)."""
