#!/bin/bash
# Packs the map bench for a GPU machine that has no Node, Chromium or network (this workplace's
# device tool: each call carries at most 64 MiB, and a warm machine keeps /tmp between calls).
# Makes .gpu1/ .gpu2/ .gpu3/ (git-ignored through .git/info/exclude): three parts of one archive
# (Debian's Chromium and its libraries, Node, Playwright, the built bench pages, the bench
# driver), the GL loader packages, and bench/device/run.sh. Then, within 30 s of each other:
#   run(carry .gpu1): mkdir -p /tmp/stage && cp .gpu1/part.aa /tmp/stage/
#   run(carry .gpu2): cp .gpu2/part.ab /tmp/stage/
#   run(carry .gpu3): bash .gpu3/run.sh          (BENCH_* variables as in bench/map.ts)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
grep -qx '/.gpu[123]/' .git/info/exclude 2>/dev/null || printf '/.gpu1/\n/.gpu2/\n/.gpu3/\n' >> .git/info/exclude
rm -rf .gpu1 .gpu2 .gpu3 && mkdir -p .gpu1 .gpu2 .gpu3/gl "$work/blob" "$work/stage/lib" "$work/stage/chr/locales" "$work/stage/fonts"
npx vite build --config bench/vite.map-page.config.ts --logLevel error
BENCH_MINIFY=0 npx vite build --config bench/vite.map-page.config.ts --logLevel error
npx esbuild bench/device/entry.ts --bundle --platform=node --format=esm --target=node20 --external:@playwright/test --external:vite --outfile="$work/blob/driver.mjs" --log-level=warning
tar -C .tmp -cJf "$work/blob/page.tar.xz" map-page map-page-plain
tar -C node_modules -cJf "$work/blob/pw.tar.xz" @playwright/test playwright playwright-core
xz -T0 -6 -c /usr/lib/chromium/chromium > "$work/blob/chromium.xz"
xz -T0 -6 -c "$(readlink -f "$(command -v node)")" > "$work/blob/node.xz"
cp -L $(ldd /usr/lib/chromium/chromium | awk '{print $3}' | grep -v '^$') "$work/stage/lib/" 2>/dev/null || true
for f in $(dpkg -L libnss3 | grep '\.so'); do [ -f "$f" ] && cp -L "$f" "$work/stage/lib/"; done
rm -f "$work"/stage/lib/{libc.so.6,libm.so.6,libdl.so.2,libpthread.so.0,librt.so.1,ld-linux-x86-64.so.2}
(cd /usr/lib/chromium && cp chrome_100_percent.pak chrome_200_percent.pak icudtl.dat libEGL.so libGLESv2.so libvulkan.so.1 libvk_swiftshader.so vk_swiftshader_icd.json resources.pak snapshot_blob.bin v8_context_snapshot.bin chrome_crashpad_handler "$work/stage/chr/" && cp locales/en-US.pak "$work/stage/chr/locales/")
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$work/stage/fonts/"
printf '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>/tmp/chr-fonts</dir><cachedir>/tmp/fc-cache</cachedir></fontconfig>\n' > "$work/stage/fonts.conf"
tar -C "$work/stage" -cJf "$work/blob/stage.tar.xz" .
tar -C "$work/blob" -cf "$work/all.tar" .
(cd "$work" && split -n 3 all.tar part.)
mv "$work/part.aa" .gpu1/ && mv "$work/part.ab" .gpu2/ && mv "$work/part.ac" .gpu3/
(cd .gpu3/gl && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1)
cp bench/device/run.sh .gpu3/run.sh
md5sum "$work/all.tar"
rm -rf "$work"
du -sh .gpu1 .gpu2 .gpu3
