/* Temporary elision for the eager operators (elide.c), called by array_base.c. */
#ifndef XNP_ELIDE_H
#define XNP_ELIDE_H

/* imports NumPy's C API and looks up BINARY_OP; 0, or -1 with an error set */
int elide_init(void);

/* ``fn(va, vb, out=<the memory of left or right>)`` when one of the operands of the
 * operator ``left op right`` is a temporary that can hold the result (elide.c); NULL with
 * no error set when none can, NULL with an error set when ``fn`` raised */
PyObject *elide_call(PyObject *fn, PyObject *left, PyObject *right, PyObject *va,
                     PyObject *vb, PyTypeObject *array);

/* whether the native arrays (or scalars) ``va`` and ``vb`` broadcast against each other:
 * a ValueError of a call on operands that broadcast is the call's own (an errstate
 * callback's), not a shape mismatch the full path words */
int elide_broadcastable(PyObject *va, PyObject *vb);

/* 1 when a ufunc takes the native array ``out`` as its output without refusing it:
 * writeable, and each native array among ``operands`` (the others are Python scalars)
 * broadcasts to its shape. A refusal is a ValueError, which an errstate callback may also
 * raise after the write, so array_base.c's fast_out calls only where there is none */
int elide_out_takes(PyObject *out, PyObject *const *operands, int n);

/* ``elisions()``: how many operations elide_call served */
PyObject *elide_count(PyObject *module, PyObject *unused);

#endif
