"""Tablekeeper's hardware behind small interfaces, real and simulated.

Importing this package, or any module a laptop uses, needs none of the Pi-only
libraries (spidev, RPi.GPIO, lgpio, mfrc522): the real backends import them
when a part is opened.

Interfaces (:mod:`drivers.base`): TagReader, Screen, Light; events on the queue
(:mod:`drivers.events`). Build parts from profile entries with
:mod:`drivers.parts` (``open_reader``, ``open_screen``, ``open_button``,
``open_encoder``, ``open_light_spec``) and watch readers with
:class:`drivers.watcher.Watcher`.

- :mod:`drivers.rc522` - RC522 readers on SPI (own driver; ``mfrc522`` adapter)
- :mod:`drivers.hub` - readers on the RP2040 hub over USB serial
- :mod:`drivers.watcher` - debounced tag events, faulty readers retried
- :mod:`drivers.buttons` - buttons and rotary encoders (gpiozero)
- :mod:`drivers.lights` - LED, PWMLED, RGBLED with blink patterns (gpiozero)
- :mod:`drivers.screens` - 128x64 OLEDs (luma.oled), TCA9548A multiplexer
- :mod:`drivers.sim` - RC522 emulator, fake spidev/RPi.GPIO, simulated readers,
  mock pins, recording screens, a fake I2C bus
"""
