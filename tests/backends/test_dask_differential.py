"""The differential test of the dask device: random standard programs run on
``cpu:0`` and on the dask device, compared step by step.

Programs (``dask_programs.py``) chain elementwise functions, reductions with
every axis form, indexing and assignment of every kind (slices, integers,
``None``, ``...``, masks, index arrays), writes into views of basic indexing
and into their bases, in-place operators, manipulation,
sorting, ``unique_*``, ``searchsorted``, ``nonzero``, cumulative functions,
``linalg`` and ``fft``, with masks making data-dependent sizes along the way.
Each program is replayed under every chunking of its inputs (one chunk,
chunks of one element, uneven random chunks), plainly and with every input
passed through a mask first (so that every step sees sizes that are
``None``).  Integers and booleans must agree bit for bit; floating point
within ``dask_programs.RTOL`` (float64) / ``RTOL32`` (float32) of the result's
magnitude (chunked sums and products add in another order); errors must be
of the CPU's type, at the call or when the result is computed.

A second family of programs (``focus="sizes"``, ``dask_programs.
gen_sizes_step``) is about data-dependent sizes meeting each other: arrays
of one length on the CPU made in several ways on the dask device (masks
keeping all rows or some, ``unique_values``, ``nonzero``), so cut
otherwise, indexed by each other's masks, by 0-d and 1-d index arrays and
slices of every step, assigned through those keys, and combined
elementwise and in reductions; an assignment refused there must be of an
array value into a slice or through index arrays (``_array_into_part``).

Seeded.  ``OCEAN_DASK_DIFF_PROGRAMS`` (default 30 per chunking and mode, about
a minute in all on two cores) and ``OCEAN_DASK_DIFF_STEPS`` (default 8) set
the size, ``OCEAN_DASK_DIFF_SEED`` the first seed: a longer run is the same
test with larger numbers, e.g. ``OCEAN_DASK_DIFF_PROGRAMS=500``
(``OCEAN_DASK_DIFF_SIZES_PROGRAMS``, default 40, for the second family).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array", reason="dask is not installed (.[dask])")

from . import dask_programs as dp

PROGRAMS = int(os.environ.get("OCEAN_DASK_DIFF_PROGRAMS", "30"))
STEPS = int(os.environ.get("OCEAN_DASK_DIFF_STEPS", "8"))
SEED = int(os.environ.get("OCEAN_DASK_DIFF_SEED", "0"))


@pytest.mark.parametrize("masked", [False, True], ids=["plain", "masked"])
@pytest.mark.parametrize("chunking", dp.CHUNKINGS)
def test_random_programs_agree_with_cpu(chunking, masked):
    tally = dp.Tally()
    with warnings.catch_warnings():
        # NumPy's warnings about the programs' own values (overflow, invalid
        # values, division by zero) on both devices
        warnings.simplefilter("ignore", RuntimeWarning)
        # "empty" chunks catch their classes in few programs (each program
        # is replayed with empty chunks on every axis): a third of them
        count = max(1, PROGRAMS // 3) if chunking == "empty" else PROGRAMS
        for seed in range(SEED, SEED + count):
            program, outcomes = dp.generate(seed, STEPS)
            dp.replay(program, outcomes, chunking, masked, tally)
    assert tally.steps > 0
    assert tally.compared > 0
    report = "\n\n".join(str(d) for d in tally.differences[:3])
    assert not tally.differences, (
        f"{len(tally.differences)} differences in {tally.programs} programs "
        f"({tally.steps} steps):\n{report}"
    )
    # refusals (NotImplementedError) only where the values decide a count
    assert set(tally.refused) <= set(dp.REFUSALS)


SIZES_PROGRAMS = int(os.environ.get("OCEAN_DASK_DIFF_SIZES_PROGRAMS", "40"))


@pytest.mark.parametrize("masked", [False, True], ids=["plain", "masked"])
@pytest.mark.parametrize("chunking", ["unit", "uneven"])
def test_data_dependent_sizes_meet_as_on_the_cpu(chunking, masked):
    # arrays of data-dependent size made in several ways (masks keeping all
    # rows or some, unique_values, nonzero), so cut otherwise on the dask
    # device, indexed by each other's masks, 0-d and 1-d index arrays and
    # slices of every step, assigned through those keys, and combined
    # elementwise and in reductions (dask_programs.gen_sizes_step).  It
    # found masks of another cut refused with dask's errors, 0-d index
    # arrays refused in assignments, and one element taking an array.
    tally = dp.Tally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for seed in range(SEED, SEED + SIZES_PROGRAMS):
            program, outcomes = dp.generate(seed, STEPS, focus="sizes")
            dp.replay(program, outcomes, chunking, masked, tally)
    assert tally.steps > 0
    assert tally.compared > 0
    assert tally.errors_matched > 0  # misfits and bounds raise on both
    report = "\n\n".join(str(d) for d in tally.differences[:3])
    assert not tally.differences, (
        f"{len(tally.differences)} differences in {tally.programs} programs "
        f"({tally.steps} steps):\n{report}"
    )
    assert set(tally.refused) <= set(dp.REFUSALS)


def test_refusals_are_only_of_array_values_into_parts():
    # an assignment refused on the dask device counts as a refusal by design
    # only for an array value into a slice or through index arrays
    value = dp.Lit(np.arange(2))
    assert dp._array_into_part(dp.Step("setitem", (dp.Ref(0), slice(1, 3), value)))
    assert dp._array_into_part(
        dp.Step("setitem", (dp.Ref(0), dp.Lit(np.arange(2)), value))
    )
    assert not dp._array_into_part(dp.Step("setitem", (dp.Ref(0), dp.Ref(1), value)))
    assert not dp._array_into_part(
        dp.Step("setitem", (dp.Ref(0), dp.Lit(np.asarray(1)), value))
    )
    assert not dp._array_into_part(dp.Step("setitem", (dp.Ref(0), slice(1, 3), 5)))


def test_the_comparison_can_fail():
    # the comparator catches a wrong value, dtype, shape and NaN placement
    import numpy as np

    a = np.array([1.0, np.nan, 3.0])
    assert dp._close(a, a) is None
    assert dp._close(a + 1e-6, a) is not None
    assert dp._close(a.astype(np.float32), a) is not None
    assert dp._close(a[:2], a) is not None
    assert dp._close(np.array([1.0, 2.0, 3.0]), a) is not None
    assert dp._close(np.array([1, 2]), np.array([1, 3])) is not None
