/* The cache key of an eager call (``signature()`` of xnp/_native/replay.c): a
 * ``Signature`` of machine words and a tuple of values compared by value, built by
 * ``xnp_build_signature`` (see replay.c's opening comment for what each argument puts). */
#include "replay.h"

static PyObject *str_dtype, *str_shape, *str_strides;
static Py_ssize_t max_items = 64;  /* the longest tuple or list with a signature */
static PyObject *dtype_types = NULL;  /* Python's types that name a dtype (a frozenset) */
/* xnp's scalar types (a tuple): heap types that live as long as the process, compared by
 * address (their metaclass's __eq__ and __hash__ are Python's) */
static PyObject *own_types = NULL;

/* what a word that starts an argument's part says it is */
enum { W_ARRAY = 1, W_INT, W_BOOL, W_NONE, W_FLOAT, W_VALUE, W_KEYWORD, W_SAME, W_COMPLEX,
       W_STR, W_TUPLE, W_LIST, W_DTYPE, W_DTYPE_VALUE, W_TYPE, W_TYPE_VALUE, W_SLICE,
       W_ELLIPSIS };
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
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(b) != &xnp_SignatureType) {
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

PyTypeObject xnp_SignatureType = {
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
    if (t == xnp_array_type && ((ArrayBaseObject *)a)->dev == Py_None) {
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
    else if (a == Py_Ellipsis) {
        return put(b, W_ELLIPSIS);
    }
    else if (t == &PySlice_Type) {  /* an index: its bounds' parts */
        PySliceObject *sl = (PySliceObject *)a;
        int r = put(b, W_SLICE) < 0 ? -1 : 0;
        PyObject *bounds[3] = {sl->start, sl->stop, sl->step};
        for (int i = 0; r == 0 && i < 3; i++) {
            r = put_part(b, bounds[i], leaves, part, no_signature);
        }
        return r;
    }
    else if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(a);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return put(b, W_FLOAT) < 0 ? -1 : put(b, bits);
    }
    else if (t == &PyComplex_Type) {
        Py_complex c = PyComplex_AsCComplex(a);
        uint64_t re, im;
        memcpy(&re, &c.real, sizeof re);
        memcpy(&im, &c.imag, sizeof im);
        return put(b, W_COMPLEX) < 0 || put(b, re) < 0 ? -1 : put(b, im);
    }
    else if (t == &PyUnicode_Type) {
        return put(b, W_STR) < 0 ? -1 : put_value(b, Py_NewRef(a));
    }
    else if (t == &PyTuple_Type || t == &PyList_Type) {
        Py_ssize_t n = t == &PyTuple_Type ? PyTuple_GET_SIZE(a) : PyList_GET_SIZE(a);
        if (n > max_items) {  /* a long list of values: no cache entry of its size */
            return 1;
        }
        if (put(b, t == &PyTuple_Type ? W_TUPLE : W_LIST) < 0 || put(b, (uint64_t)n) < 0) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            /* (a list item is held while its part is computed, which may run Python) */
            PyObject *item = Py_NewRef(t == &PyTuple_Type ? PyTuple_GET_ITEM(a, i) :
                                       PyList_GET_ITEM(a, i));
            int r = i < (t == &PyTuple_Type ? PyTuple_GET_SIZE(a) : PyList_GET_SIZE(a)) ?
                put_part(b, item, leaves, part, no_signature) : 1;
            Py_DECREF(item);
            if (r != 0) {
                return r;
            }
            if (t == &PyList_Type && PyList_GET_SIZE(a) != n) {
                return 1;  /* (the list changed meanwhile) */
            }
        }
        return 0;
    }
    else if (PyArray_DescrCheck(a)) {  /* a dtype: NumPy's own descriptor by address */
        PyArray_Descr *own = PyArray_DescrFromType(((PyArray_Descr *)a)->type_num);
        if (own == NULL) {
            PyErr_Clear();
        }
        else {
            Py_DECREF(own);  /* (NumPy's table holds it) */
        }
        if (own == (PyArray_Descr *)a) {
            return put(b, W_DTYPE) < 0 ? -1 : put(b, (uint64_t)(uintptr_t)a);
        }
        /* (each dtype has its own class, alive while the dtype is) */
        return put(b, W_DTYPE_VALUE) < 0 || put(b, (uint64_t)(uintptr_t)t) < 0 ? -1 :
            put_value(b, Py_NewRef(a));
    }
    else if (PyType_Check(a) && dtype_types != NULL) {  /* a type that names a dtype */
        for (Py_ssize_t i = 0; own_types != NULL && i < PyTuple_GET_SIZE(own_types); i++) {
            if (PyTuple_GET_ITEM(own_types, i) == a) {
                return put(b, W_TYPE) < 0 ? -1 : put(b, (uint64_t)(uintptr_t)a);
            }
        }
        int names = PySet_Contains(dtype_types, a);
        if (names < 0) {
            return -1;
        }
        if (names || PyType_IsSubtype((PyTypeObject *)a, &PyGenericArrType_Type)) {
            if (!(((PyTypeObject *)a)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {  /* (immortal) */
                return put(b, W_TYPE) < 0 ? -1 : put(b, (uint64_t)(uintptr_t)a);
            }
            return put(b, W_TYPE_VALUE) < 0 ? -1 : put_value(b, Py_NewRef(a));
        }
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

void
xnp_builder_init(Builder *b)
{
    b->words = b->inline_words;
    b->n = 0;
    b->cap = INLINE_WORDS;
    b->values = NULL;
}

void
xnp_builder_free(Builder *b)
{
    if (b->words != b->inline_words) {
        PyMem_Free(b->words);
    }
    Py_CLEAR(b->values);
}

/* the words and values of a call's key into ``b``; 0: done, 1: no signature, -1: an error */
int
xnp_build_signature(Builder *b, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
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
int
xnp_finish_signature(SignatureObject *key, Builder *b)
{
    key->values = b->values ? PyList_AsTuple(b->values) : Py_NewRef(xnp_empty_tuple);
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
PyObject *
xnp_make_signature(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               PyObject *kwargs, PyObject *leaves, PyObject *part, PyObject *no_signature)
{
    Builder b;
    xnp_builder_init(&b);
    int r = xnp_build_signature(&b, args, nargs, kwnames, kwargs, leaves, part, no_signature);
    PyObject *out = NULL;
    if (r > 0) {
        out = Py_NewRef(Py_None);
    }
    else if (r == 0) {
        SignatureObject *key = PyObject_NewVar(SignatureObject, &xnp_SignatureType, b.n);
        if (key != NULL) {
            key->values = NULL;
            key->words = key->storage;
            memcpy(key->words, b.words, b.n * sizeof(uint64_t));
            if (xnp_finish_signature(key, &b) < 0) {
                Py_DECREF(key);
            }
            else {
                out = (PyObject *)key;
            }
        }
    }
    xnp_builder_free(&b);
    return out;
}

/* what the Python rules of the key say (``_replay.MAX_ITEMS``, ``_replay._DTYPE_TYPES``);
 * ``own``: xnp's scalar types, keyed by address (a tuple; it holds them) */
int
xnp_signature_configure(Py_ssize_t items, PyObject *types, PyObject *own)
{
    if (!PyFrozenSet_Check(types) || !PyTuple_Check(own)) {
        PyErr_SetString(PyExc_TypeError,
                        "configure: dtype_types is a frozenset, own_types a tuple");
        return -1;
    }
    max_items = items;
    Py_XSETREF(dtype_types, Py_NewRef(types));
    Py_XSETREF(own_types, Py_NewRef(own));
    return 0;
}

/* the type ready and the names interned; -1 on error */
int
xnp_signature_ready(void)
{
    str_dtype = PyUnicode_InternFromString("dtype");
    str_shape = PyUnicode_InternFromString("shape");
    str_strides = PyUnicode_InternFromString("strides");
    if (!str_dtype || !str_shape || !str_strides) {
        return -1;
    }
    return PyType_Ready(&xnp_SignatureType);
}
