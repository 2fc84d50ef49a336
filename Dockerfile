# The one image of docker-compose.yml's migrate, web, worker and beat services.
# The base pinned by version and Debian release: a moving tag once went from Debian 12 to 13.
FROM python:3.11.13-slim-bookworm

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

# The code without tests, benchmarks or docs (.dockerignore).
COPY . .

# Hashed, compressed (gzip and Brotli) static files and their manifest, served by WhiteNoise.
# collectstatic reads settings only; these build-time values never reach a container.
RUN DJANGO_SECRET_KEY=collectstatic-only DAILY_DEAL_SECRET=collectstatic-only \
    ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput

# beat's schedule lives in /var/lib/easyharp, the metrics' files of every process in
# /var/lib/easyharp/metrics (volumes in compose), owned by the app's user.
RUN useradd --system --uid 10001 --no-create-home --home-dir /app easyharp \
    && mkdir -p /var/lib/easyharp/metrics \
    && chown easyharp /var/lib/easyharp /var/lib/easyharp/metrics
USER easyharp

EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi", "--bind", "0.0.0.0:8000", "--no-control-socket"]
