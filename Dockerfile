# agate's App: `npm start`'s bundle (dist/app/index.js) on Node.js 24, as the unprivileged user
# `node`, working in /data: a volume that user owns, which holds the SQLite database and the
# .env that the one-click registration writes (app/runtime/registration.ts writes it into the
# working directory). Both outlive the container; /app, the code, stays read-only to the App.
# Build: docker build -t agate .
# Run (docs/operations.md, "Containers"; with no APP_ID it serves the one-click registration):
#   docker run -d --name agate --restart unless-stopped --stop-timeout 30
#     -p 127.0.0.1:3000:3000 -v agate-data:/data -e AGATE_PUBLIC_URL=https://agate.example.com agate

# Dependencies are installed in the full image, which has the compiler better-sqlite3 falls back
# to when no prebuilt binding downloads; only node_modules goes on to the slim image.
FROM node:24-bookworm AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    AGATE_DATABASE_URL=file:/data/agate.db
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
# package.json says the bundle is an ES module.
COPY package.json ./
COPY app.yml ./
COPY dist/app ./dist/app

# A named volume starts as a copy of this directory, owner included, so `node` can write to it.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
WORKDIR /data
EXPOSE 3000
# Liveness: the process and its database answer (readiness, with GitHub, is /readyz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "/app/dist/app/index.js"]
