/* ocean_array_api._fastpath: the compiled fast path of the Array front end.
 *
 * The Python front end (ocean_array_api/_array_object.py,
 * _elementwise_functions.py, _indexing.py) is the single definition of
 * behaviour.  This module only takes the common, unambiguous cases of it
 * faster:
 *
 * - ArrayBase, the base type of the Python ``Array`` class, holds the three
 *   fields ``_data``, ``_dtype`` and ``_device`` (member descriptors, so Python
 *   code reading and writing them is unchanged) and C getters for ``dtype``,
 *   ``device``, ``shape``, ``ndim``, ``size`` and ``mT``.
 * - ``wrap(data, dtype, device)`` makes an Array without calling its __new__.
 * - FastOp objects are the operators (``__add__``, ``__radd__``, ``__iadd__``,
 *   ``__lt__``, ``__neg__``, ...) and ``__getitem__``/``__setitem__`` of Array.
 *   Each holds the Python implementation it stands for (``__wrapped__``) and
 *   calls it for every case it does not take itself: any operand of another
 *   class, dtype or device, any dtype outside the standard ones, any key other
 *   than the simple ones, any active hook, and any error a kernel raises before
 *   writing (the Python path then re-does the work and raises the proper
 *   error).  FastOps live in ``Array.__dict__``, so ``setattr(Array, ...)``
 *   (ocean_ext.portability_report) replaces and restores them as usual.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#define MAX_DTYPES 32
#define MAX_DEVICES 16

/* ---- module state (one interpreter; the module is single-phase) -------- */
static PyTypeObject *array_type = NULL;   /* the Python Array class */
static PyObject *dtypes[MAX_DTYPES];      /* the standard DType objects */
static int dtype_flags[MAX_DTYPES];       /* FLAG_* below */
static int dtype_real[MAX_DTYPES];        /* index of the real dtype (REAL_OF) */
static int n_dtypes = 0;
static int bool_index = -1, float64_index = -1;
static PyObject *hooks_dict = NULL;       /* ocean_array_api._ext_hooks.__dict__ */
static PyObject *writable_default = NULL; /* _ext_hooks._writable_default */
static PyObject *may_overlap = NULL;      /* _array_object._may_overlap */
static PyObject *mT_fallback = NULL;      /* the Python mT getter */
static PyObject *op_getitem = NULL;       /* operator.getitem */
static PyObject *op_setitem = NULL;       /* operator.setitem */
static int enabled = 0;

#define FLAG_INT_OK 1   /* numeric: a Python int is accepted */
#define FLAG_FLOAT_OK 2 /* floating: a Python float is accepted */
#define FLAG_INTEGER 4  /* integer dtype (divide gives float64) */

typedef struct {
    PyObject *device; /* strong references; devices are interned, immutable */
    PyObject *ops;
    PyObject *native;
    PyObject *backend;
    int numpy_scalars; /* the CPU backend: to_native is numpy.asarray */
    /* the CPU backend's own matrix_transpose (x.swapaxes(-1, -2)), as the
     * table held it when the device was first seen; NULL for others */
    PyObject *cpu_matrix_transpose;
    /* likewise the CPU backend's reshape, permute_dims, concat, where and
     * astype kernels, which the fast cases below replace by the NumPy C
     * calls they make (any other entry, e.g. ocean_ext.instrument's
     * wrapper, is called) */
    PyObject *cpu_reshape, *cpu_permute_dims, *cpu_concat, *cpu_where,
        *cpu_astype, *cpu_pow;
    /* the sizes (elements) from which those entries run on several threads
     * (ocean_cpu._parallel); the NumPy C calls above take smaller calls only.
     * NULL: the entry has no such threshold. */
    const Py_ssize_t *where_min, *astype_min, *concat_min, *pow_min;
} DeviceEntry;
static DeviceEntry devices[MAX_DEVICES];
static int n_devices = 0;

static PyObject *s_ops, *s_native, *s_backend, *s_to_native, *s_shape,
    *s_ndim, *s_size, *s_base, *s_getitem, *s_setitem, *s_copy,
    *s_matrix_transpose, *s_check, *kw_out, *s_reshape, *s_permute_dims,
    *s_concat, *s_where, *s_astype, *s_copy_kw, *s_axis_kw, *s_device_kw,
    *kw_copy, *int_zero, *s_pow, *s_dtype;
static PyObject *np_power = NULL;  /* numpy.power */
static PyObject *np_square = NULL; /* numpy.square */
static PyObject *dtype_native[MAX_DTYPES]; /* each standard DType's _native */
/* asarray(ndarray): NumPy's native descriptors -> DType (_creation_functions'
 * _HOST_DTYPES), the device scope's ContextVar, _devices.__dict__, the CPU */
static PyObject *host_descrs[MAX_DTYPES], *host_dtypes[MAX_DTYPES];
static int n_host = 0;
static PyObject *scope_var = NULL, *devices_dict = NULL, *cpu_device = NULL;
static PyObject *s_env_checked, *s_env_default;

/* ---- ArrayBase ----------------------------------------------------------- */
typedef struct {
    PyObject_HEAD
    PyObject *data;
    PyObject *dtype;
    PyObject *device;
} ArrayBase;

static PyTypeObject ArrayBase_Type;

static int
base_traverse(ArrayBase *self, visitproc visit, void *arg)
{
    Py_VISIT(self->data);
    Py_VISIT(self->dtype);
    Py_VISIT(self->device);
    return 0;
}

static int
base_clear(ArrayBase *self)
{
    Py_CLEAR(self->data);
    Py_CLEAR(self->dtype);
    Py_CLEAR(self->device);
    return 0;
}

/* A free list of Array objects' memory: making and freeing the small
 * wrapper object is a good part of a fast case's cost.  Only Array itself
 * (no subclass) with CPython's own allocator goes there; subtype_dealloc has
 * cleared its weak references and untracked it before calling this base
 * dealloc, and touches nothing of it after. */
#define FREE_MAX 128
static PyObject *free_list[FREE_MAX];
static int n_free = 0;

static void
base_dealloc(ArrayBase *self)
{
    PyObject_GC_UnTrack(self);
    base_clear(self);
    PyTypeObject *tp = Py_TYPE(self);
    if (tp == array_type && n_free < FREE_MAX && tp->tp_free == PyObject_GC_Del &&
        tp->tp_alloc == PyType_GenericAlloc) {
        free_list[n_free++] = (PyObject *)self;
        return;
    }
    tp->tp_free((PyObject *)self);
}

/* Array's own deallocator, in place of CPython's generic one for classes
 * (subtype_dealloc), which Array needs none of but the weak references: no
 * __dict__, no finaliser (_setup keeps the generic one when Array has one),
 * no nesting that needs the trashcan.  As for any heap type's deallocator,
 * it releases the instance's reference to its type, also for instances of
 * subclasses (whose subtype_dealloc calls it as their base's). */
static destructor generic_dealloc = NULL;

static void
array_dealloc(ArrayBase *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self); /* a no-op when it is not tracked */
    if (tp->tp_weaklistoffset > 0) {
        if (*(PyObject **)((char *)self + tp->tp_weaklistoffset) != NULL)
            PyObject_ClearWeakRefs((PyObject *)self);
    }
    else if (tp->tp_weaklistoffset != 0) /* managed (Python 3.12+) */
        PyObject_ClearWeakRefs((PyObject *)self);
    base_dealloc(self);
    Py_DECREF(tp);
}

/* Whether the GC needs to see an Array on ``data``: not when it is a NumPy
 * array of a non-object dtype.  Such an array references no Python object
 * but its base, fixed before the Array exists, and the dtype and device are
 * the namespace's objects, so no reference cycle can run through the Array
 * (as CPython untracks tuples of atoms); skipping the GC's bookkeeping is a
 * good part of a cheap call's cost. */
static inline int
needs_gc(PyObject *data)
{
    return !(PyArray_CheckExact(data) &&
             !PyDataType_REFCHK(PyArray_DESCR((PyArrayObject *)data)));
}

static PyObject *
wrap_new(PyObject *data, PyObject *dtype, PyObject *device)
{
    /* steals a reference to data */
    ArrayBase *out;
    if (n_free > 0 && array_type->tp_alloc == PyType_GenericAlloc) {
        /* as PyType_GenericAlloc leaves it: zeroed, typed, one reference,
         * tracked by the GC where it needs to be */
        out = (ArrayBase *)free_list[--n_free];
        if (array_type->tp_basicsize == sizeof(ArrayBase) + sizeof(PyObject *) &&
            array_type->tp_weaklistoffset == sizeof(ArrayBase))
            /* the usual layout: the fields set below, then the weak list */
            *(PyObject **)((char *)out + sizeof(ArrayBase)) = NULL;
        else
            memset((char *)out + sizeof(PyObject), 0,
                   array_type->tp_basicsize - sizeof(PyObject));
        PyObject_Init((PyObject *)out, array_type);
        if (needs_gc(data))
            PyObject_GC_Track(out);
    }
    else {
        out = (ArrayBase *)array_type->tp_alloc(array_type, 0);
        if (out != NULL && !needs_gc(data))
            PyObject_GC_UnTrack(out);
    }
    if (out == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    out->data = data;
    Py_INCREF(dtype);
    out->dtype = dtype;
    Py_INCREF(device);
    out->device = device;
    return (PyObject *)out;
}

#define IS_ARRAY(o) (Py_TYPE(o) == array_type)

static PyObject *
get_field(PyObject *f, const char *name)
{
    if (f == NULL) {
        PyErr_SetString(PyExc_AttributeError, name);
        return NULL;
    }
    Py_INCREF(f);
    return f;
}

static PyObject *
get_dtype(ArrayBase *self, void *c)
{
    return get_field(self->dtype, "_dtype");
}

static PyObject *
get_device(ArrayBase *self, void *c)
{
    return get_field(self->device, "_device");
}

static PyObject *
get_shape(ArrayBase *self, void *c)
{
    if (self->data == NULL)
        return get_field(NULL, "_data");
    return PyObject_GetAttr(self->data, s_shape);
}

static PyObject *
get_ndim(ArrayBase *self, void *c)
{
    if (self->data == NULL)
        return get_field(NULL, "_data");
    return PyObject_GetAttr(self->data, s_ndim);
}

static PyObject *
get_size(ArrayBase *self, void *c)
{
    if (self->data == NULL)
        return get_field(NULL, "_data");
    return PyObject_GetAttr(self->data, s_size);
}

static DeviceEntry *device_entry(PyObject *dev);

static PyObject *
get_mT(ArrayBase *self, void *c)
{
    if (mT_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastpath: not set up");
        return NULL;
    }
    if (enabled && IS_ARRAY((PyObject *)self) && self->data != NULL) {
        long n;
        if (PyArray_CheckExact(self->data))
            n = PyArray_NDIM((PyArrayObject *)self->data);
        else {
            PyObject *nd = PyObject_GetAttr(self->data, s_ndim);
            n = nd == NULL ? -1 : PyLong_AsLong(nd);
            Py_XDECREF(nd);
        }
        if (n >= 2) {
            DeviceEntry *e = device_entry(self->device);
            PyObject *f = e ? PyDict_GetItemWithError(e->ops, s_matrix_transpose)
                            : NULL;
            if (f != NULL) {
                PyObject *res;
                if (f == e->cpu_matrix_transpose && PyArray_CheckExact(self->data))
                    res = PyArray_SwapAxes((PyArrayObject *)self->data, -1, -2);
                else
                    res = PyObject_CallOneArg(f, self->data);
                if (res != NULL)
                    return wrap_new(res, self->dtype, self->device);
            }
        }
        PyErr_Clear();
    }
    return PyObject_CallOneArg(mT_fallback, (PyObject *)self);
}

static PyMemberDef base_members[] = {
    {"_data", T_OBJECT_EX, offsetof(ArrayBase, data), 0, NULL},
    {"_dtype", T_OBJECT_EX, offsetof(ArrayBase, dtype), 0, NULL},
    {"_device", T_OBJECT_EX, offsetof(ArrayBase, device), 0, NULL},
    {NULL}};

static PyGetSetDef base_getset[] = {
    {"dtype", (getter)get_dtype, NULL, "Data type of the array elements.", NULL},
    {"device", (getter)get_device, NULL,
     "The device the array's data lives on.", NULL},
    {"shape", (getter)get_shape, NULL,
     "The array's dimensions, a tuple of Python ints.", NULL},
    {"ndim", (getter)get_ndim, NULL, "Number of dimensions.", NULL},
    {"size", (getter)get_size, NULL, "Number of elements.", NULL},
    {"mT", (getter)get_mT, NULL, "Transpose of the last two axes (a view).",
     NULL},
    {NULL}};

static PyTypeObject ArrayBase_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ocean_array_api._fastpath.ArrayBase",
    .tp_basicsize = sizeof(ArrayBase),
    .tp_dealloc = (destructor)base_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Storage of ocean_array_api.Array (the compiled fast path).",
    .tp_traverse = (traverseproc)base_traverse,
    .tp_clear = (inquiry)base_clear,
    .tp_members = base_members,
    .tp_getset = base_getset,
};

/* ---- helpers -------------------------------------------------------------- */
static inline int
dtype_index(PyObject *dt)
{
    for (int i = 0; i < n_dtypes; i++)
        if (dtypes[i] == dt)
            return i;
    return -1;
}

/* The entry ``key`` of the CPU backend's table when it is the backend's own
 * function ``qualname`` (of ocean_cpu._backend), else NULL; a strong
 * reference kept for the life of the process. */
static PyObject *
cpu_kernel(DeviceEntry *e, PyObject *key, const char *qualname)
{
    if (!e->numpy_scalars)
        return NULL;
    PyObject *f = PyDict_GetItemWithError(e->ops, key);
    PyObject *qn = f ? PyObject_GetAttrString(f, "__qualname__") : NULL;
    PyObject *fm = qn ? PyObject_GetAttrString(f, "__module__") : NULL;
    PyObject *res = NULL;
    if (fm != NULL && PyUnicode_Check(qn) && PyUnicode_Check(fm) &&
        PyUnicode_CompareWithASCIIString(qn, qualname) == 0 &&
        PyUnicode_CompareWithASCIIString(fm, "ocean_cpu._backend") == 0)
        res = Py_NewRef(f);
    Py_XDECREF(qn);
    Py_XDECREF(fm);
    PyErr_Clear();
    return res;
}

/* The address of the size threshold of a parallel CPU entry (its
 * ``_size_limit`` capsule, see ocean_cpu/src/parallel.c), or NULL. */
static const Py_ssize_t *
size_limit(PyObject *f)
{
    if (f == NULL)
        return NULL;
    PyObject *cap = PyObject_GetAttrString(f, "_size_limit");
    const Py_ssize_t *p = NULL;
    if (cap != NULL && PyCapsule_CheckExact(cap))
        p = PyCapsule_GetPointer(cap, "ocean_cpu._parallel_c.limit");
    Py_XDECREF(cap);
    PyErr_Clear();
    return p;
}

/* Whether a NumPy C call may stand for a parallel entry: no threshold, or
 * ``o`` (when a NumPy array) below it. */
static inline int
below(const Py_ssize_t *limit, PyObject *o)
{
    return limit == NULL || !PyArray_Check(o) ||
           PyArray_SIZE((PyArrayObject *)o) < *limit;
}

/* ---- kernel look-up, cached ---------------------------------------------
 * Every compiled call looks its kernel up in the device's table (a dict,
 * which ocean_ext.instrument or a test may change at any time); the lookup
 * is a good part of a cheap call's cost.  A small direct-mapped cache keeps
 * (table, name) -> entry, valid while the table is unchanged: on Python
 * before 3.12 the dict's version tag says so (a fresh value from a global
 * counter at every change of any dict); from 3.12 on, where that tag is
 * deprecated, a dict watcher on each table bumps ``tables_epoch`` at every
 * change.  The entry is borrowed from the table, which holds it for as long
 * as the stamp matches. */
#define KCACHE_SIZE 64
typedef struct {
    PyObject *ops, *name, *func; /* borrowed */
    uint64_t stamp;
} KCacheSlot;
static KCacheSlot kcache[KCACHE_SIZE];
static int kcache_on = 1;

#if PY_VERSION_HEX >= 0x030C0000
static uint64_t tables_epoch = 1;
static int tables_watcher = -1;

static int
table_changed(PyDict_WatchEvent event, PyObject *dict, PyObject *key,
              PyObject *new_value)
{
    (void)event;
    (void)dict;
    (void)key;
    (void)new_value;
    tables_epoch++;
    return 0;
}

static void
watch_table(PyObject *ops)
{
    if (tables_watcher < 0)
        tables_watcher = PyDict_AddWatcher(table_changed);
    if (tables_watcher < 0 || PyDict_Watch(tables_watcher, ops) < 0) {
        PyErr_Clear();
        kcache_on = 0; /* look up at every call */
    }
}

static inline uint64_t
table_stamp(PyObject *ops)
{
    (void)ops;
    return tables_epoch;
}
#else
static void
watch_table(PyObject *ops)
{
    (void)ops;
}

static inline uint64_t
table_stamp(PyObject *ops)
{
    return ((PyDictObject *)ops)->ma_version_tag;
}
#endif

/* The entry ``name`` (an interned str) of the device's table, borrowed, or
 * NULL with no error set. */
static inline PyObject *
kernel(DeviceEntry *e, PyObject *name)
{
    PyObject *ops = e->ops;
    KCacheSlot *c = &kcache[((uintptr_t)name >> 4) % KCACHE_SIZE];
    uint64_t stamp = table_stamp(ops);
    if (c->name == name && c->ops == ops && c->stamp == stamp && kcache_on)
        return c->func;
    PyObject *f = PyDict_GetItemWithError(ops, name);
    if (f == NULL) {
        PyErr_Clear();
        return NULL;
    }
    c->ops = ops;
    c->name = name;
    c->func = f;
    c->stamp = stamp;
    return f;
}

static DeviceEntry *
device_entry(PyObject *dev)
{
    if (n_devices > 0 && devices[0].device == dev)
        return &devices[0];
    for (int i = 1; i < n_devices; i++)
        if (devices[i].device == dev)
            return &devices[i];
    if (n_devices == MAX_DEVICES)
        return NULL; /* no error set: the caller falls back */
    PyObject *ops = PyObject_GetAttr(dev, s_ops);
    PyObject *native = ops ? PyObject_GetAttr(dev, s_native) : NULL;
    PyObject *backend = native ? PyObject_GetAttr(dev, s_backend) : NULL;
    if (backend == NULL || !PyDict_CheckExact(ops)) {
        Py_XDECREF(ops);
        Py_XDECREF(native);
        Py_XDECREF(backend);
        PyErr_Clear();
        return NULL;
    }
    watch_table(ops);
    DeviceEntry *e = &devices[n_devices++];
    Py_INCREF(dev);
    e->device = dev;
    e->ops = ops;
    e->native = native;
    e->backend = backend;
    /* Only ocean_cpu's CPUBackend is known to convert as numpy.asarray. */
    PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(backend), "__module__");
    e->numpy_scalars = native == (PyObject *)&PyArray_Type && mod != NULL &&
                       PyUnicode_Check(mod) &&
                       PyUnicode_CompareWithASCIIString(mod, "ocean_cpu._backend") == 0;
    Py_XDECREF(mod);
    PyErr_Clear();
    e->cpu_matrix_transpose = cpu_kernel(e, s_matrix_transpose, "_matrix_transpose");
    e->cpu_reshape = cpu_kernel(e, s_reshape, "_reshape");
    e->cpu_permute_dims = cpu_kernel(e, s_permute_dims, "_permute_dims");
    e->cpu_concat = cpu_kernel(e, s_concat, "_concat");
    e->cpu_where = cpu_kernel(e, s_where, "_where");
    e->cpu_astype = cpu_kernel(e, s_astype, "_astype");
    e->cpu_pow = cpu_kernel(e, s_pow, "_pow");
    e->where_min = size_limit(e->cpu_where);
    e->astype_min = size_limit(e->cpu_astype);
    e->concat_min = size_limit(e->cpu_concat);
    e->pow_min = size_limit(e->cpu_pow);
    return e;
}

/* A native result in the device's native class (NumPy gives scalars for 0-d
 * results); steals res. */
static PyObject *
as_native(PyObject *res, DeviceEntry *e)
{
    if (res == NULL || (PyObject *)Py_TYPE(res) == e->native)
        return res;
    if (e->numpy_scalars && PyArray_IsScalar(res, Generic)) {
        /* numpy.asarray(scalar), the CPU backend's to_native, in C */
        PyObject *arr = PyArray_FromScalar(res, NULL);
        Py_DECREF(res);
        return arr;
    }
    PyObject *conv = PyObject_CallMethodOneArg(e->backend, s_to_native, res);
    Py_DECREF(res);
    return conv;
}

static inline int
hooks_default(void)
{
    PyObject *check = PyDict_GetItemWithError(hooks_dict, s_check);
    return check == writable_default;
}

/* Errors after which the Python path re-does the work: the ones kernels raise
 * while checking their operands, before writing anything. */
static inline int
retryable_error(void)
{
    return PyErr_ExceptionMatches(PyExc_ValueError) ||
           PyErr_ExceptionMatches(PyExc_TypeError) ||
           PyErr_ExceptionMatches(PyExc_OverflowError) ||
           PyErr_ExceptionMatches(PyExc_IndexError) ||
           PyErr_ExceptionMatches(PyExc_KeyError);
}

/* ---- FastOp --------------------------------------------------------------- */
enum {
    K_FORWARD,
    K_REFLECTED,
    K_INPLACE,
    K_UNARY,
    K_GETITEM,
    K_SETITEM,
    K_RESHAPE,
    K_PERMUTE_DIMS,
    K_CONCAT,
    K_WHERE,
    K_ASTYPE,
    K_ASARRAY,
    N_KINDS
};
enum { R_PROMOTE, R_BOOL, R_DIVIDE, R_SAME, R_REAL };

typedef struct {
    PyObject_HEAD
    PyObject *fallback; /* the Python implementation (__wrapped__) */
    PyObject *op;       /* kernel name in the device's table */
    PyObject *name, *qualname, *doc, *module, *dict;
    unsigned long allowed; /* bit i: dtypes[i] allowed */
    int kind, result;
    vectorcallfunc vectorcall;
} FastOp;

/* NOT_FAST: no error set, the caller calls the fallback. */
static PyObject NOT_FAST_OBJ;
#define NOT_FAST (&NOT_FAST_OBJ)

/* Checks made before a kernel runs, so that a case whose kernel would raise
 * goes to Python at once: the kernel then runs once (ocean_ext.instrument
 * counts one call), and the Python path raises the proper error. */

/* Whether NumPy arrays a and b broadcast (1 when either is no NumPy array:
 * the kernel decides). */
static int
broadcastable(PyObject *a, PyObject *b)
{
    if (!PyArray_CheckExact(a) || !PyArray_CheckExact(b))
        return 1;
    int na = PyArray_NDIM((PyArrayObject *)a), nb = PyArray_NDIM((PyArrayObject *)b);
    int n = na < nb ? na : nb;
    for (int i = 1; i <= n; i++) {
        npy_intp da = PyArray_DIM((PyArrayObject *)a, na - i);
        npy_intp db = PyArray_DIM((PyArrayObject *)b, nb - i);
        if (da != db && da != 1 && db != 1)
            return 0;
    }
    return 1;
}

/* Whether the Python int v fits integer dtype i (NumPy raises
 * OverflowError for one that does not); 1 for other dtypes. */
static int
int_fits(PyObject *v, int i)
{
    if (!(dtype_flags[i] & FLAG_INTEGER) || dtype_native[i] == NULL)
        return 1;
    PyArray_Descr *d = (PyArray_Descr *)dtype_native[i];
    int bits = 8 * (int)PyDataType_ELSIZE(d);
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (d->kind == 'u') {
        if (overflow < 0 || (overflow == 0 && x < 0))
            return 0;
        if (bits == 64) {
            if (overflow == 0)
                return 1;
            unsigned long long u = PyLong_AsUnsignedLongLong(v);
            if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            return 1;
        }
        return overflow == 0 && x < (1LL << bits);
    }
    if (overflow)
        return 0;
    if (bits == 64)
        return 1;
    return x >= -(1LL << (bits - 1)) && x < (1LL << (bits - 1));
}

static PyObject *
fast_binary(FastOp *op, PyObject *x, PyObject *other)
{
    if (!IS_ARRAY(x))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    PyObject *dt = ax->dtype, *dev = ax->device;
    int di = dtype_index(dt);
    if (di < 0 || !(op->allowed & (1UL << di)))
        return NOT_FAST;
    PyObject *b;
    if (IS_ARRAY(other)) {
        ArrayBase *ao = (ArrayBase *)other;
        if (ao->dtype != dt || ao->device != dev || ao->data == NULL ||
            ax->data == NULL || !broadcastable(ax->data, ao->data))
            return NOT_FAST;
        b = ao->data;
    }
    else if (PyLong_CheckExact(other)) {
        if (!(dtype_flags[di] & FLAG_INT_OK) || !int_fits(other, di))
            return NOT_FAST;
        b = other;
    }
    else if (PyFloat_CheckExact(other)) {
        if (!(dtype_flags[di] & FLAG_FLOAT_OK))
            return NOT_FAST;
        b = other;
    }
    else
        return NOT_FAST;
    PyObject *a = ax->data;
    if (a == NULL || b == NULL)
        return NOT_FAST;
    int rdi = di;
    if (op->result == R_BOOL)
        rdi = bool_index;
    else if (op->result == R_DIVIDE && (dtype_flags[di] & FLAG_INTEGER))
        rdi = float64_index;
    if (op->kind == K_INPLACE && (rdi != di || !hooks_default()))
        return NOT_FAST;
    DeviceEntry *e = device_entry(dev);
    if (e == NULL)
        return NOT_FAST;
    PyObject *func = kernel(e, op->op);
    if (func == NULL) {
        PyErr_Clear();
        return NOT_FAST;
    }
    /* ocean_cpu's _pow with a Python int exponent is numpy.power itself, or
       numpy.square for the exponent 2 of a real array (as _pow decides) */
    int square = 0;
    if (func == e->cpu_pow && np_power != NULL && op->kind != K_REFLECTED &&
        PyLong_CheckExact(b) && below(e->pow_min, a)) {
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(b, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        square = !overflow && v == 2 && PyArray_Check(a) &&
                 !PyTypeNum_ISCOMPLEX(PyArray_TYPE((PyArrayObject *)a));
        func = square ? np_square : np_power;
    }
    Py_INCREF(func); /* the table may change during the call */
    PyObject *res;
    if (square) {
        PyObject *args[2] = {a, a};
        res = op->kind == K_INPLACE ? PyObject_Vectorcall(func, args, 1, kw_out)
                                    : PyObject_Vectorcall(func, args, 1, NULL);
    }
    else if (op->kind == K_INPLACE) {
        PyObject *args[3] = {a, b, a};
        res = PyObject_Vectorcall(func, args, 2, kw_out);
    }
    else if (op->kind == K_REFLECTED) {
        PyObject *args[2] = {b, a};
        res = PyObject_Vectorcall(func, args, 2, NULL);
    }
    else {
        PyObject *args[2] = {a, b};
        res = PyObject_Vectorcall(func, args, 2, NULL);
    }
    Py_DECREF(func);
    if (res == NULL) {
        if (retryable_error()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        return NULL;
    }
    if (op->kind == K_INPLACE) {
        Py_DECREF(res);
        Py_INCREF(x);
        return x;
    }
    res = as_native(res, e);
    if (res == NULL)
        return NULL;
    return wrap_new(res, dtypes[rdi], dev);
}

static PyObject *
fast_unary(FastOp *op, PyObject *x)
{
    if (!IS_ARRAY(x))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    int di = dtype_index(ax->dtype);
    if (di < 0 || !(op->allowed & (1UL << di)) || ax->data == NULL)
        return NOT_FAST;
    int rdi = op->result == R_BOOL ? bool_index
              : op->result == R_REAL ? dtype_real[di]
                                     : di;
    DeviceEntry *e = device_entry(ax->device);
    if (e == NULL)
        return NOT_FAST;
    PyObject *func = kernel(e, op->op);
    if (func == NULL) {
        PyErr_Clear();
        return NOT_FAST;
    }
    Py_INCREF(func);
    PyObject *res = PyObject_CallOneArg(func, ax->data);
    Py_DECREF(func);
    if (res == NULL) {
        if (retryable_error()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        return NULL;
    }
    res = as_native(res, e);
    if (res == NULL)
        return NULL;
    return wrap_new(res, dtypes[rdi], ax->device);
}

/* The dimensions of native data: direct for NumPy arrays, from ``shape``
 * otherwise. */
typedef struct {
    PyObject *shape; /* owned; NULL for NumPy arrays */
    npy_intp *dims;
    Py_ssize_t ndim;
} Dims;

/* 0 on success; -1 (no error set) when the shape is not a tuple of ints. */
static int
dims_get(Dims *di, PyObject *data)
{
    if (PyArray_CheckExact(data)) {
        di->shape = NULL;
        di->dims = PyArray_DIMS((PyArrayObject *)data);
        di->ndim = PyArray_NDIM((PyArrayObject *)data);
        return 0;
    }
    PyObject *shape = PyObject_GetAttr(data, s_shape);
    if (shape == NULL) {
        PyErr_Clear();
        return -1;
    }
    if (!PyTuple_CheckExact(shape)) {
        Py_DECREF(shape);
        return -1;
    }
    di->shape = shape;
    di->dims = NULL;
    di->ndim = PyTuple_GET_SIZE(shape);
    return 0;
}

/* The size of an axis, or -1 when unknown (None on lazy devices). */
static Py_ssize_t
dims_size(Dims *di, Py_ssize_t axis)
{
    if (di->dims != NULL)
        return di->dims[axis];
    PyObject *sz = PyTuple_GET_ITEM(di->shape, axis);
    if (!PyLong_CheckExact(sz))
        return -1;
    Py_ssize_t v = PyLong_AsSsize_t(sz);
    if (v < 0) {
        PyErr_Clear();
        return -1;
    }
    return v;
}

static inline int
simple_slice(PyObject *s)
{
    PySliceObject *sl = (PySliceObject *)s;
    if (sl->step != Py_None &&
        (!PyLong_CheckExact(sl->step) || PyObject_Not(sl->step)))
        return 0;
    return (sl->start == Py_None || PyLong_CheckExact(sl->start)) &&
           (sl->stop == Py_None || PyLong_CheckExact(sl->stop));
}

/* Whether ``key`` is a basic index that passes the standard's checks for
 * ``data`` (ints in bounds, slices of ints, at most one Ellipsis, at most
 * ndim axes), as in _indexing.native_key; 0 (no error set) otherwise. */
static int
basic_key_ok(PyObject *key, PyObject *data)
{
    /* the commonest key first: one slice of ints on NumPy data of 1 or more
     * dimensions (nothing to check against the sizes) */
    if (PySlice_Check(key) && PyArray_CheckExact(data))
        return PyArray_NDIM((PyArrayObject *)data) >= 1 && simple_slice(key);
    PyObject *const *items;
    Py_ssize_t n;
    if (PyTuple_CheckExact(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    }
    else {
        items = &key;
        n = 1;
    }
    Py_ssize_t n_axes = 0, ellipses = 0, ints = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (PyLong_CheckExact(it)) {
            n_axes++;
            ints++;
        }
        else if (PySlice_Check(it)) {
            if (!simple_slice(it))
                return 0;
            n_axes++;
        }
        else if (it == Py_Ellipsis)
            ellipses++;
        else
            return 0;
    }
    if (ellipses > 1)
        return 0;
    Dims di;
    if (dims_get(&di, data) < 0)
        return 0;
    int ok = n_axes <= di.ndim;
    Py_ssize_t axis = 0;
    for (Py_ssize_t i = 0; ok && ints && i < n; i++) {
        PyObject *it = items[i];
        if (it == Py_Ellipsis) {
            axis = di.ndim - (n_axes - axis);
            continue;
        }
        if (PyLong_CheckExact(it)) {
            Py_ssize_t size = dims_size(&di, axis);
            int overflow;
            long long v = PyLong_AsLongLongAndOverflow(it, &overflow);
            if (size < 0 || overflow || v < -(long long)size ||
                v >= (long long)size)
                ok = 0;
        }
        axis++;
    }
    Py_XDECREF(di.shape);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return ok;
}

/* The native key for an index-array key, or NULL (not fast). */
static PyObject *
array_key(PyObject *key, PyObject *dev)
{
    ArrayBase *k = (ArrayBase *)key;
    if (k->device != dev || k->data == NULL)
        return NULL;
    int ki = dtype_index(k->dtype);
    if (ki < 0 || !(ki == bool_index || (dtype_flags[ki] & FLAG_INTEGER)))
        return NULL;
    return k->data;
}

static int
native_byteorder(PyObject *data)
{
    if (PyArray_CheckExact(data))
        return PyArray_ISNBO(PyArray_DESCR((PyArrayObject *)data)->byteorder);
    /* data.dtype.isnative, generically (CuPy and dask arrays have it too) */
    PyObject *dt = PyObject_GetAttrString(data, "dtype");
    if (dt == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *isn = PyObject_GetAttrString(dt, "isnative");
    Py_DECREF(dt);
    if (isn == NULL) {
        PyErr_Clear();
        return 0;
    }
    int r = isn == Py_True;
    Py_DECREF(isn);
    return r;
}

/* x[i] or x[i, j, ...] naming one element of native NumPy data (the key
 * checked by basic_key_ok): what NumPy's scalar given to numpy.asarray makes
 * (a new 0-d array of the dtype's canonical descriptor holding the element's
 * bytes), without the scalar.  NOT_FAST for other keys, data and dtypes
 * (bool: NumPy's scalar normalises the byte). */
static PyObject *
element_copy(PyObject *data, PyObject *key)
{
    if (!PyArray_CheckExact(data))
        return NOT_FAST;
    PyArrayObject *d = (PyArrayObject *)data;
    int nd = PyArray_NDIM(d);
    PyArray_Descr *descr = PyArray_DESCR(d);
    int type = PyArray_TYPE(d);
    if (nd == 0 || !PyArray_ISNBO(descr->byteorder) || type == NPY_BOOL ||
        !(PyTypeNum_ISINTEGER(type) || PyTypeNum_ISFLOAT(type) ||
          PyTypeNum_ISCOMPLEX(type)) || type == NPY_HALF || type == NPY_LONGDOUBLE ||
        type == NPY_CLONGDOUBLE)
        return NOT_FAST;
    PyObject *const *items;
    if (PyLong_CheckExact(key) && nd == 1)
        items = &key;
    else if (PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == nd)
        items = &PyTuple_GET_ITEM(key, 0);
    else
        return NOT_FAST;
    char *ptr = PyArray_BYTES(d);
    for (int i = 0; i < nd; i++) {
        if (!PyLong_CheckExact(items[i]))
            return NOT_FAST;
        Py_ssize_t v = PyLong_AsSsize_t(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        npy_intp n = PyArray_DIM(d, i);
        if (v < 0)
            v += n;
        if (v < 0 || v >= n)
            return NOT_FAST;
        ptr += v * PyArray_STRIDE(d, i);
    }
    PyArray_Descr *canon = PyArray_DescrFromType(type);
    if (canon == NULL)
        return NULL;
    PyObject *res = PyArray_NewFromDescr(&PyArray_Type, canon, 0, NULL, NULL,
                                         NULL, 0, NULL);
    if (res == NULL)
        return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)res), ptr, PyArray_ITEMSIZE(d));
    return res;
}

static PyObject *
fast_getitem(PyObject *x, PyObject *key)
{
    if (!IS_ARRAY(x))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    if (ax->data == NULL || dtype_index(ax->dtype) < 0)
        return NOT_FAST;
    DeviceEntry *e = device_entry(ax->device);
    if (e == NULL)
        return NOT_FAST;
    PyObject *nkey;
    int is_array = 0;
    if (IS_ARRAY(key)) {
        nkey = array_key(key, ax->device);
        if (nkey == NULL)
            return NOT_FAST;
        if (!native_byteorder(ax->data))
            return NOT_FAST;
        is_array = 1;
    }
    else {
        if (!basic_key_ok(key, ax->data))
            return NOT_FAST;
        nkey = key;
    }
    PyObject *func = kernel(e, s_getitem);
    if (func == NULL) {
        PyErr_Clear();
        return NOT_FAST;
    }
    PyObject *res;
    if (func == op_getitem && !is_array &&
        (res = element_copy(ax->data, nkey)) != NOT_FAST) {
        if (res == NULL)
            return NULL;
        return wrap_new(res, ax->dtype, ax->device);
    }
    if (func == op_getitem)
        res = PyObject_GetItem(ax->data, nkey);
    else {
        Py_INCREF(func);
        PyObject *args[2] = {ax->data, nkey};
        res = PyObject_Vectorcall(func, args, 2, NULL);
        Py_DECREF(func);
    }
    if (res == NULL) {
        if (retryable_error()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        return NULL;
    }
    (void)is_array;
    res = as_native(res, e);
    if (res == NULL)
        return NULL;
    return wrap_new(res, ax->dtype, ax->device);
}

/* 0: done; 1: not fast; -1: error */
static int
fast_setitem(PyObject *x, PyObject *key, PyObject *value)
{
    if (!IS_ARRAY(x) || !hooks_default())
        return 1;
    ArrayBase *ax = (ArrayBase *)x;
    PyObject *d = ax->data;
    int di = dtype_index(ax->dtype);
    if (d == NULL || di < 0)
        return 1;
    DeviceEntry *e = device_entry(ax->device);
    if (e == NULL)
        return 1;
    PyObject *nkey;
    if (IS_ARRAY(key)) {
        nkey = array_key(key, ax->device);
        if (nkey == NULL)
            return 1;
    }
    else {
        if (!basic_key_ok(key, d))
            return 1;
        nkey = key;
    }
    PyObject *v;
    PyObject *copied = NULL;
    if (IS_ARRAY(value)) {
        ArrayBase *av = (ArrayBase *)value;
        if (av->dtype != ax->dtype || av->device != ax->device || av->data == NULL)
            return 1;
        v = av->data;
        int check = v == d;
        if (!check && PyArray_CheckExact(v) && PyArray_CheckExact(d))
            check = PyArray_BASE((PyArrayObject *)v) != NULL ||
                    PyArray_BASE((PyArrayObject *)d) != NULL;
        else if (!check) {
            PyObject *vb = PyObject_GetAttr(v, s_base);
            PyObject *db = vb ? PyObject_GetAttr(d, s_base) : NULL;
            if (db == NULL) {
                Py_XDECREF(vb);
                PyErr_Clear();
                return 1;
            }
            check = vb != Py_None || db != Py_None;
            Py_DECREF(vb);
            Py_DECREF(db);
        }
        if (check) {
            PyObject *args[2] = {v, d};
            PyObject *r = PyObject_Vectorcall(may_overlap, args, 2, NULL);
            if (r == NULL) {
                PyErr_Clear();
                return 1;
            }
            int overlap = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (overlap < 0) {
                PyErr_Clear();
                return 1;
            }
            if (overlap) {
                PyObject *cf = kernel(e, s_copy);
                if (cf == NULL) {
                    PyErr_Clear();
                    return 1;
                }
                Py_INCREF(cf);
                copied = PyObject_CallOneArg(cf, v);
                Py_DECREF(cf);
                if (copied == NULL) {
                    PyErr_Clear();
                    return 1;
                }
                v = copied;
            }
        }
    }
    else if (PyLong_CheckExact(value)) {
        if (!(dtype_flags[di] & FLAG_INT_OK))
            return 1;
        v = value;
    }
    else if (PyFloat_CheckExact(value)) {
        if (!(dtype_flags[di] & FLAG_FLOAT_OK))
            return 1;
        v = value;
    }
    else
        return 1;
    PyObject *func = kernel(e, s_setitem);
    if (func == NULL) {
        PyErr_Clear();
        Py_XDECREF(copied);
        return 1;
    }
    PyObject *res;
    if (func == op_setitem)
        res = PyObject_SetItem(d, nkey, v) < 0 ? NULL : Py_NewRef(Py_None);
    else {
        Py_INCREF(func);
        PyObject *args[3] = {d, nkey, v};
        res = PyObject_Vectorcall(func, args, 3, NULL);
        Py_DECREF(func);
    }
    Py_XDECREF(copied);
    if (res == NULL) {
        if (retryable_error()) {
            PyErr_Clear();
            return 1;
        }
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

/* ---- namespace functions ------------------------------------------------------
 * reshape, permute_dims, concat, where and astype, each for the case its
 * Python definition takes without any conversion; NOT_FAST otherwise, and
 * after any retryable error of the kernel (none of them writes anything).
 */

/* A kernel's result, or NOT_FAST after a retryable error; NULL: error. */
static inline PyObject *
kernel_result(PyObject *res)
{
    if (res == NULL && retryable_error()) {
        PyErr_Clear();
        return NOT_FAST;
    }
    return res;
}


static inline PyObject *
call_kernel(PyObject *f, PyObject *const *args, Py_ssize_t n, PyObject *kw)
{
    Py_INCREF(f); /* the table may change during the call */
    PyObject *res = PyObject_Vectorcall(f, args, n, kw);
    Py_DECREF(f);
    return res;
}

/* reshape(x, shape, copy=copy): shape a tuple, copy None or a bool, as the
 * Python definition hands them straight to the kernel. */
static PyObject *
fast_reshape(PyObject *x, PyObject *shape, PyObject *copy)
{
    if (!IS_ARRAY(x) || !PyTuple_CheckExact(shape) ||
        (copy != Py_None && copy != Py_True && copy != Py_False))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    if (ax->data == NULL || dtype_index(ax->dtype) < 0)
        return NOT_FAST;
    DeviceEntry *e = device_entry(ax->device);
    PyObject *f = e ? kernel(e, s_reshape) : NULL;
    if (f == NULL)
        return NOT_FAST;
    PyObject *res = NOT_FAST;
    Py_ssize_t n = PyTuple_GET_SIZE(shape);
    int direct = 0;
    npy_intp dims[NPY_MAXDIMS];
    if (PyArray_CheckExact(ax->data)) {
        /* the sizes must fit (as _reshape_shape checks): else Python */
        if (n > NPY_MAXDIMS)
            return NOT_FAST;
        npy_intp known = 1;
        int infer = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PyTuple_GET_ITEM(shape, i);
            if (!PyLong_CheckExact(it))
                return NOT_FAST;
            dims[i] = PyLong_AsSsize_t(it);
            if (dims[i] == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return NOT_FAST;
            }
            if (dims[i] == -1)
                infer++;
            else if (dims[i] < 0)
                return NOT_FAST;
            else if (dims[i] > 0 && known > NPY_MAX_INTP / dims[i])
                return NOT_FAST;
            else
                known *= dims[i];
        }
        npy_intp size = PyArray_SIZE((PyArrayObject *)ax->data);
        if (infer > 1 || (infer ? (known == 0 || size % known != 0) : known != size))
            return NOT_FAST;
        direct = f == e->cpu_reshape && copy == Py_None &&
                 PyArray_ISNBO(PyArray_DESCR((PyArrayObject *)ax->data)->byteorder);
    }
    if (direct) {
        /* _reshape: x.reshape(shape), native data give a native result */
        PyArray_Dims nd = {dims, (int)n};
        res = kernel_result(
            PyArray_Newshape((PyArrayObject *)ax->data, &nd, NPY_CORDER));
    }
    if (res == NOT_FAST) {
        PyObject *args[3] = {ax->data, shape, copy};
        res = kernel_result(call_kernel(f, args, 3, NULL));
    }
    if (res == NULL || res == NOT_FAST)
        return res;
    return wrap_new(res, ax->dtype, ax->device);
}

/* permute_dims(x, axes): axes a tuple of ndim distinct ints in [0, ndim). */
static PyObject *
fast_permute_dims(PyObject *x, PyObject *axes)
{
    if (!IS_ARRAY(x) || !PyTuple_CheckExact(axes))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    if (ax->data == NULL || !PyArray_CheckExact(ax->data) ||
        dtype_index(ax->dtype) < 0)
        return NOT_FAST;
    int ndim = PyArray_NDIM((PyArrayObject *)ax->data);
    if (PyTuple_GET_SIZE(axes) != ndim || ndim > NPY_MAXDIMS)
        return NOT_FAST;
    npy_intp perm[NPY_MAXDIMS];
    unsigned long long seen = 0;
    for (int i = 0; i < ndim; i++) {
        PyObject *it = PyTuple_GET_ITEM(axes, i);
        if (!PyLong_CheckExact(it))
            return NOT_FAST;
        long v = PyLong_AsLong(it);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        if (v < 0 || v >= ndim || (seen & (1ULL << v)))
            return NOT_FAST;
        seen |= 1ULL << v;
        perm[i] = v;
    }
    DeviceEntry *e = device_entry(ax->device);
    PyObject *f = e ? kernel(e, s_permute_dims) : NULL;
    if (f == NULL)
        return NOT_FAST;
    PyObject *res;
    if (f == e->cpu_permute_dims) { /* _permute_dims: x.transpose(axes) */
        PyArray_Dims p = {perm, ndim};
        res = PyArray_Transpose((PyArrayObject *)ax->data, &p);
    }
    else {
        PyObject *args[2] = {ax->data, axes};
        res = call_kernel(f, args, 2, NULL);
    }
    res = kernel_result(res);
    if (res == NULL || res == NOT_FAST)
        return res;
    return wrap_new(res, ax->dtype, ax->device);
}

/* concat(arrays, axis=axis): a tuple or list of NumPy-backed arrays of one
 * standard dtype on one device, axis None or an int in range, shapes that
 * agree outside the axis (nothing to promote or convert). */
static PyObject *
fast_concat(PyObject *arrays, PyObject *axis)
{
    if (!PyTuple_CheckExact(arrays) && !PyList_CheckExact(arrays))
        return NOT_FAST;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(arrays);
    if (n == 0 || (axis != Py_None && !PyLong_CheckExact(axis)))
        return NOT_FAST;
    PyObject **items = PySequence_Fast_ITEMS(arrays);
    PyObject *first = items[0];
    if (!IS_ARRAY(first))
        return NOT_FAST;
    ArrayBase *a0 = (ArrayBase *)first;
    if (a0->data == NULL || !PyArray_CheckExact(a0->data) ||
        dtype_index(a0->dtype) < 0)
        return NOT_FAST;
    PyArrayObject *d0 = (PyArrayObject *)a0->data;
    int ndim = PyArray_NDIM(d0);
    long ax = 0;
    if (axis != Py_None) {
        ax = PyLong_AsLong(axis);
        if (ax == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NOT_FAST;
        }
        if (ax < -ndim || ax >= ndim)
            return NOT_FAST;
        if (ax < 0)
            ax += ndim;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (!IS_ARRAY(it))
            return NOT_FAST;
        ArrayBase *ai = (ArrayBase *)it;
        if (ai->dtype != a0->dtype || ai->device != a0->device ||
            ai->data == NULL || !PyArray_CheckExact(ai->data))
            return NOT_FAST;
        if (axis == Py_None || i == 0)
            continue;
        PyArrayObject *di = (PyArrayObject *)ai->data;
        if (PyArray_NDIM(di) != ndim)
            return NOT_FAST;
        for (int j = 0; j < ndim; j++)
            if (j != ax && PyArray_DIM(di, j) != PyArray_DIM(d0, j))
                return NOT_FAST;
    }
    DeviceEntry *e = device_entry(a0->device);
    PyObject *f = e ? kernel(e, s_concat) : NULL;
    if (f == NULL)
        return NOT_FAST;
    PyObject *natives = PyList_New(n);
    if (natives == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        PyList_SET_ITEM(natives, i, Py_NewRef(((ArrayBase *)items[i])->data));
    PyObject *res;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        total += PyArray_SIZE((PyArrayObject *)PyList_GET_ITEM(natives, i));
    if (f == e->cpu_concat && axis != Py_None &&
        (e->concat_min == NULL || total < *e->concat_min)) {
        /* _concat: numpy.concatenate(natives, axis) */
        res = PyArray_Concatenate(natives, (int)ax);
    }
    else {
        PyObject *pyaxis = axis == Py_None ? Py_NewRef(Py_None) : PyLong_FromLong(ax);
        if (pyaxis == NULL) {
            Py_DECREF(natives);
            return NULL;
        }
        PyObject *args[3] = {natives, pyaxis, Py_None};
        res = call_kernel(f, args, 3, NULL);
        Py_DECREF(pyaxis);
    }
    Py_DECREF(natives);
    res = kernel_result(res);
    if (res == NULL || res == NOT_FAST)
        return res;
    return wrap_new(res, a0->dtype, a0->device);
}

/* Whether v is a Python int or float that an array of dtype i takes as
 * it is (the fast operators' rule). */
static inline int
scalar_ok(PyObject *v, int i)
{
    if (PyLong_CheckExact(v))
        return (dtype_flags[i] & FLAG_INT_OK) && int_fits(v, i);
    if (PyFloat_CheckExact(v))
        return (dtype_flags[i] & FLAG_FLOAT_OK) != 0;
    return 0;
}

/* where(condition, x1, x2): a bool condition, x1 and x2 arrays of one
 * standard dtype (or one of them a Python int/float that dtype takes), all
 * on one device, a result of that dtype. */
static PyObject *
fast_where(PyObject *cond, PyObject *x1, PyObject *x2)
{
    if (!IS_ARRAY(cond))
        return NOT_FAST;
    ArrayBase *ac = (ArrayBase *)cond;
    ArrayBase *a1 = IS_ARRAY(x1) ? (ArrayBase *)x1 : NULL;
    ArrayBase *a2 = IS_ARRAY(x2) ? (ArrayBase *)x2 : NULL;
    ArrayBase *arr = a1 ? a1 : a2;
    if (arr == NULL || arr->data == NULL || ac->data == NULL)
        return NOT_FAST;
    int di = dtype_index(arr->dtype);
    if (bool_index < 0 || ac->dtype != dtypes[bool_index] || di < 0 ||
        ac->device != arr->device || dtype_native[di] == NULL)
        return NOT_FAST;
    PyObject *b1, *b2;
    if (a1 && a2) {
        if (a2->dtype != a1->dtype || a2->device != a1->device ||
            a2->data == NULL || !broadcastable(a1->data, a2->data))
            return NOT_FAST;
        b1 = a1->data;
        b2 = a2->data;
    }
    else if (a1) {
        if (!scalar_ok(x2, di))
            return NOT_FAST;
        b1 = a1->data;
        b2 = x2;
    }
    else {
        if (!scalar_ok(x1, di))
            return NOT_FAST;
        b1 = x1;
        b2 = a2->data;
    }
    if (!broadcastable(ac->data, arr->data) ||
        (a1 && a2 && !broadcastable(ac->data, a2->data)))
        return NOT_FAST;
    DeviceEntry *e = device_entry(arr->device);
    PyObject *f = e ? kernel(e, s_where) : NULL;
    if (f == NULL)
        return NOT_FAST;
    PyObject *res;
    if (f == e->cpu_where && below(e->where_min, ac->data) &&
        below(e->where_min, b1) && below(e->where_min, b2))
        /* _where: numpy.where(cond, x1, x2) */
        res = PyArray_Where(ac->data, b1, b2);
    else {
        PyObject *args[3] = {ac->data, b1, b2};
        res = call_kernel(f, args, 3, NULL);
    }
    res = kernel_result(res);
    if (res == NULL || res == NOT_FAST)
        return res;
    res = as_native(res, e);
    if (res == NULL)
        return NULL;
    /* the Python definition casts a result of another dtype (byte order) */
    int same;
    if (PyArray_Check(res))
        same = PyArray_EquivTypes(PyArray_DESCR((PyArrayObject *)res),
                                  (PyArray_Descr *)dtype_native[di]);
    else {
        /* another backend's array (CuPy's): its dtype compared in Python.
         * (Handing it back to Python here made the Python definition run
         * the kernel a second time: twice the time of CuPy's where on a
         * GPU.) */
        PyObject *rdt = PyObject_GetAttr(res, s_dtype);
        if (rdt == NULL) {
            Py_DECREF(res);
            return NULL;
        }
        same = PyObject_RichCompareBool(rdt, dtype_native[di], Py_EQ);
        Py_DECREF(rdt);
        if (same < 0) {
            Py_DECREF(res);
            return NULL;
        }
    }
    if (!same) {
        Py_DECREF(res);
        return NOT_FAST;
    }
    return wrap_new(res, arr->dtype, arr->device);
}

/* astype(x, dtype, copy=copy): standard dtypes, copy a bool, no device, no
 * complex-to-real cast. */
static PyObject *
fast_astype(PyObject *x, PyObject *dtype, PyObject *copy)
{
    if (!IS_ARRAY(x) || (copy != Py_True && copy != Py_False))
        return NOT_FAST;
    ArrayBase *ax = (ArrayBase *)x;
    int si = dtype_index(ax->dtype), ti = dtype_index(dtype);
    if (si < 0 || ti < 0 || ax->data == NULL || dtype_native[ti] == NULL)
        return NOT_FAST;
    if (dtype_real[si] != si && dtype_real[ti] == ti) /* complex to real */
        return NOT_FAST;
    if (si == ti && copy == Py_False)
        return Py_NewRef(x);
    DeviceEntry *e = device_entry(ax->device);
    PyObject *f = e ? kernel(e, s_astype) : NULL;
    if (f == NULL)
        return NOT_FAST;
    PyObject *res;
    if (f == e->cpu_astype && PyArray_CheckExact(ax->data) &&
        below(e->astype_min, ax->data)) {
        /* _astype: x.astype(dtype, copy=copy) */
        PyObject *args[3] = {ax->data, dtype_native[ti], copy};
        res = PyObject_VectorcallMethod(s_astype, args, 2, kw_copy);
    }
    else {
        PyObject *args[3] = {ax->data, dtype_native[ti], copy};
        res = call_kernel(f, args, 3, NULL);
    }
    res = kernel_result(res);
    if (res == NULL || res == NOT_FAST)
        return res;
    return wrap_new(res, dtypes[ti], ax->device);
}

/* asarray(obj): a NumPy array of a standard dtype in native byte order, no
 * keywords, no device scope open and no default device from the
 * environment: the array itself on the CPU, as the Python fast case. */
static PyObject *
fast_asarray(PyObject *obj)
{
    if (!PyArray_CheckExact(obj) || scope_var == NULL)
        return NOT_FAST;
    PyObject *d = (PyObject *)PyArray_DESCR((PyArrayObject *)obj);
    int i = 0;
    while (i < n_host && host_descrs[i] != d)
        i++;
    if (i == n_host)
        return NOT_FAST;
    PyObject *val = NULL;
    if (PyContextVar_Get(scope_var, NULL, &val) < 0) {
        PyErr_Clear();
        return NOT_FAST;
    }
    int empty = val != NULL && PyTuple_CheckExact(val) && PyTuple_GET_SIZE(val) == 0;
    Py_XDECREF(val);
    if (!empty)
        return NOT_FAST;
    PyObject *checked = PyDict_GetItemWithError(devices_dict, s_env_checked);
    PyObject *dflt = checked ? PyDict_GetItemWithError(devices_dict, s_env_default) : NULL;
    if (checked != Py_True || dflt != Py_None) {
        PyErr_Clear();
        return NOT_FAST;
    }
    return wrap_new(Py_NewRef(obj), host_dtypes[i], cpu_device);
}

/* The value of keyword ``name`` among a vectorcall's keywords, ``dflt``
 * when absent; NULL when any other keyword is there. */
static PyObject *
only_keyword(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             PyObject *name, PyObject *dflt)
{
    if (kwnames == NULL)
        return dflt;
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    PyObject *val = dflt;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (k != name && PyUnicode_Compare(k, name) != 0) {
            PyErr_Clear();
            return NULL;
        }
        val = args[nargs + i];
    }
    return val;
}

static PyObject *
fastop_vectorcall(FastOp *op, PyObject *const *args, size_t nargsf,
                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (enabled && kwnames == NULL && op->kind <= K_SETITEM) {
        PyObject *res = NOT_FAST;
        switch (op->kind) {
        case K_FORWARD:
        case K_REFLECTED:
        case K_INPLACE:
            if (nargs == 2)
                res = fast_binary(op, args[0], args[1]);
            break;
        case K_UNARY:
            if (nargs == 1)
                res = fast_unary(op, args[0]);
            break;
        case K_GETITEM:
            if (nargs == 2)
                res = fast_getitem(args[0], args[1]);
            break;
        case K_SETITEM:
            if (nargs == 3) {
                int r = fast_setitem(args[0], args[1], args[2]);
                if (r == 0)
                    Py_RETURN_NONE;
                if (r < 0)
                    return NULL;
            }
            break;
        }
        if (res != NOT_FAST)
            return res;
    }
    else if (enabled && op->kind > K_SETITEM) {
        /* the namespace functions: their keywords, no others */
        PyObject *res = NOT_FAST, *kw;
        switch (op->kind) {
        case K_RESHAPE:
            kw = only_keyword(args, nargs, kwnames, s_copy_kw, Py_None);
            if (nargs == 2 && kw != NULL)
                res = fast_reshape(args[0], args[1], kw);
            break;
        case K_PERMUTE_DIMS:
            if (nargs == 2 && kwnames == NULL)
                res = fast_permute_dims(args[0], args[1]);
            break;
        case K_CONCAT:
            kw = only_keyword(args, nargs, kwnames, s_axis_kw, int_zero);
            if (nargs == 1 && kw != NULL)
                res = fast_concat(args[0], kw);
            break;
        case K_ASARRAY:
            if (nargs == 1 && kwnames == NULL)
                res = fast_asarray(args[0]);
            break;
        case K_WHERE:
            if (nargs == 3 && kwnames == NULL)
                res = fast_where(args[0], args[1], args[2]);
            break;
        case K_ASTYPE:
            if (nargs == 2) {
                PyObject *copy = Py_True, *device = Py_None;
                Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
                for (Py_ssize_t i = 0; i < nk && copy != NULL; i++) {
                    PyObject *k = PyTuple_GET_ITEM(kwnames, i);
                    if (PyUnicode_Compare(k, s_copy_kw) == 0)
                        copy = args[nargs + i];
                    else if (PyUnicode_Compare(k, s_device_kw) == 0)
                        device = args[nargs + i];
                    else
                        copy = NULL;
                }
                PyErr_Clear();
                if (copy != NULL && device == Py_None)
                    res = fast_astype(args[0], args[1], copy);
            }
            break;
        }
        if (res != NOT_FAST)
            return res;
    }
    return PyObject_Vectorcall(op->fallback, args, nargsf, kwnames);
}

static PyObject *
fastop_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static int
fastop_traverse(FastOp *self, visitproc visit, void *arg)
{
    Py_VISIT(self->fallback);
    Py_VISIT(self->op);
    Py_VISIT(self->name);
    Py_VISIT(self->qualname);
    Py_VISIT(self->doc);
    Py_VISIT(self->module);
    Py_VISIT(self->dict);
    return 0;
}

static int
fastop_clear(FastOp *self)
{
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->op);
    Py_CLEAR(self->name);
    Py_CLEAR(self->qualname);
    Py_CLEAR(self->doc);
    Py_CLEAR(self->module);
    Py_CLEAR(self->dict);
    return 0;
}

static void
fastop_dealloc(FastOp *self)
{
    PyObject_GC_UnTrack(self);
    fastop_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
fastop_repr(FastOp *self)
{
    return PyUnicode_FromFormat("<compiled %U>", self->qualname);
}

static PyMemberDef fastop_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(FastOp, fallback), READONLY, NULL},
    {"__name__", T_OBJECT, offsetof(FastOp, name), 0, NULL},
    {"__qualname__", T_OBJECT, offsetof(FastOp, qualname), 0, NULL},
    {"__doc__", T_OBJECT, offsetof(FastOp, doc), 0, NULL},
    {"__module__", T_OBJECT, offsetof(FastOp, module), 0, NULL},
    {NULL}};

static PyObject *
fastop_reduce(FastOp *self, PyObject *unused)
{
    /* pickled by reference, as a function: its __qualname__ in __module__ */
    return Py_NewRef(self->qualname);
}

static PyMethodDef fastop_methods[] = {
    {"__reduce__", (PyCFunction)fastop_reduce, METH_NOARGS, NULL},
    {NULL}};

static PyGetSetDef fastop_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}};

static PyTypeObject FastOp_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ocean_array_api._fastpath.FastOp",
    .tp_basicsize = sizeof(FastOp),
    .tp_dealloc = (destructor)fastop_dealloc,
    .tp_vectorcall_offset = offsetof(FastOp, vectorcall),
    .tp_repr = (reprfunc)fastop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "An Array method with a compiled fast path (see __wrapped__).",
    .tp_traverse = (traverseproc)fastop_traverse,
    .tp_clear = (inquiry)fastop_clear,
    .tp_members = fastop_members,
    .tp_methods = fastop_methods,
    .tp_getset = fastop_getset,
    .tp_descr_get = fastop_get,
    .tp_dictoffset = offsetof(FastOp, dict),
};

/* ---- direct type slots ------------------------------------------------------
 * Python's own slot functions for a class (slot_nb_add, ...) look the method
 * up by name and call it.  _install_slots() puts these functions in Array's
 * slots instead: they take the fast case of the FastOps in Array.__dict__ and
 * otherwise call the original slot function (hence the Python method).  Any
 * later setattr(Array, "__add__", ...) makes CPython reset the slot to its
 * generic function, which then calls whatever the class holds.
 */
#define N_BINARY 11
static const char *binary_names[N_BINARY] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod",
    "and", "or", "xor", "lshift", "rshift"};
static FastOp *fwd_ops[N_BINARY], *refl_ops[N_BINARY], *inpl_ops[N_BINARY];
static PyObject *fwd_names[N_BINARY], *refl_names[N_BINARY],
    *inpl_names[N_BINARY];
static const binaryfunc direct_fwd[N_BINARY];

/* self.<name>(other) looked up on the type as Python's slot functions do;
 * NotImplemented when the type has no such attribute. */
static PyObject *
call_special(PyObject *self, PyObject *name, PyObject *other)
{
    PyObject *f = _PyType_Lookup(Py_TYPE(self), name);
    if (f == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    Py_INCREF(f);
    PyObject *res;
    if (PyType_HasFeature(Py_TYPE(f), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
        PyObject *args[2] = {self, other};
        res = PyObject_Vectorcall(f, args, 2, NULL);
    }
    else {
        descrgetfunc get = Py_TYPE(f)->tp_descr_get;
        PyObject *bound =
            get ? get(f, self, (PyObject *)Py_TYPE(self)) : Py_NewRef(f);
        res = bound ? PyObject_CallOneArg(bound, other) : NULL;
        Py_XDECREF(bound);
    }
    Py_DECREF(f);
    return res;
}

static inline int
has_direct(PyObject *o, int i)
{
    PyNumberMethods *nb = Py_TYPE(o)->tp_as_number;
    binaryfunc *slot = NULL;
    if (nb == NULL)
        return 0;
    switch (i) {
    case 0: slot = &nb->nb_add; break;
    case 1: slot = &nb->nb_subtract; break;
    case 2: slot = &nb->nb_multiply; break;
    case 3: slot = &nb->nb_true_divide; break;
    case 4: slot = &nb->nb_floor_divide; break;
    case 5: slot = &nb->nb_remainder; break;
    case 6: slot = &nb->nb_and; break;
    case 7: slot = &nb->nb_or; break;
    case 8: slot = &nb->nb_xor; break;
    case 9: slot = &nb->nb_lshift; break;
    default: slot = &nb->nb_rshift; break;
    }
    return *slot == direct_fwd[i];
}

/* Python's protocol for a binary slot (CPython's SLOT1BINFULL), with this
 * module's functions standing for Python's generic slot function. */
static PyObject *
binary_protocol(int i, PyObject *self, PyObject *other)
{
    int do_other = !Py_IS_TYPE(self, Py_TYPE(other)) && has_direct(other, i);
    PyObject *r;
    if (has_direct(self, i)) {
        if (do_other && PyType_IsSubtype(Py_TYPE(other), Py_TYPE(self))) {
            r = call_special(other, refl_names[i], self);
            if (r != Py_NotImplemented)
                return r;
            Py_DECREF(r);
            do_other = 0;
        }
        r = call_special(self, fwd_names[i], other);
        if (r != Py_NotImplemented || Py_IS_TYPE(other, Py_TYPE(self)))
            return r;
        Py_DECREF(r);
    }
    if (do_other)
        return call_special(other, refl_names[i], self);
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *
direct_binary(int i, PyObject *v, PyObject *w)
{
    if (enabled) {
        PyObject *r = NOT_FAST;
        if (IS_ARRAY(v))
            r = fast_binary(fwd_ops[i], v, w);
        else if (IS_ARRAY(w))
            r = fast_binary(refl_ops[i], w, v);
        if (r != NOT_FAST)
            return r;
    }
    return binary_protocol(i, v, w);
}

static PyObject *
direct_inplace(int i, PyObject *v, PyObject *w)
{
    if (enabled && IS_ARRAY(v)) {
        PyObject *r = fast_binary(inpl_ops[i], v, w);
        if (r != NOT_FAST)
            return r;
    }
    /* Python's slot_nb_inplace_*: self.__iop__(other) */
    return call_special(v, inpl_names[i], w);
}

#define DIRECT(I, NAME)                                                        \
    static PyObject *direct_##NAME(PyObject *v, PyObject *w)                   \
    {                                                                          \
        return direct_binary(I, v, w);                                         \
    }                                                                          \
    static PyObject *direct_i##NAME(PyObject *v, PyObject *w)                  \
    {                                                                          \
        return direct_inplace(I, v, w);                                        \
    }
DIRECT(0, add)
DIRECT(1, sub)
DIRECT(2, mul)
DIRECT(3, truediv)
DIRECT(4, floordiv)
DIRECT(5, mod)
DIRECT(6, and)
DIRECT(7, or)
DIRECT(8, xor)
DIRECT(9, lshift)
DIRECT(10, rshift)
#undef DIRECT

static binaryfunc *
number_slot(PyNumberMethods *nb, int i, int inplace)
{
    switch (i) {
    case 0: return inplace ? &nb->nb_inplace_add : &nb->nb_add;
    case 1: return inplace ? &nb->nb_inplace_subtract : &nb->nb_subtract;
    case 2: return inplace ? &nb->nb_inplace_multiply : &nb->nb_multiply;
    case 3: return inplace ? &nb->nb_inplace_true_divide : &nb->nb_true_divide;
    case 4: return inplace ? &nb->nb_inplace_floor_divide : &nb->nb_floor_divide;
    case 5: return inplace ? &nb->nb_inplace_remainder : &nb->nb_remainder;
    case 6: return inplace ? &nb->nb_inplace_and : &nb->nb_and;
    case 7: return inplace ? &nb->nb_inplace_or : &nb->nb_or;
    case 8: return inplace ? &nb->nb_inplace_xor : &nb->nb_xor;
    case 9: return inplace ? &nb->nb_inplace_lshift : &nb->nb_lshift;
    default: return inplace ? &nb->nb_inplace_rshift : &nb->nb_rshift;
    }
}

static const binaryfunc direct_fwd[N_BINARY] = {
    direct_add, direct_sub, direct_mul, direct_truediv, direct_floordiv,
    direct_mod, direct_and, direct_or, direct_xor, direct_lshift,
    direct_rshift};
static const binaryfunc direct_inpl[N_BINARY] = {
    direct_iadd, direct_isub, direct_imul, direct_itruediv, direct_ifloordiv,
    direct_imod, direct_iand, direct_ior, direct_ixor, direct_ilshift,
    direct_irshift};

/* rich comparisons, by Py_LT ... Py_GE */
static const char *compare_names[6] = {"__lt__", "__le__", "__eq__",
                                       "__ne__", "__gt__", "__ge__"};
static FastOp *cmp_ops[6];
static richcmpfunc orig_richcompare;

static PyObject *
direct_richcompare(PyObject *v, PyObject *w, int op)
{
    if (enabled && op >= 0 && op < 6 && IS_ARRAY(v)) {
        PyObject *r = fast_binary(cmp_ops[op], v, w);
        if (r != NOT_FAST)
            return r;
    }
    return orig_richcompare(v, w, op);
}

/* unary operators */
static const char *unary_names[4] = {"__neg__", "__pos__", "__abs__",
                                     "__invert__"};
static FastOp *unary_ops[4];
static unaryfunc orig_unary[4];

static PyObject *
direct_unary(int i, PyObject *v)
{
    if (enabled) {
        PyObject *r = fast_unary(unary_ops[i], v);
        if (r != NOT_FAST)
            return r;
    }
    return orig_unary[i](v);
}
static PyObject *direct_neg(PyObject *v) { return direct_unary(0, v); }
static PyObject *direct_pos(PyObject *v) { return direct_unary(1, v); }
static PyObject *direct_abs(PyObject *v) { return direct_unary(2, v); }
static PyObject *direct_invert(PyObject *v) { return direct_unary(3, v); }

static unaryfunc *
unary_slot(PyNumberMethods *nb, int i)
{
    switch (i) {
    case 0: return &nb->nb_negative;
    case 1: return &nb->nb_positive;
    case 2: return &nb->nb_absolute;
    default: return &nb->nb_invert;
    }
}
static const unaryfunc direct_un[4] = {direct_neg, direct_pos, direct_abs,
                                       direct_invert};

/* indexing */
static binaryfunc orig_subscript;
static objobjargproc orig_ass_subscript;

static PyObject *
direct_subscript(PyObject *x, PyObject *key)
{
    if (enabled) {
        PyObject *r = fast_getitem(x, key);
        if (r != NOT_FAST)
            return r;
    }
    return orig_subscript(x, key);
}

static int
direct_ass_subscript(PyObject *x, PyObject *key, PyObject *value)
{
    if (enabled && value != NULL) {
        int r = fast_setitem(x, key, value);
        if (r <= 0)
            return r;
    }
    return orig_ass_subscript(x, key, value);
}

/* The FastOp in Array.__dict__[name] of the given kind, or NULL. */
static FastOp *
class_op(const char *name, int kind)
{
    PyObject *d = array_type->tp_dict;
    PyObject *o = d ? PyDict_GetItemString(d, name) : NULL;
    if (o == NULL || Py_TYPE(o) != &FastOp_Type || ((FastOp *)o)->kind != kind)
        return NULL;
    return (FastOp *)o;
}

static int slots_installed = 0;

/* Put the direct functions into Array's slots; again after a setattr on
 * Array put the FastOps back (ocean_ext.portability_report's exit), since
 * CPython then set its generic slot functions.  All or nothing: False when
 * any of the methods is not the expected FastOp. */
static PyObject *
mod_install_slots(PyObject *mod, PyObject *unused)
{
    if (array_type == NULL)
        Py_RETURN_FALSE;
    PyNumberMethods *nb = array_type->tp_as_number;
    PyMappingMethods *mp = array_type->tp_as_mapping;
    if (nb == NULL || mp == NULL || mp->mp_subscript == NULL ||
        mp->mp_ass_subscript == NULL || array_type->tp_richcompare == NULL)
        Py_RETURN_FALSE;
    FastOp *fwd[N_BINARY], *refl[N_BINARY], *inpl[N_BINARY], *cmp[6], *un[4];
    char name[32];
    for (int i = 0; i < N_BINARY; i++) {
        PyOS_snprintf(name, sizeof(name), "__%s__", binary_names[i]);
        fwd[i] = class_op(name, K_FORWARD);
        PyOS_snprintf(name, sizeof(name), "__r%s__", binary_names[i]);
        refl[i] = class_op(name, K_REFLECTED);
        PyOS_snprintf(name, sizeof(name), "__i%s__", binary_names[i]);
        inpl[i] = class_op(name, K_INPLACE);
        if (!fwd[i] || !refl[i] || !inpl[i] || !*number_slot(nb, i, 0) ||
            !*number_slot(nb, i, 1))
            Py_RETURN_FALSE;
    }
    for (int i = 0; i < 6; i++)
        if ((cmp[i] = class_op(compare_names[i], K_FORWARD)) == NULL)
            Py_RETURN_FALSE;
    for (int i = 0; i < 4; i++)
        if ((un[i] = class_op(unary_names[i], K_UNARY)) == NULL ||
            !*unary_slot(nb, i))
            Py_RETURN_FALSE;
    if (!class_op("__getitem__", K_GETITEM) || !class_op("__setitem__", K_SETITEM))
        Py_RETURN_FALSE;
    if (!slots_installed) {
        for (int i = 0; i < N_BINARY; i++) {
            PyOS_snprintf(name, sizeof(name), "__%s__", binary_names[i]);
            fwd_names[i] = PyUnicode_InternFromString(name);
            PyOS_snprintf(name, sizeof(name), "__r%s__", binary_names[i]);
            refl_names[i] = PyUnicode_InternFromString(name);
            PyOS_snprintf(name, sizeof(name), "__i%s__", binary_names[i]);
            inpl_names[i] = PyUnicode_InternFromString(name);
            if (!fwd_names[i] || !refl_names[i] || !inpl_names[i])
                return NULL; /* names made so far stay (interned, tiny) */
        }
    }
    /* strong references: the slots use them for as long as they are set */
    for (int i = 0; i < N_BINARY; i++) {
        Py_INCREF(fwd[i]);
        Py_INCREF(refl[i]);
        Py_INCREF(inpl[i]);
        if (slots_installed) {
            Py_DECREF(fwd_ops[i]);
            Py_DECREF(refl_ops[i]);
            Py_DECREF(inpl_ops[i]);
        }
        fwd_ops[i] = fwd[i];
        refl_ops[i] = refl[i];
        inpl_ops[i] = inpl[i];
        *number_slot(nb, i, 0) = direct_fwd[i];
        *number_slot(nb, i, 1) = direct_inpl[i];
    }
    for (int i = 0; i < 6; i++) {
        Py_INCREF(cmp[i]);
        if (slots_installed)
            Py_DECREF(cmp_ops[i]);
        cmp_ops[i] = cmp[i];
    }
    /* the generic slot functions these fall back on (never our own) */
    if (array_type->tp_richcompare != direct_richcompare) {
        orig_richcompare = array_type->tp_richcompare;
        array_type->tp_richcompare = direct_richcompare;
    }
    for (int i = 0; i < 4; i++) {
        Py_INCREF(un[i]);
        if (slots_installed)
            Py_DECREF(unary_ops[i]);
        unary_ops[i] = un[i];
        if (*unary_slot(nb, i) != direct_un[i]) {
            orig_unary[i] = *unary_slot(nb, i);
            *unary_slot(nb, i) = direct_un[i];
        }
    }
    if (mp->mp_subscript != direct_subscript) {
        orig_subscript = mp->mp_subscript;
        mp->mp_subscript = direct_subscript;
    }
    if (mp->mp_ass_subscript != direct_ass_subscript) {
        orig_ass_subscript = mp->mp_ass_subscript;
        mp->mp_ass_subscript = direct_ass_subscript;
    }
    slots_installed = 1;
    Py_RETURN_TRUE;
}

static PyObject *
mod_slots_active(PyObject *mod, PyObject *unused)
{
    /* whether Array's slots hold the direct functions (tests) */
    if (array_type == NULL || array_type->tp_as_number == NULL ||
        array_type->tp_as_mapping == NULL)
        Py_RETURN_FALSE;
    return PyBool_FromLong(
        array_type->tp_as_number->nb_add == direct_add &&
        array_type->tp_as_number->nb_inplace_add == direct_iadd &&
        array_type->tp_richcompare == direct_richcompare &&
        array_type->tp_as_mapping->mp_subscript == direct_subscript &&
        array_type->tp_as_mapping->mp_ass_subscript == direct_ass_subscript);
}

/* ---- module functions ------------------------------------------------------ */
static PyObject *
mod_wrap(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_wrap() takes 3 arguments");
        return NULL;
    }
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastpath: not set up");
        return NULL;
    }
    Py_INCREF(args[0]);
    return wrap_new(args[0], args[1], args[2]);
}

static const char *kind_names[N_KINDS] = {
    "forward", "reflected", "inplace",      "unary",  "getitem", "setitem",
    "reshape", "permute_dims", "concat", "where",  "astype", "asarray"};
static const char *result_names[] = {"promote", "bool", "divide", "same",
                                     "real"};

static PyObject *
mod_make_op(PyObject *mod, PyObject *args)
{
    PyObject *fallback, *opname, *allowed;
    const char *kind, *result;
    if (!PyArg_ParseTuple(args, "OsUOs", &fallback, &kind, &opname, &allowed,
                          &result))
        return NULL;
    int k = -1, r = -1;
    for (int i = 0; i < N_KINDS; i++)
        if (strcmp(kind, kind_names[i]) == 0)
            k = i;
    for (int i = 0; i < 5; i++)
        if (strcmp(result, result_names[i]) == 0)
            r = i;
    if (k < 0 || r < 0) {
        PyErr_SetString(PyExc_ValueError, "_make_op(): unknown kind or result");
        return NULL;
    }
    unsigned long mask = PyLong_AsUnsignedLong(allowed);
    if (mask == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    FastOp *op = PyObject_GC_New(FastOp, &FastOp_Type);
    if (op == NULL)
        return NULL;
    op->fallback = Py_NewRef(fallback);
    op->op = Py_NewRef(opname);
    PyUnicode_InternInPlace(&op->op);
    op->name = PyObject_GetAttrString(fallback, "__name__");
    op->qualname = op->name ? PyObject_GetAttrString(fallback, "__qualname__")
                            : NULL;
    op->module = op->qualname ? PyObject_GetAttrString(fallback, "__module__")
                              : NULL;
    op->doc = op->module ? PyObject_GetAttrString(fallback, "__doc__") : NULL;
    op->dict = NULL;
    op->allowed = mask;
    op->kind = k;
    op->result = r;
    op->vectorcall = (vectorcallfunc)fastop_vectorcall;
    PyObject_GC_Track(op);
    if (op->doc == NULL) {
        Py_DECREF(op);
        return NULL;
    }
    return (PyObject *)op;
}

static PyObject *
mod_setup(PyObject *mod, PyObject *args)
{
    PyObject *cls, *dts, *flags, *real, *hooks, *default_check, *overlap, *mT,
        *getitem, *setitem;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OOOOO", &PyType_Type, &cls,
                          &PyTuple_Type, &dts, &PyTuple_Type, &flags,
                          &PyTuple_Type, &real, &PyDict_Type, &hooks,
                          &default_check, &overlap, &mT, &getitem, &setitem))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(dts);
    if (n > MAX_DTYPES || PyTuple_GET_SIZE(flags) != n ||
        PyTuple_GET_SIZE(real) != n ||
        !PyType_IsSubtype((PyTypeObject *)cls, &ArrayBase_Type)) {
        PyErr_SetString(PyExc_ValueError, "_setup(): bad arguments");
        return NULL;
    }
    int fl[MAX_DTYPES], re[MAX_DTYPES];
    for (Py_ssize_t i = 0; i < n; i++) {
        fl[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(flags, i));
        re[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(real, i));
        if (PyErr_Occurred())
            return NULL;
        if (re[i] < 0 || re[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "_setup(): bad real index");
            return NULL;
        }
    }
    /* bool and float64 are named by their flags' high bits */
    int bi = -1, fi = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (fl[i] & 8)
            bi = (int)i;
        if (fl[i] & 16)
            fi = (int)i;
    }
    if (bi < 0 || fi < 0) {
        PyErr_SetString(PyExc_ValueError, "_setup(): no bool or float64");
        return NULL;
    }
    for (int i = 0; i < n_dtypes; i++)
        Py_CLEAR(dtypes[i]);
    for (int i = 0; i < n_dtypes; i++)
        Py_CLEAR(dtype_native[i]);
    for (Py_ssize_t i = 0; i < n; i++) {
        dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(dts, i));
        dtype_flags[i] = fl[i];
        dtype_real[i] = re[i];
        /* the NumPy dtype (None of those for a backend-only dtype: then
         * the cases that need it are not taken) */
        PyObject *nat = PyObject_GetAttrString(dtypes[i], "_native");
        if (nat != NULL && !PyArray_DescrCheck(nat))
            Py_CLEAR(nat);
        PyErr_Clear();
        dtype_native[i] = nat;
    }
    n_dtypes = (int)n;
    bool_index = bi;
    float64_index = fi;
    if (array_type != NULL && generic_dealloc != NULL &&
        array_type->tp_dealloc == (destructor)array_dealloc)
        array_type->tp_dealloc = generic_dealloc;
    Py_XSETREF(array_type, (PyTypeObject *)Py_NewRef(cls));
    /* Array's own deallocator (above) when the class is as _array_object
     * makes it: a heap type with CPython's generic deallocator, our base's
     * layout plus the weak-reference list, no __dict__, no finaliser. */
    if (array_type->tp_flags & Py_TPFLAGS_HEAPTYPE &&
        array_type->tp_base == &ArrayBase_Type &&
        array_type->tp_dictoffset == 0 && array_type->tp_finalize == NULL &&
        array_type->tp_del == NULL &&
        array_type->tp_dealloc != (destructor)array_dealloc) {
        generic_dealloc = array_type->tp_dealloc;
        array_type->tp_dealloc = (destructor)array_dealloc;
    }
    Py_XSETREF(hooks_dict, Py_NewRef(hooks));
    Py_XSETREF(writable_default, Py_NewRef(default_check));
    Py_XSETREF(may_overlap, Py_NewRef(overlap));
    Py_XSETREF(mT_fallback, Py_NewRef(mT));
    Py_XSETREF(op_getitem, Py_NewRef(getitem));
    Py_XSETREF(op_setitem, Py_NewRef(setitem));
    enabled = 1;
    Py_RETURN_NONE;
}

static PyObject *
mod_setup_asarray(PyObject *mod, PyObject *args)
{
    PyObject *host, *var, *ddict, *cpu;
    if (!PyArg_ParseTuple(args, "O!OO!O", &PyDict_Type, &host, &var,
                          &PyDict_Type, &ddict, &cpu))
        return NULL;
    if (!PyContextVar_CheckExact(var) || PyDict_GET_SIZE(host) > MAX_DTYPES) {
        PyErr_SetString(PyExc_ValueError, "_setup_asarray(): bad arguments");
        return NULL;
    }
    for (int i = 0; i < n_host; i++) {
        Py_CLEAR(host_descrs[i]);
        Py_CLEAR(host_dtypes[i]);
    }
    n_host = 0;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(host, &pos, &k, &v)) {
        /* the keys are id()s of descriptors the dict's owner keeps alive;
         * a strong reference here as well */
        PyObject *descr = (PyObject *)PyLong_AsVoidPtr(k);
        if (descr == NULL && PyErr_Occurred())
            return NULL;
        host_descrs[n_host] = Py_NewRef(descr);
        host_dtypes[n_host] = Py_NewRef(v);
        n_host++;
    }
    Py_XSETREF(scope_var, Py_NewRef(var));
    Py_XSETREF(devices_dict, Py_NewRef(ddict));
    Py_XSETREF(cpu_device, Py_NewRef(cpu));
    Py_RETURN_NONE;
}

static PyObject *
mod_set_enabled(PyObject *mod, PyObject *arg)
{
    int v = PyObject_IsTrue(arg);
    if (v < 0)
        return NULL;
    int old = enabled;
    enabled = v && array_type != NULL;
    return PyBool_FromLong(old);
}

static PyMethodDef mod_methods[] = {
    {"_wrap", (PyCFunction)(void (*)(void))mod_wrap, METH_FASTCALL,
     "_wrap(data, dtype, device): an Array, no checks (the caller's)."},
    {"_make_op", mod_make_op, METH_VARARGS,
     "_make_op(fallback, kind, op, allowed_mask, result): a FastOp."},
    {"_setup", mod_setup, METH_VARARGS,
     "_setup(Array, dtypes, flags, real, hooks_dict, writable_default, "
     "may_overlap, mT_getter, operator.getitem, operator.setitem)."},
    {"_setup_asarray", mod_setup_asarray, METH_VARARGS,
     "_setup_asarray(host_dtypes, scope_var, devices_dict, cpu): asarray's "
     "fast case (see _creation_functions)."},
    {"_install_slots", mod_install_slots, METH_NOARGS,
     "Put the compiled operators in Array's type slots (again after a "
     "setattr on Array restored them)."},
    {"_slots_active", mod_slots_active, METH_NOARGS,
     "Whether Array's type slots hold the compiled functions (tests)."},
    {"_set_enabled", mod_set_enabled, METH_O,
     "Switch the fast cases on or off (tests); returns the old state."},
    {NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_fastpath",
    "Compiled fast path of ocean_array_api's Array (see fastpath.c).", -1,
    mod_methods};

PyMODINIT_FUNC
PyInit__fastpath(void)
{
    import_array();
    if (PyType_Ready(&ArrayBase_Type) < 0 || PyType_Ready(&FastOp_Type) < 0)
        return NULL;
#define INTERN(var, text)                                                      \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                      \
        return NULL;
    INTERN(s_ops, "_ops");
    INTERN(s_native, "_native");
    INTERN(s_backend, "_backend");
    INTERN(s_to_native, "to_native");
    INTERN(s_shape, "shape");
    INTERN(s_ndim, "ndim");
    INTERN(s_size, "size");
    INTERN(s_base, "base");
    INTERN(s_getitem, "getitem");
    INTERN(s_setitem, "setitem");
    INTERN(s_copy, "copy");
    INTERN(s_matrix_transpose, "matrix_transpose");
    INTERN(s_check, "_check");
    INTERN(s_reshape, "reshape");
    INTERN(s_permute_dims, "permute_dims");
    INTERN(s_concat, "concat");
    INTERN(s_where, "where");
    INTERN(s_astype, "astype");
    INTERN(s_copy_kw, "copy");
    INTERN(s_axis_kw, "axis");
    INTERN(s_device_kw, "device");
    INTERN(s_env_checked, "_env_checked");
    INTERN(s_pow, "pow");
    INTERN(s_dtype, "dtype");
    INTERN(s_env_default, "_env_default");
#undef INTERN
    kw_out = Py_BuildValue("(s)", "out");
    kw_copy = Py_BuildValue("(O)", s_copy_kw);
    int_zero = PyLong_FromLong(0);
    if (kw_out == NULL || kw_copy == NULL || int_zero == NULL)
        return NULL;
    PyObject *numpy = PyImport_ImportModule("numpy");
    np_power = numpy ? PyObject_GetAttrString(numpy, "power") : NULL;
    np_square = numpy ? PyObject_GetAttrString(numpy, "square") : NULL;
    Py_XDECREF(numpy);
    if (np_power == NULL || np_square == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "ArrayBase", (PyObject *)&ArrayBase_Type) < 0 ||
        PyModule_AddObjectRef(m, "FastOp", (PyObject *)&FastOp_Type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
