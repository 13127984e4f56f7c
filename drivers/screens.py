"""128x64 OLED screens on luma.oled: SSD1306 or SH1106, on I2C (0x3C/0x3D, optionally behind
a TCA9548A multiplexer) or SPI. A screen sends a frame only when it differs from the last one,
and then only the changed column window of each changed page (:mod:`drivers.oled_devices`),
each window's data in one I2C transaction: a full frame is 1,024 bytes, about 24 ms on a
400 kHz I2C bus.

Build one with :func:`open_oled` (real) or :func:`drivers.sim.screens.simulated_oled`
(luma's dummy device, every frame kept); both give an :class:`OledScreen`.
"""

from __future__ import annotations

import contextlib
import errno
import queue
import threading
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from drivers.base import ScreenError

DRIVERS = ("ssd1306", "sh1106")
I2C_ADDRESSES = (0x3C, 0x3D)
MUX_ADDRESSES = tuple(range(0x70, 0x78))
SIZE = (128, 64)
#: SPI clock per controller: the datasheets' shortest clock cycle at 3.3 V
#: (SH1106 250 ns, SSD1306 100 ns), rounded down to a speed luma accepts
SPI_HZ = {"sh1106": 4_000_000, "ssd1306": 8_000_000}
#: how long an SPI screen's reset line is held low, and the wait after it
#: (SH1106 and SSD1306 datasheets: a low pulse of at least 3-10 us)
RESET_SECONDS = 0.001


class Tca9548a:
    """A TCA9548A I2C multiplexer: one of eight downstream channels is connected at a time."""

    def __init__(self, bus: Any, address: int = 0x70, where: str = "I2C") -> None:
        if address not in MUX_ADDRESSES:
            raise ValueError(
                f"TCA9548A address 0x{address:02X} is not between 0x70 and 0x77 (set by its A0-A2 pins)"
            )
        self.bus = bus
        self.address = address
        self.where = where
        self.channel: int | None = None
        self.selects = 0
        self.lock = threading.RLock()  # screens on different threads share the mux

    def select(self, channel: int, force: bool = False) -> None:
        if not 0 <= channel <= 7:
            raise ValueError(f"TCA9548A channel {channel} is not between 0 and 7")
        if channel == self.channel and not force:
            return
        try:
            self.bus.write_byte(self.address, 1 << channel)
        except OSError as err:
            self.channel = None
            raise ScreenError(
                f"the TCA9548A at 0x{self.address:02X} on {self.where} did not answer: {err};"
                " check its power, SDA/SCL and address pins"
            ) from err
        self.channel = channel
        self.selects += 1


class MuxedBus:
    """An smbus-like bus for luma that switches the mux to its channel before every transaction."""

    def __init__(self, mux: Tca9548a, channel: int) -> None:
        if not 0 <= channel <= 7:
            raise ValueError(f"TCA9548A channel {channel} is not between 0 and 7")
        self.mux = mux
        self.channel = channel

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        with self.mux.lock:
            self.mux.select(self.channel)
            self.mux.bus.write_i2c_block_data(address, register, data)

    def i2c_rdwr(self, *messages: Any) -> None:
        with self.mux.lock:
            self.mux.select(self.channel)
            self.mux.bus.i2c_rdwr(*messages)

    def close(self) -> None:
        pass  # the shared bus is closed by its owner


class BusSender:
    """Sends the frames of one bus's screens from a thread of its own, in the
    order they were shown, so that the session draws the next screen's frame
    while this one's is on the wire: the kernel holds no Python lock during
    a transfer (smbus2's and spidev's ioctls release it), and a 400 kHz I2C
    frame is some 20 ms of wire. :meth:`wait` returns once all are sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"{self.name} sender", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def wait(self) -> None:
        self._jobs.join()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                job()  # a job catches its own screen's faults (OledScreen._send)
            finally:
                self._jobs.task_done()

    def close(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(timeout=5.0)


class I2cBuses:
    """Opens each I2C bus and each multiplexer once, for all the screens on
    them; with ``threaded``, each bus (an SPI one too) has a
    :class:`BusSender` its screens send through (default: on the real
    buses, not on the ``opener``'s, whose tests count what a ``show`` sent)."""

    def __init__(self, opener: Callable[[int], Any] | None = None, threaded: bool | None = None) -> None:
        self._opener = opener
        self._buses: dict[int, Any] = {}
        self._muxes: dict[tuple[int, int], Tca9548a] = {}
        self.threaded = opener is None if threaded is None else threaded
        self._senders: dict[str, BusSender] = {}
        self._decoders: dict[tuple[int, ...], Any] = {}

    def decoder(self, pins: tuple[int, int, int]) -> Any:
        """The one :class:`drivers.spi_decoder.Decoder` on these address pins,
        shared by every screen behind it."""
        from drivers.spi_decoder import Decoder

        key = tuple(pins)
        if key not in self._decoders:
            self._decoders[key] = Decoder(pins)
        return self._decoders[key]

    def sender(self, bus: str) -> BusSender | None:
        """The sender of ``bus`` ("i2c-1", "spi-0"); None when not threaded."""
        if not self.threaded:
            return None
        if bus not in self._senders:
            self._senders[bus] = BusSender(bus)
        return self._senders[bus]

    def bus(self, port: int) -> Any:
        if port not in self._buses:
            if self._opener is not None:
                self._buses[port] = self._opener(port)
            else:
                import smbus2

                try:
                    self._buses[port] = smbus2.SMBus(port)
                except OSError as err:
                    raise ScreenError(
                        f"cannot open /dev/i2c-{port}: {err}; enable I2C (dtparam=i2c_arm=on)"
                        " and add the user to the i2c group"
                    ) from err
        return self._buses[port]

    def mux(self, port: int, address: int) -> Tca9548a:
        key = (port, address)
        if key not in self._muxes:
            self._muxes[key] = Tca9548a(self.bus(port), address, where=f"/dev/i2c-{port}")
        return self._muxes[key]

    def close(self) -> None:
        for sender in self._senders.values():
            sender.close()  # what is queued is sent first
        self._senders.clear()
        for bus in self._buses.values():
            close = getattr(bus, "close", None)
            if close is not None:
                close()
        self._buses.clear()
        self._muxes.clear()
        for decoder in self._decoders.values():
            with contextlib.suppress(Exception):  # best effort: the pins are let go
                decoder.close()
        self._decoders.clear()


def pattern_frame(size: tuple[int, int], label: str) -> Image.Image:
    """A frame to check a screen by eye: border, corner marks, a checker strip and the part's name."""
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    for x, y in ((2, 2), (width - 7, 2), (2, height - 7), (width - 7, height - 7)):
        draw.rectangle((x, y, x + 4, y + 4), fill=1)
    for x in range(10, width - 10, 4):
        for y in range(height - 14, height - 6, 4):
            if (x // 4 + y // 4) % 2 == 0:
                draw.rectangle((x, y, x + 3, y + 3), fill=1)
    draw.text((10, 8), label[:20], fill=1)
    draw.text((10, 24), f"{width}x{height} ok", fill=1)
    return image


def pattern_text(size: tuple[int, int], label: str) -> str:
    """The words :func:`pattern_frame` draws."""
    return f"{label[:20]}\n{size[0]}x{size[1]} ok"


class OledScreen:
    """A Screen over any luma device (real OLED or dummy)."""

    def __init__(
        self,
        name: str,
        device: Any,
        *,
        where: str = "",
        before_frame: Callable[[], None] | None = None,
        lock: Any = None,
        sender: BusSender | None = None,
    ) -> None:
        self.name = name
        self.device = device
        self.where = where or type(device).__name__
        self.size: tuple[int, int] = (int(device.width), int(device.height))
        self._before_frame = before_frame
        self._lock = lock or threading.RLock()
        self._last: bytes | None = None
        #: the words of the frame on the screen now (tests, the demo and the
        #: console read what a screen says without reading pixels)
        self.text = ""
        self.frames_sent = 0
        self.frames_skipped = 0
        self._sender = sender
        self._error: ScreenError | None = None  # a frame the sender failed to send

    def show(self, frame: Image.Image, text: str = "") -> bool:
        """Send ``frame`` unless it is the frame already shown; True when sent.
        ``text`` is what the frame says, kept as :attr:`text` once it shows.
        With a sender it is queued and this returns at once: :meth:`flush`
        waits for it and raises what sending it raised."""
        if frame.size != self.size:
            raise ValueError(
                f"screen {self.name}: the frame is {frame.size[0]}x{frame.size[1]},"
                f" the screen {self.size[0]}x{self.size[1]}"
            )
        if frame.mode != "1":
            frame = frame.convert("1")
        # a device that packs frames into its controller's pages tells an
        # unchanged frame by them, and sends the pages packed here
        pages_of = getattr(self.device, "pages_of", None)
        data = b"".join(pages_of(frame)) if pages_of is not None else frame.tobytes()
        if data == self._last:
            self.text = text  # the same pixels: the new words describe them as well
            self.frames_skipped += 1
            return False
        if self._sender is not None:
            self._last = data
            self.text = text
            self.frames_sent += 1
            self._sender.submit(lambda: self._send(frame))
            return True
        with self._lock:
            self._last = None  # if sending fails half-way, the next show must send again
            try:
                if self._before_frame is not None:
                    self._before_frame()
                self.device.display(frame)
            except ScreenError:
                raise
            except Exception as err:
                raise ScreenError(self._failure(err)) from err
        self._last = data
        self.text = text
        self.frames_sent += 1
        return True

    def _send(self, frame: Image.Image) -> None:
        """On the sender's thread: one frame to the device; a failure is kept for :meth:`flush`."""
        try:
            with self._lock:
                if self._before_frame is not None:
                    self._before_frame()
                self.device.display(frame)
        except Exception as err:
            self._last = None  # sent again whole at the next show
            if self._error is None:
                self._error = err if isinstance(err, ScreenError) else ScreenError(self._failure(err))

    def flush(self) -> None:
        """Wait until every frame shown is on the screen; raise the first
        ScreenError sending one raised (the next frame is then sent whole)."""
        if self._sender is None:
            return
        self._sender.wait()
        error, self._error = self._error, None
        if error is not None:
            raise error

    def _failure(self, err: Exception) -> str:
        no = getattr(err, "errno", None)
        hint = "check its power and wiring"
        if no in (errno.EREMOTEIO, errno.EIO) or type(err).__name__ == "DeviceNotFoundError":
            hint = "nothing answered at its address: check the address jumper (0x3C/0x3D), SDA/SCL and power"
        return f"screen {self.name} on {self.where} did not take a frame: {err}; {hint}"

    def clear(self) -> bool:
        return self.show(Image.new("1", self.size, 0))

    def test_pattern(self) -> bool:
        """Show :func:`pattern_frame` with the screen's name (the self-test)."""
        return self.show(pattern_frame(self.size, self.name), text=pattern_text(self.size, self.name))

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone: nothing left to clean
            self.flush()
        with contextlib.suppress(Exception):
            self.device.cleanup()


def _check(name: str, driver: str, address: int, width: int, height: int) -> None:
    if driver not in DRIVERS:
        raise ValueError(
            f"screen {name}: driver {driver!r} is not one of {', '.join(DRIVERS)}"
            " (most 1.3-inch modules are sh1106, most 0.96-inch ssd1306)"
        )
    if address not in I2C_ADDRESSES:
        raise ValueError(
            f"screen {name}: I2C address 0x{address:02X} is not 0x3C or 0x3D;"
            " an SSD1306/SH1106 answers on one of those (the jumper on the module's back)"
        )
    if (width, height) != SIZE:
        raise ValueError(f"screen {name}: only 128x64 screens are supported, got {width}x{height}")


def open_oled(
    name: str,
    *,
    driver: str = "sh1106",
    interface: str = "i2c",
    port: int = 1,
    address: int = 0x3C,
    mux_address: int | None = None,
    mux_channel: int | None = None,
    spi_port: int = 0,
    spi_device: int = 1,
    gpio_dc: int = 24,
    gpio_rst: int = 25,
    cs_pin: int | None = None,
    select: int | None = None,
    decoder_pins: tuple[int, int, int] | None = None,
    spi_hz: int | None = None,
    spi_resets: set[int] | None = None,
    rotate: int = 0,
    width: int = 128,
    height: int = 64,
    i2c: I2cBuses | None = None,
    full_frames: bool = False,
) -> OledScreen:
    """Open a real OLED from a profile entry.

    ``interface="i2c"``: on ``/dev/i2c-<port>`` at ``address``; with ``mux_channel``
    (and ``mux_address``, default 0x70) behind a TCA9548A, whose channel is
    selected before each frame. Screens sharing a bus should share one ``i2c``
    (:class:`I2cBuses`: when threaded, its sender per bus sends their frames;
    a screen opened alone sends on the caller's thread). ``interface="spi"``:
    ``/dev/spidev<spi_port>.<spi_device>`` with D/C and RST on the given GPIO
    pins, at ``spi_hz`` (default: the controller's, :data:`SPI_HZ`); with ``cs_pin`` the chip select is that
    GPIO (luma's ``gpio_cs_spi``; the device's own CE line is then not driven),
    so several screens share one SPI bus, one D/C line (read only while a
    screen is selected) and one RST line. With ``select`` the screen is on that
    output of a 74HC138 whose enable is the device's own chip select and whose
    address lines are ``decoder_pins`` (:mod:`drivers.spi_decoder`; shared
    through ``i2c``). Screens sharing a RST line should
    share ``spi_resets``: the line is pulsed for the first only, since a
    pulse resets every screen on it. ``full_frames``: luma's own classes,
    which send every page of every frame (the benchmark compares them).
    """
    from luma.core.error import Error as LumaError
    from luma.oled.device import sh1106, ssd1306

    from drivers.oled_devices import PageI2c, Sh1106, Ssd1306

    _check(name, driver, address, width, height)
    if rotate not in (0, 1, 2, 3):
        raise ValueError(f"screen {name}: rotate is 0-3 (quarter turns), got {rotate}")
    if interface not in ("i2c", "spi"):
        raise ValueError(f"screen {name}: interface {interface!r} is not 'i2c' or 'spi'")
    classes = (ssd1306, sh1106) if full_frames else (Ssd1306, Sh1106)
    cls = classes[0] if driver == "ssd1306" else classes[1]
    before_frame: Callable[[], None] | None = None
    lock = None
    sender: BusSender | None = None
    try:
        if interface == "spi":
            from luma.core.interface.serial import gpio_cs_spi, spi

            where = f"/dev/spidev{spi_port}.{spi_device} (D/C GPIO{gpio_dc}, RST GPIO{gpio_rst})"
            reset: int | None = gpio_rst
            if spi_resets is not None:
                reset = None if gpio_rst in spi_resets else gpio_rst  # pulsed: it would reset the others
                spi_resets.add(gpio_rst)
            # luma holds reset for 0 s by default: two GPIO writes apart, which a fast
            # Pi may make shorter than the controllers' 10 us minimum; 1 ms each, once
            options = {"port": spi_port, "device": spi_device, "gpio_DC": gpio_dc, "gpio_RST": reset,
                       "bus_speed_hz": spi_hz or SPI_HZ[driver],
                       "reset_hold_time": RESET_SECONDS, "reset_release_time": RESET_SECONDS}
            sender = i2c.sender(f"spi-{spi_port}") if i2c is not None else None
            if select is not None:
                from drivers.spi_decoder import DecodedSpi, Decoder

                if cs_pin is not None or decoder_pins is None:
                    raise ValueError(f"screen {name}: a screen behind the decoder (select) needs the"
                                     " decoder's address pins and no cs_pin of its own")
                pins = (decoder_pins[0], decoder_pins[1], decoder_pins[2])
                decoder = i2c.decoder(pins) if i2c is not None else Decoder(pins)
                where = (f"/dev/spidev{spi_port}.{spi_device} through the 74HC138, output Y{select}"
                         f" (A0-A2 GPIO{pins[0]}, {pins[1]}, {pins[2]};"
                         f" D/C GPIO{gpio_dc}, RST GPIO{gpio_rst})")
                serial = DecodedSpi(**options, decoder=decoder, select=select)
                lock = decoder.lock
            elif cs_pin is None:
                serial = spi(**options)
            else:
                where = f"SPI{spi_port} chip select GPIO{cs_pin} (D/C GPIO{gpio_dc}, RST GPIO{gpio_rst})"
                serial = gpio_cs_spi(**options, gpio_CS=cs_pin)
        else:
            from luma.core.interface.serial import i2c as luma_blocks

            luma_i2c = luma_blocks if full_frames else PageI2c  # luma's own: 32-byte blocks
            buses = i2c or I2cBuses(threaded=False)
            sender = i2c.sender(f"i2c-{port}") if i2c is not None else None
            if mux_channel is None and mux_address is not None:
                raise ValueError(f"screen {name}: mux_address is set but mux_channel is not")
            if mux_channel is None:
                where = f"/dev/i2c-{port} at 0x{address:02X}"
                serial = luma_i2c(bus=buses.bus(port), address=address)
            else:
                mux = buses.mux(port, 0x70 if mux_address is None else mux_address)
                where = (
                    f"/dev/i2c-{port} TCA9548A 0x{mux.address:02X} channel {mux_channel} at 0x{address:02X}"
                )
                serial = luma_i2c(bus=MuxedBus(mux, mux_channel), address=address)
                lock = mux.lock

                def before_frame() -> None:
                    mux.select(mux_channel, force=True)

        device = cls(serial, width=width, height=height, rotate=rotate)
    except ScreenError as err:
        raise ScreenError(f"screen {name}: {err}") from err
    except (LumaError, OSError, ImportError) as err:
        hint = ""
        if interface == "spi":
            enable = "dtoverlay=spi1-1cs" if spi_port == 1 else "dtparam=spi=on"
            hint = (
                f"; an SPI screen needs /dev/spidev{spi_port}.{spi_device} ({enable}), spidev and"
                " RPi.GPIO (rpi-lgpio on a Pi 5): pip install 'tablekeeper[pi]'; on a laptop use the"
                " simulated table"
            )
        raise ScreenError(f"screen {name}: cannot open the {driver} on {interface}: {err}{hint}") from err
    return OledScreen(name, device, where=where, before_frame=before_frame, lock=lock, sender=sender)
