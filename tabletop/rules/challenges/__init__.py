"""Challenges: character challenges in rank-and-flank rounds and the gambit Challenge Sub-phase.

- ``characters``: who is a character; reading characteristics (named defaults).
- ``gambits``: the nine basic gambits as data; the Face-Off's choosing rules.
- ``duellist``, ``strike``: the gambit challenge's Focus, Strike and Glory code.
- ``odds``: exact odds of a gambit round and the default policy built on them.
- ``gambit``: the Challenge Sub-phase (``challenge_subphase``, ``return_models``).
- ``character_duel``, ``character``: character challenges in a rank-and-flank
  round (``challenge_step``, ``resolve_blows``, ``after_round``).
- ``wording``: every challenge event in words (``SENTENCES``, read by
  ``tabletop.rules.describe.describers``: frames' captions, the CLI).
- ``character_steps``, ``gambit_steps``: the challenges' rows of the
  rank-and-flank round and of the Fight phase, composed into a map's tables
  only when its ``[rules] challenges`` asks for them.

Nothing here registers itself at import time.
"""
