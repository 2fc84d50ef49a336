"""The floor's one table (bench_floor.py creates it in the floor's database)."""

TABLE_SQL = """
CREATE TABLE IF NOT EXISTS floor_submission (
    id bigserial PRIMARY KEY,
    attempt_id uuid NOT NULL,
    deal_code text NOT NULL,
    actions bytea NOT NULL,
    times bytea NOT NULL,
    status text NOT NULL,
    won boolean,
    score integer,
    moves integer,
    submitted_at timestamptz NOT NULL,
    verified_at timestamptz
)"""
