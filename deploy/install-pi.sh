#!/bin/bash
# Install the table companion on a fresh 64-bit Raspberry Pi OS (Trixie or Bookworm). Run once, as root, from a
# checkout:
#
#   sudo git clone <repository> /opt/table-companion
#   sudo /opt/table-companion/deploy/install-pi.sh            # add --dry-run to see the plan first
#
# It is safe to run again (after `git pull`, to update): every step checks what is already there.
# Steps: apt packages, code in /opt/table-companion, a venv that sees apt's picamera2, the package, a system user,
# the config in /etc/table-companion, the data dir, `companion doctor`, the systemd service, the kiosk screen.
#
# Options:
#   --dry-run           print the plan; change nothing
#   --kiosk-user NAME   whose desktop opens the dashboard (default: the user who ran sudo, else uid 1000)
#   --no-kiosk          no kiosk (a Pi without a screen; tablets only)
#   --no-start          install and enable the service but do not (re)start it now
#   -h, --help          this text
set -Eeuo pipefail

PREFIX=/opt/table-companion
VENV=$PREFIX/.venv
CONFIG_DIR=/etc/table-companion
CONFIG=$CONFIG_DIR/config.toml
DATA_DIR=/var/lib/table-companion
SERVICE_USER=table-companion
UNIT=table-companion.service
UNIT_PATH=/etc/systemd/system/$UNIT
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-libcamera python3-lgpio git
              rsync curl)
# Packages only Raspberry Pi's own archive may have (plain Debian lacks python3-picamera2, for one): when apt does not
# know one, the install says so and goes on without it; the doctor then names what does not work.
OPTIONAL_PACKAGES=(python3-picamera2 python3-libcamera python3-lgpio)

DRY_RUN=0
KIOSK=1
START=1
KIOSK_USER=${SUDO_USER:-}
STEP=""
FIX=""

usage() { sed -n '2,/^set -Eeuo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --kiosk-user) KIOSK_USER=${2:?--kiosk-user needs a name}; shift ;;
        --no-kiosk) KIOSK=0 ;;
        --no-start) START=0 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-pi.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

# -- output and running ------------------------------------------------------------------------------------------------

step() { STEP=$1; FIX=$2; printf '\n==> %s\n' "$STEP"; }
note() { printf '    %s\n' "$*"; }
# run CMD...: show it; run it unless --dry-run.
run() {
    local arg shown=""
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then shown+=" $arg"; else shown+=" '${arg//\'/\'\\\'\'}'"; fi
    done
    printf '    $%s\n' "$shown"
    [ "$DRY_RUN" = 1 ] || "$@"
}
# write_file PATH MODE OWNER: stdin to PATH, only if it changed.
write_file() {
    local path=$1 mode=$2 owner=$3 content
    content=$(cat)
    if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
        note "$path is up to date"
        return
    fi
    note "write $path (mode $mode, owner $owner)"
    if [ "$DRY_RUN" = 0 ]; then
        install -D -m "$mode" -o "${owner%:*}" -g "${owner#*:}" /dev/null "$path"
        printf '%s\n' "$content" >"$path"
    fi
}
# add_line FILE LINE OWNER MARK: append LINE to FILE (created if missing) unless a line has MARK already.
add_line() {
    local path=$1 line=$2 owner=$3 mark=$4
    if [ -f "$path" ] && grep -qF -- "$mark" "$path"; then
        note "$path already has it"
        return
    fi
    note "add to $path: $line"
    if [ "$DRY_RUN" = 0 ]; then
        printf '%s\n' "$line" >>"$path"
        chown "$owner" "$path"
    fi
}
# without PACKAGE: what does not work when an optional apt package is missing.
without() {
    case $1 in
        python3-picamera2 | python3-libcamera) echo 'no Pi camera; a USB webcam works ([camera] source = "opencv")' ;;
        python3-lgpio) echo 'no GPIO buttons on Python 3.13 (PyPI has no lgpio wheel for it); the dashboard works' ;;
        *) echo "see the doctor's report" ;;
    esac
}
config_port() {
    python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("server", {}).get("port", 8080))' \
        "$CONFIG" 2>/dev/null || echo 8080
}
failed() {
    local status=$?
    printf '\nFAILED (exit %s) at: %s\n' "$status" "$STEP" >&2
    [ -z "$FIX" ] || printf 'To fix: %s\nThen run this script again; finished steps are skipped.\n' "$FIX" >&2
    exit "$status"
}
trap failed ERR

[ "$DRY_RUN" = 0 ] || echo "DRY RUN: nothing will be changed; this is the plan."

# -- 0. this machine ---------------------------------------------------------------------------------------------------

step "Check this machine" "run as root on 64-bit Raspberry Pi OS (Trixie or Bookworm)"
if [ "$(id -u)" != 0 ]; then
    [ "$DRY_RUN" = 1 ] || { echo "install-pi.sh: run as root: sudo $0" >&2; exit 1; }
    note "not root (fine for a dry run; the real run needs sudo)"
fi
# shellcheck source=/dev/null
codename=$( (. /etc/os-release && echo "${VERSION_CODENAME:-unknown}") 2>/dev/null || echo unknown)
arch=$(uname -m)
note "OS: $codename, architecture: $arch, source: $SOURCE"
case $codename in
    trixie | bookworm) ;;
    *) note "WARNING: written for Trixie and Bookworm; $codename may name packages differently" ;;
esac
[ "$arch" = aarch64 ] || note "WARNING: onnxruntime wheels need 64-bit Pi OS (aarch64), this is $arch"
[ -f "$SOURCE/pyproject.toml" ] || { echo "install-pi.sh: $SOURCE is not a table-companion checkout" >&2; exit 1; }

# -- 1. packages -------------------------------------------------------------------------------------------------------

step "Install system packages (camera, GPIO, Python venv, browser)" \
    "check the network, then: sudo apt-get update && sudo apt-get install ${APT_PACKAGES[*]}"
packages=("${APT_PACKAGES[@]}")
if [ "$KIOSK" = 1 ]; then
    browser_pkg=chromium
    if ! apt-cache show chromium >/dev/null 2>&1 && apt-cache show chromium-browser >/dev/null 2>&1; then
        browser_pkg=chromium-browser  # the name on older Pi OS images
    fi
    packages+=("$browser_pkg")
fi
missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} = 0 ]; then
    note "all installed: ${packages[*]}"
else
    run apt-get update
    wanted=()
    # The packages some configured archive has (a dry run asks the old lists); one call, as each builds apt's cache.
    # apt 3 (Trixie) exits 100 when one of them is unknown, apt 2 does not; either way it names the known ones.
    known=" $({ apt-cache show --no-all-versions "${missing[@]}" 2>/dev/null || true; } | sed -n 's/^Package: //p' \
        | xargs) "
    for pkg in "${missing[@]}"; do
        if [[ " ${OPTIONAL_PACKAGES[*]} " == *" $pkg "* ]] && [[ $known != *" $pkg "* ]]; then
            note "WARNING: $pkg is not in this system's apt archives; going on without it"
            note "  Raspberry Pi OS has it (archive.raspberrypi.com); plain Debian may not. Without it: $(without "$pkg")"
        else
            wanted+=("$pkg")
        fi
    done
    # No recommends (python3-pip's would bring a whole compiler): the venv installs only wheels, and an SD card
    # has better uses for the space.
    [ ${#wanted[@]} = 0 ] || run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${wanted[@]}"
fi

# -- 2. code -----------------------------------------------------------------------------------------------------------

step "Put the code in $PREFIX" "check that $SOURCE is readable and the SD card has space (df -h /opt)"
if [ "$SOURCE" = "$PREFIX" ]; then
    note "running from $PREFIX itself; nothing to copy"
else
    run mkdir -p "$PREFIX"
    run rsync -a --delete --exclude .venv --exclude .demo-data --exclude '*.egg-info' --exclude __pycache__ \
        "$SOURCE/" "$PREFIX/"
fi

# -- 3. venv and package -----------------------------------------------------------------------------------------------

step "Create the venv $VENV (sees apt's picamera2 and lgpio) and install the companion" \
    "check the network (pip downloads onnxruntime, opencv, numpy); the log above shows which package failed"
if [ -x "$VENV/bin/python" ]; then
    note "venv exists"
else
    # --system-site-packages: picamera2 and libcamera exist only as apt packages.
    run python3 -m venv --system-site-packages "$VENV"
fi
run "$VENV/bin/pip" install --quiet --upgrade pip
run "$VENV/bin/pip" install --quiet -e "${PREFIX}[pi]"
# apt's simplejpeg (used by picamera2) is built for Debian's numpy 1.24; the venv's numpy may be 2.x, which makes
# `import picamera2` fail with "numpy.dtype size changed". A simplejpeg from PyPI in the venv matches pip's numpy.
run "$VENV/bin/pip" install --quiet --upgrade simplejpeg
# Byte-compiled now, as root: the service's user cannot write __pycache__ into root's $PREFIX, so each start would
# compile the companion's own modules again (pip compiles the venv's packages, apt Debian's; -f is not needed).
# A file that does not compile (a package's Python 2 example, say) is named, not fatal: Python skips it at start too.
run "$VENV/bin/python" -m compileall -q -j 0 "$VENV/lib" "$PREFIX/companion" "$PREFIX/vision" "$PREFIX/hw" ||
    note "WARNING: some files did not byte-compile (above); the companion still starts"
run "$VENV/bin/python" -c 'import onnxruntime as o; v = tuple(int(x) for x in o.__version__.split(".")[:2]);
assert v >= (1, 22), "onnxruntime " + o.__version__ + " crashes on import on a Pi 4; need >= 1.22";
print("onnxruntime", o.__version__)'
# What the venv sees of apt's packages (through --system-site-packages): a missing one is named, not fatal.
run "$VENV/bin/python" -c 'import importlib.metadata as m
for name in ("gpiozero", "lgpio", "picamera2"):
    try:
        __import__(name)
        print("   ", name, m.version(name) if name == "gpiozero" else "importable")
    except Exception as exc:
        print("    WARNING:", name, "cannot be imported:", type(exc).__name__, exc)'

# -- 4. user -----------------------------------------------------------------------------------------------------------

step "Create the system user $SERVICE_USER (groups video, gpio)" \
    "sudo useradd --system --user-group $SERVICE_USER; sudo usermod -aG video,gpio $SERVICE_USER"
if id "$SERVICE_USER" >/dev/null 2>&1; then
    note "user $SERVICE_USER exists"
else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
        "$SERVICE_USER"
fi
for group in video gpio; do
    if getent group "$group" >/dev/null; then
        run usermod -aG "$group" "$SERVICE_USER"
    else
        note "WARNING: no group $group on this system; the $group devices may not be reachable"
    fi
done

# -- 5. config and data ------------------------------------------------------------------------------------------------

step "Write the config $CONFIG and the data dir $DATA_DIR" \
    "check $SOURCE/deploy/config.example.toml exists and /etc is writable"
if [ -f "$CONFIG" ]; then
    note "$CONFIG exists; kept as it is (compare with $PREFIX/deploy/config.example.toml after updates)"
else
    pin=$(printf '%04d' $((RANDOM % 10000)))
    note "new config from the example, with a random control PIN (in $CONFIG; change it there)"
    sed "s/^control_pin = \"[0-9]*\"/control_pin = \"$pin\"/" "$SOURCE/deploy/config.example.toml" \
        | write_file "$CONFIG" 640 "root:$SERVICE_USER"
fi
run install -d -m 750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"

# -- 6. doctor ---------------------------------------------------------------------------------------------------------

step "Check the installation with companion doctor" "read the FAIL lines above; each says what to fix"
if [ "$DRY_RUN" = 0 ] && systemctl is-active --quiet "$UNIT"; then
    note "the service is running and owns the camera and pins; stopping it for the check"
    run systemctl stop "$UNIT"
fi
# As the service's user: it is the one that must reach the data dir, the camera and the pins.
doctor=(runuser -u "$SERVICE_USER" -- "$VENV/bin/python" -m companion.doctor --config "$CONFIG")
if [ "$DRY_RUN" = 1 ]; then
    run "${doctor[@]}"
elif ! run "${doctor[@]}"; then
    note "WARNING: doctor found problems (above). The service is installed anyway; fix them, then check again:"
    note "  sudo ${doctor[*]}"
fi

# -- 7. service --------------------------------------------------------------------------------------------------------

step "Install and enable the systemd service $UNIT" \
    "systemd-analyze verify $UNIT_PATH names the bad line; journalctl -u $UNIT -n 50 shows why it stopped"
write_file "$UNIT_PATH" 644 root:root <"$SOURCE/deploy/$UNIT"
if [ "$DRY_RUN" = 0 ] && [ ! -d /run/systemd/system ]; then
    # A chroot or a container (deploy/pi-check.sh): enabling needs no running systemd, starting does.
    note "systemd is not running here; the service is enabled and starts at the next boot"
    run systemctl enable "$UNIT"
else
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    if [ "$START" = 1 ]; then
        run systemctl restart "$UNIT"
    else
        note "not starting it now (--no-start): sudo systemctl start $UNIT"
    fi
fi

# -- 8. kiosk ----------------------------------------------------------------------------------------------------------

step "Set up the kiosk screen (Chromium on the dashboard, no screen blanking)" \
    "give --kiosk-user the desktop user's name, or --no-kiosk on a Pi without a screen"
if [ "$KIOSK" = 0 ]; then
    note "skipped (--no-kiosk)"
else
    [ -n "$KIOSK_USER" ] && [ "$KIOSK_USER" != root ] || KIOSK_USER=$(getent passwd 1000 | cut -d: -f1 || true)
    if [ -z "$KIOSK_USER" ]; then
        note "no desktop user found (uid 1000); skipping the kiosk. Use --kiosk-user NAME."
    else
        home=$(getent passwd "$KIOSK_USER" | cut -d: -f6 || true)
        home=${home:-/home/$KIOSK_USER}
        port=$(config_port)
        launch="KIOSK_URL=http://127.0.0.1:$port/ $PREFIX/deploy/kiosk.sh"
        note "desktop user $KIOSK_USER ($home), dashboard on port $port"

        # labwc: Trixie's desktop (and Bookworm's since October 2024). Raspberry Pi OS starts it with
        # --merge-config, so the user's autostart runs after the desktop's own (panel, wallpaper, kanshi).
        autostart=$home/.config/labwc/autostart
        run runuser -u "$KIOSK_USER" -- mkdir -p "$home/.config/labwc"
        add_line "$autostart" "$launch >/tmp/table-companion-kiosk.log 2>&1 &" "$KIOSK_USER:" "$PREFIX/deploy/kiosk.sh"
        # On labwc, blanking is a swayidle line in this file: raspi-config's Screen Blanking adds
        # `swayidle -w timeout 600 'wlopm --off \*' ...` to turn it on and deletes it to turn it off.
        if [ -f "$autostart" ] && grep -q swayidle "$autostart"; then
            run sed -i '/swayidle/d' "$autostart"
            run chown "$KIOSK_USER:" "$autostart"
        else
            note "labwc: no swayidle in $autostart, so the screen does not blank"
        fi

        # wayfire (Bookworm images before October 2024): [autostart] in wayfire.ini; blanking off is
        # [idle] dpms_timeout=-1, as raspi-config writes it.
        ini=$home/.config/wayfire.ini
        if ! command -v wayfire >/dev/null 2>&1; then
            note "wayfire is not installed; labwc's autostart is enough"
        else
            if [ -f "$ini" ] && grep -qF "$PREFIX/deploy/kiosk.sh" "$ini"; then
                note "$ini already starts the kiosk"
            elif [ -f "$ini" ] && grep -q '^\[autostart\]' "$ini"; then
                run sed -i "/^\[autostart\]/a table_companion = $launch" "$ini"
            else
                add_line "$ini" $'\n[autostart]\ntable_companion = '"$launch" "$KIOSK_USER:" "$PREFIX/deploy/kiosk.sh"
            fi
            if grep -q '^dpms_timeout' "$ini" 2>/dev/null; then
                run sed -i 's/^dpms_timeout.*/dpms_timeout=-1/' "$ini"
            elif grep -q '^\[idle\]' "$ini" 2>/dev/null; then
                run sed -i '/^\[idle\]/a dpms_timeout=-1' "$ini"
            else
                add_line "$ini" $'\n[idle]\ndpms_timeout=-1' "$KIOSK_USER:" "dpms_timeout"
            fi
            [ ! -f "$ini" ] || run chown "$KIOSK_USER:" "$ini"
        fi

        # X11 (Bookworm's X session, older images): LXDE's autostart, which runs no shell (hence env). A user file
        # replaces the desktop's own, so it starts as a copy of it. kiosk.sh turns X's blanking off (xset).
        lxde=$home/.config/lxsession/LXDE-pi/autostart
        if ! command -v lxsession >/dev/null 2>&1; then
            note "lxsession (X11 desktop) is not installed; nothing to set up for X"
        else
            if [ ! -f "$lxde" ] && [ -f /etc/xdg/lxsession/LXDE-pi/autostart ]; then
                run install -D -o "$KIOSK_USER" -m 644 /etc/xdg/lxsession/LXDE-pi/autostart "$lxde"
            fi
            [ -f "$lxde" ] || run runuser -u "$KIOSK_USER" -- mkdir -p "$(dirname "$lxde")"
            add_line "$lxde" "env KIOSK_URL=http://127.0.0.1:$port/ $PREFIX/deploy/kiosk.sh" "$KIOSK_USER:" \
                "$PREFIX/deploy/kiosk.sh"
        fi

        if command -v raspi-config >/dev/null 2>&1; then
            # raspi-config changes the desktop it sees running (X11: /etc/X11/xorg.conf.d/10-blanking.conf), in
            # the home of SUDO_USER: the kiosk user's.
            run env SUDO_USER="$KIOSK_USER" raspi-config nonint do_blanking 1  # 1 = blanking off
            note "the desktop must log in by itself: sudo raspi-config, System Options, Boot / Auto Login"
        else
            note "raspi-config not found (not Raspberry Pi OS): the desktop's own screen saver settings still apply"
        fi
    fi
fi

trap - ERR
printf '\nDone.\n'
[ "$DRY_RUN" = 0 ] || { echo "(dry run: nothing was changed)"; exit 0; }
ip=$(hostname -I 2>/dev/null | cut -d' ' -f1)
echo "Dashboard: http://${ip:-<this Pi>}:$(config_port)/"
# The PIN is never printed: an install's output ends up in logs and terminal scrollback.
echo "Control PIN: shown on the kiosk screen, or sudo grep control_pin $CONFIG   Log: journalctl -u $UNIT -f"
echo "Reboot to start the kiosk screen: sudo reboot"
