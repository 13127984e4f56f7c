from __future__ import annotations

from pi_app.store.registry import Registry, RegistryError
from pi_app.ui import screens
from pi_app.ui.menu import BACK, CONFIRM, Cursor, flatten, split
from tests.pi_app.fakegame import mv


def test_split_groups_by_first_differing_field():
    moves = [mv(type="pass"), mv(type="place", region="n", colour="red"),
             mv(type="place", region="n", colour="blue"), mv(type="place", region="s", colour="red")]
    field, options = split(moves)
    assert field == "type" and [o.value for o in options] == ["pass", "place"]
    field, options = split(options[1].moves)
    assert field == "region" and [len(o.moves) for o in options] == [2, 1]
    assert flatten({"a": {"b": 1, "c": [2]}}) == {"a.b": 1, "a.c": [2]}


def test_split_keeps_values_apart_as_their_json_does():
    # plain values are grouped by type and value, others by their JSON
    moves = [mv(n=1), mv(n=True), mv(n=1.0), mv(n="1"), mv(n=None), mv(n=1), mv(n=[1]), mv(n=[1])]
    field, options = split(moves)
    assert field == "n" and [o.value for o in options] == [1, True, 1.0, "1", None, [1]]
    assert [len(o.moves) for o in options] == [2, 1, 1, 1, 1, 2]


def test_cursor_wraps_backs_and_confirms():
    c = Cursor.over([mv(type="pass"), mv(type="play", card="x"), mv(type="play", card="y")])
    c.step(-1)
    assert c.current().value == "play"
    assert c.select() is None
    assert [o.kind for o in c.options()][-1] == BACK
    c.step(1)
    c.select()
    assert c.current().kind == CONFIRM and c.select() == mv(type="play", card="y")


def test_render_layout_fits_128x64():
    lay = screens.Layout(title="Your turn", big="Aquae Sulis", lines=("region 2/8",), footer="◀   ●   ▶")
    img = screens.render(lay)
    assert img.size == (128, 64) and img.mode == "1"
    assert img.getbbox() is not None
    size, lines = screens.fit_big("Put 2 blue followers in Deva", room=40)
    assert size < screens.BIG_SIZES[0] and len(lines) * (size + 1) <= 40
    art = screens.ascii_art(img)
    assert len(art.splitlines()) <= 32


def test_registry_refuses_a_uid_enrolled_as_something_else(tmp_path):
    reg = Registry(tmp_path / "tags.sqlite")
    reg.enroll("04:a1:b2:c3:d4:e5:f6", "king-is-dead", "garrison@2")
    assert reg.lookup("04A1B2C3D4E5F6").component == "garrison@2"
    reg.enroll("04A1B2C3D4E5F6", "king-is-dead", "garrison@2")  # same thing again: fine
    try:
        reg.enroll("04A1B2C3D4E5F6", "king-is-dead", "crown@1")
    except RegistryError as exc:
        assert "already enrolled as garrison@2" in str(exc) and "tags forget" in str(exc)
    else:
        raise AssertionError("a second enrolment was accepted")
    assert reg.forget("04A1B2C3D4E5F6") and reg.lookup("04A1B2C3D4E5F6") is None
    try:
        reg.enroll("zz", "g", "c")
    except RegistryError as exc:
        assert "not a tag UID" in str(exc)
