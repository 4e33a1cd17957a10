#!/bin/sh
# Packs what the GPU frame benchmark needs on a bare machine with an NVIDIA driver and no
# display (the device machine some tasks are lent): the release binary and the window
# tests, stripped; this machine's Xvfb, xkbcomp and keyboard data, the X and glvnd
# libraries, and Mesa's swrast driver with its libraries (Xvfb's own GLX needs it; the
# program's GL is NVIDIA's, through glvnd); the shared maps. Into .gpukit/ (ignored),
# about 60 MB; then run benches/gpu-frames.sh there with .gpukit carried.
#   benches/gpu-kit.sh [SHARED_MAPS_DIR]
# Needs the packages .ci/run installs (xvfb, xdotool, Mesa) and `cargo build --release`.
set -eu
maps=${1:-../shared/maps}
kit=.gpukit
# (.gitignore leaves it out of commits; the device tool carries it when asked to.)
rm -rf "$kit" && mkdir -p "$kit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
L=/usr/lib/x86_64-linux-gnu
mkdir -p "$tmp/x/bin" "$tmp/x/lib" "$tmp/x/dri"
cp /usr/bin/Xvfb /usr/bin/xkbcomp /usr/bin/xdotool "$tmp/x/bin/"
cp "$L/dri/swrast_dri.so" "$tmp/x/dri/"
cp -r /usr/share/X11/xkb "$tmp/x/xkb"
# Every library these load, but the C and C++ runtimes (the machine's own are newer).
# Mesa's GLX brings the xcb libraries for DRI3 and Present, which NVIDIA's GLX loads at
# run time to show its pictures on a server that is not NVIDIA's: without them no GLX
# config is valid.
for f in "$tmp"/x/bin/* "$tmp/x/dri/swrast_dri.so" "$L/libX11.so.6" "$L/libXcursor.so.1" \
    "$L/libXrandr.so.2" "$L/libXi.so.6" "$L/libxkbcommon-x11.so.0" "$L/libX11-xcb.so.1" \
    "$L/libGL.so.1" "$L/libEGL.so.1" "$L/libGLX.so.0" "$L/libGLdispatch.so.0" \
    "$L/libOpenGL.so.0" "$L/libGLX_mesa.so.0"; do
    ldd "$f" | awk '/=>/ { print $3 }'
    case $f in "$L"/lib*) echo "$f" ;; esac
done | sort -u | grep -vE '/(libc|libm|ld-linux-x86-64|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so' |
    while read -r lib; do cp -L "$lib" "$tmp/x/lib/"; done
tar cf - -C "$tmp/x" . | xz -T0 -9 >"$kit/x.tar.xz"
strip -o "$tmp/walkthrough" target/release/walkthrough
xz -T0 -9 -c "$tmp/walkthrough" >"$kit/walkthrough.xz"
tests=$(cargo test --release --test window --no-run 2>&1 | grep -o 'target/release/deps/window-[0-9a-f]*' | head -1)
strip -o "$tmp/window-test" "$tests"
xz -T0 -9 -c "$tmp/window-test" >"$kit/window-test.xz"
tar czf "$kit/maps.tgz" -C "$maps/.." maps/conference maps/lost_empire
du -ch "$kit"/* | tail -1
