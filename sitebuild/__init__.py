"""The steps of ``build.py``, one job per module (the command and the list of modules: ``build.py``)."""
