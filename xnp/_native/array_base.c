/* The storage of an eager xnp array: six object slots and weak-reference support.
 *
 * ``xnp.tracing.core.Array`` derives from ``ArrayBase`` and adds only behaviour. Making an
 * array is the cost every eager operation and every jitted call's output pays, so the
 * constructor runs here: ``ArrayBase(value, weak_type=False, dev=None, aval=None)`` sets
 * ``_val``, ``_weak``, ``_dev``, ``_aval`` and clears ``_host_memo``; ``_read`` stays unset
 * (reading it raises ``AttributeError``, as for an unset ``__slots__`` entry).
 * ``xnp/tracing/core.py`` holds the same class in Python, used when this module is not
 * built.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *val;
    PyObject *dev;
    PyObject *read;
    PyObject *weak;
    PyObject *aval;
    PyObject *host_memo;
    PyObject *weakreflist;
} ArrayBaseObject;

static PyTypeObject ArrayBaseType;

static int
base_traverse(ArrayBaseObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->val);
    Py_VISIT(self->dev);
    Py_VISIT(self->read);
    Py_VISIT(self->weak);
    Py_VISIT(self->aval);
    Py_VISIT(self->host_memo);
    return 0;
}

static int
base_clear(ArrayBaseObject *self)
{
    Py_CLEAR(self->val);
    Py_CLEAR(self->dev);
    Py_CLEAR(self->read);
    Py_CLEAR(self->weak);
    Py_CLEAR(self->aval);
    Py_CLEAR(self->host_memo);
    return 0;
}

static void
base_dealloc(ArrayBaseObject *self)
{
    /* a Python subclass's instance: subtype_dealloc drops the reference to its type */
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    base_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void
set_slot(PyObject **slot, PyObject *value)
{
    PyObject *old = *slot;
    Py_XINCREF(value);
    *slot = value;
    Py_XDECREF(old);
}

static int
base_init(ArrayBaseObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"value", "weak_type", "dev", "aval", NULL};
    PyObject *value, *weak = Py_False, *dev = Py_None, *aval = Py_None;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (kwds == NULL && n >= 1 && n <= 4) {  /* the common call: positional only */
        value = PyTuple_GET_ITEM(args, 0);
        if (n > 1) weak = PyTuple_GET_ITEM(args, 1);
        if (n > 2) dev = PyTuple_GET_ITEM(args, 2);
        if (n > 3) aval = PyTuple_GET_ITEM(args, 3);
    }
    else if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:Array", kwlist,
                                          &value, &weak, &dev, &aval)) {
        return -1;
    }
    set_slot(&self->val, value);
    set_slot(&self->weak, weak);
    set_slot(&self->dev, dev);
    set_slot(&self->aval, aval);
    set_slot(&self->host_memo, Py_None);
    return 0;
}

static PyMemberDef base_members[] = {
    {"_val", T_OBJECT_EX, offsetof(ArrayBaseObject, val), 0, NULL},
    {"_dev", T_OBJECT_EX, offsetof(ArrayBaseObject, dev), 0, NULL},
    {"_read", T_OBJECT_EX, offsetof(ArrayBaseObject, read), 0, NULL},
    {"_weak", T_OBJECT_EX, offsetof(ArrayBaseObject, weak), 0, NULL},
    {"_aval", T_OBJECT_EX, offsetof(ArrayBaseObject, aval), 0, NULL},
    {"_host_memo", T_OBJECT_EX, offsetof(ArrayBaseObject, host_memo), 0, NULL},
    {NULL}
};

/* ------------------------------------------------------------------ binary operators
 *
 * ``xnp.tracing.fastpath.install_native_operators`` moves the fast path of the eager
 * binary operators (``fastpath.binary``) here, as the number slots of ``ArrayBase``, so
 * ``a + b`` runs no Python frame when it is served. The rule is the one of
 * ``fastpath._binary`` (read it first; this is the same code in C): no transformation
 * active in any thread, or the calling thread's trace is the base trace; the eager
 * backend's ``fast_ops[name]`` is ``(fn, dtypes, bool_out)``; both operands exact
 * ``Array``s with host values of one dtype in ``dtypes``, or one such ``Array`` and a
 * Python float or small int that keeps its dtype; then ``Array(fn(a, b), weak)``.
 * Anything else, and a ``ValueError`` from ``fn``, calls the operator's full path
 * (``forward(self, other)``, or ``reflected(self, other)`` when the left operand is not
 * an xnp array).
 */

enum { OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_AND, OP_OR, OP_XOR, N_OPS };
static const char *op_slots[N_OPS] = {"__add__", "__sub__", "__mul__", "__truediv__",
                                      "__and__", "__or__", "__xor__"};
static PyObject *op_name[N_OPS], *op_forward[N_OPS], *op_reflected[N_OPS];
static PyObject *g_array_type, *g_busy, *g_state, *g_base, *g_table, *g_native, *g_wrap;
static PyObject *str_trace, *str_dtype, *str_kind;

/* 1 when ``scalar`` (a Python float or int) keeps the dtype ``dt`` (fastpath._scalar_fits),
 * 0 when not, -1 on error */
static int
scalar_fits(PyObject *dt, PyObject *scalar)
{
    PyTypeObject *t = Py_TYPE(scalar);
    if (t != &PyFloat_Type && t != &PyLong_Type) {
        return 0;
    }
    PyObject *kind = PyObject_GetAttr(dt, str_kind);
    if (kind == NULL) {
        return -1;
    }
    Py_UCS4 k = PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) == 1
                    ? PyUnicode_READ_CHAR(kind, 0) : 0;
    Py_DECREF(kind);
    int inexact = k == 'f' || k == 'c';
    if (t == &PyFloat_Type) {
        return inexact;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(scalar, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow) {
        return 0;
    }
    if (inexact || k == 'i') {
        return -128 <= v && v < 128;
    }
    return k == 'u' && 0 <= v && v < 128;
}

/* the served result of ``left op right`` (a new reference), or NULL with no error set
 * when the call is not served, or NULL with an error set */
static PyObject *
fast_binary(int k, PyObject *left, PyObject *right)
{
    if (g_array_type == NULL) {
        return NULL;
    }
    if (PySet_GET_SIZE(g_busy) != 0) {
        PyObject *trace = PyObject_GetAttr(g_state, str_trace);
        if (trace == NULL) {
            PyErr_Clear();
            return NULL;
        }
        Py_DECREF(trace);
        if (trace != g_base) {
            return NULL;
        }
    }
    PyObject *table = PyList_GET_ITEM(g_table, 0);
    PyObject *op = PyDict_Check(table) ? PyDict_GetItemWithError(table, op_name[k]) : NULL;
    if (op == NULL || !PyTuple_Check(op) || PyTuple_GET_SIZE(op) != 3) {
        if (PyErr_Occurred()) {
            PyErr_Clear();
        }
        return NULL;
    }
    PyObject *fn = PyTuple_GET_ITEM(op, 0), *dtypes = PyTuple_GET_ITEM(op, 1);
    int bool_out = PyObject_IsTrue(PyTuple_GET_ITEM(op, 2));
    if (bool_out < 0) {
        return NULL;
    }
    PyTypeObject *array = (PyTypeObject *)g_array_type;
    PyObject *va = NULL, *vb = NULL, *dta = NULL, *dtb = NULL, *result = NULL;
    int weak = 0, ok = 0;
    if (Py_TYPE(left) == array) {
        ArrayBaseObject *a = (ArrayBaseObject *)left;
        if (a->val == NULL || a->val == Py_None) {
            return NULL;
        }
        dta = PyObject_GetAttr(a->val, str_dtype);
        if (dta == NULL) {
            goto error;
        }
        int in = PySequence_Contains(dtypes, dta);
        if (in < 0) {
            goto error;
        }
        if (in) {
            int wa = a->weak != NULL && PyObject_IsTrue(a->weak) == 1;
            if (Py_TYPE(right) == array) {
                ArrayBaseObject *b = (ArrayBaseObject *)right;
                if (b->val != NULL && b->val != Py_None) {
                    dtb = PyObject_GetAttr(b->val, str_dtype);
                    if (dtb == NULL) {
                        goto error;
                    }
                    int same = dtb == dta ? 1 : PyObject_RichCompareBool(dtb, dta, Py_EQ);
                    if (same < 0) {
                        goto error;
                    }
                    if (same) {
                        va = a->val;
                        vb = b->val;
                        weak = wa && b->weak != NULL && PyObject_IsTrue(b->weak) == 1;
                        ok = 1;
                    }
                }
            }
            else {
                int fits = scalar_fits(dta, right);
                if (fits < 0) {
                    goto error;
                }
                if (fits) {
                    va = a->val;
                    vb = right;
                    weak = wa;
                    ok = 1;
                }
            }
        }
    }
    else if (Py_TYPE(right) == array) {
        ArrayBaseObject *b = (ArrayBaseObject *)right;
        if (b->val == NULL || b->val == Py_None) {
            return NULL;
        }
        dtb = PyObject_GetAttr(b->val, str_dtype);
        if (dtb == NULL) {
            goto error;
        }
        int in = PySequence_Contains(dtypes, dtb);
        if (in < 0) {
            goto error;
        }
        if (in) {
            int fits = scalar_fits(dtb, left);
            if (fits < 0) {
                goto error;
            }
            if (fits) {
                va = left;
                vb = b->val;
                weak = b->weak != NULL && PyObject_IsTrue(b->weak) == 1;
                ok = 1;
            }
        }
    }
    Py_XDECREF(dta);
    Py_XDECREF(dtb);
    if (!ok) {
        return NULL;
    }
    PyObject *args[2] = {va, vb};
    PyObject *out = PyObject_Vectorcall(fn, args, 2, NULL);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();  /* shapes that do not broadcast: the full path words the error */
        }
        return NULL;
    }
    if ((PyObject *)Py_TYPE(out) != PyList_GET_ITEM(g_native, 0)) {
        PyObject *wrapped = PyObject_CallOneArg(PyList_GET_ITEM(g_wrap, 0), out);
        Py_DECREF(out);
        if (wrapped == NULL) {
            return NULL;
        }
        out = wrapped;
    }
    result = array->tp_alloc(array, 0);
    if (result == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    ArrayBaseObject *r = (ArrayBaseObject *)result;
    r->val = out;
    r->weak = Py_NewRef((weak && !bool_out) ? Py_True : Py_False);
    r->dev = Py_NewRef(Py_None);
    r->aval = Py_NewRef(Py_None);
    r->host_memo = Py_NewRef(Py_None);
    return result;
error:
    Py_XDECREF(dta);
    Py_XDECREF(dtb);
    return NULL;
}

static PyObject *
binary_slot(int k, PyObject *left, PyObject *right)
{
    if (op_forward[k] == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = fast_binary(k, left, right);
    if (out != NULL || PyErr_Occurred()) {
        return out;
    }
    PyObject *args[2];
    if (PyObject_TypeCheck(left, &ArrayBaseType)) {
        args[0] = left;
        args[1] = right;
        return PyObject_Vectorcall(op_forward[k], args, 2, NULL);
    }
    args[0] = right;
    args[1] = left;
    return PyObject_Vectorcall(op_reflected[k], args, 2, NULL);
}

#define BINARY_SLOT(fname, k) \
    static PyObject *fname(PyObject *l, PyObject *r) { return binary_slot(k, l, r); }
BINARY_SLOT(nb_add, OP_ADD)
BINARY_SLOT(nb_sub, OP_SUB)
BINARY_SLOT(nb_mul, OP_MUL)
BINARY_SLOT(nb_truediv, OP_TRUEDIV)
BINARY_SLOT(nb_and, OP_AND)
BINARY_SLOT(nb_or, OP_OR)
BINARY_SLOT(nb_xor, OP_XOR)

static PyNumberMethods base_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_true_divide = nb_truediv,
    .nb_and = nb_and,
    .nb_or = nb_or,
    .nb_xor = nb_xor,
};

static PyObject *
configure_operators(PyObject *module, PyObject *args)
{
    PyObject *array, *busy, *state, *base, *table, *native, *wrap, *ops;
    if (!PyArg_ParseTuple(args, "OO!OOO!O!O!O!:configure_operators", &array, &PySet_Type, &busy,
                          &state, &base, &PyList_Type, &table, &PyList_Type, &native,
                          &PyList_Type, &wrap, &PyDict_Type, &ops)) {
        return NULL;
    }
    if (!PyType_Check(array) || !PyType_IsSubtype((PyTypeObject *)array, &ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "configure_operators: array must subclass ArrayBase");
        return NULL;
    }
    if (PyList_GET_SIZE(table) < 1 || PyList_GET_SIZE(native) < 1 || PyList_GET_SIZE(wrap) < 1) {
        PyErr_SetString(PyExc_ValueError, "configure_operators: empty state lists");
        return NULL;
    }
    PyObject *names[N_OPS], *fwd[N_OPS], *rev[N_OPS];
    for (int k = 0; k < N_OPS; k++) {
        PyObject *entry = PyDict_GetItemString(ops, op_slots[k]);
        if (entry == NULL || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) {
            PyErr_Format(PyExc_ValueError, "configure_operators: ops[%s] must be "
                         "(name, forward, reflected)", op_slots[k]);
            return NULL;
        }
        names[k] = PyTuple_GET_ITEM(entry, 0);
        fwd[k] = PyTuple_GET_ITEM(entry, 1);
        rev[k] = PyTuple_GET_ITEM(entry, 2);
    }
    for (int k = 0; k < N_OPS; k++) {
        Py_XSETREF(op_name[k], Py_NewRef(names[k]));
        Py_XSETREF(op_forward[k], Py_NewRef(fwd[k]));
        Py_XSETREF(op_reflected[k], Py_NewRef(rev[k]));
    }
    Py_XSETREF(g_busy, Py_NewRef(busy));
    Py_XSETREF(g_state, Py_NewRef(state));
    Py_XSETREF(g_base, Py_NewRef(base));
    Py_XSETREF(g_table, Py_NewRef(table));
    Py_XSETREF(g_native, Py_NewRef(native));
    Py_XSETREF(g_wrap, Py_NewRef(wrap));
    Py_XSETREF(g_array_type, Py_NewRef(array));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure_operators", configure_operators, METH_VARARGS,
     "configure_operators(array, busy, state, base, table, native, wrap, ops): serve the "
     "binary operators of ``array`` (an ArrayBase subclass) by the number slots; ``ops`` "
     "maps each of __add__, __sub__, __mul__, __truediv__, __and__, __or__, __xor__ to "
     "(fast_ops name, forward full path, reflected full path)."},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xnp._native._array_base.ArrayBase",
    .tp_basicsize = sizeof(ArrayBaseObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The slots of an eager xnp array (see xnp.tracing.core.Array).",
    .tp_traverse = (traverseproc)base_traverse,
    .tp_clear = (inquiry)base_clear,
    .tp_dealloc = (destructor)base_dealloc,
    .tp_weaklistoffset = offsetof(ArrayBaseObject, weakreflist),
    .tp_members = base_members,
    .tp_as_number = &base_as_number,
    .tp_init = (initproc)base_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_array_base",
    "The C storage of xnp's eager arrays (optional; xnp.tracing.core has a Python fallback).",
    -1, module_methods,
};

PyMODINIT_FUNC
PyInit__array_base(void)
{
    if (PyType_Ready(&ArrayBaseType) < 0) {
        return NULL;
    }
    str_trace = PyUnicode_InternFromString("trace");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_kind = PyUnicode_InternFromString("kind");
    if (str_trace == NULL || str_dtype == NULL || str_kind == NULL) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&ArrayBaseType);
    if (PyModule_AddObject(m, "ArrayBase", (PyObject *)&ArrayBaseType) < 0) {
        Py_DECREF(&ArrayBaseType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
