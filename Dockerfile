# One image for the three processes; the command chooses which:
#   docker run IMAGE portal | client-portal | data-api
# Each container runs one process in the foreground and nothing in it restarts that process (unlike
# `npm start`, scripts/supervisor.ts): a process that dies ends its container, so run it with the
# orchestrator's restart policy (docker run --restart unless-stopped, compose `restart:`, Kubernetes'
# restartPolicy). Such a policy acts when the process exits; plain Docker only marks a container whose
# HEALTHCHECK fails as unhealthy and does not restart it (Swarm does; Kubernetes uses its own probes,
# which can ask GET /healthz).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
# COOKIE_SECURE: the container is always reached through https (a TLS proxy in front).
# TRUST_PROXY: so the client portal takes the scheme and host from that proxy's X-Forwarded-* headers,
# and counts failed sign-ins per client address (the proxy's last X-Forwarded-For hop) rather than
# per the proxy's own address, which every user shares. Set it to false where no proxy is in front.
# MALLOC_ARENA_MAX: memory freed by worker threads goes back to the system (docs/decisions/014).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    COOKIE_SECURE=true \
    TRUST_PROXY=true \
    DATA_DIR=/data \
    PORT=3000 \
    CLIENT_PORTAL_PORT=3001 \
    DATA_API_PORT=3002
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json tsconfig.base.json ./
COPY --chown=node:node contracts ./contracts
COPY --chown=node:node services ./services
COPY --chown=node:node scripts ./scripts
USER node
VOLUME ["/data"]
EXPOSE 3000 3001 3002
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["node", "scripts/container-healthcheck.mjs"]
ENTRYPOINT ["scripts/container-start.sh"]
CMD ["portal"]
