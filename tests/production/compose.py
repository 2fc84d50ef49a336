"""docker-compose.yml's app services as compose would start them: each one's command and the
environment of the shared ``x-app`` block, with compose's ``${...}`` interpolation done from
values the caller gives (never from this process's environment)."""

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

COMPOSE_FILE = Path(__file__).resolve().parents[2] / "docker-compose.yml"

# $$ (a literal $), ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}, $NAME
VARIABLE = re.compile(
    r"\$(?:(?P<dollar>\$)"
    r"|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}"
    r"|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)


class MissingVariable(ValueError):
    """A ${NAME:?message} whose NAME has no value: compose refuses to start."""


def interpolate(text: str, values: Mapping[str, str]) -> str:
    """``text`` with its variables replaced as compose replaces them."""

    def substitute(match: re.Match) -> str:
        if match["dollar"]:
            return "$"
        name, op, arg = match["name"] or match["bare"], match["op"], match["arg"]
        value = values.get(name)
        # With a colon an empty value counts as unset; without one only a missing value does.
        unset = value is None or (value == "" and op is not None and op.startswith(":"))
        if not unset:
            return value
        if op in (":-", "-"):
            return arg
        if op in (":?", "?"):
            raise MissingVariable(f"{name}: {arg}")
        return ""  # compose warns and substitutes an empty string

    return VARIABLE.sub(substitute, text)


@dataclass
class AppService:
    name: str
    command: list[str]
    environment: dict[str, str | None]


def app_service(name: str, values: Mapping[str, str], compose_file: Path = COMPOSE_FILE) -> AppService:
    """The service ``name`` (web, worker, beat) with every variable of its command and
    environment interpolated from ``values``."""
    service = yaml.safe_load(compose_file.read_text())["services"][name]
    command = service["command"]
    if isinstance(command, str):
        command = shlex.split(interpolate(command, values))
    else:
        command = [interpolate(str(part), values) for part in command]
    environment = service["environment"]
    assert isinstance(environment, dict), f"{name}: environment is expected as a mapping"
    return AppService(
        name=name,
        command=command,
        environment={key: _environment_value(key, value, values) for key, value in environment.items()},
    )


def _environment_value(key: str, value, values: Mapping[str, str]) -> str | None:
    """A value of ``environment:``; a key without one passes the host's value on (None: unset)."""
    if value is None:
        return values.get(key)
    return interpolate(str(value), values)
