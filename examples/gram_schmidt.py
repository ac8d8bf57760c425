"""QR by modified Gram-Schmidt: Q (byte-swapped float64) on the CPU, R (float32)
elsewhere.

The Ocean paper's example.  ``Q`` holds its float64 values in the byte order
that is *not* the machine's (as data read from a big-endian file would); ``R``
lives on ``cuda:0`` when there is one, else on the second logical CPU
``cpu:1``.  The strict namespace never mixes devices or dtypes implicitly, so
every crossing is an explicit ``astype(..., device=...)``; ``ocean_ext``
supplies the byte order.
"""

import sys
import time

import numpy as np

import ocean_array_api as xp
import ocean_ext

m, n = 200, 50
a = np.random.default_rng(0).standard_normal((m, n))
A = xp.asarray(a)  # float64, cpu:0, native byte order
devices = {str(d): d for d in xp.__array_namespace_info__().devices()}
r_dev = devices.get("cuda:0", devices["cpu:1"])

swapped = "big" if sys.byteorder == "little" else "little"
Q = ocean_ext.asarray(a.astype(a.dtype.newbyteorder()))  # overwritten column by column
R = xp.zeros((n, n), dtype=xp.float32, device=r_dev)
start = time.perf_counter()
for k in range(n):
    norm = xp.linalg.vector_norm(Q[:, k])  # 0-d float64 on the CPU
    Q[:, k] /= norm  # in place, through a view of Q, in Q's byte order
    R[k, k] = xp.astype(norm, xp.float32, device=r_dev)
    if k + 1 < n:
        r = Q[:, k] @ Q[:, k + 1 :]  # projections onto the remaining columns
        Q[:, k + 1 :] -= Q[:, k, None] * r[None, :]
        R[k, k + 1 :] = xp.astype(r, xp.float32, device=r_dev)
elapsed = time.perf_counter() - start

R64 = xp.astype(R, xp.float64, device=Q.device)  # back to Q's device and dtype
orth = xp.linalg.matrix_norm(Q.mT @ Q - xp.eye(n, dtype=xp.float64))
resid = xp.linalg.matrix_norm(Q @ R64 - A) / xp.linalg.matrix_norm(A)
print(f"Q: {Q.dtype} ({ocean_ext.byteorder(Q)}-endian) on {Q.device}")
print(f"R: {R.dtype} on {R.device}")
print(f"{n} columns in {elapsed * 1e3:.1f} ms ({elapsed / n * 1e6:.0f} us per column)")
# Q is float64: orthogonal to 1e-15 to 1e-14.  R is float32, so Q R matches A
# only to float32's precision (eps = 1.2e-7): expect about 1e-8 to 1e-7.
print(f"||Q^T Q - I||_F         = {float(orth):.2e}  (float64 Q: 1e-15 to 1e-14)")
print(f"||Q R - A||_F / ||A||_F = {float(resid):.2e}  (float32 R: 1e-8 to 1e-7)")

# What the strict namespace refuses: an operation mixing devices would be an
# implicit transfer (and mixing float64 with float32 an implicit cast).
try:
    Q[0, 0] * R[0, 0]
except ValueError as exc:
    print(f"refused: {exc}")

# Q moved to R's device: the values arrive in that device's native order.
Q_r = Q.to_device(r_dev)
same = bool(xp.all(xp.astype(Q_r, xp.float64, device=Q.device) == Q))
print(f"Q on {Q_r.device}: {ocean_ext.byteorder(Q_r)}-endian, values equal: {same}")
