"""Simulated hardware for laptops and CI: an RC522 emulator, fake Pi modules,
scripted readers, and gpiozero/luma mock setups."""
