# One image for every Sextant service; the compose file picks the module to run.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends git && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir uv==0.13.9
WORKDIR /app
COPY . .
RUN uv sync --all-packages --locked --no-dev --python python3
ENV PATH="/app/.venv/bin:$PATH" SEXTANT_HOME=/data
VOLUME ["/data"]
CMD ["sextant", "up"]
