"""The ``companion`` command. Each subcommand is a small function; errors meant for a person never show a traceback.

    companion demo                      # embedded defaults: synthetic camera, mock buttons, bots playing
    companion demo --humans 1           # the same, but the first seat is yours
    companion serve --config table.toml # a real table
    companion export --data-dir DIR     # a game's event log as JSON lines
    companion backup --config table.toml --to DIR   # a consistent copy of the data folder, while it runs
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from companion import __version__
from companion.config import Config, ConfigError, demo_config, load_config
from companion.games import DEFAULT_GAME, GAMES
from companion.lan import ALL_INTERFACES, tablet_urls
from companion.store import EventStore, StoreError, backup

log = logging.getLogger(__name__)

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A mistake in how the command was called; printed as one line, exit status 2."""


PASSTHROUGH = {"enrol": "vision.enrol_cli", "eval": "vision.evaluate"}
"""Commands whose own parser lives in vision/: everything after the command name is theirs."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in PASSTHROUGH:
        import importlib

        return importlib.import_module(PASSTHROUGH[argv[0]]).main(argv[1:])
    parser = build_parser(command=next((arg for arg in argv if not arg.startswith("-")), None))
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if getattr(args, "verbose", False) else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return args.handler(args)
    except (ConfigError, StoreError) as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion export | head`: the reader has seen enough
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the interpreter's final flush quiet
        return 0


VISION_COMMANDS = {
    "detect": "find and read the dice in photos (one JSON object per image)",
    "classify": "read already-cropped single-die images",
    "replay": "run a folder of frames or a video through the pipeline, one JSON reading per settled roll",
    "calibrate": "learn the empty tray (background and region) for a table",
}
"""Commands whose arguments vision/cli.py defines: it loads OpenCV and onnxruntime, which only they need."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; given the ``command`` to run, the vision commands' own arguments are loaded only for
    that one (``companion serve`` would wait for OpenCV otherwise)."""
    parser = argparse.ArgumentParser(prog="companion", description="A Raspberry Pi companion for dice racing games.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the companion for a real table from its config file")
    serve.add_argument("--config", "-c", type=Path, required=True, help="the table's TOML config file")
    serve.set_defaults(handler=cmd_serve)

    demo = commands.add_parser("demo", help="run with embedded defaults and bots playing (no config needed)")
    demo.add_argument("--host", default="127.0.0.1",
                      help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets tablets on "
                           "the LAN in, and the start-up lines and the kiosk's QR code give them the address)")
    demo.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080; 0 picks a free one)")
    demo.add_argument("--data-dir", type=Path, default=Path(".demo-data"), help="where the demo keeps its SQLite")
    demo.add_argument("--pin", default="1234", help="the demo table's control PIN (default 1234)")
    demo.add_argument("--game", default=DEFAULT_GAME, help=f"which game the bots play (default {DEFAULT_GAME})")
    demo.add_argument("--delay", type=float, default=0.8, help="seconds between bot actions")
    demo.add_argument("--humans", type=int, default=0, metavar="N",
                      help="the first N seats of the demo's games are people's, the others bots' (default 0: the "
                           "bots play every seat; a game from New game has the seats chosen there)")
    demo.set_defaults(handler=cmd_demo)

    from companion import doctor

    for name, text in VISION_COMMANDS.items():
        sub = commands.add_parser(name, help=text)
        if command not in (None, name):
            continue
        from vision import cli as vision_cli

        getattr(vision_cli, f"add_{name}_args")(sub)
        sub.set_defaults(handler=getattr(vision_cli, f"{name}_main"))
        if name == "calibrate":
            for action in sub._actions:
                if action.dest == "data_dir":
                    action.required = False
                    action.help = "where tray.json and tray.png go (default: the config's data dir + /tray)"
            sub.add_argument("--config", "-c", type=Path, help="the table's config: its camera and data dir are used")
            sub.set_defaults(handler=cmd_calibrate)

    for name, text in [("enrol", "teach the companion your own dice (add, remove, list, reset examples)"),
                       ("eval", "accuracy per class and confusion matrix on YOLO-labelled photos")]:
        sub = commands.add_parser(name, help=text, add_help=False)
        sub.add_argument("argv", nargs=argparse.REMAINDER, help=f"see `companion {name} --help`")
        sub.set_defaults(handler=None)  # never reached: main() hands these to PASSTHROUGH first

    check = commands.add_parser("doctor", help="check this device: config, data dir, store, models, camera, pins")
    doctor.add_args(check)
    check.set_defaults(handler=doctor.main)

    rules = commands.add_parser("rules", help="settle a rule dispute: apply one turn to a position, print the result")
    rules.add_argument("game", choices=sorted(GAMES), help="the game")
    rules.add_argument("what", choices=["apply"], help="apply: play one turn from a position")
    rules.add_argument("--position", type=Path, required=True, help="Position JSON file (see the game's README)")
    rules.add_argument("--turn", type=Path, required=True, help="Turn JSON file (see the game's README)")
    rules.set_defaults(handler=cmd_rules)

    copy = commands.add_parser("backup", help="copy the data folder (event log, calibration, taught dice) while the "
                                              "companion runs")
    where = copy.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", "-c", type=Path, help="the table's config file (its data dir is copied)")
    where.add_argument("--data-dir", type=Path, help="the data dir to copy")
    copy.add_argument("--to", type=Path, required=True, help="a new (or empty) folder for the copy, outside the data "
                                                             "dir; it can serve as a data dir as it is")
    copy.set_defaults(handler=cmd_backup)

    export = commands.add_parser("export", help="write a game's event log as JSON lines")
    where = export.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", "-c", type=Path, help="the table's config file (its data dir is used)")
    where.add_argument("--data-dir", type=Path, help="a data dir holding events.sqlite3")
    export.add_argument("--game", type=int, help="game number (default: the latest)")
    export.add_argument("--list", action="store_true", help="list the games instead")
    export.set_defaults(handler=cmd_export)
    return parser


def _run_until_signal(config: Config, *, bots: bool, pin_from: str, game: str | None = None,
                      delay: float = 0.8, humans: int = 0) -> int:
    """Serve until SIGTERM or Ctrl-C. The start-up lines never hold the PIN (on a Pi they are the journal, which
    other users read): ``pin_from`` says where to find it."""
    from companion import doctor, runtime
    from hw import systemd

    if game is not None:
        from dataclasses import replace

        config = replace(config, game=replace(config.game, id=game))
    companion = runtime.build(config, devices=False)
    if bots:
        runtime.start_bots(companion, delay=delay, humans=humans, between=runtime.EVENING_SECONDS)
    signal.signal(signal.SIGTERM, _interrupt)
    try:  # a stop during the start-up lines stops as cleanly as one while serving
        print(f"Table companion {__version__}: dashboard at {companion.url}  (control PIN: shown on the kiosk "
              f"page, or {pin_from})")
        tablets = tablet_urls(companion.server.host, companion.server.port)
        print(_where_tablets_open(companion.server.host, tablets))
        sys.stdout.flush()

        def report() -> None:  # what this start uses (the journal's record), once the server has answered
            print("\n".join(doctor.startup_report(config)), flush=True)

        companion.watchdog = systemd.Watchdog(check=companion.session.snapshot).start()  # no-op outside systemd
        systemd.notify("READY=1", f"STATUS=dashboard at {' '.join(tablets) or companion.url}")
        companion.start_devices_soon(report=report)  # the report, the pins, the camera: after the first answer
        companion.server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        systemd.notify("STOPPING=1")
        companion.stop()
        # The journal's last word on a stop: without it a clean stop and a hang killed by systemd look alike.
        log.info("stopped: the event log is closed")
    return 0


def _where_tablets_open(host: str, urls: list[str]) -> str:
    """The start-up line tablets and phones need: the address a person types or the kiosk's QR code holds."""
    if urls:
        return f"On tablets and phones on this network: {'  '.join(urls)}  (or scan the QR code on the kiosk page)"
    if host in ALL_INTERFACES:
        return "No network address yet: tablets can open the dashboard once this machine is on the network"
    return (f"Only this machine can open it: tablets can't reach {host} (listen on all interfaces with "
            f"--host 0.0.0.0, or host = \"0.0.0.0\" under [server] in a table's config)")


def _interrupt(signum: int, frame: object) -> None:
    """systemd stops us with SIGTERM: unwind like Ctrl-C so the store closes cleanly."""
    raise KeyboardInterrupt


def cmd_serve(args: argparse.Namespace) -> int:
    return _run_until_signal(load_config(args.config), bots=False, pin_from=f"control_pin in {args.config}")


def cmd_demo(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        raise UsageError(f"unknown game {args.game!r}; choose one of {', '.join(sorted(GAMES))}")
    from companion.runtime import demo_options

    seats = len(demo_options(args.game)["players"])
    if not 0 <= args.humans <= seats:
        raise UsageError(f"--humans {args.humans}: the demo has {seats} seats, give 0 to {seats}")
    config = demo_config(args.data_dir.resolve(), host=args.host, port=args.port, pin=args.pin)
    return _run_until_signal(config, bots=True, pin_from="--pin (companion demo --help)", game=args.game,
                             delay=args.delay, humans=args.humans)


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}") from None


def cmd_rules(args: argparse.Namespace) -> int:
    """The game's ``scenario`` hook: exit 1 with the rule for a turn the rules forbid, 2 for a malformed file."""
    from companion.games import get_game
    from companion.games.base import IllegalAction

    scenario = getattr(get_game(args.game), "scenario", None)
    if scenario is None:
        raise UsageError(f"{args.game} has no scenario command")
    position, turn = _read_json(args.position), _read_json(args.turn)
    try:
        result = scenario(position, turn)
    except IllegalAction as exc:
        print(json.dumps({"error": str(exc), "rule": exc.rule, "legal": exc.legal}), file=sys.stderr)
        return 1
    except ValueError as exc:  # a malformed position or turn: names the key
        raise UsageError(str(exc)) from None
    print(json.dumps(result, indent=2))
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.camera import TRAY_DIR, source_spec
    from companion.games import get_game
    from vision import cli as vision_cli

    if args.config is not None:
        config = load_config(args.config)
        if args.data_dir is None:
            args.data_dir = str(config.data_dir / TRAY_DIR)
        if args.camera is None and not args.image:
            args.camera = json.dumps(source_spec(config, get_game(config.game.id).dice_set))
    if args.data_dir is None:
        raise UsageError("give --config table.toml or --data-dir DIR")
    return vision_cli.calibrate_main(args)


def cmd_backup(args: argparse.Namespace) -> int:
    data_dir = load_config(args.config).data_dir if args.config else args.data_dir
    if not Path(data_dir).is_dir():
        raise UsageError(f"{data_dir}: no data dir here")
    owner = Path(data_dir).stat().st_uid
    if os.geteuid() != owner:  # root's copy would leave root-owned -wal and -shm files the service cannot open
        import pwd

        try:
            name = pwd.getpwuid(owner).pw_name
        except KeyError:
            name = str(owner)
        raise UsageError(f"run it as the data dir's owner: sudo -u {name} companion backup ...")
    games, events = backup(data_dir, args.to)
    print(f"copied {data_dir} to {args.to}: {games} games, {events} events, the event log checked")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    data_dir = load_config(args.config).data_dir if args.config else args.data_dir
    path = Path(data_dir) / "events.sqlite3"
    if not path.exists():
        raise UsageError(f"{path}: no event store here")
    store = EventStore(path)
    games = store.games()
    if args.list:
        for record in games:
            state = "finished" if record.finished else "unfinished"
            events = len(store.events(record.id))
            print(json.dumps({"game": record.id, "id": record.game, "state": state, "events": events}))
        return 0
    if not games:
        raise UsageError(f"{path}: no games recorded yet")
    number = args.game if args.game is not None else games[-1].id
    try:
        for line in store.export_jsonl(number):
            print(line)
    except KeyError:
        raise UsageError(f"no game {number}; games here: {', '.join(str(g.id) for g in games)}") from None
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
