/* ocean_array_api._fastpath: the compiled fast path of the Array front end.
 *
 * The Python front end (ocean_array_api/_array_object.py,
 * _elementwise_functions.py, _indexing.py) is the single definition of
 * behaviour.  This module only takes the common, unambiguous cases of it
 * faster:
 *
 * - ArrayBase, the base type of the Python ``Array`` class, holds the three
 *   fields ``_data``, ``_dtype`` and ``_device`` (read-only members: Python
 *   code reads them as before and can neither rebind nor delete them) and C
 *   getters for ``dtype``, ``device``, ``shape``, ``ndim``, ``size`` and
 *   ``mT``.
 * - ``wrap(data, dtype, device)`` makes an Array without calling its __new__.
 * - FastOp objects are the operators (``__add__``, ``__radd__``, ``__iadd__``,
 *   ``__lt__``, ``__neg__``, ...) and ``__getitem__``/``__setitem__`` of Array.
 *   Each holds the Python implementation it stands for (``__wrapped__``) and
 *   calls it for every case it does not take itself: any operand of another
 *   class, dtype or device, any dtype outside the standard ones, any key other
 *   than the simple ones, any active hook.  After a kernel error, the
 *   operators and indexing call the Python error path with the kernel's
 *   exception (a write's kernel may have written part of its output, and a
 *   kernel may have warned before raising: it never runs twice); the
 *   namespace functions and a basic-key x[key], which write nothing, hand
 *   the call to the Python implementation, which runs it again and raises
 *   the proper error.  FastOps live in
 *   ``Array.__dict__``, so ``setattr(Array, ...)``
 *   (ocean_ext.portability_report) replaces and restores them as usual.
 *
 * Reference discipline (docs/dev/fastpath.md lists every borrowed reference
 * and why it is safe): anything that can run Python code -- a call, an
 * attribute look-up on a Python object, a comparison, and any allocation of a
 * GC-tracked object, which can start a collection and with it finalisers and
 * weak-reference callbacks -- may free whatever only a borrowed pointer
 * refers to.  So every object used across such a point is held by a strong
 * reference (list items, table entries, device entries: ``DevEntry``
 * objects), or by something the call holds that cannot let go of it (an
 * argument array's read-only fields: ``Fields``).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#define MAX_DTYPES 32
#define MAX_DEVICES 16

/* ---- module state (one interpreter; the module is single-phase) --------
 * Set once by _setup() / _setup_asarray() (each refuses a second call), so
 * a pointer read from here stays valid for the life of the process. */
static PyTypeObject *array_type = NULL;   /* the Python Array class */
static PyTypeObject *device_type = NULL;  /* _devices.Device */
/* offsets of Device's slots _ops, _native, _backend (member descriptors) */
static Py_ssize_t off_ops = -1, off_native = -1, off_backend = -1;
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
/* the Python error paths after a kernel error (see report_kernel_error) */
static PyObject *inplace_failed = NULL;   /* _array_object._inplace_failed */
static PyObject *setitem_failed = NULL;   /* _array_object._setitem_failed */
static PyObject *binary_failed = NULL;    /* _array_object._binary_failed */
static PyObject *getitem_failed = NULL;   /* _array_object._getitem_failed */
static int enabled = 0;

#define FLAG_INT_OK 1   /* numeric: a Python int is accepted */
#define FLAG_FLOAT_OK 2 /* floating: a Python float is accepted */
#define FLAG_INTEGER 4  /* integer dtype (divide gives float64) */

static PyObject *s_ops, *s_native, *s_backend, *s_to_native, *s_shape,
    *s_ndim, *s_size, *s_base, *s_getitem, *s_setitem, *s_copy,
    *s_matrix_transpose, *s_check, *kw_out, *s_reshape, *s_permute_dims,
    *s_concat, *s_where, *s_astype, *s_copy_kw, *s_axis_kw, *s_device_kw,
    *kw_copy, *int_zero, *s_pow, *s_dtype, *s_dunder_getitem,
    *s_dunder_setitem;
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
 * (subtype_dealloc), which Array needs none of but the weak references and
 * the trashcan: no __dict__, no finaliser (_setup keeps the generic one when
 * Array has one).  The trashcan bounds the C stack when a long chain of
 * arrays is freed (an array whose data refers to another array, and so on):
 * past a depth, CPython defers the object and frees it from a flat loop.  As
 * for any heap type's deallocator, it releases the instance's reference to
 * its type, also for instances of subclasses (whose subtype_dealloc, which
 * has its own trashcan, calls it as their base's). */
static destructor generic_dealloc = NULL;

static inline int needs_gc(PyObject *data);

static inline void
array_dealloc_body(ArrayBase *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (tp->tp_weaklistoffset > 0) {
        if (*(PyObject **)((char *)self + tp->tp_weaklistoffset) != NULL)
            PyObject_ClearWeakRefs((PyObject *)self);
    }
    else if (tp->tp_weaklistoffset != 0) /* managed (Python 3.12+) */
        PyObject_ClearWeakRefs((PyObject *)self);
    base_dealloc(self);
    Py_DECREF(tp);
}

static void
array_dealloc(ArrayBase *self)
{
    PyObject_GC_UnTrack(self); /* a no-op when it is not tracked */
    /* Only data that can refer to Python objects (anything but a NumPy array
     * of a non-object dtype, whose base holds no array of ours) can continue
     * the chain: the trashcan for that data, the common case skips it. */
    if (self->data == NULL || !needs_gc(self->data)) {
        array_dealloc_body(self);
        return;
    }
    Py_TRASHCAN_BEGIN(self, array_dealloc)
    array_dealloc_body(self);
    Py_TRASHCAN_END
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

/* A new Array on (data, dtype, device).  Steals a reference to data; dtype
 * and device must be alive at the call (they are referenced before the
 * allocation, which can run the GC and with it Python code). */
static PyObject *
wrap_new(PyObject *data, PyObject *dtype, PyObject *device)
{
    PyTypeObject *tp = array_type;
    if (tp == NULL) {
        Py_DECREF(data);
        PyErr_SetString(PyExc_RuntimeError, "_fastpath: not set up");
        return NULL;
    }
    Py_INCREF(dtype);
    Py_INCREF(device);
    ArrayBase *out;
    if (n_free > 0 && tp->tp_alloc == PyType_GenericAlloc) {
        /* as PyType_GenericAlloc leaves it: zeroed, typed, one reference,
         * tracked by the GC where it needs to be */
        out = (ArrayBase *)free_list[--n_free];
        if (tp->tp_basicsize == sizeof(ArrayBase) + sizeof(PyObject *) &&
            tp->tp_weaklistoffset == sizeof(ArrayBase))
            /* the usual layout: the fields set below, then the weak list */
            *(PyObject **)((char *)out + sizeof(ArrayBase)) = NULL;
        else
            memset((char *)out + sizeof(PyObject), 0,
                   tp->tp_basicsize - sizeof(PyObject));
        PyObject_Init((PyObject *)out, tp);
        if (needs_gc(data))
            PyObject_GC_Track(out);
    }
    else {
        out = (ArrayBase *)tp->tp_alloc(tp, 0);
        if (out != NULL && !needs_gc(data))
            PyObject_GC_UnTrack(out);
    }
    if (out == NULL) {
        Py_DECREF(data);
        Py_DECREF(dtype);
        Py_DECREF(device);
        return NULL;
    }
    out->data = data;
    out->dtype = dtype;
    out->device = device;
    return (PyObject *)out;
}

#define IS_ARRAY(o) (Py_TYPE(o) == array_type)

/* An Array's three fields, read once.  They are borrowed from the array,
 * which is safe across Python code for an array the call holds (an
 * argument; concat's items, which it takes strong references to): the
 * fields are read-only members, set when the array is made and released
 * only when it is freed (its deallocator, or the GC's clear of an array it
 * found unreachable, which a held array is not).  They are unset in an
 * Array made by object.__new__, and after the GC cleared them. */
typedef struct {
    PyObject *data, *dtype, *device;
} Fields;

/* 0, or -1 when a field is unset: the Python path then. */
static inline int
fields_get(Fields *f, PyObject *x)
{
    ArrayBase *a = (ArrayBase *)x;
    f->data = a->data;
    f->dtype = a->dtype;
    f->device = a->device;
    return f->data == NULL || f->dtype == NULL || f->device == NULL ? -1 : 0;
}

static inline void
fields_release(Fields *f)
{
    (void)f; /* borrowed (see above) */
}

/* The error Python gives for an unset slot of the pure Python Array. */
static PyObject *
missing_field(PyObject *self, const char *name)
{
    PyErr_Format(PyExc_AttributeError, "'%.200s' object has no attribute '%s'",
                 Py_TYPE(self)->tp_name, name);
    return NULL;
}

static PyObject *
get_dtype(ArrayBase *self, void *c)
{
    if (self->dtype == NULL)
        return missing_field((PyObject *)self, "_dtype");
    return Py_NewRef(self->dtype);
}

static PyObject *
get_device(ArrayBase *self, void *c)
{
    if (self->device == NULL)
        return missing_field((PyObject *)self, "_device");
    return Py_NewRef(self->device);
}

/* data.<name> (self, the getter's argument, holds its data). */
static PyObject *
data_attr(ArrayBase *self, PyObject *name)
{
    PyObject *data = self->data;
    if (data == NULL)
        return missing_field((PyObject *)self, "_data");
    return PyObject_GetAttr(data, name);
}

static PyObject *
get_shape(ArrayBase *self, void *c)
{
    return data_attr(self, s_shape);
}

static PyObject *
get_ndim(ArrayBase *self, void *c)
{
    return data_attr(self, s_ndim);
}

static PyObject *
get_size(ArrayBase *self, void *c)
{
    return data_attr(self, s_size);
}

typedef struct DevEntry DevEntry;
static inline DevEntry *device_entry(PyObject *dev);
static inline PyObject *kernel(DevEntry *e, PyObject *name);
static int retryable_error(void);
static PyObject *dev_kernel_mT(DevEntry *e);

static PyObject *
get_mT(ArrayBase *self, void *c)
{
    PyObject *fallback = mT_fallback;
    if (fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastpath: not set up");
        return NULL;
    }
    Fields f;
    if (enabled && IS_ARRAY((PyObject *)self) && fields_get(&f, (PyObject *)self) == 0) {
        PyObject *res = NULL;
        long n = -1;
        if (PyArray_CheckExact(f.data))
            n = PyArray_NDIM((PyArrayObject *)f.data);
        else {
            PyObject *nd = PyObject_GetAttr(f.data, s_ndim);
            if (nd != NULL && PyLong_CheckExact(nd))
                n = PyLong_AsLong(nd);
            Py_XDECREF(nd);
            PyErr_Clear(); /* the Python getter meets it again */
        }
        DevEntry *e = n >= 2 ? device_entry(f.device) : NULL;
        PyObject *fn = e ? kernel(e, s_matrix_transpose) : NULL;
        if (fn != NULL) {
            Py_INCREF(fn); /* the table may change during the call */
            if (fn == dev_kernel_mT(e) && PyArray_CheckExact(f.data))
                res = PyArray_SwapAxes((PyArrayObject *)f.data, -1, -2);
            else
                res = PyObject_CallOneArg(fn, f.data);
            Py_DECREF(fn);
            if (res != NULL)
                res = wrap_new(res, f.dtype, f.device);
        }
        Py_XDECREF((PyObject *)e);
        fields_release(&f);
        if (res != NULL)
            return res;
        /* a transpose writes nothing: the Python getter may run it again */
        if (PyErr_Occurred()) {
            if (!retryable_error())
                return NULL;
            PyErr_Clear();
        }
    }
    Py_INCREF(fallback);
    PyObject *res = PyObject_CallOneArg(fallback, (PyObject *)self);
    Py_DECREF(fallback);
    return res;
}

/* Read-only: nothing can rebind or delete a field from Python (the compiled
 * code reads them without a look-up, and Array's __setattr__ refuses too,
 * with the same message in both modes).  T_OBJECT_EX members are what the
 * interpreter's attribute cache reads fastest. */
static PyMemberDef base_members[] = {
    {"_data", T_OBJECT_EX, offsetof(ArrayBase, data), READONLY, NULL},
    {"_dtype", T_OBJECT_EX, offsetof(ArrayBase, dtype), READONLY, NULL},
    {"_device", T_OBJECT_EX, offsetof(ArrayBase, device), READONLY, NULL},
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

/* tp_new is object's (set at import): object.__new__(Array) makes an empty
 * Array as it does without the compiled path (its fields unset, so that
 * every use raises AttributeError, here as there). */
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

/* ---- device entries -------------------------------------------------------
 * What the compiled calls need of a device: its table (``_ops``), native
 * class and backend, whether that backend is ocean_cpu's own (whose scalars
 * convert as numpy.asarray does), and ocean_cpu's own kernels, which the
 * fast cases replace by the NumPy C calls they make.  An entry is a small
 * reference-counted object: a call holds it for as long as it uses it, so
 * an entry replaced meanwhile (by a re-entrant call) stays valid.  Each use
 * checks that the device still holds the same table, native class and
 * backend (three loads from its slots; Device is immutable, but
 * object.__setattr__ can reach its slots), and builds a new entry when not,
 * so nothing is cached for longer than the device's own state. */
enum {
    KK_MATRIX_TRANSPOSE,
    KK_RESHAPE,
    KK_PERMUTE_DIMS,
    KK_CONCAT,
    KK_WHERE,
    KK_ASTYPE,
    KK_POW,
    N_KK
};
static const char *cpu_kernel_names[N_KK] = {
    "_matrix_transpose", "_reshape", "_permute_dims", "_concat",
    "_where",            "_astype",  "_pow"};

struct DevEntry {
    PyObject_HEAD
    PyObject *device; /* strong references */
    PyObject *ops;
    PyObject *native;
    PyObject *backend;
    int numpy_scalars; /* the CPU backend: to_native is numpy.asarray */
    /* ocean_cpu._backend's own functions (module attributes; NULL for other
     * backends): a table entry that is one of them is replaced by the NumPy
     * C call it makes, any other entry (ocean_ext.instrument's wrapper, a
     * test's stub) is called */
    PyObject *cpu[N_KK];
};

static void
deventry_dealloc(DevEntry *e)
{
    Py_XDECREF(e->device);
    Py_XDECREF(e->ops);
    Py_XDECREF(e->native);
    Py_XDECREF(e->backend);
    for (int i = 0; i < N_KK; i++)
        Py_XDECREF(e->cpu[i]);
    PyObject_Free(e);
}

static PyTypeObject DevEntry_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ocean_array_api._fastpath._DevEntry",
    .tp_basicsize = sizeof(DevEntry),
    .tp_dealloc = (destructor)deventry_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

static inline PyObject *
dev_kernel_mT(DevEntry *e)
{
    return e->cpu[KK_MATRIX_TRANSPOSE];
}

static DevEntry *dev_table[MAX_DEVICES]; /* strong references */
static int n_dev = 0, dev_evict = 0;

/* A slot of a Device (borrowed; NULL when unset). */
static inline PyObject *
dev_slot(PyObject *dev, Py_ssize_t off)
{
    return *(PyObject **)((char *)dev + off);
}

static inline int
entry_current(DevEntry *e)
{
    PyObject *dev = e->device;
    return dev_slot(dev, off_ops) == e->ops &&
           dev_slot(dev, off_native) == e->native &&
           dev_slot(dev, off_backend) == e->backend;
}

#if PY_VERSION_HEX >= 0x030C0000
static void watch_table(PyObject *ops);
#else
static void
watch_table(PyObject *ops)
{
    (void)ops;
}
#endif

/* ocean_cpu._parallel_c's ``_C_direct`` (see there): the function a call of
 * a Parallel table entry goes straight to when below its threshold; set when
 * the CPU backend's entry is built, NULL without the compiled module. */
typedef PyObject *(*direct_fn)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
static direct_fn parallel_direct = NULL;

/* ``f`` itself, or, when ``f`` is a Parallel entry and the call ``f(*args)``
 * below its threshold, the function it would call (borrowed; ``f`` holds
 * it): the call then saves the wrapper's own.  Runs no Python code. */
static inline PyObject *
direct_kernel(PyObject *f, PyObject *const *args, Py_ssize_t n)
{
    PyObject *in = parallel_direct != NULL ? parallel_direct(f, args, n, NULL) : NULL;
    return in != NULL ? in : f;
}

static DevEntry *
entry_build(PyObject *dev)
{
    PyObject *ops = Py_XNewRef(dev_slot(dev, off_ops));
    PyObject *native = Py_XNewRef(dev_slot(dev, off_native));
    PyObject *backend = Py_XNewRef(dev_slot(dev, off_backend));
    PyObject *cpu[N_KK] = {NULL};
    DevEntry *e = NULL;
    if (ops == NULL || native == NULL || backend == NULL || !PyDict_CheckExact(ops))
        goto fail;
    Py_INCREF(dev);
    /* (the look-ups below may run Python code: everything is held) */
    int numpy_scalars = 0;
    if (native == (PyObject *)&PyArray_Type) {
        /* only ocean_cpu's CPUBackend is known to convert as numpy.asarray */
        PyObject *mod =
            PyObject_GetAttrString((PyObject *)Py_TYPE(backend), "__module__");
        numpy_scalars =
            mod != NULL && PyUnicode_Check(mod) &&
            PyUnicode_CompareWithASCIIString(mod, "ocean_cpu._backend") == 0;
        Py_XDECREF(mod);
        PyErr_Clear();
    }
    if (numpy_scalars && parallel_direct == NULL) {
        parallel_direct =
            (direct_fn)PyCapsule_Import("ocean_cpu._parallel_c._C_direct", 0);
        PyErr_Clear();
    }
    if (numpy_scalars) {
        PyObject *name = PyUnicode_FromString("ocean_cpu._backend");
        PyObject *m = name ? PyImport_GetModule(name) : NULL;
        Py_XDECREF(name);
        for (int i = 0; m != NULL && i < N_KK; i++)
            cpu[i] = PyObject_GetAttrString(m, cpu_kernel_names[i]);
        Py_XDECREF(m);
        PyErr_Clear();
    }
    e = PyObject_New(DevEntry, &DevEntry_Type);
    if (e == NULL) {
        Py_DECREF(dev);
        PyErr_Clear();
        goto fail;
    }
    e->device = dev;
    e->ops = ops;
    e->native = native;
    e->backend = backend;
    e->numpy_scalars = numpy_scalars;
    for (int i = 0; i < N_KK; i++)
        e->cpu[i] = cpu[i];
    if (!entry_current(e)) { /* changed while we looked: not fast this time */
        Py_DECREF(e);
        return NULL;
    }
    watch_table(ops);
    /* publish it (Python code may have run since the caller looked) */
    int slot = -1;
    for (int i = 0; i < n_dev; i++)
        if (dev_table[i]->device == dev) {
            slot = i;
            break;
        }
    if (slot < 0) {
        if (n_dev < MAX_DEVICES)
            slot = n_dev++;
        else {
            slot = dev_evict;
            dev_evict = (dev_evict + 1) % MAX_DEVICES;
        }
    }
    DevEntry *old = dev_table[slot];
    dev_table[slot] = e;
    Py_INCREF(e);         /* the caller's reference */
    Py_XDECREF(old);      /* may run Python code: the table is consistent */
    return e;
fail:
    Py_XDECREF(ops);
    Py_XDECREF(native);
    Py_XDECREF(backend);
    for (int i = 0; i < N_KK; i++)
        Py_XDECREF(cpu[i]);
    return NULL;
}

static DevEntry *
device_entry_slow(PyObject *dev)
{
    if (device_type == NULL || Py_TYPE(dev) != device_type)
        return NULL;
    for (int i = 0; i < n_dev; i++) {
        DevEntry *e = dev_table[i];
        if (e->device == dev) {
            if (entry_current(e)) {
                Py_INCREF(e);
                return e;
            }
            break;
        }
    }
    return entry_build(dev);
}

/* A new reference to device ``dev``'s entry, or NULL (no error set): the
 * caller takes the Python path.  Devices of another class than Device (a
 * ``_wrap`` with anything as its device) are never fast.  The first entry
 * (the device seen first, the CPU in most programs) is checked inline: an
 * entry's device is a Device (its class was checked when the entry was
 * built; a class it could be given since has the same slots, the same
 * layout). */
static inline DevEntry *
device_entry(PyObject *dev)
{
    DevEntry *e = n_dev > 0 ? dev_table[0] : NULL;
    if (e != NULL && e->device == dev && entry_current(e)) {
        Py_INCREF(e);
        return e;
    }
    return device_entry_slow(dev);
}

/* ---- kernel look-up, cached ---------------------------------------------
 * Every compiled call looks its kernel up in the device's table (a dict,
 * which ocean_ext.instrument or a test may change at any time); the lookup
 * is a good part of a cheap call's cost.  A small direct-mapped cache keeps
 * (table, name) -> entry, valid while the table is unchanged: on Python
 * before 3.12 the dict's version tag says so (a fresh value from a global
 * counter at every change of any dict, and for every new dict); from 3.12
 * on, where that tag is deprecated, a dict watcher on each table bumps
 * ``tables_epoch`` at every change (its deallocation included).  The entry is
 * borrowed from the table, which holds it for as long as the stamp matches;
 * a caller takes its own reference before anything can run Python code. */
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
static inline uint64_t
table_stamp(PyObject *ops)
{
    return ((PyDictObject *)ops)->ma_version_tag;
}
#endif

/* The entry ``name`` (an interned str) of the entry's table, borrowed, or
 * NULL with no error set.  (The table's keys are str: the look-up runs no
 * Python code.) */
static inline PyObject *
kernel(DevEntry *e, PyObject *name)
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

/* A native result in the device's native class (NumPy gives scalars for 0-d
 * results); steals res.  The caller holds e. */
static PyObject *
as_native(PyObject *res, DevEntry *e)
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

/* Whether no read-only checker of ocean_ext is installed (a look-up of a str
 * key among the module's str keys: no Python code). */
static inline int
hooks_default(void)
{
    PyObject *check = PyDict_GetItemWithError(hooks_dict, s_check);
    if (check == NULL)
        PyErr_Clear();
    return check == writable_default;
}

/* Errors after which a call that writes nothing goes to the Python path:
 * the ones kernels raise while checking their operands. */
static int
retryable_error(void)
{
    return PyErr_ExceptionMatches(PyExc_ValueError) ||
           PyErr_ExceptionMatches(PyExc_TypeError) ||
           PyErr_ExceptionMatches(PyExc_OverflowError) ||
           PyErr_ExceptionMatches(PyExc_IndexError) ||
           PyErr_ExceptionMatches(PyExc_KeyError);
}

/* After a kernel raised (an Exception; anything else propagates): the Python
 * error path ``fn(*args, exc)``, which raises what the Python front end
 * raises there, without running the kernel again (a write's kernel may have
 * written part of its output; any kernel may have warned before raising).
 * Returns NULL with that error set. */
static PyObject *
report_kernel_error(PyObject *fn, PyObject *const *args, Py_ssize_t nargs)
{
    if (fn == NULL || nargs > 3 || !PyErr_ExceptionMatches(PyExc_Exception))
        return NULL;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (exc != NULL && tb != NULL)
        PyException_SetTraceback(exc, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
#endif
    if (exc == NULL)
        return NULL;
    PyObject *call[4];
    for (Py_ssize_t i = 0; i < nargs; i++)
        call[i] = args[i];
    call[nargs] = exc;
    Py_INCREF(fn);
    PyObject *r = PyObject_Vectorcall(fn, call, nargs + 1, NULL);
    Py_DECREF(fn);
    if (r != NULL) { /* it returned: the kernel's own error stands */
        Py_DECREF(r);
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    }
    Py_DECREF(exc);
    return NULL;
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
    PyObject *where;    /* in-place operators: "in-place <op>()" */
    unsigned long allowed; /* bit i: dtypes[i] allowed */
    int kind, result;
    vectorcallfunc vectorcall;
} FastOp;

static PyTypeObject FastOp_Type;

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

/* Whether the Python int v (an exact int: no Python code runs) fits integer
 * dtype i (NumPy raises OverflowError for one that does not); 1 for other
 * dtypes. */
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

/* Whether an in-place write into x (with data ``data``) may go ahead, as
 * the Python operator's check_writable(x) decides before its kernel: 1 yes,
 * 0 not fast (read-only NumPy memory: the Python path reports it), -1 the
 * check raised. */
static int
inplace_writable(FastOp *op, PyObject *x, PyObject *data)
{
    if (PyArray_Check(data))
        return PyArray_ISWRITEABLE((PyArrayObject *)data) ? 1 : 0;
    /* another backend's array: the default check, as Python calls it */
    if (op->where == NULL || writable_default == NULL)
        return 0;
    PyObject *check = Py_NewRef(writable_default);
    PyObject *args[2] = {x, op->where};
    PyObject *r = PyObject_Vectorcall(check, args, 2, NULL);
    Py_DECREF(check);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 1;
}

static PyObject *
fast_binary(FastOp *op, PyObject *x, PyObject *other)
{
    if (!IS_ARRAY(x) || op->op == NULL)
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *b = NULL, *func = NULL, *rdt = NULL;
    DevEntry *e = NULL;
    int di = dtype_index(fx.dtype);
    if (di < 0 || !(op->allowed & (1UL << di)))
        goto done;
    if (IS_ARRAY(other)) {
        ArrayBase *ao = (ArrayBase *)other;
        if (ao->dtype != fx.dtype || ao->device != fx.device || ao->data == NULL ||
            !broadcastable(fx.data, ao->data))
            goto done;
        b = Py_NewRef(ao->data);
    }
    else if (PyLong_CheckExact(other)) {
        if (!(dtype_flags[di] & FLAG_INT_OK) || !int_fits(other, di))
            goto done;
        b = Py_NewRef(other);
    }
    else if (PyFloat_CheckExact(other)) {
        if (!(dtype_flags[di] & FLAG_FLOAT_OK))
            goto done;
        b = Py_NewRef(other);
    }
    else
        goto done;
    int rdi = di;
    if (op->result == R_BOOL)
        rdi = bool_index;
    else if (op->result == R_DIVIDE && (dtype_flags[di] & FLAG_INTEGER))
        rdi = float64_index;
    if (op->kind == K_INPLACE) {
        if (rdi != di || !hooks_default())
            goto done;
        int w = inplace_writable(op, x, fx.data);
        if (w <= 0) {
            if (w < 0)
                res = NULL;
            goto done;
        }
    }
    rdt = dtypes[rdi]; /* module state: never freed */
    e = device_entry(fx.device);
    if (e == NULL)
        goto done;
    func = kernel(e, op->op);
    if (func == NULL)
        goto done;
    {
        /* below its threshold, a Parallel entry's function, called straight */
        PyObject *ops2[2] = {fx.data, b};
        func = Py_NewRef(direct_kernel(func, ops2, 2)); /* the table may change */
    }
    /* ocean_cpu's _pow with a Python int exponent is numpy.power itself, or
       numpy.square for the exponent 2 of a real array (as _pow decides) */
    int square = 0;
    if (func == e->cpu[KK_POW] && np_power != NULL && op->kind != K_REFLECTED &&
        PyLong_CheckExact(b) &&
        (op->kind != K_INPLACE || /* _pow computes apart into other outs */
         (PyArray_Check(fx.data) &&
          PyArray_ISNBO(PyArray_DESCR((PyArrayObject *)fx.data)->byteorder) &&
          PyArray_ISALIGNED((PyArrayObject *)fx.data)))) {
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(b, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto done;
        }
        square = !overflow && v == 2 && PyArray_Check(fx.data) &&
                 !PyTypeNum_ISCOMPLEX(PyArray_TYPE((PyArrayObject *)fx.data));
        Py_SETREF(func, Py_NewRef(square ? np_square : np_power));
    }
    PyObject *a = fx.data, *r;
    if (square) {
        PyObject *args[2] = {a, a};
        r = op->kind == K_INPLACE ? PyObject_Vectorcall(func, args, 1, kw_out)
                                  : PyObject_Vectorcall(func, args, 1, NULL);
    }
    else if (op->kind == K_INPLACE) {
        PyObject *args[3] = {a, b, a};
        r = PyObject_Vectorcall(func, args, 2, kw_out);
    }
    else if (op->kind == K_REFLECTED) {
        PyObject *args[2] = {b, a};
        r = PyObject_Vectorcall(func, args, 2, NULL);
    }
    else {
        PyObject *args[2] = {a, b};
        r = PyObject_Vectorcall(func, args, 2, NULL);
    }
    if (r == NULL) {
        /* never run again: the Python error path with the kernel's error */
        PyObject *args[1] = {op->op};
        res = report_kernel_error(op->kind == K_INPLACE ? inplace_failed
                                                        : binary_failed,
                                  args, 1);
        goto done;
    }
    if (op->kind == K_INPLACE) {
        Py_DECREF(r);
        res = Py_NewRef(x);
        goto done;
    }
    r = as_native(r, e);
    res = r == NULL ? NULL : wrap_new(r, rdt, fx.device);
done:
    Py_XDECREF(func);
    Py_XDECREF((PyObject *)e);
    Py_XDECREF(b);
    fields_release(&fx);
    return res;
}

static PyObject *
fast_unary(FastOp *op, PyObject *x)
{
    if (!IS_ARRAY(x) || op->op == NULL)
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *func = NULL, *rdt = NULL;
    DevEntry *e = NULL;
    int di = dtype_index(fx.dtype);
    if (di < 0 || !(op->allowed & (1UL << di)))
        goto done;
    int rdi = op->result == R_BOOL ? bool_index
              : op->result == R_REAL ? dtype_real[di]
                                     : di;
    rdt = dtypes[rdi]; /* module state: never freed */
    e = device_entry(fx.device);
    if (e == NULL)
        goto done;
    func = kernel(e, op->op);
    if (func == NULL)
        goto done;
    func = Py_NewRef(direct_kernel(func, &fx.data, 1));
    PyObject *r = PyObject_CallOneArg(func, fx.data);
    if (r == NULL) { /* the Python definition lets it through as it is */
        res = NULL;
        goto done;
    }
    r = as_native(r, e);
    res = r == NULL ? NULL : wrap_new(r, rdt, fx.device);
done:
    Py_XDECREF(func);
    Py_XDECREF((PyObject *)e);
    fields_release(&fx);
    return res;
}

/* The dimensions of native data: direct for NumPy arrays, from ``shape``
 * otherwise.  The caller holds data. */
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

/* A slice of exact ints (or None), step not 0.  (A slice's fields are
 * read-only: no Python code runs here.) */
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
 * ndim axes), as in _indexing.native_key; 0 (no error set) otherwise.  The
 * caller holds key and data (the key's items are held by the tuple, which
 * is immutable). */
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

/* The native key (a new reference) for an index-array key, or NULL (not
 * fast). */
static PyObject *
array_key(PyObject *key, PyObject *dev)
{
    ArrayBase *k = (ArrayBase *)key;
    if (k->device != dev || k->data == NULL || k->dtype == NULL)
        return NULL;
    int ki = dtype_index(k->dtype);
    if (ki < 0 || !(ki == bool_index || (dtype_flags[ki] & FLAG_INTEGER)))
        return NULL;
    /* uint64: values beyond intp must be refused, where NumPy wraps them
     * around (2**64 - 1 indexes as -1); the Python path checks them */
    PyArray_Descr *nd = (PyArray_Descr *)dtype_native[ki];
    if (nd != NULL && nd->kind == 'u' && PyDataType_ELSIZE(nd) >= (npy_intp)sizeof(npy_intp))
        return NULL;
    return Py_NewRef(k->data);
}

/* Whether native data (held by the caller) is in native byte order. */
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
 * (bool: NumPy's scalar normalises the byte).  The caller holds data and
 * key; the element's address is computed after the allocation (which can
 * run the GC), from data's own fields. */
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
    npy_intp offset = 0;
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
        offset += v * PyArray_STRIDE(d, i);
    }
    PyArray_Descr *canon = PyArray_DescrFromType(type);
    if (canon == NULL)
        return NULL;
    PyObject *res = PyArray_NewFromDescr(&PyArray_Type, canon, 0, NULL, NULL,
                                         NULL, 0, NULL);
    if (res == NULL)
        return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)res), PyArray_BYTES(d) + offset,
           PyArray_ITEMSIZE(d));
    return res;
}

static PyObject *
fast_getitem(PyObject *x, PyObject *key)
{
    if (!IS_ARRAY(x))
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *nkey = NULL, *func = NULL, *r;
    DevEntry *e = NULL;
    int is_array = 0;
    if (dtype_index(fx.dtype) < 0)
        goto done;
    if (IS_ARRAY(key)) {
        nkey = array_key(key, fx.device);
        if (nkey == NULL || !native_byteorder(fx.data))
            goto done;
        is_array = 1;
    }
    else {
        if (!basic_key_ok(key, fx.data))
            goto done;
        nkey = Py_NewRef(key);
    }
    e = device_entry(fx.device);
    if (e == NULL)
        goto done;
    func = kernel(e, s_getitem);
    if (func == NULL)
        goto done;
    Py_INCREF(func);
    if (func == op_getitem && !is_array &&
        (r = element_copy(fx.data, nkey)) != NOT_FAST) {
        res = r == NULL ? NULL : wrap_new(r, fx.dtype, fx.device);
        goto done;
    }
    if (func == op_getitem)
        r = PyObject_GetItem(fx.data, nkey);
    else {
        PyObject *args[2] = {fx.data, nkey};
        r = PyObject_Vectorcall(func, args, 2, NULL);
    }
    if (r == NULL) {
        if (is_array) /* an index array: the Python error path */
            res = report_kernel_error(getitem_failed, NULL, 0);
        else if (retryable_error()) { /* a checked basic key: Python redoes
                                         it (NumPy raises nothing there) */
            PyErr_Clear();
            res = NOT_FAST;
        }
        else
            res = NULL;
        goto done;
    }
    r = as_native(r, e);
    res = r == NULL ? NULL : wrap_new(r, fx.dtype, fx.device);
done:
    Py_XDECREF(func);
    Py_XDECREF((PyObject *)e);
    Py_XDECREF(nkey);
    fields_release(&fx);
    return res;
}

/* 0: done; 1: not fast; -1: error */
static int
fast_setitem(PyObject *x, PyObject *key, PyObject *value)
{
    if (!IS_ARRAY(x) || !hooks_default())
        return 1;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return 1;
    int ret = 1;
    PyObject *nkey = NULL, *v = NULL, *func = NULL, *d = fx.data, *r;
    DevEntry *e = NULL;
    int di = dtype_index(fx.dtype);
    if (di < 0)
        goto done;
    /* read-only NumPy memory: the Python path reports it */
    if (PyArray_Check(d) && !PyArray_ISWRITEABLE((PyArrayObject *)d))
        goto done;
    if (IS_ARRAY(key)) {
        nkey = array_key(key, fx.device);
        if (nkey == NULL)
            goto done;
    }
    else {
        if (!basic_key_ok(key, d))
            goto done;
        nkey = Py_NewRef(key);
    }
    e = device_entry(fx.device);
    if (e == NULL)
        goto done;
    if (IS_ARRAY(value)) {
        ArrayBase *av = (ArrayBase *)value;
        if (av->dtype != fx.dtype || av->device != fx.device || av->data == NULL)
            goto done;
        v = Py_NewRef(av->data);
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
                goto done;
            }
            check = vb != Py_None || db != Py_None;
            Py_DECREF(vb);
            Py_DECREF(db);
        }
        if (check) {
            /* _may_overlap(v, d): an error propagates, as from the Python
             * path, which makes the same call */
            PyObject *args[2] = {v, d};
            PyObject *mo = Py_NewRef(may_overlap);
            r = PyObject_Vectorcall(mo, args, 2, NULL);
            Py_DECREF(mo);
            int overlap = r == NULL ? -1 : PyObject_IsTrue(r);
            Py_XDECREF(r);
            if (overlap < 0) {
                ret = -1;
                goto done;
            }
            if (overlap) {
                PyObject *cf = kernel(e, s_copy);
                if (cf == NULL)
                    goto done;
                Py_INCREF(cf);
                PyObject *copied = PyObject_CallOneArg(cf, v);
                Py_DECREF(cf);
                if (copied == NULL) { /* as from the Python path */
                    ret = -1;
                    goto done;
                }
                Py_SETREF(v, copied);
            }
        }
    }
    else if (PyLong_CheckExact(value)) {
        if (!(dtype_flags[di] & FLAG_INT_OK))
            goto done;
        v = Py_NewRef(value);
    }
    else if (PyFloat_CheckExact(value)) {
        if (!(dtype_flags[di] & FLAG_FLOAT_OK))
            goto done;
        v = Py_NewRef(value);
    }
    else
        goto done;
    func = kernel(e, s_setitem);
    if (func == NULL)
        goto done;
    {
        PyObject *args[3] = {d, nkey, v};
        func = Py_NewRef(direct_kernel(func, args, 3));
    }
    if (func == op_setitem)
        r = PyObject_SetItem(d, nkey, v) < 0 ? NULL : Py_NewRef(Py_None);
    else {
        PyObject *args[3] = {d, nkey, v};
        r = PyObject_Vectorcall(func, args, 3, NULL);
    }
    if (r == NULL) {
        /* it may have written part of x: the Python error path with the
         * kernel's error, never the kernel again */
        PyObject *args[3] = {x, key, value};
        report_kernel_error(setitem_failed, args, 3);
        ret = -1;
        goto done;
    }
    Py_DECREF(r);
    ret = 0;
done:
    Py_XDECREF(func);
    Py_XDECREF((PyObject *)e);
    Py_XDECREF(v);
    Py_XDECREF(nkey);
    fields_release(&fx);
    return ret;
}

/* ---- namespace functions ------------------------------------------------------
 * reshape, permute_dims, concat, where and astype, each for the case its
 * Python definition takes without any conversion; NOT_FAST otherwise, and
 * after any retryable error of the kernel (none of them writes anything, so
 * the Python path may run it again).
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

/* f(*args): the caller holds f (a new reference from the table) and args. */
static inline PyObject *
call_kernel(PyObject *f, PyObject *const *args, Py_ssize_t n, PyObject *kw)
{
    return PyObject_Vectorcall(f, args, n, kw);
}

/* reshape(x, shape, copy=copy): shape a tuple, copy None or a bool, as the
 * Python definition hands them straight to the kernel. */
static PyObject *
fast_reshape(PyObject *x, PyObject *shape, PyObject *copy)
{
    if (!IS_ARRAY(x) || !PyTuple_CheckExact(shape) ||
        (copy != Py_None && copy != Py_True && copy != Py_False))
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *f = NULL;
    DevEntry *e = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(shape);
    int direct = 0;
    npy_intp dims[NPY_MAXDIMS];
    if (dtype_index(fx.dtype) < 0)
        goto done;
    if (PyArray_CheckExact(fx.data)) {
        /* the sizes must fit (as _reshape_shape checks): else Python */
        if (n > NPY_MAXDIMS)
            goto done;
        npy_intp known = 1;
        int infer = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PyTuple_GET_ITEM(shape, i);
            if (!PyLong_CheckExact(it))
                goto done;
            dims[i] = PyLong_AsSsize_t(it);
            if (dims[i] == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                goto done;
            }
            if (dims[i] == -1)
                infer++;
            else if (dims[i] < 0)
                goto done;
            else if (dims[i] > 0 && known > NPY_MAX_INTP / dims[i])
                goto done;
            else
                known *= dims[i];
        }
        npy_intp size = PyArray_SIZE((PyArrayObject *)fx.data);
        if (infer > 1 || (infer ? (known == 0 || size % known != 0) : known != size))
            goto done;
    }
    e = device_entry(fx.device);
    f = e ? kernel(e, s_reshape) : NULL;
    if (f == NULL)
        goto done;
    Py_INCREF(f);
    direct = PyArray_CheckExact(fx.data) && f == e->cpu[KK_RESHAPE] &&
             copy == Py_None &&
             PyArray_ISNBO(PyArray_DESCR((PyArrayObject *)fx.data)->byteorder);
    if (direct) {
        /* _reshape: x.reshape(shape), native data give a native result */
        PyArray_Dims nd = {dims, (int)n};
        res = kernel_result(
            PyArray_Newshape((PyArrayObject *)fx.data, &nd, NPY_CORDER));
    }
    if (res == NOT_FAST) {
        PyObject *args[3] = {fx.data, shape, copy};
        res = kernel_result(call_kernel(f, args, 3, NULL));
    }
    if (res != NULL && res != NOT_FAST)
        res = wrap_new(res, fx.dtype, fx.device);
done:
    Py_XDECREF(f);
    Py_XDECREF((PyObject *)e);
    fields_release(&fx);
    return res;
}

/* permute_dims(x, axes): axes a tuple of ndim distinct ints in [0, ndim). */
static PyObject *
fast_permute_dims(PyObject *x, PyObject *axes)
{
    if (!IS_ARRAY(x) || !PyTuple_CheckExact(axes))
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *f = NULL;
    DevEntry *e = NULL;
    npy_intp perm[NPY_MAXDIMS];
    if (!PyArray_CheckExact(fx.data) || dtype_index(fx.dtype) < 0)
        goto done;
    int ndim = PyArray_NDIM((PyArrayObject *)fx.data);
    if (PyTuple_GET_SIZE(axes) != ndim || ndim > NPY_MAXDIMS)
        goto done;
    unsigned long long seen = 0;
    for (int i = 0; i < ndim; i++) {
        PyObject *it = PyTuple_GET_ITEM(axes, i);
        if (!PyLong_CheckExact(it))
            goto done;
        long v = PyLong_AsLong(it);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto done;
        }
        if (v < 0 || v >= ndim || (seen & (1ULL << v)))
            goto done;
        seen |= 1ULL << v;
        perm[i] = v;
    }
    e = device_entry(fx.device);
    f = e ? kernel(e, s_permute_dims) : NULL;
    if (f == NULL)
        goto done;
    Py_INCREF(f);
    if (f == e->cpu[KK_PERMUTE_DIMS]) { /* _permute_dims: x.transpose(axes) */
        PyArray_Dims p = {perm, ndim};
        res = PyArray_Transpose((PyArrayObject *)fx.data, &p);
    }
    else {
        PyObject *args[2] = {fx.data, axes};
        res = call_kernel(f, args, 2, NULL);
    }
    res = kernel_result(res);
    if (res != NULL && res != NOT_FAST)
        res = wrap_new(res, fx.dtype, fx.device);
done:
    Py_XDECREF(f);
    Py_XDECREF((PyObject *)e);
    fields_release(&fx);
    return res;
}

/* concat(arrays, axis=axis): a tuple or list of NumPy-backed arrays of one
 * standard dtype on one device, axis None or an int in range, shapes that
 * agree outside the axis (nothing to promote or convert).
 *
 * The items are taken with strong references first, before anything can run
 * Python code: a list may be emptied meanwhile (by the kernel, or by a
 * finaliser that a GC pass at any allocation runs), which frees its items
 * and its item storage.
 *
 * That snapshot is taken where the pure Python path takes its own
 * (``(*arrays,)``, at the entry of ``concat``): after one allocation of a
 * Python object (here the list of native arrays, there the list that
 * ``(*arrays,)`` builds before it reads), so that a GC pass there that
 * changes the list changes what both paths join.  A size changed by it
 * leaves the call to the Python path. */
#define CONCAT_SMALL 16
static PyObject *
fast_concat(PyObject *arrays, PyObject *axis)
{
    if (!PyTuple_CheckExact(arrays) && !PyList_CheckExact(arrays))
        return NOT_FAST;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(arrays);
    if (n == 0 || (axis != Py_None && !PyLong_CheckExact(axis)))
        return NOT_FAST;
    PyObject *natives = PyList_New(n);
    if (natives == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(arrays) != n) {
        Py_DECREF(natives);
        return NOT_FAST;
    }
    PyObject *small[CONCAT_SMALL];
    PyObject **items = small;
    if (n > CONCAT_SMALL) {
        /* PyMem_Malloc allocates no Python object: no GC pass here */
        items = PyMem_Malloc((size_t)n * sizeof(PyObject *));
        if (items == NULL) {
            Py_DECREF(natives);
            return PyErr_NoMemory();
        }
    }
    PyObject **src = PySequence_Fast_ITEMS(arrays);
    for (Py_ssize_t i = 0; i < n; i++)
        items[i] = Py_NewRef(src[i]);
    PyObject *res = NOT_FAST, *f = NULL, *pyaxis = NULL;
    DevEntry *e = NULL;
    Fields f0 = {NULL, NULL, NULL};
    if (!IS_ARRAY(items[0]) || fields_get(&f0, items[0]) < 0 ||
        !PyArray_CheckExact(f0.data) || dtype_index(f0.dtype) < 0)
        goto done;
    PyArrayObject *d0 = (PyArrayObject *)f0.data;
    int ndim = PyArray_NDIM(d0);
    long ax = 0;
    if (axis != Py_None) {
        ax = PyLong_AsLong(axis);
        if (ax == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            goto done;
        }
        if (ax < -ndim || ax >= ndim)
            goto done;
        if (ax < 0)
            ax += ndim;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (!IS_ARRAY(it))
            goto done;
        ArrayBase *ai = (ArrayBase *)it;
        if (ai->dtype != f0.dtype || ai->device != f0.device || ai->data == NULL ||
            !PyArray_CheckExact(ai->data))
            goto done;
        if (axis == Py_None || i == 0)
            continue;
        PyArrayObject *di = (PyArrayObject *)ai->data;
        if (PyArray_NDIM(di) != ndim)
            goto done;
        for (int j = 0; j < ndim; j++)
            if (j != ax && PyArray_DIM(di, j) != PyArray_DIM(d0, j))
                goto done;
    }
    e = device_entry(f0.device);
    f = e ? kernel(e, s_concat) : NULL;
    if (f == NULL)
        goto done;
    Py_INCREF(f);
    for (Py_ssize_t i = 0; i < n; i++) {
        /* the items are held, and an Array's fields are read-only */
        PyObject *data = ((ArrayBase *)items[i])->data;
        if (data == NULL)
            goto done;
        PyList_SET_ITEM(natives, i, Py_NewRef(data));
    }
    PyObject *r;
    if (direct_kernel(f, &natives, 1) == e->cpu[KK_CONCAT] && axis != Py_None) {
        /* _concat: numpy.concatenate(natives, axis) */
        r = PyArray_Concatenate(natives, (int)ax);
    }
    else {
        pyaxis = axis == Py_None ? Py_NewRef(Py_None) : PyLong_FromLong(ax);
        if (pyaxis == NULL) {
            res = NULL;
            goto done;
        }
        PyObject *args[3] = {natives, pyaxis, Py_None};
        r = call_kernel(f, args, 3, NULL);
    }
    res = kernel_result(r);
    if (res != NULL && res != NOT_FAST)
        res = wrap_new(res, f0.dtype, f0.device);
done:
    Py_XDECREF(pyaxis);
    Py_XDECREF(natives);
    Py_XDECREF(f);
    Py_XDECREF((PyObject *)e);
    fields_release(&f0);
    for (Py_ssize_t i = 0; i < n; i++)
        Py_DECREF(items[i]);
    if (items != small)
        PyMem_Free(items);
    return res;
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
    PyObject *arr = IS_ARRAY(x1) ? x1 : IS_ARRAY(x2) ? x2 : NULL;
    if (arr == NULL)
        return NOT_FAST;
    Fields fc, fa;
    if (fields_get(&fc, cond) < 0)
        return NOT_FAST;
    if (fields_get(&fa, arr) < 0) {
        fields_release(&fc);
        return NOT_FAST;
    }
    PyObject *res = NOT_FAST, *b1 = NULL, *b2 = NULL, *f = NULL, *nat = NULL;
    DevEntry *e = NULL;
    int di = dtype_index(fa.dtype);
    if (bool_index < 0 || fc.dtype != dtypes[bool_index] || di < 0 ||
        fc.device != fa.device || dtype_native[di] == NULL)
        goto done;
    nat = Py_NewRef(dtype_native[di]);
    if (IS_ARRAY(x1) && IS_ARRAY(x2)) {
        ArrayBase *a2 = (ArrayBase *)x2;
        if (a2->dtype != fa.dtype || a2->device != fa.device || a2->data == NULL ||
            !broadcastable(fa.data, a2->data) || !broadcastable(fc.data, a2->data))
            goto done;
        b1 = Py_NewRef(fa.data);
        b2 = Py_NewRef(a2->data);
    }
    else if (arr == x1) {
        if (!scalar_ok(x2, di))
            goto done;
        b1 = Py_NewRef(fa.data);
        b2 = Py_NewRef(x2);
    }
    else {
        if (!scalar_ok(x1, di))
            goto done;
        b1 = Py_NewRef(x1);
        b2 = Py_NewRef(fa.data);
    }
    if (!broadcastable(fc.data, fa.data))
        goto done;
    e = device_entry(fa.device);
    f = e ? kernel(e, s_where) : NULL;
    if (f == NULL)
        goto done;
    Py_INCREF(f);
    PyObject *r;
    PyObject *wargs[3] = {fc.data, b1, b2};
    if (direct_kernel(f, wargs, 3) == e->cpu[KK_WHERE])
        /* _where: numpy.where(cond, x1, x2) */
        r = PyArray_Where(fc.data, b1, b2);
    else {
        PyObject *args[3] = {fc.data, b1, b2};
        r = call_kernel(f, args, 3, NULL);
    }
    r = kernel_result(r);
    if (r == NULL || r == NOT_FAST) {
        res = r;
        goto done;
    }
    r = as_native(r, e);
    if (r == NULL) {
        res = NULL;
        goto done;
    }
    /* the Python definition casts a result of another dtype (byte order) */
    int same;
    if (PyArray_Check(r))
        same = PyArray_EquivTypes(PyArray_DESCR((PyArrayObject *)r),
                                  (PyArray_Descr *)nat);
    else {
        /* another backend's array (CuPy's): its dtype compared in Python.
         * (Handing it back to Python here made the Python definition run
         * the kernel a second time: twice the time of CuPy's where on a
         * GPU.) */
        PyObject *rdt = PyObject_GetAttr(r, s_dtype);
        same = rdt == NULL ? -1 : PyObject_RichCompareBool(rdt, nat, Py_EQ);
        Py_XDECREF(rdt);
        if (same < 0) {
            Py_DECREF(r);
            res = NULL;
            goto done;
        }
    }
    if (!same) { /* nothing written: the Python definition redoes it */
        Py_DECREF(r);
        goto done;
    }
    res = wrap_new(r, fa.dtype, fa.device);
done:
    Py_XDECREF(f);
    Py_XDECREF((PyObject *)e);
    Py_XDECREF(b1);
    Py_XDECREF(b2);
    Py_XDECREF(nat);
    fields_release(&fa);
    fields_release(&fc);
    return res;
}

/* astype(x, dtype, copy=copy): standard dtypes, copy a bool, no device, no
 * complex-to-real cast. */
static PyObject *
fast_astype(PyObject *x, PyObject *dtype, PyObject *copy)
{
    if (!IS_ARRAY(x) || (copy != Py_True && copy != Py_False))
        return NOT_FAST;
    Fields fx;
    if (fields_get(&fx, x) < 0)
        return NOT_FAST;
    PyObject *res = NOT_FAST, *f = NULL;
    DevEntry *e = NULL;
    int si = dtype_index(fx.dtype), ti = dtype_index(dtype);
    if (si < 0 || ti < 0 || dtype_native[ti] == NULL)
        goto done;
    if (dtype_real[si] != si && dtype_real[ti] == ti) /* complex to real */
        goto done;
    if (si == ti && copy == Py_False) {
        res = Py_NewRef(x);
        goto done;
    }
    e = device_entry(fx.device);
    f = e ? kernel(e, s_astype) : NULL;
    if (f == NULL)
        goto done;
    Py_INCREF(f);
    PyObject *r;
    PyObject *args[3] = {fx.data, dtype_native[ti], copy};
    if (direct_kernel(f, args, 3) == e->cpu[KK_ASTYPE] && PyArray_CheckExact(fx.data))
        /* _astype: x.astype(dtype, copy=copy) */
        r = PyObject_VectorcallMethod(s_astype, args, 2, kw_copy);
    else
        r = call_kernel(f, args, 3, NULL);
    res = kernel_result(r);
    if (res != NULL && res != NOT_FAST)
        res = wrap_new(res, dtypes[ti], fx.device);
done:
    Py_XDECREF(f);
    Py_XDECREF((PyObject *)e);
    fields_release(&fx);
    return res;
}

/* asarray(obj): a NumPy array of a standard dtype in native byte order, no
 * keywords, no device scope open and no default device from the
 * environment: the array itself on the CPU, as the Python fast case.  (The
 * module's own state is set once and never freed; obj is the caller's.) */
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
 * when absent; NULL when any other keyword is there.  (Keyword names are
 * str: the comparison runs no Python code.) */
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

/* The Python definition (a new reference) a cleared FastOp no longer has:
 * an error. */
static PyObject *
fastop_fallback(FastOp *op)
{
    PyObject *fb = op->fallback;
    if (fb == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "a compiled function of ocean_array_api was cleared");
        return NULL;
    }
    return Py_NewRef(fb);
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
    PyObject *fb = fastop_fallback(op);
    if (fb == NULL)
        return NULL;
    PyObject *res = PyObject_Vectorcall(fb, args, nargsf, kwnames);
    Py_DECREF(fb);
    return res;
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
    Py_VISIT(self->where);
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
    Py_CLEAR(self->where);
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
    /* __qualname__ is writable: any object (%S), or none */
    PyObject *q = Py_XNewRef(self->qualname);
    PyObject *res = PyUnicode_FromFormat("<compiled %S>", q ? q : Py_None);
    Py_XDECREF(q);
    return res;
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
    if (self->qualname == NULL)
        Py_RETURN_NONE; /* pickle then refuses it with its own error */
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

/* When Py_TYPE(self)'s attribute ``name`` is a FastOp: its Python
 * definition (a new reference), to call in its place right after the
 * compiled attempt was made (or could not apply: self is no exact Array).
 * Calling the FastOp would make the same attempt again.  NULL with no error
 * set otherwise (the caller goes the generic way); NULL with an error for a
 * cleared FastOp. */
static PyObject *
python_definition(PyObject *self, PyObject *name)
{
    PyObject *f = _PyType_Lookup(Py_TYPE(self), name); /* borrowed */
    if (f == NULL || Py_TYPE(f) != &FastOp_Type)
        return NULL;
    return fastop_fallback((FastOp *)f);
}

/* ---- direct type slots ------------------------------------------------------
 * Python's own slot functions for a class (slot_nb_add, ...) look the method
 * up by name and call it.  _install_slots() puts these functions in Array's
 * slots instead: they take the fast case of the FastOps in Array.__dict__ and
 * otherwise call the Python definition behind the FastOp (not the FastOp,
 * which would make the same compiled attempt again).  Any later
 * setattr(Array, "__add__", ...) makes CPython reset the slot to its generic
 * function, which then calls whatever the class holds.  The FastOps these
 * functions use are held (module state, replaced by _install_slots) and,
 * during a call, by the call itself.
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
 * NotImplemented when the type has no such attribute.  A FastOp there: its
 * Python definition (see above). */
static PyObject *
call_special(PyObject *self, PyObject *name, PyObject *other)
{
    PyObject *f = _PyType_Lookup(Py_TYPE(self), name);
    if (f == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    if (Py_TYPE(f) == &FastOp_Type)
        f = fastop_fallback((FastOp *)f);
    else
        Py_INCREF(f);
    if (f == NULL)
        return NULL;
    PyObject *res;
    if (PyFunction_Check(f) ||
        PyType_HasFeature(Py_TYPE(f), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
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

/* op's compiled attempt, with op held across it */
static inline PyObject *
try_binary(FastOp *op, PyObject *x, PyObject *other)
{
    if (op == NULL)
        return NOT_FAST;
    Py_INCREF(op);
    PyObject *r = fast_binary(op, x, other);
    Py_DECREF(op);
    return r;
}

static PyObject *
direct_binary(int i, PyObject *v, PyObject *w)
{
    if (enabled) {
        PyObject *r = NOT_FAST;
        if (IS_ARRAY(v))
            r = try_binary(fwd_ops[i], v, w);
        else if (IS_ARRAY(w))
            r = try_binary(refl_ops[i], w, v);
        if (r != NOT_FAST)
            return r;
    }
    return binary_protocol(i, v, w);
}

static PyObject *
direct_inplace(int i, PyObject *v, PyObject *w)
{
    if (enabled && IS_ARRAY(v)) {
        PyObject *r = try_binary(inpl_ops[i], v, w);
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
static PyObject *compare_strs[6];
static FastOp *cmp_ops[6];
static richcmpfunc orig_richcompare;

/* fn(*args) for a Python definition fn (a new reference, released here) */
static PyObject *
call_definition(PyObject *fn, PyObject *const *args, Py_ssize_t n)
{
    PyObject *res = PyObject_Vectorcall(fn, args, n, NULL);
    Py_DECREF(fn);
    return res;
}

static PyObject *
direct_richcompare(PyObject *v, PyObject *w, int op)
{
    if (op < 0 || op >= 6)
        return orig_richcompare(v, w, op);
    if (enabled && IS_ARRAY(v)) {
        PyObject *r = try_binary(cmp_ops[op], v, w);
        if (r != NOT_FAST)
            return r;
    }
    PyObject *fn = python_definition(v, compare_strs[op]);
    if (fn != NULL) {
        PyObject *args[2] = {v, w};
        return call_definition(fn, args, 2);
    }
    if (PyErr_Occurred())
        return NULL;
    return orig_richcompare(v, w, op);
}

/* unary operators */
static const char *unary_names[4] = {"__neg__", "__pos__", "__abs__",
                                     "__invert__"};
static PyObject *unary_strs[4];
static FastOp *unary_ops[4];
static unaryfunc orig_unary[4];

static PyObject *
direct_unary(int i, PyObject *v)
{
    if (enabled && unary_ops[i] != NULL) {
        FastOp *op = unary_ops[i];
        Py_INCREF(op);
        PyObject *r = fast_unary(op, v);
        Py_DECREF(op);
        if (r != NOT_FAST)
            return r;
    }
    PyObject *fn = python_definition(v, unary_strs[i]);
    if (fn != NULL)
        return call_definition(fn, &v, 1);
    if (PyErr_Occurred())
        return NULL;
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
    PyObject *fn = python_definition(x, s_dunder_getitem);
    if (fn != NULL) {
        PyObject *args[2] = {x, key};
        return call_definition(fn, args, 2);
    }
    if (PyErr_Occurred())
        return NULL;
    return orig_subscript(x, key);
}

static int
direct_ass_subscript(PyObject *x, PyObject *key, PyObject *value)
{
    if (value == NULL) /* del x[key]: CPython's way (no __delitem__) */
        return orig_ass_subscript(x, key, value);
    if (enabled) {
        int r = fast_setitem(x, key, value);
        if (r <= 0)
            return r;
    }
    PyObject *fn = python_definition(x, s_dunder_setitem);
    if (fn != NULL) {
        PyObject *args[3] = {x, key, value};
        PyObject *res = call_definition(fn, args, 3);
        if (res == NULL)
            return -1;
        Py_DECREF(res);
        return 0;
    }
    if (PyErr_Occurred())
        return -1;
    return orig_ass_subscript(x, key, value);
}

/* The FastOp in Array.__dict__[name] of the given kind (a new reference),
 * or NULL.  (A type's dict has str keys only: no Python code runs.) */
static FastOp *
class_op(PyObject *name, int kind)
{
    PyObject *d = array_type->tp_dict;
    PyObject *o = d ? PyDict_GetItemWithError(d, name) : NULL;
    if (o == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (Py_TYPE(o) != &FastOp_Type || ((FastOp *)o)->kind != kind)
        return NULL;
    Py_INCREF(o);
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
    FastOp *fwd[N_BINARY] = {NULL}, *refl[N_BINARY] = {NULL},
           *inpl[N_BINARY] = {NULL}, *cmp[6] = {NULL}, *un[4] = {NULL};
    FastOp *gi = NULL, *si = NULL;
    int ok = 1;
    for (int i = 0; ok && i < N_BINARY; i++) {
        fwd[i] = class_op(fwd_names[i], K_FORWARD);
        refl[i] = class_op(refl_names[i], K_REFLECTED);
        inpl[i] = class_op(inpl_names[i], K_INPLACE);
        ok = fwd[i] && refl[i] && inpl[i] && *number_slot(nb, i, 0) &&
             *number_slot(nb, i, 1);
    }
    for (int i = 0; ok && i < 6; i++)
        ok = (cmp[i] = class_op(compare_strs[i], K_FORWARD)) != NULL;
    for (int i = 0; ok && i < 4; i++)
        ok = (un[i] = class_op(unary_strs[i], K_UNARY)) != NULL &&
             *unary_slot(nb, i) != NULL;
    if (ok) {
        gi = class_op(s_dunder_getitem, K_GETITEM);
        si = class_op(s_dunder_setitem, K_SETITEM);
        ok = gi != NULL && si != NULL;
    }
    Py_XDECREF(gi);
    Py_XDECREF(si);
    if (!ok) {
        for (int i = 0; i < N_BINARY; i++) {
            Py_XDECREF(fwd[i]);
            Py_XDECREF(refl[i]);
            Py_XDECREF(inpl[i]);
        }
        for (int i = 0; i < 6; i++)
            Py_XDECREF(cmp[i]);
        for (int i = 0; i < 4; i++)
            Py_XDECREF(un[i]);
        Py_RETURN_FALSE;
    }
    /* swap in the new references; the old ones go last (a DECREF can run
     * Python code: the state is complete by then) */
    FastOp *old[2 * (3 * N_BINARY + 6 + 4)];
    int n_old = 0;
    for (int i = 0; i < N_BINARY; i++) {
        old[n_old++] = fwd_ops[i];
        old[n_old++] = refl_ops[i];
        old[n_old++] = inpl_ops[i];
        fwd_ops[i] = fwd[i];
        refl_ops[i] = refl[i];
        inpl_ops[i] = inpl[i];
        *number_slot(nb, i, 0) = direct_fwd[i];
        *number_slot(nb, i, 1) = direct_inpl[i];
    }
    for (int i = 0; i < 6; i++) {
        old[n_old++] = cmp_ops[i];
        cmp_ops[i] = cmp[i];
    }
    /* the generic slot functions these fall back on (never our own) */
    if (array_type->tp_richcompare != direct_richcompare) {
        orig_richcompare = array_type->tp_richcompare;
        array_type->tp_richcompare = direct_richcompare;
    }
    for (int i = 0; i < 4; i++) {
        old[n_old++] = unary_ops[i];
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
    for (int i = 0; i < n_old; i++)
        Py_XDECREF(old[i]);
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
    return wrap_new(Py_NewRef(args[0]), args[1], args[2]);
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
    op->name = op->qualname = op->module = op->doc = op->dict = op->where = NULL;
    op->allowed = mask;
    op->kind = k;
    op->result = r;
    op->vectorcall = (vectorcallfunc)fastop_vectorcall;
    PyObject_GC_Track(op);
    /* (the look-ups may run Python code: op is complete and tracked) */
    op->name = PyObject_GetAttrString(fallback, "__name__");
    op->qualname = op->name ? PyObject_GetAttrString(fallback, "__qualname__")
                            : NULL;
    op->module = op->qualname ? PyObject_GetAttrString(fallback, "__module__")
                              : NULL;
    op->doc = op->module ? PyObject_GetAttrString(fallback, "__doc__") : NULL;
    if (op->doc != NULL && k == K_INPLACE)
        op->where = PyUnicode_FromFormat("in-place %U()", op->op);
    if (op->doc == NULL || (k == K_INPLACE && op->where == NULL)) {
        Py_DECREF(op);
        return NULL;
    }
    return (PyObject *)op;
}

/* The offset of Device's slot ``name`` (a T_OBJECT_EX member descriptor in
 * the class's own dict), or -1. */
static Py_ssize_t
slot_offset(PyTypeObject *cls, const char *name)
{
    PyObject *d = cls->tp_dict ? PyDict_GetItemString(cls->tp_dict, name) : NULL;
    if (d == NULL || Py_TYPE(d) != &PyMemberDescr_Type)
        return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX || m->offset < (Py_ssize_t)sizeof(PyObject) ||
        m->offset + (Py_ssize_t)sizeof(PyObject *) > cls->tp_basicsize)
        return -1;
    return m->offset;
}

static PyObject *
mod_setup(PyObject *mod, PyObject *args)
{
    PyObject *cls, *dts, *flags, *real, *hooks, *default_check, *overlap, *mT,
        *getitem, *setitem, *devcls, *ipfail, *sifail, *bfail, *gifail;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!OOOOOO!OOOO", &PyType_Type, &cls,
                          &PyTuple_Type, &dts, &PyTuple_Type, &flags,
                          &PyTuple_Type, &real, &PyDict_Type, &hooks,
                          &default_check, &overlap, &mT, &getitem, &setitem,
                          &PyType_Type, &devcls, &ipfail, &sifail, &bfail,
                          &gifail))
        return NULL;
    /* once: the module's state is then fixed for the life of the process,
     * so that nothing it points to can be freed under a running call */
    if (array_type != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_setup(): already set up");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(dts);
    if (n > MAX_DTYPES || PyTuple_GET_SIZE(flags) != n ||
        PyTuple_GET_SIZE(real) != n ||
        !PyType_IsSubtype((PyTypeObject *)cls, &ArrayBase_Type)) {
        PyErr_SetString(PyExc_ValueError, "_setup(): bad arguments");
        return NULL;
    }
    PyTypeObject *dc = (PyTypeObject *)devcls;
    Py_ssize_t o_ops = slot_offset(dc, "_ops"), o_nat = slot_offset(dc, "_native"),
               o_back = slot_offset(dc, "_backend");
    if (o_ops < 0 || o_nat < 0 || o_back < 0) {
        PyErr_SetString(PyExc_ValueError, "_setup(): Device has no slots "
                                          "_ops, _native, _backend");
        return NULL;
    }
    int fl[MAX_DTYPES], re[MAX_DTYPES];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *f = PyTuple_GET_ITEM(flags, i), *r = PyTuple_GET_ITEM(real, i);
        if (!PyLong_CheckExact(f) || !PyLong_CheckExact(r)) {
            PyErr_SetString(PyExc_TypeError, "_setup(): flags must be ints");
            return NULL;
        }
        fl[i] = (int)PyLong_AsLong(f);
        re[i] = (int)PyLong_AsLong(r);
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
    /* each dtype's NumPy descriptor (None of those for a backend-only dtype:
     * then the cases that need it are not taken); the look-ups may run
     * Python code, before any state is set */
    PyObject *nats[MAX_DTYPES];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *nat = PyObject_GetAttrString(PyTuple_GET_ITEM(dts, i), "_native");
        if (nat != NULL && !PyArray_DescrCheck(nat))
            Py_CLEAR(nat);
        PyErr_Clear();
        nats[i] = nat;
    }
    if (array_type != NULL) { /* set up meanwhile, by the code just run */
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(nats[i]);
        PyErr_SetString(PyExc_RuntimeError, "_setup(): already set up");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(dts, i));
        dtype_flags[i] = fl[i];
        dtype_real[i] = re[i];
        dtype_native[i] = nats[i];
    }
    n_dtypes = (int)n;
    bool_index = bi;
    float64_index = fi;
    device_type = (PyTypeObject *)Py_NewRef(devcls);
    off_ops = o_ops;
    off_native = o_nat;
    off_backend = o_back;
    hooks_dict = Py_NewRef(hooks);
    writable_default = Py_NewRef(default_check);
    may_overlap = Py_NewRef(overlap);
    mT_fallback = Py_NewRef(mT);
    op_getitem = Py_NewRef(getitem);
    op_setitem = Py_NewRef(setitem);
    inplace_failed = Py_NewRef(ipfail);
    setitem_failed = Py_NewRef(sifail);
    binary_failed = Py_NewRef(bfail);
    getitem_failed = Py_NewRef(gifail);
    array_type = (PyTypeObject *)Py_NewRef(cls);
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
    enabled = 1;
    Py_RETURN_NONE;
}

static PyObject *
mod_setup_asarray(PyObject *mod, PyObject *args)
{
    PyObject *host, *var, *ddict, *cpu;
    if (!PyArg_ParseTuple(args, "O!OO!O", &PyTuple_Type, &host, &var,
                          &PyDict_Type, &ddict, &cpu))
        return NULL;
    if (scope_var != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_setup_asarray(): already set up");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(host);
    if (!PyContextVar_CheckExact(var) || n > MAX_DTYPES) {
        PyErr_SetString(PyExc_ValueError, "_setup_asarray(): bad arguments");
        return NULL;
    }
    /* host: ((NumPy descriptor, DType), ...) */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyTuple_GET_ITEM(host, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
            !PyArray_DescrCheck(PyTuple_GET_ITEM(pair, 0))) {
            PyErr_SetString(PyExc_ValueError,
                            "_setup_asarray(): host dtypes must be "
                            "(numpy.dtype, DType) pairs");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyTuple_GET_ITEM(host, i);
        host_descrs[i] = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
        host_dtypes[i] = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
    }
    n_host = (int)n;
    devices_dict = Py_NewRef(ddict);
    cpu_device = Py_NewRef(cpu);
    scope_var = Py_NewRef(var);
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
     "may_overlap, mT_getter, operator.getitem, operator.setitem, Device, "
     "inplace_failed, setitem_failed, binary_failed, getitem_failed); once."},
    {"_setup_asarray", mod_setup_asarray, METH_VARARGS,
     "_setup_asarray(((descr, DType), ...), scope_var, devices_dict, cpu): "
     "asarray's fast case (see _creation_functions); once."},
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
    /* object.__new__(Array) as without the compiled base (see ArrayBase) */
    ArrayBase_Type.tp_new = PyBaseObject_Type.tp_new;
    if (PyType_Ready(&ArrayBase_Type) < 0 || PyType_Ready(&FastOp_Type) < 0 ||
        PyType_Ready(&DevEntry_Type) < 0)
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
    INTERN(s_dunder_getitem, "__getitem__");
    INTERN(s_dunder_setitem, "__setitem__");
    char name[32];
    for (int i = 0; i < N_BINARY; i++) {
        PyOS_snprintf(name, sizeof(name), "__%s__", binary_names[i]);
        INTERN(fwd_names[i], name);
        PyOS_snprintf(name, sizeof(name), "__r%s__", binary_names[i]);
        INTERN(refl_names[i], name);
        PyOS_snprintf(name, sizeof(name), "__i%s__", binary_names[i]);
        INTERN(inpl_names[i], name);
    }
    for (int i = 0; i < 6; i++)
        INTERN(compare_strs[i], compare_names[i]);
    for (int i = 0; i < 4; i++)
        INTERN(unary_strs[i], unary_names[i]);
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
