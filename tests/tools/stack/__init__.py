# tests/tools/ has no __init__.py on purpose: a package there would be imported as `tools`
# (pytest puts tests/ first on the path) and hide the real one, tools/ at the root.
