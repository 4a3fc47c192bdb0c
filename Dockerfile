# syntax=docker/dockerfile:1
# CampusLoop's production image (docs/deploy.md): built with the dev dependencies, run with the
# production ones, the built dist/ and plain node; no sources, no tsx, no build tools, not as root.
#
#   docker build -t campusloop .
#   docker run -p 5000:5000 -e DATABASE_URL=… -e APP_URL=https://… … campusloop
#
# Debian, not Alpine: sharp's and argon2's prebuilt binaries in the lockfile are the glibc ones.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency, then `npm run build` (the web app, its pre-rendering entry, the server bundle).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The production dependencies alone, as the production-bundle test installs them.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. What runs: node, the production dependencies and dist/.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=5000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# DATA_DIR (the embedded database, local photos, the mail outbox) is the only place the app writes;
# mount a volume there. With PostgreSQL and S3 it holds nothing that matters.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 5000
# Liveness: the process answers (it asks nothing of the database; /api/ready does). A first start on an
# empty embedded database creates it, which takes a while; PostgreSQL starts in seconds.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: the server stops taking connections, finishes what is in flight and closes the database.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
