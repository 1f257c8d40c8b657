# syntax=docker/dockerfile:1
# Poruch: API, site and widget bundles in one image. UNTESTED: Docker cannot run on the machine this
# was written on (docs/operations.md#deployment). Build from the repository root:
#   docker build -t poruch .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://… -e PUBLIC_URL=https://poruch.example.org poruch

ARG NODE_VERSION=20.19
ARG PNPM_VERSION=12.21.0

# ---- build: every dependency, then the widgets, the site and the server -------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS build
ARG PNPM_VERSION
RUN npm install -g pnpm@${PNPM_VERSION}
WORKDIR /app
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/core/package.json packages/core/
COPY packages/server/package.json packages/server/
COPY packages/site/package.json packages/site/
COPY packages/widgets/package.json packages/widgets/
COPY examples examples
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm run build

# ---- runtime: production dependencies and the built files only ---------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG PNPM_VERSION
RUN npm install -g pnpm@${PNPM_VERSION} \
 && apt-get update && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json /app/pnpm-lock.yaml /app/pnpm-workspace.yaml ./
COPY --from=build /app/packages/core/package.json packages/core/
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/site/package.json packages/site/
COPY --from=build /app/packages/widgets/package.json packages/widgets/
COPY --from=build /app/examples examples
RUN pnpm install --frozen-lockfile --prod --filter @poruch/server... \
 && pnpm store prune
# The server bundles @poruch/core; it finds its migrations, the site and the widgets by path.
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/server/drizzle packages/server/drizzle
COPY --from=build /app/packages/site/dist packages/site/dist
COPY --from=build /app/packages/widgets/dist packages/widgets/dist

ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    SEED_DEMO=false
# Behind a reverse proxy, set TRUST_PROXY to the proxy's address(es) (deploy/compose.yaml does);
# unset, X-Forwarded-For is not believed, which is right when clients reach port 8080 directly.
# The embedded database and .eml files (only used without DATABASE_URL / SMTP_URL).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini passes SIGTERM to node (PID 1 would not get default signal handling) and reaps zombies;
# the server then drains (SHUTDOWN_TIMEOUT_MS, 25 s: keep `docker stop -t` / stop_grace_period above).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "packages/server/dist/main.js"]
