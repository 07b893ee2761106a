/* The storage of an eager xnp array: six object slots and weak-reference support.
 *
 * ``xnp.tracing.core.Array`` derives from ``ArrayBase`` and adds only behaviour. Making an
 * array is the cost every eager operation and every jitted call's output pays, so the
 * constructor runs here: ``ArrayBase(value, weak_type=False, dev=None, aval=None)`` sets
 * ``_val``, ``_weak``, ``_dev``, ``_aval`` and clears ``_host_memo``; ``_read`` stays unset
 * (reading it raises ``AttributeError``, as for an unset ``__slots__`` entry).
 * ``xnp/tracing/core.py`` holds the same class in Python, used when this module is not
 * built.
 *
 * The same call is NumPy's constructor, ``xnp.ndarray(shape, dtype=float, buffer=None,
 * offset=0, strides=None, order=None)``: a first argument that is a shape (an int, a tuple,
 * a list, a range or one of the registered ``shape_types``; never a native array), more
 * than four arguments or a keyword other than the four above hand the call to the Python
 * constructor registered with ``set_constructor`` (``xnp/ndarray_class.py``).
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
    if (constructor == NULL) {
        return 0;
    }
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

static PyMemberDef base_members[] = {
    {"_val", T_OBJECT_EX, offsetof(ArrayBaseObject, val), 0, NULL},
    {"_dev", T_OBJECT_EX, offsetof(ArrayBaseObject, dev), 0, NULL},
    {"_read", T_OBJECT_EX, offsetof(ArrayBaseObject, read), 0, NULL},
    {"_weak", T_OBJECT_EX, offsetof(ArrayBaseObject, weak), 0, NULL},
    {"_aval", T_OBJECT_EX, offsetof(ArrayBaseObject, aval), 0, NULL},
    {"_host_memo", T_OBJECT_EX, offsetof(ArrayBaseObject, host_memo), 0, NULL},
    {NULL}
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
    .tp_init = (initproc)base_init,
    .tp_new = PyType_GenericNew,
};

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
    {"set_constructor", set_constructor, METH_VARARGS,
     "set_constructor(fn, shape_types): fn(self, *args, **kwargs) makes NumPy's "
     "ndarray(shape, ...) form; shape_types is a frozenset of classes of a shape."},
    {NULL}
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
