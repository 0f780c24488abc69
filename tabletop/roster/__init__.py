"""Roster import: read an exported army list, give each model its base, place the units.

- ``model``: what a roster holds (pydantic): ``Roster`` > ``RosterUnit`` > ``RosterModel``.
- ``read``: open a file by its format (BattleScribe ``.ros``/``.rosz``, New Recruit
  ``.json``, the 40K app's text export) and return a ``Roster``.
- ``base_table``: the shipped base-size table and name matching.
- ``layout``: each unit's models laid out around its own origin (a coherent cluster or a
  formation block); ``deploy``: units placed in a deployment zone, left to right, row by row.
"""
