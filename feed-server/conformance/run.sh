#!/usr/bin/env bash
# Runs the Durable Streams conformance suite (npm @durable-streams/server-conformance-tests, the
# version package-lock.json pins) against the server jar of the build, started here on a fresh
# database, and prints the score. Fails when a test fails that known-failures.txt does not list, so
# the build fails on any regression; a listed test that passes is reported, to take off the list.
# Needs Node 20+ and npm; installs the suite with `npm ci` on first use.
# Usage: feed-server/conformance/run.sh [path/to/feed-server.jar]
# With CONFORMANCE_POSTGRES=jdbc:postgresql://... the server serves from that PostgreSQL database
# (an empty one) instead of a fresh SQLite file.
set -euo pipefail
cd "$(dirname "$0")"
jar="$(cd .. && pwd)/target/feed-server.jar"
jar="${1:-$jar}"
[ -f "$jar" ] || { echo "no server jar at $jar: build it first (./mvnw -q -DskipTests package -pl feed-server -am)" >&2; exit 2; }
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$major" -ge 20 ] || { echo "the conformance suite (vitest 4) needs Node 20 or newer; node is $(node --version 2>/dev/null || echo missing)" >&2; exit 2; }
# The lock file lists every platform's optional packages, so that npm 10 and 11 both take it with
# `npm ci`; an npm that still refuses it installs the same pinned versions with `npm install`.
if ! [ -d node_modules/@durable-streams/server-conformance-tests ]; then
  npm ci --no-audit --no-fund || npm install --no-audit --no-fund
fi
rm -rf target && mkdir -p target/db
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
store=(--db target/db/feeds.db)
[ -n "${CONFORMANCE_POSTGRES:-}" ] && store=(--postgres "$CONFORMANCE_POSTGRES")
java -jar "$jar" "${store[@]}" --port 0 --http-port "$port" --streams-long-poll-ms 3000 \
  --http-cors-origin '*' > target/server.log 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  grep -q "HTTP API on" target/server.log && break
  kill -0 "$server" 2>/dev/null || { cat target/server.log >&2; exit 1; }
  sleep 0.1
done
CONFORMANCE_TEST_URL="http://127.0.0.1:$port" npx vitest run > target/vitest.log 2>&1 || true
node score.mjs target/results.json known-failures.txt
