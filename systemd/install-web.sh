#!/bin/sh
# Install Tablekeeper's spectator page (run as root, after install.sh):
#   sudo systemd/install-web.sh
# Called by `install.sh --web`. Installs the read-only web unit, keeps an
# existing /etc/tablekeeper/web.env (where the owner sets the address, port
# and language), enables the unit and says the page's address.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
UNIT=/etc/systemd/system/tablekeeper-web.service
ENV_FILE=/etc/tablekeeper/web.env

if [ "$(id -u)" -ne 0 ]; then
    echo "install-web.sh: run as root (sudo $0)" >&2
    exit 2
fi
if [ ! -x /opt/tablekeeper/venv/bin/tablekeeper ]; then
    echo "install-web.sh: Tablekeeper is not installed yet; run systemd/install.sh --web" >&2
    exit 2
fi

install -d -m 0755 /etc/tablekeeper
if [ ! -f "$ENV_FILE" ]; then
    cat > "$ENV_FILE" <<'ENV'
# The spectator page (tablekeeper-web.service): where it listens, its language.
# 0.0.0.0: every network of the box (the table's LAN); 127.0.0.1: this box only.
TABLEKEEPER_WEB_HOST=0.0.0.0
TABLEKEEPER_WEB_PORT=8080
TABLEKEEPER_WEB_LANG=en
# Requests naming another host than the box's name, NAME.local or the address
# they came in on are refused (DNS rebinding); list other names here:
# TABLEKEEPER_WEB_NAMES=tablekeeper.home.arpa
ENV
    chmod 0644 "$ENV_FILE"
fi

install -m 0644 "$SRC/systemd/tablekeeper-web.service" "$UNIT"
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify "$UNIT"
fi
systemctl daemon-reload
systemctl enable --now tablekeeper-web.service
PORT=$(sed -n 's/^TABLEKEEPER_WEB_PORT=//p' "$ENV_FILE" | tail -n 1)
echo "spectator page installed: http://$(hostname).local:${PORT:-8080}/ (systemctl status tablekeeper-web)"
