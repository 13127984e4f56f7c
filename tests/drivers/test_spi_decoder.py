"""The 74HC138's screens share one D/C line: a screen sets it and sends its
bytes without another screen's transfer in between."""

from __future__ import annotations

import threading

from drivers.sim.fake_spi import FakeGpio
from drivers.spi_decoder import DecodedSpi, Decoder

DC = 2


class Dev:
    """A spidev stand-in that records what each transfer was sent as."""

    def __init__(self, gpio: FakeGpio, decoder: Decoder, sent: list[tuple[int, int, list[int]]]) -> None:
        self.gpio, self.decoder, self.sent = gpio, decoder, sent
        self.max_speed_hz = 0
        self.mode = 0

    def open(self, port: int, device: int) -> None:
        pass

    def writebytes(self, data: list[int]) -> None:
        self.sent.append((self.decoder.output, self.gpio.levels.get(DC, -1), list(data)))


class Meddling(FakeGpio):
    """Where another thread runs between D/C being set and the bytes going out:
    ``meddle`` runs on a thread of its own when D/C is next set."""

    def __init__(self) -> None:
        super().__init__()
        self.meddle: threading.Thread | None = None

    def output(self, pin: int, value: int) -> None:
        super().output(pin, value)
        if pin == DC and self.meddle is not None:
            meddle, self.meddle = self.meddle, None
            meddle.start()
            meddle.join(0.2)  # blocked on the decoder's lock, it goes on afterwards


def test_another_screens_data_cannot_come_between_a_command_and_its_d_c_line():
    gpio = Meddling()
    decoder = Decoder((17, 27, 26), gpio=gpio)
    sent: list[tuple[int, int, list[int]]] = []
    screens = [DecodedSpi(decoder=decoder, select=n, spi=Dev(gpio, decoder, sent), gpio=gpio,
                          gpio_DC=DC, gpio_RST=None, bus_speed_hz=4_000_000) for n in (0, 1)]
    meddler = threading.Thread(target=screens[1].data, args=([0xAA, 0xBB],))
    gpio.meddle = meddler
    screens[0].command(0xAE)
    meddler.join(2)
    # each transfer went to its own screen with its own D/C level: command 0, data 1
    assert sorted(sent) == [(0, 0, [0xAE]), (1, 1, [0xAA, 0xBB])]
