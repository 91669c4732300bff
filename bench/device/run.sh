#!/bin/bash
# The device side of bench/device/pack.sh: joins the three parts (the first two copied to
# /tmp/stage by earlier calls), unpacks Node, Chromium, Playwright and the bench pages, points
# Chromium at the NVIDIA driver through ANGLE on Vulkan, and runs the map bench once (rows and
# options from the BENCH_* variables of bench/map.ts; results and screenshots under $OUT).
set -euo pipefail
REPO=$PWD
cd /tmp/stage
cp "$REPO/.gpu3/part.ac" .
cat part.aa part.ab part.ac > all.tar
rm -rf x && mkdir -p x && tar -C x -xf all.tar && cd x
xz -T0 -dc node.xz > /tmp/node && chmod +x /tmp/node
mkdir -p /tmp/chr && tar -C /tmp/chr -xJf stage.tar.xz
xz -T0 -dc chromium.xz > /tmp/chr/chr/chromium && chmod +x /tmp/chr/chr/chromium
mkdir -p /tmp/drv/node_modules && tar -C /tmp/drv/node_modules -xJf pw.tar.xz && cp driver.mjs /tmp/drv/ && tar -C /tmp/drv -xJf page.tar.xz
mkdir -p /tmp/chr-fonts /tmp/fc-cache && cp /tmp/chr/fonts/* /tmp/chr-fonts/
for f in "$REPO"/.gpu3/gl/*.deb; do dpkg -x "$f" /; done
ldconfig
nvidia-smi -L || true
export FONTCONFIG_FILE=/tmp/chr/fonts.conf LD_LIBRARY_PATH=/tmp/chr/lib:/tmp/chr/chr:${LD_LIBRARY_PATH:-}
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export CHROMIUM_PATH=/tmp/chr/chr/chromium MAP_PAGE_DIR=${MAP_PAGE_DIR:-/tmp/drv/map-page} BENCH_GPU=1 BENCH_RESULTS_DIR=${BENCH_RESULTS_DIR:-$OUT}
cd /tmp/drv
/tmp/node driver.mjs
