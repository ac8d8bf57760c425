/*
 * ocean_cpu._gather_c: gathers through precomputed flat offsets.
 *
 * take(src, offsets, swap) -> a new array of offsets.shape holding
 * src[offsets], in native byte order.  ``src`` is a 1-D array whose stride is
 * its item size (a flat view of an array's memory, see _flat_layout in
 * _backend.py); ``offsets`` is a C-contiguous int32 or int64 array of element
 * offsets into it.  With ``swap`` the bytes of each element are reversed on
 * the way (a byte-swapped source gives a native result in the same pass).
 *
 * The offsets are NOT bounds-checked: the caller (a bound ocean_ext index)
 * made them from a checked key and the array's own layout.  Used by the CPU
 * backend's "take_flat" entry.  NotImplemented (NumPy's take is then the
 * fallback) for layouts these loops do not cover: an item size other than 1,
 * 2, 4, 8, 16 bytes, a source stride that is not the item size.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <string.h>

/* Loads and stores go through memcpy of a fixed size, which compilers turn
 * into one move: the source (a view of any NumPy array, e.g. one made from a
 * buffer at an odd address) and the index array need not be aligned for
 * their types, and a load through a misaligned pointer is undefined. */
#define LOAD_STORE(T)                                                           \
    static inline T ld_##T(const char *p)                                       \
    {                                                                           \
        T v;                                                                    \
        memcpy(&v, p, sizeof(T));                                               \
        return v;                                                               \
    }                                                                           \
    static inline void st_##T(char *p, T v) { memcpy(p, &v, sizeof(T)); }
LOAD_STORE(uint8_t)
LOAD_STORE(uint16_t)
LOAD_STORE(uint32_t)
LOAD_STORE(uint64_t)
LOAD_STORE(int32_t)
LOAD_STORE(int64_t)
#define LOAD(T, p) ld_##T(p)
#define STORE(T, p, v) st_##T((p), (v))

#define GATHER(NAME, T, OFF, SWAP)                                              \
    static void NAME(const char *src, const void *off_, char *out, npy_intp n)  \
    {                                                                           \
        const char *off = (const char *)off_;                                   \
        for (npy_intp i = 0; i < n; i++) {                                      \
            npy_intp k = (npy_intp)LOAD(OFF, off + i * sizeof(OFF));            \
            T v = LOAD(T, src + k * (npy_intp)sizeof(T));                       \
            STORE(T, out + i * sizeof(T), SWAP(v));                             \
        }                                                                       \
    }

#define NOSWAP(v) (v)
#define SWAP16(v) ((uint16_t)__builtin_bswap16(v))
#define SWAP32(v) __builtin_bswap32(v)
#define SWAP64(v) __builtin_bswap64(v)
/* complex64: two float32 parts, each swapped where it stands */
#define SWAP32X2(v) ((__builtin_bswap64(v) << 32) | (__builtin_bswap64(v) >> 32))

GATHER(g1_i32, uint8_t, int32_t, NOSWAP)
GATHER(g1_i64, uint8_t, int64_t, NOSWAP)
GATHER(g2_i32, uint16_t, int32_t, NOSWAP)
GATHER(g2_i64, uint16_t, int64_t, NOSWAP)
GATHER(g4_i32, uint32_t, int32_t, NOSWAP)
GATHER(g4_i64, uint32_t, int64_t, NOSWAP)
GATHER(g8_i32, uint64_t, int32_t, NOSWAP)
GATHER(g8_i64, uint64_t, int64_t, NOSWAP)
GATHER(s2_i32, uint16_t, int32_t, SWAP16)
GATHER(s2_i64, uint16_t, int64_t, SWAP16)
GATHER(s4_i32, uint32_t, int32_t, SWAP32)
GATHER(s4_i64, uint32_t, int64_t, SWAP32)
GATHER(s8_i32, uint64_t, int32_t, SWAP64)
GATHER(s8_i64, uint64_t, int64_t, SWAP64)
GATHER(c8_i32, uint64_t, int32_t, SWAP32X2)
GATHER(c8_i64, uint64_t, int64_t, SWAP32X2)

/* 16-byte items (complex128): copied as two 8-byte words; a byte-swapped
 * complex swaps each 8-byte part in place (real and imaginary stay put). */
#define GATHER16(NAME, OFF, SWAP)                                               \
    static void NAME(const char *src, const void *off_, char *out, npy_intp n)  \
    {                                                                           \
        const char *off = (const char *)off_;                                   \
        for (npy_intp i = 0; i < n; i++) {                                      \
            npy_intp k = (npy_intp)LOAD(OFF, off + i * sizeof(OFF));            \
            const char *e = src + 16 * k;                                       \
            STORE(uint64_t, out + 16 * i, SWAP(LOAD(uint64_t, e)));             \
            STORE(uint64_t, out + 16 * i + 8, SWAP(LOAD(uint64_t, e + 8)));     \
        }                                                                       \
    }

GATHER16(g16_i32, int32_t, NOSWAP)
GATHER16(g16_i64, int64_t, NOSWAP)
GATHER16(s16_i32, int32_t, SWAP64)
GATHER16(s16_i64, int64_t, SWAP64)

typedef void (*gather_fn)(const char *, const void *, char *, npy_intp);

/* The loop for a byte swap or not, an item size, int32 or int64 offsets. */
static gather_fn pick(int swap, int itemsize, int wide, int is_complex)
{
    if (swap && is_complex && itemsize == 8) {
        return wide ? c8_i64 : c8_i32;
    }
    switch (itemsize) {
    case 1: return wide ? g1_i64 : g1_i32; /* one byte: nothing to swap */
    case 2: return swap ? (wide ? s2_i64 : s2_i32) : (wide ? g2_i64 : g2_i32);
    case 4: return swap ? (wide ? s4_i64 : s4_i32) : (wide ? g4_i64 : g4_i32);
    case 8: return swap ? (wide ? s8_i64 : s8_i32) : (wide ? g8_i64 : g8_i32);
    case 16: return swap ? (wide ? s16_i64 : s16_i32) : (wide ? g16_i64 : g16_i32);
    default: return NULL;
    }
}

/* The arguments both entry points take: (src, indices, swap).  Returns 1 and
 * fills the outputs when the compiled loops cover them, 0 when NumPy should
 * do the work (an uncovered layout or index type), -1 with an exception set
 * when parsing fails. */
static int parse(PyObject *args, PyArrayObject **src, PyArrayObject **idx, int *swap,
                 int *wide)
{
    if (!PyArg_ParseTuple(args, "O!O!p", &PyArray_Type, src, &PyArray_Type, idx,
                          swap)) {
        return -1;
    }
    PyArray_Descr *descr = PyArray_DESCR(*src);
    int type = PyArray_TYPE(*idx);
    *wide = type == NPY_INT64;
    if ((type != NPY_INT32 && type != NPY_INT64) || PyArray_NDIM(*src) != 1 ||
        PyArray_STRIDE(*src, 0) != (npy_intp)PyDataType_ELSIZE(descr) ||
        !PyArray_IS_C_CONTIGUOUS(*idx) || !PyArray_ISNBO(PyArray_DESCR(*idx)->byteorder) ||
        PyDataType_HASFIELDS(descr) || PyDataType_REFCHK(descr)) {
        /* e.g. a one-element view that kept a wider stride */
        return 0;
    }
    return 1;
}

/* A new array of idx's shape with src's dtype, in native byte order. */
static PyObject *new_output(PyArrayObject *src, PyArrayObject *idx, int swap)
{
    PyArray_Descr *descr = PyArray_DESCR(src);
    PyArray_Descr *out_descr =
        swap ? PyArray_DescrNewByteorder(descr, NPY_NATIVE) : (Py_INCREF(descr), descr);
    if (out_descr == NULL) {
        return NULL;
    }
    return PyArray_NewFromDescr(&PyArray_Type, out_descr, PyArray_NDIM(idx),
                                PyArray_DIMS(idx), NULL, NULL, 0, NULL);
}

static PyObject *take(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyArrayObject *src, *off;
    int swap, wide;
    int ok = parse(args, &src, &off, &swap, &wide);
    if (ok <= 0) {
        if (ok < 0) {
            return NULL;
        }
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyArray_Descr *descr = PyArray_DESCR(src);
    gather_fn fn = pick(swap, (int)PyDataType_ELSIZE(descr), wide, descr->kind == 'c');
    if (fn == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = new_output(src, off, swap);
    if (out == NULL) {
        return NULL;
    }
    npy_intp n = PyArray_SIZE(off);
    const char *s = PyArray_BYTES(src);
    const void *o = PyArray_DATA(off);
    char *d = PyArray_BYTES((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    fn(s, o, d, n);
    Py_END_ALLOW_THREADS
    return out;
}


/* take_checked(src, indices, swap) -> src[indices] for a 1-D ``src`` (unit
 * element stride) and int32/int64 ``indices`` as given by a user: negative
 * indices count from the end, and an index outside [-n, n) raises IndexError
 * (the same message as NumPy's).  One pass, byte swap included. */
#define CHECKED(NAME, T, IDX, SWAP)                                                 \
    static npy_intp NAME(const char *src, const void *idx_, char *out, npy_intp n, \
                         npy_intp len)                                             \
    {                                                                              \
        const char *idx = (const char *)idx_;                                      \
        for (npy_intp i = 0; i < n; i++) {                                         \
            npy_intp k = (npy_intp)LOAD(IDX, idx + i * sizeof(IDX));               \
            if (k < 0) {                                                           \
                k += len;                                                          \
            }                                                                      \
            if ((npy_uintp)k >= (npy_uintp)len) {                                  \
                return i;                                                          \
            }                                                                      \
            T v = LOAD(T, src + k * (npy_intp)sizeof(T));                          \
            STORE(T, out + i * sizeof(T), SWAP(v));                                \
        }                                                                          \
        return -1;                                                                 \
    }

CHECKED(k4_i32, uint32_t, int32_t, NOSWAP)
CHECKED(k4_i64, uint32_t, int64_t, NOSWAP)
CHECKED(k8_i32, uint64_t, int32_t, NOSWAP)
CHECKED(k8_i64, uint64_t, int64_t, NOSWAP)
CHECKED(ks2_i32, uint16_t, int32_t, SWAP16)
CHECKED(ks2_i64, uint16_t, int64_t, SWAP16)
CHECKED(ks4_i32, uint32_t, int32_t, SWAP32)
CHECKED(ks4_i64, uint32_t, int64_t, SWAP32)
CHECKED(ks8_i32, uint64_t, int32_t, SWAP64)
CHECKED(ks8_i64, uint64_t, int64_t, SWAP64)
CHECKED(kc8_i32, uint64_t, int32_t, SWAP32X2)
CHECKED(kc8_i64, uint64_t, int64_t, SWAP32X2)

typedef npy_intp (*checked_fn)(const char *, const void *, char *, npy_intp, npy_intp);

static checked_fn pick_checked(int swap, int itemsize, int wide, int is_complex)
{
    if (swap && is_complex && itemsize == 8) {
        return wide ? kc8_i64 : kc8_i32;
    }
    switch (itemsize) {
    case 2: return swap ? (wide ? ks2_i64 : ks2_i32) : NULL;
    case 4: return swap ? (wide ? ks4_i64 : ks4_i32) : (wide ? k4_i64 : k4_i32);
    case 8: return swap ? (wide ? ks8_i64 : ks8_i32) : (wide ? k8_i64 : k8_i32);
    default: return NULL; /* NumPy's own indexing then */
    }
}

static PyObject *take_checked(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyArrayObject *src, *idx;
    int swap, wide;
    int ok = parse(args, &src, &idx, &swap, &wide);
    if (ok <= 0) {
        if (ok < 0) {
            return NULL;
        }
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyArray_Descr *descr = PyArray_DESCR(src);
    int type = PyArray_TYPE(idx);
    checked_fn fn =
        pick_checked(swap, (int)PyDataType_ELSIZE(descr), wide, descr->kind == 'c');
    if (fn == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = new_output(src, idx, swap);
    if (out == NULL) {
        return NULL;
    }
    npy_intp n = PyArray_SIZE(idx), len = PyArray_DIM(src, 0), bad;
    const char *s = PyArray_BYTES(src);
    const void *ix = PyArray_DATA(idx);
    char *d = PyArray_BYTES((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    bad = fn(s, ix, d, n, len);
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        const char *at = (const char *)ix;
        long long v = type == NPY_INT64 ? (long long)LOAD(int64_t, at + bad * 8)
                                        : (long long)LOAD(int32_t, at + bad * 4);
        Py_DECREF(out);
        PyErr_Format(PyExc_IndexError,
                     "index %lld is out of bounds for axis 0 with size %lld", v,
                     (long long)len);
        return NULL;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"take", take, METH_VARARGS,
     "take(src, offsets, swap) -> src[offsets] in native byte order (offsets unchecked)."},
    {"take_checked", take_checked, METH_VARARGS,
     "take_checked(src, indices, swap) -> src[indices], negative indices from the end, "
     "IndexError out of bounds; NotImplemented where NumPy should do it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_gather_c",
    "Gathers through precomputed flat offsets (ocean_cpu's take_flat).", -1, methods,
};

PyMODINIT_FUNC PyInit__gather_c(void)
{
    import_array();
    return PyModule_Create(&module);
}
