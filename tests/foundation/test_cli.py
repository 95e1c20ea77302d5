"""The `companion` command as an operator meets it: help everywhere, clear errors, a demo that comes alive."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.cli import build_parser, main

COMMANDS = ["serve", "demo", "export", "backup", "rules", "doctor", "detect", "classify", "replay", "calibrate",
            "enrol", "eval"]


def companion(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60, **kw)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "usage: companion " + command in capsys.readouterr().out


def test_parser_lists_every_command():
    assert set(COMMANDS) <= set(build_parser()._subparsers._group_actions[0].choices)


def test_serve_with_a_bad_config_exits_2_naming_file_and_key(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('control_pin = "2468"\n[server]\nport = 99999\n')
    result = companion("serve", "--config", str(config))
    assert result.returncode == 2
    assert f"{config}: [server] port = 99999 is out of range" in result.stderr
    assert "Traceback" not in result.stderr


def test_export_of_a_missing_store_is_a_clear_error(tmp_path):
    result = companion("export", "--data-dir", str(tmp_path))
    assert result.returncode == 2 and "no event store here" in result.stderr


@pytest.mark.parametrize("game", ["chariot-race", "hexenrennen"])
def test_demo_prints_its_url_and_serves_a_live_game_then_export_reads_it(tmp_path, game):
    data = tmp_path / "demo"
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--port", "0", "--data-dir", str(data), "--delay", "0.05",
         "--game", game],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        url = re.search(r"dashboard at (http://\S+)", demo.stdout.readline()).group(1)
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "<title>" in page and "/static/table.js" in page
        deadline = time.monotonic() + 20
        seq = 0
        while seq < 5 and time.monotonic() < deadline:
            seq = json.load(urllib.request.urlopen(url + "api/state", timeout=10))["seq"]
            time.sleep(0.1)
        assert seq >= 5, "the bots did not play"
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=20) == 0

    listing = companion("export", "--data-dir", str(data), "--list")
    games = [json.loads(line) for line in listing.stdout.splitlines()]
    assert games and games[0]["id"] == game
    exported = companion("export", "--data-dir", str(data), "--game", str(games[0]["game"]))
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert lines[0]["kind"] == "game" and all(line["kind"] == "event" for line in lines[1:])


def start_demo(tmp_path, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """A demo on a free port and its first two start-up lines: where it serves, and where tablets open it."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--port", "0", "--data-dir", str(tmp_path / "demo"), *args],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return demo, [demo.stdout.readline(), demo.stdout.readline()]


def test_demo_on_all_interfaces_prints_every_lan_url_and_each_answers(tmp_path):
    from companion.lan import lan_addresses

    demo, (first, tablets) = start_demo(tmp_path, "--host", "0.0.0.0")
    try:
        port = re.search(r"dashboard at http://127.0.0.1:(\d+)/", first).group(1)
        urls = re.findall(r"http://\S+/", tablets)
        assert tablets.startswith("On tablets and phones on this network:")
        assert urls == [f"http://{address}:{port}/" for address in lan_addresses()] and urls
        for url in urls:
            assert urllib.request.urlopen(url + "healthz", timeout=10).status == 200
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=20) == 0


def test_demo_on_loopback_says_tablets_cannot_reach_it_and_how_to_let_them(tmp_path):
    demo, (_, tablets) = start_demo(tmp_path)  # companion demo's own default: 127.0.0.1
    try:
        assert "tablets can't reach 127.0.0.1" in tablets and "--host 0.0.0.0" in tablets
        assert "http://" not in tablets
    finally:
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(timeout=20) == 0


def test_sigterm_stops_a_playing_demo_with_screens_open_cleanly_and_says_so(tmp_path):
    """As systemd stops the companion: exit 0, the open screens' streams ended, and a log with no traceback (a
    stream thread's `OSError: [Errno 9] Bad file descriptor` once followed the stop) that ends saying so."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--port", "0", "--data-dir", str(tmp_path / "demo"), "--delay",
         "0.02"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        url = re.search(r"dashboard at (http://\S+)", demo.stdout.readline()).group(1)
        screens = [urllib.request.urlopen(url + "api/stream", timeout=10) for _ in range(3)]
        assert all(screen.readline().startswith(b"id: ") for screen in screens)  # each screen's hello
        deadline = time.monotonic() + 20
        while json.load(urllib.request.urlopen(url + "api/state", timeout=10))["seq"] < 5:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.05)
    finally:
        demo.send_signal(signal.SIGTERM)
        _, log = demo.communicate(timeout=30)
    assert demo.returncode == 0
    assert "Traceback" not in log and "Error" not in log, log
    assert log.rstrip().endswith("stopped: the event log is closed"), log
    for screen in screens:
        while screen.read(65536):  # what was sent before the stop, then the end of the stream
            pass
        screen.close()


JULIA_POSITION = {
    "board": "A", "variants": {}, "caltrops": ["L2-09"], "order": ["green", "red"],
    "chariots": [{"id": "green", "space": "L2-07", "damage": 11, "speed": 6, "fortune": 0, "laps": 0},
                 {"id": "red", "space": "L1-05", "damage": 12, "speed": 4, "fortune": 3, "laps": 0}],
}


def test_rules_apply_prints_the_resulting_position_and_events(tmp_path):
    position, turn = tmp_path / "p.json", tmp_path / "t.json"
    position.write_text(json.dumps(JULIA_POSITION))
    turn.write_text(json.dumps({"chariot": "green", "repair": False, "dice": ["drive", "drive", "gallop", "steer"],
                                "drive": [1, -1], "path": ["straight"] * 8, "attacks": []}))
    result = companion("rules", "chariot-race", "apply", "--position", str(position), "--turn", str(turn))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    green = next(c for c in out["position"]["chariots"] if c["id"] == "green")
    # speed 6 + 1 - 1 + 2 = 8, gallop -1, caltrop on L2-09 -1, curve L2-14 (max 7) at speed 8 -1
    assert (green["speed"], green["damage"], green["space"]) == (8, 8, "L2-15")
    assert out["position"]["caltrops"] == []
    assert {"caltrop_hit", "curve_damage"} <= {e["type"] for e in out["events"]}


def test_rules_apply_names_the_broken_rule_and_exits_1(tmp_path):
    position, turn = tmp_path / "p.json", tmp_path / "t.json"
    position.write_text(json.dumps(JULIA_POSITION))
    turn.write_text(json.dumps({"chariot": "green", "repair": False, "dice": ["drive", "drive", "gallop", "fortune"],
                                "drive": [1, -1], "path": ["straight"] * 7 + ["in"], "attacks": []}))
    result = companion("rules", "chariot-race", "apply", "--position", str(position), "--turn", str(turn))
    assert result.returncode == 1
    assert json.loads(result.stderr)["rule"] == "CR-16"


def test_rules_apply_with_a_malformed_position_names_the_field(tmp_path):
    position, turn = tmp_path / "p.json", tmp_path / "t.json"
    position.write_text(json.dumps({**JULIA_POSITION, "board": "Z"}))
    turn.write_text("{}")
    result = companion("rules", "chariot-race", "apply", "--position", str(position), "--turn", str(turn))
    assert result.returncode == 2 and "board" in result.stderr and "Traceback" not in result.stderr


def test_rules_apply_refuses_a_misspelt_key_instead_of_dropping_what_it_holds(tmp_path):
    position, turn = tmp_path / "p.json", tmp_path / "t.json"
    position.write_text(json.dumps(JULIA_POSITION))
    turn.write_text(json.dumps({"chariot": "green", "dice": ["attack", "drive", "gallop", "steer"], "drive": [1],
                                "path": ["straight"] * 8, "attack": [{"spear": "red"}]}))
    result = companion("rules", "chariot-race", "apply", "--position", str(position), "--turn", str(turn))
    assert result.returncode == 2 and result.stdout == ""
    assert "turn.attack: unknown key (did you mean 'attacks'?)" in result.stderr


def test_rules_offers_every_registered_game():
    from companion.games import GAMES

    rules = build_parser()._subparsers._group_actions[0].choices["rules"]
    game = next(action for action in rules._actions if action.dest == "game")
    assert sorted(game.choices) == sorted(GAMES)
