"""The kernels' state layout (`rackety.kernels.fields`): each array's regions
come from one table, which `check_layout` refuses if two regions overlap or
one passes the end of its array."""

from __future__ import annotations

import pytest

from rackety.kernels import fields as f
from rackety.kernels.fields import Region, check_layout


@pytest.mark.parametrize(("array", "table", "size"), [
    ("st", f.ST_LAYOUT, f.ST_SIZE), ("fs", f.FS_LAYOUT, None),
    ("rules", f.G_LAYOUT, f.G_SIZE), ("ints", f.GS_LAYOUT, f.GS_SIZE)])
def test_the_real_tables_pass_and_name_the_constants(array, table, size):
    starts = check_layout(array, table, size)
    assert starts and all(getattr(f, name) == start for name, start in starts.items())


def test_every_code_has_its_points_apart_from_the_opening_penalties():
    """st[R_POINTS + c] for every code c, the blank flag 0x80 included, lies
    before R_OPEN: before, codes 64-127 read the opening's penalties."""
    assert f.R_POINTS + 2 * f.BLANK_FLAG <= f.R_OPEN
    assert f.R_OPEN + 2 * f.OPEN_LANE <= f.ST_SIZE


def test_the_old_overlapping_st_layout_is_refused():
    old = tuple(Region("R_OPEN", 256, 2 * f.OPEN_LANE) if r.name == "R_OPEN" else r
                for r in f.ST_LAYOUT)
    with pytest.raises(ValueError, match="R_POINTS .* overlaps R_OPEN"):
        check_layout("st", old, 448)


@pytest.mark.parametrize(("table", "size", "why"), [
    ((Region("A", 0), Region("B", 4, 8), Region("C", 10)), 32, "B .* overlaps C"),
    ((Region("A", 0, 4), Region("B", 3)), 32, "A .* overlaps B"),
    ((Region("A", 0, 4), Region("B", 4, 8)), 10, "B .* passes its size 10"),
    ((Region("A", 0), Region("A", 1)), 8, "named twice"),
    ((Region("A", -1),), 8, "A at -1"),
    ((Region("A", 0, None), Region("B", 4)), None, "A runs to the end, but B follows"),
    ((Region("A", 0), Region("B", 4, None)), 16, "fixed size"),
])
def test_a_bad_table_is_refused(table, size, why):
    with pytest.raises(ValueError, match=why):
        check_layout("x", table, size)


def test_adjacent_regions_and_an_open_end_pass():
    table = (Region("A", 0, 4), Region("B", 4, 4), Region("C", 8, None))
    assert check_layout("x", table, None) == {"A": 0, "B": 4, "C": 8}
