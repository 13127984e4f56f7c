"""The booted box (tests/box/container.py) as a fixture: one for each architecture
of ARCHES, or only those a test names with
``@pytest.mark.parametrize("box", [...], indirect=True)``."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.box import container
from tests.box.container import Box

ROOT = Path(__file__).resolve().parents[2]


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("TABLEKEEPER_BOX") == "require":
        pytest.fail(f"the box test must run here (TABLEKEEPER_BOX=require) but cannot: {reason}")
    pytest.skip(f"BOX TEST NOT RUN: {reason}")


# The host's own first, then Raspberry Pi OS's two (one of which may be the host's).
ARCHES = list(dict.fromkeys([container.host_arch(), "arm64", "armhf"]))


# The emulated boxes take three to five times the native one, and each of them longer than the
# rest of the suite shares out: under `make test` (pytest -n 2 --dist loadgroup, each test sent to
# the next worker that asks) they are sent first, the longest first, so that the two emulated
# ones run side by side from the start and no box is left to start last.
def _longest_first(item: pytest.Item) -> int:
    arch = getattr(item, "callspec", None) and item.callspec.params.get("box")
    return 0 if arch and arch != container.host_arch() else 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    boxes = [item for item in items if item.get_closest_marker("box") is not None]
    if boxes:
        chosen = {id(item) for item in boxes}
        items[:] = sorted(boxes, key=_longest_first) + [item for item in items if id(item) not in chosen]


@pytest.fixture(params=ARCHES)
def box(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    arch: str = request.param
    reason = container.cannot_run(arch)
    if reason:
        _skip_or_fail(f"{arch}: {reason}")
    log: list[str] = []
    tarball = container.rootfs_tarball(log, arch)
    work = tmp_path_factory.mktemp("box")
    root = work / "root"
    root.mkdir()
    pip_cache = container.CACHE / "pip"
    pip_cache.mkdir(parents=True, exist_ok=True)
    binds = {pip_cache: "/root/.cache/pip"}
    trust, env = container.host_trust()
    b = Box(root, f"tkbox-{arch}-{os.getpid()}", binds, read_only=trust, env=env, arch=arch)
    b.log = log  # type: ignore[attr-defined]
    try:
        started = time.monotonic()
        container.run(["tar", "-C", str(root), "--numeric-owner", "-xpf", str(tarball)], 300, "unpack")
        log.append(f"unpacked the root in {time.monotonic() - started:.1f} s")
        container.debs_in(root, arch)
        yield b
    finally:
        forced = b.close()
        container.debs_out(root, arch)
        shutil.rmtree(work, ignore_errors=True)
        assert not forced, f"the box had to be forced down: {forced}"


