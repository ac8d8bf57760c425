"""Conformance tooling for ocean_array_api and other Array API libraries.

- ``array-api-tests-xfails.txt``: known failures in the official suite (none).
- :mod:`conformance.compute_mode_plugin`: a pytest plugin that runs a whole test
  session (e.g. the official suite) inside ``ocean_ext.compute_mode(...)``.
"""
