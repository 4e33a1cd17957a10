#!/bin/sh
# Frame times on the built-in map and the shared maps over one scripted walk, in one run,
# and each map's ratio to the built-in map (issue: draw what is seen). Needs a display
# (run under Xvfb: `xvfb-run -s "-screen 0 1280x720x24" benches/frames.sh`) and the
# release binary (`cargo build --release`).
#   benches/frames.sh [FRAMES] [SHARED_MAPS_DIR]
# BENCH_ARGS adds options to every run (BENCH_ARGS=--no-cull: everything drawn);
# BENCH_SIZE sets the window (160x90: the geometry alone, hardly any pixels).
set -eu
frames=${1:-150}
maps=${2:-../shared/maps}
bin=${WALKTHROUGH_BIN:-target/release/walkthrough}
walk=$(dirname "$0")/frames-walk.txt
# The default settings, and no correction remembered by the user: every run the same.
WALKTHROUGH_CONFIG_DIR=$(mktemp -d)
export WALKTHROUGH_CONFIG_DIR
trap 'rm -rf "$WALKTHROUGH_CONFIG_DIR"' EXIT
run() {
    "$bin" "$@" ${BENCH_ARGS:-} --script "$walk" --bench-frames "$frames" --no-vsync --size "${BENCH_SIZE:-1280x720}" 2>/dev/null |
        grep '^frames'
}
median() { echo "$1" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'; }
p95() { echo "$1" | sed -n 's/.*p95 \([0-9.]*\) ms.*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
base=$(run)
echo "built-in: $base"
for m in conference lost_empire; do
    f="$maps/$m/$m.obj"
    [ -f "$f" ] || { echo "$m: not found at $f"; continue; }
    line=$(run "$f")
    # The median to the built-in map's median; the 95th percentile to its 95th percentile.
    echo "$m: $line  ($(ratio "$(median "$line")" "$(median "$base")")x built-in, p95 $(ratio "$(p95 "$line")" "$(p95 "$base")")x)"
done
