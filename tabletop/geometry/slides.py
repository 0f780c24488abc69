"""Event-driven steering of a round base round other round bases (no physics).

The same route the pymunk steering (``paths._Sim.steer``) draws for a round
base among round bases, found by a handful of analytic events instead of
hundreds of simulated steps.  A round base of radius r keeps clear of a round
base of radius q standing at c exactly when its centre stays r + q (+ the
arena's margin) or more from c: every obstacle is a circle, grown by the
mover's radius and the margin, that the centre slides round.  From the
start the centre:

1. goes straight toward the aim until it first meets a grown circle (a ray
   against every circle, numpy) - or reaches the aim, or its ``stop`` test
   holds, or it has gone ``limit`` inches;
2. slides round that circle, on the arc toward which the pull to the aim
   points; head-on (the pull's share along the circle under ``paths.HEAD_ON``)
   it keeps the circle on the hand ``side`` gives, as the steering does;
3. leaves the circle where the way to the aim no longer leads into it (the
   tangent toward the aim), and goes back to 1; meeting another circle on
   the way round, it follows the outline of the two (same hand), unless the
   pull then points back into the pocket they make: then it turns head-on.

Touching a goal base (its circle grown by ``paths.TOUCH_FRACTION`` of the
margin more, the steering's touch) ends the route, reached.  A table edge
near the start is a circle of radius ``WALL_RADIUS`` touching the edge line
(less the mover's radius and margin) at the point nearest the start: within
a route's reach of ~10" it departs from the line by reach^2 / (2 R), 5e-5", a
four-hundredth of the default tolerance (larger circles lose the other
circle's radius to rounding where they cross).  A circle the start already stands inside (a base in
contact, a hair deep) is shrunk to pass through the start, as the steering
starts touching it.

Arcs come back as polylines with points on the circle close enough that no
chord dips more than ``sag`` inches inside it (the caller gives a fraction of
the margin, so every chord stays clear; it pulls the route tight,
``paths.pull_tight``), and at most ``ARC_SAMPLE`` apart.  Everything runs
in a frame centred on the start (``paths.SIM_DECIMALS``), so the same case
anywhere on the table gives the same route.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

XY = tuple[float, float]

#: points on an arc are at most this far apart (inches) in the raw route
ARC_SAMPLE = 0.04
#: a ``stop`` test is looked at this far apart along a leg or an arc, then the
#: first place it holds is halved down ``STOP_HALVINGS`` times
STOP_SAMPLE = 0.05
STOP_HALVINGS = 12
#: a table edge is a circle this large (inches) touching the edge line
WALL_RADIUS = 1.0e6
#: events per route at most (each is one leg or one arc; a route that runs
#: out of them stops where it is, not reached, like a stuck steering)
MAX_EVENTS = 200
#: stuck (as the steering, ``paths.STUCK_PROGRESS``): it has made less than this
#: (inches) over the last ``STUCK_EVENTS`` events
STUCK_EVENTS = 6
STUCK_PROGRESS = 0.02
_EPS = 1e-9
#: inches: circles whose edge is farther than the route's limit plus this from the start
#: are left out of a walk (no route of that length meets them)
_REACH_SLACK = 1e-3
_TAU = 2.0 * math.pi


def _ang_dist(a: float, b: float, sense: int) -> float:
    """Angle turned going from ``a`` to ``b`` in ``sense`` (+1 ccw), in [0, 2 pi)."""
    d = (b - a) * sense % _TAU
    return d


class _Walk:
    def __init__(self, circles: np.ndarray, goal: np.ndarray, aim: XY,
                 stop: Callable[[XY], bool] | None, limit: float, side: int,
                 head_on: float, sag: float):
        self.sag = sag
        self.c = circles                      # (n, 3) x, y, grown radius (frame of the start)
        self.goal = goal                      # (n,) bool
        self.aim = aim
        self.stop = stop
        self.limit = limit
        self.side_sense = -1 if side > 0 else 1   # pymunk's side +1 turns clockwise
        self.head_on = head_on
        self.route: list[XY] = [(0.0, 0.0)]
        self.length = 0.0
        self.turned = False
        self.wedge: int | None = None         # points up to the first wedge
        # the walk's state as it asks which hand to keep (``_side``): the event,
        # the call, the route and its length so far, ``turned``, ``wedge``, the
        # points of the stuck test; ``fork`` is the one of the first such call
        self._pending: tuple | None = None
        self.fork: tuple | None = None
        self._crossings: dict[tuple[int, int], tuple[list[int], list[float]]] = {}
        self._rows: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        # the circles as plain floats (x, y, r), for the per-event tests (``_ray``,
        # ``_pressing``): a few dozen circles cost less one by one than in numpy calls;
        # one circle's numbers read as floats, not numpy scalars (the same values)
        self.cl: list[list[float]] = circles.tolist()

    # ---------------------------------------------------------------- stop
    def _stop_on(self, at: Callable[[float], XY], span: float) -> float | None:
        """The first arc length in (0, span] where ``stop`` holds, or None."""
        if self.stop is None or span <= 0:
            return None
        n = max(1, math.ceil(span / STOP_SAMPLE))
        lo = 0.0
        for k in range(1, n + 1):
            s = span * k / n
            if self.stop(at(s)):
                hi = s
                for _ in range(STOP_HALVINGS):
                    mid = (lo + hi) / 2.0
                    if self.stop(at(mid)):
                        hi = mid
                    else:
                        lo = mid
                return hi
            lo = s
        return None

    # ---------------------------------------------------------------- legs
    def _ray(self, p: XY, u: XY, span: float) -> tuple[float, int]:
        """First circle the centre meets going from ``p`` along unit ``u``
        within ``span``: (distance, index), or (span, -1).

        Plain floats, circle by circle: the same operations in the same order as
        numpy over all of them (+, -, *, sqrt are correctly rounded either way;
        a radius squared as numpy squares it, r * r), and the first nearest."""
        px0, py0 = p[0], p[1]
        ux, uy = u[0], u[1]
        best, k = math.inf, -1
        for j, (cx, cy, r) in enumerate(self.cl):
            px, py = cx - px0, cy - py0
            b = px * ux + py * uy                 # along the ray to the centre's foot
            if not b > _EPS:
                continue
            cc = px * px + py * py - r * r        # < 0: p inside
            disc = b * b - cc
            if not disc > 0:
                continue
            t = b - math.sqrt(disc)
            if t < span and t > -_EPS and t < best:
                best, k = t, j
        if k < 0:
            return span, -1
        return max(0.0, best), k

    def _pressing(self, p: XY, u: XY) -> int:
        """The circle the centre stands on and the pull ``u`` presses into most, or -1.

        Plain floats, circle by circle; a circle is measured (``np.hypot``, as
        numpy over all of them measures it) only when its squared centre
        distance does not already put the centre well off it."""
        px0, py0 = p[0], p[1]
        ux, uy = u[0], u[1]
        best, k = -math.inf, -1
        for j, (cx, cy, r) in enumerate(self.cl):
            px, py = cx - px0, cy - py0
            edge = r + 1e-7
            if px * px + py * py > edge * edge * (1.0 + 1e-9) + 1e-300:
                continue                          # farther than its edge: not on it
            d = float(np.hypot(px, py))
            if not d <= edge:
                continue
            press = (px * ux + py * uy) / (d if d > 0 else 1.0)
            if press > _EPS and press > best:
                best, k = press, j
        return k

    # ---------------------------------------------------------------- arcs
    def _arc_hit(self, k: int, theta: float, sense: int, span: float) -> tuple[float, int]:
        """First other circle met going round circle ``k`` from angle ``theta`` in
        ``sense``, within ``span`` radians: (angle turned, index), or (span, -1)."""
        hit = self._crossings.get((k, sense))
        if hit is None:
            idx_a, enter_a = self._enter_angles(k, sense)
            hit = self._crossings[(k, sense)] = (idx_a.tolist(), enter_a.tolist())
        idx, enter = hit
        if not idx:
            return span, -1
        # a few circles at most: plain floats (``%`` floors as numpy's remainder does),
        # the first smallest turn as ``argmin`` takes it
        best, i = math.inf, -1
        for j, e in enumerate(enter):
            turn = ((e - theta) * sense) % _TAU
            if turn > _TAU - _EPS:
                turn = 0.0                    # at the way in: met now
            if turn < best:
                best, i = turn, j
        if best >= span:
            return span, -1
        return best, idx[i]

    def _enter_angles(self, k: int, sense: int) -> tuple[np.ndarray, np.ndarray]:
        """The circles that cross circle ``k`` and the angle on ``k`` where going
        round it in ``sense`` enters each (circle ``k``'s row of the pairs, worked
        out the first time a walk goes round it; O(n) per circle, not O(n^2) per walk)."""
        row = self._rows.get(k)
        if row is None:
            c = self.c
            dx = c[:, 0] - c[k, 0]
            dy = c[:, 1] - c[k, 1]
            d = np.hypot(dx, dy)
            r, rj = c[k, 2], c[:, 2]
            cross = (d < r + rj) & (d > np.abs(r - rj)) & (d > 0)
            cross[k] = False
            idx = cross.nonzero()[0]
            dd, rr = d[idx], rj[idx]
            cos_a = (r * r + dd * dd - rr * rr) / (2.0 * r * dd)
            # clipped to [-1, 1] (maximum then minimum: np.clip's numbers, bounds not zero)
            row = self._rows[k] = (idx, np.arctan2(dy[idx], dx[idx]),
                                   np.arccos(np.minimum(np.maximum(cos_a, -1.0), 1.0)))
        idx, phi, alpha = row
        return idx, phi - sense * alpha

    def _leave_turn(self, k: int, theta: float, sense: int) -> float:
        """Angle to turn round circle ``k`` (in ``sense``) until the way to the aim
        leads away from it (0: already), or inf when it never does."""
        cx, cy, r = self.cl[k]
        wx, wy = self.aim[0] - cx, self.aim[1] - cy
        w = math.hypot(wx, wy)
        if w <= r:
            return math.inf
        beta = math.acos(r / w)
        tw = math.atan2(wy, wx)
        p = self.route[-1]
        ax, ay = self.aim[0] - p[0], self.aim[1] - p[1]
        a = math.hypot(ax, ay)
        if a < 1e-12 or (ax * (cx - p[0]) + ay * (cy - p[1])) / (a * r) <= _EPS:
            return 0.0                        # the same test as ``_pressing``
        return _ang_dist(theta, tw - sense * beta, sense)

    def _tangent(self, k: int, p: XY, sense: int) -> XY:
        cx, cy, r = self.cl[k]
        ux, uy = (p[0] - cx) / r, (p[1] - cy) / r
        return (-uy * sense, ux * sense)

    def _go_round(self, k: int, sense: int, head_on: bool) -> tuple[str, int, int, bool]:
        """Slide round circle ``k`` from the route's end.  Returns (what ended it:
        "leave" | "hit" | "stop" | "limit" | "goal", the circle now on, sense, head_on)."""
        cx, cy, r = self.cl[k]
        p = self.route[-1]
        theta = math.atan2(p[1] - cy, p[0] - cx)
        leave = self._leave_turn(k, theta, sense)
        room = (self.limit - self.length) / r
        span = min(leave, room, _TAU)
        turn, j = self._arc_hit(k, theta, sense, span)

        def at(s: float) -> XY:
            a = theta + sense * s / r
            return (cx + r * math.cos(a), cy + r * math.sin(a))
        hit_stop = self._stop_on(at, turn * r)
        if hit_stop is not None:
            self._arc_to((cx, cy), r, theta, sense, hit_stop)
            return "stop", k, sense, head_on
        self._arc_to((cx, cy), r, theta, sense, turn * r)
        if j >= 0:
            if self.goal[j]:
                return "goal", j, sense, head_on
            return "hit", j, sense, head_on
        if turn >= room - 1e-12:
            return "limit", k, sense, head_on
        if turn >= _TAU - 1e-12:
            return "limit", k, sense, head_on    # all the way round: it cannot get away
        return "leave", k, sense, head_on

    def _arc_step(self, r: float) -> float:
        """Arc length between points on a circle of radius ``r`` whose chord dips
        ``sag`` inside it."""
        return 2.0 * r * math.acos(max(-1.0, 1.0 - self.sag / r))

    def _arc_to(self, c: XY, r: float, theta: float, sense: int, s: float) -> None:
        """Add the arc of ``s`` inches round the circle at ``c`` (radius ``r``) from
        angle ``theta`` in ``sense`` to the route, as points ``_arc_step`` apart."""
        if s <= 0:
            return
        n = max(1, math.ceil(s / min(ARC_SAMPLE, self._arc_step(r))))
        a = theta + sense * (s / r) * _counts(n) / n
        xs = c[0] + r * np.cos(a)
        ys = c[1] + r * np.sin(a)
        self.route.extend(zip(xs.tolist(), ys.tolist()))
        self.length += s

    # ---------------------------------------------------------------- walk
    def run(self, fork: tuple | None = None) -> tuple[list[XY], bool, bool]:
        """Walk from the start; with ``fork`` (another walk's ``fork``: the same
        circles, aim, stop test and limit, the other hand), from where that walk
        first asked which hand to keep, with its route so far: every event before
        that is the same on either hand, so the route is the one walked from the start."""
        if fork is not None:
            it, kind, args, route, n_route, last, length, turned, wedge, seen, n_seen = fork
            self.route = route[:n_route]
            self.route[-1] = last
            self.length, self.turned, self.wedge = length, turned, wedge
            return self._events(it, -1, 1, False, seen[:n_seen], (kind, args))
        if self.stop is not None and self.stop((0.0, 0.0)):
            return self.route, True, False
        return self._events(0, -1, 1, False, [], None)

    def _events(self, first: int, on: int, sense: int, head_on: bool, seen: list[XY],
                resume: tuple | None) -> tuple[list[XY], bool, bool]:
        for it in range(first, MAX_EVENTS):
            if resume is not None:            # the hand asked for where the fork was taken
                kind, args = resume
                resume = None
                if kind == "start":
                    on, sense, head_on = self._start_round(*args)
                else:
                    on, sense, head_on = self._corner(*args)
                continue
            p = self.route[-1]
            seen.append(p)
            if len(seen) > STUCK_EVENTS and math.dist(seen[-1 - STUCK_EVENTS], p) < STUCK_PROGRESS:
                return self.route, False, self.turned     # stuck in a pocket, as the steering
            if on < 0:
                dx, dy = self.aim[0] - p[0], self.aim[1] - p[1]
                dist = math.hypot(dx, dy)
                if dist < 1e-6:
                    return self.route, self.stop is None, self.turned
                u = (dx / dist, dy / dist)
                k = self._pressing(p, u)
                if k >= 0:
                    if self.goal[k]:
                        return self.route, True, self.turned
                    self._pending = (it, "start", (k, p, u), self.route, len(self.route), p,
                                     self.length, self.turned, self.wedge, seen, len(seen))
                    on, sense, head_on = self._start_round(k, p, u)
                    continue
                room = self.limit - self.length
                t, k = self._ray(p, u, min(dist, room))

                def at(s: float, p=p, u=u) -> XY:
                    return (p[0] + u[0] * s, p[1] + u[1] * s)
                hs = self._stop_on(at, t)
                if hs is not None:
                    self.route.append(at(hs))
                    self.length += hs
                    return self.route, True, self.turned
                if t > 0:
                    self.route.append(at(t))
                    self.length += t
                if k >= 0:
                    if self.goal[k]:
                        return self.route, True, self.turned
                    continue                  # on circle k: pressing, next event
                if room < dist:
                    return self.route, False, self.turned
                self.route[-1] = self.aim     # at the aim: the next event ends it
                continue
            why, j, sense, head_on = self._go_round(on, sense, head_on)
            if why == "stop" or why == "goal":
                return self.route, True, self.turned
            if why == "limit":
                return self.route, False, self.turned
            if why == "leave":
                on = -1
                continue
            # met circle j going round ``on``: follow the outline of the two
            self._pending = (it, "corner", (on, j, sense, head_on), self.route,
                             len(self.route), self.route[-1], self.length, self.turned,
                             self.wedge, seen, len(seen))
            on, sense, head_on = self._corner(on, j, sense, head_on)
        return self.route, False, self.turned

    def _side(self) -> int:
        """The hand ``side`` gives; the first time it is asked for, the walk so far
        is kept as ``fork`` (the other hand's walk goes on from there)."""
        if self.fork is None:
            self.fork = self._pending
        return self.side_sense

    def _start_round(self, k: int, p: XY, u: XY) -> tuple[int, int, bool]:
        """Pressing into circle ``k`` at ``p`` with pull ``u``: which way round."""
        t = self._tangent(k, p, 1)
        along = u[0] * t[0] + u[1] * t[1]
        cx, cy, r = self.cl[k]
        nx, ny = (cx - p[0]) / r, (cy - p[1]) / r
        push = u[0] * nx + u[1] * ny
        rest = math.hypot(u[0] - nx * push, u[1] - ny * push)
        if rest < self.head_on:
            side = self._side()
            self.turned = True
            return k, side, True
        return k, (1 if along > 0 else -1), False

    def _corner(self, k: int, j: int, sense: int, head_on: bool) -> tuple[int, int, bool]:
        """Going round ``k`` in ``sense`` the centre met ``j``: it goes on round
        ``j`` in the same sense (the outline of the two, same hand).  The first
        time the pull to the aim presses into both (wedged in the pocket they
        make, where the steering stops stuck) the route so far is kept
        (``wedge``); a head-on pull turns it onto the hand ``side`` gives."""
        p = self.route[-1]
        dx, dy = self.aim[0] - p[0], self.aim[1] - p[1]
        dist = math.hypot(dx, dy) or 1.0
        u = (dx / dist, dy / dist)
        if self._presses(k, p, u) and self._presses(j, p, u) and self.wedge is None:
            self.wedge = len(self.route)
        if head_on:
            return j, sense, True
        t = self._tangent(j, p, sense)
        if u[0] * t[0] + u[1] * t[1] >= self.head_on:
            return j, sense, False            # the pull still leads on round j
        # the pull points into the pocket the two make: head-on, the hand ``side`` gives
        side = self._side()
        self.turned = True
        if side == sense:
            return j, sense, True
        return k, -sense, True

    def _presses(self, k: int, p: XY, u: XY) -> bool:
        cx, cy, r = self.cl[k]
        return (u[0] * (cx - p[0]) + u[1] * (cy - p[1])) / r > _EPS


@lru_cache(maxsize=256)
def _counts(n: int) -> np.ndarray:
    """1.0, 2.0, ..., n as a read-only array (``np.arange(1, n + 1)``'s values, as
    floats: a float times it gives the same numbers)."""
    out = np.arange(1, n + 1, dtype=float)
    out.setflags(write=False)
    return out


def slide(start: XY, aim: XY, circles: np.ndarray, goal: np.ndarray,
          stop: Callable[[XY], bool] | None, limit: float, side: int,
          head_on: float, decimals: int, sag: float,
          memo: dict | None = None,
          handoff: dict | None = None) -> tuple[list[XY], bool, bool, int | None]:
    """Steer a round base's centre from ``start`` toward ``aim`` round grown circles.

    Parameters
    ----------
    circles : (n, 3) centres and radii (inches, table frame) the centre must stay
        out of: each obstacle's radius plus the mover's plus the margin (a goal
        base's also plus the touch distance).
    goal : (n,) bool, circles whose touch ends the route (reached).
    stop : optional test on the centre (table frame) that ends the route (reached).
    limit : the longest raw route (inches).
    side : +1 or -1, the hand a head-on obstacle is kept on (``paths._Sim.steer``).
    head_on : below this share of the pull along a circle, the pull is head-on.
    decimals : the frame centred on the start rounds every coordinate to these.
    sag : inches an arc's chords may dip inside its circle in the raw route.
    memo : optional dict shared by the walks of one mover (both sides, every
        aim): the circles in the start's frame and where each crosses the
        others are worked out once per start, circles and limit, not per walk
        (they do not depend on the aim or the side); the same routes.

    Returns
    -------
    (raw route in table coordinates, reached, turned: it went round a circle
    head-on, wedge: the route's first so many points end where it was first
    wedged between two circles, or None)
    """
    ox, oy = float(start[0]), float(start[1])
    key = None
    prepared = None
    if memo is not None:
        circles = np.asarray(circles, dtype=float)
        goal = np.asarray(goal, dtype=bool)
        key = (ox, oy, decimals, limit, circles.shape, circles.tobytes(), goal.tobytes())
        prepared = memo.get(key)
    if prepared is None:
        c = np.array(circles, dtype=float).reshape(-1, 3).copy()
        c[:, 0] = np.round(c[:, 0] - ox, decimals)
        c[:, 1] = np.round(c[:, 1] - oy, decimals)
        # a circle the start stands in is shrunk to pass through it (touching at the start)
        d0 = np.hypot(c[:, 0], c[:, 1])
        c[:, 2] = np.minimum(c[:, 2], d0)
        keep = c[:, 2] > _EPS                 # a base centred on the start: no circle to go round
        # a route is at most ``limit`` long, so it never meets a circle farther than that
        keep &= d0 - c[:, 2] <= limit + _REACH_SLACK
        prepared = (c[keep], np.asarray(goal, dtype=bool).reshape(-1)[keep], {}, {})
        if key is not None and memo is not None:
            memo[key] = prepared
    c, goal, rows, crossings = prepared
    rel_aim = (round(aim[0] - ox, decimals), round(aim[1] - oy, decimals))
    rel_stop = None if stop is None else (lambda p: stop((ox + p[0], oy + p[1])))
    walk = _Walk(c, goal, rel_aim, rel_stop, limit, side, head_on, sag)
    walk._rows, walk._crossings = rows, crossings
    fork = None
    same = (start, aim, stop, limit, head_on, decimals, sag, id(c))
    if handoff is not None:
        left = handoff.get("fork")
        if left is not None and left[0] == same and left[1] != side:
            fork = left[2]
    route, reached, turned = walk.run(fork)
    if handoff is not None and fork is None and walk.fork is not None:
        handoff["fork"] = (same, side, walk.fork, c)
    out = [(ox + x, oy + y) for x, y in route]
    out[0] = (ox, oy)
    return out, reached, turned, walk.wedge
