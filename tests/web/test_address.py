"""The page's address and QR code on the shared screen, when the web unit runs."""

from __future__ import annotations

import os
import queue
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from pi_app.session.lobby import Lobby
from pi_app.table import hardware, profile
from pi_app.ui.screens import render
from pi_app.web import address
from tests.system import need


@pytest.fixture
def units(tmp_path: Path) -> Path:
    """A stand-in for /run/systemd/units with the web unit running."""
    folder = tmp_path / "units"
    folder.mkdir()
    os.symlink("0123456789abcdef0123456789abcdef", folder / "invocation:tablekeeper-web.service")
    return folder


def env(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "web.env"
    path.write_text(text)
    return path


def test_no_address_while_the_web_unit_does_not_run(tmp_path: Path) -> None:
    assert address.page_url(tmp_path / "absent.env", tmp_path, hostname="table") is None


def test_the_address_follows_the_env_file(tmp_path: Path, units: Path) -> None:
    assert address.page_url(tmp_path / "absent.env", units, hostname="table") == "http://table.local:8080/"
    written = (Path(__file__).resolve().parents[2] / "systemd" / "install-web.sh").read_text()
    as_installed = written.split("<<'ENV'\n", 1)[1].split("\nENV\n", 1)[0]
    assert address.page_url(env(tmp_path, as_installed), units, hostname="table") == "http://table.local:8080/"
    port = env(tmp_path, "# a comment\nTABLEKEEPER_WEB_PORT=80\n")
    assert address.page_url(port, units, hostname="table") == "http://table.local/"
    lan = env(tmp_path, "TABLEKEEPER_WEB_HOST=192.0.2.7\nTABLEKEEPER_WEB_PORT=9000\n")
    assert address.page_url(lan, units, hostname="table") == "http://192.0.2.7:9000/"
    box_only = env(tmp_path, "TABLEKEEPER_WEB_HOST=127.0.0.1\n")
    assert address.page_url(box_only, units, hostname="table") is None
    named = env(tmp_path, 'TABLEKEEPER_WEB_URL="http://tavolo.example:8080/"\n')
    assert address.page_url(named, units, hostname="table") == "http://tavolo.example:8080/"


@pytest.mark.parametrize("url", ["http://raspberrypi.local:8080/", "http://a-long-table-name-at-the-club.local:8080/"])
def test_the_qr_code_reads_back_with_zbar(tmp_path: Path, url: str) -> None:
    img = address.qr_image(url)
    assert img.mode == "1" and img.height <= 64 and img.width == img.height
    assert zbar(img, tmp_path) == url


def test_the_address_breaks_between_names() -> None:
    assert address.short_lines("http://raspberrypi.local:8080/") == ("raspberrypi", ".local:8080")
    assert address.short_lines("http://192.0.2.7:9000/") == ("192.0.2.7:9000",)
    assert address.short_lines("http://[fd00::7]:8080/") == ("[fd00::7]:8080",)


def zbar(img: Image.Image, folder: Path) -> str:
    """What zbarimg (a decoder we did not write) reads in ``img``, enlarged as a camera sees it."""
    zbarimg = need("zbarimg", "zbar-tools")
    picture = folder / "qr.png"
    img.convert("L").resize((img.width * 4, img.height * 4)).save(picture)
    done = subprocess.run([zbarimg, "--quiet", "--raw", str(picture)], capture_output=True, text=True,
                          timeout=60)
    return done.stdout.strip()


def test_the_lobby_shows_the_page_as_its_last_choice(tmp_path: Path) -> None:
    table = hardware.build(profile.load(profile.find("sim")), queue.Queue(), poll=False)
    try:
        url = "http://table.local:8080/"
        lobby = Lobby(table, "it", page=url)
        shared = table.profile.shared_screen.name
        lobby.index = len(lobby.options) - 1
        assert lobby.press("seat1.right") is None
        layout = lobby.layouts()[shared]
        assert layout.title == "Segui la partita" and layout.lines == ("table", ".local:8080")
        assert layout.image is not None and layout.image.height <= 64
        assert zbar(render(layout), tmp_path) == url  # the whole shared screen, as a phone sees it
        assert lobby.press("seat1.ok") is None  # nothing to start here
        lobby.press("seat1.right")
        assert lobby.index == 0 and lobby.press("seat1.ok") is None  # then how many computers
        assert lobby.press("seat1.ok") == lobby.options[0]
        without = Lobby(table, "en")
        without.index = len(without.options) - 1
        without.press("seat1.right")
        assert without.index == 0  # no web unit: the games only
    finally:
        table.close()
