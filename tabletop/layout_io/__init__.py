"""Terrain-layout JSON (the 40kdc-data ``terrain-layout`` and ``deployment-pattern``
schemas, public domain CC0) into and out of a map.

``schema`` holds pydantic models of the JSON, ``place`` the centre-anchored placement
(mirror, then rotate, then translate about the footprint's area centroid), ``read`` the
JSON -> map dict, ``write`` the map -> JSON.  The JSON's frame is y-down inches from the
table's top-left corner; a map's is y-up inches from the bottom-left (DESIGN.md), so a
point (x, y) of the file is (x, depth - y) on the map.
"""
