#!/bin/sh
# Frame times on the built-in map and the shared maps over one scripted walk, in one run,
# and each map's ratio to the built-in map (issue: draw what is seen). Needs a display
# (run under Xvfb: `xvfb-run -s "-screen 0 1280x720x24" benches/frames.sh`) and the
# release binary (`cargo build --release`).
#   benches/frames.sh [FRAMES] [SHARED_MAPS_DIR]
# BENCH_ARGS adds options to every run (BENCH_ARGS=--no-cull: everything drawn);
# BENCH_SIZE sets the window (160x90: the geometry alone, hardly any pixels).
# RUNS=N repeats the whole set N times and ends with each map's median ratio over the
# runs (a shared machine's frame times swing by a fifth from run to run; a ratio taken
# within one run swings less). COMPARE_BIN=path runs that binary too, alternating with
# WALKTHROUGH_BIN in every run, and sums it up the same way: an A/B comparison.
# CACHE=warm opens each map once, untimed, before its timed run, so that its levels of
# detail are read from the cache folder as on any later open; by default (CACHE=cold)
# every run has an empty cache folder, as a map's first open.
set -eu
frames=${1:-150}
maps=${2:-../shared/maps}
bin=${WALKTHROUGH_BIN:-target/release/walkthrough}
runs=${RUNS:-1}
walk=$(dirname "$0")/frames-walk.txt
# The default settings, and no correction remembered by the user: every run the same.
WALKTHROUGH_CONFIG_DIR=$(mktemp -d)
export WALKTHROUGH_CONFIG_DIR
ratios=$(mktemp)
caches=$(mktemp -d)
trap 'rm -rf "$WALKTHROUGH_CONFIG_DIR" "$ratios" "$caches"' EXIT
run() {
    b=$1
    shift
    WALKTHROUGH_CACHE_DIR=$(mktemp -d -p "$caches")
    export WALKTHROUGH_CACHE_DIR
    if [ "${CACHE:-cold}" = warm ]; then
        # Long enough for the levels to be made and kept.
        "$b" "$@" --script "$walk" --bench-frames 150 --no-vsync --size 640x360 >/dev/null 2>&1
    fi
    "$b" "$@" ${BENCH_ARGS:-} --script "$walk" --bench-frames "$frames" --no-vsync --size "${BENCH_SIZE:-1280x720}" 2>/dev/null |
        grep '^frames'
}
median() { echo "$1" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'; }
p95() { echo "$1" | sed -n 's/.*p95 \([0-9.]*\) ms.*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# One set: the built-in map, then each shared map with its ratios; each ratio is kept
# as "binary map median-ratio p95-ratio" for the summary.
set_of() {
    b=$1
    base=$(run "$b")
    echo "built-in: $base"
    for m in conference lost_empire; do
        f="$maps/$m/$m.obj"
        [ -f "$f" ] || { echo "$m: not found at $f"; continue; }
        line=$(run "$b" "$f")
        # The median to the built-in map's median; the 95th percentile to its 95th
        # percentile.
        r=$(ratio "$(median "$line")" "$(median "$base")")
        p=$(ratio "$(p95 "$line")" "$(p95 "$base")")
        echo "$m: $line  (${r}x built-in, p95 ${p}x)"
        echo "$b $m $r $p" >>"$ratios"
    done
}
i=1
while [ "$i" -le "$runs" ]; do
    [ "$runs" -gt 1 ] && echo "== run $i of $runs: $bin"
    set_of "$bin"
    if [ -n "${COMPARE_BIN:-}" ]; then
        echo "== run $i of $runs: $COMPARE_BIN"
        set_of "$COMPARE_BIN"
    fi
    i=$((i + 1))
done
if [ "$runs" -gt 1 ] || [ -n "${COMPARE_BIN:-}" ]; then
    echo "== median over $runs runs of each run's ratio to the built-in map (median, p95):"
    for b in "$bin" ${COMPARE_BIN:-}; do
        for m in conference lost_empire; do
            grep -F "$b $m " "$ratios" | awk -v b="$b" -v m="$m" '
                { r[NR] = $3; p[NR] = $4 }
                function med(a, n,   i, j, t) {
                    for (i = 1; i <= n; i++)
                        for (j = i + 1; j <= n; j++)
                            if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
                }
                END { if (NR) printf "%s %s: %.2fx, p95 %.2fx (%d runs)\n", b, m, med(r, NR), med(p, NR), NR }'
        done
    done
fi
