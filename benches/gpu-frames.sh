#!/bin/bash
# On the GPU machine, with .gpukit carried (benches/gpu-kit.sh made it): the benchmark walk
# on the built-in map and the shared maps under each culling, at two window sizes, two
# runs; then, with `tests`, the window tests. NVIDIA's GL draws into an Xvfb screen: the
# server's GLX is Mesa's (as any Xvfb), the program's is NVIDIA's through glvnd
# (__GLX_VENDOR_LIBRARY_NAME). Frames include copying each picture into Xvfb's memory.
#   benches/gpu-frames.sh [tests]
set -u
root=$(pwd)
kit=$root/.gpukit
mkdir -p /opt/x && tar xJf "$kit/x.tar.xz" -C /opt/x
# Xvfb looks for these where Debian put them.
dri=/usr/lib/x86_64-linux-gnu/dri
mkdir -p "$dri" && { [ -e "$dri/swrast_dri.so" ] || cp /opt/x/dri/swrast_dri.so "$dri/"; }
[ -e /usr/bin/xkbcomp ] || cp /opt/x/bin/xkbcomp /usr/bin/xkbcomp
[ -e /usr/share/X11/xkb ] || { mkdir -p /usr/share/X11 && cp -r /opt/x/xkb /usr/share/X11/xkb; }
# The window tests find the binary and the maps where cargo built them.
mkdir -p /work && { [ -e /work/main ] || ln -s "$root" /work/main; }
mkdir -p /work/shared && tar xzf "$kit/maps.tgz" -C /work/shared
bin=$root/target/release/walkthrough
mkdir -p "$(dirname "$bin")" && xz -dc "$kit/walkthrough.xz" >"$bin" && chmod +x "$bin"
nv=$(dirname "$(find / -name 'libGLX_nvidia.so.0' 2>/dev/null | head -1)")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PATH=/opt/x/bin:$PATH
# The server with Mesa's GLX; only the program gets NVIDIA's.
LD_LIBRARY_PATH=/opt/x/lib Xvfb :99 -screen 0 2560x1440x24 -nolisten tcp >/tmp/xvfb.log 2>&1 &
sleep 2
export LD_LIBRARY_PATH=/opt/x/lib:$nv __GLX_VENDOR_LIBRARY_NAME=nvidia
export DISPLAY=:99 WALKTHROUGH_CONFIG_DIR=$(mktemp -d) WALKTHROUGH_CACHE_DIR=$(mktemp -d)
maps=/work/shared/maps
run() {
    timeout 90 "$bin" "$@" --script benches/frames-walk.txt --no-vsync 2>&1 |
        grep -E '^frames|OpenGL|culling:|error|panicked'
}
probe=$(run --bench-frames 30 --size 1280x720)
echo "$probe"
echo "$probe" | grep -q '^frames' || { echo "no frames drawn"; tail -20 /tmp/xvfb.log; exit 1; }
echo "$probe" | grep -q llvmpipe && { echo "not on the GPU"; exit 1; }
for i in 1 2; do
    for size in 1280x720 2560x1440; do
        for map in "" "$maps/conference/conference.obj" "$maps/lost_empire/lost_empire.obj"; do
            for culling in occlusion frustum off; do
                echo "== run $i $size ${map:-built-in} $culling"
                run $map --culling $culling --msaa 0 --bench-frames 300 --size $size | grep '^frames'
            done
        done
    done
done
kill %1
if [ "${1:-}" = tests ]; then
    xz -dc "$kit/window-test.xz" >/tmp/window-test && chmod +x /tmp/window-test
    cd /work/main && timeout 330 /tmp/window-test --include-ignored --test-threads=4 2>&1 |
        grep -E '^test |test result|panicked'
fi
