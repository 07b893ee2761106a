/* The layout of an eager xnp array (``ArrayBase``, array_base.c), shared with the other
 * native helpers that read its slots (replay.c). */
#ifndef XNP_ARRAY_BASE_H
#define XNP_ARRAY_BASE_H

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

#endif
