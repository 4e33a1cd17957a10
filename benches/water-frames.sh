#!/bin/sh
# Frame times with water in view and without, in one run (issue 39): the example pool
# (assets/water-scene) seen from its near edge (the surface rippled and reflecting),
# turned away from it, and from under the water (flying, so that the view holds still),
# each beside the same view of its model without the water. Needs a display (run under Xvfb:
# `xvfb-run -s "-screen 0 1280x720x24" benches/water-frames.sh`) and the release binary.
#   benches/water-frames.sh [FRAMES]
# RUNS=N repeats the set N times (default 3), alternating the views, and ends with each
# view's median over the runs (a shared machine's frame times swing from run to run).
set -eu
frames=${1:-150}
bin=${WALKTHROUGH_BIN:-target/release/walkthrough}
runs=${RUNS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
wet=$here/assets/water-scene/scene.toml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
WALKTHROUGH_CONFIG_DIR=$tmp/config
WALKTHROUGH_CACHE_DIR=$tmp/cache
export WALKTHROUGH_CONFIG_DIR WALKTHROUGH_CACHE_DIR
# The pool's model alone: the same views, dry.
dry=$tmp/dry.toml
printf '[[model]]\nfile = "%s"\n' "$here/assets/water-scene/pool.obj" >"$dry"
edge="--spawn 0,1.6,1.5 --pitch -22"
views="facing:$wet:--yaw+0 facing-dry:$dry:--yaw+0 away:$wet:--yaw+180 away-dry:$dry:--yaw+180 under:$wet:--mode+fly+--spawn+0.5,-2.4,-5+--yaw+8+--pitch+10 under-dry:$dry:--mode+fly+--spawn+0.5,-2.4,-5+--yaw+8+--pitch+10"
for r in $(seq "$runs"); do
    for v in $views; do
        name=${v%%:*}
        rest=${v#*:}
        scene=${rest%%:*}
        args=$(echo "${rest#*:}" | tr "+" " ")
        case $name in under*) pos="" ;; *) pos=$edge ;; esac
        # shellcheck disable=SC2086
        line=$("$bin" "$scene" $pos $args --bench-frames "$frames" --no-vsync --size 1280x720 2>/dev/null | grep '^frames')
        echo "run $r $name: $line"
        echo "$name $(echo "$line" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')" >>"$tmp/medians"
    done
done
echo "medians over $runs runs:"
for v in $views; do
    name=${v%%:*}
    m=$(awk -v n="$name" '$1 == n { print $2 }' "$tmp/medians" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    echo "  $name: $m ms"
done
