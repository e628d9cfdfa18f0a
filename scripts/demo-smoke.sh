#!/usr/bin/env bash
# Proves the README's first command: starts `./flipper demo` (which builds what is missing first), waits until
# every daemon answers /health with 200 "ready", stops it with SIGTERM and requires exit code 0 and a clean
# stop. On any failure it says what failed and prints the demo's output.
#
#   scripts/demo-smoke.sh                  the demo on ephemeral ports and a temporary data directory, so it
#                                          passes while another demo (another clone) runs on the default ports
#   scripts/demo-smoke.sh --beside CMD...  runs CMD while a demo runs on the default ports (the README's
#                                          `./flipper demo` in another terminal), then stops the demo the same
#                                          way; exits with CMD's code. If the default ports are already taken
#                                          (by another demo, say), CMD runs beside whatever holds them.
#                                          CMD may rebuild the tree: Maven replaces the distribution's jars
#                                          with new files, and the running demo keeps reading the old ones.
#
# Time limits in seconds: FLIPPER_SMOKE_READY_TIMEOUT (default 900; includes the first build on a fresh
# clone), FLIPPER_SMOKE_STOP_TIMEOUT (default 90; the launcher itself halts after 60).
set -euo pipefail
cd "$(dirname "$0")/.."

READY_TIMEOUT=${FLIPPER_SMOKE_READY_TIMEOUT:-900}
STOP_TIMEOUT=${FLIPPER_SMOKE_STOP_TIMEOUT:-90}

beside=
if [ "${1:-}" = --beside ]; then
  shift
  [ $# -gt 0 ] || { echo "usage: $0 [--beside CMD...]" >&2; exit 2; }
  beside=1
fi

log() { printf 'demo-smoke: %s\n' "$*" >&2; }
command -v curl >/dev/null 2>&1 || { log "FAILED: needs curl to ask the daemons' /health"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/flipper-demo-smoke.XXXXXX")
out="$work/demo.out"
: >"$out" # exists before the background demo's redirection creates it, for the first grep
pid=

cleanup() {
  # Only reached with the demo still running when something failed: take its whole process group (the
  # Maven build too, if it was still building), not just the launcher.
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  log "FAILED: $*"
  if [ -s "$out" ]; then
    echo "----- output of the demo -----" >&2
    cat "$out" >&2
    echo "----- end of the demo's output -----" >&2
  else
    log "the demo printed nothing"
  fi
  exit 1
}

# Its own data directory always: the demo's ./data may belong to a demo the developer runs in this tree.
args=(--set "storage.jdbc.shards=[{name: \"1\", url: \"jdbc:h2:file:$work/data/flipper;MODE=MySQL;AUTO_SERVER=TRUE\"}]")
# The job logs of the etl instance the demo starts (and the jobs' work directories, beside them) go there too.
args+=(--set "workers.logDir=$work/data/logs")
if [ -z "$beside" ]; then
  # Port 0 everywhere: the system picks free ports and the ready lines print them.
  for key in queue.port queue.adminPort master.port master.adminPort scheduler.adminPort workers.adminPort \
      ui.port ui.adminPort; do
    args+=(--set "$key=0")
  done
fi

# setsid: the demo (and the build before it) gets its own process group, so cleanup can end all of it.
# `./flipper demo` execs the launcher, so $pid is the JVM once the build is done: SIGTERM goes to it alone.
started=$SECONDS
if command -v setsid >/dev/null 2>&1; then
  setsid ./flipper demo "${args[@]}" >"$out" 2>&1 </dev/null &
else
  ./flipper demo "${args[@]}" >"$out" 2>&1 </dev/null &
fi
pid=$!
log "started ./flipper demo (pid $pid${beside:+, default ports}); waiting up to ${READY_TIMEOUT}s until every daemon is ready"

# 1. The launcher prints "flipper: <mode> ready, admin <url>/health" per mode, then "flipper: running ...".
while ! grep -q '^flipper: running ' "$out"; do
  if ! kill -0 "$pid" 2>/dev/null; then
    set +e; wait "$pid"; code=$?; set -e
    pid=
    if [ -n "$beside" ] && grep -qiE 'cannot listen|address already in use|BindException' "$out"; then
      log "the default ports are taken (another demo?); running '$*' beside whatever holds them"
      set +e; "$@"; exit $?
    fi
    fail "the demo exited with code $code before every daemon was ready"
  fi
  [ $((SECONDS - started)) -lt "$READY_TIMEOUT" ] || fail "not ready within ${READY_TIMEOUT}s"
  sleep 0.5
done

# 2. Every daemon's /health answers 200 with "status":"ready" (a mode may start before it is ready).
mapfile -t urls < <(sed -nE 's/^flipper: [a-z]+ (ready|started, not ready yet), admin (http:[^ ,]+\/health).*/\2/p' "$out")
modes=$(sed -nE 's/^flipper: running (.*) \(pid .*/\1/p' "$out")
IFS=', ' read -r -a mode_list <<<"$modes"
[ "${#urls[@]}" -gt 0 ] && [ "${#urls[@]}" -eq "${#mode_list[@]}" ] ||
  fail "${#mode_list[@]} daemons running ($modes) but ${#urls[@]} admin URLs in the ready lines"
for url in "${urls[@]}"; do
  until body=$(curl -fsS --max-time 5 "$url" 2>&1) && [[ $body == *'"status":"ready"'* ]]; do
    kill -0 "$pid" 2>/dev/null || fail "the demo exited while waiting for $url"
    [ $((SECONDS - started)) -lt "$READY_TIMEOUT" ] || fail "$url not ready within ${READY_TIMEOUT}s: $body"
    sleep 0.5
  done
done
ready_after=$((SECONDS - started))
log "ready after ${ready_after}s: ${#urls[@]} daemons ($modes) answer /health with 200 ready"

code=0
if [ -n "$beside" ]; then
  log "running '$*' beside the demo"
  set +e; "$@"; code=$?; set -e
  log "'$*' exited with code $code"
  kill -0 "$pid" 2>/dev/null || fail "the demo died while '$*' ran"
fi

# 3. SIGTERM: every daemon stops gracefully, exit code 0.
kill -TERM "$pid"
stopping=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
  [ $((SECONDS - stopping)) -lt "$STOP_TIMEOUT" ] || fail "still running ${STOP_TIMEOUT}s after SIGTERM"
  sleep 0.2
done
set +e; wait "$pid"; exit_code=$?; set -e
pid=
[ "$exit_code" -eq 0 ] || fail "exit code $exit_code after SIGTERM (expected 0)"
grep -q '^flipper: stopped cleanly$' "$out" || fail "no 'flipper: stopped cleanly' line after SIGTERM"
sed 's/^/  /' <(grep '^flipper: ' "$out") >&2
log "ok: stopped cleanly on SIGTERM in $((SECONDS - stopping))s (exit 0); ${ready_after}s to ready, $((SECONDS - started))s in all"
exit "$code"
