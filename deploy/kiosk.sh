#!/bin/bash
# The Pi's own screen as the table's dashboard: Chromium in kiosk mode, opened only once the companion answers.
#
# Started from the desktop session (labwc's autostart on current Raspberry Pi OS, wayfire's on older Bookworm;
# deploy/install-pi.sh sets that up). It waits for /healthz because at boot the desktop is usually up before the
# companion has opened its camera and store, and a browser that opened too early shows an error page forever.
# If the browser exits or crashes, it waits for health again and reopens it. A screen switched off and on again
# (or another screen plugged in) makes it reopen the browser too: on Wayland (labwc, wayfire) the output goes away
# with the monitor, and Chromium comes back from that as a window of the wrong size, or not at all. Screens are
# watched as the kernel's DRM connectors see them (/sys/class/drm/*/status), the same under Wayland and X11.
#
# Settings (environment):
#   KIOSK_URL           the dashboard (default http://127.0.0.1:8080/)
#   KIOSK_HEALTH_URL    what must answer {"ok": true} first (default $KIOSK_URL/healthz)
#   KIOSK_TIMEOUT       give up after this many seconds of waiting (default 0: wait forever)
#   KIOSK_POLL_SECONDS  seconds between health checks (default 1)
#   KIOSK_BROWSER       the browser command (default chromium, or chromium-browser); tests use a stand-in
#   KIOSK_RESTART       1 (default): reopen the browser when it exits; 0: exit with the browser
#   KIOSK_WATCH_SECONDS seconds between looks at the browser and the screens (default 2)
#   KIOSK_PAUSE_SECONDS seconds before a browser is reopened, for the screen to settle (default 3)
#   KIOSK_SCREENS_CMD   a command printing the connected screens (default: the DRM connectors); tests use a stand-in
set -u

url=${KIOSK_URL:-http://127.0.0.1:8080/}
health=${KIOSK_HEALTH_URL:-${url%/}/healthz}
timeout=${KIOSK_TIMEOUT:-0}
poll=${KIOSK_POLL_SECONDS:-1}
restart=${KIOSK_RESTART:-1}
watch=${KIOSK_WATCH_SECONDS:-2}
pause=${KIOSK_PAUSE_SECONDS:-3}

say() { printf 'kiosk: %s\n' "$*" >&2; }

if [ -n "${KIOSK_BROWSER:-}" ]; then
    read -r -a browser <<<"$KIOSK_BROWSER"
elif command -v chromium >/dev/null 2>&1; then
    browser=(chromium)
elif command -v chromium-browser >/dev/null 2>&1; then
    browser=(chromium-browser)
else
    say "no browser found: sudo apt install chromium (or set KIOSK_BROWSER)"
    exit 1
fi

healthy() {
    local answer
    if command -v curl >/dev/null 2>&1; then
        answer=$(curl --silent --fail --max-time 3 "$health" 2>/dev/null) || return 1
    else
        answer=$(python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())' \
            "$health" 2>/dev/null) || return 1
    fi
    [[ $answer =~ \"ok\":\ *true ]]
}

# The connected screens, one name a line (e.g. card1-HDMI-A-1); empty when none is connected or known.
screens() {
    if [ -n "${KIOSK_SCREENS_CMD:-}" ]; then
        bash -c "$KIOSK_SCREENS_CMD" 2>/dev/null
        return 0
    fi
    local status
    for status in /sys/class/drm/card*-*/status; do
        [ -r "$status" ] && [ "$(cat "$status" 2>/dev/null)" = connected ] && basename "$(dirname "$status")"
    done
    return 0
}

browser_pid=""
stop_browser() {
    [ -n "$browser_pid" ] || return 0
    kill -TERM "$browser_pid" 2>/dev/null
    local waited=0
    # Chromium saves its profile on TERM; a new one started before the old has gone would hand over to it and exit.
    while kill -0 "$browser_pid" 2>/dev/null && [ "$waited" -lt 10 ]; do sleep 1; waited=$((waited + 1)); done
    kill -KILL "$browser_pid" 2>/dev/null
    wait "$browser_pid" 2>/dev/null
    browser_pid=""
}
trap 'stop_browser; exit 0' TERM INT HUP

wait_for_health() {
    local started=$SECONDS
    say "waiting for the companion at $health"
    until healthy; do
        if [ "$timeout" != 0 ] && [ $((SECONDS - started)) -ge "$timeout" ]; then
            say "the companion did not answer within ${timeout}s; is it running? systemctl status table-companion"
            return 1
        fi
        sleep "$poll"
    done
    say "the companion answers after $((SECONDS - started))s"
}

# After a power cut (or a browser stopped for a screen change) Chromium would offer to "restore pages" over the
# dashboard; tell it, before each start, that the last exit was clean.
prefs="${XDG_CONFIG_HOME:-$HOME/.config}/chromium/Default/Preferences"
clean_exit() {
    [ -f "$prefs" ] || return 0
    sed -i -e 's/"exited_cleanly":false/"exited_cleanly":true/' -e 's/"exit_type":"[^"]*"/"exit_type":"Normal"/' \
        "$prefs" || true
}

# Screen blanking: deploy/install-pi.sh turns it off for labwc and wayfire (raspi-config for X11); under X11 also here.
if [ -n "${DISPLAY:-}" ] && command -v xset >/dev/null 2>&1; then
    xset s off -dpms s noblank 2>/dev/null || true
fi

# raspi-config's "screen blanking on" is a swayidle in the labwc session; say so where the kiosk's log shows it.
if [ -n "${WAYLAND_DISPLAY:-}" ] && command -v pgrep >/dev/null 2>&1 && pgrep -u "$(id -u)" -x swayidle >/dev/null; then
    say "swayidle runs in this session, so the screen may blank:" \
        "sudo raspi-config, Display Options, Screen Blanking, No"
fi

while true; do
    wait_for_health || exit 1
    clean_exit
    seen=$(screens)  # before the browser starts: the screens it opens on
    say "opening $url with ${browser[0]}"
    "${browser[@]}" --kiosk --noerrdialogs --disable-infobars --no-first-run --disable-session-crashed-bubble \
        --check-for-update-interval=31536000 --password-store=basic --ozone-platform-hint=auto "$url" &
    browser_pid=$!
    changed=""
    while kill -0 "$browser_pid" 2>/dev/null; do
        sleep "$watch"
        now=$(screens)
        [ "$now" != "$seen" ] || continue
        if [ -z "$now" ]; then
            say "no screen is connected (${seen//$'\n'/ } went away); the browser reopens when one is back"
            seen=""
            continue
        fi
        was=${seen:-none}
        changed="the screens changed (${was//$'\n'/ } -> ${now//$'\n'/ })"
        break
    done
    if [ -n "$changed" ]; then
        say "$changed; reopening the browser so that it fills the screen"
        stop_browser
    else
        wait "$browser_pid"
        status=$?
        browser_pid=""
        [ "$restart" = 1 ] || exit "$status"
        say "the browser exited ($status); reopening"
    fi
    sleep "$pause"
done
