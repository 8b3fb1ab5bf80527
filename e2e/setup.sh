#!/bin/sh
# Installs what the end-to-end tests need, when it is missing: Debian's
# chromium (browser tests), firefox-esr and webkit2gtk-driver (WebKitGTK's
# WebKitWebDriver and MiniBrowser) with xvfb for MiniBrowser's display
# (the tests in other engines, e2e/engines_test.go; Debian has no
# geckodriver, so the pages report to the test over HTTP instead of being
# driven by WebDriver), brotli (browser benchmarks), the real
# Chocolate Doom, freedoom and tcpdump (interop tests, e2e/setup-chocolate.sh),
# and npm's @webxdc/webxdc-dev, typescript (make types) and esbuild (the
# npm package's bundler test) into a project-local folder ($1).
set -eu
npmdir=${1:-.npm-local}
here=$(dirname "$0")
need=""
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v brotli >/dev/null 2>&1 || need="$need brotli"
command -v firefox-esr >/dev/null 2>&1 || need="$need firefox-esr"
command -v WebKitWebDriver >/dev/null 2>&1 || need="$need webkit2gtk-driver"
command -v Xvfb >/dev/null 2>&1 || need="$need xvfb"
if [ -n "$need" ]; then
  echo "e2e/setup.sh: installing$need"
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >/dev/null
fi
sh "$here/setup-chocolate.sh"
if [ ! -x "$npmdir/node_modules/.bin/webxdc-dev" ] || [ ! -x "$npmdir/node_modules/.bin/tsc" ] || [ ! -x "$npmdir/node_modules/.bin/esbuild" ]; then
  echo "e2e/setup.sh: installing @webxdc/webxdc-dev, typescript and esbuild into $npmdir"
  mkdir -p "$npmdir"
  npm install --prefix "$npmdir" --no-audit --no-fund --loglevel=error @webxdc/webxdc-dev@0.21.0 typescript@5.6.3 esbuild@0.28.2 >/dev/null
fi
