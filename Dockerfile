# Raaga: multi-stage image. Production dependencies only, non-root, health-checked on /healthz.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    RAAGA_DATA_DIR=/data \
    RAAGA_MODELS_DIR=/app/models
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json .npmrc ./
COPY bin ./bin
COPY src ./src
COPY models ./models
RUN mkdir -p /data && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
