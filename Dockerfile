# The a2a-temporal image: the CLI, the worker, the sample agents and `a2a-temporal setup`, one image
# for all of them (see docker-compose.yml). Node 24 (active LTS). The workflow code is bundled
# here, once, so workers start without bundling and all run the same bytes (A2A_WORKFLOW_BUNDLE).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY a2a a2a
COPY activities activities
COPY workflows workflows
COPY worker worker
COPY client client
COPY agents agents
COPY platform platform
COPY contract contract
COPY telemetry telemetry
COPY storage storage
COPY types types
COPY bin bin
# `npm ci` compiles to dist/ (the `prepare` script); then the bundle; then the dev tools go.
RUN npm ci --no-audit --no-fund \
  && node dist/worker/write-workflow-bundle.js /app/workflow-bundle.js \
  && npm prune --omit=dev

FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production \
    A2A_WORKFLOW_BUNDLE=/app/workflow-bundle.js \
    A2A_BLOB_DIR=/blobs
# Owned by root and read-only for the process: the worker needs to write nothing here.
COPY --from=build /app /app
COPY deploy deploy
COPY agents.json ./
# The filesystem blob store (A2A_BLOB_DIR): the one folder the process writes, shared by the
# worker, the CLI and the codec server through a volume in docker-compose.yml.
RUN mkdir /blobs && chown node:node /blobs
# The node image's unprivileged user (uid 1000).
USER node
ENTRYPOINT ["node", "bin/a2a-temporal.js"]
CMD ["worker"]
