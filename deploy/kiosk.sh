#!/bin/bash
# The Pi's own screen as the table's dashboard: Chromium in kiosk mode, opened only once the companion answers.
#
# Started from the desktop session (labwc's autostart on current Raspberry Pi OS, wayfire's on older Bookworm;
# deploy/install-pi.sh sets that up). It waits for /healthz because at boot the desktop is usually up before the
# companion has opened its camera and store, and a browser that opened too early shows an error page forever.
# If the browser exits or crashes, it waits for health again and reopens it.
#
# Settings (environment):
#   KIOSK_URL           the dashboard (default http://127.0.0.1:8080/)
#   KIOSK_HEALTH_URL    what must answer {"ok": true} first (default $KIOSK_URL/healthz)
#   KIOSK_TIMEOUT       give up after this many seconds of waiting (default 0: wait forever)
#   KIOSK_POLL_SECONDS  seconds between health checks (default 1)
#   KIOSK_BROWSER       the browser command (default chromium, or chromium-browser); tests use a stand-in
#   KIOSK_RESTART       1 (default): reopen the browser when it exits; 0: exit with the browser
set -u

url=${KIOSK_URL:-http://127.0.0.1:8080/}
health=${KIOSK_HEALTH_URL:-${url%/}/healthz}
timeout=${KIOSK_TIMEOUT:-0}
poll=${KIOSK_POLL_SECONDS:-1}
restart=${KIOSK_RESTART:-1}

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

# After a power cut Chromium would offer to "restore pages" over the dashboard; tell it the last exit was clean.
prefs="${XDG_CONFIG_HOME:-$HOME/.config}/chromium/Default/Preferences"
if [ -f "$prefs" ]; then
    sed -i -e 's/"exited_cleanly":false/"exited_cleanly":true/' -e 's/"exit_type":"[^"]*"/"exit_type":"Normal"/' \
        "$prefs" || true
fi

# Screen blanking: deploy/install-pi.sh turns it off with raspi-config; under X11 (old setups) also here.
if [ -n "${DISPLAY:-}" ] && command -v xset >/dev/null 2>&1; then
    xset s off -dpms s noblank 2>/dev/null || true
fi

while true; do
    wait_for_health || exit 1
    say "opening $url with ${browser[0]}"
    "${browser[@]}" --kiosk --noerrdialogs --disable-infobars --no-first-run --disable-session-crashed-bubble \
        --check-for-update-interval=31536000 --password-store=basic --ozone-platform-hint=auto "$url"
    status=$?
    [ "$restart" = 1 ] || exit "$status"
    say "the browser exited ($status); reopening"
    sleep 3
done
