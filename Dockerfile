# Raaga: multi-stage image. The build stage compiles TypeScript to dist/ (npm ci runs the `prepare` build), then drops
# dev dependencies; the runtime stage runs the compiled JavaScript as the unprivileged `node` user, health-checked.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY packages ./packages
COPY src ./src
RUN npm ci && npm prune --omit=dev && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    RAAGA_DATA_DIR=/data \
    RAAGA_MODELS_DIR=/app/models
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY models ./models
RUN mkdir -p /data && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--initial-old-space-size=64", "dist/main.js"]
