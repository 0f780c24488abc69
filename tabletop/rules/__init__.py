"""Rules: dice, events, decisions, and one module per ruleset behind a registry.

Rules are pure functions of (state, geometry snapshot, dice, decisions) that
emit events and return the next state.  They never call Shapely: they ask the
snapshot.
"""
