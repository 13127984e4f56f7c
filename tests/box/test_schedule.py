"""How `make test` shares the box tests out (tests/box/conftest.py): each test
goes to the next free worker (``--dist loadgroup``), and the boxes come first,
the emulated ones first, so the two longest run side by side from the start.
Under the default ``--dist load`` the first worker's first chunk of the
collection held all three boxes, run one after another while the other worker
finished the rest."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.box import container
from tests.box.conftest import ROOT


def test_make_test_sends_each_test_to_the_next_free_worker() -> None:
    recipe = re.search(r"^test:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe is not None
    assert re.search(r"-m pytest -n 2 --dist loadgroup\b", recipe.group(1)), recipe.group(1)


def test_the_boxes_are_collected_first_the_emulated_ones_first() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "--collect-only", "-q",
         "-o", "addopts=", "tests/test_rulings.py", "tests/box"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()
    host = container.host_arch()
    emulated = [arch for arch in ("arm64", "armhf") if arch != host]
    boxes = [f"tests/box/test_box.py::test_fresh_bookworm_to_a_refereeing_table[{arch}]"
             for arch in [*emulated, host]]
    assert listed[:len(boxes)] == boxes, listed[:5]
