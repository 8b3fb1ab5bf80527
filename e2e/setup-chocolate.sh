#!/bin/sh
# Installs what the Chocolate Doom interop tests (e2e/chocolate_test.go)
# need, when it is missing: Debian's chocolate-doom (chocolate-doom and
# chocolate-server, in /usr/games), freedoom (freedoom2.wad), tcpdump, and
# xvfb (xvfb-run: a display for chocolate-doom -timedemo).
# Debian puts games in /usr/games, which root's PATH often lacks, so the
# binaries are looked for there too. Needs root (or sudo) to install.
set -eu
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ] || [ -x "/usr/sbin/$1" ]; }
missing=""
have chocolate-doom || missing="$missing chocolate-doom"
have chocolate-server || missing="$missing chocolate-server"
[ -f /usr/share/games/doom/freedoom2.wad ] || missing="$missing freedoom2.wad"
have tcpdump || missing="$missing tcpdump"
have xvfb-run || missing="$missing xvfb-run"
if [ -z "$missing" ]; then
  exit 0
fi
echo "e2e/setup-chocolate.sh: missing$missing; installing chocolate-doom freedoom tcpdump xvfb"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chocolate-doom freedoom tcpdump xvfb >/dev/null
