"""A bad config line must name the file, the key and what is allowed."""

from pathlib import Path

import pytest

from companion.config import Config, ConfigError, load_config

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_example_config_is_valid_and_complete():
    config = load_config(EXAMPLE)
    assert config.game.id == "chariot-race"
    assert config.camera.source == "picamera2"
    assert config.buttons.confirm == 17


def test_minimal_config_takes_defaults_and_resolves_data_dir_beside_the_file(tmp_path):
    config = load_config(write(tmp_path, 'control_pin = "2468"\ndata_dir = "data"\n'))
    assert config.data_dir == (tmp_path / "data").resolve()
    assert config.server.port == 8080
    assert isinstance(config, Config)


def test_missing_key_names_the_key_and_the_file(tmp_path):
    path = write(tmp_path, "[game]\nid = 'chariot-race'\n")
    with pytest.raises(ConfigError, match=r"table\.toml: missing key control_pin"):
        load_config(path)


def test_wrong_type_names_section_key_and_expected_type(tmp_path):
    path = write(tmp_path, 'control_pin = "2468"\n[server]\nport = "eighty"\n')
    with pytest.raises(ConfigError) as error:
        load_config(path)
    message = str(error.value)
    assert str(path) in message and "[server] port" in message and "expected int" in message


def test_unknown_key_lists_the_allowed_keys(tmp_path):
    path = write(tmp_path, 'control_pin = "2468"\n[camera]\nsorce = "opencv"\n')
    with pytest.raises(ConfigError, match=r"unknown key \[camera\] sorce; allowed \[camera\]: .*source"):
        load_config(path)


def test_unknown_section_is_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"unknown key kamera; allowed top level: .*camera"):
        load_config(write(tmp_path, 'control_pin = "2468"\n[kamera]\nsource = "opencv"\n'))


def test_value_outside_the_choices_lists_them(tmp_path):
    path = write(tmp_path, 'control_pin = "2468"\n[camera]\nsource = "webcam"\n')
    with pytest.raises(ConfigError, match=r"\[camera\] source = 'webcam' is not allowed; choose one of picamera2"):
        load_config(path)


def test_pin_out_of_range_is_refused(tmp_path):
    with pytest.raises(ConfigError, match=r"\[buttons\] confirm = 40 is out of range; allowed 0..27"):
        load_config(write(tmp_path, 'control_pin = "2468"\n[buttons]\nconfirm = 40\n'))


def test_control_pin_must_be_digits_in_a_string(tmp_path):
    with pytest.raises(ConfigError, match="control_pin"):
        load_config(write(tmp_path, "control_pin = 2468\n"))
    with pytest.raises(ConfigError, match="4 to 8 digits"):
        load_config(write(tmp_path, 'control_pin = "12"\n'))


def test_broken_toml_names_the_file(tmp_path):
    with pytest.raises(ConfigError, match=r"table\.toml: not valid TOML"):
        load_config(write(tmp_path, "control_pin = \n"))


def test_a_missing_file_says_where_to_start(tmp_path):
    with pytest.raises(ConfigError, match="config.example.toml"):
        load_config(tmp_path / "nope.toml")
