/* The hit path of the eager dispatch cache (xnp/numpy_api/_replay.py) in C.
 *
 * ``signature(args, kwargs, leaves, part, no_signature)`` is the cache key of a call, a
 * ``Signature``: what decides the call's recording, as machine words hashed once, plus a
 * tuple of the Python objects that are compared by value. Per positional argument, then
 * per keyword (its name, then its value), then, when an array is passed more than once,
 * which leaves are the same object:
 *
 * - an eager ``Array`` (the exact class registered with ``configure``, holding host
 *   memory: ``_dev`` is None) whose value is a NumPy array: its dtype, ndim, shape,
 *   element strides in bytes and weak type, read from the array's struct. A dtype that is
 *   NumPy's own descriptor of its type number (the builtin and registered types, which
 *   live as long as the process) is a word holding its address; any other dtype object is
 *   compared by value;
 * - a Python int that fits in 64 bits, a bool, None, Ellipsis and a float (its 8 bytes):
 *   words; a slice: a word, then its start, stop and step as arguments;
 * - anything else (a str, a large int, tuples, dtypes, NumPy scalars, jit outputs, ...):
 *   ``part(arg, leaves)``, the Python rules of ``_replay._part``, compared by value.
 *
 * Two calls have equal keys exactly when the Python key (``_replay._py_signature``) of one
 * equals the other's. Each array met is appended to ``leaves``. It returns None when an
 * argument has no signature (``part`` raised ``no_signature``, or an array holds no value).
 * Both the hit path below and the Python miss path compute keys with this one function.
 *
 * ``Replay(slow, full, cache, refused, ctx)`` is a function's cached full path:
 * a call whose signature's entry in ``cache`` is a program runs it (``program.single``,
 * a program whose result is one new array, here; any other ``program.run(leaves)``) (after
 * setting the "new signatures in a row" count to 0); an entry of class ``refused``
 * runs ``full``; anything else (a miss, a call while the cache is off, skipping, or while
 * the calling thread transforms) is ``slow(*args, **kwargs)``, the Python function that
 * decides, records and stores. ``ctx`` is the module's shared state, a tuple
 * ``(on, check, misses, scopes, busy, state, base, part, no_signature, check_hit,
 * check_error, check_before)``: one-element lists ``on`` (cache on) and ``check`` (check
 * mode), this function's ``misses`` list ``[in_a_row, skip]``, the tracing layer's
 * ``scopes`` count, ``busy`` set of tracing threads, per-thread ``state`` and ``base``
 * trace; in check mode ``check_before(program, leaves)`` is called before a replay (it
 * keeps what a program that writes into its inputs will overwrite), the replay is handed
 * to ``check_hit(full, out, args, kwargs, leaves)`` and an exception of one to
 * ``check_error(full, args, kwargs, exc)`` (which raises). It binds as a method,
 * has a ``__dict__`` (``functools.wraps`` dresses it as ``full``) and pickles by reference,
 * as a function does (``__module__`` and ``__qualname__``).
 *
 * The key is built in signature.c, programs run in program.c (replay.h).
 */
#define XNP_REPLAY_IMPORTS_NUMPY
#include "replay.h"
#include <math.h>

PyTypeObject *xnp_array_type = NULL;
PyObject *xnp_empty_tuple = NULL;
static PyObject *str_trace;

static PyObject *
signature(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyTuple_Check(args[0]) || !PyDict_Check(args[1]) ||
        !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "signature(args: tuple, kwargs: dict, leaves: list, part, no_signature)");
        return NULL;
    }
    if (xnp_array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "xnp._native._replay: configure() not called");
        return NULL;
    }
    return xnp_make_signature(&PyTuple_GET_ITEM(args[0], 0), PyTuple_GET_SIZE(args[0]), NULL,
                          PyDict_GET_SIZE(args[1]) ? args[1] : NULL, args[2], args[3],
                          args[4]);
}

static PyObject *
configure(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyType_Check(args[0]) || !PyType_Check(args[1]) ||
        !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "configure(array_type, program_type, max_items, "
                        "dtype_types, own_types)");
        return NULL;
    }
    Py_ssize_t items = PyLong_AsSsize_t(args[2]);
    if ((items == -1 && PyErr_Occurred()) ||
        xnp_signature_configure(items, args[3], args[4]) < 0 ||
        xnp_program_configure((PyTypeObject *)args[1]) < 0) {
        return NULL;
    }
    Py_XSETREF(xnp_array_type, (PyTypeObject *)Py_NewRef(args[0]));
    Py_RETURN_NONE;
}

static PyObject *
run_eqns(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "run_eqns(eqns, env, native, wrap)");
        return NULL;
    }
    if (xnp_run_eqns(args[0], args[1], args[2], args[3]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ Replay */

enum { C_ON, C_CHECK, C_MISSES, C_SCOPES, C_BUSY, C_STATE, C_BASE, C_PART, C_NOSIG,
       C_CHECK_HIT, C_CHECK_ERROR, C_CHECK_BEFORE, C_N };

typedef struct {
    PyObject_HEAD
    PyObject *slow;
    PyObject *full;
    PyObject *cache;
    PyObject *refused;
    PyObject *ctx;
    PyObject *rule;  /* NumPy's scalar rule for the results of hits, or None */
    PyObject *generic;  /* a ufunc's programs for any Python float and int operands, or None */
    PyObject *exact;    /* the scalars that keep their exact keys (a frozenset), or None */
    PyObject *dict;
    vectorcallfunc vectorcall;
} ReplayObject;

#define CTX(self, i) PyTuple_GET_ITEM((self)->ctx, (i))

static int
first_true(PyObject *one_element_list)
{
    return PyObject_IsTrue(PyList_GET_ITEM(one_element_list, 0));
}

/* the positional arguments as a tuple and the keywords as a dict (check mode) */
static int
as_call(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **t,
        PyObject **d)
{
    *t = PyTuple_New(nargs);
    *d = PyDict_New();
    if (*t == NULL || *d == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(*t, i, Py_NewRef(args[i]));
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        if (PyDict_SetItem(*d, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) {
            goto error;
        }
    }
    return 0;
error:
    Py_CLEAR(*t);
    Py_CLEAR(*d);
    return -1;
}

/* NumPy's scalar rule (xnp/numpy_api/_scalars.py) on a replay's result ``out`` (a new
 * reference, consumed): a result made only of new arrays here (program.c); anything else
 * is ``rule(args, kwargs, out)``, which keeps an argument returned as it is. The rule
 * ``bool`` (a function NumPy answers with a Python bool, ``allclose``): the truth of the
 * 0-d result. */
static PyObject *
apply_rule(ReplayObject *self, PyObject *out, int all_new, PyObject *const *args,
           Py_ssize_t nargs, PyObject *kwnames)
{
    if (self->rule == (PyObject *)&PyBool_Type) {
        /* the new array's host value (its ``_v``; anything else: its own truth) */
        PyObject *v = PyObject_GetAttrString(out, "_v");
        if (v == NULL) {
            PyErr_Clear();
        }
        int truth = PyObject_IsTrue(v != NULL && v != Py_None ? v : out);
        Py_XDECREF(v);
        Py_DECREF(out);
        return truth < 0 ? NULL : PyBool_FromLong(truth);
    }
    if (all_new) {
        return xnp_scalar_rule(out);
    }
    if (Py_TYPE(out) != xnp_array_type && !PyTuple_Check(out)) {
        return out;  /* a Python value (a metadata function's): the rule keeps it */
    }
    PyObject *t, *d;
    if (as_call(args, nargs, kwnames, &t, &d) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *r = PyObject_CallFunctionObjArgs(self->rule, t, d, out, NULL);
    Py_DECREF(t);
    Py_DECREF(d);
    Py_DECREF(out);
    return r;
}

/* ``dict``'s entry for the key of a call (borrowed, or NULL), the call's arrays appended to
 * ``leaves``: 0, or 1 where the call has no key, or -1 on an error. The key is a probe on
 * the C stack: the lookup keeps no reference to it (a miss makes the slow path compute
 * its own key). */
static int
lookup(ReplayObject *self, PyObject *dict, PyObject *const *args, Py_ssize_t nargs,
       PyObject *kwnames, PyObject *leaves, PyObject **found)
{
    Builder b;
    xnp_builder_init(&b);
    int r = xnp_build_signature(&b, args, nargs, kwnames, NULL, leaves, CTX(self, C_PART),
                                CTX(self, C_NOSIG));
    SignatureObject probe;
    memset(&probe, 0, sizeof probe);
    Py_SET_REFCNT((PyObject *)&probe, PY_SSIZE_T_MAX / 2);  /* never freed */
    Py_SET_TYPE((PyObject *)&probe, &xnp_SignatureType);
    Py_SET_SIZE((PyVarObject *)&probe, b.n);
    probe.words = b.words;
    *found = NULL;
    if (r == 0) {
        r = xnp_finish_signature(&probe, &b);
    }
    if (r == 0) {
        *found = PyDict_GetItemWithError(dict, (PyObject *)&probe);
        r = *found == NULL && PyErr_Occurred() ? -1 : 0;
    }
    Py_XDECREF(probe.values);
    xnp_builder_free(&b);
    return r;
}

/* The stand-ins of Python scalars in a generic key (xnp/numpy_api/_replay.py,
 * ``_float_class``, ``_int_class``): a float by its class, 0.0 (zero, infinities and
 * magnitudes within float16's normal range), 1.0 (within float32's) or 2.0 (any other,
 * NaNs);
 * an int by its class, 0 (0 to 127), 1 (-128 to -1), 2 (within +-2**53) or 3 (any other
 * int64). */
static PyObject *g_fclass[3] = {NULL, NULL, NULL};
static PyObject *g_iclass[4] = {NULL, NULL, NULL, NULL};

static int
int_class(long long v)
{
    if (v >= 0 && v <= 127) {
        return 0;
    }
    if (v >= -128 && v < 0) {
        return 1;
    }
    return v >= -(1LL << 53) && v <= (1LL << 53) ? 2 : 3;
}

static int
float_class(double v)
{
    double m = fabs(v);
    if (isnan(m)) {
        return 2;  /* (a signalling NaN's cast into a narrow float signals: exact keys) */
    }
    if (m == 0.0 || isinf(m) || (m >= 0x1p-14 && m <= 65504.0)) {
        return 0;
    }
    return m >= 0x1p-126 && m <= 0x1.fffffep127 ? 1 : 2;
}

/* The program of ``self->generic`` (``_ScalarGeneric``) for a call whose Python floats and
 * ints stand for any value of their class (the key of its arguments with each float and
 * int its class's stand-in; an int out of int64's range, or a scalar in
 * ``self->exact``, has none), as a new reference in ``*program`` (NULL: none, or a
 * refused key), and in ``*gleaves`` its inputs: the arrays, then a weak 0-d float64
 * (int64) array of each scalar. -1 on an error. */
static int
generic_program(ReplayObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject **program, PyObject **gleaves)
{
    PyObject *plain[8];
    long long ints[8];
    int scalars = 0;
    *program = NULL;
    if (nargs > 8) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        plain[i] = args[i];
        int scalar = PyFloat_CheckExact(args[i]) || PyLong_CheckExact(args[i]);
        if (scalar && self->exact != Py_None) {
            int special = PySet_Contains(self->exact, args[i]);
            if (special != 0) {
                return special < 0 ? -1 : 0;
            }
        }
        if (PyFloat_CheckExact(args[i])) {
            plain[i] = g_fclass[float_class(PyFloat_AS_DOUBLE(args[i]))];
            scalars++;
        }
        else if (PyLong_CheckExact(args[i])) {
            int overflow;
            ints[i] = PyLong_AsLongLongAndOverflow(args[i], &overflow);
            if (overflow) {
                return 0;
            }
            plain[i] = g_iclass[int_class(ints[i])];
            scalars++;
        }
    }
    if (!scalars) {
        return 0;
    }
    PyObject *leaves = PyList_New(0);
    if (leaves == NULL) {
        return -1;
    }
    PyObject *found = NULL;  /* (borrowed) */
    int r = lookup(self, self->generic, plain, nargs, NULL, leaves, &found);
    if (r != 0 || found == NULL || Py_TYPE(found) == (PyTypeObject *)self->refused) {
        Py_DECREF(leaves);
        return r < 0 ? -1 : 0;
    }
    Py_INCREF(found);  /* another thread may clear the cache meanwhile */
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyObject *value;
        if (PyFloat_CheckExact(args[i])) {
            value = PyArray_SimpleNew(0, NULL, NPY_DOUBLE);
            if (value != NULL) {
                *(double *)PyArray_DATA((PyArrayObject *)value) = PyFloat_AS_DOUBLE(args[i]);
            }
        }
        else if (PyLong_CheckExact(args[i])) {
            value = PyArray_SimpleNew(0, NULL, NPY_INT64);
            if (value != NULL) {
                *(npy_int64 *)PyArray_DATA((PyArrayObject *)value) = (npy_int64)ints[i];
            }
        }
        else {
            continue;
        }
        if (value == NULL) {
            goto error;
        }
        PyObject *scalar = xnp_new_array(value, Py_True);
        Py_DECREF(value);
        if (scalar == NULL || PyList_Append(leaves, scalar) < 0) {
            Py_XDECREF(scalar);
            goto error;
        }
        Py_DECREF(scalar);
    }
    *program = found;
    *gleaves = leaves;
    return 0;
error:
    Py_DECREF(found);
    Py_DECREF(leaves);
    return -1;
}

static PyObject *
replay_vectorcall(ReplayObject *self, PyObject *const *args, size_t nargsf,
                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int on = first_true(CTX(self, C_ON));
    if (on <= 0) {  /* (slow: the fast path may still learn from a recording) */
        return on < 0 ? NULL : PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
    if (PySet_GET_SIZE(CTX(self, C_BUSY))) {  /* some thread transforms: is it this one? */
        PyObject *trace = PyObject_GetAttr(CTX(self, C_STATE), str_trace);
        if (trace == NULL) {
            return NULL;
        }
        Py_DECREF(trace);
        if (trace != CTX(self, C_BASE)) {
            return PyObject_Vectorcall(self->full, args, nargsf, kwnames);
        }
    }
    PyObject *scopes = PyList_GET_ITEM(CTX(self, C_SCOPES), 0);
    PyObject *misses = CTX(self, C_MISSES);
    int skip = PyObject_IsTrue(PyList_GET_ITEM(misses, 1));
    if (scopes != NULL && PyObject_IsTrue(scopes)) {
        return PyObject_Vectorcall(self->full, args, nargsf, kwnames);
    }
    if (skip) {
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
    PyObject *leaves = PyList_New(0);
    if (leaves == NULL) {
        return NULL;
    }
    PyObject *program = NULL;  /* (borrowed) */
    int r = lookup(self, self->cache, args, nargs, kwnames, leaves, &program);
    if (r != 0) {
        Py_DECREF(leaves);
        return r < 0 ? NULL : PyObject_Vectorcall(self->full, args, nargsf, kwnames);
    }
    if (program == NULL) {
        PyObject *gleaves = NULL;
        if (self->generic != Py_None && kwnames == NULL &&
            generic_program(self, args, nargs, &program, &gleaves) < 0) {
            Py_DECREF(leaves);
            return NULL;
        }
        if (program == NULL) {
            Py_DECREF(leaves);
            return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
        }
        Py_SETREF(leaves, gleaves);  /* (program: a new reference) */
    }
    else {
        Py_INCREF(program);  /* another thread may clear the cache meanwhile */
    }
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL || PyList_SetItem(misses, 0, zero) < 0) {
        Py_DECREF(program);
        Py_DECREF(leaves);
        return NULL;
    }
    if (Py_TYPE(program) == (PyTypeObject *)self->refused) {
        Py_DECREF(program);
        Py_DECREF(leaves);
        return PyObject_Vectorcall(self->full, args, nargsf, kwnames);
    }
    int check = first_true(CTX(self, C_CHECK));
    if (check > 0) {
        PyObject *r = PyObject_CallFunctionObjArgs(CTX(self, C_CHECK_BEFORE), program, leaves,
                                                   NULL);
        check = r == NULL ? -1 : 1;
        Py_XDECREF(r);
    }
    if (check < 0) {
        Py_DECREF(program);
        Py_DECREF(leaves);
        return NULL;
    }
    int all_new = 0;  /* out holds only arrays the program made (no argument) */
    /* NumPy's warnings at the user's line where a kernel's Python frame would be named */
    PyObject *token = NULL;
    int entered = xnp_program_runs_python(program) ? xnp_user_line_enter(&token) : 0;
    PyObject *out = entered < 0 ? NULL : xnp_run_program(program, leaves, &all_new);
    if (entered > 0) {
        xnp_user_line_exit(token);
    }
    Py_DECREF(program);
    if (out != NULL && self->rule != Py_None) {
        out = apply_rule(self, out, all_new, args, nargs, kwnames);
    }
    if (check != 0) {
        PyObject *t, *d;
        if (as_call(args, nargs, kwnames, &t, &d) < 0) {
            Py_XDECREF(out);
            Py_DECREF(leaves);
            return NULL;
        }
        if (out == NULL) {  /* the full path must raise the same: check_error raises */
            PyObject *type, *exc, *tb;
            PyErr_Fetch(&type, &exc, &tb);
            PyErr_NormalizeException(&type, &exc, &tb);
            if (tb != NULL) {
                PyException_SetTraceback(exc, tb);
            }
            PyObject *r = PyObject_CallFunctionObjArgs(CTX(self, C_CHECK_ERROR), self->full,
                                                       t, d, exc, NULL);
            if (r != NULL) {  /* (it returned: the replay's own error propagates) */
                Py_DECREF(r);
                PyErr_Restore(type, exc, tb);
            }
            else {
                Py_XDECREF(type);
                Py_XDECREF(exc);
                Py_XDECREF(tb);
            }
        }
        else {
            PyObject *r = PyObject_CallFunctionObjArgs(CTX(self, C_CHECK_HIT), self->full,
                                                       out, t, d, leaves, NULL);
            if (r == NULL) {
                Py_CLEAR(out);
            }
            Py_XDECREF(r);
        }
        Py_DECREF(t);
        Py_DECREF(d);
    }
    Py_DECREF(leaves);
    return out;
}

static PyObject *
replay_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow, *full, *cache, *refused, *ctx, *rule = Py_None, *generic = Py_None,
             *exact = Py_None;
    static char *kwlist[] = {"slow", "full", "cache", "refused", "ctx", "rule", "generic",
                             "exact", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO!O!O!|OOO:Replay", kwlist, &slow, &full,
                                     &PyDict_Type, &cache, &PyType_Type, &refused,
                                     &PyTuple_Type, &ctx, &rule, &generic, &exact)) {
        return NULL;
    }
    if (generic != Py_None && !PyDict_Check(generic)) {
        PyErr_SetString(PyExc_TypeError, "Replay: generic is a dict or None");
        return NULL;
    }
    if (exact != Py_None && !PyFrozenSet_Check(exact)) {
        PyErr_SetString(PyExc_TypeError, "Replay: exact is a frozenset or None");
        return NULL;
    }
    if (PyTuple_GET_SIZE(ctx) != C_N || !PyList_Check(PyTuple_GET_ITEM(ctx, C_ON)) ||
        !PyList_Check(PyTuple_GET_ITEM(ctx, C_CHECK)) ||
        !PyList_Check(PyTuple_GET_ITEM(ctx, C_MISSES)) ||
        !PyList_Check(PyTuple_GET_ITEM(ctx, C_SCOPES)) ||
        !PyAnySet_Check(PyTuple_GET_ITEM(ctx, C_BUSY)) ||
        PyList_GET_SIZE(PyTuple_GET_ITEM(ctx, C_ON)) != 1 ||
        PyList_GET_SIZE(PyTuple_GET_ITEM(ctx, C_CHECK)) != 1 ||
        PyList_GET_SIZE(PyTuple_GET_ITEM(ctx, C_MISSES)) != 2 ||
        PyList_GET_SIZE(PyTuple_GET_ITEM(ctx, C_SCOPES)) != 1) {
        PyErr_SetString(PyExc_TypeError, "Replay: ctx is (on, check, misses, scopes, busy, "
                        "state, base, part, no_signature, check_hit, check_error, "
                        "check_before)");
        return NULL;
    }
    if (xnp_array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "xnp._native._replay: configure() not called");
        return NULL;
    }
    ReplayObject *self = (ReplayObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->slow = Py_NewRef(slow);
    self->full = Py_NewRef(full);
    self->cache = Py_NewRef(cache);
    self->refused = Py_NewRef(refused);
    self->ctx = Py_NewRef(ctx);
    self->rule = Py_NewRef(rule);
    self->generic = Py_NewRef(generic);
    self->exact = Py_NewRef(exact);
    self->vectorcall = (vectorcallfunc)replay_vectorcall;
    return (PyObject *)self;
}

static int
replay_traverse(ReplayObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->full);
    Py_VISIT(self->cache);
    Py_VISIT(self->refused);
    Py_VISIT(self->ctx);
    Py_VISIT(self->rule);
    Py_VISIT(self->generic);
    Py_VISIT(self->exact);
    Py_VISIT(self->dict);
    return 0;
}

static int
replay_clear(ReplayObject *self)
{
    Py_CLEAR(self->slow);
    Py_CLEAR(self->full);
    Py_CLEAR(self->cache);
    Py_CLEAR(self->refused);
    Py_CLEAR(self->ctx);
    Py_CLEAR(self->rule);
    Py_CLEAR(self->generic);
    Py_CLEAR(self->exact);
    Py_CLEAR(self->dict);
    return 0;
}

static void
replay_dealloc(ReplayObject *self)
{
    PyObject_GC_UnTrack(self);
    replay_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
replay_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
replay_repr(ReplayObject *self)
{
    return PyUnicode_FromFormat("<dispatch cache of %R>", self->full);
}

/* pickled by reference, as a function: its module's attribute named ``__qualname__`` */
static PyObject *
replay_reduce(PyObject *self, PyObject *unused)
{
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyMethodDef replay_methods[] = {
    {"__reduce__", replay_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

static PyMemberDef replay_members[] = {
    {"_replay_slow", T_OBJECT_EX, offsetof(ReplayObject, slow), READONLY, NULL},
    {"_replay_full", T_OBJECT_EX, offsetof(ReplayObject, full), READONLY, NULL},
    {"_replay_refused", T_OBJECT_EX, offsetof(ReplayObject, refused), READONLY, NULL},
    {"_replay_ctx", T_OBJECT_EX, offsetof(ReplayObject, ctx), READONLY, NULL},
    {"_replay_generic", T_OBJECT_EX, offsetof(ReplayObject, generic), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(ReplayObject, vectorcall), READONLY,
     NULL},
    {NULL}
};

static PyGetSetDef replay_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}
};

static PyTypeObject ReplayType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xnp._native._replay.Replay",
    .tp_basicsize = sizeof(ReplayObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "Replay(slow, full, cache, refused, ctx): the hit path of the eager dispatch "
              "cache (see xnp.numpy_api._replay).",
    .tp_traverse = (traverseproc)replay_traverse,
    .tp_clear = (inquiry)replay_clear,
    .tp_dealloc = (destructor)replay_dealloc,
    .tp_vectorcall_offset = offsetof(ReplayObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = replay_get,
    .tp_repr = (reprfunc)replay_repr,
    .tp_dictoffset = offsetof(ReplayObject, dict),
    .tp_methods = replay_methods,
    .tp_members = replay_members,
    .tp_getset = replay_getset,
    .tp_new = replay_new,
};

/* lax's select_n with a bool ``which`` (NumPy arrays): ``numpy.where(which, case1, case0)``,
 * or for one case its copy broadcast with ``which`` (xp_impls' ``_select_n``), with no
 * Python frame. */
static PyObject *
select_where(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 && nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "select_where(which, case0[, case1])");
        return NULL;
    }
    return PyArray_Where(args[0], args[nargs - 1], args[1]);
}

static PyMethodDef module_methods[] = {
    {"select_where", (PyCFunction)(void (*)(void))select_where, METH_FASTCALL,
     "select_where(which, case0[, case1]): numpy.where(which, case1, case0)."},
    {"signature", (PyCFunction)(void (*)(void))signature, METH_FASTCALL,
     "signature(args, kwargs, leaves, part, no_signature): a call's cache key, or None."},
    {"configure", (PyCFunction)(void (*)(void))configure, METH_FASTCALL,
     "configure(xnp_array_type, program_type, max_items, dtype_types, own_types): the "
     "classes of eager arrays and programs, and the rules of the key."},
    {"run_eqns", (PyCFunction)(void (*)(void))run_eqns, METH_FASTCALL,
     "run_eqns(eqns, env, native, wrap): a recorded program's equations run on env."},
    {"at_user_line", (PyCFunction)(void (*)(void))xnp_at_user_line,
     METH_FASTCALL | METH_KEYWORDS,
     "at_user_line(fn, *args, **kwargs): fn's call, NumPy's floating-point warnings named "
     "at the first frame outside xnp."},
    {"configure_user_line", (PyCFunction)(void (*)(void))xnp_configure_user_line,
     METH_FASTCALL,
     "configure_user_line(extobj_var, states, state_of): see user_line.c."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_replay", "The eager dispatch cache's hit path.", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__replay(void)
{
    import_array();
    if (PyType_Ready(&ReplayType) < 0 || xnp_signature_ready() < 0 || xnp_program_ready() < 0) {
        return NULL;
    }
    str_trace = PyUnicode_InternFromString("trace");
    xnp_empty_tuple = PyTuple_New(0);
    int made = 1;
    for (int c = 0; c < 4; c++) {
        if (c < 3) {
            g_fclass[c] = PyFloat_FromDouble((double)c);
            made &= g_fclass[c] != NULL;
        }
        g_iclass[c] = PyLong_FromLong(c);
        made &= g_iclass[c] != NULL;
    }
    if (!str_trace || !xnp_empty_tuple || !made) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Replay", (PyObject *)&ReplayType) < 0 ||
        PyModule_AddObjectRef(m, "Signature", (PyObject *)&xnp_SignatureType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
