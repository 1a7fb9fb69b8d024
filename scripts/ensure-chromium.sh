#!/usr/bin/env bash
# Finds a Chromium for the browser tests (npm run test:ui), or installs Debian's `chromium`
# package. Never downloads a browser build of its own: playwright-core drives this binary.
# Order: $CHROMIUM_PATH, /usr/bin/chromium, `chromium` on PATH, then `apt-get install chromium`
# (with sudo when not root; `apt-get update` only if the install fails without it).
# Prints where the browser came from and how long that took; idempotent.
set -euo pipefail

start=$(date +%s.%N)
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f s", e - s }'; }
found() { echo "ensure-chromium: $2 $1 ($("$1" --version 2>/dev/null || echo 'version unknown')) in $(elapsed)"; exit 0; }

if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  [[ -x "$CHROMIUM_PATH" ]] && found "$CHROMIUM_PATH" "using CHROMIUM_PATH"
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file; set it to a Chromium binary or unset it." >&2
  exit 1
fi
[[ -x /usr/bin/chromium ]] && found /usr/bin/chromium "found"
if command -v chromium >/dev/null 2>&1; then found "$(command -v chromium)" "found on PATH"; fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no Chromium found and no apt-get to install it: install Chromium (Debian/Ubuntu package 'chromium') or set CHROMIUM_PATH to a Chromium binary." >&2
  exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
    echo "ensure-chromium: no Chromium found and not root without sudo: run 'apt-get install chromium' as root or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
fi
install() { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; }
echo "ensure-chromium: installing Debian's chromium package with apt-get..."
route="installed with apt-get"
if ! install >/tmp/ensure-chromium-apt.log 2>&1; then
  echo "ensure-chromium: the install failed with the current package lists; running apt-get update and trying again..."
  route="installed with apt-get (after apt-get update)"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >>/tmp/ensure-chromium-apt.log 2>&1 || true
  if ! install >>/tmp/ensure-chromium-apt.log 2>&1; then
    tail -20 /tmp/ensure-chromium-apt.log >&2
    echo "ensure-chromium: could not install Debian's chromium package (log: /tmp/ensure-chromium-apt.log): install Chromium ('apt-get install chromium') or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
fi
[[ -x /usr/bin/chromium ]] && found /usr/bin/chromium "$route:"
if command -v chromium >/dev/null 2>&1; then found "$(command -v chromium)" "$route:"; fi
echo "ensure-chromium: apt-get installed chromium but no chromium binary is on PATH: set CHROMIUM_PATH to the Chromium binary." >&2
exit 1
