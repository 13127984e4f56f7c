#!/bin/sh
# Install Tablekeeper as a service on a Raspberry Pi (run as root):
#   sudo systemd/install.sh [--web] [TABLE_PROFILE]
# Creates the tablekeeper user (groups gpio, spi, i2c, dialout), a virtual
# environment in /opt/tablekeeper/venv with the [pi] extra, the table profile
# in /etc/tablekeeper/table.toml (default: hardware/tables/reference.toml),
# the reader hub's udev rule, and enables the unit. Run it again to upgrade;
# the journal is kept.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
# --web (first argument): also install the spectator page, systemd/install-web.sh
WEB=no
if [ "${1:-}" = "--web" ]; then
    WEB=yes
    shift
fi
PREFIX=/opt/tablekeeper
PROFILE=${1:-$SRC/hardware/tables/reference.toml}
UNIT=/etc/systemd/system/tablekeeper.service
UDEV_RULE=hardware/udev/99-tablekeeper-hub.rules

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 2
fi
if [ ! -f "$PROFILE" ]; then
    echo "install.sh: no table profile at $PROFILE" >&2
    exit 2
fi

for group in gpio spi i2c dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id tablekeeper >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/tablekeeper --no-create-home \
        --shell /usr/sbin/nologin --user-group tablekeeper
fi
usermod --append --groups gpio,spi,i2c,dialout tablekeeper

mkdir -p "$PREFIX"
python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/venv/bin/pip" install --quiet "$SRC[pi]"
cp "$SRC/README.md" "$PREFIX/README.md" 2>/dev/null || true

install -d -m 0755 /etc/tablekeeper
install -m 0644 "$PROFILE" /etc/tablekeeper/table.toml
# Refuse a wrong profile now rather than at boot.
"$PREFIX/venv/bin/python" -c "import sys; from pi_app import profile; profile.load(sys.argv[1])" \
    /etc/tablekeeper/table.toml

# The hub's port in group dialout (and left alone by ModemManager) before the
# service first opens it; a hub already plugged in is told at once.
install -m 0644 "$SRC/$UDEV_RULE" /etc/udev/rules.d/
if command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload-rules && udevadm trigger --subsystem-match=tty
fi

install -m 0644 "$SRC/systemd/tablekeeper.service" "$UNIT"
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify "$UNIT"
fi
systemctl daemon-reload
systemctl enable --now tablekeeper.service
echo "tablekeeper installed: systemctl status tablekeeper; journalctl -u tablekeeper"
if [ "$WEB" = yes ]; then
    sh "$SRC/systemd/install-web.sh"
fi
