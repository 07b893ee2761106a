/* The storage of an eager xnp array: six object slots and weak-reference support.
 *
 * ``xnp.tracing.core.Array`` derives from ``ArrayBase`` and adds only behaviour. Making an
 * array is the cost every eager operation and every jitted call's output pays, so the
 * constructor runs here: ``ArrayBase(value, weak_type=False, dev=None, aval=None)`` sets
 * ``_val``, ``_weak``, ``_dev``, ``_aval`` and clears ``_host_memo``; ``_read`` stays unset
 * (reading it raises ``AttributeError``, as for an unset ``__slots__`` entry).
 * ``xnp/tracing/array_base.py`` holds the same class in Python, used when this module is not
 * built.
 *
 * The same call is NumPy's constructor, ``xnp.ndarray(shape, dtype=float, buffer=None,
 * offset=0, strides=None, order=None)``: a first argument that is a shape (an int, a tuple,
 * a list, a range or one of the registered ``shape_types``; never a native array), more
 * than four arguments or a keyword other than the four above hand the call to the Python
 * constructor registered with ``set_constructor`` (``xnp/ndarray_class.py``); before one
 * is registered such a call raises ``RuntimeError`` (``import xnp`` registers it).
 *
 * It also serves the eager fast path of ``xnp.numpy_api._fastpath.binary``/``unary`` in C:
 * as ``ArrayBase``'s number slots for the arithmetic operators and as ``FastFunc``
 * callables for the functions and the other operators (see the sections below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#include "array_base.h"
#include "elide.h"
#include "setitem.h"

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

static PyObject *constructor = NULL;  /* NumPy's ndarray(shape, ...) in Python */
static PyObject *shape_types = NULL;  /* frozenset of the classes of a shape */

static PyObject *not_shape = NULL;  /* the last class found not to be a shape's */

static int
is_shape(PyObject *v)
{
    PyObject *t = (PyObject *)Py_TYPE(v);
    if (t == not_shape) {
        return 0;
    }
    if (PyTuple_Check(v) || PyList_Check(v) || PyLong_Check(v) || PyRange_Check(v)) {
        return 1;
    }
    if (shape_types != NULL && v != Py_None) {
        int r = PySet_Contains(shape_types, t);
        if (r != 0) {
            return r;
        }
    }
    Py_INCREF(t);
    Py_XSETREF(not_shape, t);
    return 0;
}

static int
numpy_form(PyObject *args, PyObject *kwds)
{
    static const char *internal[] = {"value", "weak_type", "dev", "aval", NULL};
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n > 4 || (n >= 1 && is_shape(PyTuple_GET_ITEM(args, 0)))) {
        return 1;
    }
    if (kwds != NULL) {
        PyObject *key, *item;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwds, &pos, &key, &item)) {
            int known = 0;
            for (const char **k = internal; *k != NULL; k++) {
                if (PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, *k) == 0) {
                    known = 1;
                }
            }
            if (!known) {
                return 1;
            }
        }
    }
    return 0;
}

static int
base_init(ArrayBaseObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"value", "weak_type", "dev", "aval", NULL};
    PyObject *value, *weak = Py_False, *dev = Py_None, *aval = Py_None;
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (kwds == NULL && n >= 1 && n <= 4 && is_shape(PyTuple_GET_ITEM(args, 0)) == 0) {
        /* the common call: positional only, a native array first */
        value = PyTuple_GET_ITEM(args, 0);
        if (n > 1) weak = PyTuple_GET_ITEM(args, 1);
        if (n > 2) dev = PyTuple_GET_ITEM(args, 2);
        if (n > 3) aval = PyTuple_GET_ITEM(args, 3);
    }
    else {
        int numpy = numpy_form(args, kwds);
        if (numpy < 0) {
            return -1;
        }
        if (numpy && constructor == NULL) {
            /* as the Python class's stand-in (tracing/errors.py: not_connected) */
            PyErr_SetString(PyExc_RuntimeError,
                            "xnp: NumPy's ndarray constructor and subclass protocol is not "
                            "connected (array_base.register_ndarray_hooks has not been "
                            "called); `import xnp` connects it");
            return -1;
        }
        if (numpy) {
            PyObject *full = PyTuple_New(n + 1);
            if (full == NULL) {
                return -1;
            }
            Py_INCREF(self);
            PyTuple_SET_ITEM(full, 0, (PyObject *)self);
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *a = PyTuple_GET_ITEM(args, i);
                Py_INCREF(a);
                PyTuple_SET_ITEM(full, i + 1, a);
            }
            PyObject *r = PyObject_Call(constructor, full, kwds);
            Py_DECREF(full);
            if (r == NULL) {
                return -1;
            }
            Py_DECREF(r);
            return 0;
        }
        if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOO:Array", kwlist,
                                         &value, &weak, &dev, &aval)) {
            return -1;
        }
    }
    set_slot(&self->val, value);
    set_slot(&self->weak, weak);
    set_slot(&self->dev, dev);
    set_slot(&self->aval, aval);
    set_slot(&self->host_memo, Py_None);
    return 0;
}

/* ``_val`` is a getset, so that a reader can watch it: while ``access_hook`` is set
 * (``set_access_hook``; ``xnp/tracing/recording.py`` sets it while a thread records an
 * eager call), every read and write of ``_val`` from Python calls ``access_hook(array)``
 * first. ``_v`` reads the same slot unwatched: the metadata accessors and the eager
 * evaluation of a primitive use it. The C fast paths read the slot directly. */
static PyObject *access_hook = NULL;

static int
call_access_hook(ArrayBaseObject *self)
{
    PyObject *hook = access_hook;
    if (hook == NULL) {
        return 0;
    }
    Py_INCREF(hook);
    PyObject *r = PyObject_CallOneArg(hook, (PyObject *)self);
    Py_DECREF(hook);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

static PyObject *
base_get_val(ArrayBaseObject *self, void *closure)
{
    if (access_hook != NULL && call_access_hook(self) < 0) {
        return NULL;
    }
    if (self->val == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_val");
        return NULL;
    }
    Py_INCREF(self->val);
    return self->val;
}

static int
base_set_val(ArrayBaseObject *self, PyObject *value, void *closure)
{
    if (access_hook != NULL && call_access_hook(self) < 0) {
        return -1;
    }
    if (value == NULL && self->val == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_val");
        return -1;
    }
    set_slot(&self->val, value);
    return 0;
}

static PyGetSetDef base_getset[] = {
    {"_val", (getter)base_get_val, (setter)base_set_val, NULL, NULL},
    {NULL}
};

static PyObject *
set_access_hook(PyObject *module, PyObject *hook)
{
    if (hook == Py_None) {
        Py_CLEAR(access_hook);
    }
    else {
        Py_INCREF(hook);
        Py_XSETREF(access_hook, hook);
    }
    Py_RETURN_NONE;
}

static PyMemberDef base_members[] = {
    {"_v", T_OBJECT_EX, offsetof(ArrayBaseObject, val), READONLY, NULL},
    {"_dev", T_OBJECT_EX, offsetof(ArrayBaseObject, dev), 0, NULL},
    {"_read", T_OBJECT_EX, offsetof(ArrayBaseObject, read), 0, NULL},
    {"_weak", T_OBJECT_EX, offsetof(ArrayBaseObject, weak), 0, NULL},
    {"_aval", T_OBJECT_EX, offsetof(ArrayBaseObject, aval), 0, NULL},
    {"_host_memo", T_OBJECT_EX, offsetof(ArrayBaseObject, host_memo), 0, NULL},
    {NULL}
};

/* ------------------------------------------------------------------ binary operators
 *
 * ``xnp.numpy_api._fastpath.install_native_operators`` moves the fast path of the eager
 * binary operators (``fastpath.binary``) here, as the number slots of ``ArrayBase``, so
 * ``a + b`` runs no Python frame when it is served. The rule is the one of
 * ``fastpath._binary`` (read it first; this is the same code in C): no transformation
 * active in any thread, or the calling thread's trace is the base trace; the eager
 * ``FAST_OPS[name]`` (xnp/numpy_api/_fast_tables.py) is ``(kernels, bool_out, arity)``; both
 * operands exact ``Array``s with host values of one dtype with a kernel ``fn`` learnt from
 * the full path (``kernels[dtype]``, ``fastpath.learn``), or one such ``Array`` and a
 * Python float or small int that keeps its dtype (``fastpath.SCALAR_FITS``, derived from the
 * full path's promotion); then ``Array(fn(a, b), weak)``.
 * Anything else, and a ``ValueError`` from ``fn``, calls the operator's full path
 * (``forward(self, other)``, or ``reflected(self, other)`` when the left operand is not
 * an xnp array).
 */

enum { OP_ADD, OP_SUB, OP_MUL, OP_TRUEDIV, OP_AND, OP_OR, OP_XOR, N_OPS };
static const char *op_slots[N_OPS] = {"__add__", "__sub__", "__mul__", "__truediv__",
                                      "__and__", "__or__", "__xor__"};
static PyObject *op_name[N_OPS], *op_forward[N_OPS], *op_reflected[N_OPS];
static PyObject *g_array_type, *g_busy, *g_state, *g_base, *g_table, *g_native, *g_wrap;
static PyObject *g_fits;
static PyObject *str_trace, *str_dtype;

/* 1 when ``fastpath.SCALAR_FITS[dt]`` (``g_fits``) has one of ``bits``, 0 when not (or
 * when ``dt`` has no entry), -1 on error */
static int
fits_bits(PyObject *dt, long bits)
{
    PyObject *mask = PyDict_GetItemWithError(g_fits, dt);  /* borrowed */
    if (mask == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    long m = PyLong_AsLong(mask);
    if (m == -1 && PyErr_Occurred()) {
        return -1;
    }
    return (m & bits) != 0;
}

/* 1 when ``scalar`` (a Python float or int) keeps the dtype ``dt`` of a (``weak``) array,
 * by the bits ``fastpath.SCALAR_FITS`` (``g_fits``) derives from the full path's NEP 50 rule
 * (fastpath._scalar_fits), 0 when not, -1 on error */
static int
scalar_fits(PyObject *dt, int weak, PyObject *scalar)
{
    PyTypeObject *t = Py_TYPE(scalar);
    long bit;
    if (t == &PyFloat_Type) {
        bit = 1;
    }
    else if (t == &PyLong_Type) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(scalar, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow || v < -128 || v >= 128) {
            return 0;
        }
        bit = v >= 0 ? 2 : 4;
    }
    else {
        return 0;
    }
    return fits_bits(dt, bit << (weak ? 3 : 0));
}

/* 1 when two weak arrays of dtype ``dt`` keep it (bit 64 of ``fastpath.SCALAR_FITS``),
 * 0 when not, -1 on error */
static int
weak_pair_fits(PyObject *dt)
{
    return fits_bits(dt, 64);
}

/* 1 when eager calls may be served now: the operators are configured and no thread is
 * tracing, or the calling thread's trace is the base trace */
static int
eager_now(void)
{
    if (g_array_type == NULL) {
        return 0;
    }
    if (PySet_GET_SIZE(g_busy) != 0) {
        PyObject *trace = PyObject_GetAttr(g_state, str_trace);
        if (trace == NULL) {
            PyErr_Clear();
            return 0;
        }
        Py_DECREF(trace);
        if (trace != g_base) {
            return 0;
        }
    }
    return 1;
}

/* ``FAST_OPS[name]`` (a ``FastUfunc``, ``(kernels, scalar_kernels, bool_out, arity)``): sets
 * ``kernels`` and ``scalar_kernels`` (borrowed: the dicts dtype -> ufunc learnt from the
 * full path) and returns ``bool_out`` (0 or 1), or -1 with no error set when there is none */
static int
fast_op(PyObject *name, PyObject **kernels, PyObject **scalar_kernels)
{
    PyObject *table = PyList_GET_ITEM(g_table, 0);
    PyObject *op = PyDict_Check(table) ? PyDict_GetItemWithError(table, name) : NULL;
    if (op == NULL || !PyTuple_Check(op) || PyTuple_GET_SIZE(op) != 4 ||
        !PyDict_Check(PyTuple_GET_ITEM(op, 0)) || !PyDict_Check(PyTuple_GET_ITEM(op, 1))) {
        PyErr_Clear();
        return -1;
    }
    *kernels = PyTuple_GET_ITEM(op, 0);
    *scalar_kernels = PyTuple_GET_ITEM(op, 1);
    int bool_out = PyObject_IsTrue(PyTuple_GET_ITEM(op, 2));
    if (bool_out < 0) {
        PyErr_Clear();
    }
    return bool_out;
}

/* the kernel ``kernels`` holds for ``dt`` (a new reference), or NULL: none (no error set)
 * or an error */
static PyObject *
kernel_for(PyObject *kernels, PyObject *dt)
{
    PyObject *fn = PyDict_GetItemWithError(kernels, dt);
    return fn == NULL ? NULL : Py_NewRef(fn);
}

/* ``Array(out, weak)`` for a backend result ``out`` (a new reference, stolen), wrapped as
 * the backend's native type when it is not one (a NumPy scalar); NULL on error */
static PyObject *
new_array(PyObject *out, int weak)
{
    if ((PyObject *)Py_TYPE(out) != PyList_GET_ITEM(g_native, 0)) {
        PyObject *wrapped = PyObject_CallOneArg(PyList_GET_ITEM(g_wrap, 0), out);
        Py_DECREF(out);
        if (wrapped == NULL) {
            return NULL;
        }
        out = wrapped;
    }
    PyTypeObject *array = (PyTypeObject *)g_array_type;
    PyObject *result = array->tp_alloc(array, 0);
    if (result == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    ArrayBaseObject *r = (ArrayBaseObject *)result;
    r->val = out;
    r->weak = Py_NewRef(weak ? Py_True : Py_False);
    r->dev = Py_NewRef(Py_None);
    r->aval = Py_NewRef(Py_None);
    r->host_memo = Py_NewRef(Py_None);
    return result;
}

/* the served result for a backend result ``out`` (stolen): with ``scalars`` (a NumPy
 * function's fast path, ``FastFunc(..., scalars=True)``) a NumPy scalar is returned as it
 * is, as NumPy's function returns it; otherwise (and for an array) ``Array(out, weak)`` */
static PyObject *
served_result(PyObject *out, int weak, int scalars)
{
    if (scalars && (PyObject *)Py_TYPE(out) != PyList_GET_ITEM(g_native, 0)) {
        return out;
    }
    return new_array(out, weak);
}

/* The operands of ``left op right`` when the fast path serves it (the rule above): 1 and
 * ``*fn`` (the kernel, a new reference), ``*va``/``*vb`` (borrowed: the host values or the
 * Python scalar), ``*weak`` (the result's weak type) and ``*bool_out`` set; 0 when not
 * served (no error set); -1 on error */
static int
binary_operands(PyObject *name, PyObject *left, PyObject *right, PyObject **fn_out,
                PyObject **va_out, PyObject **vb_out, int *weak_out, int *bool_out_out)
{
    if (!eager_now()) {
        return 0;
    }
    PyObject *kernels, *scalar_kernels, *fn = NULL;
    int bool_out = fast_op(name, &kernels, &scalar_kernels);
    if (bool_out < 0) {
        return 0;
    }
    PyTypeObject *array = (PyTypeObject *)g_array_type;
    PyObject *va = NULL, *vb = NULL, *dta = NULL, *dtb = NULL;
    int weak = 0, ok = 0;
    if (Py_TYPE(left) == array) {
        ArrayBaseObject *a = (ArrayBaseObject *)left;
        if (a->val == NULL || a->val == Py_None) {
            return 0;
        }
        dta = PyObject_GetAttr(a->val, str_dtype);
        if (dta == NULL) {
            goto error;
        }
        fn = kernel_for(Py_TYPE(right) == array ? kernels : scalar_kernels, dta);
        if (fn == NULL && PyErr_Occurred()) {
            goto error;
        }
        if (fn != NULL) {
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
                    weak = wa && b->weak != NULL && PyObject_IsTrue(b->weak) == 1;
                    if (same && weak) {  /* two weak arrays keep the dtype (SCALAR_FITS) */
                        same = weak_pair_fits(dta);
                        if (same < 0) {
                            goto error;
                        }
                    }
                    if (same) {
                        va = a->val;
                        vb = b->val;
                        ok = 1;
                    }
                }
            }
            else {
                int fits = scalar_fits(dta, wa, right);
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
            return 0;
        }
        dtb = PyObject_GetAttr(b->val, str_dtype);
        if (dtb == NULL) {
            goto error;
        }
        fn = kernel_for(scalar_kernels, dtb);
        if (fn == NULL && PyErr_Occurred()) {
            goto error;
        }
        if (fn != NULL) {
            int wb = b->weak != NULL && PyObject_IsTrue(b->weak) == 1;
            int fits = scalar_fits(dtb, wb, left);
            if (fits < 0) {
                goto error;
            }
            if (fits) {
                va = left;
                vb = b->val;
                weak = wb;
                ok = 1;
            }
        }
    }
    Py_XDECREF(dta);
    Py_XDECREF(dtb);
    if (!ok) {
        Py_XDECREF(fn);
        return 0;
    }
    *fn_out = fn;
    *va_out = va;
    *vb_out = vb;
    *weak_out = weak;
    *bool_out_out = bool_out;
    return 1;
error:
    Py_XDECREF(dta);
    Py_XDECREF(dtb);
    Py_XDECREF(fn);
    return -1;
}

/* the served result of ``left op right`` (a new reference), or NULL with no error set
 * when the call is not served, or NULL with an error set; ``scalars``: see
 * served_result */
static PyObject *
fast_binary(PyObject *name, PyObject *left, PyObject *right, int scalars, int elide)
{
    PyObject *fn, *va, *vb;
    int weak, bool_out;
    int served = binary_operands(name, left, right, &fn, &va, &vb, &weak, &bool_out);
    if (served <= 0) {
        return NULL;
    }
    PyObject *out = NULL;
    if (elide && !bool_out) {  /* an operator: a temporary operand may hold the result */
        out = elide_call(fn, left, right, va, vb, (PyTypeObject *)g_array_type);
    }
    if (out == NULL && !PyErr_Occurred()) {
        PyObject *args[2] = {va, vb};
        out = PyObject_Vectorcall(fn, args, 2, NULL);
    }
    Py_DECREF(fn);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) && !elide_broadcastable(va, vb)) {
            PyErr_Clear();  /* shapes that do not broadcast: the full path words the error */
        }
        return NULL;  /* anything else (an errstate callback's error) is the call's own */
    }
    return served_result(out, weak && !bool_out, scalars);
}

static PyObject *
binary_slot(int k, PyObject *left, PyObject *right)
{
    if (op_forward[k] == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *out = fast_binary(op_name[k], left, right, 0, 1);
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

/* the served result of ``name(x)`` for a unary ``FAST_OPS`` entry (``fastpath._unary``):
 * an exact ``Array`` with a host value of a dtype with a learnt kernel; NULL with no error set
 * when the call is not served, NULL with an error set on error */
static PyObject *
fast_unary(PyObject *name, PyObject *x, int scalars)
{
    if (!eager_now() || Py_TYPE(x) != (PyTypeObject *)g_array_type) {
        return NULL;
    }
    ArrayBaseObject *a = (ArrayBaseObject *)x;
    if (a->val == NULL || a->val == Py_None) {
        return NULL;
    }
    PyObject *kernels, *scalar_kernels;
    int bool_out = fast_op(name, &kernels, &scalar_kernels);
    if (bool_out < 0) {
        return NULL;
    }
    PyObject *dt = PyObject_GetAttr(a->val, str_dtype);
    if (dt == NULL) {
        return NULL;
    }
    PyObject *fn = kernel_for(kernels, dt);
    Py_DECREF(dt);
    if (fn == NULL) {
        return NULL;
    }
    int weak = a->weak != NULL && PyObject_IsTrue(a->weak) == 1;
    PyObject *out = PyObject_CallOneArg(fn, a->val);
    Py_DECREF(fn);
    if (out == NULL) {
        return NULL;
    }
    return served_result(out, weak && !bool_out, scalars);
}

/* ------------------------------------------------------------------ views and metadata
 *
 * ``FastFunc(name, arity, False, slow, kind="view")``: the fast path of ``fastpath.reshape``,
 * ``transpose`` and the ``reshape``/``transpose`` methods and ``T`` (read them first: this
 * is their rule in C). A call ``(a, *rest)`` of at most ``arity`` positional arguments
 * (0: any number, a method's ``*shape``) and no keyword, ``a`` an exact ``Array``
 * holding its host value (not a jit output's buffer view: ``_dev`` is None) of a dtype in
 * ``FAST_CALLS[name].dtypes``, each of ``rest`` an int or a tuple of ints, is
 * ``Array(FAST_CALLS[name].fn(value, *rest), weak)`` (NumPy's view); anything else, and a
 * ``ValueError`` or ``TypeError`` from NumPy, is ``slow(*args)``, which raises xnp's
 * message. ``kind="meta"``: the array's ``shape``/``dtype``/``ndim``/``size`` (``name``)
 * or ``len`` (``"__len__"``) read from its host value when that is the backend's native
 * array (what ``Array._meta`` reads; ``len`` of a 0-d array raises NumPy's TypeError, the
 * full path's message); otherwise ``slow(a)``. ``kind="asarray"``: ``fast_asarray``. */
static PyObject *g_calls = NULL;  /* fastpath._CALLS: [FAST_CALLS, or {} while off] */
static PyObject *str_len = NULL;

#define MAX_VIEW_ARGS 8

/* an int, or a tuple of ints (exact classes: a bool or a NumPy integer takes the full
 * path) */
static int
int_argument(PyObject *x)
{
    if (PyLong_CheckExact(x)) {
        return 1;
    }
    if (!PyTuple_CheckExact(x)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(x); i++) {
        if (!PyLong_CheckExact(PyTuple_GET_ITEM(x, i))) {
            return 0;
        }
    }
    return 1;
}

/* the host value of an exact eager ``Array`` holding it as the backend's native array
 * (borrowed), or NULL (no error) */
static PyObject *
native_value(PyObject *x, int exact)
{
    if (g_native == NULL) {
        return NULL;
    }
    if (exact ? Py_TYPE(x) != (PyTypeObject *)g_array_type
              : !PyObject_TypeCheck(x, &ArrayBaseType)) {
        return NULL;
    }
    PyObject *v = ((ArrayBaseObject *)x)->val;
    if (v == NULL || (PyObject *)Py_TYPE(v) != PyList_GET_ITEM(g_native, 0)) {
        return NULL;
    }
    return v;
}

/* ``FAST_CALLS[name]`` (borrowed) when the native array ``v``'s dtype is among its dtypes,
 * or NULL (no error) */
static PyObject *
call_for(PyObject *name, PyObject *v)
{
    PyObject *table = PyList_GET_ITEM(g_calls, 0);
    PyObject *op = PyDict_Check(table) ? PyDict_GetItemWithError(table, name) : NULL;
    PyObject *dt = op != NULL && PyTuple_Check(op) && PyTuple_GET_SIZE(op) >= 2 ?
        PyObject_GetAttr(v, str_dtype) : NULL;
    int in = dt == NULL ? 0 : PySequence_Contains(PyTuple_GET_ITEM(op, 1), dt);
    Py_XDECREF(dt);
    if (in <= 0) {
        PyErr_Clear();
        return NULL;
    }
    return op;
}

static PyObject *
fast_view(PyObject *name, PyObject *const *args, Py_ssize_t n, int arity)
{
    if (g_calls == NULL || n > MAX_VIEW_ARGS || (arity > 0 && n > arity) || !eager_now()) {
        return NULL;
    }
    PyObject *v = native_value(args[0], 1);
    ArrayBaseObject *a = (ArrayBaseObject *)args[0];
    if (v == NULL || (a->dev != NULL && a->dev != Py_None)) {
        return NULL;
    }
    for (Py_ssize_t i = 1; i < n; i++) {
        if (!int_argument(args[i])) {
            return NULL;
        }
    }
    PyObject *op = call_for(name, v);
    if (op == NULL) {
        return NULL;
    }
    PyObject *argv[MAX_VIEW_ARGS];
    argv[0] = v;
    for (Py_ssize_t i = 1; i < n; i++) {
        argv[i] = args[i];
    }
    int weak = a->weak != NULL && PyObject_IsTrue(a->weak) == 1;
    PyObject *out = PyObject_Vectorcall(PyTuple_GET_ITEM(op, 0), argv, n, NULL);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();  /* numpy.exceptions.AxisError is both: the full path raises */
        }
        return NULL;
    }
    return new_array(out, weak);
}

/* ``asarray(a)`` of one argument (``FastFunc(..., kind="asarray")``), the rule of
 * ``fastpath.asarray``: an exact eager ``Array`` is returned as it is, a NumPy array of a
 * dtype in ``FAST_CALLS[name]``'s set is wrapped (its memory shared, as numpy.asarray
 * shares it); NULL (no error) for anything else */
static PyObject *
fast_asarray(PyObject *name, PyObject *a)
{
    if (g_calls == NULL || !eager_now()) {
        return NULL;
    }
    if (Py_TYPE(a) == (PyTypeObject *)g_array_type) {  /* (while the fast path is on) */
        PyObject *table = PyList_GET_ITEM(g_calls, 0);
        return PyDict_Check(table) && PyDict_GetItem(table, name) ? Py_NewRef(a) : NULL;
    }
    if ((PyObject *)Py_TYPE(a) != PyList_GET_ITEM(g_native, 0) || call_for(name, a) == NULL) {
        return NULL;
    }
    return new_array(Py_NewRef(a), 0);
}

static PyObject *
fast_meta(PyObject *name, PyObject *x)
{
    PyObject *v = native_value(x, 0);
    if (v == NULL) {
        return NULL;
    }
    if (name == str_len || PyUnicode_Compare(name, str_len) == 0) {
        Py_ssize_t len = PyObject_Length(v);
        return len < 0 ? NULL : PyLong_FromSsize_t(len);
    }
    return PyObject_GetAttr(v, name);
}

/* ``x[idx] = value`` served by NumPy's item assignment (setitem.c) when no transformation
 * is active (nor a grad/vmap scope, nor a rebound array), the eager backend computes with
 * NumPy and ``x`` is an eager array holding its host value: 1 served, 0 not, -1 error */
static PyObject *g_scopes = NULL, *g_rebound = NULL;  /* one-element lists of counts */
static PyObject *g_out_kwnames = NULL;  /* ("out",): fast_out's call of a kernel */
static PyObject *g_refused = NULL;  /* refused(slow, x, idx, value): see configure_setitem */

/* the host value of the eager array ``x`` (borrowed), or NULL (no error) for a jit
 * output or an array without one */
static PyObject *
host_value(PyObject *x)
{
    ArrayBaseObject *b = (ArrayBaseObject *)x;
    return b->dev != Py_None || b->val == NULL || b->val == Py_None ? NULL : b->val;
}

/* ``idx`` with its eager index arrays and masks (entries, or itself) as their host values
 * (a new reference: ``idx`` itself, or a new tuple); NULL with no error when one has no
 * host value (a jit output), NULL with an error set on error */
static PyObject *
host_index(PyObject *idx)
{
    if (Py_TYPE(idx) == (PyTypeObject *)g_array_type) {
        return Py_XNewRef(host_value(idx));
    }
    if (!PyTuple_CheckExact(idx)) {
        return Py_NewRef(idx);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(idx), k = 0;
    while (k < n && Py_TYPE(PyTuple_GET_ITEM(idx, k)) != (PyTypeObject *)g_array_type) {
        k++;
    }
    if (k == n) {
        return Py_NewRef(idx);
    }
    PyObject *index = PyTuple_New(n);
    for (Py_ssize_t j = 0; index != NULL && j < n; j++) {
        PyObject *item = PyTuple_GET_ITEM(idx, j);
        if (Py_TYPE(item) == (PyTypeObject *)g_array_type) {
            item = host_value(item);
            if (item == NULL) {
                Py_CLEAR(index);
                return NULL;
            }
        }
        PyTuple_SET_ITEM(index, j, Py_NewRef(item));
    }
    return index;
}

/* ``x[idx]`` served by NumPy's item access (setitem.c) when no transformation is active
 * in the calling thread, the eager backend computes with NumPy and ``x`` is an eager
 * array holding its host value (the rule of ``_fast_getitem.getitem``): the result (an
 * ``Array`` of ``x``'s weak type, or NumPy's scalar for one element), NULL with no error
 * when not served, NULL with an error set on error */
static PyObject *
fast_getitem(PyObject *x, PyObject *idx)
{
    if (g_table == NULL || !eager_now() || !PyObject_TypeCheck(x, &ArrayBaseType)) {
        return NULL;
    }
    PyObject *table = PyList_GET_ITEM(g_table, 0);
    ArrayBaseObject *a = (ArrayBaseObject *)x;
    if (!PyDict_Check(table) || PyDict_GET_SIZE(table) == 0 || a->dev != Py_None ||
        a->val == NULL || a->val == Py_None) {
        return NULL;
    }
    PyObject *index = host_index(idx);
    if (index == NULL) {
        return NULL;
    }
    int served;
    PyObject *out = getitem_fast(a->val, index, &served);
    Py_DECREF(index);
    if (out == NULL || (PyObject *)Py_TYPE(out) != PyList_GET_ITEM(g_native, 0)) {
        return out;  /* not served, an error, or NumPy's scalar for one element */
    }
    return new_array(out, a->weak != NULL && PyObject_IsTrue(a->weak) == 1);
}

static int
fast_setitem(PyObject *x, PyObject *idx, PyObject *value)
{
    if (g_scopes == NULL || !eager_now() || Py_TYPE(x) != (PyTypeObject *)g_array_type) {
        return 0;
    }
    PyObject *table = PyList_GET_ITEM(g_table, 0);
    if (!PyDict_Check(table) || PyDict_GET_SIZE(table) == 0 ||
        PyObject_IsTrue(PyList_GET_ITEM(g_scopes, 0)) != 0 ||
        PyObject_IsTrue(PyList_GET_ITEM(g_rebound, 0)) != 0) {
        PyErr_Clear();
        return 0;
    }
    ArrayBaseObject *a = (ArrayBaseObject *)x;
    if (a->dev != Py_None || a->val == NULL || a->val == Py_None) {
        return 0;
    }
    int is_array = 0;
    if (Py_TYPE(value) == (PyTypeObject *)g_array_type) {
        value = host_value(value);
        if (value == NULL) {
            return 0;
        }
        is_array = 1;
    }
    PyObject *index = host_index(idx);
    if (index == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    int served = setitem_fast(a->val, index, value, is_array);
    Py_DECREF(index);
    return served;
}

/* ``name(x, out=o)`` or ``name(x1, x2, out=o)`` (``o`` also as a 1-tuple) served by the
 * learnt kernel writing into ``o``'s host memory, as NumPy's ``out=`` does: the operands
 * in the fast path's form (fast_unary, binary_operands; not a comparison), ``o`` an
 * exact ``Array`` holding its host memory (no device buffer) of the operands' dtype, and
 * no grad/vmap scope or rebound array (fast_setitem's rule), and an ``o`` NumPy takes
 * (elide_out_takes: writeable, the operands broadcast to it). Returns ``o`` (a new reference);
 * NULL with no error set when not served; NULL with an error set on error (a
 * floating-point error, or an errstate callback's, raised after NumPy's write). */
static PyObject *
fast_out(PyObject *name, PyObject *const *args, int arity, int swap, PyObject *o)
{
    if (g_scopes == NULL || !eager_now()) {
        return NULL;
    }
    if (PyTuple_CheckExact(o)) {
        if (PyTuple_GET_SIZE(o) != 1) {
            return NULL;
        }
        o = PyTuple_GET_ITEM(o, 0);
    }
    if (Py_TYPE(o) != (PyTypeObject *)g_array_type) {
        return NULL;
    }
    ArrayBaseObject *ob = (ArrayBaseObject *)o;
    if (ob->dev != Py_None || ob->val == NULL ||
        (PyObject *)Py_TYPE(ob->val) != PyList_GET_ITEM(g_native, 0)) {
        return NULL;
    }
    int scoped = PyObject_IsTrue(PyList_GET_ITEM(g_scopes, 0));
    int bound = PyObject_IsTrue(PyList_GET_ITEM(g_rebound, 0));
    if (scoped != 0 || bound != 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *fn = NULL, *va = NULL, *vb = NULL, *arr = NULL;
    int weak, bool_out;
    if (arity == 1) {
        if (Py_TYPE(args[0]) != (PyTypeObject *)g_array_type) {
            return NULL;
        }
        arr = ((ArrayBaseObject *)args[0])->val;
        PyObject *kernels, *scalar_kernels;
        bool_out = fast_op(name, &kernels, &scalar_kernels);
        if (bool_out != 0 || arr == NULL || arr == Py_None) {
            return NULL;
        }
        PyObject *dt = PyObject_GetAttr(arr, str_dtype);
        if (dt == NULL) {
            return NULL;
        }
        fn = kernel_for(kernels, dt);
        Py_DECREF(dt);
        if (fn == NULL) {
            return NULL;
        }
        va = arr;
    }
    else {
        PyObject *left = swap ? args[1] : args[0], *right = swap ? args[0] : args[1];
        int served = binary_operands(name, left, right, &fn, &va, &vb, &weak, &bool_out);
        if (served <= 0) {
            return NULL;
        }
        if (bool_out) {
            Py_DECREF(fn);
            return NULL;
        }
        arr = (PyObject *)Py_TYPE(va) == PyList_GET_ITEM(g_native, 0) ? va : vb;
    }
    /* the result's dtype is the operands': ``o`` must have it (no cast into ``o``) */
    PyObject *dt = PyObject_GetAttr(arr, str_dtype);
    PyObject *odt = dt == NULL ? NULL : PyObject_GetAttr(ob->val, str_dtype);
    int same = odt == NULL ? -1 : odt == dt ? 1 : PyObject_RichCompareBool(odt, dt, Py_EQ);
    Py_XDECREF(dt);
    Py_XDECREF(odt);
    if (same <= 0) {
        Py_DECREF(fn);
        return NULL;
    }
    PyObject *call[4] = {NULL, va, vb, ob->val};
    if (arity == 1) {
        call[2] = ob->val;
    }
    int takes = elide_out_takes(ob->val, call + 1, arity);
    if (takes <= 0) {  /* a refused ``o``: the full path words it */
        Py_DECREF(fn);
        return NULL;
    }
    PyObject *res = PyObject_Vectorcall(fn, call + 1, arity | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                        g_out_kwnames);
    Py_DECREF(fn);
    if (res == NULL) {
        return NULL;  /* after NumPy's write (an errstate callback's or warning's error) */
    }
    Py_DECREF(res);
    return Py_NewRef(o);
}

static PyObject *
configure_setitem(PyObject *module, PyObject *args)
{
    PyObject *scopes, *rebound, *refused;
    if (!PyArg_ParseTuple(args, "O!O!O:configure_setitem", &PyList_Type, &scopes,
                          &PyList_Type, &rebound, &refused) || PyList_GET_SIZE(scopes) != 1 ||
        PyList_GET_SIZE(rebound) != 1 || !PyCallable_Check(refused)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError,
                            "configure_setitem: two one-element lists and a callable");
        }
        return NULL;
    }
    Py_XSETREF(g_scopes, Py_NewRef(scopes));
    Py_XSETREF(g_rebound, Py_NewRef(rebound));
    Py_XSETREF(g_refused, Py_NewRef(refused));
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ fast functions
 *
 * ``FastFunc(name, arity, swap, slow, scalars=False)``: the fast path of ``fastpath.unary`` (arity 1)
 * or ``fastpath.binary`` (arity 2; ``swap`` for a reflected operator, which computes
 * ``name(other, self)``), or of ``Array.__setitem__`` (arity 3, ``fast_setitem``: served
 * once ``configure_setitem`` was called), as a C callable, so a served call runs no Python
 * frame. A call
 * with exactly ``arity`` positional arguments is tried by the rule above; anything else,
 * and a call not served, is ``slow(*args, **kwargs)``. It binds as a method, as a Python
 * function does, and has a ``__dict__`` (``functools.wraps`` dresses it as ``slow``).
 * ``scalars``: a served NumPy scalar result (0-d operands) is returned as NumPy's function
 * returns it, not as a 0-d ``Array`` (xnp's public ufuncs; the operators keep arrays).
 */

typedef struct {
    PyObject_HEAD
    PyObject *name;
    PyObject *slow;
    PyObject *dict;
    vectorcallfunc vectorcall;
    int arity;
    int swap;
    int scalars;
    int kind;  /* KIND_OP (arity 1-3), KIND_VIEW, KIND_META, KIND_GETITEM, KIND_ASARRAY or
                * KIND_INPLACE (``a += b``: fast_out into ``a``) */
} FastFuncObject;

enum { KIND_OP, KIND_VIEW, KIND_META, KIND_GETITEM, KIND_ASARRAY, KIND_INPLACE };

static PyObject *
fastfunc_vectorcall(FastFuncObject *self, PyObject *const *args, size_t nargsf,
                    PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    int no_keywords = kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0;
    if (self->kind == KIND_INPLACE) {
        if (n == 2 && no_keywords) {
            PyObject *out = fast_out(self->name, args, 2, 0, args[0]);
            if (out != NULL || PyErr_Occurred()) {
                return out;
            }
        }
    }
    else if (self->kind != KIND_OP) {
        if (n >= 1 && no_keywords) {
            PyObject *out = self->kind == KIND_VIEW ? fast_view(self->name, args, n, self->arity)
                            : self->kind == KIND_GETITEM ? (n == 2 ? fast_getitem(args[0], args[1])
                                                                   : NULL)
                            : n != 1 ? NULL
                            : self->kind == KIND_ASARRAY ? fast_asarray(self->name, args[0])
                            : fast_meta(self->name, args[0]);
            if (out != NULL || PyErr_Occurred()) {
                return out;
            }
        }
    }
    else if (n == 3 && self->arity == 3 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        int served = fast_setitem(args[0], args[1], args[2]);
        if (served == 2) {  /* NumPy refused the index, maybe after its cast warned */
            return PyObject_CallFunctionObjArgs(g_refused, self->slow, args[0], args[1],
                                                args[2], NULL);
        }
        if (served != 0) {
            return served < 0 ? NULL : Py_NewRef(Py_None);
        }
    }
    else if (n == self->arity && n <= 2 && kwnames != NULL && PyTuple_GET_SIZE(kwnames) == 1 &&
             PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out") == 0) {
        PyObject *out = fast_out(self->name, args, self->arity, self->swap, args[n]);
        if (out != NULL || PyErr_Occurred()) {
            return out;
        }
    }
    else if (n == self->arity && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        PyObject *out = n == 1 ? fast_unary(self->name, args[0], self->scalars)
                        : self->swap ? fast_binary(self->name, args[1], args[0], self->scalars, 0)
                                     : fast_binary(self->name, args[0], args[1], self->scalars, 0);
        if (out != NULL || PyErr_Occurred()) {
            return out;
        }
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *
fastfunc_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *name, *slow;
    int arity, swap, scalars = 0;
    const char *kind_name = "op";
    static char *kwlist[] = {"name", "arity", "swap", "slow", "scalars", "kind", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UipO|ps:FastFunc", kwlist, &name, &arity,
                                     &swap, &slow, &scalars, &kind_name)) {
        return NULL;
    }
    int kind = strcmp(kind_name, "op") == 0 ? KIND_OP : strcmp(kind_name, "view") == 0
               ? KIND_VIEW : strcmp(kind_name, "meta") == 0 ? KIND_META
               : strcmp(kind_name, "getitem") == 0 ? KIND_GETITEM
               : strcmp(kind_name, "asarray") == 0 ? KIND_ASARRAY
               : strcmp(kind_name, "inplace") == 0 ? KIND_INPLACE : -1;
    if (kind < 0) {
        PyErr_SetString(PyExc_ValueError, "FastFunc: kind must be 'op', 'view', 'meta', "
                        "'getitem', 'asarray' or 'inplace'");
        return NULL;
    }
    if (kind == KIND_VIEW ? arity < 0 : (arity < 1 || arity > 3)) {
        PyErr_SetString(PyExc_ValueError, "FastFunc: arity must be 1, 2 or 3 (a view's: "
                        "0 or more)");
        return NULL;
    }
    if (!PyCallable_Check(slow)) {
        PyErr_SetString(PyExc_TypeError, "FastFunc: slow must be callable");
        return NULL;
    }
    FastFuncObject *self = (FastFuncObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->name = Py_NewRef(name);
    self->slow = Py_NewRef(slow);
    self->arity = arity;
    self->swap = swap;
    self->scalars = scalars;
    self->kind = kind;
    self->vectorcall = (vectorcallfunc)fastfunc_vectorcall;
    return (PyObject *)self;
}

static int
fastfunc_traverse(FastFuncObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->name);
    Py_VISIT(self->slow);
    Py_VISIT(self->dict);
    return 0;
}

static int
fastfunc_clear(FastFuncObject *self)
{
    Py_CLEAR(self->name);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->dict);
    return 0;
}

static void
fastfunc_dealloc(FastFuncObject *self)
{
    PyObject_GC_UnTrack(self);
    fastfunc_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
fastfunc_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static PyObject *
fastfunc_repr(FastFuncObject *self)
{
    return PyUnicode_FromFormat("<fast path of %R>", self->slow);
}

static PyMemberDef fastfunc_members[] = {
    {"_fast_name", T_OBJECT_EX, offsetof(FastFuncObject, name), READONLY, NULL},
    {"_full_path", T_OBJECT_EX, offsetof(FastFuncObject, slow), READONLY, NULL},
    {"_scalars", T_INT, offsetof(FastFuncObject, scalars), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FastFuncObject, vectorcall), READONLY,
     NULL},
    {NULL}
};

static PyGetSetDef fastfunc_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}
};

static PyTypeObject FastFuncType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xnp._native._array_base.FastFunc",
    .tp_basicsize = sizeof(FastFuncObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "FastFunc(name, arity, swap, slow, scalars=False, kind='op'): an eager fast "
              "path in C (see xnp.numpy_api._fastpath: unary and binary; kind 'view', "
              "'meta' and 'asarray': views, metadata, asarray of one argument).",
    .tp_traverse = (traverseproc)fastfunc_traverse,
    .tp_clear = (inquiry)fastfunc_clear,
    .tp_dealloc = (destructor)fastfunc_dealloc,
    .tp_vectorcall_offset = offsetof(FastFuncObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = fastfunc_get,
    .tp_repr = (reprfunc)fastfunc_repr,
    .tp_dictoffset = offsetof(FastFuncObject, dict),
    .tp_members = fastfunc_members,
    .tp_getset = fastfunc_getset,
    .tp_new = fastfunc_new,
};

/* ------------------------------------------------------------------ jitted calls
 *
 * ``HotCall``: the base class of ``xnp.tracing.jit.JitWrapped`` whose call is, in C,
 * the last-hit test of its cache: when no thread traces (or the calling thread's trace
 * is an eval trace), ``self._cache.hot`` is ``(snapshot, check, entry)`` and its
 * snapshot is the current config snapshot, the call is ``check(args, kwargs)``; any
 * other call, and a ``MISS``, is ``self._call_miss(args, kwargs)``. So a cached call runs
 * one Python frame, the generated check. ``configure_hot_call(busy, state, eval_type,
 * snapshot, miss)`` gives it jit's objects (the set of tracing threads, the per-thread
 * state, the eval trace's class, the one-element list holding the config snapshot, the
 * check's MISS).
 */

typedef struct {
    PyObject_HEAD
    PyObject *cache;
    PyObject *dict;
    PyObject *weakreflist;
} HotCallObject;

static PyObject *h_busy, *h_state, *h_eval_type, *h_snapshot, *h_miss, *h_empty_kwargs;
static PyObject *str_hot, *str_call_miss;

static PyObject *
hotcall_call(HotCallObject *self, PyObject *args, PyObject *kwargs)
{
    int hot_ok = h_busy != NULL && self->cache != NULL;
    if (hot_ok && PySet_GET_SIZE(h_busy) != 0) {
        PyObject *trace = PyObject_GetAttr(h_state, str_trace);
        if (trace == NULL) {
            return NULL;
        }
        hot_ok = (PyObject *)Py_TYPE(trace) == h_eval_type;
        Py_DECREF(trace);
    }
    PyObject *kw = kwargs != NULL ? kwargs : h_empty_kwargs;
    if (hot_ok) {
        PyObject *hot = PyObject_GetAttr(self->cache, str_hot);
        if (hot == NULL) {
            return NULL;
        }
        if (PyTuple_Check(hot) && PyTuple_GET_SIZE(hot) >= 2 &&
                PyTuple_GET_ITEM(hot, 0) == PyList_GET_ITEM(h_snapshot, 0)) {
            PyObject *check = Py_NewRef(PyTuple_GET_ITEM(hot, 1));
            Py_DECREF(hot);
            PyObject *out = PyObject_CallFunctionObjArgs(check, args, kw, NULL);
            Py_DECREF(check);
            if (out != h_miss) {
                return out;  /* the result, or NULL with the call's exception */
            }
            Py_DECREF(out);
        } else {
            Py_DECREF(hot);
        }
    }
    return PyObject_CallMethodObjArgs((PyObject *)self, str_call_miss, args, kw, NULL);
}

static int
hotcall_traverse(HotCallObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cache);
    Py_VISIT(self->dict);
    return 0;
}

static int
hotcall_clear(HotCallObject *self)
{
    Py_CLEAR(self->cache);
    Py_CLEAR(self->dict);
    return 0;
}

static void
hotcall_dealloc(HotCallObject *self)
{
    /* a Python subclass's instance: subtype_dealloc drops the reference to its type */
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    hotcall_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef hotcall_members[] = {
    {"_cache", T_OBJECT, offsetof(HotCallObject, cache), 0,
     "the jit cache whose ``hot`` attribute the call reads"},
    {NULL}
};

static PyGetSetDef hotcall_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}
};

static PyTypeObject HotCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "xnp._native._array_base.HotCall",
    .tp_basicsize = sizeof(HotCallObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_doc = "HotCall: the base of a jitted function; its call tests the cache's last "
              "hit in C (see xnp.tracing.jit.JitWrapped).",
    .tp_traverse = (traverseproc)hotcall_traverse,
    .tp_clear = (inquiry)hotcall_clear,
    .tp_dealloc = (destructor)hotcall_dealloc,
    .tp_call = (ternaryfunc)hotcall_call,
    .tp_dictoffset = offsetof(HotCallObject, dict),
    .tp_weaklistoffset = offsetof(HotCallObject, weakreflist),
    .tp_members = hotcall_members,
    .tp_getset = hotcall_getset,
    .tp_new = PyType_GenericNew,
};

static PyObject *
configure_hot_call(PyObject *module, PyObject *args)
{
    PyObject *busy, *state, *eval_type, *snapshot, *miss;
    if (!PyArg_ParseTuple(args, "O!OOO!O:configure_hot_call", &PySet_Type, &busy, &state,
                          &eval_type, &PyList_Type, &snapshot, &miss)) {
        return NULL;
    }
    if (PyList_GET_SIZE(snapshot) != 1) {
        PyErr_SetString(PyExc_ValueError, "configure_hot_call: snapshot must be a 1-element list");
        return NULL;
    }
    if (h_empty_kwargs == NULL && (h_empty_kwargs = PyDict_New()) == NULL) {
        return NULL;
    }
    set_slot(&h_busy, busy);
    set_slot(&h_state, state);
    set_slot(&h_eval_type, eval_type);
    set_slot(&h_snapshot, snapshot);
    set_slot(&h_miss, miss);
    Py_RETURN_NONE;
}

/* The buffer protocol (memoryview(a), bytes(a), numpy.frombuffer(a), struct, hashlib, and
 * NumPy's own conversion, which asks for a buffer before ``__array__``): the buffer of the
 * NumPy array ``a._buffer_memory(flags)`` returns (xnp/_array_export.py: ``a._value``, or
 * ``a._writable_value()`` for a writable request, so reading a jit output copies nothing and
 * its buffer is read-only; the tracer's conversion error for an array that stands for a
 * traced value), exported by NumPy itself: the view holds a reference to that NumPy array,
 * which keeps the memory alive. */

/* 1 when numpy.asarray(memoryview(memory)).dtype is memory.dtype (their reprs are equal), 0
 * when not, -1 on error. */
static int
format_round_trips(PyObject *memory)
{
    static PyObject *numpy_asarray = NULL;
    if (numpy_asarray == NULL) {
        PyObject *numpy = PyImport_ImportModule("numpy");
        if (numpy == NULL) {
            return -1;
        }
        numpy_asarray = PyObject_GetAttrString(numpy, "asarray");
        Py_DECREF(numpy);
        if (numpy_asarray == NULL) {
            return -1;
        }
    }
    PyObject *view = PyMemoryView_FromObject(memory);
    if (view == NULL) {
        return -1;
    }
    PyObject *back = PyObject_CallOneArg(numpy_asarray, view);
    Py_DECREF(view);
    if (back == NULL) {
        PyErr_Clear();  /* NumPy cannot read the format: not the same dtype */
        return 0;
    }
    /* the reprs: equal dtypes may differ in what equality ignores (an aligned struct) */
    PyObject *d1 = PyObject_GetAttrString(back, "dtype");
    Py_DECREF(back);
    PyObject *d2 = d1 == NULL ? NULL : PyObject_GetAttrString(memory, "dtype");
    PyObject *r1 = d2 == NULL ? NULL : PyObject_Repr(d1);
    PyObject *r2 = r1 == NULL ? NULL : PyObject_Repr(d2);
    int same = r2 == NULL ? -1 : PyObject_RichCompareBool(r1, r2, Py_EQ);
    Py_XDECREF(d1);
    Py_XDECREF(d2);
    Py_XDECREF(r1);
    Py_XDECREF(r2);
    return same;
}

static int
base_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    /* an eager array holding its host memory, while no thread records a call (which
     * watches value reads) and no array stands for a traced value: NumPy's buffer of its
     * value, with no Python call (``numpy.asarray(a)`` asks for it first) */
    PyObject *memory = access_hook == NULL && g_rebound != NULL &&
        PyObject_IsTrue(PyList_GET_ITEM(g_rebound, 0)) == 0 ? native_value(self, 0) : NULL;
    if (memory != NULL && ((ArrayBaseObject *)self)->dev == Py_None &&
        host_buffer(memory, view, flags)) {
        Py_INCREF(memory);
    }
    else {
        memory = PyObject_CallMethod(self, "_buffer_memory", "i", flags);
        if (memory == NULL) {
            return -1;
        }
        if (PyObject_GetBuffer(memory, view, flags) < 0) {
            Py_DECREF(memory);
            return -1;
        }
    }
    /* A structured or void dtype's buffer format (PEP 3118 ``T{...}``, ``x`` padding) may not
     * carry all of the dtype (field titles, an unnamed void), and NumPy's conversion asks for
     * the buffer before ``__array__``: such a buffer is refused (numpy.asarray(a) then uses
     * ``__array__``) unless NumPy reads the format back as the same dtype. */
    if (view->format != NULL && (strchr(view->format, '{') || strchr(view->format, 'x'))) {
        int same = format_round_trips(memory);
        if (same != 1) {
            PyBuffer_Release(view);
            if (same == 0) {
                PyObject *dtype = PyObject_GetAttrString(memory, "dtype");
                if (dtype != NULL) {
                    PyErr_Format(PyExc_BufferError,
                                 "xnp.ndarray: an array of dtype %R has no buffer format that "
                                 "keeps its dtype; use a.tobytes() or numpy.asarray(a).data",
                                 dtype);
                    Py_DECREF(dtype);
                }
            }
            Py_DECREF(memory);
            return -1;
        }
    }
    Py_DECREF(memory);
    return 0;
}

static PyBufferProcs base_as_buffer = {
    .bf_getbuffer = base_getbuffer,
    .bf_releasebuffer = NULL,
};

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
    PyObject *array, *busy, *state, *base, *table, *native, *wrap, *ops, *fits;
    if (!PyArg_ParseTuple(args, "OO!OOO!O!O!O!O!:configure_operators", &array, &PySet_Type,
                          &busy, &state, &base, &PyList_Type, &table, &PyList_Type, &native,
                          &PyList_Type, &wrap, &PyDict_Type, &ops, &PyDict_Type, &fits)) {
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
    Py_XSETREF(g_fits, Py_NewRef(fits));
    Py_XSETREF(g_array_type, Py_NewRef(array));
    Py_RETURN_NONE;
}

/* ``configure_calls(calls)``: the one-element list holding ``FAST_CALLS`` (or {} while the
 * fast path is off) that the view fast paths read; after ``configure_operators`` */
static PyObject *
configure_calls(PyObject *module, PyObject *calls)
{
    if (!PyList_Check(calls) || PyList_GET_SIZE(calls) < 1) {
        PyErr_SetString(PyExc_TypeError, "configure_calls: a one-element list");
        return NULL;
    }
    Py_XSETREF(g_calls, Py_NewRef(calls));
    Py_RETURN_NONE;
}

static PyObject *
set_constructor(PyObject *module, PyObject *args)
{
    PyObject *fn, *types;
    if (!PyArg_ParseTuple(args, "OO!:set_constructor", &fn, &PyFrozenSet_Type, &types)) {
        return NULL;
    }
    Py_INCREF(fn);
    Py_XSETREF(constructor, fn);
    Py_INCREF(types);
    Py_XSETREF(shape_types, types);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"elisions", elide_count, METH_NOARGS,
     "elisions(): how many eager operators computed into a temporary operand's memory "
     "(elide.c)."},
    {"set_access_hook", set_access_hook, METH_O,
     "set_access_hook(hook): call hook(array) before every read and write of an array's "
     "_val from Python (None: stop)."},
    {"set_constructor", set_constructor, METH_VARARGS,
     "set_constructor(fn, shape_types): fn(self, *args, **kwargs) makes NumPy's "
     "ndarray(shape, ...) form; shape_types is a frozenset of classes of a shape."},
    {"configure_setitem", configure_setitem, METH_VARARGS,
     "configure_setitem(scopes, rebound, refused): serve FastFunc(..., arity=3) item "
     "assignments while both one-element lists hold 0 (no grad/vmap scope, no rebound "
     "array); refused(slow, x, idx, value) runs the full path of an assignment whose index "
     "NumPy refused after its cast of the value (its own cast's warnings silenced)."},
    {"configure_operators", configure_operators, METH_VARARGS,
     "configure_operators(array, busy, state, base, table, native, wrap, ops, fits): serve the "
     "binary operators of ``array`` (an ArrayBase subclass) by the number slots; ``ops`` "
     "maps each of __add__, __sub__, __mul__, __truediv__, __and__, __or__, __xor__ to "
     "(FAST_OPS name, forward full path, reflected full path); ``fits`` is "
     "fastpath.SCALAR_FITS (dtype -> which Python scalars keep it), read on each call."},
    {"configure_calls", configure_calls, METH_O,
     "configure_calls(calls): the one-element list holding FAST_CALLS that the view fast "
     "paths (FastFunc(..., kind='view')) read."},
    {"configure_hot_call", configure_hot_call, METH_VARARGS,
     "configure_hot_call(busy, state, eval_type, snapshot, miss): the objects HotCall's "
     "call reads (see HotCall)."},
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
    .tp_getset = base_getset,
    .tp_as_number = &base_as_number,
    .tp_as_buffer = &base_as_buffer,
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
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&FastFuncType) < 0 ||
            PyType_Ready(&HotCallType) < 0 || elide_init() < 0 || setitem_init() < 0) {
        return NULL;
    }
    str_trace = PyUnicode_InternFromString("trace");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_hot = PyUnicode_InternFromString("hot");
    str_call_miss = PyUnicode_InternFromString("_call_miss");
    str_len = PyUnicode_InternFromString("__len__");
    g_out_kwnames = Py_BuildValue("(s)", "out");
    if (str_len == NULL || str_trace == NULL || str_dtype == NULL || str_hot == NULL ||
            str_call_miss == NULL || g_out_kwnames == NULL) {
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
    Py_INCREF(&FastFuncType);
    if (PyModule_AddObject(m, "FastFunc", (PyObject *)&FastFuncType) < 0) {
        Py_DECREF(&FastFuncType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&HotCallType);
    if (PyModule_AddObject(m, "HotCall", (PyObject *)&HotCallType) < 0) {
        Py_DECREF(&HotCallType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
