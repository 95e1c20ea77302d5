#!/bin/bash
# shellcheck disable=SC2317  # the step functions are called through step "$function"
# The Pi install, proven without a Pi: an arm64 Debian trixie root (debootstrap, run through qemu-user-static) in
# which deploy/install-pi.sh runs as on a Raspberry Pi, then the companion is checked there. `make pi-check` runs it.
#
#   sudo deploy/pi-check.sh             # the first run builds the root (slow); later runs reuse it
#   deploy/pi-check.sh --dry-run        # the plan; needs no root, no network, changes nothing
#
# Steps, each printed as one line `step  OK|FAIL|SKIP  seconds  detail` (the full output of each step is in the
# log folder): host tools, the arm64 root, mounts, the code copied in, install-pi.sh (--no-start --no-kiosk: no
# systemd runs in a chroot, and no desktop user), versions (python3, onnxruntime, gpiozero, lgpio, picamera2),
# companion doctor, companion detect on a real photo compared with this machine's own reading, companion demo
# answering /healthz, and pytest on tests/games and tests/vision inside the root (not the browser tests; those
# needing torch, which only training uses, skip themselves and the step's line says how many).
#
# It is too slow for CI (emulated arm64: tens of minutes); its latest summary goes in deploy/README.md.
# What it cannot prove: Raspberry Pi's own archive (archive.raspberrypi.com) is not used, so apt packages only
# Raspberry Pi OS has (python3-picamera2 where Debian lacks it) are reported as missing, and no camera, GPIO chip or
# screen exists in the root.
#
# Options:
#   --dry-run           print the plan; change nothing (no root or network needed)
#   --root DIR          where the arm64 root lives and is kept (default /var/tmp/table-companion-pi-root)
#   --rebuild           delete the kept root first and build it anew
#   --photo FILE        the real photo for `companion detect` (default: the first test photo of real-d6-tray)
#   --tests "ARGS"      what pytest runs in the root (default "tests/games tests/vision"); the summary names it
#   --no-install        do not run install-pi.sh: the kept root's venv as it is (an editable install, so it runs the
#                       code just copied in). For when PyPI cannot be reached from the root (pip under qemu on a
#                       busy machine: a TLS handshake of 14 s, which a proxy may reset); the install line says SKIP
#   --resume            the tests step skips the tests that passed in an earlier run on the same code (each passed
#                       test is written down as it passes, so a run stopped midway goes on where it was; a test's
#                       code is its folder and what it tests, deploy/pi_check_resume.py); the line says how many
#   --jobs N            the tests step's emulated workers (pytest-xdist, installed into the root's venv for this
#                       check only; default: this machine's cores, 1 runs pytest alone)
#   -h, --help          this text
# Environment: PI_CHECK_MIRROR (default http://deb.debian.org/debian), PI_CHECK_HOST_COMPANION (this machine's
# companion for the reference reading; default .venv/bin/companion of this checkout, built by `make demo`).
set -Euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=$(cd "$SOURCE/.." && pwd)/shared
ROOT=/var/tmp/table-companion-pi-root
SUITE=trixie
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
HOST_COMPANION=${PI_CHECK_HOST_COMPANION:-$SOURCE/.venv/bin/companion}
DATASET=$SHARED/datasets/real-d6-tray
PHOTO=""
TESTS="tests/games tests/vision"
PREFIX=/opt/table-companion
# Packages of Raspberry Pi OS's base the install expects to find (the rest install-pi.sh installs itself).
BASE_PACKAGES=systemd,systemd-sysv,ca-certificates,hostname
DRY_RUN=0
REBUILD=0
INSTALL=1
RESUME=0
JOBS=$(nproc)

usage() { sed -n '2,/^set -Euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --rebuild) REBUILD=1 ;;
        --no-install) INSTALL=0 ;;
        --resume) RESUME=1 ;;
        --photo) PHOTO=${2:?--photo needs a file}; shift ;;
        --tests) TESTS=${2:?--tests needs pytest arguments}; shift ;;
        --jobs) JOBS=${2:?--jobs needs a number}; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "pi-check.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
case $JOBS in
    '' | *[!0-9]* | 0) echo "pi-check.sh: --jobs needs a whole number of workers, 1 or more (got '$JOBS')" >&2; exit 2 ;;
esac
ROOT=${ROOT%/}
LOGS=$ROOT.logs
SUMMARY=$ROOT.summary
if [ -z "$PHOTO" ]; then
    PHOTO=$(find "$DATASET/test/images" -name '*.jpg' 2>/dev/null | sort | head -n 1)
    PHOTO=${PHOTO:-$DATASET/test/images/(none found)}
fi

# -- output and running ------------------------------------------------------------------------------------------------

RESULTS=()
FAILED=0
DETAIL=""
MOUNTED=()
DEMO_PID=""

# run CMD...: show it (into the step's log); run it unless --dry-run.
run() {
    printf '    $ %s\n' "$*"
    [ "$DRY_RUN" = 1 ] || "$@"
}
# in_root CMD...: CMD inside the arm64 root, with a clean environment as a login on the Pi would have.
in_root() {
    # PIP_CERT: pip checks PyPI's certificate against the system's bundle (with this machine's CAs), not its own.
    run chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
# step NAME FUNCTION FIX: run FUNCTION with its output in $LOGS/NAME.log; print one line; on failure, the log's
# tail and what to fix. A step that sets DETAIL has it shown on its line.
step() {
    local name=$1 function=$2 fix=$3 started=$SECONDS status log=$LOGS/$1.log
    DETAIL=""
    if [ "$DRY_RUN" = 1 ]; then
        printf '==> %s\n' "$name"
        "$function"
        return 0
    fi
    if "$function" >"$log" 2>&1; then status=OK; else status=FAIL; FAILED=1; fi
    if [ "$status" = OK ] && [[ $DETAIL == SKIPPED* ]]; then status=SKIP; DETAIL=${DETAIL#SKIPPED }; fi
    RESULTS+=("$(printf '%-9s %-4s %6ss  %s' "$name" "$status" $((SECONDS - started)) "$DETAIL")")
    printf '%s\n' "${RESULTS[-1]}"
    if [ "$status" = FAIL ]; then
        sed -e 's/^/    | /' "$log" | tail -n 25
        printf '    fix: %s\n    (the whole output: %s)\n' "$fix" "$log"
        return 1
    fi
}
skip_rest() {
    local name
    for name in "$@"; do
        RESULTS+=("$(printf '%-9s %-4s %6ss  %s' "$name" SKIP 0 "needs the steps above")")
        printf '%s\n' "${RESULTS[-1]}"
    done
}

# -- the steps ---------------------------------------------------------------------------------------------------------
# Each returns non-zero at its first failing command (`|| return`): errexit does not work inside `if` and `&&`.

host_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [ -e /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [ ${#missing[@]} -gt 0 ] || [ "$DRY_RUN" = 1 ]; then
        run apt-get install -y debootstrap qemu-user-static binfmt-support debian-archive-keyring || return
    fi
    # The kernel runs arm64 programs through qemu only once binfmt_misc knows it; a container may lack the mount.
    if [ "$DRY_RUN" = 1 ] || ! [ -e /proc/sys/fs/binfmt_misc/status ]; then
        run mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return
    fi
    if [ "$DRY_RUN" = 1 ] || ! grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
        run update-binfmts --enable qemu-aarch64 || return
    fi
    [ "$DRY_RUN" = 1 ] || DETAIL="$(debootstrap --version | head -n 1), $(qemu-aarch64-static --version | head -n 1)"
}

build_root() {
    if [ "$REBUILD" = 0 ] && [ -f "$ROOT/.pi-check-root" ]; then
        DETAIL="kept from $(cat "$ROOT/.pi-check-root") ($ROOT)"
        return 0
    fi
    # --rebuild, or a partial root from an interrupted run: started over (debootstrap cannot resume one).
    if [ -d "$ROOT" ]; then
        if grep -qF " $ROOT/" /proc/mounts; then
            echo "something is still mounted under $ROOT (grep $ROOT /proc/mounts): umount it first"
            return 1
        fi
        run rm -rf --one-file-system "$ROOT" || return
    fi
    run debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$ROOT" "$MIRROR" || return
    # Raspberry Pi Imager creates a desktop user with uid 1000; the kiosk step of install-pi.sh looks for it.
    in_root useradd --create-home --uid 1000 --shell /bin/bash pi || return
    if [ "$DRY_RUN" = 0 ]; then date -u '+%Y-%m-%d %H:%M UTC' >"$ROOT/.pi-check-root" || return; fi
    DETAIL="built ($ROOT)"
}

mount_root() {
    local target
    for target in proc sys dev dev/pts; do
        if [ "$DRY_RUN" = 0 ] && mountpoint -q "$ROOT/$target"; then continue; fi
        case $target in
            proc) run mount -t proc proc "$ROOT/proc" ;;
            sys) run mount -t sysfs sysfs "$ROOT/sys" ;;
            dev) run mount --bind /dev "$ROOT/dev" ;;
            dev/pts) run mount -t devpts devpts "$ROOT/dev/pts" ;;
        esac || return
        MOUNTED+=("$ROOT/$target")
    done
    # qemu-user 7.2 (Bookworm's) shows programs this machine's x86 /proc/cpuinfo, and onnxruntime's CPU probe
    # (cpuinfo) crashes on it with a segmentation fault at import. A Pi 4's (4 Cortex-A72 cores) stands in.
    if [ "$DRY_RUN" = 1 ] || ! mountpoint -q "$ROOT/proc/cpuinfo"; then
        if [ "$DRY_RUN" = 0 ]; then
            for core in 0 1 2 3; do
                printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$core"
                printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\n'
                printf 'CPU revision\t: 3\n\n'
            done >"$ROOT.cpuinfo" || return
            printf 'Hardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B (emulated)\n' >>"$ROOT.cpuinfo" || return
        fi
        run mount --bind "$ROOT.cpuinfo" "$ROOT/proc/cpuinfo" || return
        MOUNTED+=("$ROOT/proc/cpuinfo")
    fi
    run cp --remove-destination /etc/resolv.conf "$ROOT/etc/resolv.conf" || return
    # The CAs this machine adds to Debian's (a TLS-inspecting proxy's, say): without them pip in the root cannot
    # reach PyPI through it. Appended to the bundle directly: update-ca-certificates takes minutes under qemu.
    local ca
    for ca in /usr/local/share/ca-certificates/*.crt; do
        [ -e "$ca" ] || continue
        if cmp -s "$ca" "$ROOT/usr/local/share/ca-certificates/${ca##*/}"; then continue; fi
        run install -D -m 644 "$ca" "$ROOT/usr/local/share/ca-certificates/${ca##*/}" || return
        if [ "$DRY_RUN" = 0 ]; then cat "$ca" >>"$ROOT/etc/ssl/certs/ca-certificates.crt" || return; fi
    done
}

copy_code() {
    # What a `git clone` would hold: the checkout's tracked and new files, not its venv, caches or data. The
    # root's own venv is kept between runs (pip then only updates it).
    run mkdir -p "$ROOT$PREFIX" || return
    run find "$ROOT$PREFIX" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} + || return
    if [ "$DRY_RUN" = 1 ]; then
        echo "    \$ git ls-files --cached --others --exclude-standard | tar (from $SOURCE to $ROOT$PREFIX)"
        echo "    \$ tar (from $SHARED to $ROOT$(dirname "$PREFIX")/shared)"
        return 0
    fi
    # tar, not rsync: a plain Debian host may lack rsync. A tracked file deleted in the checkout is skipped.
    git -C "$SOURCE" ls-files -z --cached --others --exclude-standard \
        | tar -C "$SOURCE" --null --files-from=- --ignore-failed-read -cf - \
        | tar -C "$ROOT$PREFIX" -xf - || return
    # The specs and seeds beside the code, as CI has them: the spec tests read ../shared/games/*/RULES.md.
    run rm -rf "$ROOT$(dirname "$PREFIX")/shared" || return
    tar -C "$(dirname "$SHARED")" -cf - shared | tar -C "$ROOT$(dirname "$PREFIX")" -xf - || return
    DETAIL="$(git -C "$SOURCE" rev-parse --short HEAD)$(git -C "$SOURCE" diff --quiet HEAD || echo ' + changes')"
}

install_pi() {
    if [ "$INSTALL" = 0 ]; then
        [ -x "$ROOT$PREFIX/.venv/bin/companion" ] || [ "$DRY_RUN" = 1 ] ||
            { echo "--no-install needs a root installed by an earlier run: run without it once"; return 1; }
        echo "    (--no-install: install-pi.sh not run; the venv of $(cat "$ROOT/.pi-check-root" 2>/dev/null) kept)"
        DETAIL="SKIPPED --no-install: the kept venv, an editable install of the code copied in"
        return 0
    fi
    in_root "$PREFIX/deploy/install-pi.sh" --no-start --no-kiosk || return
    [ "$DRY_RUN" = 1 ] || DETAIL=$(grep -o 'WARNING: [^(;:]*' "$LOGS/install.log" | head -n 2 | paste -sd ';')
}

versions() {
    in_root "$PREFIX/.venv/bin/python" -c '
import importlib.metadata as m, platform, sys
print("python", platform.python_version(), platform.machine(), "venv", sys.prefix)
assert sys.version_info[:2] == (3, 13), "trixie ships python 3.13"
import cv2, gpiozero, numpy, onnxruntime
ort = onnxruntime.__version__
assert tuple(map(int, ort.split(".")[:2])) >= (1, 22), f"onnxruntime {ort} crashes on a Pi 4; need >= 1.22"
assert int(m.version("gpiozero").split(".")[0]) >= 2, "gpiozero 2 is the one that drives a Pi 5 (through lgpio)"
print("onnxruntime", ort, "gpiozero", m.version("gpiozero"), "opencv", cv2.__version__, "numpy", numpy.__version__)
# lgpio: what pin_factory = "auto" takes first (opening it needs a GPIO chip, which a chroot has not).
for module in ("lgpio", "gpiozero.pins.lgpio", "libcamera", "picamera2"):
    try:
        print("import", module, "ok:", __import__(module, fromlist=["_"]).__file__)
    except Exception as exc:
        print("import", module, "MISSING:", type(exc).__name__, exc)
' || return
    [ "$DRY_RUN" = 0 ] || return 0
    local log=$LOGS/versions.log package missing=() absent=()
    DETAIL="$(grep -o '^python [0-9.]* [a-z0-9_]*' "$log"); $(grep -o 'onnxruntime [^ ]* gpiozero [^ ]*' "$log")"
    # An apt package the archive lacks is reported; one installed that does not import fails. install-pi.sh installs
    # each one apt has, so the root's dpkg database tells which (also after --no-install, which has no install log).
    for package in lgpio libcamera picamera2; do
        grep -q "^import $package ok" "$log" && continue
        if [ "$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${Status}' "python3-$package" 2>/dev/null)" \
            != "install ok installed" ]; then
            absent+=("python3-$package")
        else
            missing+=("python3-$package")
        fi
    done
    [ ${#absent[@]} = 0 ] || DETAIL+="; not in Debian's archive (Raspberry Pi OS has them): ${absent[*]}"
    [ ${#missing[@]} = 0 ] || { DETAIL+="; installed but not importable: ${missing[*]}"; return 1; }
}

doctor() {
    # The service's own config needs the camera and the pins, which a chroot has not: install-pi.sh ran the doctor
    # on it (install.log). Here every check must pass: the same config with the synthetic camera and mock pins.
    local config=/etc/table-companion/pi-check.toml
    if [ "$DRY_RUN" = 0 ]; then
        sed -e 's/^source = .*/source = "synthetic"/' -e 's/^pin_factory = .*/pin_factory = "mock"/' \
            -e "s/^port = .*/port = $(free_port)/" "$ROOT/etc/table-companion/config.toml" >"$ROOT$config" || return
    fi
    in_root runuser -u table-companion -- "$PREFIX/.venv/bin/companion" doctor --config "$config" --timeout 300 \
        || return
    [ "$DRY_RUN" = 1 ] || DETAIL="$(grep -c '^ *OK' "$LOGS/doctor.log") checks OK (synthetic camera, mock pins)"
}

detect() {
    if [ "$DRY_RUN" = 0 ]; then
        [ -f "$PHOTO" ] || { echo "no photo at $PHOTO (is the real-d6-tray dataset there?)"; return 1; }
        [ -x "$HOST_COMPANION" ] || { echo "no companion at $HOST_COMPANION to compare with: make demo"; return 1; }
    fi
    run mkdir -p "$ROOT/tmp/pi-check" || return
    run cp "$PHOTO" "$ROOT/tmp/pi-check/photo.jpg" || return
    if [ "$DRY_RUN" = 1 ]; then
        in_root "$PREFIX/.venv/bin/companion" detect /tmp/pi-check/photo.jpg --dice d6 --json
        run "$HOST_COMPANION" detect "$PHOTO" --dice d6 --json
        return 0
    fi
    in_root "$PREFIX/.venv/bin/companion" detect /tmp/pi-check/photo.jpg --dice d6 --json \
        >"$LOGS/detect-arm64.json" || return
    run "$HOST_COMPANION" detect "$PHOTO" --dice d6 --json >"$LOGS/detect-x86.json" || return
    echo "arm64: $(tail -n 1 "$LOGS/detect-arm64.json")"
    echo "x86:   $(tail -n 1 "$LOGS/detect-x86.json")"
    DETAIL=$(python3 - "$LOGS/detect-arm64.json" "$LOGS/detect-x86.json" "$(basename "$PHOTO")" <<'EOF'
import json, sys
# The JSON is the last line (run's "$ cmd" line comes first).
arm, x86 = (json.loads(open(p).read().strip().splitlines()[-1]) for p in sys.argv[1:3])
labels = [[d["label"] for d in r["dice"]] for r in (arm, x86)]
pairs = list(zip(arm["dice"], x86["dice"]))
gap = max((abs(a["confidence"] - b["confidence"]) for a, b in pairs), default=0.0)
moved = max((max(abs(p - q) for p, q in zip(a["center"], b["center"])) for a, b in pairs), default=0.0)
# The same dice: the same faces in the same order, found at the same places (within 2 px).
same = labels[0] == labels[1] and moved <= 2
print(f"{sys.argv[3]}: {len(labels[0])} dice {' '.join(labels[0])},",
      "as on x86" if same else f"x86 read {' '.join(labels[1])}",
      f"(centres within {moved:g} px, confidences within {gap:.4f})")
sys.exit(0 if same else 1)
EOF
    )
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

demo() {
    local port started answer waited
    port=$(free_port 2>/dev/null || echo 18088)
    local demo=("$PREFIX/.venv/bin/companion" demo --host 127.0.0.1 --port "$port" --data-dir /tmp/pi-check/demo)
    run rm -rf "$ROOT/tmp/pi-check/demo" || return
    if [ "$DRY_RUN" = 1 ]; then
        in_root "${demo[@]}"
        run curl --silent --fail "http://127.0.0.1:$port/healthz"
        return 0
    fi
    printf '    $ %s &\n' "${demo[*]}"
    # exec: the background job becomes the demo itself, so stop_demo's signal reaches it.
    (exec chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin "${demo[@]}") &
    DEMO_PID=$!
    started=$SECONDS
    # The root shares this machine's network: its demo answers on this machine's 127.0.0.1.
    until answer=$(curl --silent --fail --max-time 5 "http://127.0.0.1:$port/healthz"); do
        if ! kill -0 "$DEMO_PID" 2>/dev/null || [ $((SECONDS - started)) -gt 600 ]; then
            echo "the demo did not answer /healthz within $((SECONDS - started)) s"
            stop_demo
            return 1
        fi
        sleep 2
    done
    waited=$((SECONDS - started))
    echo "healthz after $waited s: $answer"
    stop_demo
    [[ $answer =~ \"ok\":\ *true ]] || return 1
    DETAIL="/healthz after $waited s: ${answer:0:60}"
}

stop_demo() {
    [ -n "$DEMO_PID" ] || return 0
    kill -TERM "$DEMO_PID" 2>/dev/null
    wait "$DEMO_PID" 2>/dev/null
    DEMO_PID=""
}

tests() {
    # The test tools are not part of a Pi's install: they go into the root's venv for this check only (once: a
    # kept venv has them, and PyPI may be out of reach, see --no-install).
    # Emulated Python is slow (hours for these tests), so they run on every core: pytest-xdist, one worker each.
    local tools="pytest hypothesis onnx" modules="pytest, hypothesis, onnx" workers=""
    if [ "$JOBS" -gt 1 ]; then
        tools+=" pytest-xdist" modules+=", xdist" workers="-n $JOBS"
    fi
    if [ "$DRY_RUN" = 1 ] || ! in_root "$PREFIX/.venv/bin/python" -c "import $modules"; then
        # shellcheck disable=SC2086 # the names are words
        in_root "$PREFIX/.venv/bin/pip" install --quiet --disable-pip-version-check $tools || return
    fi
    # Not the browser tests (no Chromium or Playwright in a Pi's install); tests needing torch (training only, not a
    # runtime dependency) skip themselves. -rs lists each skip with its reason, which the step's line names.
    # Each passed test is written down as it passes (outside the code folder, which each run copies anew); --resume
    # skips those that passed on the same code, so hours of emulated tests can be run in more than one sitting.
    local status=0 skipped resumed done=/var/lib/pi-check/tests-passed.txt
    run mkdir -p "$ROOT$(dirname "$done")" || return
    [ "$RESUME" = 1 ] || run rm -f "$ROOT$done" || return
    # TEST_PATIENCE: the tests that wait for a camera thread wait this many times longer (emulated Python is slow).
    local pytest="PI_CHECK_DONE=$done TEST_PATIENCE=30 .venv/bin/python -m pytest -q -rs -p no:cacheprovider"
    pytest+=" -p deploy.pi_check_resume${workers:+ $workers}"
    in_root sh -c "cd $PREFIX && $pytest -m 'not browser' $TESTS" || status=$?
    [ "$DRY_RUN" = 0 ] || return 0
    DETAIL="$TESTS: $(grep -E ' (passed|failed|error)' "$LOGS/tests.log" | tail -n 1 | tr -d '=' | xargs)"
    resumed=$(sed -n -E 's/^pi-check resume: ([0-9]+) passed before.*/\1/p' "$LOGS/tests.log")
    [ "${resumed:-0}" = 0 ] || DETAIL+=" (and $resumed passed in earlier runs on the same code, --resume)"
    [ -z "$workers" ] || DETAIL+=" ($JOBS workers)"
    # "SKIPPED [2] tests/vision/test_detector.py:130: could not import 'torch'..." -> "2 torch".
    skipped=$(sed -n -E "s/^SKIPPED \[([0-9]+)\] .*could not import '([^']+)'.*/\1 \2/p" "$LOGS/tests.log" |
        awk '{n[$2] += $1} END {for (m in n) printf "%s%d need %s", (i++ ? ", " : ""), n[m], m}')
    [ -z "$skipped" ] || DETAIL+=" (skipped: $skipped, not installed on a Pi)"
    return "$status"
}

cleanup() {
    local i
    stop_demo
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTED[i]}" 2>/dev/null || umount --lazy "${MOUNTED[i]}" || true
    done
}

# -- the run -----------------------------------------------------------------------------------------------------------

if [ "$DRY_RUN" = 1 ]; then
    echo "DRY RUN: nothing will be changed; this is the plan (root: $ROOT)."
else
    [ "$(id -u)" = 0 ] || { echo "pi-check.sh: needs root (debootstrap, chroot, mount): sudo $0" >&2; exit 1; }
    mkdir -p "$LOGS"
    exec 9>"$ROOT.lock"
    flock --nonblock 9 || { echo "pi-check.sh: another pi-check uses $ROOT" >&2; exit 1; }
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    echo "pi-check: $(date -u '+%Y-%m-%d %H:%M UTC'), arm64 Debian $SUITE root in $ROOT, logs in $LOGS"
fi
begun=$SECONDS

if step tools host_tools "apt-get install -y debootstrap qemu-user-static binfmt-support (a container: --privileged)" &&
    step root build_root "check the mirror ($MIRROR) is reachable; $0 --rebuild starts the root over" &&
    step mounts mount_root "umount what is left under $ROOT (mount | grep $ROOT), then run again" &&
    step copy copy_code "check that $SOURCE is a git checkout and $ROOT has space (df -h $ROOT)" &&
    step install install_pi "read install.log: install-pi.sh says which step failed and what to fix"; then
    step versions versions "a package in the venv is missing or too old; see versions.log"
    step doctor doctor "each FAIL line in doctor.log is followed by a fix: line"
    step detect detect "compare detect-arm64.json with detect-x86.json in $LOGS"
    step demo demo "run the demo in the root by hand: chroot $ROOT $PREFIX/.venv/bin/companion demo"
    step tests tests "the failing tests are in tests.log; run them on x86 first"
else
    [ "$DRY_RUN" = 1 ] || skip_rest versions doctor detect demo tests
fi

if [ "$DRY_RUN" = 1 ]; then
    echo "(dry run: nothing was changed)"
    exit 0
fi
total=$((SECONDS - begun))
{
    echo "pi-check $(date -u '+%Y-%m-%d %H:%M UTC'), $((total / 60)) min $((total % 60)) s, $(uname -m) host," \
        "$(git -C "$SOURCE" rev-parse --short HEAD):"
    printf '%s\n' "${RESULTS[@]}"
} >"$SUMMARY"
head -n 1 "$SUMMARY"  # the step lines were printed as they came
echo "summary in $SUMMARY"
exit "$FAILED"
