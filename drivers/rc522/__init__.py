"""RC522 (MFRC522) tag readers on SPI: the project's own driver and an adapter over ``mfrc522``.

Neither module imports ``spidev``, ``RPi.GPIO`` or ``mfrc522`` at import time.
"""

from drivers.rc522.driver import RC522Reader, open_rc522
from drivers.rc522.mfrc522_adapter import Mfrc522Reader, open_mfrc522

__all__ = ["Mfrc522Reader", "RC522Reader", "open_mfrc522", "open_rc522"]
