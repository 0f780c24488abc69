""""At least k" figures from a count distribution (issue 9 item 3; docs/json.md).

The odds engines give each unit's losses (and wounds caused, glory points) as a full
distribution ``{count: p}``; a player reads "what is the chance I lose at least 2" at a
glance, so these helpers turn a distribution into its upper tail
``P(X >= k)`` for ``k = 1..n`` and into the ``--json`` keys and the one compact text
line that carry it.  Pure arithmetic: exact when the distribution holds ``Fraction``s,
floats otherwise; no rules are read here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

#: Named default: the "at least" thresholds the text line prints for a unit's models lost
#: (all of k = 1..n go in ``--json``).  A player reads 1 (any loss), half the unit and all
#: of it; more numbers on one line stop being readable at a glance.
TEXT_AT_LEAST = ("1", "half", "all")


def counts(dist: Mapping[Any, Any], key: Callable[[Any], int]) -> dict[int, Any]:
    """``{count: p}`` from a distribution over outcomes ``dist`` ``{outcome: p}``, counting
    each outcome as ``key(outcome)`` (an integer >= 0); the p's add (Fractions stay exact)."""
    out: dict[int, Any] = {}
    for o, p in dist.items():
        k = int(key(o))
        out[k] = out[k] + p if k in out else p
    return out


def at_least(dist: Mapping[int, Any], n: int | None = None) -> dict[int, Any]:
    """``{k: P(count >= k)}`` for ``k = 1..n`` from ``dist`` ``{count: p}`` (counts are
    integers >= 0; ``n`` defaults to the largest count with a chance).  Exact when the p's
    are ``Fraction``s (the tail sums them as they are), else floats.

    Raises ``ValueError`` for a negative count.
    """
    if any(int(k) < 0 for k in dist):
        raise ValueError(f"at_least: negative count in {sorted(dist)}")
    top = max((int(k) for k, p in dist.items() if p), default=0)
    n = top if n is None else n
    zero: Any = Fraction(0) if all(isinstance(p, (int, Fraction)) for p in dist.values()) else 0.0
    tail = zero
    out: dict[int, Any] = {}
    for k in range(max(n, top), 0, -1):
        tail = tail + sum((p for c, p in dist.items() if int(c) == k), zero)
        if k <= n:
            out[k] = tail
    return dict(sorted(out.items()))


def at_least_keys(name: str, dist: Mapping[int, Any], n: int | None = None, *,
                  exact: bool, runs: int | None = None) -> dict[str, Any]:
    """The ``--json`` keys of ``name``'s upper tail: ``{name}_at_least`` {"k": p float}, and
    ``{name}_at_least_exact`` {"k": "a/b"} when ``exact`` (the p's Fractions) or
    ``{name}_at_least_se`` {"k": standard error or None} when sampled from ``runs`` runs
    (None from fewer than 2 runs, as the other ``_se`` keys)."""
    tail = at_least(dist, n)
    out: dict[str, Any] = {f"{name}_at_least": {str(k): float(p) for k, p in tail.items()}}
    if exact:
        out[f"{name}_at_least_exact"] = {str(k): str(Fraction(p)) for k, p in tail.items()}
    else:
        out[f"{name}_at_least_se"] = {
            str(k): (math.sqrt(max(0.0, float(p) * (1 - float(p))) / runs)
                     if runs is not None and runs >= 2 else None) for k, p in tail.items()}
    return out


def unit_at_least(dist: Mapping[Any, Any],
                  fields: Mapping[str, tuple[Callable[[Any], int], int | None]], *,
                  exact: bool, runs: int | None = None) -> dict[str, Any]:
    """Every ``fields`` entry ``name: (key, n)`` as ``at_least_keys`` of ``counts(dist,
    key)`` up to ``n`` (``None``: the largest count seen), ``dist`` a unit's distribution
    over outcomes ``{outcome: p}``."""
    out: dict[str, Any] = {}
    for name, (key, n) in fields.items():
        out.update(at_least_keys(name, counts(dist, key), n, exact=exact, runs=runs))
    return out


def short_pct(p: float, width: int = 0) -> str:
    """A chance (0..1) as a percent with one decimal, the one way every line of an odds
    report prints a chance (``fight --odds``: the tables, the models-removed counts, the
    "at least" lines, the challenge rows), so one chance reads the same on each (0.0054:
    ``0.5%``, never ``1%`` on another line).  One that rounds to 0.0% or 100.0% but is not
    says so (``<0.05%``, ``>99.95%``).  Right-aligned in ``width`` characters (0: none)."""
    text = f"{100 * p:.1f}"
    if p > 0 and float(text) == 0:
        out = "<0.05%"
    elif p < 1 and float(text) == 100:
        out = ">99.95%"
    else:
        out = text + "%"
    return out.rjust(width)


#: the width the report tables give a percent (``  5.7%`` .. ``100.0%``; ``>99.95%`` is one more)
PCT_WIDTH = 6


def text_thresholds(models: int) -> list[int]:
    """The thresholds ``TEXT_AT_LEAST`` names for a unit of ``models`` models (1, half
    rounded up, all; each once, in order)."""
    want = {"1": 1, "half": (models + 1) // 2, "all": models}
    return sorted({want[t] for t in TEXT_AT_LEAST if 1 <= want[t] <= models})


def at_least_line(tail: Mapping[str, float], models: int, what: str = "lost") -> str:
    """A compact line of a unit's "at least" chances, e.g. ``at least 1 lost 78%, half (3)
    22%, all 5 4%`` (the ``text_thresholds`` of ``models``: one, half rounded up, all);
    empty for a unit of no models."""
    ks = [k for k in text_thresholds(models) if str(k) in tail]
    if not ks:
        return ""
    if not tail[str(ks[0])]:
        return f"no model {what}"
    bits = []
    half = (models + 1) // 2
    for i, k in enumerate(ks):
        label = f"all {k}" if k == models and k > 1 else \
            f"half ({k})" if k == half and i > 0 else str(k)
        bits.append((f"at least {label} {what} " if i == 0 else f"{label} ")
                    + short_pct(tail[str(k)]))
    return ", ".join(bits)


def at_least_lines(rows: Iterable[Mapping[str, Any]], indent: str = "  ") -> list[str]:
    """One line per unit row holding ``models_lost_at_least`` and ``models`` (the fight-phase
    ``units[]`` or rank-and-flank ``engagements[].unit_odds[]`` rows): its "at least" chances."""
    rows = [r for r in rows if r.get("models_lost_at_least")]
    if not rows:
        return []
    w = max(len(r["unit"]) for r in rows)
    out = [f"{indent}models lost, at least (k of the unit's models, or more):"]
    for r in rows:
        line = at_least_line(r["models_lost_at_least"], r["models"])
        if line:
            out.append(f"{indent}  {r['unit']:<{w}}  {line}")
    return out
