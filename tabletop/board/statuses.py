"""The status words a map may write (``status = [...]`` on a unit or a model).

Named default KNOWN_STATUSES ([rules] extra_statuses adds words; README "Statuses"):
the words the program reads (``disgraced``: gambit-challenge.txt Disgraced and the
rank-and-flank character challenge; ``fleeing``: rank-and-flank-combat.txt Fleeing;
``advanced`` and ``fell-back``: a 40K unit that may not declare a charge,
``rules/charge.py`` CHARGE_BARRING_STATUS) and the other statuses of the game whose
challenge text the program implements (gambit-challenge.txt speaks of "other statuses":
``pinned``, ``suppressed``, ``stunned``, ``routed``) and 40K's ``battle-shocked``; plus
``challenge:<model id>``, the bookkeeping of a character challenge.  The rule texts list no
closed set; a player expects a typo ("advnaced") to be refused, not silently read as a
status that bars nothing, so any other word is refused at load unless the map names it in
``[rules] extra_statuses``.  Words match whatever their case.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["KNOWN_STATUSES", "STATUS_PREFIXES", "unknown_statuses"]

KNOWN_STATUSES = ("advanced", "fell-back", "fleeing", "disgraced", "battle-shocked",
                  "pinned", "suppressed", "stunned", "routed")
#: a status word that starts with one of these is bookkeeping with an id after it
STATUS_PREFIXES = ("challenge:",)


def unknown_statuses(words: Iterable[str], extra: Iterable[str] = ()) -> list[str]:
    """The words of ``words`` that are neither in KNOWN_STATUSES nor in ``extra`` (whatever
    their case) nor start with one of STATUS_PREFIXES, in the order given."""
    known = {w.lower() for w in (*KNOWN_STATUSES, *extra)}
    return [w for w in words
            if w.lower() not in known and not w.lower().startswith(STATUS_PREFIXES)]
