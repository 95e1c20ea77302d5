"""One TOML file per table: which game, which camera, which pins, where the data lives, the control PIN.

The file is validated completely at start, because a typo found at 10 pm during a game night is a typo found
too late. Every error names the file, the ``[section] key`` and what would be allowed. Defaults live in the
dataclasses below, so ``companion demo`` runs with no file at all (see :func:`demo_config`).

Example (``deploy/config.example.toml`` is the documented version)::

    control_pin = "2468"
    data_dir = "/var/lib/table-companion"

    [game]
    id = "..."        # one of the registry's game ids (companion/games/__init__.py)
"""

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from companion.games import DEFAULT_GAME, GAMES


class ConfigError(ValueError):
    """A config file that cannot be used; the message is meant for the person who edits the file."""


def choices(*allowed: Any, **meta: Any) -> dict[str, Any]:
    return {"choices": allowed, **meta}


@dataclass(frozen=True)
class GameConfig:
    id: str = field(default=DEFAULT_GAME, metadata=choices(*GAMES))
    language: str = field(default="de", metadata=choices("de", "nl", "en"))


@dataclass(frozen=True)
class CameraConfig:
    source: str = field(default="synthetic", metadata=choices("picamera2", "opencv", "replay", "synthetic"))
    device: int | str = 0
    """opencv: a device index (0 = /dev/video0) or a video file path."""
    path: str = ""
    """replay: a folder of images or a video file."""
    width: int = field(default=1280, metadata={"min": 160, "max": 4608})
    height: int = field(default=720, metadata={"min": 120, "max": 2592})
    fps: float = field(default=30.0, metadata={"min": 1, "max": 120})
    lens_position: float | None = None
    """picamera2 with autofocus: fixed focus in dioptres (1 / metres); None keeps continuous autofocus off at
    the position found while settling."""


@dataclass(frozen=True)
class TrayConfig:
    settle_seconds: float = field(default=0.6, metadata={"min": 0.0, "max": 10.0})
    min_confidence: float = field(default=0.8, metadata={"min": 0.0, "max": 1.0})
    """Dice below this confidence are marked on the dashboard and wait for a tap."""


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = True
    pin_factory: str = field(default="auto", metadata=choices("auto", "mock", "lgpio", "rpigpio", "native"))
    """auto: gpiozero's own choice on a Pi; mock: gpiozero's MockFactory (demo, laptops, tests)."""
    confirm: int = field(default=17, metadata={"min": 0, "max": 27})
    next: int = field(default=27, metadata={"min": 0, "max": 27})
    back: int = field(default=22, metadata={"min": 0, "max": 27})
    hold_seconds: float = field(default=1.0, metadata={"min": 0.2, "max": 10.0})
    led: int | None = field(default=None, metadata={"min": 0, "max": 27})
    buzzer: int | None = field(default=None, metadata={"min": 0, "max": 27})


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = field(default=8080, metadata={"min": 1, "max": 65535})
    threads: int = field(default=24, metadata={"min": 4, "max": 256})
    """Requests answered at once. Live dashboards hold none (companion.web.streams); a camera view holds one."""


@dataclass(frozen=True)
class Config:
    control_pin: str = field(repr=False, metadata={"required": True, "pattern": "4-8 digits", "secret": True})
    data_dir: Path = Path("data")
    game: GameConfig = GameConfig()
    camera: CameraConfig = CameraConfig()
    tray: TrayConfig = TrayConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    server: ServerConfig = ServerConfig()
    source: str = field(default="<defaults>", compare=False, metadata={"internal": True})


def load_config(path: str | Path) -> Config:
    """Read and validate a table's config file; raises :class:`ConfigError` naming the file and key."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file (start from deploy/config.example.toml)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    config = parse_config(raw, source=str(path))
    if not config.data_dir.is_absolute():
        config = dataclasses.replace(config, data_dir=(path.parent / config.data_dir).resolve())
    return config


def demo_config(data_dir: Path, *, host: str = "127.0.0.1", port: int = 8080, pin: str = "1234") -> Config:
    """The embedded defaults of ``companion demo``: synthetic camera, mock buttons, a local data folder."""
    return Config(
        control_pin=pin,
        data_dir=data_dir,
        camera=CameraConfig(source="synthetic", width=640, height=480),
        buttons=ButtonsConfig(pin_factory="mock"),
        server=ServerConfig(host=host, port=port),
    )


def parse_config(raw: dict[str, Any], *, source: str = "<config>") -> Config:
    config = _build(Config, raw, source, section="")
    return dataclasses.replace(config, source=source)


def _build(cls: type, raw: Any, source: str, section: str) -> Any:
    where = f"[{section}]" if section else "top level"
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: {where} must be a table, got {raw!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if not f.metadata.get("internal")}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ConfigError(
            f"{source}: unknown key {_key(section, unknown[0])}; allowed {where}: {', '.join(sorted(fields))}"
        )
    values = {}
    for name, f in fields.items():
        key = _key(section, name)
        if name not in raw:
            if f.metadata.get("required"):
                raise ConfigError(f"{source}: missing key {key} ({f.metadata.get('pattern', 'required')})")
            continue
        kind = hints[name]
        if dataclasses.is_dataclass(kind):
            values[name] = _build(kind, raw[name], source, name)
        else:
            values[name] = _check_value(kind, raw[name], f.metadata, source, key)
    return cls(**values)


def _key(section: str, name: str) -> str:
    return f"[{section}] {name}" if section else name


def _check_value(kind: Any, value: Any, meta: dict[str, Any], source: str, key: str) -> Any:
    allowed = typing.get_args(kind) if typing.get_origin(kind) in (Union, types.UnionType) else (kind,)
    converted = _convert(allowed, value)
    shown = "(hidden)" if meta.get("secret") else repr(value)  # errors go to the journal; a mistyped PIN is nearly it
    if converted is _INVALID:
        names = " or ".join("nothing" if t is type(None) else t.__name__ for t in allowed)
        raise ConfigError(f"{source}: {key} = {shown} has the wrong type; expected {names}")
    if "choices" in meta and converted not in meta["choices"]:
        raise ConfigError(f"{source}: {key} = {shown} is not allowed; choose one of {', '.join(meta['choices'])}")
    if isinstance(converted, int | float) and not isinstance(converted, bool):
        low, high = meta.get("min"), meta.get("max")
        if (low is not None and converted < low) or (high is not None and converted > high):
            raise ConfigError(f"{source}: {key} = {shown} is out of range; allowed {low}..{high}")
    if key == "control_pin" and not (str(converted).isdigit() and 4 <= len(str(converted)) <= 8):
        raise ConfigError(f"{source}: control_pin = {shown} must be 4 to 8 digits, as a string: \"2468\"")
    return converted


_INVALID = object()


def _convert(allowed: tuple[Any, ...], value: Any) -> Any:
    """Accept ``value`` if it fits one of the allowed types; TOML has no None, so None is never given."""
    for t in allowed:
        if t is bool and isinstance(value, bool):
            return value
        if isinstance(value, bool):
            continue
        if t is int and isinstance(value, int):
            return value
        if t is float and isinstance(value, int | float):
            return float(value)
        if t is str and isinstance(value, str):
            return value
        if t is Path and isinstance(value, str) and value:
            return Path(value).expanduser()
    return _INVALID
