# bmc-redfish on the official Node 20 image: one controller, or one fleet shard.
#
#   docker build -t bmc-redfish .
#   docker run --rm -v bmc-data:/data -p 8443:8443 bmc-redfish
#   docker run --rm -v bmc-data:/data -p 8443-8452:8443-8452 -e GLIBC_TUNABLES=glibc.malloc.tcache_count=1024 --entrypoint node bmc-redfish --min-semi-space-size=256 --max-semi-space-size=256 --v8-pool-size=1 --max-old-space-size=8192 dist/cli.js --fleet 10
#
# Arguments after the image name are the service's flags (docs/configuration.md), or a
# tool's name and its arguments (`docker run --rm bmc-redfish fwpkg --help`; `--help` lists them).

# --- build: every dependency, the TypeScript compiled into dist/ (service and web console) ---
FROM node:20-bookworm-slim AS build
# better-sqlite3 is native: its install script fetches a prebuilt binary, and compiles
# from source (node-gyp: python3, make, g++) when none fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` would build before the sources are here: install without scripts (so this layer
# is reused while only sources change), then run better-sqlite3's own install script.
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# tsc -b tsconfig.build.json: src/ into dist/, console/src/ into dist/console/ (a project reference).
RUN npm run build && npm prune --omit=dev

# --- runtime: production dependencies, dist/, the console's page and styles, the hardware profiles ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# package.json says "type": "module", which dist/*.js needs.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The console is served from dist/console/ (scripts) and console/ (index.html, app.css).
COPY --from=build /app/console ./console
COPY profiles ./profiles
# The data dir: owned by the image's non-root `node` user (uid 1000), so a named volume
# created from it is writable; the service narrows it to 0700 itself.
RUN mkdir /data && chown node:node /data && chmod 700 /data
VOLUME /data
# As environment variables rather than flags, so arguments given to `docker run` add to them.
ENV BMC_DATA_DIR=/data \
    BMC_HOST=0.0.0.0
# The first controller's port; controller i of a fleet listens on 8443 + i.
EXPOSE 8443
# Numeric (the `node` user), so Kubernetes' runAsNonRoot can check it is not root.
USER 1000:1000
# Node flags as package.json config.node_flags (what `npm start` passes), in NODE_OPTIONS so a
# fleet can take config.fleet_node_flags instead (`npm run fleet`), given to node itself (they win
# over NODE_OPTIONS, which does not take --min-semi-space-size), with its glibc tunables
# (config.fleet_glibc_tunables):
#   docker run -e GLIBC_TUNABLES=glibc.malloc.tcache_count=1024 --entrypoint node ... bmc-redfish --min-semi-space-size=256 --max-semi-space-size=256 --v8-pool-size=1 --max-old-space-size=8192 dist/cli.js --fleet 100
ENV NODE_OPTIONS="--max-semi-space-size=4 --v8-pool-size=1"
ENTRYPOINT ["node", "dist/cli.js"]
