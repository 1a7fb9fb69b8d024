# The a2a-temporal image: the CLI, the worker and the sample agents (see docker-compose.yml).
FROM node:20-slim AS build
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
COPY bin bin
COPY index.ts ./
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
COPY deploy deploy
COPY agents.json ./
ENTRYPOINT ["node", "bin/a2a-temporal.js"]
CMD ["worker"]
