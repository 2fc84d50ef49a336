"""The floor's settings: the project's server settings (database options, Redis pool, Celery,
logging), its own database (FLOOR_DATABASE_URL), one app, no middleware."""

import copy
import os

from config import settings as project

SECRET_KEY = project.SECRET_KEY
DEBUG = False
ALLOWED_HOSTS = project.ALLOWED_HOSTS
USE_TZ, TIME_ZONE = project.USE_TZ, project.TIME_ZONE
INSTALLED_APPS = ["floor"]
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "floor.urls"
WSGI_APPLICATION = "config.wsgi.application"

DATABASES = copy.deepcopy(project.DATABASES)  # conn_max_age and health checks as the project's
DATABASES["default"]["NAME"] = os.environ["FLOOR_DATABASE_URL"].rsplit("/", 1)[1]
CACHES = copy.deepcopy(project.CACHES)  # the same django-redis pool, parser and timeouts
LOGGING = project.LOGGING
DEFAULT_AUTO_FIELD = project.DEFAULT_AUTO_FIELD

# Every Celery setting the project has (broker, acks, prefetch, connection reuse, time limits).
globals().update({name: getattr(project, name) for name in dir(project) if name.startswith("CELERY_")})
CELERY_BEAT_SCHEDULE: dict = {}
