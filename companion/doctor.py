"""``companion doctor``: check on the device that everything a table needs is there, and say how to fix what is not.

    sudo -u table-companion /opt/table-companion/.venv/bin/companion doctor --config /etc/table-companion/config.toml

Run it as the service's user: that is who must be able to write the data dir, open the camera and claim the
pins. Each check prints one line, ``OK``, ``FAIL`` (with a ``fix:`` line) or ``SKIP`` (it needs something that
failed before); the exit status is 1 if any check failed. With the service running, the camera and the pins are
busy (the companion owns them): stop it first to test those (``sudo systemctl stop table-companion``).

:func:`startup_report` is the short, cheap version printed when the companion starts: which camera, model, pin
factory and data dir are in use. It opens no hardware and never raises.
"""

from __future__ import annotations

import argparse
import http.client
import importlib
import importlib.util
import json
import os
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion import __version__
from companion.config import Config, ConfigError, load_config

DEFAULT_CONFIG = Path("/etc/table-companion/config.toml")
MIN_ONNXRUNTIME = (1, 22)
CHECKS = ("config", "data", "store", "onnxruntime", "rules", "models", "camera", "pins", "port")


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    status: str  # "OK" | "FAIL" | "SKIP"
    detail: str
    fix: str = ""

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def lines(self) -> list[str]:
        out = [f"{self.status:<5} {self.name}: {self.detail}"]
        if self.fix:
            out.append(f"      fix: {self.fix}")
        return out


def ok(name: str, detail: str) -> Check:
    return Check(name, "OK", detail)


def fail(name: str, detail: str, fix: str) -> Check:
    return Check(name, "FAIL", detail, fix)


def skip(name: str, detail: str) -> Check:
    return Check(name, "SKIP", detail)


# -- the command -------------------------------------------------------------------------------------------------------


def add_args(parser: argparse.ArgumentParser) -> None:
    """The options of ``companion doctor`` (the CLI calls this on its subparser)."""
    parser.add_argument(
        "--config", "-c", type=Path, default=DEFAULT_CONFIG, help=f"the table's config file (default {DEFAULT_CONFIG})"
    )
    parser.add_argument(
        "--skip", action="append", default=[], choices=CHECKS, metavar="CHECK",
        help=f"leave out a check (repeatable): {', '.join(CHECKS)}",
    )
    parser.add_argument(
        "--timeout", type=float, default=20.0, help="seconds to wait for the camera to deliver a frame (default 20)"
    )


def main(args: argparse.Namespace) -> int:
    """Run every check, print the report; 0 if none failed, 1 otherwise."""
    checks = list(run_checks(args.config, skip=set(args.skip), camera_timeout=args.timeout))
    failed = [c for c in checks if c.failed]
    print(f"companion doctor {__version__}")
    for check in checks:
        print("\n".join(check.lines()), flush=True)
    if failed:
        print(f"{len(failed)} of {len(checks)} checks failed: {', '.join(c.name for c in failed)}")
        return 1
    print(f"all {len(checks)} checks passed")
    return 0


def run_checks(config_path: Path, *, skip: set[str] = frozenset(), camera_timeout: float = 20.0) -> Iterator[Check]:
    """The checks in order; later ones that need the config are skipped when it does not load."""
    config_check, config = check_config(config_path)
    yield config_check
    steps: list[tuple[str, Callable[[Config], Check | list[Check]]]] = [
        ("data", check_data_dir),
        ("store", check_store),
        ("onnxruntime", lambda c: check_onnxruntime()),
        ("models", check_models),
        ("camera", lambda c: check_camera(c, timeout=camera_timeout)),
        ("pins", check_pins),
        ("port", check_port),
    ]
    for name, step in steps:
        if name in skip:
            yield Check(name, "SKIP", "left out (--skip)")
            continue
        if config is None and name != "onnxruntime":
            yield Check(name, "SKIP", "needs a config that loads")
            continue
        try:
            result = step(config)  # type: ignore[arg-type]
        except Exception as exc:  # a check that crashes is a failed check, not a crashed doctor
            result = fail(name, f"the check itself failed: {type(exc).__name__}: {exc}", "report this as a bug")
        yield from result if isinstance(result, list) else [result]


# -- checks ------------------------------------------------------------------------------------------------------------


def check_config(path: Path) -> tuple[Check, Config | None]:
    try:
        config = load_config(path)
    except ConfigError as exc:
        fix = (
            "sudo install -D -m 640 /opt/table-companion/deploy/config.example.toml " + str(path)
            if not Path(path).exists() else "edit the file; the message names the key and what is allowed"
        )
        return fail("config", str(exc), fix), None
    return ok("config", f"{path} (game {config.game.id}, camera {config.camera.source})"), config


def check_data_dir(config: Config) -> Check:
    data = Path(config.data_dir)
    owner = _owner(data)
    if not data.exists():
        parent = data.parent
        if os.access(parent, os.W_OK):
            return ok("data", f"{data} does not exist yet; it will be created at start (in {parent})")
        return fail("data", f"{data} does not exist and {parent} is not writable by {_whoami()}",
                    f"sudo install -d -o table-companion -g table-companion {data}")
    try:
        with tempfile.NamedTemporaryFile(dir=data, prefix=".doctor-"):
            pass
    except OSError as exc:
        return fail("data", f"{data} is not writable by {_whoami()} ({exc.strerror}; owner {owner})",
                    f"sudo chown -R table-companion:table-companion {data}")
    usage = os.statvfs(data)
    free_mb = usage.f_bavail * usage.f_frsize // 2**20
    if free_mb < 50:
        return fail("data", f"{data}: only {free_mb} MB free", "free some space on the SD card")
    return ok("data", f"{data} is writable by {_whoami()} (owner {owner}, {free_mb} MB free)")


def check_store(config: Config) -> Check:
    """Opens the event log *read-only* (immutable): a doctor run as root must not leave root-owned files behind."""
    import sqlite3

    from companion.store import SCHEMA_VERSION

    path = Path(config.data_dir) / "events.sqlite3"
    if not path.exists():
        return ok("store", f"{path} does not exist yet; the companion creates it at first start")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            games = db.execute("SELECT COUNT(*), SUM(finished IS NULL) FROM games").fetchone() if version else (0, 0)
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return fail("store", f"{path} cannot be read: {exc}",
                    f"restore it from a backup, or move it aside to start a fresh log: mv {path} {path}.broken")
    if version > SCHEMA_VERSION:
        return fail("store", f"{path} has schema {version}, newer than this companion ({SCHEMA_VERSION})",
                    "update the companion (see deploy/README.md, Updating)")
    if check != "ok":
        return fail("store", f"{path} is damaged: {check}", f"restore {path} from a backup")
    if not os.access(path, os.W_OK):
        return fail("store", f"{path} is not writable by {_whoami()} (owner {_owner(path)})",
                    f"sudo chown table-companion:table-companion {path}*")
    total, unfinished = games[0] or 0, games[1] or 0
    return ok("store", f"{path}: schema {version}, {total} games ({unfinished} unfinished)")


def check_onnxruntime() -> Check:
    try:
        ort = importlib.import_module("onnxruntime")
    except Exception as exc:  # 1.21 on a Pi 4 dies inside its import, not always with ImportError
        return fail("onnxruntime", f"cannot import onnxruntime: {type(exc).__name__}: {exc}",
                    "pip install 'onnxruntime>=1.22' in the companion's venv")
    version = getattr(ort, "__version__", "0")
    if _version_tuple(version) < MIN_ONNXRUNTIME:
        return fail("onnxruntime", f"version {version} is too old (1.21 crashes on import on a Pi 4)",
                    "/opt/table-companion/.venv/bin/pip install --upgrade 'onnxruntime>=1.22'")
    return ok("onnxruntime", f"{version} ({', '.join(ort.get_available_providers())})")


def models_dir() -> Path:
    """``models/`` beside the ``vision`` package (found without importing it)."""
    spec = importlib.util.find_spec("vision")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the vision package is not installed")
    return Path(spec.origin).resolve().parent.parent / "models"


def check_models(config: Config) -> list[Check]:
    from companion.games import get_game

    folder = models_dir()
    dice_set = get_game(config.game.id).dice_set
    wanted = folder / f"{dice_set}.onnx"
    files = sorted(folder.glob("*.onnx")) if folder.is_dir() else []
    checks: list[Check] = []
    if not wanted.exists():
        checks.append(fail(
            "models", f"no model for {config.game.id}'s dice: {wanted} is missing"
            + (f" (found: {', '.join(f.name for f in files)})" if files else f" ({folder} has no .onnx files)"),
            f"run `make models` in the checkout, or copy {dice_set}.onnx and {dice_set}.json into {folder}",
        ))
    for model in files:
        checks.append(_check_model(model))
    checks += [_check_taught(path, folder) for path in sorted(Path(config.data_dir).glob("enrol-*.npz"))]
    return checks


def _check_taught(path: Path, folder: Path) -> Check:
    """Dice taught at this table (the teach page): readable, and for which model."""
    from vision.card import load_card
    from vision.enrol import Enrolment

    dice_set = path.stem.removeprefix("enrol-")
    name = f"taught {dice_set}"
    try:
        counts = Enrolment.load(path, load_card(folder / f"{dice_set}.json")).counts()
    except Exception as exc:
        return fail(name, f"{path} is not usable: {exc}",
                    f"forget the taught dice on the Teach page, or delete {path.name}, then teach them again")
    return ok(name, f"{path}: " + ", ".join(f"{face} {n}" for face, n in counts.items()) + " examples")


def _check_model(model: Path) -> Check:
    """Opened as the camera opens it: the card, then its model in `vision.card.CardModel` (one thread)."""
    name = f"model {model.stem}"
    if model.name == "dice_detector.onnx":
        return _check_detector(model)
    card_path = model.with_suffix(".json")
    if not card_path.exists():
        return fail(name, f"{model} has no card {card_path.name} (labels and input format)",
                    f"copy {card_path.name} from the release or retrain with `make models`")
    try:
        from vision.card import CardModel, load_card

        card = load_card(card_path)
        session = CardModel(card, threads=1).session
        inputs = ", ".join(f"{i.name}{list(i.shape)}" for i in session.get_inputs())
    except Exception as exc:
        return fail(name, f"{model} does not load: {type(exc).__name__}: {exc}",
                    "re-copy the file (a truncated download?) or retrain with `make models`")
    return ok(name, f"{model} loads: input {inputs}, {len(card.labels)} labels")


def _check_detector(model: Path) -> Check:
    """The learned dice finder (`vision.detector`); without it the camera falls back to classical segmentation."""
    try:
        from vision.detector import Detector

        Detector.load(model)
    except Exception as exc:
        return fail("model dice_detector", f"{model} does not load: {type(exc).__name__}: {exc} (the camera finds "
                    "dice the classical way meanwhile, missing more of them)",
                    "re-copy the file (a truncated download?) or retrain with `python -m vision.train_detector`")
    return ok("model dice_detector", f"{model} loads: finds the dice of every set")


def check_camera(config: Config, *, timeout: float = 20.0) -> Check:
    """One frame through `vision.sources.open_source`, from the spec the camera itself is built from."""
    camera = config.camera
    result: list[Check] = []
    worker = threading.Thread(target=lambda: result.append(_probe(config)), name="doctor-camera", daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        return fail("camera", f"{camera.source} gave no frame within {timeout:g} s",
                    "check the cable and that no other program (or the running service) holds the camera")
    return result[0]


def _probe(config: Config) -> Check:
    from companion.camera import source_spec
    from companion.games import get_game
    from vision.sources import open_source

    kind = config.camera.source
    try:
        source = open_source(source_spec(config, get_game(config.game.id).dice_set))
        try:
            source.open()
            frame = source.read(timeout=5.0).image
        finally:
            source.close()
    except Exception as exc:  # a source raises SourceError; picamera2's import may raise anything (numpy)
        return fail("camera", f"{kind} cannot give a frame: {type(exc).__name__}: {exc}", _camera_fix(kind, str(exc)))
    what = {"synthetic": "synthetic (rendered dice, no hardware)", "replay": f"replay from {config.camera.path}",
            "opencv": f"opencv device {config.camera.device!r}", "picamera2": "picamera2"}[kind]
    return ok("camera", f"{what}, frame {frame.shape[1]}x{frame.shape[0]}")


def _camera_fix(kind: str, message: str) -> str:
    if kind == "picamera2":
        if "numpy" in message or "dtype" in message:  # numpy 2 in the venv breaks apt's simplejpeg
            return "/opt/table-companion/.venv/bin/pip install --force-reinstall simplejpeg (built for this numpy)"
        if "not installed" in message:
            return ("sudo apt install python3-picamera2 python3-libcamera (and create the venv with "
                    "--system-site-packages)")
        return ("check the ribbon cable (contacts towards the board on a Pi 4, the right connector on a Pi 5; "
                "`rpicam-hello --list-cameras` must list it); is the service running (it owns the camera)? "
                "sudo systemctl stop table-companion, then retry")
    if kind == "opencv":
        if "gave no frame" in message:
            return "another program may hold the camera (is the service running?)"
        return "plug in the webcam and check `ls /dev/video*`; the user must be in the video group"
    if kind == "replay":
        return "set [camera] path to a folder of images or a video file"
    return "see the message; the synthetic camera needs only the vision package"


def check_pins(config: Config) -> Check:
    from hw import pin_conflicts
    from hw.factory import HardwareError, factory_name, make_pin_factory

    buttons = config.buttons
    if not buttons.enabled:
        return ok("pins", "buttons disabled ([buttons] enabled = false)")
    problems = pin_conflicts(buttons)
    if problems:
        return fail("pins", problems[0], "edit [buttons] in the config")
    try:
        factory = make_pin_factory(buttons.pin_factory)
    except HardwareError as exc:
        return fail("pins", str(exc), 'on a Pi: sudo apt install python3-lgpio; elsewhere pin_factory = "mock"')
    try:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        claimed = []
        for key in ("confirm", "next", "back", "led", "buzzer"):
            pin = getattr(buttons, key)
            if pin is None:
                continue
            kind = DigitalOutputDevice if key in ("led", "buzzer") else DigitalInputDevice
            try:
                device = kind(pin, pin_factory=factory) if kind is DigitalOutputDevice else kind(
                    pin, pull_up=True, pin_factory=factory)
            except Exception as exc:
                return fail("pins", f"[buttons] {key} = GPIO{pin} cannot be claimed: {exc}",
                            "is the service running (it owns the pins)? else another program uses this GPIO")
            claimed.append(f"{key} GPIO{pin}" + (" (pressed!)" if kind is DigitalInputDevice and device.value else ""))
            device.close()
    finally:
        factory.close()
    return ok("pins", f"{factory_name(factory)}: {', '.join(claimed)}")


def check_port(config: Config) -> Check:
    host, port = config.server.host, config.server.port
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind((host, port))
    except OSError as exc:
        running = _companion_on(port)
        if running:
            return ok("port", f"{host}:{port} is served by a running companion ({running})")
        return fail("port", f"cannot listen on {host}:{port}: {exc.strerror}",
                    f"another program uses it (`sudo ss -ltnp 'sport = :{port}'`); or set [server] port")
    finally:
        probe.close()
    return ok("port", f"{host}:{port} is free")


def _companion_on(port: int) -> str | None:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        body = json.loads(response.read() or b"{}")
        connection.close()
    except (OSError, ValueError, http.client.HTTPException):
        return None
    return f"version {body.get('version')}" if response.status == 200 and body.get("ok") else None


# -- the start-up lines ------------------------------------------------------------------------------------------------


def startup_report(config: Config) -> list[str]:
    """What this start uses, one line each: camera, model, onnxruntime, buttons, data dir, server.

    Cheap and safe: nothing is opened or claimed, nothing raises. The companion logs these lines at start so
    the journal says what ran, and a wrong camera or a missing model is seen before the first roll.
    """
    lines = []
    camera = config.camera
    where = {"opencv": f" device {camera.device!r}", "replay": f" from {camera.path}"}.get(camera.source, "")
    lines.append(f"camera: {camera.source}{where}, {camera.width}x{camera.height} at {camera.fps:g} fps")
    lines.append(_guard(lambda: _model_line(config), "model"))
    lines.append(_guard(_onnxruntime_line, "onnxruntime"))
    buttons = config.buttons
    if buttons.enabled:
        extras = "".join(
            f", {k} GPIO{getattr(buttons, k)}" for k in ("led", "buzzer") if getattr(buttons, k) is not None
        )
        lines.append(
            f"buttons: pin factory {buttons.pin_factory}, confirm GPIO{buttons.confirm}, next GPIO{buttons.next}, "
            f"back GPIO{buttons.back} (hold {buttons.hold_seconds:g} s){extras}"
        )
    else:
        lines.append("buttons: off")
    lines.append(f"data dir: {config.data_dir}")
    lines.append(f"server: {config.server.host}:{config.server.port}, {config.server.threads} threads")
    return lines


def _model_line(config: Config) -> str:
    from companion.games import get_game

    dice_set = get_game(config.game.id).dice_set
    model = models_dir() / f"{dice_set}.onnx"
    if model.exists():
        return f"model: {model} ({model.stat().st_size // 1024} KB)"
    return f"model: MISSING {model} (dice set {dice_set}); `companion doctor` says how to fix it"


def _onnxruntime_line() -> str:
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None:
        return "onnxruntime: NOT INSTALLED"
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("onnxruntime")
    except PackageNotFoundError:
        found = "unknown version"
    warn = " (TOO OLD: need >= 1.22)" if _version_tuple(found) < MIN_ONNXRUNTIME else ""
    return f"onnxruntime: {found}{warn}"


def _guard(line: Callable[[], str], what: str) -> str:
    try:
        return line()
    except Exception as exc:
        return f"{what}: unknown ({type(exc).__name__}: {exc})"


# -- helpers -----------------------------------------------------------------------------------------------------------


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def _whoami() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


def _owner(path: Path) -> str:
    try:
        import pwd

        return pwd.getpwuid(path.stat().st_uid).pw_name
    except (ImportError, KeyError, OSError):
        return "?"


if __name__ == "__main__":  # python -m companion.doctor, before the CLI wires it in
    parser = argparse.ArgumentParser(prog="companion doctor", description=__doc__.split("\n\n")[0])
    add_args(parser)
    sys.exit(main(parser.parse_args()))
