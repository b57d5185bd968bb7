# Multi-stage image for the platform. One image, two roles, chosen by the command:
#   docker run IMAGE control-plane   (the /v0 and /client/v1 API, outbox workers)
#   docker run IMAGE runtime         (a runtime node running hosted apps in isolates)
#   docker run IMAGE all             (both, as `npm start` does; embedded Postgres unless DATABASE_URL is set)

FROM node:24-bookworm-slim AS deps
WORKDIR /app
# isolated-vm ships prebuilt binaries for Node 24; the build tools are only a fallback.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
COPY sandbox-lib/package.json sandbox-lib/
COPY runtime/package.json runtime/
COPY control-plane/package.json control-plane/
COPY scripts scripts
COPY sandbox-lib sandbox-lib
# The CLI is a workspace too: npm ci links it (its bin must exist); the image does not ship it.
COPY cli cli
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
 && npm rebuild isolated-vm esbuild \
 && node scripts/build-packages.mjs

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    RUNTIME_HOST=0.0.0.0 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/sandbox-lib sandbox-lib
COPY package.json ./
COPY runtime runtime
COPY control-plane control-plane
COPY deploy/docker-entrypoint.sh /usr/local/bin/platform-entrypoint
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node
EXPOSE 4000 4001
ENTRYPOINT ["platform-entrypoint"]
CMD ["all"]
