"""Seat lights on gpiozero: a plain LED, a dimmable PWMLED or an RGBLED, with named blink patterns.

In simulation the same classes run on ``MockFactory(pin_class=MockPWMPin)``; a
test reads ``factory.pin(n).state`` or ``.states``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drivers.gpio import build

Colour = tuple[float, float, float]


@dataclass(frozen=True)
class BlinkPattern:
    on_time: float
    off_time: float
    n: int | None = None  # None: until told otherwise
    fade_in: float = 0.0  # PWM and RGB lights only; plain LEDs ignore fades
    fade_out: float = 0.0


PATTERNS: dict[str, BlinkPattern] = {
    "your_turn": BlinkPattern(0.8, 0.8, fade_in=0.3, fade_out=0.3),  # slow breathing
    "attention": BlinkPattern(0.15, 0.15),  # fast, until answered
    "refused": BlinkPattern(0.1, 0.1, n=3),  # three quick flashes
    "accepted": BlinkPattern(0.5, 0.0, n=1),  # one long flash
    "self_test": BlinkPattern(0.1, 0.1, n=3),
}

KINDS = ("led", "pwm", "rgb")


class TableLight:
    """One light; ``on``/``off``/``blink`` work for every kind, brightness and colour where it has them."""

    def __init__(self, name: str, kind: str, device: Any, colour: Colour = (1.0, 1.0, 1.0)) -> None:
        if kind not in KINDS:
            raise ValueError(f"light {name}: kind {kind!r} is not one of {', '.join(KINDS)}")
        self.name = name
        self.kind = kind
        self.device = device
        self.colour = colour

    @property
    def is_lit(self) -> bool:
        return bool(self.device.is_lit)

    @property
    def value(self) -> Any:
        """0/1 for a LED, 0..1 for a PWMLED, an (r, g, b) tuple for an RGBLED."""
        return self.device.value

    def on(self) -> None:
        if self.kind == "rgb":
            self.device.color = self.colour
        else:
            self.device.on()

    def off(self) -> None:
        self.device.off()

    def blink(
        self,
        on_time: float = 0.5,
        off_time: float = 0.5,
        n: int | None = None,
        *,
        fade_in: float = 0.0,
        fade_out: float = 0.0,
        wait: bool = False,
    ) -> None:
        """Blink ``n`` times (forever if None) on gpiozero's thread, or here when ``wait``."""
        if n is not None and n < 1:
            raise ValueError(f"light {self.name}: blink count must be at least 1, got {n}")
        background = not wait or n is None
        if self.kind == "led":
            self.device.blink(on_time, off_time, n=n, background=background)
        elif self.kind == "pwm":
            self.device.blink(on_time, off_time, fade_in, fade_out, n=n, background=background)
        else:
            self.device.blink(
                on_time, off_time, fade_in, fade_out, on_color=self.colour, n=n, background=background
            )

    def pattern(self, name: str, *, wait: bool = False) -> None:
        """Play one of :data:`PATTERNS` (e.g. ``"your_turn"``, ``"refused"``)."""
        try:
            p = PATTERNS[name]
        except KeyError:
            raise ValueError(
                f"light {self.name}: no blink pattern {name!r}; known: {', '.join(PATTERNS)}"
            ) from None
        self.blink(p.on_time, p.off_time, p.n, fade_in=p.fade_in, fade_out=p.fade_out, wait=wait)

    def set_brightness(self, level: float) -> None:
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"light {self.name}: brightness must be between 0 and 1, got {level}")
        if self.kind == "led":
            raise ValueError(f"light {self.name} is a plain LED: it is on or off; use kind 'pwm' to dim it")
        if self.kind == "pwm":
            self.device.value = level
        else:
            self.device.color = tuple(c * level for c in self.colour)

    def set_colour(self, colour: Colour) -> None:
        if self.kind != "rgb":
            raise ValueError(f"light {self.name} is a single-colour {self.kind} light: it has no colour")
        if len(colour) != 3 or not all(0.0 <= c <= 1.0 for c in colour):
            raise ValueError(f"light {self.name}: a colour is three values between 0 and 1, got {colour}")
        self.colour = (float(colour[0]), float(colour[1]), float(colour[2]))
        if self.is_lit:
            self.device.color = self.colour

    def self_test(self, *, wait: bool = False) -> None:
        """Three quick flashes, to find the light on the table."""
        self.pattern("self_test", wait=wait)

    def close(self) -> None:
        self.device.close()


def open_light(
    name: str,
    *,
    kind: str = "led",
    pin: int | None = None,
    pins: tuple[int, int, int] | None = None,
    active_high: bool = True,
    colour: Colour = (1.0, 1.0, 1.0),
    pin_factory: Any = None,
) -> TableLight:
    """A light from a profile entry: ``pin`` for ``led``/``pwm``, ``pins`` (red, green, blue) for ``rgb``."""
    from gpiozero import LED, PWMLED, RGBLED

    if kind not in KINDS:
        raise ValueError(f"light {name}: kind {kind!r} is not one of {', '.join(KINDS)}")
    if kind == "rgb":
        if pins is None or len(pins) != 3:
            raise ValueError(f"light {name}: an rgb light needs pins = [red, green, blue], got {pins}")
        r, g, b = pins
        device = build(
            f"light {name}",
            f"GPIO{r}/GPIO{g}/GPIO{b}",
            lambda: RGBLED(r, g, b, active_high=active_high, pin_factory=pin_factory),
        )
    else:
        if pin is None:
            raise ValueError(f"light {name}: a {kind} light needs one pin")
        cls = LED if kind == "led" else PWMLED
        device = build(
            f"light {name}", f"GPIO{pin}", lambda: cls(pin, active_high=active_high, pin_factory=pin_factory)
        )
    return TableLight(name, kind, device, colour)
