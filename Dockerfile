# syntax=docker/dockerfile:1
# The RMM server's image: built in one stage, run from a small one. `docker compose up -d --build` builds it
# (docs/deploy.md); on its own: `docker build -t rmm-server .`.
#
# - build:   every dependency, then dist/ (`npm run build`: the server and the operator console, dist/console/)
#            and the reference agent's bundle
#            (`npm run build:agent`, dist/agent/), which the server serves to installers.
# - deps:    production dependencies only, without optional ones: the embedded PostgreSQL's binaries
#            (@embedded-postgres/<platform>, an optional dependency, ~60 MB) are not in the image, so the
#            image needs DATABASE_URL (deploy/start.js, the entry point, stops with a clear message without it).
# - runtime: node, the production node_modules, dist/ and the few files read at run time; runs as `node`.
#
# Install scripts: npm 11 reads package.json's "allowScripts"; the npm in node:20 images is older and
# would run every install script (@scarf/scarf's telemetry among them). So dependencies are installed with
# --ignore-scripts and, of the approved packages, the one the image needs is rebuilt: argon2, compiled from
# source (its prebuilt linux-x64 glibc binary, 0.45.1, crashed on load on the Debian 12 machine this was
# written on, as it does in the project's own npm ci, which compiles it), which needs the
# full node image's compilers; the runtime stage is the slim image of the same Debian release.
ARG BUILD_IMAGE=node:20.20-bookworm
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY scripts ./scripts
COPY libs ./libs
COPY migrations ./migrations
COPY apps ./apps
RUN npm run build && npm run build:agent \
  && test -f dist/apps/api/src/main.js && test -f dist/agent/rmm-agent.js && test -f dist/console/index.html

FROM ${BUILD_IMAGE} AS deps
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && npm_config_build_from_source=true npm rebuild argon2 \
  && node -e "require('argon2').hash('image-check').then(() => undefined)" \
  && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
WORKDIR /app
# Owned by root and read-only to the server's user: the process cannot rewrite its own code.
COPY package.json ./
COPY docs/asyncapi.yaml ./docs/asyncapi.yaml
COPY deploy/start.js ./deploy/start.js
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER node
EXPOSE 3000
# Ready = the database answers (GET /readyz is 200, else 503). No curl in the slim image: Node's own fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 here: it handles SIGTERM itself (closes the app, drains, exits 0). `docker compose` gives it 10 s.
# deploy/start.js checks DATABASE_URL, then loads dist/apps/api/src/main.js.
CMD ["node", "--enable-source-maps", "deploy/start.js"]
