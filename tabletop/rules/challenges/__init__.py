"""Challenges: character challenges in rank-and-flank rounds and the gambit Challenge Sub-phase.

- ``characters``: who is a character; reading characteristics (named defaults).
- ``gambits``: the nine basic gambits as data; the Face-Off's choosing rules.
- ``duellist``, ``strike``: the gambit challenge's Focus, Strike and Glory code.
- ``gambit_rows``: the gambit Challenge Sub-phase as rows of the rules engine, its odds and
  default policy (walked over the same rows).
- ``gambit``: the entry points today's Fight phase calls (``challenge_subphase``,
  ``return_models``), driving ``gambit_rows`` with the engine's driver.
- ``character_duel``, ``character``: character challenges in a rank-and-flank
  round (``challenge_step``, ``resolve_blows``, ``after_round``).
- ``tables``: one geometry snapshot per table object, shared by the challenge code.
- ``wording``: every challenge event in words (``SENTENCES``, read by
  ``tabletop.rules.describe.describers``: frames' captions, the CLI).
- ``character_steps``, ``gambit_steps``: the challenges' rows of the
  rank-and-flank round and of the Fight phase, composed into a map's tables
  only when its ``[rules] challenges`` asks for them.

Nothing here registers itself at import time.
"""
