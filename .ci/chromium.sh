#!/usr/bin/env bash
# A headless Chromium for the chart test (test/cli/bench-svg.test.ts): Debian's
# package, installed when absent. Prints its path on stdout; when it can be
# neither found nor installed, exits 1 with the reason on stderr (the test then
# skips, saying why).
set -u
find_it() { command -v chromium || command -v chromium-browser || true; }
path=$(find_it)
if [ -z "$path" ]; then
  if ! command -v apt-get >/dev/null; then echo "no chromium, and no apt-get to install it" >&2; exit 1; fi
  if [ "$(id -u)" = 0 ]; then apt=(apt-get)
  elif sudo -n true 2>/dev/null; then apt=(sudo -n apt-get)
  else echo "no chromium, and neither root nor passwordless sudo to install it" >&2; exit 1; fi
  install() { DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends chromium >&2; }
  install || { "${apt[@]}" update >&2 && install; } || { echo "apt-get install chromium failed" >&2; exit 1; }
  path=$(find_it)
fi
if [ -z "$path" ]; then echo "chromium is not on PATH after its install" >&2; exit 1; fi
echo "$path"
