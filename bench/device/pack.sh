#!/bin/bash
# Packs the map bench and the application bench for a GPU machine that has no Node, Chromium or
# network (this workplace's device tool: each call carries at most 64 MiB, and a warm machine keeps
# /tmp between calls). Makes .gpu1/ .gpu2/ .gpu3/ (git-ignored through .git/info/exclude): three
# parts of one archive (Debian's Chromium and its libraries, Node, Playwright, the built bench
# pages, the map bench driver; for the application bench the built dashboard and the server's and
# the bench's runtime packages, tsx among them, so both run from the repository's own sources),
# the GL loader packages, and bench/device/run.sh. Then, within 30 s of each other:
#   run(carry .gpu1): mkdir -p /tmp/stage && cp .gpu1/part.aa /tmp/stage/
#   run(carry .gpu2): cp .gpu2/part.ab /tmp/stage/
#   run(carry .gpu3): bash .gpu3/run.sh map          (BENCH_* variables as in bench/map.ts)
#   run(carry .gpu3): bash .gpu3/run.sh app --sizes 2000,100000 --window 30 --no-fair
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
grep -qx '/.gpu[123]/' .git/info/exclude 2>/dev/null || printf '/.gpu1/\n/.gpu2/\n/.gpu3/\n' >> .git/info/exclude
rm -rf .gpu1 .gpu2 .gpu3 && mkdir -p .gpu1 .gpu2 .gpu3/gl "$work/blob" "$work/stage/lib" "$work/stage/chr/locales" "$work/stage/fonts"
npx vite build --config bench/vite.map-page.config.ts --logLevel error
BENCH_MINIFY=0 npx vite build --config bench/vite.map-page.config.ts --logLevel error
npx vite build --logLevel error
npx esbuild bench/device/entry.ts --bundle --platform=node --format=esm --target=node20 --external:@playwright/test --external:vite --outfile="$work/blob/driver.mjs" --log-level=warning
tar -C .tmp -cJf "$work/blob/page.tar.xz" map-page map-page-plain
tar -C node_modules -cJf "$work/blob/pw.tar.xz" @playwright/test playwright playwright-core
# The application bench runs the server and itself from source through tsx: the packages they load
# are those an esbuild bundle of both takes in (vite is loaded only by the map bench's page server),
# plus what is loaded by path at run time (PGlite's engine, argon2's prebuilt addon, tsx itself).
npx esbuild server/main.ts bench/app-main.ts --bundle --platform=node --format=esm --target=node20 --external:vite --outdir="$work/esb" --metafile="$work/meta.json" --log-level=error
node -e '
  const inputs = Object.keys(require(process.argv[1]).inputs);
  const names = new Set(["tsx", "esbuild", "@esbuild/linux-x64", "@electric-sql/pglite", "argon2", "@phc/format", "node-gyp-build"]);
  for (const file of inputs) { const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file); if (m) names.add(m[1]); }
  for (const name of ["@playwright/test", "playwright", "playwright-core"]) names.delete(name);
  console.log([...names].sort().join("\n"));
' "$work/meta.json" > "$work/packages"
tar -C node_modules --exclude='*.map' --exclude='argon2/prebuilds/[!l]*' --exclude='argon2/prebuilds/linux-arm*' -cJf "$work/blob/app-modules.tar.xz" -T "$work/packages"
tar -cJf "$work/blob/dist.tar.xz" dist
# The two large binaries take minutes to compress on two cores: kept in .tmp/device while they are current.
mkdir -p .tmp/device
pack_binary() {
  [ .tmp/device/$2 -nt "$1" ] || xz -T0 -6 -c "$1" > .tmp/device/$2
  cp .tmp/device/$2 "$work/blob/$2"
}
pack_binary /usr/lib/chromium/chromium chromium.xz
pack_binary "$(readlink -f "$(command -v node)")" node.xz
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
