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
 * - a Python int that fits in 64 bits, a bool, None and a float (its 8 bytes): words;
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
 * check_error)``: one-element lists ``on`` (cache on) and ``check`` (check mode), this
 * function's ``misses`` list ``[in_a_row, skip]``, the tracing layer's ``scopes`` count,
 * ``busy`` set of tracing threads, per-thread ``state`` and ``base`` trace; in check mode
 * a replay is handed to ``check_hit(full, out, args, kwargs, leaves)`` and an exception
 * of one to ``check_error(full, args, kwargs, exc)`` (which raises). It binds as a method,
 * has a ``__dict__`` (``functools.wraps`` dresses it as ``full``) and pickles by reference,
 * as a function does (``__module__`` and ``__qualname__``).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "array_base.h"

static PyTypeObject *array_type = NULL;
static PyObject *str_dtype, *str_shape, *str_strides, *str_trace, *str_run, *str_single;
static PyObject *str_ndim, *zero_int, *empty_tuple;

/* ------------------------------------------------------------------ Signature */

typedef struct {
    PyObject_VAR_HEAD  /* ob_size: the number of words */
    Py_hash_t hash;
    PyObject *values;  /* the parts compared by value: a tuple */
    uint64_t *words;   /* ``storage``, or (a probe of the hit path, on the C stack) a
                        * builder's words */
    uint64_t storage[1];
} SignatureObject;

static PyTypeObject SignatureType;

/* what a word that starts an argument's part says it is */
enum { W_ARRAY = 1, W_INT, W_BOOL, W_NONE, W_FLOAT, W_VALUE, W_KEYWORD, W_SAME };
/* flags of W_ARRAY: its dtype and its weak type are among ``values`` */
#define W_DTYPE_BY_VALUE (1u << 8)
#define W_WEAK_BY_VALUE (1u << 9)
#define W_WEAK (1u << 10)

static Py_hash_t
signature_hash(SignatureObject *self)
{
    return self->hash;
}

static PyObject *
signature_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(b) != &SignatureType) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    SignatureObject *x = (SignatureObject *)a, *y = (SignatureObject *)b;
    int equal = x == y;
    if (!equal && x->hash == y->hash && Py_SIZE(x) == Py_SIZE(y) &&
        memcmp(x->words, y->words, Py_SIZE(x) * sizeof(uint64_t)) == 0) {
        equal = PyObject_RichCompareBool(x->values, y->values, Py_EQ);
        if (equal < 0) {
            return NULL;
        }
    }
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static void
signature_dealloc(SignatureObject *self)
{
    Py_XDECREF(self->values);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
signature_repr(SignatureObject *self)
{
    return PyUnicode_FromFormat("<call signature of %zd words, values %R>", Py_SIZE(self),
                                self->values);
}

static PyTypeObject SignatureType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xnp._native._replay.Signature",
    .tp_basicsize = offsetof(SignatureObject, storage),
    .tp_itemsize = sizeof(uint64_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The cache key of an eager call (see signature()).",
    .tp_dealloc = (destructor)signature_dealloc,
    .tp_hash = (hashfunc)signature_hash,
    .tp_richcompare = signature_richcompare,
    .tp_repr = (reprfunc)signature_repr,
};

/* a signature being built: its words (inline up to a size, then on the heap) and the
 * list of its values (made when the first one comes) */
#define INLINE_WORDS 64
typedef struct {
    uint64_t inline_words[INLINE_WORDS];
    uint64_t *words;
    Py_ssize_t n, cap;
    PyObject *values;
} Builder;

static int
put(Builder *b, uint64_t w)
{
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap * 2;
        uint64_t *words = PyMem_Malloc(cap * sizeof(uint64_t));
        if (words == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(words, b->words, b->n * sizeof(uint64_t));
        if (b->words != b->inline_words) {
            PyMem_Free(b->words);
        }
        b->words = words;
        b->cap = cap;
    }
    b->words[b->n++] = w;
    return 0;
}

/* appends ``v`` (a new reference, stolen) to the values; -1 on error */
static int
put_value(Builder *b, PyObject *v)
{
    if (v == NULL) {
        return -1;
    }
    if (b->values == NULL && (b->values = PyList_New(0)) == NULL) {
        Py_DECREF(v);
        return -1;
    }
    int r = PyList_Append(b->values, v);
    Py_DECREF(v);
    return r;
}

/* the words of an eager array's value; 1: it holds none (no signature); -1: an error */
static int
put_array(Builder *b, ArrayBaseObject *a)
{
    PyObject *v = a->val;
    if (v == NULL || v == Py_None) {
        return 1;
    }
    uint64_t tag = W_ARRAY;
    if (a->weak == Py_True) {
        tag |= W_WEAK;
    }
    else if (a->weak != NULL && a->weak != Py_False) {
        tag |= W_WEAK_BY_VALUE;
    }
    if (!PyArray_Check(v)) {  /* not a NumPy array: its attributes, by value */
        PyObject *dtype = PyObject_GetAttr(v, str_dtype);
        PyObject *shape = dtype ? PyObject_GetAttr(v, str_shape) : NULL;
        PyObject *strides = shape ? PyObject_GetAttr(v, str_strides) : NULL;
        PyObject *t = strides ? PyTuple_Pack(3, dtype, shape, strides) : NULL;
        Py_XDECREF(dtype);
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        if (put(b, W_VALUE) < 0 || put_value(b, t) < 0) {
            return -1;
        }
        return (tag & W_WEAK_BY_VALUE) ? put_value(b, Py_NewRef(a->weak)) : 0;
    }
    PyArrayObject *arr = (PyArrayObject *)v;
    PyArray_Descr *descr = PyArray_DESCR(arr);
    PyArray_Descr *canonical = PyArray_DescrFromType(descr->type_num);
    if (canonical == NULL) {
        PyErr_Clear();
    }
    else {
        Py_DECREF(canonical);  /* (NumPy's own table holds it) */
    }
    if (canonical != descr) {
        tag |= W_DTYPE_BY_VALUE;
    }
    int nd = PyArray_NDIM(arr);
    if (put(b, tag) < 0 || put(b, (uint64_t)nd) < 0) {
        return -1;
    }
    if (canonical != descr) {
        if (put_value(b, Py_NewRef((PyObject *)descr)) < 0) {
            return -1;
        }
    }
    else if (put(b, (uint64_t)(uintptr_t)descr) < 0) {
        return -1;
    }
    npy_intp *dims = PyArray_DIMS(arr), *strides = PyArray_STRIDES(arr);
    for (int i = 0; i < nd; i++) {
        if (put(b, (uint64_t)dims[i]) < 0 || put(b, (uint64_t)strides[i]) < 0) {
            return -1;
        }
    }
    return (tag & W_WEAK_BY_VALUE) ? put_value(b, Py_NewRef(a->weak)) : 0;
}

/* the part of one argument; 1: it has no signature; -1: an error */
static int
put_part(Builder *b, PyObject *a, PyObject *leaves, PyObject *part, PyObject *no_signature)
{
    PyTypeObject *t = Py_TYPE(a);
    if (t == array_type && ((ArrayBaseObject *)a)->dev == Py_None) {
        int r = put_array(b, (ArrayBaseObject *)a);
        if (r != 0) {
            return r;
        }
        return PyList_Append(leaves, a);
    }
    if (t == &PyLong_Type) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (!overflow) {
            return put(b, W_INT) < 0 ? -1 : put(b, (uint64_t)v);
        }
    }
    else if (t == &PyBool_Type) {
        return put(b, W_BOOL) < 0 ? -1 : put(b, a == Py_True);
    }
    else if (a == Py_None) {
        return put(b, W_NONE);
    }
    else if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(a);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return put(b, W_FLOAT) < 0 ? -1 : put(b, bits);
    }
    PyObject *p = PyObject_CallFunctionObjArgs(part, a, leaves, NULL);
    if (p == NULL) {
        if (PyErr_ExceptionMatches(no_signature)) {
            PyErr_Clear();
            return 1;
        }
        return -1;
    }
    return put(b, W_VALUE) < 0 ? (Py_DECREF(p), -1) : put_value(b, p);
}

/* a 64-bit mix of the words (each word multiplied in, then avalanched) */
static Py_hash_t
hash_words(const uint64_t *w, Py_ssize_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= w[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    Py_hash_t out = (Py_hash_t)h;
    return out == -1 ? -2 : out;
}

static void
builder_init(Builder *b)
{
    b->words = b->inline_words;
    b->n = 0;
    b->cap = INLINE_WORDS;
    b->values = NULL;
}

static void
builder_free(Builder *b)
{
    if (b->words != b->inline_words) {
        PyMem_Free(b->words);
    }
    Py_CLEAR(b->values);
}

/* the words and values of a call's key into ``b``; 0: done, 1: no signature, -1: an error */
static int
build_signature(Builder *b, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject *kwargs, PyObject *leaves, PyObject *part, PyObject *no_signature)
{
    int r = 0;
    for (Py_ssize_t i = 0; i < nargs && r == 0; i++) {
        r = put_part(b, args[i], leaves, part, no_signature);
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : (kwargs ? PyDict_GET_SIZE(kwargs) : 0);
    if (nkw && r == 0) {
        Py_ssize_t pos = 0, k = 0;
        PyObject *name, *value;
        for (;;) {
            if (kwnames) {
                if (k == nkw) {
                    break;
                }
                name = PyTuple_GET_ITEM(kwnames, k);
                value = args[nargs + k];
                k++;
            }
            else if (!PyDict_Next(kwargs, &pos, &name, &value)) {
                break;
            }
            r = put(b, W_KEYWORD) < 0 || put_value(b, Py_NewRef(name)) < 0 ? -1 :
                put_part(b, value, leaves, part, no_signature);
            if (r != 0) {
                break;
            }
        }
    }
    if (r != 0) {
        return r;
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    int repeated = 0;
    for (Py_ssize_t i = 1; i < n && !repeated; i++) {
        for (Py_ssize_t j = 0; j < i; j++) {
            if (PyList_GET_ITEM(leaves, i) == PyList_GET_ITEM(leaves, j)) {
                repeated = 1;
                break;
            }
        }
    }
    if (repeated) {  /* which arguments are the same array: the first leaf index of each */
        if (put(b, W_SAME) < 0) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t j = 0;
            while (PyList_GET_ITEM(leaves, j) != PyList_GET_ITEM(leaves, i)) {
                j++;
            }
            if (put(b, (uint64_t)j) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* the values as a tuple (the builder's list taken) and the hash of words and values into
 * ``key``; -1 on error */
static int
finish_signature(SignatureObject *key, Builder *b)
{
    key->values = b->values ? PyList_AsTuple(b->values) : Py_NewRef(empty_tuple);
    Py_CLEAR(b->values);
    if (key->values == NULL) {
        return -1;
    }
    key->hash = hash_words(key->words, Py_SIZE(key));
    if (PyTuple_GET_SIZE(key->values)) {
        Py_hash_t hv = PyObject_Hash(key->values);
        if (hv == -1) {
            return -1;
        }
        key->hash = hash_words((uint64_t[]){(uint64_t)key->hash, (uint64_t)hv}, 2);
    }
    return 0;
}

/* the key, a new reference; Py_None: no signature; NULL: an error */
static PyObject *
make_signature(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               PyObject *kwargs, PyObject *leaves, PyObject *part, PyObject *no_signature)
{
    Builder b;
    builder_init(&b);
    int r = build_signature(&b, args, nargs, kwnames, kwargs, leaves, part, no_signature);
    PyObject *out = NULL;
    if (r > 0) {
        out = Py_NewRef(Py_None);
    }
    else if (r == 0) {
        SignatureObject *key = PyObject_NewVar(SignatureObject, &SignatureType, b.n);
        if (key != NULL) {
            key->values = NULL;
            key->words = key->storage;
            memcpy(key->words, b.words, b.n * sizeof(uint64_t));
            if (finish_signature(key, &b) < 0) {
                Py_DECREF(key);
            }
            else {
                out = (PyObject *)key;
            }
        }
    }
    builder_free(&b);
    return out;
}

static PyObject *
signature(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyTuple_Check(args[0]) || !PyDict_Check(args[1]) ||
        !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "signature(args: tuple, kwargs: dict, leaves: list, part, no_signature)");
        return NULL;
    }
    if (array_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "xnp._native._replay: configure() not called");
        return NULL;
    }
    return make_signature(&PyTuple_GET_ITEM(args[0], 0), PyTuple_GET_SIZE(args[0]), NULL,
                          PyDict_GET_SIZE(args[1]) ? args[1] : NULL, args[2], args[3],
                          args[4]);
}

/* the class of recorded programs (xnp/tracing/recording.py: Program) and where its
 * ``single`` slot lives in an instance, read without an attribute lookup */
static PyTypeObject *program_type = NULL;
static Py_ssize_t single_offset = -1;

static PyObject *
configure(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyType_Check(args[0]) || !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "configure(array_type, program_type): two classes");
        return NULL;
    }
    PyObject *slot = PyDict_GetItemWithError(((PyTypeObject *)args[1])->tp_dict, str_single);
    if (slot == NULL || Py_TYPE(slot) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)slot)->d_member->type != T_OBJECT_EX) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "configure: program_type has no slot 'single'");
        }
        return NULL;
    }
    single_offset = ((PyMemberDescrObject *)slot)->d_member->offset;
    Py_XSETREF(array_type, (PyTypeObject *)Py_NewRef(args[0]));
    Py_XSETREF(program_type, (PyTypeObject *)Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ Replay */

/* ``x`` as the backend's native array: itself, or ``wrap(x)`` */
static PyObject *
as_native(PyObject *x, PyObject *native, PyObject *wrap)
{
    if ((PyObject *)Py_TYPE(x) == native) {
        return x;
    }
    PyObject *w = PyObject_CallOneArg(wrap, x);
    Py_DECREF(x);
    return w;
}

#define MAX_INLINE_OPERANDS 8

/* Run a program's equations (``Program.eqns`` of xnp/tracing/recording.py: tuples
 * ``(impl, params or None, operand slots, multiple results)``) on ``env``, a list that
 * starts with the inputs' values; each result, as the native array, is appended. */
static int
run_eqns_impl(PyObject *eqns, PyObject *env, PyObject *native, PyObject *wrap)
{
    if (!PyTuple_Check(eqns) || !PyList_Check(env)) {
        PyErr_SetString(PyExc_TypeError, "run_eqns: a tuple of equations and a list");
        return -1;
    }
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(eqns); e++) {
        PyObject *eqn = PyTuple_GET_ITEM(eqns, e);
        if (!PyTuple_Check(eqn) || PyTuple_GET_SIZE(eqn) != 4 ||
            !PyTuple_Check(PyTuple_GET_ITEM(eqn, 2))) {
            PyErr_SetString(PyExc_TypeError,
                            "run_eqns: an equation is (impl, params, slots, multiple)");
            return -1;
        }
        PyObject *impl = PyTuple_GET_ITEM(eqn, 0), *params = PyTuple_GET_ITEM(eqn, 1);
        PyObject *ops = PyTuple_GET_ITEM(eqn, 2);
        Py_ssize_t n = PyTuple_GET_SIZE(ops);
        PyObject *inline_argv[MAX_INLINE_OPERANDS];
        PyObject **argv = inline_argv;
        if (n > MAX_INLINE_OPERANDS) {
            argv = PyMem_Malloc(n * sizeof(PyObject *));
            if (argv == NULL) {
                PyErr_NoMemory();
                return -1;
            }
        }
        Py_ssize_t k = 0;
        for (; k < n; k++) {
            Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(ops, k));
            if (slot < 0 || slot >= PyList_GET_SIZE(env)) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_IndexError, "run_eqns: a slot out of range");
                }
                break;
            }
            /* owned while impl runs: impl is Python code, the list is only ours, but a
             * reference held here costs nothing */
            argv[k] = Py_NewRef(PyList_GET_ITEM(env, slot));
        }
        PyObject *out = NULL;
        if (k == n) {
            out = PyObject_VectorcallDict(impl, argv, n, params == Py_None ? NULL : params);
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            Py_DECREF(argv[j]);
        }
        if (argv != inline_argv) {
            PyMem_Free(argv);
        }
        if (out == NULL) {
            return -1;
        }
        if (PyObject_IsTrue(PyTuple_GET_ITEM(eqn, 3))) {
            PyObject *seq = PySequence_Fast(out, "run_eqns: a primitive's results");
            Py_DECREF(out);
            if (seq == NULL) {
                return -1;
            }
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
                PyObject *o = as_native(Py_NewRef(PySequence_Fast_GET_ITEM(seq, j)), native,
                                        wrap);
                if (o == NULL || PyList_Append(env, o) < 0) {
                    Py_XDECREF(o);
                    Py_DECREF(seq);
                    return -1;
                }
                Py_DECREF(o);
            }
            Py_DECREF(seq);
        }
        else {
            out = as_native(out, native, wrap);
            if (out == NULL || PyList_Append(env, out) < 0) {
                Py_XDECREF(out);
                return -1;
            }
            Py_DECREF(out);
        }
    }
    return 0;
}

static PyObject *
run_eqns(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "run_eqns(eqns, env, native, wrap)");
        return NULL;
    }
    if (run_eqns_impl(args[0], args[1], args[2], args[3]) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ``Array(value, weak)``, made as ``ArrayBase.__init__`` makes it, for a weak type that is
 * a bool (otherwise by calling the class) */
static PyObject *
new_array(PyObject *value, PyObject *weak)
{
    if (weak != Py_True && weak != Py_False) {
        return PyObject_CallFunctionObjArgs((PyObject *)array_type, value, weak, NULL);
    }
    PyObject *result = array_type->tp_alloc(array_type, 0);
    if (result == NULL) {
        return NULL;
    }
    ArrayBaseObject *r = (ArrayBaseObject *)result;
    r->val = Py_NewRef(value);
    r->weak = Py_NewRef(weak);
    r->dev = Py_NewRef(Py_None);
    r->aval = Py_NewRef(Py_None);
    r->host_memo = Py_NewRef(Py_None);
    return result;
}

/* A program whose result is one new array (``program.single``: ``(slot, weak, eqns,
 * native, wrap)``) run here on the inputs' host values. NULL without an error: an input
 * holds no host value yet (``program.run`` reads it). */
static PyObject *
run_single(PyObject *single, PyObject *leaves)
{
    if (!PyTuple_Check(single) || PyTuple_GET_SIZE(single) != 5) {
        PyErr_SetString(PyExc_TypeError, "Program.single: a 5-tuple");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    PyObject *eqns = PyTuple_GET_ITEM(single, 2);
    if (PyTuple_Check(eqns) && PyTuple_GET_SIZE(eqns) == 1 && n <= MAX_INLINE_OPERANDS) {
        /* one equation: its operands straight from the inputs, no environment */
        PyObject *eqn = PyTuple_GET_ITEM(eqns, 0);
        PyObject *ops = PyTuple_Check(eqn) && PyTuple_GET_SIZE(eqn) == 4 ?
            PyTuple_GET_ITEM(eqn, 2) : NULL;
        if (ops != NULL && PyTuple_Check(ops) && PyTuple_GET_SIZE(ops) <= MAX_INLINE_OPERANDS &&
            PyTuple_GET_ITEM(eqn, 1) == Py_None && PyTuple_GET_ITEM(eqn, 3) == Py_False &&
            PyLong_AsSsize_t(PyTuple_GET_ITEM(single, 0)) == n) {
            PyObject *argv[MAX_INLINE_OPERANDS];
            Py_ssize_t k = PyTuple_GET_SIZE(ops);
            for (Py_ssize_t j = 0; j < k; j++) {
                Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(ops, j));
                PyObject *leaf = slot >= 0 && slot < n ? PyList_GET_ITEM(leaves, slot) : NULL;
                argv[j] = leaf != NULL && Py_TYPE(leaf) == array_type ?
                    ((ArrayBaseObject *)leaf)->val : NULL;
                if (argv[j] == NULL || argv[j] == Py_None) {
                    if (PyErr_Occurred()) {
                        return NULL;
                    }
                    k = -1;  /* (an input holds no host value, or a constant operand) */
                    break;
                }
            }
            if (k >= 0) {
                /* (the inputs' values are owned by the leaves, which the caller holds) */
                PyObject *out = PyObject_Vectorcall(PyTuple_GET_ITEM(eqn, 0), argv, k, NULL);
                out = out ? as_native(out, PyTuple_GET_ITEM(single, 3),
                                      PyTuple_GET_ITEM(single, 4)) : NULL;
                if (out == NULL) {
                    return NULL;
                }
                PyObject *result = new_array(out, PyTuple_GET_ITEM(single, 1));
                Py_DECREF(out);
                return result;
            }
        }
    }
    PyObject *env = PyList_New(n);
    if (env == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *leaf = PyList_GET_ITEM(leaves, i);
        PyObject *value = Py_TYPE(leaf) == array_type ? ((ArrayBaseObject *)leaf)->val : NULL;
        if (value == NULL || value == Py_None) {
            Py_DECREF(env);  /* (the items set so far; the rest are NULL) */
            return NULL;
        }
        PyList_SET_ITEM(env, i, Py_NewRef(value));
    }
    PyObject *result = NULL;
    if (run_eqns_impl(PyTuple_GET_ITEM(single, 2), env, PyTuple_GET_ITEM(single, 3),
                      PyTuple_GET_ITEM(single, 4)) == 0) {
        Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(single, 0));
        if (slot >= 0 && slot < PyList_GET_SIZE(env)) {
            result = new_array(PyList_GET_ITEM(env, slot), PyTuple_GET_ITEM(single, 1));
        }
        else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_IndexError, "Program.single: the result slot out of range");
        }
    }
    Py_DECREF(env);
    if (result == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "run_single: no result");
    }
    return result;
}

enum { C_ON, C_CHECK, C_MISSES, C_SCOPES, C_BUSY, C_STATE, C_BASE, C_PART, C_NOSIG,
       C_CHECK_HIT, C_CHECK_ERROR, C_N };

typedef struct {
    PyObject_HEAD
    PyObject *slow;
    PyObject *full;
    PyObject *cache;
    PyObject *refused;
    PyObject *ctx;
    PyObject *rule;  /* NumPy's scalar rule for the results of hits, or None */
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
 * reference, consumed): a new 0-d Array becomes its NumPy scalar here; anything else is
 * ``rule(args, kwargs, out)``, which keeps an argument returned as it is. */
static PyObject *
apply_rule(ReplayObject *self, PyObject *out, int new_array, PyObject *const *args,
           Py_ssize_t nargs, PyObject *kwnames)
{
    if (new_array && Py_TYPE(out) == array_type) {
        PyObject *value = ((ArrayBaseObject *)out)->val;
        if (value == NULL || value == Py_None) {
            return out;
        }
        int zero_d;
        if (PyArray_Check(value)) {
            zero_d = PyArray_NDIM((PyArrayObject *)value) == 0;
        }
        else {
            PyObject *ndim = PyObject_GetAttr(value, str_ndim);
            if (ndim == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            zero_d = ndim == zero_int || (PyLong_Check(ndim) && PyLong_AsLong(ndim) == 0);
            Py_DECREF(ndim);
        }
        if (!zero_d) {
            return out;
        }
        PyObject *scalar = PyObject_GetItem(value, empty_tuple);
        Py_DECREF(out);
        return scalar;
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

static PyObject *
replay_vectorcall(ReplayObject *self, PyObject *const *args, size_t nargsf,
                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int on = first_true(CTX(self, C_ON));
    if (on <= 0) {
        return on < 0 ? NULL : PyObject_Vectorcall(self->full, args, nargsf, kwnames);
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
    /* the key as a probe on the C stack: the lookup keeps no reference to it (a miss
     * makes the slow path compute its own key) */
    Builder b;
    builder_init(&b);
    int r = build_signature(&b, args, nargs, kwnames, NULL, leaves, CTX(self, C_PART),
                            CTX(self, C_NOSIG));
    SignatureObject probe;
    memset(&probe, 0, sizeof probe);
    Py_SET_REFCNT((PyObject *)&probe, PY_SSIZE_T_MAX / 2);  /* never freed */
    Py_SET_TYPE((PyObject *)&probe, &SignatureType);
    Py_SET_SIZE((PyVarObject *)&probe, b.n);
    probe.words = b.words;
    PyObject *program = NULL;
    if (r == 0) {
        r = finish_signature(&probe, &b);
    }
    if (r == 0) {
        program = PyDict_GetItemWithError(self->cache, (PyObject *)&probe);  /* borrowed */
        r = program == NULL && PyErr_Occurred() ? -1 : 0;
    }
    Py_XDECREF(probe.values);
    builder_free(&b);
    if (r != 0) {
        Py_DECREF(leaves);
        return r < 0 ? NULL : PyObject_Vectorcall(self->full, args, nargsf, kwnames);
    }
    if (program == NULL) {
        Py_DECREF(leaves);
        return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
    }
    Py_INCREF(program);  /* another thread may clear the cache meanwhile */
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
    PyObject *out = NULL;
    int new_array = 0;  /* out is a new Array the program made (not an argument) */
    PyObject *single = Py_TYPE(program) == program_type ?
        *(PyObject **)((char *)program + single_offset) : NULL;  /* borrowed */
    if (single != NULL && single != Py_None) {
        out = run_single(single, leaves);
        new_array = out != NULL;
    }
    if (out == NULL && !PyErr_Occurred()) {
        out = PyObject_CallMethodOneArg(program, str_run, leaves);
    }
    Py_DECREF(program);
    if (out != NULL && self->rule != Py_None) {
        out = apply_rule(self, out, new_array, args, nargs, kwnames);
    }
    int check = first_true(CTX(self, C_CHECK));
    if (check != 0) {
        PyObject *t, *d;
        if (check < 0 || as_call(args, nargs, kwnames, &t, &d) < 0) {
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
    PyObject *slow, *full, *cache, *refused, *ctx, *rule = Py_None;
    static char *kwlist[] = {"slow", "full", "cache", "refused", "ctx", "rule", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO!O!O!|O:Replay", kwlist, &slow, &full,
                                     &PyDict_Type, &cache, &PyType_Type, &refused,
                                     &PyTuple_Type, &ctx, &rule)) {
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
                        "state, base, part, no_signature, check_hit, check_error)");
        return NULL;
    }
    if (array_type == NULL) {
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

static PyMethodDef module_methods[] = {
    {"signature", (PyCFunction)(void (*)(void))signature, METH_FASTCALL,
     "signature(args, kwargs, leaves, part, no_signature): a call's cache key, or None."},
    {"configure", (PyCFunction)(void (*)(void))configure, METH_FASTCALL,
     "configure(array_type, program_type): the classes of eager arrays and programs."},
    {"run_eqns", (PyCFunction)(void (*)(void))run_eqns, METH_FASTCALL,
     "run_eqns(eqns, env, native, wrap): a recorded program's equations run on env."},
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
    if (PyType_Ready(&ReplayType) < 0 || PyType_Ready(&SignatureType) < 0) {
        return NULL;
    }
    str_dtype = PyUnicode_InternFromString("dtype");
    str_shape = PyUnicode_InternFromString("shape");
    str_strides = PyUnicode_InternFromString("strides");
    str_trace = PyUnicode_InternFromString("trace");
    str_run = PyUnicode_InternFromString("run");
    str_single = PyUnicode_InternFromString("single");
    str_ndim = PyUnicode_InternFromString("ndim");
    zero_int = PyLong_FromLong(0);
    empty_tuple = PyTuple_New(0);
    if (!str_ndim || !zero_int || !empty_tuple) {
        return NULL;
    }
    if (!str_dtype || !str_shape || !str_strides || !str_trace || !str_run || !str_single) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Replay", (PyObject *)&ReplayType) < 0 ||
        PyModule_AddObjectRef(m, "Signature", (PyObject *)&SignatureType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
