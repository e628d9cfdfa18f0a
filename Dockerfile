# Flipper's distribution as a container image: every daemon, run as a non-root user.
#   docker build -t flipper .
#   docker run -p 9010:9010 -p 9999:9999 flipper -m queue          (embedded H2 under /var/lib/flipper)
#   docker compose up                                               (with MariaDB, see docker-compose.yaml)
# Stage 1 builds the distribution with Maven; stage 2 holds only a JRE and the distribution.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -q -pl dist -am package -DskipTests \
    && mkdir /out \
    && cp -r "$(find dist/target -maxdepth 1 -type d -name 'flipper-*')"/. /out/

FROM eclipse-temurin:17-jre
# curl answers the health check; nothing else is added to the JRE image. Its version follows the base image.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system flipper \
    && useradd --system --gid flipper --home-dir /var/lib/flipper --create-home flipper
COPY --from=build /out /opt/flipper
WORKDIR /var/lib/flipper
USER flipper
# Thrift (queue, master), web UI, and the admin ports (/health, /metrics) of each daemon.
EXPOSE 9010 9090 8080 9999 9091 9092 9093 9094
# The admin port of the first mode given; with -m all or -m queue that is the queue's 9999.
ENV FLIPPER_HEALTH_PORT=9999
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${FLIPPER_HEALTH_PORT}/health" || exit 1
# SIGTERM (docker stop) stops the daemons gracefully and exits 0.
STOPSIGNAL SIGTERM
# Inside a container every port listens on 0.0.0.0, so the daemons need security.tls (docker-compose.yaml shows
# how) or, on a network only trusted hosts reach, --set security.insecure=true; the UI needs ui.users (or
# ui.allowAnonymous=true where everyone may operate workflows). docs/security.md.
ENTRYPOINT ["/opt/flipper/bin/flipper", "--set", "network.bindAddress=0.0.0.0"]
CMD ["-m", "all"]
