#!/usr/bin/env bash
# Installs the system packages the test suite drives, when they are missing:
# Debian's PostgreSQL server (store tests on PostgreSQL), Chromium (browser tests), HAProxy
# and nginx (the cluster test), the DejaVu fonts (printed slips) and LibreOffice Calc without its GUI
# (a workbook saved again by a spreadsheet application, a roster written by one).
# Needs root (as in CI); elsewhere it says what to install and the tests that need it say so.
set -euo pipefail

need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# HAProxy in front of several app processes (make serve-cluster and its test).
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
# nginx behind it, the data feed's cache (make serve-cluster and its test).
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
# The printed table slips embed DejaVu Sans so every player's name prints as written.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# Workbooks and rosters as LibreOffice saves them (headless: soffice --convert-to).
command -v soffice >/dev/null 2>&1 || need+=(libreoffice-calc-nogui)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "STSA tests: missing system packages: ${need[*]} (install them with apt-get as root)." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
