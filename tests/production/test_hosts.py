"""The service as on several machines: two web hosts, two worker hosts and one beat, each in a
network namespace of its own (made here with `ip netns` and veth pairs), against one PostgreSQL
and one Redis that listen on the host side's address, as a database server would.

Players sign up, start and submit their games through both web hosts; one worker host is
killed (SIGKILL for all its processes, as a lost machine) while it holds a verification. Beat
and the other worker host then verify every submission exactly once, and both web hosts'
boards agree with PostgreSQL.

It needs root (network namespaces) and is skipped, with one line saying why, where that is not
possible. Only traffic between the test's own veth ends: no route out, no NAT. The namespaces
and links are deleted at the end, also on a failure.
"""

import ipaddress
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from leaderboard_fixtures.people import MOVE_RULES_OFF

from tools.stack import commands
from tools.stack.process import ROOT, Child, descendants, http_ok, process_stat, stop_all
from tools.stack.servers import create_database, postgres, postgres_answers, redis, redis_answers

pytestmark = [pytest.mark.slow]

HOSTS = ("web1", "web2", "work1", "work2", "beat")
WEB_PORT = 8000
PLAYERS = 40  # half through each web host
# A draw taken back this many times before the won game: its replay is long enough to be caught
# in the middle of. Undone draws are no part of the canonical line, so each player's log is their
# own by whole passes of the stock first (59 draws and the turn-over: the table as dealt).
DRAWS_TAKEN_BACK = 20_000
STOCK_PASS = 60
PASSWORD = "correct horse battery staple"
WON_GAMES = ROOT / "tests" / "data" / "won_games.jsonl"
START_TIMEOUT = 120
VERIFY_TIMEOUT = 180  # after the kill: beat's 15 s round plus the stale ages below, on a loaded machine
RECEIVED = re.compile(r"verify_submission\[([0-9a-f-]{36})\] received")
FINISHED = re.compile(r"verify_submission\[([0-9a-f-]{36})\] (?:succeeded|raised|failed)")


def ip(*args: str) -> str:
    return subprocess.run(["ip", *args], check=True, capture_output=True, text=True).stdout


def free_subnet() -> ipaddress.IPv4Network:
    """A private /24 that no address or route of this machine touches."""
    used = [
        ipaddress.ip_interface(f"{a['local']}/{a['prefixlen']}").network
        for link in json.loads(ip("-j", "-4", "addr"))
        for a in link.get("addr_info", [])
    ]
    used += [
        ipaddress.ip_network(route["dst"], strict=False)
        for route in json.loads(ip("-j", "-4", "route"))
        if route["dst"] != "default"
    ]
    for third in range(64, 250):
        subnet = ipaddress.ip_network(f"10.213.{third}.0/24")
        if not any(subnet.overlaps(other) for other in used):
            return subnet
    pytest.skip("no free 10.213.x.0/24 for the test's network")


class Network:
    """One namespace per host, each joined to the machine by a veth pair in a /30 of the
    test's /24; the machine's end of the first pair is the servers' address, which every
    namespace reaches through its own pair."""

    def __init__(self):
        self.tag = str(os.getpid() % 100_000)
        self.subnet = free_subnet()
        self.server = str(self.subnet[1])
        self.address: dict[str, str] = {}
        self.namespaces: list[str] = []
        self.links: list[str] = []

    def namespace(self, host: str) -> str:
        return f"eh-{self.tag}-{host}"

    def add(self, index: int, host: str) -> None:
        ns, outer, inner = self.namespace(host), f"eh{self.tag}{index}h", f"eh{self.tag}{index}n"
        machine_end, host_end = self.subnet[4 * index + 1], self.subnet[4 * index + 2]
        ip("netns", "add", ns)
        self.namespaces.append(ns)
        ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        self.links.append(outer)
        ip("link", "set", inner, "netns", ns)
        ip("addr", "add", f"{machine_end}/30", "dev", outer)
        ip("link", "set", outer, "up")
        inside = ("netns", "exec", ns, "ip")
        ip(*inside, "addr", "add", f"{host_end}/30", "dev", inner)
        ip(*inside, "link", "set", inner, "up")
        ip(*inside, "link", "set", "lo", "up")
        ip(*inside, "route", "add", str(self.subnet), "via", str(machine_end))
        self.address[host] = str(host_end)

    def remove(self) -> None:
        for ns in self.namespaces:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        for link in self.links:  # gone with its namespace's end, unless that failed
            subprocess.run(["ip", "link", "del", link], capture_output=True)


@pytest.fixture
def network():
    if os.geteuid() != 0:
        pytest.skip("needs root: the hosts are network namespaces (ip netns) joined by veth pairs")
    if not shutil.which("ip"):
        pytest.skip("needs iproute2's ip for the hosts' network namespaces")
    net = Network()
    try:
        try:
            for index, host in enumerate(HOSTS):
                net.add(index, host)
        except subprocess.CalledProcessError as exc:
            pytest.skip(f"no network namespaces here: {' '.join(exc.cmd)}: {exc.stderr.strip()}")
        yield net
    finally:
        net.remove()


def host_env(net: Network, database_url: str, redis_url: str) -> dict:
    """docker-compose's production environment, with the test's servers; players play and
    submit faster than people (not flagged), and stale claims are re-queued soon."""
    env = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "hosts-test-secret-key-not-for-production-0123456789",
        "DAILY_DEAL_SECRET": "hosts-test-daily-deal-secret",
        "ALLOWED_HOSTS": ",".join(net.address[h] for h in ("web1", "web2")),
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DATABASE_URL": database_url,
        "DATABASE_CONN_MAX_AGE": "60",
        "REDIS_URL": redis_url,
        "MAX_ACTIONS_PER_SECOND": "1000000000",
        "TEMPO_MIN_ACTIONS": "1000000",
        # One won line for 40 players: near-copies of each other, which that rule rightly flags.
        **{name: str(value) for name, value in MOVE_RULES_OFF.items()},
        "STALE_PENDING_SECONDS": "5",
        "STALE_VERIFYING_SECONDS": "10",
    }
    for scope in ("SIGNUP", "LOGIN", "ATTEMPT", "SUBMISSION", "HINT"):  # one client address for all
        env[f"THROTTLE_{scope}"] = "1000000/s"
    return env


@pytest.fixture
def service(network, tmp_path):
    """PostgreSQL and Redis on the machine's side, the migrations, then every host started."""
    data = Path(tempfile.mkdtemp(prefix="easyharp-hosts-"))  # outside pytest's 0700 folders: see test_make_run
    children: list[Child] = []

    def start(child: Child, ready, what: str, timeout: float = START_TIMEOUT) -> Child:
        children.append(child.start())
        child.wait_ready(ready, what, timeout=timeout)
        return child

    def on(host: str, name: str, argv: list[str], env: dict, **kwargs) -> Child:
        child = Child(
            name,
            ["ip", "netns", "exec", network.namespace(host), *argv],
            env=env,
            log_path=tmp_path / f"{name}.log",
            **kwargs,
        )
        child.address = network.address[host]
        return child

    try:
        server, database_url = postgres(
            data / "postgres",
            durable=False,
            log_path=tmp_path / "postgres.log",
            hosts=(network.server,),
            clients=str(network.subnet),
        )
        start(server, lambda: postgres_answers(database_url), "PostgreSQL answered")
        create_database(database_url)
        cache, redis_url = redis(
            data / "redis", durable=False, log_path=tmp_path / "redis.log", hosts=(network.server,)
        )
        start(cache, lambda: redis_answers(redis_url), "Redis answered")
        env = host_env(network, database_url, redis_url)

        migrate = on("web1", "migrate", commands.manage("migrate", "--noinput"), env)
        start(migrate, lambda: migrate.exit_code == 0, "the migrations ended", timeout=600)
        hosts = {}
        for name in ("web1", "web2"):
            url = f"http://{network.address[name]}:{WEB_PORT}"
            web = on(name, name, commands.gunicorn(f"{network.address[name]}:{WEB_PORT}", 2), env)
            hosts[name] = start(web, lambda url=url: http_ok(f"{url}/healthz"), f"{name} answered")
            web.url = url
        for name in ("work1", "work2"):
            worker = on(
                name,
                name,
                commands.celery_worker(concurrency=2, node=f"{name}@hosts-test"),
                env,
                ready_text=commands.WORKER_READY,
            )
            hosts[name] = start(worker, worker.said_ready, f"{name} was ready")
        beat = on(
            "beat",
            "beat",
            commands.celery_beat(data / "celerybeat-schedule", data / "celerybeat.pid"),
            env,
            ready_text="beat: Starting",
        )
        hosts["beat"] = start(beat, beat.said_ready, "beat started")
        yield hosts, database_url
    finally:
        stop_all(children)
        shutil.rmtree(data, ignore_errors=True)


def call(url: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, {"error": refused.read().decode(errors="replace")}


def won_game() -> tuple[str, list[str]]:
    games = [json.loads(line) for line in WON_GAMES.read_text().splitlines() if line.strip()]
    game = min((g for g in games if g["deal"].startswith("EH1-N-")), key=lambda g: len(g["actions"]))
    return game["deal"], game["actions"]


def play(web: Child, players: range, deal: str, actions: list[str], sent: dict, errors: list) -> None:
    """Each player signs up, starts the deal and submits a log of their own (still won, not a
    copy of another's: see STOCK_PASS) through ``web``."""
    try:
        for i in players:
            code, account = call(web.url, "/api/auth/signup/", {"username": f"player{i}", "password": PASSWORD})
            assert code == 201, account
            code, attempt = call(web.url, "/api/attempts/", {"deal": deal}, account["token"])
            assert code == 201, attempt
            log = ["s", "u"] * DRAWS_TAKEN_BACK + ["s"] * (STOCK_PASS * i) + actions
            code, accepted = call(
                # Times: a numbered deal's result without them stays off its board (``no_times``).
                web.url,
                f"/api/attempts/{attempt['id']}/submission",
                {"actions": log, "times": [0] * len(log)},
                account["token"],
            )
            assert code == 202, accepted
            sent[accepted["id"]] = web.name
    except Exception as exc:  # reported by the test, never swallowed
        errors.append(exc)


def held_verifications(worker: Child) -> set[str]:
    """The verifications the worker took from the broker and has not finished."""
    log = worker.log_path.read_text(errors="replace")
    return set(RECEIVED.findall(log)) - set(FINISHED.findall(log))


def states(worker: Child) -> list[str]:
    """The state letter of each of the worker host's live processes ("T": stopped)."""
    found = (process_stat(pid) for pid in descendants(worker.pid))
    return [stat[0] for stat in found if stat and stat[0] != "Z"]


def frozen(worker: Child, stopped: bool) -> None:
    """SIGSTOP (or SIGCONT) the worker host's processes, returning once each of them is."""
    os.killpg(worker.pid, signal.SIGSTOP if stopped else signal.SIGCONT)
    deadline = time.monotonic() + 10
    while any((state == "T") != stopped for state in states(worker)):
        assert time.monotonic() < deadline, f"{worker.name} did not {'stop' if stopped else 'continue'}"
        time.sleep(0.001)


def kill_mid_verification(worker: Child, other: Child, senders: list[threading.Thread], database_url: str) -> int:
    """SIGKILL the worker host's processes while it replays a submission it claimed: with both
    worker hosts frozen, more submissions are being verified than the other one holds tasks.
    Returns how many it held."""
    while any(sender.is_alive() for sender in senders):
        if len(FINISHED.findall(worker.log_path.read_text(errors="replace"))) >= 2 and held_verifications(worker):
            frozen(worker, True)
            frozen(other, True)
            try:
                held = held_verifications(worker)
                verifying = rows(database_url, "SELECT count(*) FROM leaderboard_submission WHERE status = 'verifying'")
                if held and verifying[0][0] > len(held_verifications(other)):
                    worker.kill()
                    return len(held)
                frozen(worker, False)
            finally:
                frozen(other, False)
        time.sleep(0.005)
    raise AssertionError(f"the players were done before {worker.name} was caught verifying:\n{worker.log_tail()}")


def rows(database_url: str, query: str, *params) -> list[tuple]:
    with psycopg.connect(database_url, autocommit=True) as conn:
        return conn.execute(query, params).fetchall()


def test_two_web_hosts_and_two_worker_hosts_one_killed_verify_everything_once(service):
    hosts, database_url = service
    deal, actions = won_game()
    sent: dict[int, str] = {}
    errors: list[Exception] = []
    half = PLAYERS // 2
    senders = [
        threading.Thread(target=play, args=(hosts[name], players, deal, actions, sent, errors))
        for name, players in (("web1", range(half)), ("web2", range(half, PLAYERS)))
    ]
    for sender in senders:
        sender.start()
    held = kill_mid_verification(hosts["work1"], hosts["work2"], senders, database_url)
    killed_at = time.monotonic()
    for sender in senders:
        sender.join(300)
    assert not errors, errors
    assert len(sent) == PLAYERS and set(sent.values()) == {"web1", "web2"}

    def statuses() -> dict[str, int]:
        return dict(rows(database_url, "SELECT status, count(*) FROM leaderboard_submission GROUP BY status"))

    deadline = time.monotonic() + VERIFY_TIMEOUT
    while statuses() != {"verified": PLAYERS}:
        assert time.monotonic() < deadline, f"not all verified in {VERIFY_TIMEOUT} s: {statuses()}"
        time.sleep(0.2)
    recovered_s = time.monotonic() - killed_at

    # Exactly once: one result each, one entry each on the deal's board, never a third delivery.
    submissions = rows(
        database_url,
        "SELECT id, deliveries, verified_at IS NOT NULL, won AND NOT flagged, copy_of_id FROM leaderboard_submission",
    )
    assert sorted(s[0] for s in submissions) == sorted(sent)
    assert all(verified and ranked and copy is None for _, _, verified, ranked, copy in submissions), submissions
    assert all(deliveries in (1, 2) for _, deliveries, *_ in submissions), submissions
    assert any(deliveries == 2 for _, deliveries, *_ in submissions), "the killed host's claim was not taken over"
    board_rows = rows(
        database_url,
        "SELECT board, submission_id FROM leaderboard_boardentry ORDER BY board, rank_key, submitted_at, submission_id",
    )
    boards = {board for board, _ in board_rows}
    assert len(boards) == 1, boards
    in_postgres = [submission for _, submission in board_rows]
    assert sorted(in_postgres) == sorted(sent)

    # Both web hosts serve the same board, PostgreSQL's order, from the one Redis index.
    for name in ("web1", "web2"):
        code, board = call(hosts[name].url, f"/api/leaderboards/deals/{deal}/?page_size={PLAYERS}")
        assert code == 200, board
        assert board["count"] == PLAYERS
        assert [row["submission"] for row in board["results"]] == in_postgres
        assert [row["rank"] for row in board["results"]] == list(range(1, PLAYERS + 1))

    # Every host reached the servers over its own link; the killed one is gone.
    clients = dict(
        rows(
            database_url,
            "SELECT host(client_addr), count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "GROUP BY 1",
        )
    )
    assert {hosts[name].address for name in ("web1", "web2", "work2")} <= set(clients), clients
    assert hosts["work1"].exit_code == -signal.SIGKILL
    assert all(hosts[name].exit_code is None for name in ("web1", "web2", "work2", "beat"))
    print(
        f"work1 held {held} verification(s) when killed; all {PLAYERS} verified {recovered_s:.1f} s "
        f"after the kill (deliveries: {Counter(d for _, d, *_ in submissions)}); PostgreSQL sessions by "
        f"address: {clients}",
        file=sys.stderr,
    )
