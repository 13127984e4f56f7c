"""A booted Debian Bookworm in a container: systemd as PID 1, the base of
Raspberry Pi OS, on the machine that runs the tests.

The root file system comes from debootstrap (Debian's mirror, as apt's sources
name it) for one Debian architecture: the host's own, or ``arm64`` and
``armhf`` (Raspberry Pi OS's two) run through qemu-user-static, which the
kernel's binfmt_misc hands every ARM program to. Each is kept as a tarball in
:data:`CACHE`, named by its architecture and a hash of what it holds; every
test unpacks its own copy. The container is booted with
``systemd-nspawn -b``; commands run in it through ``nsenter`` into its PID 1's
namespaces (the host has no systemd, so no machinectl). Every step has a time
limit, and :meth:`Box.close` leaves no process or mount behind: it powers the
container off, then kills its PID 1 (which ends every process in its PID
namespace), nspawn's process group and anything else whose root is the copy.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import platform
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

CACHE = Path(os.environ.get("TABLEKEEPER_BOX_CACHE", "/var/cache/tablekeeper-box"))
# A folder of their own: a checkout from before architectures were named removes every other
# CACHE/bookworm-*.tar as stale when it makes its own root.
ROOTS = CACHE / "roots"
SUITE = "bookworm"
# The issue's own recipe: what a Raspberry Pi OS Lite image has that matters here.
INCLUDE = ("systemd", "systemd-sysv", "dbus", "python3", "python3-venv")
# Debian architecture -> the binfmt_misc entry of qemu-user-static that runs its programs.
QEMU = {"arm64": "qemu-aarch64", "armhf": "qemu-arm"}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
RECIPE = 1  # raise when the way the root is made changes, so the cache is rebuilt
DEBOOTSTRAP_LIMIT = 900.0
BOOT_LIMIT = 90.0
EMULATED_SLOWER = 8.0
# Its second stage is emulated: 4 to 6 minutes here on a quiet machine, past 15 on a loaded one.
EMULATED_DEBOOTSTRAP = 3
CLEAN_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
             "LANG": "C.UTF-8", "TERM": "dumb"}


class BoxError(AssertionError):
    """A step in the container failed or took too long."""


def host_trust() -> tuple[dict[Path, str], dict[str, str]]:
    """The host's CA bundle, read-only in the container, for pip.

    A Pi reaches PyPI with Debian's ca-certificates; a machine that reaches it
    through a proxy of its own trusts that proxy's CA in its bundle only, so
    the container is given the host's bundle (and nothing else of the host's)."""
    bundle = Path(os.environ.get("PIP_CERT") or "/etc/ssl/certs/ca-certificates.crt")
    if not bundle.is_file():
        return {}, {}
    inside = "/etc/tablekeeper-box-ca.crt"
    return {bundle: inside}, {"PIP_CERT": inside}


def host_arch() -> str:
    """The host's Debian architecture (amd64 on a PC)."""
    machine = platform.machine()
    return {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "armhf"}.get(machine, machine)


def cannot_run(arch: str | None = None) -> str | None:
    """Why the box test cannot run on this machine for ``arch`` (default: the host's), or None."""
    if os.geteuid() != 0:
        return "the box test needs root (debootstrap, systemd-nspawn)"
    for tool in ("debootstrap", "systemd-nspawn", "nsenter", "journalctl", "tar"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install systemd-container debootstrap util-linux)"
    if mirror() is None:
        return "no Debian mirror in apt's sources (/etc/apt/sources.list*)"
    if arch is not None and arch != host_arch():
        return cannot_emulate(arch)
    return None


def cannot_emulate(arch: str) -> str | None:
    """Why this machine cannot run ``arch``'s programs, or None.

    The entry needs the F flag (qemu opened once, when it is registered), so
    that the emulator is found from inside the container's root, which has
    none; Debian's qemu-user-static registers it so through binfmt-support.
    binfmt_misc is mounted here when it is not yet (as systemd would at boot)."""
    entry = QEMU.get(arch)
    if entry is None:
        return f"no emulator known for {arch} (known: {', '.join(sorted(QEMU))})"
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], capture_output=True,
                       timeout=30, check=False)
        if not (BINFMT / "register").exists():
            return f"binfmt_misc is not mounted at {BINFMT} and could not be (mount -t binfmt_misc)"
    if not (BINFMT / entry).exists() and shutil.which("update-binfmts"):
        subprocess.run(["update-binfmts", "--enable", entry], capture_output=True, timeout=30, check=False)
    try:
        text = (BINFMT / entry).read_text()
    except OSError:
        return (f"{arch} programs cannot run here: no {entry} in binfmt_misc "
                "(apt-get install qemu-user-static binfmt-support)")
    if not text.startswith("enabled"):
        return f"{arch} programs cannot run here: {entry} is disabled (update-binfmts --enable {entry})"
    flags = next((line.split(":", 1)[1] for line in text.splitlines() if line.startswith("flags:")), "")
    if "F" not in flags:
        return (f"{arch} programs cannot run in a container here: {entry} lacks the F flag "
                "(Debian's qemu-user-static sets it; a hand-made registration may not)")
    return None


def mirror() -> str | None:
    """The Debian mirror apt's sources name (deb822 or one-line style)."""
    files = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in files:
        try:
            text = path.read_text()
        except OSError:
            continue
        for m in re.finditer(r"(?:^URIs:\s*|^deb\s+(?:\[[^\]]*\]\s+)?)(\S+/debian)/?\s", text, re.MULTILINE):
            return m.group(1)
    return None


def cache_key(arch: str) -> str:
    what = "|".join([SUITE, "minbase", ",".join(INCLUDE), mirror() or "", arch, str(RECIPE)])
    return hashlib.sha256(what.encode()).hexdigest()[:16]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def rootfs_tarball(log: list[str], arch: str | None = None) -> Path:
    """The cached root file system of ``arch`` (default: the host's), made first if there is none
    (one maker at a time for each architecture)."""
    arch = arch or host_arch()
    tarball = ROOTS / f"bookworm-{arch}-{cache_key(arch)}.tar"
    if tarball.exists():
        log.append(f"root file system: cached {tarball.name}")
        return tarball
    with _locked(ROOTS / f"build-{arch}.lock"):
        if tarball.exists():  # made while this test waited for the lock
            return tarball
        work = ROOTS / f"build-{arch}-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        started = time.monotonic()
        try:
            # Another architecture's second stage runs its programs in the root through the emulator.
            limit = DEBOOTSTRAP_LIMIT * (1 if arch == host_arch() else EMULATED_DEBOOTSTRAP)
            run(["debootstrap", f"--arch={arch}", "--variant=minbase", f"--include={','.join(INCLUDE)}",
                 SUITE, str(work), str(mirror())], limit, f"debootstrap --arch={arch}")
            # No machine id: each boot of a copy makes its own, as a flashed SD card does.
            (work / "etc" / "machine-id").write_text("")
            partial = tarball.with_suffix(".part")
            run(["tar", "-C", str(work), "--numeric-owner", "-cf", str(partial), "."], 300, "tar")
            partial.rename(tarball)
        finally:
            for mount in mounts_under(work):  # a debootstrap stopped half way leaves its /proc mounted
                subprocess.run(["umount", "-l", mount], capture_output=True, timeout=30, check=False)
            shutil.rmtree(work, ignore_errors=True)
        log.append(f"root file system: made by debootstrap in {time.monotonic() - started:.0f} s (cold)")
        for old in ROOTS.glob(f"bookworm-{arch}-*.tar"):  # this architecture's other recipes are stale
            if old != tarball:
                old.unlink(missing_ok=True)
    return tarball


def run(cmd: list[str], limit: float, what: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` on the host within ``limit`` seconds; BoxError when it fails."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, check=False,
                              **kw)  # type: ignore[call-overload]
    except subprocess.TimeoutExpired as exc:
        said = f"{str(exc.stdout)[-2000:]} {str(exc.stderr)[-2000:]}"
        raise BoxError(f"{what}: no end after {limit:.0f} s: {said}") from None
    if proc.returncode != 0:
        raise BoxError(f"{what}: status {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc  # type: ignore[no-any-return]


class Box:
    """One container on an unpacked copy of the cached root."""

    def __init__(self, root: Path, name: str, binds: dict[Path, str], *,
                 read_only: dict[Path, str] | None = None, env: dict[str, str] | None = None,
                 arch: str | None = None) -> None:
        self.root = root
        self.arch = arch or host_arch()
        # Every time limit is this many times longer: an emulated ARM runs Python about nine times slower.
        self.slow = 1.0 if self.arch == host_arch() else EMULATED_SLOWER
        self.name = name
        self.binds = binds
        self.read_only = read_only or {}
        self.env = {**CLEAN_ENV, **(env or {})}  # for commands run inside
        self.nspawn: subprocess.Popen[bytes] | None = None
        self.init_pid: int | None = None
        self.console = root.parent / f"{name}-console.log"
        self.boots = 0

    # -- life ------------------------------------------------------------------
    def boot(self) -> float:
        """Boot the container; the seconds until systemd says it is up."""
        started = time.monotonic()
        args = ["systemd-nspawn", "--register=no", "--keep-unit", "-b", "-D", str(self.root),
                f"--machine={self.name}", "--console=read-only"]
        for host, inside in self.binds.items():
            args.append(f"--bind={host}:{inside}")
        for host, inside in self.read_only.items():
            args.append(f"--bind-ro={host}:{inside}")
        env = {**CLEAN_ENV, "SYSTEMD_NSPAWN_UNIFIED_HIERARCHY": "0"}
        with open(self.console, "ab") as out:
            self.nspawn = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env,
                                           start_new_session=True)
        self.boots += 1
        limit = BOOT_LIMIT * self.slow
        deadline = started + limit
        while self.init_pid is None:
            self._check_alive()
            self.init_pid = self._child_init()
            if time.monotonic() > deadline:
                raise BoxError(f"the container's systemd did not start in {limit:.0f} s")
            time.sleep(0.1)
        # "running" or "degraded": booted either way (a minimal Debian may miss a unit or two).
        # Until its bus is up, systemctl cannot even ask.
        while True:
            proc = self.sh("systemctl is-system-running --wait", limit=BOOT_LIMIT, check=False)
            state = proc.stdout.strip()
            if state in ("running", "degraded"):
                return time.monotonic() - started
            if time.monotonic() > deadline:
                raise BoxError(f"the container came up {state!r} ({proc.stderr.strip()}): {self.tail()}")
            time.sleep(0.2)

    def _check_alive(self) -> None:
        assert self.nspawn is not None
        if self.nspawn.poll() is not None:
            raise BoxError(f"systemd-nspawn ended with status {self.nspawn.returncode}: {self.tail()}")

    def _child_init(self) -> int | None:
        """The container's PID 1 as the host sees it: the nspawn child that runs systemd."""
        assert self.nspawn is not None
        for pid in _children(self.nspawn.pid):
            if _comm(pid) == "systemd":
                return pid
        return None

    def reboot(self) -> float:
        """``systemctl reboot`` inside: nspawn ends with the container, and it is booted again."""
        assert self.nspawn is not None
        self.sh("systemctl reboot", limit=30)
        limit = 60 * self.slow
        try:
            self.nspawn.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            raise BoxError(f"the container did not stop within {limit:.0f} s of `systemctl reboot`") from None
        self.init_pid = None
        return self.boot()

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.console.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    # -- commands ----------------------------------------------------------------
    def sh(self, script: str, *, limit: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a shell script as root inside the container, as a login there would
        (``limit`` seconds natively, :attr:`slow` times that under the emulator)."""
        limit *= self.slow
        self._check_alive()
        assert self.init_pid is not None
        cmd = ["nsenter", "-t", str(self.init_pid), "-m", "-u", "-i", "-n", "-p", "-C", "-r", "-w",
               "/bin/sh", "-c", script]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, env=self.env)
        except subprocess.TimeoutExpired as exc:
            raise BoxError(f"in the container, {script!r}: no end after {limit:.0f} s:\n{exc.stdout}\n"
                           f"{exc.stderr}") from None
        if check and proc.returncode != 0:
            raise BoxError(f"in the container, {script!r}: status {proc.returncode}:\n{proc.stdout[-4000:]}\n"
                           f"{proc.stderr[-4000:]}")
        return proc

    def unit(self, unit: str, *props: str) -> dict[str, str]:
        out = self.sh(f"systemctl show {unit} -p {','.join(props)}").stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def journal(self, unit: str) -> list[str]:
        """The unit's lines in the container's system log, every boot (read from the host)."""
        proc = run(["journalctl", "-D", str(self.journal_dir()), "-u", unit, "-o", "cat", "--no-pager"], 60,
                   "journalctl")
        return proc.stdout.splitlines()

    def journal_dir(self) -> Path:
        machine = (self.root / "etc" / "machine-id").read_text().strip()
        return self.root / "var" / "log" / "journal" / machine

    # -- the end -------------------------------------------------------------------
    def close(self) -> list[str]:
        """Stop everything this box started; what had to be forced."""
        forced: list[str] = []
        if self.nspawn is not None and self.nspawn.poll() is None:
            if self.slow > 1 and self.init_pid is not None:
                # nspawn powers off by sending PID 1 SIGRTMIN+4, but the emulator keeps real-time
                # signals for itself and hands the guest another one (systemd took it for "rescue"):
                # so the emulated container is asked from inside.
                with contextlib.suppress(BoxError):
                    self.sh("systemctl poweroff --no-block", limit=30)
            else:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.nspawn.pid, signal.SIGTERM)  # nspawn: power the container off
            try:
                self.nspawn.wait(timeout=20 * self.slow)
            except subprocess.TimeoutExpired:
                forced.append(f"the container did not power off in {20 * self.slow:.0f} s")
        if self.init_pid is not None and _comm(self.init_pid) == "systemd":
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.init_pid, signal.SIGKILL)  # ends every process of its PID namespace
        if self.nspawn is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.nspawn.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.nspawn.wait(timeout=10)
        for pid in processes_in(self.root):
            forced.append(f"process {pid} ({_comm(pid)}) left in the container")
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for mount in mounts_under(self.root):
            forced.append(f"mount {mount} left behind")
            subprocess.run(["umount", "-l", mount], capture_output=True, timeout=30, check=False)
        return forced


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def processes_in(root: Path) -> list[int]:
    """Host processes whose root directory is ``root`` (or below it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            where = os.readlink(entry / "root")
        except OSError:
            continue
        if where == str(root) or where.startswith(f"{root}/"):
            found.append(int(entry.name))
    return found


def mounts_under(root: Path) -> list[str]:
    """Mount points at or below ``root`` in the host's mount table."""
    points = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            point = line.split()[4].replace("\\040", " ")
            if point == str(root) or point.startswith(f"{root}/"):
                points.append(point)
    return sorted(points, reverse=True)


def host_pid(init_pid: int, pid: int) -> int:
    """The host's number for the process that is ``pid`` in the PID namespace of ``init_pid`` (the
    container's PID 1 as the host sees it). By namespace, not by root directory: a unit's own mount
    namespace hides where its root is."""
    namespace = os.readlink(f"/proc/{init_pid}/ns/pid")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "ns" / "pid") != namespace:
                continue
            status = (entry / "status").read_text()
        except OSError:
            continue
        nspid = next((line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:")), [])
        if nspid and int(nspid[-1]) == pid:
            return int(entry.name)
    raise BoxError(f"no process {pid} in the PID namespace of {init_pid}")


def resident_kib(pid: int, arch: str) -> tuple[int, int]:
    """A process's resident size on the host and the part of it that is the program's own, in KiB.

    Natively the two are the same. Under qemu-user the process also holds the
    emulator: its own binary, heap and translated code (an anonymous
    writable and executable region), none of which a real ARM board has. The
    program's own part is its mappings: from its lowest file mapping (its
    interpreter's binary) up to 4 GiB above for a 32-bit program, or up to the
    emulator's first mapping for a 64-bit one, the emulator's regions left out."""
    maps: list[tuple[int, str, str, int]] = []  # start, permissions, name, Rss KiB
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            head = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+$", head[0]):
                maps.append((int(head[0].split("-")[0], 16), head[1], head[5] if len(head) > 5 else "", 0))
            elif head[0] == "Rss:":
                start, perms, name, _ = maps[-1]
                maps[-1] = (start, perms, name, int(head[1]))
    total = sum(rss for *_, rss in maps)
    if arch == host_arch():
        return total, total

    def emulator(perms: str, name: str) -> bool:
        translated_code = perms.startswith("rwx") and not name
        return "qemu" in name or "binfmt" in name or name.startswith("[") or translated_code

    programs = [start for start, perms, name, _ in maps if name.startswith("/") and not emulator(perms, name)]
    low = min(programs)
    if arch in ("armhf", "armel", "i386"):
        high = low + (1 << 32)
    else:
        high = min((start for start, perms, name, _ in maps if start > low and emulator(perms, name)),
                   default=1 << 64)
    own = sum(rss for start, perms, name, rss in maps if low <= start < high and not emulator(perms, name))
    return total, own


# apt's downloads, kept between runs. Copied in and out rather than shared: two boxes at once
# (two architectures, or two tests under xdist) would meet on apt's lock in a shared folder.
DEBS = CACHE / "debs"


def debs_in(root: Path, arch: str) -> None:
    """The kept packages of ``arch`` into a box's apt cache, before it boots."""
    into = root / "var" / "cache" / "apt" / "archives"
    into.mkdir(parents=True, exist_ok=True)
    for deb in (DEBS / arch).glob("*.deb"):
        if (into / deb.name).exists():
            continue
        try:
            os.link(deb, into / deb.name)
        except OSError:  # another file system
            shutil.copyfile(deb, into / deb.name)


def debs_out(root: Path, arch: str) -> None:
    """A box's new downloads into the kept packages of ``arch``, after it stopped."""
    keep = DEBS / arch
    keep.mkdir(parents=True, exist_ok=True)
    for deb in (root / "var" / "cache" / "apt" / "archives").glob("*.deb"):
        if not (keep / deb.name).exists():
            part = keep / f".{deb.name}.{os.getpid()}"
            shutil.copyfile(deb, part)
            part.rename(keep / deb.name)
