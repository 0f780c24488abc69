"""The interactive window: tools (select, drag, ruler), step-through, lessons."""
