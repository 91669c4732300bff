# syntax=docker/dockerfile:1
# Lightbar's image: `docker build -t lightbar .` (compose.yaml builds it too; docs/deployment.md).
#
# The container runs the server bundle (scripts/server-bundle.mjs: server/main.ts as one ES module,
# packages left to node_modules) with plain node. `npm start` (scripts/start.mjs) is not used: it
# would rebuild the app with vite (a development dependency) when it judges dist/ stale, and runs
# the TypeScript sources through tsx. The bundle needs only the production dependencies and these
# files beside it: package.json (the version), server/db/migrations (run at every start),
# server/db/pglite-thread.mjs (the embedded database, without DATABASE_URL), server/wzdx/schemas
# and the built app in dist/.

# ── build: every dependency, the app (vite build) and the server bundle ─────────────────────────
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && node scripts/server-bundle.mjs /app/build/server.mjs

# ── runtime: production dependencies only, non-root ─────────────────────────────────────────────
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The bundle keeps each source file's own path (/app/server/...): the same WORKDIR as the build.
COPY --from=build /app/build/server.mjs ./build/server.mjs
COPY --from=build /app/dist ./dist
COPY server/db/migrations ./server/db/migrations
COPY server/db/pglite-thread.mjs ./server/db/pglite-thread.mjs
COPY server/wzdx/schemas ./server/wzdx/schemas
# Generated exports and reports, the download links' key, and the embedded database when there is
# no DATABASE_URL: a volume in compose.yaml. Created here so that a new volume belongs to `node`.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
# Liveness (docs/operations.md): slim images have no curl, so node asks GET /health itself.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM goes straight to node (no npm or shell in between), which drains (SHUTDOWN_DRAIN_MS) and stops.
CMD ["node", "build/server.mjs"]
