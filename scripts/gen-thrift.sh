#!/usr/bin/env bash
# Regenerates the Java code of Flipper's Thrift interface (queue-client/src/main/thrift/pinlater.thrift)
# into queue-client/src/main/java/dev/flipper/queue/thrift, which is committed.
# Usage: scripts/gen-thrift.sh [OUTPUT_JAVA_ROOT]   (default: queue-client/src/main/java)
# Needs the Thrift compiler 0.17 (Debian package thrift-compiler; scripts/ensure-services.sh installs it).
# QueueClient's GeneratedCodeIsFreshTest fails when the committed code differs from a fresh generation.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
idl="$root/queue-client/src/main/thrift/pinlater.thrift"
out=${1:-"$root/queue-client/src/main/java"}
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

mkdir -p "$out"
rm -rf "$out/dev/flipper/queue/thrift"
# generated_annotations=suppress: no javax.annotation.Generated, which Java 17 does not ship.
thrift --gen java:generated_annotations=suppress -out "$out" "$idl"
echo "gen-thrift: generated $(find "$out/dev/flipper/queue/thrift" -name '*.java' | wc -l) files into $out/dev/flipper/queue/thrift" >&2

# The token master protocol (workflow-master/src/main/thrift/master.thrift) into
# workflow-master/src/main/java/dev/flipper/workflow/master/thrift, or under OUTPUT_JAVA_ROOT when one is given.
# workflow-master's MasterGeneratedCodeIsFreshTest checks the committed copy.
master_out=${1:-"$root/workflow-master/src/main/java"}
mkdir -p "$master_out"
rm -rf "$master_out/dev/flipper/workflow/master/thrift"
thrift --gen java:generated_annotations=suppress -out "$master_out" "$root/workflow-master/src/main/thrift/master.thrift"
echo "gen-thrift: generated $(find "$master_out/dev/flipper/workflow/master/thrift" -name '*.java' | wc -l) files into $master_out/dev/flipper/workflow/master/thrift" >&2
