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

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_array_base",
    "The C storage of xnp's eager arrays (optional; xnp.tracing.core has a Python fallback).",
    -1, NULL,
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
