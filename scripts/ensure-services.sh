#!/usr/bin/env bash
# Makes sure the services and tools the test suite needs are there:
#   MariaDB on 127.0.0.1:3306 (user root, empty password) and Redis on 127.0.0.1:6379, answering on loopback;
#   the Thrift compiler and Python's Thrift library (the wire-compatibility tests generate code with them);
#   promtool from Debian's prometheus package (the metrics tests lint every daemon's /metrics with it);
#   Chromium and its WebDriver (the workflow UI's browser tests drive a headless Chromium);
#   the Dockerfile linter dockerfile-utils from npm, pinned, into the checkout's .tools/ (DockerfileLintTest;
#   hadolint is neither in Debian nor reachable everywhere).
# Starts them when installed, installs them with apt-get when missing (Debian/Ubuntu), and fails with a
# clear message anywhere else. Never skips: a test run without its services must not pass.
set -euo pipefail

MYSQL_HOST=127.0.0.1 MYSQL_PORT=3306 REDIS_HOST=127.0.0.1 REDIS_PORT=6379
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# DockerfileLintTest runs $ROOT/.tools/node_modules/.bin/dockerfile-utils; change the version here only.
DOCKERFILE_UTILS_VERSION=0.16.3

log() { printf 'ensure-services: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
  else die "need root to run '$*' (no sudo); install it yourself or run as root"
  fi
}

wait_for() { # description, seconds, command...
  local what=$1 secs=$2; shift 2
  for _ in $(seq 1 "$((secs * 4))"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  die "$what did not come up within ${secs}s"
}

apt_updated=
apt_install() {
  command -v apt-get >/dev/null 2>&1 ||
    die "'$*' is missing and this is not a Debian/Ubuntu system: install MariaDB (>= 10.6) and Redis, start them on $MYSQL_HOST:$MYSQL_PORT and $REDIS_HOST:$REDIS_PORT, then rerun"
  if [ -z "$apt_updated" ]; then
    log "apt-get update"; as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq; apt_updated=1
  fi
  log "installing $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

mysql_client() { command -v mariadb >/dev/null 2>&1 && echo mariadb || echo mysql; }
mysql_tcp_ok() { "$(mysql_client)" -h"$MYSQL_HOST" -P"$MYSQL_PORT" -uroot --password= -e 'SELECT 1'; }
redis_ok() { [ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }

ensure_mariadb() {
  if command -v mariadb >/dev/null 2>&1 && mysql_tcp_ok >/dev/null 2>&1; then
    log "MariaDB answers on $MYSQL_HOST:$MYSQL_PORT"; return
  fi
  if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ] && [ ! -x /usr/sbin/mysqld ]; then
    apt_install mariadb-server mariadb-client
  fi
  if ! mysql_tcp_ok >/dev/null 2>&1; then
    log "starting MariaDB"
    as_root mkdir -p /run/mysqld
    as_root chown mysql:mysql /run/mysqld 2>/dev/null || true
    local daemon=/usr/sbin/mariadbd; [ -x "$daemon" ] || daemon=/usr/sbin/mysqld
    as_root start-stop-daemon --start --oknodo --background --exec "$daemon" -- --user=mysql \
      --bind-address=127.0.0.1 --port="$MYSQL_PORT"
    wait_for "MariaDB (socket)" 60 as_root "$(mysql_client)" -uroot -e 'SELECT 1'
  fi
  if ! mysql_tcp_ok >/dev/null 2>&1; then
    # A fresh Debian install lets root in only through the unix socket; the tests log in over TCP.
    log "allowing root with an empty password over TCP (local test server only)"
    as_root "$(mysql_client)" -uroot -e "
      ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket;
      CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
      GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
      FLUSH PRIVILEGES;"
  fi
  wait_for "MariaDB on $MYSQL_HOST:$MYSQL_PORT" 30 mysql_tcp_ok
  log "MariaDB answers on $MYSQL_HOST:$MYSQL_PORT"
}

ensure_redis() {
  if command -v redis-cli >/dev/null 2>&1 && redis_ok; then
    log "Redis answers on $REDIS_HOST:$REDIS_PORT"; return
  fi
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  log "starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/flipper-test.log
  wait_for "Redis on $REDIS_HOST:$REDIS_PORT" 30 redis_ok
  log "Redis answers on $REDIS_HOST:$REDIS_PORT"
}

ensure_tools() {
  local missing=()
  command -v thrift >/dev/null 2>&1 || missing+=(thrift-compiler)
  /usr/bin/python3 -c 'import thrift' >/dev/null 2>&1 || missing+=(python3-thrift)
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
  log "thrift $(thrift --version | awk '{print $3}'), python3-thrift and promtool present"
  log "$(chromium --version 2>/dev/null | head -1) and chromedriver present"
}

ensure_dockerfile_linter() {
  local bin=$ROOT/.tools/node_modules/.bin/dockerfile-utils
  if ! "$bin" --version 2>/dev/null | grep -qF "version $DOCKERFILE_UTILS_VERSION "; then
    command -v npm >/dev/null 2>&1 || apt_install nodejs npm
    log "installing dockerfile-utils $DOCKERFILE_UTILS_VERSION from npm into $ROOT/.tools"
    npm install --prefix "$ROOT/.tools" --no-save --no-audit --no-fund --silent \
      "dockerfile-utils@$DOCKERFILE_UTILS_VERSION" >/dev/null 2>&1 ||
      die "npm could not install dockerfile-utils@$DOCKERFILE_UTILS_VERSION (is the npm registry reachable?)"
  fi
  log "$("$bin" --version | awk '{print $1, $3}') (Dockerfile linter) present"
}

ensure_mariadb
ensure_redis
ensure_tools
ensure_dockerfile_linter
