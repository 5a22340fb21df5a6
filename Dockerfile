# One image for the api and the worker (the command picks the role).
# Not built in this project's CI: its machines have no Docker engine. See docker-compose.yml.
FROM node:22-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends fonts-ocr-b fonts-dejavu-core ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --no-audit --no-fund
COPY . .
# Models, MRZ tessdata: fetched from their pinned upstream sources and sha256-checked at build time.
RUN npx tsx scripts/fetch-assets.ts --only models,tessdata
ENV SERVICE_MODE=production HOST=0.0.0.0 PORT=3000 SHARED_DIR=/app/.data/shared ENGINE_CACHE_DIR=/tmp/ivs-cache
RUN mkdir -p /blobs && chown node:node /blobs
USER node
CMD ["npx", "tsx", "api/server.ts"]
