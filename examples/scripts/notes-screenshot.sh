#!/usr/bin/env bash
# Runs the notes example twice (alice and bob) against a feed server on a virtual display (Xvfb),
# types notes into the windows, stops and restarts the server, and saves three screenshots:
#
#   notes-1-synced.png    both windows after alice and bob each wrote a note: both notes in both, "synced"
#   notes-2-offline.png   the server stopped, alice wrote a note: "offline, 1 to send", the note
#                         "not sent yet" in alice's window, absent from bob's
#   notes-3-resynced.png  the server started again: the note written offline in both windows, "synced"
#
# Usage: examples/scripts/notes-screenshot.sh [OUTPUT_DIR]   (default: examples/target/screenshots)
#
# Needs a JDK 17+, Xvfb, xdotool and ImageMagick (Debian: apt-get install xvfb xdotool imagemagick).
# Builds the jars it needs if they are missing. Not run in CI. Environment: DISPLAY_NUMBER (default
# 99) picks the virtual display; WAIT_S (default 60) bounds every wait.
set -euo pipefail
cd "$(dirname "$0")/../.."

out="${1:-examples/target/screenshots}"
display=":${DISPLAY_NUMBER:-99}"
wait_s="${WAIT_S:-60}"
for tool in java Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "notes-screenshot: needs $tool (apt-get install xvfb xdotool imagemagick)" >&2; exit 2; }
done
if [[ ! -f feed-server/target/feed-server.jar || ! -f examples/target/examples.jar ]]; then
  ./mvnw -q -DskipTests package -pl feed-server,examples -am
fi
mkdir -p "$out"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# wait_for FILE TEXT: waits until FILE has a line containing TEXT, at most $wait_s seconds.
wait_for() {
  local deadline=$((SECONDS + wait_s))
  until grep -qF -- "$2" "$1" 2>/dev/null; do
    if ((SECONDS > deadline)); then
      echo "notes-screenshot: no '$2' in $1 after ${wait_s}s:" >&2; cat "$1" >&2; exit 1
    fi
    sleep 0.2
  done
}

# start_server PORT: starts the server on PORT (0: a free one) and waits until it listens.
start_server() {
  : > "$work/server.log"
  java -jar feed-server/target/feed-server.jar --db "$work/feeds.db" --port "$1" > "$work/server.log" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  wait_for "$work/server.log" "listening on"
}

# type_note X Y TEXT: clicks the input field of the window opened at X,Y and types TEXT, Enter.
type_note() {
  DISPLAY="$display" xdotool mousemove $(($1 + 180)) $(($2 + 340)) click 1
  sleep 0.3
  DISPLAY="$display" xdotool type --delay 20 "$3"
  DISPLAY="$display" xdotool key Return
}

shot() {
  sleep 0.5 # the apps log what their windows drew; let Swing finish painting it
  DISPLAY="$display" import -window root "$out/$1"
  echo "saved $out/$1"
}

Xvfb "$display" -screen 0 1000x400x24 > "$work/xvfb.log" 2>&1 &
pids+=($!)
start_server 0
port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log")"

DISPLAY="$display" java -jar examples/target/examples.jar notes --name alice --db "$work/alice.db" \
  --server "127.0.0.1:$port" --at 20,20 --add "hello from alice" > "$work/alice.log" 2>&1 &
pids+=($!)
DISPLAY="$display" java -jar examples/target/examples.jar notes --name bob --db "$work/bob.db" \
  --server "127.0.0.1:$port" --at 520,20 > "$work/bob.log" 2>&1 &
pids+=($!)
wait_for "$work/alice.log" "alice: 1 note(s), synced"
wait_for "$work/bob.log" "bob: 1 note(s), synced"

type_note 520 20 "hi alice, bob here"
wait_for "$work/alice.log" "alice: 2 note(s), synced"
wait_for "$work/bob.log" "bob: 2 note(s), synced"
shot notes-1-synced.png

kill "$server_pid"
wait_for "$work/alice.log" "alice: 2 note(s), offline"
wait_for "$work/bob.log" "bob: 2 note(s), offline"
type_note 20 20 "written while the server is down"
wait_for "$work/alice.log" "alice: 3 note(s), offline, 1 to send"
shot notes-2-offline.png

start_server "$port"
wait_for "$work/alice.log" "alice: 3 note(s), synced"
wait_for "$work/bob.log" "bob: 3 note(s), synced"
shot notes-3-resynced.png
