"""Every TOML example in docs/*.md loads (issue 11 item 8: the docs cannot drift).

Each ```toml block of a page must follow a marker line saying what it is:

- ``<!-- example: whole map -->``: loaded as it is with ``board.mapfile.load``;
- ``<!-- example: fragment -->``: loaded inside ``MINIMAL`` (a fight-phase table with
  the players red, active, and blue), ``<!-- example: fragment rank-and-flank -->``
  inside the same table with the rank-and-flank ruleset;
- ``<!-- example: error "TEXT" -->``: a fragment that must be refused, with TEXT in one
  of its problem lines (an example of a map error).

A block with no marker fails, so a new example cannot slip past the check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop.board.mapfile import load
from tabletop.errors import MapValidationError

DOCS = Path(__file__).resolve().parents[1] / "docs"

MINIMAL = """[map]
name = "docs fragment"
ruleset = "{ruleset}"
width = 60
depth = 44

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

"""

_BLOCK = re.compile(r"^```toml[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
_MARKER = re.compile(r"<!-- example: (.*?) -->\s*$")


def blocks(text: str, page: str = "page") -> list[tuple[str, str, str]]:
    """``(what, toml, where)`` for every ```toml block of ``text``; ``what`` is the marker's
    text.  Raises ``AssertionError`` for a block whose previous non-blank line is no marker."""
    out = []
    for m in _BLOCK.finditer(text):
        line_no = text.count("\n", 0, m.start()) + 1
        before = [ln for ln in text[:m.start()].splitlines() if ln.strip()]
        marker = _MARKER.match(before[-1].strip()) if before else None
        assert marker, (f"{page} line {line_no}: a ```toml block needs a marker line before it "
                        f"(<!-- example: whole map | fragment | error \"...\" -->)")
        out.append((marker.group(1).strip(), m.group(1), f"{page}:{line_no}"))
    return out


def _all_examples() -> list[tuple[str, str, str]]:
    out = []
    for page in sorted(DOCS.glob("*.md")):
        out += blocks(page.read_text(encoding="utf-8"), page.name)
    return out


EXAMPLES = _all_examples()


def _load_example(what: str, toml: str, tmp_path: Path):
    """Load one example as its marker says; returns the Battlefield."""
    if what == "whole map":
        text = toml
    elif what in ("fragment", "fragment fight-phase"):
        text = MINIMAL.format(ruleset="fight-phase") + toml
    elif what == "fragment rank-and-flank":
        text = MINIMAL.format(ruleset="rank-and-flank") + toml
    elif what.startswith("error "):
        text = MINIMAL.format(ruleset="fight-phase") + toml
    else:
        raise AssertionError(f"unknown example marker {what!r}")
    path = tmp_path / "example.toml"
    path.write_text(text, encoding="utf-8")
    return load(str(path))


def test_the_pages_exist_and_hold_examples():
    """docs/map-format.md holds whole maps, fragments of both rulesets and an error example;
    docs/design.md is there too (issue 11 item 8)."""
    assert (DOCS / "design.md").is_file()
    kinds = [what for what, _, where in EXAMPLES if where.startswith("map-format.md")]
    assert kinds.count("whole map") >= 2          # the full map and the measured table
    assert kinds.count("fragment") >= 8           # one per table at least
    assert "fragment rank-and-flank" in kinds
    assert any(k.startswith("error ") for k in kinds)


@pytest.mark.parametrize("what,toml,where", [e for e in EXAMPLES if not e[0].startswith("error ")],
                         ids=[e[2] for e in EXAMPLES if not e[0].startswith("error ")])
def test_example_loads(what, toml, where, tmp_path):
    state = _load_example(what, toml, tmp_path)
    assert state.name


@pytest.mark.parametrize("what,toml,where", [e for e in EXAMPLES if e[0].startswith("error ")],
                         ids=[e[2] for e in EXAMPLES if e[0].startswith("error ")])
def test_error_example_is_refused(what, toml, where, tmp_path):
    expected = re.match(r'error "(.*)"$', what)
    assert expected, f"{where}: an error marker is error \"TEXT\""
    with pytest.raises(MapValidationError) as err:
        _load_example(what, toml, tmp_path)
    assert any(expected.group(1) in line for line in err.value.problems), err.value.problems


def test_the_whole_map_example_means_what_the_page_says(tmp_path):
    """The page's first whole map, read back: the numbers its tables state."""
    what, toml, _ = next(e for e in EXAMPLES if e[0] == "whole map")
    state = _load_example(what, toml, tmp_path)
    assert (state.table.width, state.table.depth) == (44.0, 30.0)
    assert state.seed == 12
    hunters = state.unit("hunters")
    # models listed [x, y] get the unit's facing, none given: the default 90 degrees; the third
    # is written [14.8, 14, 0]: facing 0
    assert [m.facing_deg for m in hunters.models] == [90.0, 90.0, 0.0]
    assert [m.id for m in hunters.models] == ["hunters/1", "hunters/2", "hunters/3"]
    raiders = state.unit("raiders")
    # the unit's facing = 180 is its models' facing; "6+" is read as the number 6
    assert [m.facing_deg for m in raiders.models] == [180.0, 180.0]
    assert raiders.models[0].profile["Sv"] == 6
    # the Boss's own weapons replace the unit's; its profile is the unit's
    assert raiders.models[1].weapons[0]["name"] == "Big choppa"
    assert raiders.models[0].weapons[0]["name"] == "Choppa"
    # a 32mm base is 32 / 25.4 = 1.2598" across
    assert hunters.models[0].base.along == pytest.approx(32 / 25.4, abs=1e-9)
    # the objective's marker defaults to 40mm, its range to [rules] objective_range (3.0)
    centre = state.objectives[0]
    assert centre.marker.along_mm == 40.0
    assert state.rules.objective_range == 3.0


def test_the_measured_example_turns_tape_into_outlines(tmp_path):
    """The measured table: corners 10" and 22" from the left, 8" from the bottom, depth 6:
    the piece lies to the left of (10, 8) -> (22, 8), so up to y = 14; its walls are the
    band 0..6" along that side.  B's corner 22" from the right (60 - 22 = 38) and 14" from
    the top (44 - 14 = 30), its first side at 0 degrees, 12" long, 6" deep: (38, 30) to
    (50, 36).  The objective 30" from the left, 22" from the bottom: (30, 22)."""
    what, toml, _ = [e for e in EXAMPLES if e[0] == "whole map"][1]
    state = _load_example(what, toml, tmp_path)
    a = next(t for t in state.terrain if t.id == "A")
    assert sorted(a.polygon) == [(10, 8), (10, 14), (22, 8), (22, 14)]
    assert sorted(a.tall_part) == [(10, 8), (10, 14), (16, 8), (16, 14)]
    b = next(t for t in state.terrain if t.id == "B")
    assert sorted(b.polygon) == [(38, 30), (38, 36), (50, 30), (50, 36)]
    assert state.objectives[0].at == (30, 22)
    assert state.players == ()


def test_the_marker_check_bites():
    """An unmarked block is refused; a fragment with a misspelt key does not load."""
    with pytest.raises(AssertionError, match="needs a marker"):
        blocks("text\n\n```toml\n[map]\n```\n")
    assert blocks('<!-- example: fragment -->\n```toml\n[rules]\n```\n')[0][0] == "fragment"


def test_a_drifted_fragment_fails(tmp_path):
    """The loader really checks a fragment: a key the format does not have is an error."""
    with pytest.raises(MapValidationError, match="unknown key"):
        _load_example("fragment", '[[objectives]]\nid = "x"\nat = [1, 1]\nsize = "40mm"\n',
                      tmp_path)


README = DOCS.parent / "README.md"


def _readme_block(heading: str) -> str:
    """The first ```toml block after the README heading ``heading``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(heading)
    m = _BLOCK.search(text, start)
    assert m, f"no ```toml block after {heading!r}"
    return m.group(1)


def test_the_readme_map_format_example_loads(tmp_path):
    """The README's "Map format" example is a whole map too.  Before this change it did not
    even parse: ``models = [...]`` and then ``[[units.models]]`` for the same unit (TOML
    cannot append tables to an inline array), and its unit "spears" named a player
    "blue" the map did not have."""
    state = _load_example("whole map", _readme_block("## Map format\n"), tmp_path)
    # the Sergeant is int's one model; spears is a formation of count = 20
    assert [m.id for m in state.unit("int").models] == ["int/1"]
    assert len(state.unit("spears").models) == 20


def test_the_readme_measured_table_example_loads(tmp_path):
    """The README's measured-table fragment (section "compare") loads inside a minimal map."""
    state = _load_example("fragment", _readme_block("### compare"), tmp_path)
    assert {t.id for t in state.terrain} == {"C", "E"}
