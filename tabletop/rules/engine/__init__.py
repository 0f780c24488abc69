"""The rules engine: phases as tables of rows over frozen states, one driver, one odds
engine (docs/design.md "The rules engine").

- ``pending``: ``Question`` (a player's choice) and ``Chance`` (a roll, as the
  exact distribution of what the rules read from it);
- ``machine``: ``PhaseState``, ``Row``, ``Machine`` (advance to the next pending
  thing, answer it);
- ``scripted``: the one rule matching the map's ``[[decisions]]`` to a question (the
  driver, the odds walks, ``rules.decisions`` and the window all use it);
- ``driver``: answers from the map's ``[[decisions]]``, then a policy; chances
  drawn with seeded dice; every answer recorded;
- ``walk``: exact odds by walking chance outcomes with equal states merged,
  else a seeded Monte Carlo to a stated standard error, decided by counting;
- ``counts``: exact count distributions (successes of N dice, 2D6 tests).
"""
