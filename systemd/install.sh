#!/bin/sh
# Install Tablekeeper as a service on Raspberry Pi OS Bookworm (Lite, 64- or 32-bit), as root:
#
#   sudo systemd/install.sh [TABLE_PROFILE]      install, or upgrade from this checkout
#   sudo systemd/install.sh --web [PROFILE]      the same, and the spectator page (install-web.sh)
#   sudo systemd/install.sh --uninstall          remove the program, keep the profile and the journal
#   sudo systemd/install.sh --uninstall --purge  remove those too
#
# Installs the Debian packages it needs (the GPIO and SPI libraries come from
# the archive, never built from source), the tablekeeper user (groups gpio,
# spi, i2c, dialout), a virtual environment in /opt/tablekeeper/venv that sees
# the system's lgpio and spidev (--system-site-packages, as gpiozero's
# documentation does it), the table profile in /etc/tablekeeper/table.toml
# (checked first: a wrong one is refused with its file, line and fix), the
# reader hub's udev rule and the unit, then starts it.
#
# Run it again to upgrade: the journal (/var/lib/tablekeeper) is kept, and so
# is the installed profile unless another one is given. See hardware/INSTALL.md.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/tablekeeper
VENV=$PREFIX/venv
ETC=/etc/tablekeeper
STATE=/var/lib/tablekeeper
UNIT_NAME=tablekeeper.service
UNIT=/etc/systemd/system/$UNIT_NAME
UDEV_RULE=hardware/udev/99-tablekeeper-hub.rules
DEFAULT_PROFILE=$SRC/hardware/tables/reference.toml
# Debian packages: the first list always; the second are Raspberry Pi OS's
# own builds of the Pi libraries, which a plain Debian archive lacks (then
# lgpio's published wheel stands in: x86-64, aarch64 and armv7l). Pillow and
# cbor2 (luma's) come from Debian because PyPI has no armv7l wheel of either:
# from PyPI they would be compiled on the box, which has no compiler.
# python3-wheel, with the venv's own setuptools, builds Tablekeeper itself.
# Everything else is pure Python from PyPI (see hardware/INSTALL.md).
APT_PACKAGES="python3 python3-venv python3-wheel python3-spidev python3-pil python3-cbor2"
PI_PACKAGES="python3-lgpio"

say() { echo "install.sh: $*"; }
die() { echo "install.sh: $*" >&2; exit 2; }

usage() {
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-0}"
}

have_package() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
in_archive() { apt-cache show "$1" >/dev/null 2>&1; }

install_packages() {
    missing=""
    for pkg in $APT_PACKAGES $PI_PACKAGES; do
        have_package "$pkg" || missing="$missing $pkg"
    done
    [ -z "$missing" ] && return 0
    say "installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    wanted=""
    for pkg in $missing; do
        if in_archive "$pkg"; then
            wanted="$wanted $pkg"
        else
            say "$pkg is not in this system's archive (not Raspberry Pi OS?); a wheel stands in for it"
        fi
    done
    # shellcheck disable=SC2086  # a list of package names
    [ -z "$wanted" ] || apt-get install -y -q --no-install-recommends $wanted >/dev/null
}

make_user() {
    for group in gpio spi i2c dialout; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! id tablekeeper >/dev/null 2>&1; then
        useradd --system --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin --user-group tablekeeper
    fi
    usermod --append --groups gpio,spi,i2c,dialout tablekeeper
}

make_venv() {
    # An environment made without the system's packages (an older install) is made again.
    if [ -f "$VENV/pyvenv.cfg" ] && ! grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        rm -rf "$VENV"
    fi
    mkdir -p "$PREFIX"
    python3 -m venv --system-site-packages "$VENV"
    # No [pi] extra: lgpio and spidev are the system's. Nothing is built from
    # source: a dependency without a wheel for this machine is refused by pip
    # (--only-binary) rather than compiled; this project itself is pure Python.
    # It is built with what is here (the venv's setuptools, Debian's wheel), not
    # in a fresh environment fetched from PyPI on every run: minutes on a Pi Zero,
    # and the network for a build tool. pip refuses if they are older than
    # pyproject.toml's [build-system] asks (--check-build-dependencies).
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
        --no-build-isolation --check-build-dependencies --upgrade "$SRC"
    if ! "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
        "$VENV/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: lgpio \
            || die "no lgpio: install python3-lgpio (Raspberry Pi OS) and run this again"
    fi
    cp "$SRC/README.md" "$PREFIX/README.md"
}

check_profile() {
    # The profile as given, so that a problem names the builder's own file and line.
    "$VENV/bin/python" - "$1" <<'EOF' || die "nothing installed from that profile; fix it and run this again"
import sys

from pi_app.table import profile

try:
    problems = profile.absent_hubs(profile.load(sys.argv[1]))
except profile.ProfileError as exc:
    sys.exit(f"install.sh: {exc}")
if problems:
    sys.exit("install.sh: " + "\n".join(problems))
EOF
}

install_profile() {
    install -d -m 0755 "$ETC"
    if [ -n "$PROFILE" ]; then
        check_profile "$PROFILE"
        install -m 0644 "$PROFILE" "$ETC/table.toml"
        say "table profile: $PROFILE -> $ETC/table.toml"
    elif [ -f "$ETC/table.toml" ]; then
        check_profile "$ETC/table.toml"
        say "table profile: $ETC/table.toml kept"
    else
        check_profile "$DEFAULT_PROFILE"
        install -m 0644 "$DEFAULT_PROFILE" "$ETC/table.toml"
        say "table profile: the reference table -> $ETC/table.toml"
    fi
}

install_udev_rule() {
    # The hub's port in group dialout (and left alone by ModemManager) before the
    # service first opens it; a hub already plugged in is told at once.
    install -d -m 0755 /etc/udev/rules.d
    install -m 0644 "$SRC/$UDEV_RULE" /etc/udev/rules.d/
    if command -v udevadm >/dev/null 2>&1; then
        # No udev daemon (a container): the rule is read when it next starts.
        { udevadm control --reload-rules && udevadm trigger --subsystem-match=tty; } 2>/dev/null \
            || say "udev is not running here: the hub's rule applies from its next start"
    fi
}

install_unit() {
    install -m 0644 "$SRC/systemd/$UNIT_NAME" "$UNIT"
    if command -v systemd-analyze >/dev/null 2>&1; then
        systemd-analyze verify "$UNIT"
    fi
    systemctl daemon-reload
    systemctl enable "$UNIT_NAME"
    # restart, not start: an upgrade runs the new code at once.
    if systemctl restart "$UNIT_NAME"; then
        say "tablekeeper is running: systemctl status tablekeeper; journalctl -u tablekeeper"
    else
        say "tablekeeper did not start yet; it keeps trying. Why: journalctl -u tablekeeper"
    fi
}

uninstall() {
    if [ -f /etc/systemd/system/tablekeeper-web.service ]; then
        systemctl disable --now tablekeeper-web.service || true
        rm -f /etc/systemd/system/tablekeeper-web.service
    fi
    if [ -f "$UNIT" ]; then
        systemctl disable --now "$UNIT_NAME" || true
        rm -f "$UNIT"
        systemctl daemon-reload
    fi
    rm -f "/etc/udev/rules.d/$(basename "$UDEV_RULE")"
    rm -rf "$PREFIX"
    if [ "$PURGE" = yes ]; then
        rm -rf "$ETC" "$STATE"
        if id tablekeeper >/dev/null 2>&1; then userdel tablekeeper; fi
        say "removed, with the profile, the journal and the tablekeeper user"
    else
        say "removed; kept $ETC (the profile) and $STATE (the journal): --uninstall --purge removes them"
    fi
}

ACTION=install
PURGE=no
WEB=no
PROFILE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=yes ;;
        --web) WEB=yes ;;
        -h|--help) usage 0 ;;
        -*) echo "install.sh: unknown option $1" >&2; usage 2 >&2 ;;
        *) [ -z "$PROFILE" ] || die "one table profile at most"; PROFILE=$1 ;;
    esac
    shift
done
[ "$PURGE" = no ] || [ "$ACTION" = uninstall ] || die "--purge goes with --uninstall"

[ "$(id -u)" -eq 0 ] || die "run as root (sudo $0)"
if [ -n "$PROFILE" ]; then
    [ -f "$PROFILE" ] || die "no table profile at $PROFILE"
    PROFILE=$(cd "$(dirname "$PROFILE")" && pwd)/$(basename "$PROFILE")
fi

case "$ACTION" in
    uninstall) uninstall ;;
    install)
        install_packages
        make_user
        make_venv
        install_profile
        install_udev_rule
        install_unit
        if [ "$WEB" = yes ]; then sh "$SRC/systemd/install-web.sh"; fi
        ;;
esac
