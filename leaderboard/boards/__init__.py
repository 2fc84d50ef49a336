"""The boards: the ranking order (``order``, pure), the Redis index that serves ranks and pages
(``index``), the rows a page shows (``rows``), the entries kept in PostgreSQL and mirrored into
the index (``entries``, writes), the pages read (``reads``) and the players' statistics
(``stats``)."""
