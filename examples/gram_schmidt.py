"""QR by modified Gram-Schmidt: Q (float64) on the CPU, R (float32) elsewhere.

R lives on ``cuda:0`` when there is one, else on the second logical CPU
``cpu:1``; the strict namespace never mixes devices or dtypes implicitly, so
every crossing is an explicit ``astype(..., device=...)``.
"""

import numpy as np

import ocean_array_api as xp

m, n = 200, 50
A = xp.asarray(np.random.default_rng(0).standard_normal((m, n)))  # float64, cpu:0
devices = {str(d): d for d in xp.__array_namespace_info__().devices()}
r_dev = devices.get("cuda:0", devices["cpu:1"])

Q = xp.asarray(A, copy=True)  # overwritten column by column
R = xp.zeros((n, n), dtype=xp.float32, device=r_dev)
for k in range(n):
    norm = xp.linalg.vector_norm(Q[:, k])  # 0-d float64 on the CPU
    Q[:, k] /= norm  # in place, through a view of Q
    R[k, k] = xp.astype(norm, xp.float32, device=r_dev)
    if k + 1 < n:
        r = Q[:, k] @ Q[:, k + 1 :]  # projections onto the remaining columns
        Q[:, k + 1 :] -= Q[:, k, None] * r[None, :]
        R[k, k + 1 :] = xp.astype(r, xp.float32, device=r_dev)

R64 = xp.astype(R, xp.float64, device=Q.device)  # back to Q's device and dtype
orth = xp.linalg.matrix_norm(Q.mT @ Q - xp.eye(n, dtype=xp.float64))
resid = xp.linalg.matrix_norm(Q @ R64 - A) / xp.linalg.matrix_norm(A)
print(f"Q: {Q.dtype} on {Q.device}, R: {R.dtype} on {R.device}")
print(f"||Q^T Q - I||_F         = {float(orth):.2e}")
print(f"||Q R - A||_F / ||A||_F = {float(resid):.2e}")
