#!/usr/bin/env bash
# The browser tests use Debian's Chromium; nothing downloads a browser of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Installing Debian's chromium for the browser tests..."
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null
/usr/bin/chromium --version
