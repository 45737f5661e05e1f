# check=skip=InvalidDefaultArgInFrom
# Workcell services: one image per app, chosen with the APP build argument.
#   docker build --build-arg APP=api-v1 -t workcell-api-v1 .
# APP is one of: api-v0, api-v1, auth, worker. Only the last, tiny stage depends on it, so the four
# images share every other layer. The migration runs from the worker image:
#   docker run --rm -e DATABASE_URL=... workcell-worker node tools/db/dist/migrate.js

# Node.js 24 (Active LTS; Node 20 reached its end of life in April 2026), Debian bookworm slim, pinned by digest so
# builds are reproducible: change it by updating the digest (Renovate/Dependabot do), never by a floating tag.
# The digest is node:24-bookworm-slim's multi-platform index as recorded by other projects pinning it (24.18.0);
# it was not pulled here, as this machine has no Docker engine.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
# No default on purpose (the check= directive above silences BuildKit's warning about `FROM app-`).
ARG APP

# ---- check-app: fails the build with a plain message when APP is not one of the four apps.
# The classic builder runs stages in order, so this runs first. BuildKit resolves `FROM app-${APP}` (at
# the end) before running anything; for an unknown APP it then fails there, naming `app-<APP>`.
FROM ${NODE_IMAGE} AS check-app
ARG APP
RUN case "${APP}" in \
      api-v0|api-v1|auth|worker) echo "Building ${APP}" ;; \
      *) echo "Build argument APP must be one of: api-v0, api-v1, auth, worker (got '${APP}')" >&2; exit 1 ;; \
    esac

# ---- manifests: just the package.json files and the lockfile, so `npm ci` stays cached until they change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && find . -name node_modules -prune -o -type f \( -name package.json -o -name package-lock.json -o -name .npmrc \) -print \
    | xargs cp --parents -t /manifests

# ---- deps: the full dependency tree (dev included) from the lockfile.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# `prisma generate` (part of the build) and @prisma/engines' install script want a schema engine only
# for migrations, which this project runs with dbmate: any existing file will do, and nothing is downloaded.
ENV PRISMA_SCHEMA_ENGINE_BINARY=/bin/true \
    PRISMA_HIDE_UPDATE_MESSAGE=1 \
    CHECKPOINT_DISABLE=1
COPY --from=manifests /manifests/ ./
RUN npm ci --no-audit --no-fund

# ---- build: compile every project with Nx, then drop dev dependencies.
FROM deps AS build
ENV NX_DAEMON=false \
    NX_NO_CLOUD=true \
    NX_TUI=false \
    CI=true
COPY . .
RUN npx nx run-many -t build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .nx node_modules/.cache

# ---- runtime: compiled output and production dependencies, run as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app ./
# The local file storage directory (the compose file-data volume is mounted here and takes its owner).
RUN mkdir -p /var/lib/workcell/files && chown node:node /var/lib/workcell/files
USER node
# Liveness only (/healthz); compose checks readiness (/readyz). slim images have no curl: use node's fetch.
# The port follows the app's own variable (e.g. API_V0_PORT) when it is overridden.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const port = process.env[process.env.APP_PORT_VARIABLE] || process.env.APP_DEFAULT_PORT; fetch('http://127.0.0.1:' + port + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# ---- one small stage per app: its entry point, port and health-check port.
FROM runtime AS app-api-v0
ENV APP=api-v0 APP_PORT_VARIABLE=API_V0_PORT APP_DEFAULT_PORT=3000
EXPOSE 3000
CMD ["node", "apps/api-v0/dist/main.js"]

FROM runtime AS app-api-v1
ENV APP=api-v1 APP_PORT_VARIABLE=API_V1_PORT APP_DEFAULT_PORT=3001
EXPOSE 3001
CMD ["node", "apps/api-v1/dist/main.js"]

FROM runtime AS app-auth
ENV APP=auth APP_PORT_VARIABLE=AUTH_PORT APP_DEFAULT_PORT=3002
EXPOSE 3002
CMD ["node", "apps/auth/dist/main.js"]

FROM runtime AS app-worker
ENV APP=worker APP_PORT_VARIABLE=WORKER_PORT APP_DEFAULT_PORT=3003
EXPOSE 3003
CMD ["node", "apps/worker/dist/main.js"]

# ---- the image: the stage of the app named by APP (the default target, so it must stay last).
FROM app-${APP}
