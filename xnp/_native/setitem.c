/* The fast paths of an eager ``x[idx] = value``, ``x[idx]`` and its buffer: NumPy's own
 * item assignment, item access and buffer export, from C, so a served call runs no Python frame (NumPy's
 * warnings name the caller's line). See setitem.h; ``FastFunc(..., arity=3)`` and
 * ``FastFunc(..., kind="getitem")`` of array_base.c call them. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "setitem.h"

/* NumPy's flag on the results of broadcast_arrays (and views of them): a write warns */
#define WARN_ON_WRITE 0x80000000u

int
setitem_init(void)
{
    import_array1(-1);
    return 0;
}

/* an int, a slice, None, Ellipsis, or a NumPy integer or bool array (an index array or
 * a mask: NumPy's advanced indexing, which checks every index before it writes) */
static int
basic_item(PyObject *i)
{
    if (PyArray_CheckExact(i)) {
        int t = PyArray_DESCR((PyArrayObject *)i)->type_num;
        return PyTypeNum_ISINTEGER(t) || PyTypeNum_ISBOOL(t);
    }
    return PyLong_CheckExact(i) || PySlice_Check(i) || i == Py_None || i == Py_Ellipsis;
}

/* ``idx`` one item ``item`` accepts, or a tuple of them */
static int
index_of(PyObject *idx, int (*item)(PyObject *))
{
    if (item(idx)) {
        return 1;
    }
    if (!PyTuple_CheckExact(idx)) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(idx); k++) {
        if (!item(PyTuple_GET_ITEM(idx, k))) {
            return 0;
        }
    }
    return 1;
}

static int
basic_index(PyObject *idx)
{
    return index_of(idx, basic_item);
}

static int
slice_of_ints(PyObject *s)
{
    PySliceObject *sl = (PySliceObject *)s;
    PyObject *parts[3] = {sl->start, sl->stop, sl->step};
    for (int k = 0; k < 3; k++) {
        if (parts[k] != Py_None && !PyLong_CheckExact(parts[k])) {
            return 0;
        }
    }
    return 1;
}

static int
int_slices(PyObject *idx)
{
    if (PySlice_Check(idx)) {
        return slice_of_ints(idx);
    }
    if (PyTuple_CheckExact(idx)) {
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(idx); k++) {
            PyObject *i = PyTuple_GET_ITEM(idx, k);
            if (PySlice_Check(i) && !slice_of_ints(i)) {
                return 0;
            }
        }
    }
    return 1;
}

int
setitem_fast(PyObject *val, PyObject *idx, PyObject *value, int value_is_array)
{
    if (!PyArray_CheckExact(val)) {
        return 0;
    }
    unsigned int flags = (unsigned int)PyArray_FLAGS((PyArrayObject *)val);
    if (!(flags & NPY_ARRAY_WRITEABLE) || (flags & WARN_ON_WRITE) || !basic_index(idx) ||
        !int_slices(idx)) {
        return 0;
    }
    if (value_is_array ? !PyArray_CheckExact(value) :
        !(PyLong_CheckExact(value) || PyBool_Check(value) || PyFloat_CheckExact(value) ||
          PyComplex_CheckExact(value) || PyArray_IsScalar(value, Generic))) {
        return 0;
    }
    if (PyObject_SetItem(val, idx, value) == 0) {
        return 1;
    }
    if (PyErr_ExceptionMatches(PyExc_IndexError)) {
        PyErr_Clear();
        return 2;  /* (NumPy checks an index array after its cast of the value) */
    }
    if (PyErr_ExceptionMatches(PyExc_ValueError) ||
        PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        return 0;
    }
    return -1;
}

/* a non-empty list of ints (NumPy's advanced indexing by a list) */
static int
int_list(PyObject *i)
{
    if (!PyList_CheckExact(i) || PyList_GET_SIZE(i) == 0) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(i); k++) {
        if (!PyLong_CheckExact(PyList_GET_ITEM(i, k))) {
            return 0;
        }
    }
    return 1;
}

/* an item of a read's index: basic, an index array or mask, or a list of ints */
static int
read_item(PyObject *i)
{
    return basic_item(i) || int_list(i);
}

PyObject *
getitem_fast(PyObject *val, PyObject *idx, int *served)
{
    *served = 0;
    if (!PyArray_CheckExact(val) || !index_of(idx, read_item)) {
        return NULL;
    }
    PyObject *out = PyObject_GetItem(val, idx);
    if (out == NULL && PyErr_ExceptionMatches(PyExc_IndexError)) {
        PyErr_Clear();  /* the full path raises xnp's message */
        return NULL;
    }
    *served = 1;
    return out;
}

int
host_buffer(PyObject *val, Py_buffer *view, int flags)
{
    if (!PyArray_Check(val) || PyDataType_METADATA(PyArray_DESCR((PyArrayObject *)val)) != NULL) {
        return 0;
    }
    if (PyObject_GetBuffer(val, view, flags) < 0) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}
