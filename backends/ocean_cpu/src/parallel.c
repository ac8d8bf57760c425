/*
 * ocean_cpu._parallel_c: the size test in front of the CPU table's entries
 * that may run on several threads.
 *
 * Parallel(func, strategy, mode, limit) is a callable that stands in a table
 * entry for ``func`` (a NumPy ufunc or a function of the backend).  A call
 * whose array operands are all smaller than ``limits[limit]`` elements goes
 * straight to ``func`` with the same arguments (a few nanoseconds more than
 * calling ``func`` itself); a larger one calls ``strategy(func, *args,
 * **kwargs)``, the Python code of ``ocean_cpu._parallel`` that splits the work
 * across threads.  Which operands count (``mode``):
 *
 *   0  every positional NumPy array and the keyword ``out`` (elementwise
 *      functions, ``where``, ``clip``)
 *   1  the first argument (reductions, ``astype``, ``copy``)
 *   2  the NumPy arrays of the list or tuple that is the first argument,
 *      summed (``concat``, ``stack``)
 *   3  the third argument (``setitem``: the value copied in)
 *
 * ``limits`` is one small array of thresholds (in elements) shared by every
 * entry, set from Python (``set_limit``), so that the thresholds can be
 * changed at run time (tests lower them).  An instance has a ``__dict__``:
 * ``ocean_cpu._parallel`` copies the wrapped function's ``__name__``,
 * ``__qualname__``, ``__module__`` and ``__doc__`` there, and
 * ``_size_limit`` is a capsule holding the address of the entry's threshold,
 * which the compiled fast path of the front end reads before it replaces a
 * call of this entry by NumPy's C function (``PyArray_Where`` for ``where``).
 *
 * A quick path (``quick``, ``layout``, ``keywords``): where ``func`` is a
 * Python function that only calls one C function (``sum`` calls
 * ``numpy.add.reduce``), calling ``func`` from here costs the interpreter a
 * new C-level frame (about 60 ns, 4% of a small ``sum``: more than the size
 * test).  An entry may name that C function as ``quick`` and how ``func``
 * passes its arguments on: ``layout`` gives, for each positional argument of
 * ``quick``, the index of the call's argument (-1: None), and ``keywords``
 * pairs (name, index, no name twice) passed by keyword.  A call below the
 * threshold and above zero elements (by the size test of its mode), with
 * exactly the positional arguments the layout reads, no keywords, and a
 * NumPy array (not a subclass) as its first argument, calls ``quick`` so;
 * every other small call calls ``func``.  ``quick`` must give what ``func``
 * gives for such calls (tests/backends/test_parallel.py checks the backend's
 * entries).
 *
 * The pure Python twin is ``ocean_cpu._parallel.ParallelPy``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <stddef.h>
#include <string.h>

#define N_LIMITS 8
#define MAX_QUICK 8 /* arguments of a quick call */
#define LIMIT_CAPSULE "ocean_cpu._parallel_c.limit"

static Py_ssize_t limits[N_LIMITS] = {
    PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX,
    PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX};

enum { M_ALL, M_FIRST, M_SEQUENCE, M_THIRD, N_MODES };

static PyObject *s_out = NULL; /* "out", interned */

typedef struct {
    PyObject_HEAD
    PyObject *func;     /* the wrapped callable */
    PyObject *strategy; /* strategy(func, *args, **kwargs) for large calls */
    PyObject *dict;
    PyObject *weakrefs;
    PyObject *quick;     /* NULL, or the C function small calls go to */
    PyObject *layout;    /* tuple of int (as given; for pickling) */
    PyObject *keywords;  /* tuple of (str, int) (as given) */
    PyObject *qkwnames;  /* NULL, or the keyword names of a quick call */
    int mode, limit;
    int nin;             /* positional arguments a quick call has */
    int nqpos, nq;       /* quick's positional and all arguments */
    signed char index[MAX_QUICK]; /* the call's argument for each, -1: None */
    vectorcallfunc vectorcall;
} Parallel;

/* The size of a NumPy array operand, 0 for anything else.  Every call of
 * an entry, and every call of the compiled fast path through ``_C_direct``,
 * asks this of each operand, so the common cases come first: an ndarray
 * (the product of its dimensions, inline: NumPy's PyArray_MultiplyList is a
 * call through its API table) and a Python scalar (PyArray_Check would walk
 * the scalar type's MRO). */
static inline Py_ssize_t
array_size(PyObject *o)
{
    if (!Py_IS_TYPE(o, &PyArray_Type)) {
        if (PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyComplex_CheckExact(o) ||
            PyBool_Check(o) || o == Py_None || !PyArray_Check(o))
            return 0;
    }
    PyArrayObject *a = (PyArrayObject *)o;
    const npy_intp *dims = PyArray_DIMS(a);
    Py_ssize_t n = 1;
    for (int i = 0, nd = PyArray_NDIM(a); i < nd; i++)
        n *= dims[i]; /* cannot overflow: the array exists */
    return n;
}

/* The number of elements that decides (see the modes above).  Inlined:
 * the compiled fast path asks it before every small operation. */
static inline Py_ALWAYS_INLINE Py_ssize_t
call_size(Parallel *self, PyObject *const *args, Py_ssize_t nargs,
          PyObject *kwnames)
{
    Py_ssize_t size = 0;
    switch (self->mode) {
    case M_ALL:
        for (Py_ssize_t i = 0; i < nargs; i++) {
            Py_ssize_t s = array_size(args[i]);
            if (s > size)
                size = s;
        }
        if (kwnames != NULL) {
            Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
            for (Py_ssize_t i = 0; i < nkw; i++) {
                PyObject *k = PyTuple_GET_ITEM(kwnames, i);
                /* keyword names are str (CPython checks), so the comparison
                 * cannot fail */
                if (k == s_out ||
                    (PyUnicode_Check(k) && PyUnicode_Compare(k, s_out) == 0)) {
                    Py_ssize_t s = array_size(args[nargs + i]);
                    if (s > size)
                        size = s;
                }
            }
        }
        break;
    case M_FIRST:
        if (nargs >= 1)
            size = array_size(args[0]);
        break;
    case M_SEQUENCE:
        if (nargs >= 1 && (PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0]))) {
            /* a strong reference: the list may be changed by no one here
             * (nothing below runs Python code), but hold it all the same */
            PyObject *seq = Py_NewRef(args[0]);
            Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
            PyObject **items = PySequence_Fast_ITEMS(seq);
            for (Py_ssize_t i = 0; i < n; i++) {
                Py_ssize_t s = array_size(items[i]);
                size = s > PY_SSIZE_T_MAX - size ? PY_SSIZE_T_MAX : size + s;
            }
            Py_DECREF(seq);
        }
        break;
    case M_THIRD:
        if (nargs >= 3)
            size = array_size(args[2]);
        break;
    }
    return size;
}

static PyObject *
par_vectorcall(Parallel *self, PyObject *const *args, size_t nargsf,
               PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *func = self->func, *strategy = self->strategy;
    if (func == NULL || strategy == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Parallel: not initialised");
        return NULL;
    }
    Py_ssize_t size = call_size(self, args, nargs, kwnames);
    if (size < limits[self->limit]) {
        PyObject *quick = self->quick;
        if (quick != NULL && size > 0 && kwnames == NULL && nargs == self->nin &&
            PyArray_CheckExact(args[0])) {
            PyObject *buf[MAX_QUICK];
            for (int i = 0; i < self->nq; i++) {
                int k = self->index[i];
                buf[i] = k < 0 ? Py_None : args[k];
            }
            Py_INCREF(quick); /* held across the call, whatever happens to self */
            PyObject *res = PyObject_Vectorcall(quick, buf, (size_t)self->nqpos,
                                                self->qkwnames);
            Py_DECREF(quick);
            return res;
        }
        Py_INCREF(func);
        PyObject *res = PyObject_Vectorcall(func, args, nargsf, kwnames);
        Py_DECREF(func);
        return res;
    }
    /* strategy(func, *args, **kwargs) */
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    Py_ssize_t total = nargs + nkw;
    PyObject *small[9];
    PyObject **buf = small;
    if (total + 1 > 9) {
        buf = PyMem_Malloc((size_t)(total + 1) * sizeof(PyObject *));
        if (buf == NULL)
            return PyErr_NoMemory();
    }
    Py_INCREF(func);
    Py_INCREF(strategy);
    buf[0] = func;
    for (Py_ssize_t i = 0; i < total; i++)
        buf[i + 1] = args[i];
    PyObject *res = PyObject_Vectorcall(strategy, buf, (size_t)(nargs + 1), kwnames);
    Py_DECREF(func);
    Py_DECREF(strategy);
    if (buf != small)
        PyMem_Free(buf);
    return res;
}

static PyTypeObject Parallel_Type;

/* For the compiled fast path of the front end (ocean_array_api/src/fastpath.c,
 * through the capsule ``_C_direct``): the function that the call
 * ``f(*args)`` would go straight to, borrowed (``f`` holds it), when ``f`` is
 * a Parallel and the call is below its threshold; else NULL.  No error is
 * set and no Python code runs, so the caller may call the result at once
 * (holding ``f``'s table entry) and save the Parallel's own call. */
static PyObject *
parallel_direct(PyObject *f, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    if (Py_TYPE(f) != &Parallel_Type)
        return NULL;
    Parallel *self = (Parallel *)f;
    if (self->func == NULL || self->strategy == NULL)
        return NULL;
    if (call_size(self, args, nargs, kwnames) >= limits[self->limit])
        return NULL;
    return self->func;
}

static PyObject *
par_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *func, *strategy, *quick = Py_None, *layout = NULL, *keywords = NULL;
    int mode = M_ALL, limit = 0;
    static char *kwlist[] = {"func",  "strategy", "mode",     "limit",
                             "quick", "layout",   "keywords", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|iiOO!O!:Parallel", kwlist, &func,
                                     &strategy, &mode, &limit, &quick, &PyTuple_Type,
                                     &layout, &PyTuple_Type, &keywords))
        return NULL;
    if (!PyCallable_Check(func) || !PyCallable_Check(strategy)) {
        PyErr_SetString(PyExc_TypeError, "Parallel(): func and strategy must be callable");
        return NULL;
    }
    if (mode < 0 || mode >= N_MODES || limit < 0 || limit >= N_LIMITS) {
        PyErr_SetString(PyExc_ValueError, "Parallel(): mode or limit out of range");
        return NULL;
    }
    if (quick != Py_None && !PyCallable_Check(quick)) {
        PyErr_SetString(PyExc_TypeError, "Parallel(): quick must be callable or None");
        return NULL;
    }
    /* the quick call's arguments: the layout's, then the keywords' */
    signed char index[MAX_QUICK];
    int nqpos = layout ? (int)PyTuple_GET_SIZE(layout) : 0;
    int nkw = keywords ? (int)PyTuple_GET_SIZE(keywords) : 0;
    int nin = 0;
    PyObject *qkwnames = NULL;
    if (quick != Py_None) {
        if (layout == NULL || nqpos < 1 || nqpos + nkw > MAX_QUICK) {
            PyErr_SetString(PyExc_ValueError,
                            "Parallel(): quick needs a layout of 1 to 8 arguments");
            return NULL;
        }
        if (nkw > 0 && (qkwnames = PyTuple_New(nkw)) == NULL)
            return NULL;
        for (int i = 0; i < nqpos + nkw; i++) {
            PyObject *k;
            if (i < nqpos) {
                k = PyTuple_GET_ITEM(layout, i);
            }
            else {
                PyObject *pair = PyTuple_GET_ITEM(keywords, i - nqpos);
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                    !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0))) {
                    PyErr_SetString(PyExc_TypeError,
                                    "Parallel(): keywords must be (name, index) pairs");
                    Py_XDECREF(qkwnames);
                    return NULL;
                }
                PyObject *name = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
                PyUnicode_InternInPlace(&name);
                for (int j = 0; j < i - nqpos; j++) {
                    if (PyUnicode_Compare(PyTuple_GET_ITEM(qkwnames, j), name) == 0) {
                        PyErr_SetString(PyExc_ValueError,
                                        "Parallel(): a keyword of quick named twice");
                        Py_DECREF(name);
                        Py_XDECREF(qkwnames);
                        return NULL;
                    }
                }
                PyTuple_SET_ITEM(qkwnames, i - nqpos, name);
                k = PyTuple_GET_ITEM(pair, 1);
            }
            int overflow = 0;
            long v = PyLong_Check(k) ? PyLong_AsLongAndOverflow(k, &overflow) : -2;
            if (overflow || v < -1 || v >= MAX_QUICK || (i >= nqpos && v < 0)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError,
                                "Parallel(): a layout index must be -1 (None) or an "
                                "argument index below 8 (keywords: not -1)");
                Py_XDECREF(qkwnames);
                return NULL;
            }
            index[i] = (signed char)v;
            if (v + 1 > nin)
                nin = (int)v + 1;
        }
    }
    Parallel *self = (Parallel *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_XDECREF(qkwnames);
        return NULL;
    }
    self->func = Py_NewRef(func);
    self->strategy = Py_NewRef(strategy);
    self->mode = mode;
    self->limit = limit;
    if (quick != Py_None) {
        self->quick = Py_NewRef(quick);
        self->layout = Py_NewRef(layout);
        self->keywords = keywords ? Py_NewRef(keywords) : PyTuple_New(0);
        if (self->keywords == NULL) {
            Py_XDECREF(qkwnames);
            Py_DECREF(self);
            return NULL;
        }
        self->qkwnames = qkwnames;
        self->nin = nin;
        self->nqpos = nqpos;
        self->nq = nqpos + nkw;
        memcpy(self->index, index, sizeof(index));
    }
    self->vectorcall = (vectorcallfunc)par_vectorcall;
    return (PyObject *)self;
}

static int
par_traverse(Parallel *self, visitproc visit, void *arg)
{
    Py_VISIT(self->func);
    Py_VISIT(self->strategy);
    Py_VISIT(self->dict);
    Py_VISIT(self->quick);
    return 0;
}

static int
par_clear(Parallel *self)
{
    Py_CLEAR(self->func);
    Py_CLEAR(self->strategy);
    Py_CLEAR(self->dict);
    Py_CLEAR(self->quick);
    Py_CLEAR(self->layout);
    Py_CLEAR(self->keywords);
    Py_CLEAR(self->qkwnames);
    return 0;
}

static void
par_dealloc(Parallel *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    par_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
par_get_wrapped(Parallel *self, void *closure)
{
    (void)closure;
    if (self->func == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->func);
}

static PyObject *
par_get_strategy(Parallel *self, void *closure)
{
    (void)closure;
    if (self->strategy == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->strategy);
}

static PyObject *
par_get_quick(Parallel *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->quick ? self->quick : Py_None);
}

static PyObject *
par_get_layout(Parallel *self, void *closure)
{
    (void)closure;
    return self->layout ? Py_NewRef(self->layout) : PyTuple_New(0);
}

static PyObject *
par_get_keywords(Parallel *self, void *closure)
{
    (void)closure;
    return self->keywords ? Py_NewRef(self->keywords) : PyTuple_New(0);
}

static PyObject *
par_get_mode(Parallel *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->mode);
}

static PyObject *
par_get_limit(Parallel *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->limit);
}

static PyObject *
par_get_size_limit(Parallel *self, void *closure)
{
    (void)closure;
    return PyCapsule_New(&limits[self->limit], LIMIT_CAPSULE, NULL);
}

static PyObject *
par_get(Parallel *self, PyObject *obj, PyObject *type)
{
    (void)obj;
    (void)type;
    /* like a builtin function: no binding as a method */
    return Py_NewRef(self);
}

static PyGetSetDef par_getset[] = {
    {"__wrapped__", (getter)par_get_wrapped, NULL, "The wrapped callable.", NULL},
    {"strategy", (getter)par_get_strategy, NULL,
     "What large calls call: strategy(func, *args, **kwargs).", NULL},
    {"mode", (getter)par_get_mode, NULL, "Which operands count (see the module).",
     NULL},
    {"quick", (getter)par_get_quick, NULL,
     "The C function small calls go to when the layout applies, or None.", NULL},
    {"layout", (getter)par_get_layout, NULL,
     "quick's positional arguments: indices of the call's (-1: None).", NULL},
    {"keywords", (getter)par_get_keywords, NULL,
     "quick's keyword arguments: (name, index) pairs.", NULL},
    {"limit", (getter)par_get_limit, NULL, "Index of the threshold in the limits.",
     NULL},
    {"_size_limit", (getter)par_get_size_limit, NULL,
     "A capsule with the address of this entry's threshold (for the fast path).",
     NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}};

static PyObject *
par_reduce(Parallel *self, PyObject *unused)
{
    (void)unused;
    /* Parallel(func, strategy, mode, limit) with its __dict__ as the state:
     * dask graphs that hold table entries pickle them */
    if (self->func == NULL || self->strategy == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Parallel: not initialised");
        return NULL;
    }
    PyObject *state = self->dict ? Py_NewRef(self->dict) : Py_NewRef(Py_None);
    PyObject *res;
    if (self->quick != NULL)
        res = Py_BuildValue("O(OOiiOOO)N", (PyObject *)Py_TYPE(self), self->func,
                            self->strategy, self->mode, self->limit, self->quick,
                            self->layout, self->keywords, state);
    else
        res = Py_BuildValue("O(OOii)N", (PyObject *)Py_TYPE(self), self->func,
                            self->strategy, self->mode, self->limit, state);
    return res;
}

static PyMethodDef par_methods[] = {
    {"__reduce__", (PyCFunction)par_reduce, METH_NOARGS, NULL},
    {NULL}};

static PyTypeObject Parallel_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ocean_cpu._parallel_c.Parallel",
    .tp_basicsize = sizeof(Parallel),
    .tp_dealloc = (destructor)par_dealloc,
    .tp_vectorcall_offset = offsetof(Parallel, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A CPU table entry that sends large calls to a parallel strategy.",
    .tp_traverse = (traverseproc)par_traverse,
    .tp_clear = (inquiry)par_clear,
    .tp_getset = par_getset,
    .tp_methods = par_methods,
    .tp_dictoffset = offsetof(Parallel, dict),
    .tp_weaklistoffset = offsetof(Parallel, weakrefs),
    .tp_descr_get = (descrgetfunc)par_get,
    .tp_new = par_new,
};

static PyObject *
set_limit(PyObject *mod, PyObject *args)
{
    (void)mod;
    int i;
    Py_ssize_t value;
    if (!PyArg_ParseTuple(args, "in:set_limit", &i, &value))
        return NULL;
    if (i < 0 || i >= N_LIMITS) {
        PyErr_SetString(PyExc_IndexError, "set_limit(): index out of range");
        return NULL;
    }
    if (value < 0)
        value = 0;
    Py_ssize_t old = limits[i];
    limits[i] = value;
    return PyLong_FromSsize_t(old);
}

static PyObject *
get_limit(PyObject *mod, PyObject *args)
{
    (void)mod;
    int i;
    if (!PyArg_ParseTuple(args, "i:get_limit", &i))
        return NULL;
    if (i < 0 || i >= N_LIMITS) {
        PyErr_SetString(PyExc_IndexError, "get_limit(): index out of range");
        return NULL;
    }
    return PyLong_FromSsize_t(limits[i]);
}

static PyMethodDef module_methods[] = {
    {"set_limit", set_limit, METH_VARARGS,
     "set_limit(i, n) -> previous: calls of entries with limit i and at least n "
     "elements take the parallel strategy."},
    {"get_limit", get_limit, METH_VARARGS, "get_limit(i) -> the threshold i."},
    {NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_parallel_c",
    "The size test in front of the CPU table's parallel entries.", -1,
    module_methods};

PyMODINIT_FUNC
PyInit__parallel_c(void)
{
    import_array();
    s_out = PyUnicode_InternFromString("out");
    if (s_out == NULL || PyType_Ready(&Parallel_Type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *direct =
        PyCapsule_New((void *)parallel_direct, "ocean_cpu._parallel_c._C_direct", NULL);
    if (direct == NULL || PyModule_AddObject(m, "_C_direct", direct) < 0) {
        Py_XDECREF(direct);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Parallel", (PyObject *)&Parallel_Type) < 0 ||
        PyModule_AddIntConstant(m, "N_LIMITS", N_LIMITS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
