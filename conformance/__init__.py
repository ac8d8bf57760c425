"""Conformance tooling for ocean_array_api and other Array API libraries.

- ``python -m conformance TARGET`` (also the ``ocean-conformance`` script):
  test any array namespace against the standard, differentially, with
  ``ocean_array_api`` as the reference (:mod:`conformance.__main__`; see
  ``docs/dev/conformance_tool.md``).  Its parts: :mod:`conformance.registry`
  (one entry per standard name, from the spec tables in ``_spec/``),
  :mod:`conformance.families` (the differential features, one module per
  section of the standard), :mod:`conformance.static` (presence, signatures,
  constants, inspection), :mod:`conformance.checks`, :mod:`conformance.calls`
  (recorded calls and repros), :mod:`conformance.coverage` (the input classes
  a verdict rests on), :mod:`conformance.runner`, :mod:`conformance.prove`
  (every repro run in a fresh interpreter) and :mod:`conformance.report`;
  :mod:`conformance.table` makes the published table.
- ``tests/conformance/mutants`` (development fixtures, not installed):
  namespaces with one injected bug each, to measure bug-finding power, and
  variants the standard allows, which must not be flagged.
- ``array-api-tests-xfails.txt``: known failures in the official suite (none).
- :mod:`conformance.compute_mode_plugin`: a pytest plugin that runs a whole test
  session (e.g. the official suite) inside ``ocean_ext.compute_mode(...)``.
"""
