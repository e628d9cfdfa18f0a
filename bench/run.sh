#!/usr/bin/env bash
# The peer benchmark suite: Flipper, BullMQ, db-scheduler and JobRunr in the same run, alternating rounds
# (bench/README.md). Builds what it needs, runs every harness, prints the tables and writes them with PNG plots
# into docs/benchmarks.md and docs/bench/ (not with --quick). Raw results and logs: bench/results/<time>/.
#   bench/run.sh [--quick] [--rounds N] [--only flipper-redis,bullmq,...] [--seconds S] [--jobs N]
#                [--max-seconds S] [--write-docs false]
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
quick=false
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=true ;;
    -h|--help) sed -n 2,6p "$0" | cut -c3-; exit 0 ;;
    --rounds|--only|--seconds|--jobs|--max-seconds|--write-docs)
      [ $# -ge 2 ] || { echo "bench: $1 needs a value" >&2; exit 2; }; args+=("$1" "$2"); shift ;;
    *) echo "bench: unknown argument '$1'; see bench/run.sh --help" >&2; exit 2 ;;
  esac
  shift
done

command -v node >/dev/null && command -v npm >/dev/null ||
  { echo "bench: Node.js and npm are needed for BullMQ (Debian: apt-get install nodejs npm)" >&2; exit 1; }
scripts/ensure-services.sh

mkdir -p bench/results
echo "bench: building Flipper, the Java harness and the BullMQ harness (log in bench/results/build.log)" >&2
{
  mvn -B -q install -DskipTests -pl queue-client,dist -am
  (cd bench/suite && mvn -B -q package)
  (cd bench/bullmq && npm ci --no-audit --no-fund)
} > bench/results/build.log 2>&1 || { tail -30 bench/results/build.log >&2; exit 1; }

home=$(ls -d dist/target/flipper-*/ | head -1)
exec java -Xmx1g -cp "bench/suite/target/classes:$(cat bench/suite/target/classpath.txt)" dev.flipper.bench.suite.Suite \
  --bench-dir bench --flipper-home "$home" --quick "$quick" \
  --bullmq-version "$(node -p "require('./bench/bullmq/package.json').dependencies.bullmq")" \
  --node-version "$(node --version)" \
  --mariadb-version "$(mariadb -h127.0.0.1 -uroot -N -e 'select version()' | cut -d- -f1)" \
  --redis-version "$(redis-cli -h 127.0.0.1 info server | sed -n 's/^redis_version:\([^\r]*\).*/\1/p')" \
  "${args[@]}"
