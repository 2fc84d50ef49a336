# ruff: noqa: N999 (gunicorn's own name for its settings file)
"""gunicorn's settings for compose, the Dockerfile and make run: ``gunicorn -c config/gunicorn.conf.py
config.wsgi``. Read before Django starts, so from the environment only (never Django's settings).

- No control socket: it would live under a home folder the container's user cannot write, and
  one socket under $HOME would be shared by every gunicorn of the machine.
- Logs to stderr/stdout, as JSON lines when DJANGO_LOG_FORMAT=json (as Django's own); the access
  line names the response's X-Request-ID; the health check's requests are not logged.
"""

import logging
import os

from gunicorn import glogging

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
control_socket_disable = True
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" %({x-request-id}o)s'

JSON_LOGS = os.environ.get("DJANGO_LOG_FORMAT", "").strip().lower() == "json"
#: Not logged: the container health check's requests, one every few seconds.
QUIET_PATHS = frozenset({"/healthz"})


def _json_formatter() -> logging.Formatter:
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
    )


class Logger(glogging.Logger):
    def setup(self, cfg):
        super().setup(cfg)
        if JSON_LOGS:
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(_json_formatter())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        if not resp.sent and resp.response_length:
            # A file gunicorn sent with sendfile() (WhiteNoise's) is not counted in resp.sent.
            atoms["b"], atoms["B"] = str(resp.response_length), resp.response_length
        return atoms

    def access(self, resp, req, environ, request_time):
        if environ.get("PATH_INFO") in QUIET_PATHS:
            return
        if not JSON_LOGS:
            return super().access(resp, req, environ, request_time)
        if not self.access_log_enabled:
            return
        headers = {name.lower(): value for name, value in resp.headers}
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        fields = {
            "request_id": headers.get("x-request-id", "-"),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "status": int(status),
            "bytes": resp.sent or resp.response_length or 0,
            "duration_ms": round(request_time.total_seconds() * 1000, 1),
            "remote_addr": environ.get("REMOTE_ADDR"),
            "user_agent": environ.get("HTTP_USER_AGENT"),
        }
        self.access_log.info("%s %s %s", fields["method"], fields["path"], fields["status"], extra=fields)


logger_class = Logger


def child_exit(server, worker):
    """A worker's live metrics files go with it (config/metrics.py, multiprocess mode)."""
    from config.metrics import child_exit as metrics_child_exit

    metrics_child_exit(server, worker)
