/*
 * ocean_cpu._halfprec_c: NumPy ufuncs for Ocean's half-precision dtypes.
 *
 * complex32 ("complex-half") elements are stored as one 4-byte element
 * (NumPy uint32) holding two IEEE binary16 values in memory order (real,
 * imaginary); float16 uses NumPy's float16.  Every loop loads halves,
 * computes in float32 registers (double where an accumulation or a division
 * needs it) and stores halves, in one pass.  NumPy's ufunc machinery does
 * broadcasting, strides and output allocation; the Python side
 * (ocean_cpu/_halfprec.py) puts these ufuncs in the backend's function table
 * under names such as "add.complex32".
 *
 * Two variants of every loop exist on x86: one that converts with F16C and
 * runs AVX2/FMA code for contiguous data, with AVX-512 code for the hottest
 * loops, and a portable one that converts with bit manipulation.  The level
 * (2: AVX-512, 1: AVX2, 0: portable) is the best the CPU has, chosen at
 * import; set_level() lowers it (the tests cover every level).
 *
 * Build: setup.py (setuptools Extension, NumPy headers).  Compiled with
 * -ffp-contract=off so that both variants round identically.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__x86_64__) || defined(__i386__))
#define OC_X86 1
#include <immintrin.h>
#define OC_HW __attribute__((target("avx2,fma,f16c")))
#else
#define OC_X86 0
#endif

/* 0: portable loops, 1: AVX2/FMA/F16C, 2: also AVX-512 (F, BW, VL) for the
   hottest contiguous loops.  max_level is what the CPU has (see set_level). */
static int simd_level = 0;
static int max_level = 0;

#define LOOP_ARGS \
    char **args, npy_intp const *dim, npy_intp const *steps, void *NPY_UNUSED(data)

/* ------------------------------------------------------------------------ */
/* binary16 <-> binary32, portable                                          */
/* ------------------------------------------------------------------------ */
static inline float
h2f_soft(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    float out;
    if (exp == 0) {
        /* zero or subnormal: man * 2**-24, exact in binary32 */
        out = (float)man * 0x1p-24f;
        memcpy(&bits, &out, 4);
        bits |= sign;
    }
    else if (exp == 31) {
        /* infinity, or NaN (made quiet, as F16C does) */
        bits = sign | 0x7f800000u | (man << 13) | (man ? 0x00400000u : 0u);
    }
    else {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    }
    memcpy(&out, &bits, 4);
    return out;
}

/* Round to nearest, ties to even (as _cvtps_ph with _MM_FROUND_TO_NEAREST_INT). */
static inline uint16_t
f2h_soft(float f)
{
    uint32_t x, ax, sign, e, mant, rest, h;
    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000u;
    ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) {
        if (ax == 0x7f800000u) {
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    }
    if (ax >= 0x477ff000u) {
        /* 65520 and above round to infinity (65520 is a tie: to even) */
        return (uint16_t)(sign | 0x7c00u);
    }
    if (ax < 0x38800000u) {
        /* below 2**-14: a subnormal half, round(|f| * 2**24) units of 2**-24
           (the scaling is exact; rintf rounds ties to even) */
        float a;
        memcpy(&a, &ax, 4);
        return (uint16_t)(sign | (uint32_t)rintf(a * 0x1p24f));
    }
    e = (ax >> 23) - 112u;
    mant = ax & 0x7fffffu;
    h = (e << 10) | (mant >> 13);
    rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) {
        h += 1u; /* a carry into the exponent is right, up to 0x7c00 */
    }
    return (uint16_t)(sign | h);
}

/* binary64 -> binary16, round to nearest even, directly (no double rounding
   through binary32) */
static inline uint16_t
d2h(double d)
{
    uint64_t x, ax, mant, rest;
    uint32_t sign, e, h;
    memcpy(&x, &d, 8);
    sign = (uint32_t)(x >> 48) & 0x8000u;
    ax = x & 0x7fffffffffffffffull;
    if (ax >= 0x7ff0000000000000ull) {
        if (ax == 0x7ff0000000000000ull) {
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | 0x7e00u | (uint32_t)((ax >> 42) & 0x3ffu));
    }
    if (ax >= 0x40effe0000000000ull) {
        return (uint16_t)(sign | 0x7c00u); /* 65520 and above (a tie: to even) */
    }
    if (ax < 0x3f10000000000000ull) {
        double a;
        memcpy(&a, &ax, 8);
        return (uint16_t)(sign | (uint32_t)rint(a * 0x1p24)); /* subnormal */
    }
    e = (uint32_t)(ax >> 52) - 1008u;
    mant = ax & 0xfffffffffffffull;
    h = (e << 10) | (uint32_t)(mant >> 42);
    rest = mant & 0x3ffffffffffull;
    if (rest > (1ull << 41) || (rest == (1ull << 41) && (h & 1u))) {
        h += 1u;
    }
    return (uint16_t)(sign | h);
}

#if OC_X86
OC_HW static inline float
h2f_hw(uint16_t h)
{
    return _cvtsh_ss(h);
}

OC_HW static inline uint16_t
f2h_hw(float f)
{
    return (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}

/* 4 complex32 (16 bytes) -> 8 floats [r0 i0 r1 i1 r2 i2 r3 i3] */
OC_HW static inline __m256
ld4(const char *p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

OC_HW static inline void
st4(char *p, __m256 v)
{
    _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

/* one complex32 repeated: [r i r i r i r i] */
OC_HW static inline __m256
bc4(const char *p)
{
    int32_t bits;
    memcpy(&bits, p, 4);
    return _mm256_cvtph_ps(_mm_set1_epi32(bits));
}

/* one half repeated 8 times */
OC_HW static inline __m256
bc8(const char *p)
{
    int16_t bits;
    memcpy(&bits, p, 2);
    return _mm256_cvtph_ps(_mm_set1_epi16(bits));
}

/* (a0 + i a1) * (b0 + i b1) lane-pairwise.  Products of halves are exact in
   binary32, so the one rounding of the sum is the only one, with or without
   the fused multiply-add: the result is complex64's, bit for bit. */
OC_HW static inline __m256
v_cmul(__m256 a, __m256 b)
{
    __m256 br = _mm256_moveldup_ps(b);
    __m256 bi = _mm256_movehdup_ps(b);
    __m256 as = _mm256_permute_ps(a, 0xB1);
    return _mm256_fmaddsub_ps(a, br, _mm256_mul_ps(as, bi));
}

static inline __m256 OC_HW
v_add(__m256 a, __m256 b)
{
    return _mm256_add_ps(a, b);
}

static inline __m256 OC_HW
v_sub(__m256 a, __m256 b)
{
    return _mm256_sub_ps(a, b);
}

static inline __m256 OC_HW
v_div(__m256 a, __m256 b)
{
    return _mm256_div_ps(a, b);
}

/* --- AVX-512: 16 floats per register; called from the AVX2 variants when
   simd_level is 2, for whole groups of 16 elements (the "bulk"), returning
   how many elements they did --- */
#define OC_HW512 __attribute__((target("avx512f,avx512bw,avx512vl,avx2,fma,f16c")))

/* 8 complex32 or 16 float16 (32 bytes) <-> 16 floats */
OC_HW512 static inline __m512
ld8z(const char *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}

OC_HW512 static inline void
st8z(char *p, __m512 v)
{
    _mm256_storeu_si256((__m256i *)p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

OC_HW512 static inline __m512
bc8z(const char *p)
{
    int32_t bits;
    memcpy(&bits, p, 4);
    return _mm512_cvtph_ps(_mm256_set1_epi32(bits));
}

OC_HW512 static inline __m512
bc16z(const char *p)
{
    int16_t bits;
    memcpy(&bits, p, 2);
    return _mm512_cvtph_ps(_mm256_set1_epi16(bits));
}

OC_HW512 static inline __m512
vz_add(__m512 a, __m512 b)
{
    return _mm512_add_ps(a, b);
}

OC_HW512 static inline __m512
vz_sub(__m512 a, __m512 b)
{
    return _mm512_sub_ps(a, b);
}

OC_HW512 static inline __m512
vz_mul(__m512 a, __m512 b)
{
    return _mm512_mul_ps(a, b);
}

OC_HW512 static inline __m512
vz_div(__m512 a, __m512 b)
{
    return _mm512_div_ps(a, b);
}

/* as v_cmul: exact products, one rounding per part */
OC_HW512 static inline __m512
vz_cmul(__m512 a, __m512 b)
{
    __m512 br = _mm512_moveldup_ps(b);
    __m512 bi = _mm512_movehdup_ps(b);
    __m512 as = _mm512_permute_ps(a, 0xB1);
    return _mm512_fmaddsub_ps(a, br, _mm512_mul_ps(as, bi));
}

/* Binary loops over contiguous (stride STEP) or broadcast (stride 0)
   operands, 16 elements of STEP bytes per iteration (ELEMS per vector). */
#define DEF_BULK512(NAME, VOP, STEP, BCAST)                                   \
    OC_HW512 static npy_intp NAME(const char *a, npy_intp sa, const char *b,  \
                                  npy_intp sb, char *o, npy_intp n)           \
    {                                                                         \
        npy_intp i = 0;                                                       \
        const npy_intp per = 32 / STEP; /* elements per vector */            \
        if (sa && sb) {                                                       \
            for (; i + 2 * per <= n; i += 2 * per, a += 64, b += 64, o += 64) { \
                __m512 r0 = VOP(ld8z(a), ld8z(b));                            \
                __m512 r1 = VOP(ld8z(a + 32), ld8z(b + 32));                  \
                st8z(o, r0);                                                  \
                st8z(o + 32, r1);                                             \
            }                                                                 \
        }                                                                     \
        else if (sa) {                                                        \
            __m512 vb = BCAST(b);                                             \
            for (; i + 2 * per <= n; i += 2 * per, a += 64, o += 64) {        \
                __m512 r0 = VOP(ld8z(a), vb);                                 \
                __m512 r1 = VOP(ld8z(a + 32), vb);                            \
                st8z(o, r0);                                                  \
                st8z(o + 32, r1);                                             \
            }                                                                 \
        }                                                                     \
        else {                                                                \
            __m512 va = BCAST(a);                                             \
            for (; i + 2 * per <= n; i += 2 * per, b += 64, o += 64) {        \
                __m512 r0 = VOP(va, ld8z(b));                                 \
                __m512 r1 = VOP(va, ld8z(b + 32));                            \
                st8z(o, r0);                                                  \
                st8z(o + 32, r1);                                             \
            }                                                                 \
        }                                                                     \
        return i;                                                             \
    }

DEF_BULK512(c32_add_bulk512, vz_add, 4, bc8z)
DEF_BULK512(c32_sub_bulk512, vz_sub, 4, bc8z)
DEF_BULK512(c32_mul_bulk512, vz_cmul, 4, bc8z)
DEF_BULK512(f16_add_bulk512, vz_add, 2, bc16z)
DEF_BULK512(f16_sub_bulk512, vz_sub, 2, bc16z)
DEF_BULK512(f16_mul_bulk512, vz_mul, 2, bc16z)
DEF_BULK512(f16_div_bulk512, vz_div, 2, bc16z)

/* complex32 -> float16 moduli, as v_abs8 (below); stops before the first
   group of 16 holding an infinity or a NaN */
OC_HW512 static npy_intp
c32_abs_bulk512(const char *ip, char *op, npy_intp n)
{
    const __m512i m = _mm512_set1_epi32(0x0fffe000);
    const __m512i e = _mm512_set1_epi16(0x7c00);
    const __m512 scale = _mm512_set1_ps(0x1p112f);
    npy_intp i = 0;
    for (; i + 16 <= n; i += 16, ip += 64, op += 32) {
        __m512i v = _mm512_loadu_si512((const void *)ip);
        if (_mm512_cmpeq_epi16_mask(_mm512_and_si512(v, e), e)) {
            break;
        }
        __m512 re = _mm512_mul_ps(
            _mm512_castsi512_ps(_mm512_and_si512(_mm512_slli_epi32(v, 13), m)), scale);
        __m512 im = _mm512_mul_ps(
            _mm512_castsi512_ps(_mm512_and_si512(_mm512_srli_epi32(v, 3), m)), scale);
        st8z(op, _mm512_sqrt_ps(_mm512_fmadd_ps(re, re, _mm512_mul_ps(im, im))));
    }
    return i;
}

/* nfloats binary32 <-> binary16, contiguous; returns the floats done */
OC_HW512 static npy_intp
f32_to_f16_bulk512(const char *ip, char *op, npy_intp nfloats)
{
    npy_intp i = 0;
    for (; i + 16 <= nfloats; i += 16, ip += 64, op += 32) {
        st8z(op, _mm512_loadu_ps((const float *)ip));
    }
    return i;
}

OC_HW512 static npy_intp
f16_to_f32_bulk512(const char *ip, char *op, npy_intp nfloats)
{
    npy_intp i = 0;
    for (; i + 16 <= nfloats; i += 16, ip += 32, op += 64) {
        _mm512_storeu_ps((float *)op, ld8z(ip));
    }
    return i;
}

#endif

/* ------------------------------------------------------------------------ */
/* element operations on (re, im) pairs of floats                           */
/* ------------------------------------------------------------------------ */
static inline void
ld_pair(const char *p, uint16_t h[2])
{
    memcpy(h, p, 4);
}

static inline void
st_pair(char *p, uint16_t re, uint16_t im)
{
    uint16_t h[2] = {re, im};
    memcpy(p, h, 4);
}

static inline float complex
mk(float re, float im)
{
    return CMPLXF(re, im);
}

static inline void
el_add(float ar, float ai, float br, float bi, float *zr, float *zi)
{
    *zr = ar + br;
    *zi = ai + bi;
}

static inline void
el_subtract(float ar, float ai, float br, float bi, float *zr, float *zi)
{
    *zr = ar - br;
    *zi = ai - bi;
}

static inline void
el_multiply(float ar, float ai, float br, float bi, float *zr, float *zi)
{
    /* products of halves are exact in binary32: one rounding per part */
    *zr = ar * br - ai * bi;
    *zi = ar * bi + ai * br;
}

/* x / y with complex64's (NumPy's) binary32 steps, Smith's method with a
   reciprocal scale: the quotient of the float16 values is then, bit for bit,
   what complex64 gives, rounded once to float16 (special values and zero
   signs included; a zero divisor gives a / |c| part by part). */
static inline void
el_divide(float ar, float ai, float br, float bi, float *zr, float *zi)
{
    float abr = fabsf(br), abi = fabsf(bi);
    if (abr >= abi) {
        if (abr == 0.0f && abi == 0.0f) {
            *zr = ar / abr;
            *zi = ai / abr;
            return;
        }
        float rat = bi / br, scl = 1.0f / (br + bi * rat);
        *zr = (ar + ai * rat) * scl;
        *zi = (ai - ar * rat) * scl;
    }
    else {
        float rat = br / bi, scl = 1.0f / (bi + br * rat);
        *zr = (ar * rat + ai) * scl;
        *zi = (ai * rat - ar) * scl;
    }
}

static inline void
el_exp(float xr, float xi, float *zr, float *zi)
{
    if (xr <= 88.0f && isfinite(xi) && !isnan(xr) && xr != -INFINITY) {
        /* what glibc's cexpf (and so NumPy's complex64 exp) computes for a
           finite argument whose real part cannot overflow expf */
        float e = expf(xr), s, c;
        sincosf(xi, &s, &c);
        *zr = e * c;
        *zi = e * s;
    }
    else {
        float complex w = cexpf(mk(xr, xi));
        *zr = crealf(w);
        *zi = cimagf(w);
    }
}

#define LIBM_UNARY(NAME, CFUNC)                                               \
    static inline void el_##NAME(float xr, float xi, float *zr, float *zi)  \
    {                                                                         \
        float complex w = CFUNC(mk(xr, xi));                                  \
        *zr = crealf(w);                                                      \
        *zi = cimagf(w);                                                      \
    }

LIBM_UNARY(log, clogf)
LIBM_UNARY(sqrt, csqrtf)
LIBM_UNARY(sin, csinf)
LIBM_UNARY(cos, ccosf)
LIBM_UNARY(sinh, csinhf)
LIBM_UNARY(cosh, ccoshf)
LIBM_UNARY(asin, casinf)
LIBM_UNARY(acos, cacosf)
LIBM_UNARY(atan, catanf)
LIBM_UNARY(asinh, casinhf)
LIBM_UNARY(acosh, cacoshf)
LIBM_UNARY(atanh, catanhf)

static inline void
el_tanh(float xr, float xi, float *zr, float *zi)
{
    if (isinf(xr) && isfinite(xi)) {
        /* the standard: sign(a) + copysign(0, b) j for infinite a, finite b */
        *zr = copysignf(1.0f, xr);
        *zi = copysignf(0.0f, xi);
        return;
    }
    float complex w = ctanhf(mk(xr, xi));
    *zr = crealf(w);
    *zi = cimagf(w);
}

/* tan(x) = -1j * tanh(x * 1j): with tanh's rule, a finite a and an
   infinite b give copysign(0, a) + sign(b) j (ctanf: the sign of sin 2a) */
static inline void
el_tan(float xr, float xi, float *zr, float *zi)
{
    if (isfinite(xr) && isinf(xi)) {
        *zr = copysignf(0.0f, xr);
        *zi = copysignf(1.0f, xi);
        return;
    }
    float complex w = ctanf(mk(xr, xi));
    *zr = crealf(w);
    *zi = cimagf(w);
}

static inline void
el_log2(float xr, float xi, float *zr, float *zi)
{
    float complex w = clogf(mk(xr, xi));
    *zr = crealf(w) * (float)M_LOG2E;
    *zi = cimagf(w) * (float)M_LOG2E;
}

static inline void
el_log10(float xr, float xi, float *zr, float *zi)
{
    float complex w = clogf(mk(xr, xi));
    *zr = crealf(w) * (float)M_LOG10E;
    *zi = cimagf(w) * (float)M_LOG10E;
}

static inline void
el_square(float xr, float xi, float *zr, float *zi)
{
    el_multiply(xr, xi, xr, xi, zr, zi);
}

/* 1 / x with complex64's (NumPy's reciprocal) binary32 steps, Smith's
   method with no branch for zero: bit for bit complex64's result, rounded
   (1 / (0 + 0j) is NaN + NaN j, 1 / (inf + 1j) is 0 - 0j). */
static inline void
el_reciprocal(float xr, float xi, float *zr, float *zi)
{
    if (fabsf(xi) <= fabsf(xr)) {
        float r = xi / xr, d = xr + xi * r;
        *zr = 1.0f / d;
        *zi = -r / d;
    }
    else {
        float r = xr / xi, d = xr * r + xi;
        *zr = r / d;
        *zi = -1.0f / d;
    }
}

/* sign(x) = x / |x| by the standard's rules: 0 for 0, NaN + NaN j for a NaN
   part, and for an infinite x the real division (a / inf) + (b / inf) j, so
   an infinite part gives NaN and a finite one a signed zero. */
static inline void
el_sign(float xr, float xi, float *zr, float *zi)
{
    if (isnan(xr) || isnan(xi)) {
        *zr = *zi = NAN;
    }
    else if (isinf(xr) || isinf(xi)) {
        *zr = isinf(xr) ? NAN : copysignf(0.0f, xr);
        *zi = isinf(xi) ? NAN : copysignf(0.0f, xi);
    }
    else if (xr == 0.0f && xi == 0.0f) {
        *zr = *zi = 0.0f;
    }
    else {
        double m = sqrt((double)xr * xr + (double)xi * xi);
        *zr = (float)(xr / m);
        *zi = (float)(xi / m);
    }
}

/* |z|: sqrt of the binary32 sum of the (exact) squares; infinite if a part
   is, whatever the other (as the standard says). */
static inline float
el_abs(float xr, float xi)
{
    if (isinf(xr) || isinf(xi)) {
        return INFINITY;
    }
    return sqrtf(xr * xr + xi * xi);
}

/* ------------------------------------------------------------------------ */
/* loop generators: a portable and an F16C variant, chosen per call         */
/* ------------------------------------------------------------------------ */
#if OC_X86
#define DISPATCH(NAME)                                \
    static void NAME(LOOP_ARGS)                       \
    {                                                 \
        if (simd_level) {                             \
            NAME##_hw(args, dim, steps);              \
        }                                             \
        else {                                        \
            NAME##_soft(args, dim, steps);            \
        }                                             \
    }
#define VARIANTS(GEN, NAME, ...)                                   \
    GEN(NAME, soft, , h2f_soft, f2h_soft, __VA_ARGS__)             \
    GEN(NAME, hw, OC_HW, h2f_hw, f2h_hw, __VA_ARGS__)              \
    DISPATCH(NAME)
#else
#define VARIANTS(GEN, NAME, ...)                                   \
    GEN(NAME, soft, , h2f_soft, f2h_soft, __VA_ARGS__)             \
    static void NAME(LOOP_ARGS) { NAME##_soft(args, dim, steps); }
#endif

/* complex32 -> complex32 */
#define GEN_C32_UNARY(NAME, SUF, ATTR, H2F, F2H, EL)                          \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1];                    \
        for (npy_intp i = 0; i < n; i++, ip += is, op += os) {                \
            uint16_t h[2];                                                    \
            float zr, zi;                                                     \
            ld_pair(ip, h);                                                   \
            EL(H2F(h[0]), H2F(h[1]), &zr, &zi);                               \
            st_pair(op, F2H(zr), F2H(zi));                                    \
        }                                                                     \
    }

/* complex32, complex32 -> complex32, with an AVX2 path for contiguous or
   broadcast (stride 0) operands when VOP is given */
#define GEN_C32_BINARY_SCALAR(SUF, H2F, F2H, EL)                              \
    for (; i < n; i++, a += sa, b += sb, o += so) {                           \
        uint16_t p[2], q[2];                                                  \
        float zr, zi;                                                         \
        ld_pair(a, p);                                                        \
        ld_pair(b, q);                                                        \
        EL(H2F(p[0]), H2F(p[1]), H2F(q[0]), H2F(q[1]), &zr, &zi);             \
        st_pair(o, F2H(zr), F2H(zi));                                         \
    }

#define GEN_C32_BINARY(NAME, SUF, ATTR, H2F, F2H, EL, SIMD)                   \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *a = args[0], *b = args[1], *o = args[2];                        \
        npy_intp n = dim[0], sa = steps[0], sb = steps[1], so = steps[2];     \
        npy_intp i = 0;                                                       \
        SIMD##_##SUF                                                          \
        GEN_C32_BINARY_SCALAR(SUF, H2F, F2H, EL)                              \
    }

#define NOSIMD_soft
#define NOSIMD_hw

#if OC_X86
/* The AVX2 blocks advance a, b, o and i over whole groups of 8 elements. */
#define C32_SIMD_BLOCK(VOP, BULK)                                             \
    if (so == 4 && (sa == 4 || sa == 0) && (sb == 4 || sb == 0) &&            \
        (sa || sb)) {                                                         \
        if (simd_level >= 2) {                                                \
            npy_intp d = BULK(a, sa, b, sb, o, n);                            \
            i += d;                                                           \
            a += d * sa;                                                      \
            b += d * sb;                                                      \
            o += d * 4;                                                       \
        }                                                                     \
        if (sa == 4 && sb == 4) {                                             \
            for (; i + 8 <= n; i += 8, a += 32, b += 32, o += 32) {           \
                __m256 r0 = VOP(ld4(a), ld4(b));                              \
                __m256 r1 = VOP(ld4(a + 16), ld4(b + 16));                    \
                st4(o, r0);                                                   \
                st4(o + 16, r1);                                              \
            }                                                                 \
        }                                                                     \
        else if (sa == 4) {                                                   \
            __m256 vb = bc4(b);                                               \
            for (; i + 8 <= n; i += 8, a += 32, o += 32) {                    \
                __m256 r0 = VOP(ld4(a), vb);                                  \
                __m256 r1 = VOP(ld4(a + 16), vb);                             \
                st4(o, r0);                                                   \
                st4(o + 16, r1);                                              \
            }                                                                 \
        }                                                                     \
        else if (sb == 4) {                                                   \
            __m256 va = bc4(a);                                               \
            for (; i + 8 <= n; i += 8, b += 32, o += 32) {                    \
                __m256 r0 = VOP(va, ld4(b));                                  \
                __m256 r1 = VOP(va, ld4(b + 16));                             \
                st4(o, r0);                                                   \
                st4(o + 16, r1);                                              \
            }                                                                 \
        }                                                                     \
    }
#define SIMD_ADD_soft
#define SIMD_ADD_hw C32_SIMD_BLOCK(v_add, c32_add_bulk512)
#define SIMD_SUB_soft
#define SIMD_SUB_hw C32_SIMD_BLOCK(v_sub, c32_sub_bulk512)
#define SIMD_MUL_soft
#define SIMD_MUL_hw C32_SIMD_BLOCK(v_cmul, c32_mul_bulk512)
#else
#define SIMD_ADD_soft
#define SIMD_SUB_soft
#define SIMD_MUL_soft
#endif

VARIANTS(GEN_C32_BINARY, c32_add_loop, el_add, SIMD_ADD)
VARIANTS(GEN_C32_BINARY, c32_subtract_loop, el_subtract, SIMD_SUB)
VARIANTS(GEN_C32_BINARY, c32_multiply_loop, el_multiply, SIMD_MUL)
VARIANTS(GEN_C32_BINARY, c32_divide_loop, el_divide, NOSIMD)

VARIANTS(GEN_C32_UNARY, c32_exp_loop, el_exp)
VARIANTS(GEN_C32_UNARY, c32_log_loop, el_log)
VARIANTS(GEN_C32_UNARY, c32_log2_loop, el_log2)
VARIANTS(GEN_C32_UNARY, c32_log10_loop, el_log10)
VARIANTS(GEN_C32_UNARY, c32_sqrt_loop, el_sqrt)
VARIANTS(GEN_C32_UNARY, c32_sin_loop, el_sin)
VARIANTS(GEN_C32_UNARY, c32_cos_loop, el_cos)
VARIANTS(GEN_C32_UNARY, c32_tan_loop, el_tan)
VARIANTS(GEN_C32_UNARY, c32_sinh_loop, el_sinh)
VARIANTS(GEN_C32_UNARY, c32_cosh_loop, el_cosh)
VARIANTS(GEN_C32_UNARY, c32_tanh_loop, el_tanh)
VARIANTS(GEN_C32_UNARY, c32_asin_loop, el_asin)
VARIANTS(GEN_C32_UNARY, c32_acos_loop, el_acos)
VARIANTS(GEN_C32_UNARY, c32_atan_loop, el_atan)
VARIANTS(GEN_C32_UNARY, c32_asinh_loop, el_asinh)
VARIANTS(GEN_C32_UNARY, c32_acosh_loop, el_acosh)
VARIANTS(GEN_C32_UNARY, c32_atanh_loop, el_atanh)
VARIANTS(GEN_C32_UNARY, c32_square_loop, el_square)
VARIANTS(GEN_C32_UNARY, c32_reciprocal_loop, el_reciprocal)
VARIANTS(GEN_C32_UNARY, c32_sign_loop, el_sign)

/* complex32, complex32 -> bool: == and != compare the parts as floats */
#define GEN_C32_CMP(NAME, SUF, ATTR, H2F, F2H, NEGATE)                        \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *a = args[0], *b = args[1], *o = args[2];                        \
        npy_intp n = dim[0], sa = steps[0], sb = steps[1], so = steps[2];     \
        for (npy_intp i = 0; i < n; i++, a += sa, b += sb, o += so) {         \
            uint16_t p[2], q[2];                                              \
            ld_pair(a, p);                                                    \
            ld_pair(b, q);                                                    \
            int eq = H2F(p[0]) == H2F(q[0]) && H2F(p[1]) == H2F(q[1]);        \
            *(npy_bool *)o = (npy_bool)(NEGATE ? !eq : eq);                   \
        }                                                                     \
    }

VARIANTS(GEN_C32_CMP, c32_equal_loop, 0)
VARIANTS(GEN_C32_CMP, c32_not_equal_loop, 1)

/* complex32 -> float16: abs (AVX2 for contiguous data), real, imag */
#define ABS_SIMD_soft
#if OC_X86
/* 8 complex32 (32 bytes) -> their 8 moduli, in order.  The parts are
   widened with integer operations (no shuffles): the bits of |h| shifted
   into a binary32 exponent and mantissa give |h| * 2**-112 exactly (also
   for subnormal halves), and a product by 2**112 restores it.  Infinities
   and NaNs come out wrong and are caught by the caller. */
OC_HW static inline __m256
v_abs8(const char *p)
{
    const __m256i m = _mm256_set1_epi32(0x0fffe000);
    const __m256 scale = _mm256_set1_ps(0x1p112f);
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    __m256 re = _mm256_mul_ps(
        _mm256_castsi256_ps(_mm256_and_si256(_mm256_slli_epi32(v, 13), m)), scale);
    __m256 im = _mm256_mul_ps(
        _mm256_castsi256_ps(_mm256_and_si256(_mm256_srli_epi32(v, 3), m)), scale);
    /* the squares are exact: one rounding of the sum, as in the scalar path */
    return _mm256_sqrt_ps(_mm256_fmadd_ps(re, re, _mm256_mul_ps(im, im)));
}

/* whether one of the 16 halves of 8 complex32 is an infinity or a NaN */
OC_HW static inline int
v_any_nonfinite(const char *p)
{
    const __m256i e = _mm256_set1_epi16(0x7c00);
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    return _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(v, e), e));
}

#define ABS_SIMD_hw                                                           \
    if (is == 4 && os == 2) {                                                 \
        if (simd_level >= 2) {                                                \
            npy_intp d = c32_abs_bulk512(ip, op, n - i);                      \
            i += d;                                                           \
            ip += 4 * d;                                                      \
            op += 2 * d;                                                      \
        }                                                                     \
        for (; i + 16 <= n; i += 16, ip += 64, op += 32) {                    \
            if (v_any_nonfinite(ip) | v_any_nonfinite(ip + 32)) {             \
                break; /* this group takes the scalar path */                 \
            }                                                                 \
            __m256 r0 = v_abs8(ip), r1 = v_abs8(ip + 32);                     \
            _mm_storeu_si128((__m128i *)op,                                   \
                             _mm256_cvtps_ph(r0, _MM_FROUND_TO_NEAREST_INT)); \
            _mm_storeu_si128((__m128i *)(op + 16),                            \
                             _mm256_cvtps_ph(r1, _MM_FROUND_TO_NEAREST_INT)); \
        }                                                                     \
    }
#endif

#define GEN_C32_ABS(NAME, SUF, ATTR, H2F, F2H, UNUSED)                        \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1], i = 0;             \
        while (i < n) {                                                       \
            ABS_SIMD_##SUF                                                    \
            /* scalar: the tail, strided data, or a group holding a NaN */    \
            npy_intp stop = (is == 4 && os == 2) ? (i + 16 < n ? i + 16 : n) : n; \
            for (; i < stop; i++, ip += is, op += os) {                       \
                uint16_t h[2];                                                \
                ld_pair(ip, h);                                               \
                uint16_t r = F2H(el_abs(H2F(h[0]), H2F(h[1])));               \
                memcpy(op, &r, 2);                                            \
            }                                                                 \
        }                                                                     \
    }

VARIANTS(GEN_C32_ABS, c32_abs_loop, 0)

static void
c32_part_loop(char **args, npy_intp const *dim, npy_intp const *steps, int part)
{
    char *ip = args[0], *op = args[1];
    npy_intp n = dim[0], is = steps[0], os = steps[1];
    for (npy_intp i = 0; i < n; i++, ip += is, op += os) {
        uint16_t h[2];
        ld_pair(ip, h);
        memcpy(op, &h[part], 2);
    }
}

static void
c32_real_loop(LOOP_ARGS)
{
    c32_part_loop(args, dim, steps, 0);
}

static void
c32_imag_loop(LOOP_ARGS)
{
    c32_part_loop(args, dim, steps, 1);
}

/* complex32 -> bool on the bits: NaN, infinity, finiteness of either part */
static inline int
h_isnan(uint16_t h)
{
    return (h & 0x7fffu) > 0x7c00u;
}

static inline int
h_isinf(uint16_t h)
{
    return (h & 0x7fffu) == 0x7c00u;
}

static inline int
h_isfinite(uint16_t h)
{
    return (h & 0x7c00u) != 0x7c00u;
}

#define C32_PREDICATE(NAME, EXPR)                                             \
    static void NAME(LOOP_ARGS)                                               \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1];                    \
        for (npy_intp i = 0; i < n; i++, ip += is, op += os) {                \
            uint16_t h[2];                                                    \
            ld_pair(ip, h);                                                   \
            *(npy_bool *)op = (npy_bool)(EXPR);                               \
        }                                                                     \
    }

C32_PREDICATE(c32_isnan_loop, h_isnan(h[0]) || h_isnan(h[1]))
C32_PREDICATE(c32_isinf_loop, h_isinf(h[0]) || h_isinf(h[1]))
C32_PREDICATE(c32_isfinite_loop, h_isfinite(h[0]) && h_isfinite(h[1]))

/* ------------------------------------------------------------------------ */
/* casts                                                                    */
/* ------------------------------------------------------------------------ */
/* complex64 -> complex32 and float32 -> float16: the same per-float loop,
   over 2n or n floats.  FLOATS: floats per element (2 or 1). */
#define GEN_F32_TO_F16(NAME, SUF, ATTR, H2F, F2H, FLOATS)                     \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1], i = 0;             \
        F32_TO_F16_SIMD_##SUF(FLOATS)                                         \
        for (; i < n; i++, ip += is, op += os) {                              \
            float f[FLOATS];                                                  \
            uint16_t h[FLOATS];                                               \
            memcpy(f, ip, sizeof(f));                                         \
            for (int k = 0; k < FLOATS; k++) {                                \
                h[k] = F2H(f[k]);                                             \
            }                                                                 \
            memcpy(op, h, sizeof(h));                                         \
        }                                                                     \
    }

#define GEN_F16_TO_F32(NAME, SUF, ATTR, H2F, F2H, FLOATS)                     \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1], i = 0;             \
        F16_TO_F32_SIMD_##SUF(FLOATS)                                         \
        for (; i < n; i++, ip += is, op += os) {                              \
            float f[FLOATS];                                                  \
            uint16_t h[FLOATS];                                               \
            memcpy(h, ip, sizeof(h));                                         \
            for (int k = 0; k < FLOATS; k++) {                                \
                f[k] = H2F(h[k]);                                             \
            }                                                                 \
            memcpy(op, f, sizeof(f));                                         \
        }                                                                     \
    }

#define F32_TO_F16_SIMD_soft(FLOATS)
#define F16_TO_F32_SIMD_soft(FLOATS)
#if OC_X86
#define F32_TO_F16_SIMD_hw(FLOATS)                                            \
    if (is == 4 * FLOATS && os == 2 * FLOATS) {                               \
        if (simd_level >= 2) {                                                \
            npy_intp d = f32_to_f16_bulk512(ip, op, n * FLOATS) / FLOATS;     \
            i += d;                                                           \
            ip += 4 * FLOATS * d;                                             \
            op += 2 * FLOATS * d;                                             \
        }                                                                     \
        for (; i + 8 / FLOATS <= n; i += 8 / FLOATS, ip += 32, op += 16) {    \
            _mm_storeu_si128((__m128i *)op,                                   \
                             _mm256_cvtps_ph(_mm256_loadu_ps((float *)ip),    \
                                             _MM_FROUND_TO_NEAREST_INT));     \
        }                                                                     \
    }
#define F16_TO_F32_SIMD_hw(FLOATS)                                            \
    if (is == 2 * FLOATS && os == 4 * FLOATS) {                               \
        if (simd_level >= 2) {                                                \
            npy_intp d = f16_to_f32_bulk512(ip, op, n * FLOATS) / FLOATS;     \
            i += d;                                                           \
            ip += 2 * FLOATS * d;                                             \
            op += 4 * FLOATS * d;                                             \
        }                                                                     \
        for (; i + 8 / FLOATS <= n; i += 8 / FLOATS, ip += 16, op += 32) {    \
            _mm256_storeu_ps((float *)op, ld4(ip));                           \
        }                                                                     \
    }
#endif

VARIANTS(GEN_F32_TO_F16, c64_to_c32_loop, 2)
VARIANTS(GEN_F16_TO_F32, c32_to_c64_loop, 2)
VARIANTS(GEN_F32_TO_F16, f32_to_f16_loop, 1)
VARIANTS(GEN_F16_TO_F32, f16_to_f32_loop, 1)

/* float32 -> complex32 (imaginary part +0) */
#define F32_TO_C32_SIMD_soft
#if OC_X86
#define F32_TO_C32_SIMD_hw                                                    \
    if (is == 4 && os == 4) {                                                 \
        __m128i zero = _mm_setzero_si128();                                   \
        for (; i + 8 <= n; i += 8, ip += 32, op += 32) {                      \
            __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps((float *)ip),         \
                                        _MM_FROUND_TO_NEAREST_INT);           \
            _mm_storeu_si128((__m128i *)op, _mm_unpacklo_epi16(h, zero));     \
            _mm_storeu_si128((__m128i *)(op + 16), _mm_unpackhi_epi16(h, zero)); \
        }                                                                     \
    }
#endif

#define GEN_F32_TO_C32(NAME, SUF, ATTR, H2F, F2H, UNUSED)                     \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1], i = 0;             \
        F32_TO_C32_SIMD_##SUF                                                 \
        for (; i < n; i++, ip += is, op += os) {                              \
            float f;                                                          \
            memcpy(&f, ip, 4);                                                \
            st_pair(op, F2H(f), 0);                                           \
        }                                                                     \
    }

VARIANTS(GEN_F32_TO_C32, f32_to_c32_loop, 0)

static void
f16_to_c32_loop(LOOP_ARGS)
{
    char *ip = args[0], *op = args[1];
    npy_intp n = dim[0], is = steps[0], os = steps[1];
    for (npy_intp i = 0; i < n; i++, ip += is, op += os) {
        uint16_t h;
        memcpy(&h, ip, 2);
        st_pair(op, h, 0);
    }
}

/* binary64 sources: complex128 -> complex32, float64 -> complex32 / float16,
   rounded straight to half */
static void
c128_to_c32_loop(LOOP_ARGS)
{
    char *ip = args[0], *op = args[1];
    npy_intp n = dim[0], is = steps[0], os = steps[1];
    for (npy_intp i = 0; i < n; i++, ip += is, op += os) {
        double z[2];
        memcpy(z, ip, sizeof(z));
        st_pair(op, d2h(z[0]), d2h(z[1]));
    }
}

static void
f64_to_c32_loop(LOOP_ARGS)
{
    char *ip = args[0], *op = args[1];
    npy_intp n = dim[0], is = steps[0], os = steps[1];
    for (npy_intp i = 0; i < n; i++, ip += is, op += os) {
        double v;
        memcpy(&v, ip, 8);
        st_pair(op, d2h(v), 0);
    }
}

static void
f64_to_f16_loop(LOOP_ARGS)
{
    char *ip = args[0], *op = args[1];
    npy_intp n = dim[0], is = steps[0], os = steps[1];
    for (npy_intp i = 0; i < n; i++, ip += is, op += os) {
        double v;
        memcpy(&v, ip, 8);
        uint16_t h = d2h(v);
        memcpy(op, &h, 2);
    }
}

/* ------------------------------------------------------------------------ */
/* float16 arithmetic and comparisons (computed in binary32, as NumPy does) */
/* ------------------------------------------------------------------------ */
#define F16_SIMD_BLOCK(VOP, BULK)                                             \
    if (so == 2 && (sa == 2 || sa == 0) && (sb == 2 || sb == 0)) {            \
        if (simd_level >= 2 && (sa || sb)) {                                  \
            npy_intp d = BULK(a, sa, b, sb, o, n);                            \
            i += d;                                                           \
            a += d * sa;                                                      \
            b += d * sb;                                                      \
            o += d * 2;                                                       \
        }                                                                     \
        __m256 va = sa ? _mm256_setzero_ps() : bc8(a);                        \
        __m256 vb = sb ? _mm256_setzero_ps() : bc8(b);                        \
        for (; i + 8 <= n; i += 8, a += 8 * sa, b += 8 * sb, o += 16) {       \
            __m256 x = sa ? ld4(a) : va;                                      \
            __m256 y = sb ? ld4(b) : vb;                                      \
            _mm_storeu_si128((__m128i *)o,                                    \
                             _mm256_cvtps_ph(VOP(x, y),                       \
                                             _MM_FROUND_TO_NEAREST_INT));     \
        }                                                                     \
    }

#define GEN_F16_BINARY(NAME, SUF, ATTR, H2F, F2H, OP, SIMD)                   \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *a = args[0], *b = args[1], *o = args[2];                        \
        npy_intp n = dim[0], sa = steps[0], sb = steps[1], so = steps[2];     \
        npy_intp i = 0;                                                       \
        SIMD##_##SUF                                                          \
        for (; i < n; i++, a += sa, b += sb, o += so) {                       \
            uint16_t p, q, r;                                                 \
            memcpy(&p, a, 2);                                                 \
            memcpy(&q, b, 2);                                                 \
            r = F2H(H2F(p) OP H2F(q));                                        \
            memcpy(o, &r, 2);                                                 \
        }                                                                     \
    }

#if OC_X86
#define F16_ADD_hw F16_SIMD_BLOCK(v_add, f16_add_bulk512)
#define F16_SUB_hw F16_SIMD_BLOCK(v_sub, f16_sub_bulk512)
#define F16_MUL_hw F16_SIMD_BLOCK(_mm256_mul_ps, f16_mul_bulk512)
#define F16_DIV_hw F16_SIMD_BLOCK(v_div, f16_div_bulk512)
#endif
#define F16_ADD_soft
#define F16_SUB_soft
#define F16_MUL_soft
#define F16_DIV_soft

VARIANTS(GEN_F16_BINARY, f16_add_loop, +, F16_ADD)
VARIANTS(GEN_F16_BINARY, f16_subtract_loop, -, F16_SUB)
VARIANTS(GEN_F16_BINARY, f16_multiply_loop, *, F16_MUL)
VARIANTS(GEN_F16_BINARY, f16_divide_loop, /, F16_DIV)

#define F16_CMP_SIMD_soft(PRED)
#if OC_X86
#define F16_CMP_SIMD_hw(PRED)                                                 \
    if (so == 1 && (sa == 2 || sa == 0) && (sb == 2 || sb == 0)) {            \
        __m256 va = sa ? _mm256_setzero_ps() : bc8(a);                        \
        __m256 vb = sb ? _mm256_setzero_ps() : bc8(b);                        \
        for (; i + 8 <= n; i += 8, a += 8 * sa, b += 8 * sb, o += 8) {        \
            __m256 x = sa ? ld4(a) : va;                                      \
            __m256 y = sb ? ld4(b) : vb;                                      \
            int m = _mm256_movemask_ps(_mm256_cmp_ps(x, y, PRED));            \
            for (int k = 0; k < 8; k++) {                                     \
                o[k] = (char)((m >> k) & 1);                                  \
            }                                                                 \
        }                                                                     \
    }
#endif

#define GEN_F16_CMP(NAME, SUF, ATTR, H2F, F2H, OP, PRED)                      \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *a = args[0], *b = args[1], *o = args[2];                        \
        npy_intp n = dim[0], sa = steps[0], sb = steps[1], so = steps[2];     \
        npy_intp i = 0;                                                       \
        F16_CMP_SIMD_##SUF(PRED)                                              \
        for (; i < n; i++, a += sa, b += sb, o += so) {                       \
            uint16_t p, q;                                                    \
            memcpy(&p, a, 2);                                                 \
            memcpy(&q, b, 2);                                                 \
            *(npy_bool *)o = (npy_bool)(H2F(p) OP H2F(q));                    \
        }                                                                     \
    }

#if !OC_X86
#define _CMP_EQ_OQ 0
#define _CMP_NEQ_UQ 0
#define _CMP_LT_OQ 0
#define _CMP_LE_OQ 0
#define _CMP_GT_OQ 0
#define _CMP_GE_OQ 0
#endif

VARIANTS(GEN_F16_CMP, f16_equal_loop, ==, _CMP_EQ_OQ)
VARIANTS(GEN_F16_CMP, f16_not_equal_loop, !=, _CMP_NEQ_UQ)
VARIANTS(GEN_F16_CMP, f16_less_loop, <, _CMP_LT_OQ)
VARIANTS(GEN_F16_CMP, f16_less_equal_loop, <=, _CMP_LE_OQ)
VARIANTS(GEN_F16_CMP, f16_greater_loop, >, _CMP_GT_OQ)
VARIANTS(GEN_F16_CMP, f16_greater_equal_loop, >=, _CMP_GE_OQ)

/* float16 sqrt: correctly rounded binary32 sqrt, then rounded to half */
#define F16_SQRT_SIMD_soft
#if OC_X86
#define F16_SQRT_SIMD_hw                                                      \
    if (is == 2 && os == 2) {                                                 \
        for (; i + 8 <= n; i += 8, ip += 16, op += 16) {                      \
            _mm_storeu_si128((__m128i *)op,                                   \
                             _mm256_cvtps_ph(_mm256_sqrt_ps(ld4(ip)),         \
                                             _MM_FROUND_TO_NEAREST_INT));     \
        }                                                                     \
    }
#endif

#define GEN_F16_SQRT(NAME, SUF, ATTR, H2F, F2H, UNUSED)                       \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        char *ip = args[0], *op = args[1];                                    \
        npy_intp n = dim[0], is = steps[0], os = steps[1], i = 0;             \
        F16_SQRT_SIMD_##SUF                                                   \
        for (; i < n; i++, ip += is, op += os) {                              \
            uint16_t h;                                                       \
            memcpy(&h, ip, 2);                                                \
            h = F2H(sqrtf(H2F(h)));                                           \
            memcpy(op, &h, 2);                                                \
        }                                                                     \
    }

VARIANTS(GEN_F16_SQRT, f16_sqrt_loop, 0)

/* ------------------------------------------------------------------------ */
/* reductions (generalized ufuncs over a core axis of length n)             */
/* ------------------------------------------------------------------------ */
/* Sums accumulate in double, whatever the layout: a half is an integer
   multiple of 2**-24 below 2**16, so a double holds the sum of up to 2**13 of
   them exactly, and the contiguous (SIMD) and strided (scalar) loops give the
   same result to the last bit (in float32 lanes 65504 + 2**-14 - 65504 was 0).
   Beyond 2**13 elements the order of the additions may change the double's
   last bit, as for any float64 sum. */
#define SUM_SIMD_soft(GROUP)
#if OC_X86
/* GROUP: halves per element (2 for complex32, 1 for float16).  Each 4-double
   accumulator holds re, im alternately (complex32) or 4 partial sums. */
#define SUM_SIMD_hw(GROUP)                                                    \
    if (s == 2 * GROUP) {                                                     \
        const npy_intp per = 32 / GROUP; /* elements per 4 loads */           \
        __m256d d[8];                                                         \
        for (int k = 0; k < 8; k++) {                                         \
            d[k] = _mm256_setzero_pd();                                       \
        }                                                                     \
        for (; i + per <= n; i += per, p += 64) {                             \
            for (int k = 0; k < 4; k++) {                                     \
                __m256 v = ld4(p + 16 * k);                                   \
                __m128 lo = _mm256_castps256_ps128(v);                        \
                __m128 hi = _mm256_extractf128_ps(v, 1);                      \
                d[2 * k] = _mm256_add_pd(d[2 * k], _mm256_cvtps_pd(lo));      \
                d[2 * k + 1] = _mm256_add_pd(d[2 * k + 1], _mm256_cvtps_pd(hi)); \
            }                                                                 \
        }                                                                     \
        for (int k = 1; k < 8; k++) {                                         \
            d[0] = _mm256_add_pd(d[0], d[k]);                                 \
        }                                                                     \
        double t[4];                                                          \
        _mm256_storeu_pd(t, d[0]);                                            \
        for (int k = 0; k < 4; k++) {                                         \
            acc[k % GROUP] += t[k];                                           \
        }                                                                     \
    }
#endif

/* complex32 (n) -> complex128 (), float16 (n) -> float64 () */
#define GEN_SUM(NAME, SUF, ATTR, H2F, F2H, GROUP)                             \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        npy_intp outer = dim[0], n = dim[1];                                  \
        for (npy_intp k = 0; k < outer; k++) {                                \
            const char *p = args[0] + k * steps[0];                           \
            npy_intp s = steps[2], i = 0;                                     \
            double acc[2] = {0.0, 0.0};                                       \
            SUM_SIMD_##SUF(GROUP)                                             \
            for (; i < n; i++, p += s) {                                      \
                uint16_t h[2];                                                \
                memcpy(h, p, 2 * GROUP);                                      \
                for (int g = 0; g < GROUP; g++) {                             \
                    acc[g] += H2F(h[g]);                                      \
                }                                                             \
            }                                                                 \
            memcpy(args[1] + k * steps[1], acc, GROUP * sizeof(double));      \
        }                                                                     \
    }

VARIANTS(GEN_SUM, c32_sum_loop, 2)
VARIANTS(GEN_SUM, f16_sum_loop, 1)

/* products, in double (complex: the textbook formula, as complex128's) */
#define GEN_C32_PROD(NAME, SUF, ATTR, H2F, F2H, UNUSED)                       \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        for (npy_intp k = 0; k < dim[0]; k++) {                               \
            const char *p = args[0] + k * steps[0];                           \
            double r = 1.0, m = 0.0;                                          \
            for (npy_intp i = 0; i < dim[1]; i++, p += steps[2]) {            \
                uint16_t h[2];                                                \
                ld_pair(p, h);                                                \
                double xr = H2F(h[0]), xi = H2F(h[1]);                        \
                double t = r * xr - m * xi;                                   \
                m = r * xi + m * xr;                                          \
                r = t;                                                        \
            }                                                                 \
            double out[2] = {r, m};                                           \
            memcpy(args[1] + k * steps[1], out, sizeof(out));                 \
        }                                                                     \
    }

#define GEN_F16_PROD(NAME, SUF, ATTR, H2F, F2H, UNUSED)                       \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        for (npy_intp k = 0; k < dim[0]; k++) {                               \
            const char *p = args[0] + k * steps[0];                           \
            double r = 1.0;                                                   \
            for (npy_intp i = 0; i < dim[1]; i++, p += steps[2]) {            \
                uint16_t h;                                                   \
                memcpy(&h, p, 2);                                             \
                r *= H2F(h);                                                  \
            }                                                                 \
            memcpy(args[1] + k * steps[1], &r, sizeof(r));                    \
        }                                                                     \
    }

VARIANTS(GEN_C32_PROD, c32_prod_loop, 0)
VARIANTS(GEN_F16_PROD, f16_prod_loop, 0)

/* vecdot: sum(conj(a) * b) over the core axis, in double, rounded once to
   binary32 and then to half (as complex64's result rounded to complex32) */
#define GEN_C32_VECDOT(NAME, SUF, ATTR, H2F, F2H, UNUSED)                     \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        for (npy_intp k = 0; k < dim[0]; k++) {                               \
            const char *a = args[0] + k * steps[0];                           \
            const char *b = args[1] + k * steps[1];                           \
            double r = 0.0, m = 0.0;                                          \
            for (npy_intp i = 0; i < dim[1]; i++, a += steps[3], b += steps[4]) { \
                uint16_t p[2], q[2];                                          \
                ld_pair(a, p);                                                \
                ld_pair(b, q);                                                \
                double ar = H2F(p[0]), ai = H2F(p[1]);                        \
                double br = H2F(q[0]), bi = H2F(q[1]);                        \
                r += ar * br + ai * bi;                                       \
                m += ar * bi - ai * br;                                       \
            }                                                                 \
            st_pair(args[2] + k * steps[2], F2H((float)r), F2H((float)m));    \
        }                                                                     \
    }

#define GEN_F16_VECDOT(NAME, SUF, ATTR, H2F, F2H, UNUSED)                     \
    ATTR static void NAME##_##SUF(char **args, npy_intp const *dim,          \
                                  npy_intp const *steps)                      \
    {                                                                         \
        for (npy_intp k = 0; k < dim[0]; k++) {                               \
            const char *a = args[0] + k * steps[0];                           \
            const char *b = args[1] + k * steps[1];                           \
            double r = 0.0;                                                   \
            for (npy_intp i = 0; i < dim[1]; i++, a += steps[3], b += steps[4]) { \
                uint16_t p, q;                                                \
                memcpy(&p, a, 2);                                             \
                memcpy(&q, b, 2);                                             \
                r += (double)H2F(p) * H2F(q);                                 \
            }                                                                 \
            uint16_t h = F2H((float)r);                                       \
            memcpy(args[2] + k * steps[2], &h, 2);                            \
        }                                                                     \
    }

VARIANTS(GEN_C32_VECDOT, c32_vecdot_loop, 0)
VARIANTS(GEN_F16_VECDOT, f16_vecdot_loop, 0)

/* ------------------------------------------------------------------------ */
/* the ufunc table                                                          */
/* ------------------------------------------------------------------------ */
typedef struct {
    const char *name;
    PyUFuncGenericFunction funcs[1];
    void *data[1];
    char types[3];
    int nin, nout;
    const char *signature; /* NULL: an elementwise ufunc */
    const char *doc;
} ufunc_def;

#define T_U4 NPY_UINT
#define T_F2 NPY_HALF
#define T_B1 NPY_BOOL
#define T_C8 NPY_CFLOAT
#define T_C16 NPY_CDOUBLE
#define T_F4 NPY_FLOAT
#define T_F8 NPY_DOUBLE
#define U1(NAME, IN, OUT, DOC) {#NAME, {NAME##_loop}, {NULL}, {IN, OUT}, 1, 1, NULL, DOC}
#define U2(NAME, IN, OUT, DOC) {#NAME, {NAME##_loop}, {NULL}, {IN, IN, OUT}, 2, 1, NULL, DOC}
#define G1(NAME, IN, OUT, SIG, DOC) {#NAME, {NAME##_loop}, {NULL}, {IN, OUT}, 1, 1, SIG, DOC}
#define G2(NAME, IN, OUT, SIG, DOC) {#NAME, {NAME##_loop}, {NULL}, {IN, IN, OUT}, 2, 1, SIG, DOC}

static ufunc_def ufunc_defs[] = {
    U2(c32_add, T_U4, T_U4, "complex32 addition"),
    U2(c32_subtract, T_U4, T_U4, "complex32 subtraction"),
    U2(c32_multiply, T_U4, T_U4, "complex32 multiplication"),
    U2(c32_divide, T_U4, T_U4, "complex32 division"),
    U2(c32_equal, T_U4, T_B1, "complex32 =="),
    U2(c32_not_equal, T_U4, T_B1, "complex32 !="),
    U1(c32_exp, T_U4, T_U4, "complex32 exp"),
    U1(c32_log, T_U4, T_U4, "complex32 log"),
    U1(c32_log2, T_U4, T_U4, "complex32 log2"),
    U1(c32_log10, T_U4, T_U4, "complex32 log10"),
    U1(c32_sqrt, T_U4, T_U4, "complex32 sqrt"),
    U1(c32_sin, T_U4, T_U4, "complex32 sin"),
    U1(c32_cos, T_U4, T_U4, "complex32 cos"),
    U1(c32_tan, T_U4, T_U4, "complex32 tan"),
    U1(c32_sinh, T_U4, T_U4, "complex32 sinh"),
    U1(c32_cosh, T_U4, T_U4, "complex32 cosh"),
    U1(c32_tanh, T_U4, T_U4, "complex32 tanh"),
    U1(c32_asin, T_U4, T_U4, "complex32 asin"),
    U1(c32_acos, T_U4, T_U4, "complex32 acos"),
    U1(c32_atan, T_U4, T_U4, "complex32 atan"),
    U1(c32_asinh, T_U4, T_U4, "complex32 asinh"),
    U1(c32_acosh, T_U4, T_U4, "complex32 acosh"),
    U1(c32_atanh, T_U4, T_U4, "complex32 atanh"),
    U1(c32_square, T_U4, T_U4, "complex32 square"),
    U1(c32_reciprocal, T_U4, T_U4, "complex32 reciprocal"),
    U1(c32_sign, T_U4, T_U4, "complex32 sign (x / |x|)"),
    U1(c32_abs, T_U4, T_F2, "complex32 -> float16 modulus"),
    U1(c32_real, T_U4, T_F2, "complex32 -> float16 real part"),
    U1(c32_imag, T_U4, T_F2, "complex32 -> float16 imaginary part"),
    U1(c32_isnan, T_U4, T_B1, "complex32 isnan"),
    U1(c32_isinf, T_U4, T_B1, "complex32 isinf"),
    U1(c32_isfinite, T_U4, T_B1, "complex32 isfinite"),
    U1(c64_to_c32, T_C8, T_U4, "complex64 -> complex32 (round to nearest even)"),
    U1(c32_to_c64, T_U4, T_C8, "complex32 -> complex64 (exact)"),
    U1(f32_to_c32, T_F4, T_U4, "float32 -> complex32"),
    U1(f16_to_c32, T_F2, T_U4, "float16 -> complex32 (exact)"),
    U1(c128_to_c32, T_C16, T_U4, "complex128 -> complex32 (round to nearest even)"),
    U1(f64_to_c32, T_F8, T_U4, "float64 -> complex32 (round to nearest even)"),
    U1(f64_to_f16, T_F8, T_F2, "float64 -> float16 (round to nearest even)"),
    U1(f32_to_f16, T_F4, T_F2, "float32 -> float16 (round to nearest even)"),
    U1(f16_to_f32, T_F2, T_F4, "float16 -> float32 (exact)"),
    U2(f16_add, T_F2, T_F2, "float16 addition"),
    U2(f16_subtract, T_F2, T_F2, "float16 subtraction"),
    U2(f16_multiply, T_F2, T_F2, "float16 multiplication"),
    U2(f16_divide, T_F2, T_F2, "float16 division"),
    U2(f16_equal, T_F2, T_B1, "float16 =="),
    U2(f16_not_equal, T_F2, T_B1, "float16 !="),
    U2(f16_less, T_F2, T_B1, "float16 <"),
    U2(f16_less_equal, T_F2, T_B1, "float16 <="),
    U2(f16_greater, T_F2, T_B1, "float16 >"),
    U2(f16_greater_equal, T_F2, T_B1, "float16 >="),
    U1(f16_sqrt, T_F2, T_F2, "float16 sqrt"),
    G1(c32_sum, T_U4, T_C16, "(n)->()", "complex32 sum over the core axis, as complex128"),
    G1(c32_prod, T_U4, T_C16, "(n)->()", "complex32 product over the core axis, as complex128"),
    G1(f16_sum, T_F2, T_F8, "(n)->()", "float16 sum over the core axis, as float64"),
    G1(f16_prod, T_F2, T_F8, "(n)->()", "float16 product over the core axis, as float64"),
    G2(c32_vecdot, T_U4, T_U4, "(n),(n)->()", "complex32 sum(conj(a) * b) over the core axis"),
    G2(f16_vecdot, T_F2, T_F2, "(n),(n)->()", "float16 sum(a * b) over the core axis"),
};

#undef T_U4
#undef T_F2
#undef T_B1
#undef T_C8
#undef T_C16
#undef T_F4
#undef T_F8

/* ------------------------------------------------------------------------ */
/* module                                                                   */
/* ------------------------------------------------------------------------ */
static PyObject *
set_level(PyObject *NPY_UNUSED(self), PyObject *arg)
{
    long want = PyLong_AsLong(arg);
    if (want == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int previous = simd_level;
    simd_level = want < 0 ? 0 : (want > max_level ? max_level : (int)want);
    return PyLong_FromLong(previous);
}

static PyObject *
get_level(PyObject *NPY_UNUSED(self), PyObject *NPY_UNUSED(args))
{
    return PyLong_FromLong(simd_level);
}

static PyObject *
get_max_level(PyObject *NPY_UNUSED(self), PyObject *NPY_UNUSED(args))
{
    return PyLong_FromLong(max_level);
}

static PyMethodDef methods[] = {
    {"set_level", set_level, METH_O,
     "set_level(n) -> previous level: 2 AVX-512 and AVX2, 1 AVX2/FMA/F16C, "
     "0 portable loops (capped at what the CPU has)."},
    {"level", get_level, METH_NOARGS, "level() -> the loops that run (0, 1, 2)."},
    {"max_level", get_max_level, METH_NOARGS,
     "max_level() -> the best level this CPU supports."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_halfprec_c",
    "NumPy ufuncs for complex32 (stored as uint32) and float16 "
    "(see ocean_cpu/_halfprec.py).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__halfprec_c(void)
{
    PyObject *m;
    import_array();
    import_umath();
    m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
#if OC_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c")) {
        max_level = 1;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl")) {
            max_level = 2;
        }
    }
#endif
    simd_level = max_level;
    for (size_t k = 0; k < sizeof(ufunc_defs) / sizeof(ufunc_defs[0]); k++) {
        ufunc_def *u = &ufunc_defs[k];
        PyObject *uf;
        if (u->signature == NULL) {
            uf = PyUFunc_FromFuncAndData(u->funcs, u->data, u->types, 1, u->nin,
                                         u->nout, PyUFunc_None, u->name, u->doc,
                                         0);
        }
        else {
            uf = PyUFunc_FromFuncAndDataAndSignature(
                u->funcs, u->data, u->types, 1, u->nin, u->nout, PyUFunc_None,
                u->name, u->doc, 0, u->signature);
        }
        if (uf == NULL || PyModule_AddObject(m, u->name, uf) < 0) {
            Py_XDECREF(uf);
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
