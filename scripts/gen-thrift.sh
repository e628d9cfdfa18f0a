#!/usr/bin/env bash
# Regenerates the committed Java code of Flipper's two Thrift interfaces:
#   thrift-wire/src/main/thrift/pinlater.thrift  -> thrift-wire/src/main/java/dev/flipper/queue/thrift
#   thrift-wire/src/main/thrift/master.thrift    -> thrift-wire/src/main/java/dev/flipper/workflow/master/thrift
# Usage: scripts/gen-thrift.sh [OUTPUT_JAVA_ROOT]   (default: thrift-wire/src/main/java)
# Needs the Thrift compiler 0.17 (Debian package thrift-compiler; scripts/ensure-services.sh installs it).
# dist's GeneratedThriftIsFreshTest fails when the committed code differs from a fresh generation.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
expected_version=0.17.0

if ! command -v thrift >/dev/null 2>&1; then
  echo "gen-thrift: the thrift compiler is missing; run scripts/ensure-services.sh (installs thrift-compiler)" >&2
  exit 3
fi
version=$(thrift --version | awk '{print $3}')
if [ "$version" != "$expected_version" ]; then
  echo "gen-thrift: thrift $version found, $expected_version expected (the committed code comes from it)" >&2
  exit 3
fi

generate() { # module, idl file, generated package path
  local out=${OUTPUT_ROOT:-"$root/$1/src/main/java"}
  mkdir -p "$out"
  rm -rf "${out:?}/$3"
  # generated_annotations=suppress: no javax.annotation.Generated, which Java 17 does not ship.
  thrift --gen java:generated_annotations=suppress -out "$out" "$root/$1/src/main/thrift/$2"
  echo "gen-thrift: $(find "$out/$3" -name '*.java' | wc -l) files into $out/$3" >&2
}

OUTPUT_ROOT=${1:-}
generate thrift-wire pinlater.thrift dev/flipper/queue/thrift
generate thrift-wire master.thrift dev/flipper/workflow/master/thrift
