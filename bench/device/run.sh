#!/bin/bash
# The device side of bench/device/pack.sh: joins the parts (the first two copied to /tmp/stage by
# earlier calls), unpacks Node, Chromium, Playwright and the bench pages once per machine, points
# Chromium at the NVIDIA driver through ANGLE on Vulkan, and runs one bench:
#   bash .gpu3/run.sh map                 the map bench (rows and options from the BENCH_* variables of bench/map.ts)
#   bash .gpu3/run.sh app [options]       the application bench from the repository's sources (options as npm run bench:app)
# Results, the log and the screenshots (one archive) go under $OUT.
set -euo pipefail
REPO=$PWD
mode=${1:-map}
shift || true
if [ ! -f /tmp/stage/unpacked ]; then
  cd /tmp/stage
  cp "$REPO/.gpu3/part.ac" .
  cat part.aa part.ab part.ac > all.tar
  rm -rf x && mkdir -p x && tar -C x -xf all.tar && rm all.tar part.a? && cd x
  xz -T0 -dc node.xz > /tmp/node && chmod +x /tmp/node
  mkdir -p /tmp/node-bin && ln -sf /tmp/node /tmp/node-bin/node
  mkdir -p /tmp/chr && tar -C /tmp/chr -xJf stage.tar.xz
  xz -T0 -dc chromium.xz > /tmp/chr/chr/chromium && chmod +x /tmp/chr/chr/chromium
  mkdir -p /tmp/drv/node_modules && tar -C /tmp/drv/node_modules -xJf pw.tar.xz && cp driver.mjs /tmp/drv/ && tar -C /tmp/drv -xJf page.tar.xz
  mkdir -p /tmp/chr-fonts /tmp/fc-cache && cp /tmp/chr/fonts/* /tmp/chr-fonts/
  for f in "$REPO"/.gpu3/gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  touch /tmp/stage/unpacked
fi
nvidia-smi -L || true
export FONTCONFIG_FILE=/tmp/chr/fonts.conf LD_LIBRARY_PATH=/tmp/chr/lib:/tmp/chr/chr:${LD_LIBRARY_PATH:-}
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export CHROMIUM_PATH=/tmp/chr/chr/chromium BENCH_GPU=${BENCH_GPU:-1} PATH=/tmp/node-bin:$PATH
case "$mode" in
  map)
    export MAP_PAGE_DIR=${MAP_PAGE_DIR:-/tmp/drv/map-page} BENCH_RESULTS_DIR=${BENCH_RESULTS_DIR:-$OUT}
    cd /tmp/drv
    /tmp/node driver.mjs
    ;;
  app)
    # The repository's own sources, with the built dashboard and the runtime packages beside them.
    cd "$REPO"
    mkdir -p node_modules
    tar -C node_modules -xJf /tmp/stage/x/app-modules.tar.xz
    tar -C node_modules -xJf /tmp/stage/x/pw.tar.xz
    tar -xJf /tmp/stage/x/dist.tar.xz
    mkdir -p /tmp/app-shots
    status=0
    /tmp/node --import tsx bench/app-main.ts --out "$OUT/app-gpu.json" --screenshots /tmp/app-shots "$@" 2>&1 | tee "$OUT/app-gpu.log" || status=$?
    tar -C /tmp -czf "$OUT/app-shots.tar.gz" app-shots
    exit "$status"
    ;;
  *)
    echo "run.sh: map or app, not '$mode'" >&2
    exit 2
    ;;
esac
