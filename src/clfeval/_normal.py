"""The normal distribution for intervals and p-values, in Python and as Polars expressions.

NumPy has no normal quantile and Polars no error function, so both are written out once
here, with the SQL twins ``_clf_ndtri`` and ``_clf_erfc`` (``sql/70_uncertainty.sql``)
evaluating the same polynomials in the same order:

* the quantile Φ⁻¹(p) is Wichura's AS241 (PPND16, relative error about 1e-16; Python's
  ``statistics.NormalDist.inv_cdf`` uses the same algorithm);
* the complementary error function is Cephes' ``erfc`` (W. J. Cody's rational
  approximations; relative error below 1e-13 up to x = 26.6, where it underflows), so a
  two-sided p-value 2·Φ(−|z|) = erfc(|z|/√2) keeps its digits far into the tail.

Both engines call the C library's ``exp``, ``log`` and ``sqrt`` (NumPy's vectorised ``exp``
and ``log`` differ from it in the last bit, so NumPy is not used for them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

__all__ = ["erfc", "ndtri", "p_value"]

# AS241, highest degree first (Horner): central region |p − 0.5| <= 0.425, then the tails
# r = sqrt(−log(min(p, 1 − p))) <= 5 (shifted by 1.6) and r > 5 (shifted by 5)
A = (2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4,
     4.5921953931549871457e4, 1.3731693765509461125e4, 1.9715909503065514427e3,
     1.3314166789178437745e2, 3.3871328727963666080e0)  # fmt: skip
B = (5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4,
     2.1213794301586595867e4, 5.3941960214247511077e3, 6.8718700749205790830e2,
     4.2313330701600911252e1, 1.0)  # fmt: skip
C = (7.7454501427834140764e-4, 2.2723844989269184583e-2, 2.4178072517745061177e-1,
     1.2704582524523683826e0, 3.6478483247632046050e0, 5.7694972214606914055e0,
     4.6303378461565452959e0, 1.4234371107496835773e0)  # fmt: skip
D = (1.0507500716444168432e-9, 5.4759380849953449460e-4, 1.5198666563616457197e-2,
     1.4810397642748007459e-1, 6.8976733498510000455e-1, 1.6763848301838038494e0,
     2.0531916266377588219e0, 1.0)  # fmt: skip
E = (2.0103343992922881327e-7, 2.7115555687434875782e-5, 1.2426609473880784386e-3,
     2.6532189526576123093e-2, 2.9656057182850489123e-1, 1.7848265399172913358e0,
     5.4637849111641143699e0, 6.6579046435011037772e0)  # fmt: skip
F = (2.0442631033899397856e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
     7.8686913114561325910e-4, 1.4875361290850614853e-2, 1.3692988092273580531e-1,
     5.9983220655588793769e-1, 1.0)  # fmt: skip

# Cephes erfc: x < 8 (P/Q), x >= 8 (R/S); erf for |x| < 1 (T/U). Q, S, U have an implicit
# leading 1 (Cephes' p1evl).
P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
     4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
     9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)  # fmt: skip
Q = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
     9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
     1.65666309194161350182e3, 5.57535340817727675546e2)  # fmt: skip
R = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
     6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)  # fmt: skip
S = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
     1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)  # fmt: skip
T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
     7.00332514112805075473e3, 5.55923013010394962768e4)  # fmt: skip
U = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
     2.26290000613890934246e4, 4.92673942608635921086e4)  # fmt: skip


def _horner(coefs: Sequence[float], x: float) -> float:
    out = coefs[0]
    for c in coefs[1:]:
        out = out * x + c
    return out


def ndtri(p: float) -> float:
    """Φ⁻¹(p), the standard normal quantile (AS241); ±inf at 0 and 1.

    Examples
    --------
    >>> round(ndtri(0.975), 12)
    1.95996398454
    """
    if p <= 0.0 or p >= 1.0:
        return -math.inf if p <= 0.0 else math.inf
    q = p - 0.5
    if abs(q) <= 0.425:
        r = 0.180625 - q * q
        return q * _horner(A, r) / _horner(B, r)
    r = math.sqrt(-math.log(p if q < 0 else 1.0 - p))
    if r <= 5.0:
        r = r - 1.6
        x = _horner(C, r) / _horner(D, r)
    else:
        r = r - 5.0
        x = _horner(E, r) / _horner(F, r)
    return -x if q < 0 else x


def erfc(x: float) -> float:
    """The complementary error function (the C library's, which Cephes' expression twins)."""
    return math.erfc(x)


def _poly(coefs: Sequence[float], x: pl.Expr) -> pl.Expr:
    out: pl.Expr = pl.lit(coefs[0])
    for c in coefs[1:]:
        out = out * x + c
    return out


def erfc_expr(x: pl.Expr) -> pl.Expr:
    """Cephes' erfc of ``x`` (x >= 0) as a Polars expression; 1 − erf(x) below 1."""
    z = x * x
    small = 1.0 - x * _poly(T, z) / _poly(U, z)
    e = (-z).exp()
    mid = e * _poly(P, x) / _poly(Q, x)
    big = e * _poly(R, x) / _poly(S, x)
    return pl.when(x < 1.0).then(small).when(x < 8.0).then(mid).otherwise(big)


def p_value(z: pl.Expr) -> pl.Expr:
    """Two-sided normal p-value 2·Φ(−|z|) = erfc(|z|/√2); null where z is null or NaN."""
    half = math.sqrt(0.5)
    return pl.when(z.is_nan()).then(None).otherwise(erfc_expr(z.abs() * half))


def ndtri_columns(lf: pl.LazyFrame, p: str, out: str) -> pl.LazyFrame:
    """``lf`` with ``out`` = Φ⁻¹(``p``) (AS241), staged so that each logarithm is taken once.

    ``p`` must lie in (0, 1). The SQL twin is ``_clf_ndtri``, the same arithmetic in the
    same order.
    """
    q = pl.col(p) - 0.5
    tail = pl.when(q < 0).then(pl.col(p)).otherwise(1.0 - pl.col(p))
    lf = lf.with_columns(
        (0.180625 - q * q).alias("__clf_rc"),
        (-tail.log()).sqrt().alias("__clf_rt"),
    )
    rc, rt = pl.col("__clf_rc"), pl.col("__clf_rt")
    central = q * _poly(A, rc) / _poly(B, rc)
    near = _poly(C, rt - 1.6) / _poly(D, rt - 1.6)
    far = _poly(E, rt - 5.0) / _poly(F, rt - 5.0)
    tails = pl.when(rt <= 5.0).then(near).otherwise(far)
    signed = pl.when(q < 0).then(-tails).otherwise(tails)
    value = pl.when(q.abs() <= 0.425).then(central).otherwise(signed)
    return lf.with_columns(value.alias(out)).drop("__clf_rc", "__clf_rt")
