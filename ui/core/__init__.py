"""The UI's core: its state, the pure transitions that change it, the effects they ask of the shell,
the shape check of a saved table, the saves, and the deferred imports (pure; MicroPython and CPython)."""
