/* The fast paths of an eager ``x[idx] = value`` and ``x[idx]`` and of its buffer
 * (setitem.c), called by array_base.c. */
#ifndef XNP_SETITEM_H
#define XNP_SETITEM_H

#include <Python.h>

/* imports NumPy's C API; 0, or -1 with an error set */
int setitem_init(void);

/* NumPy's item assignment ``val[idx] = value`` into ``val``, the host value of an eager
 * array, when that is what xnp's full path does: ``val`` a NumPy array of its own kind
 * whose memory is writable (not a ``broadcast_arrays`` result, whose writes warn), ``idx``
 * an int, a slice of ints, None, Ellipsis, a NumPy integer or bool array (the host value
 * of an eager index array or mask), or a tuple of them, and ``value`` a Python
 * scalar, a NumPy scalar or (``value_is_array``) the host value of an eager array.
 * 1: written; 0: not served, no error set (also when NumPy refused the assignment before
 * writing, with a ValueError, TypeError or OverflowError: the full path raises xnp's
 * message); 2: not served, NumPy refused the index with an IndexError, which it may check
 * after its cast of the value warned (the full path raises xnp's message, its own cast's
 * warnings silenced); -1: an error NumPy raised after its cast (a floating-point error
 * under ``numpy.errstate`` 'raise', a warning made an error). */
int setitem_fast(PyObject *val, PyObject *idx, PyObject *value, int value_is_array);

/* NumPy's item access ``val[idx]`` of ``val``, the host value of an eager array (a NumPy
 * array of its own kind), when that is what xnp's full path does: ``idx`` an int, a slice,
 * None, Ellipsis, a NumPy integer or bool array (the host value of an eager index array or
 * mask), a non-empty list of ints, or a tuple of them. ``*served`` 1: the result (a view,
 * a copy, or NumPy's scalar for one element), or NULL with NumPy's error set (other than
 * an IndexError); 0: NULL, not served, no error set (also for an IndexError: the full
 * path raises xnp's message). */
PyObject *getitem_fast(PyObject *val, PyObject *idx, int *served);

/* NumPy's buffer of ``val``, the host value of an eager array, for the buffer protocol
 * (``flags`` the request's): 1 exported (``view->obj`` holds ``val``); 0 not, no error set
 * (``val`` is not a NumPy array, its dtype has metadata, which a buffer format cannot
 * carry, or NumPy refused the request: a writable buffer of read-only memory). */
int host_buffer(PyObject *val, Py_buffer *view, int flags);

#endif
