"""The boards and round cards, loaded from ``data/*.json`` and validated at import.

A player with the printed box corrects a value in the JSON, never in code; a
broken file is refused with :class:`DataError` naming the file, the entry and
the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.datafile import DataError, read_json

DATA_DIR = Path(__file__).parent / "data"
BOARDS_FILE = DATA_DIR / "boards.json"
CARDS_FILE = DATA_DIR / "round_cards.json"

#: Directions, their order in every menu, and the (row, column) step of each.
DIRS = ("N", "E", "S", "W")
DELTA = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}

KNIGHTS = 7
CITIZENS = 12
ASSASSINS = 3
CARDS = 15
_COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Start:
    king: int
    knights: tuple[int, ...]


@dataclass(frozen=True)
class Gate:
    cell: int
    dir: str


@dataclass(frozen=True)
class Board:
    """One side of the board. Cells are indices ``row * cols + col``."""

    side: str
    rows: tuple[str, ...]
    cols: int
    roof: tuple[bool, ...]
    #: ``steps[cell][dir]``: the neighbour in that direction, or -1 off the board.
    steps: tuple[Mapping[str, int], ...]
    starts: tuple[Start, ...]
    knights: tuple[int, ...]
    citizens: tuple[int, ...]
    gates: tuple[Gate, ...]
    unverified: bool
    source: str
    #: every cell's name, by index
    names: tuple[str, ...]

    def name(self, cell: int) -> str:
        return self.names[cell]

    def gate_dir(self, cell: int) -> str | None:
        for gate in self.gates:
            if gate.cell == cell:
                return gate.dir
        return None


@dataclass(frozen=True)
class RoundCard:
    id: int
    king: int
    knights: int
    assassins: int
    handcuffs: bool
    red_crystal: bool
    unverified: bool
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "king": self.king,
            "knights": self.knights,
            "assassins": self.assassins,
            "handcuffs": self.handcuffs,
            "red_crystal": self.red_crystal,
        }


def cell_name(cell: int, cols: int) -> str:
    r, c = divmod(cell, cols)
    return f"{_COLUMNS[c]}{r + 1}"


def parse_cell(name: str, nrows: int, cols: int) -> int | None:
    """``"C3"`` to its index, or None when it is not a cell of that board."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in _COLUMNS[:cols]:
        return None
    digits = name[1:]
    if not digits.isdigit() or digits.startswith("0") or not 1 <= int(digits) <= nrows:
        return None
    return (int(digits) - 1) * cols + _COLUMNS.index(name[0])


# -- loading ---------------------------------------------------------------


def _read(path: Path) -> Any:
    return read_json(path)


def _field(
    path: Path, entry: str, data: Mapping[str, Any], key: str, check: Callable[[Any], bool], what: str
) -> Any:
    if key not in data:
        raise DataError(path, entry, f"missing field {key!r}")
    if not check(data[key]):
        raise DataError(path, entry, f"{key} must be {what}, not {data[key]!r}")
    return data[key]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _provenance(path: Path, entry: str, data: Mapping[str, Any]) -> tuple[bool, str]:
    source = _field(
        path, entry, data, "source", lambda v: isinstance(v, str) and v.strip() != "", "a non-empty text"
    )
    unverified = _field(path, entry, data, "unverified", lambda v: isinstance(v, bool), "true or false")
    return unverified, source


def load_boards(path: Path = BOARDS_FILE) -> dict[str, Board]:
    data = _read(path)
    sides = data.get("sides") if isinstance(data, dict) else None
    if not isinstance(sides, list) or not sides:
        raise DataError(path, "sides", "must be a non-empty list")
    boards: dict[str, Board] = {}
    for i, raw in enumerate(sides):
        if not isinstance(raw, dict):
            raise DataError(path, f"sides[{i}]", "must be an object")
        board = _board(path, f"sides[{i}]", raw)
        if board.side in boards:
            raise DataError(path, f"side {board.side}", "listed twice")
        boards[board.side] = board
    for side in ("A", "B"):
        if side not in boards:
            raise DataError(path, "sides", f"side {side} is missing")
    return boards


def _board(path: Path, entry: str, raw: Mapping[str, Any]) -> Board:
    side = _field(path, entry, raw, "side", lambda v: isinstance(v, str) and v != "", "a name")
    entry = f"side {side}"
    unverified, source = _provenance(path, entry, raw)
    rows = _field(path, entry, raw, "rows", lambda v: isinstance(v, list) and len(v) > 0, "a list of rows")
    cols = len(rows[0]) if isinstance(rows[0], str) else 0
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != cols or set(row) - {"R", "G"} or cols == 0:
            raise DataError(
                path, f"{entry} row {r + 1}", f"must be {cols or 'some'} letters R or G, not {row!r}"
            )
    if cols > len(_COLUMNS):
        raise DataError(path, entry, f"at most {len(_COLUMNS)} columns")
    nrows = len(rows)
    roof = tuple(ch == "R" for row in rows for ch in row)

    def cell(where: str, name: Any) -> int:
        idx = parse_cell(name, nrows, cols)
        if idx is None:
            raise DataError(path, f"{entry} {where}", f"{name!r} is not a cell of this {nrows}x{cols} board")
        return idx

    def cells(where: str, value: Any, count: int | None = None) -> tuple[int, ...]:
        if not isinstance(value, list) or (count is not None and len(value) != count):
            need = f"a list of {count} cells" if count is not None else "a list of cells"
            raise DataError(path, f"{entry} {where}", f"must be {need}, not {value!r}")
        return tuple(cell(where, v) for v in value)

    starts_raw = _field(
        path, entry, raw, "starts", lambda v: isinstance(v, list) and len(v) > 0, "a non-empty list"
    )
    common = cells("knights", raw.get("knights"))
    citizens = cells("citizens", raw.get("citizens"), CITIZENS)
    starts: list[Start] = []
    for s, st in enumerate(starts_raw):
        where = f"starts[{s}]"
        if not isinstance(st, dict):
            raise DataError(path, f"{entry} {where}", "must be an object")
        king = cell(f"{where} king", st.get("king"))
        if roof[king]:
            raise DataError(
                path, f"{entry} {where}", f"the king must start on a street, {st['king']} is a roof"
            )
        knights = cells(f"{where} knights", st.get("knights"), KNIGHTS - len(common))
        placed = [king, *knights, *common, *citizens]
        if len(set(placed)) != len(placed):
            twice = sorted({cell_name(c, cols) for c in placed if placed.count(c) > 1})
            raise DataError(path, f"{entry} {where}", f"more than one piece on {', '.join(twice)}")
        starts.append(Start(king, knights))
    steps = tuple(_steps(i, nrows, cols) for i in range(nrows * cols))
    gates: list[Gate] = []
    gates_raw = _field(
        path, entry, raw, "gates", lambda v: isinstance(v, list) and len(v) > 0, "a non-empty list"
    )
    for g, gr in enumerate(gates_raw):
        where = f"gates[{g}]"
        if not isinstance(gr, dict) or gr.get("dir") not in DIRS:
            raise DataError(path, f"{entry} {where}", f"must be an object with dir one of {DIRS}")
        gcell = cell(where, gr.get("cell"))
        if roof[gcell]:
            raise DataError(path, f"{entry} {where}", f"a gate is a street cell, {gr['cell']} is a roof")
        beyond = steps[gcell][gr["dir"]]
        if beyond != -1 and not roof[beyond]:
            raise DataError(
                path,
                f"{entry} {where}",
                f"stepping {gr['dir']} from {gr['cell']} must leave the board or enter the castle "
                f"(a roof cell), not the street {cell_name(beyond, cols)}",
            )
        gates.append(Gate(gcell, gr["dir"]))
    return Board(
        side,
        tuple(rows),
        cols,
        roof,
        steps,
        tuple(starts),
        common,
        citizens,
        tuple(gates),
        unverified,
        source,
        tuple(cell_name(i, cols) for i in range(nrows * cols)),
    )


def _steps(cell: int, nrows: int, cols: int) -> dict[str, int]:
    r, c = divmod(cell, cols)
    out = {}
    for d, (dr, dc) in DELTA.items():
        nr, nc = r + dr, c + dc
        out[d] = nr * cols + nc if 0 <= nr < nrows and 0 <= nc < cols else -1
    return out


def load_cards(path: Path = CARDS_FILE) -> dict[int, RoundCard]:
    data = _read(path)
    raw = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(raw, list) or len(raw) != CARDS:
        got = len(raw) if isinstance(raw, list) else raw
        raise DataError(path, "cards", f"must be a list of {CARDS} round cards, not {got!r}")
    cards: dict[int, RoundCard] = {}
    for i, cr in enumerate(raw):
        if not isinstance(cr, dict):
            raise DataError(path, f"cards[{i}]", "must be an object")
        cid = _field(path, f"cards[{i}]", cr, "id", lambda v: _is_int(v) and v > 0, "a positive whole number")
        entry = f"card {cid}"
        if cid in cards:
            raise DataError(path, entry, "id listed twice")
        unverified, source = _provenance(path, entry, cr)
        ap = {
            k: _field(path, entry, cr, k, lambda v: _is_int(v) and 0 <= v <= 9, "a whole number 0-9")
            for k in ("king", "knights", "assassins")
        }
        flags = {
            k: _field(path, entry, cr, k, lambda v: isinstance(v, bool), "true or false")
            for k in ("handcuffs", "red_crystal")
        }
        cards[cid] = RoundCard(
            cid,
            ap["king"],
            ap["knights"],
            ap["assassins"],
            flags["handcuffs"],
            flags["red_crystal"],
            unverified,
            source,
        )
    crystals = [c.id for c in cards.values() if c.red_crystal]
    if len(crystals) != 1:
        raise DataError(
            path, "cards", f"exactly one card bears the red crystal, not {len(crystals)} ({crystals})"
        )
    return cards


BOARDS: dict[str, Board] = load_boards()
ROUND_CARDS: dict[int, RoundCard] = load_cards()
