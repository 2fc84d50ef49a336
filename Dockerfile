# Image for the web, worker and beat services of docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_DEBUG=0

WORKDIR /app

# Dependencies first, so code changes do not reinstall them: the runtime lock alone, every
# package pinned and checked against its hash (compiled from requirements.in by pip-tools).
COPY requirements.txt .
RUN pip install --require-hashes -r requirements.txt

COPY . .

# collectstatic reads settings only; these build-time values never reach a container.
RUN DJANGO_SECRET_KEY=collectstatic-only DAILY_DEAL_SECRET=collectstatic-only \
    ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput

RUN useradd --system --uid 10001 --no-create-home --home-dir /app easyharp
USER easyharp

EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
