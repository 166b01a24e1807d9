"""Fuzzing rulelang: mutations of the bundled games fed to `rulelang check` (and the engine).

``python -m fuzz --cases 10000`` (``make fuzz``) runs the mutation fuzzer; the test suite runs a
few hundred cases of the same code (tests/test_fuzz.py). See docs/security.md.
"""
