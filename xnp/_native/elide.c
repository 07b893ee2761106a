/* Temporary elision for the eager arithmetic operators (array_base.c's number slots).
 *
 * In ``exp(a) * b + c`` the product is a temporary: nothing but the interpreter's value
 * stack refers to it, and it dies right after the addition. NumPy computes such an
 * addition into the temporary's memory instead of allocating a result (its
 * ``temp_elide.c``); for large arrays that saves the allocation and the page faults of
 * fresh memory, which cost more than the arithmetic. xnp's temporaries are ``Array``
 * objects wrapping a NumPy array, which NumPy's own test cannot see through, so the
 * operators served by the fast path apply the same rule to them:
 *
 * an operand ``x`` is reused as the result's memory when
 *   - the ``Array`` and its NumPy array each have one reference (the interpreter's stack
 *     holds the Array, the Array holds the NumPy array: no name, container, view or
 *     device buffer refers to either), the NumPy array owns its memory, is writeable,
 *     aligned and of at least ``ELIDE_MIN_BYTES`` (below that a fresh result is cheap);
 *   - the Array holds no device buffer or alias of one (``_dev``/``_host_memo`` unset);
 *   - the result has ``x``'s shape (the other operand is a scalar or broadcasts into it)
 *     and dtype (the fast path serves only operations that keep the operands' dtype);
 *   - the operator was called by the interpreter itself: the innermost Python frame is at
 *     a ``BINARY_OP`` instruction, and the C stack between this module and the
 *     interpreter's loop (``_PyEval_EvalFrameDefault``) is at most a few frames, all of
 *     them in Python's own library (``PyNumber_Add`` and its helpers), so that no C code
 *     holding the only reference to ``x`` sees ``x`` change: not ``sum`` or
 *     ``operator.add`` (a ``CALL``), not NumPy's object-dtype loops (their frames are in
 *     NumPy's library), not a slot that is a C callable such as ``functools.partial``
 *     (more frames). Where the stack cannot be read (no glibc ``backtrace``), on Python
 *     3.14 and later (whose interpreter can leave a named local with one reference while
 *     it is an operand) and on free-threaded builds, nothing is elided.
 *
 * The result is then ``ufunc(a, b, out=x's array)``: the same NumPy loop and floating-point
 * errors as without elision, and an elementwise loop whose output is one of its inputs is
 * exact. ``elisions()`` counts the operations served so (for tests).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "array_base.h"
#include "elide.h"

#if defined(__GLIBC__) && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define ELIDE_SUPPORTED 1
#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>
#else
#define ELIDE_SUPPORTED 0
#endif

/* frames of Python's library allowed between this module and the interpreter's loop
 * (PyNumber_Add -> binary_op -> binary_op1, some of them inlined) */
#define MAX_PYTHON_FRAMES 4
#define MAX_FRAMES 24

/* NumPy's threshold for the same decision (NPY_MIN_ELIDE_BYTES) */
#define ELIDE_MIN_BYTES (256 * 1024)

static int binary_op = -1;  /* the opcode of BINARY_OP, from the ``opcode`` module */
static Py_ssize_t n_elided = 0;
static PyObject *kw_out = NULL;  /* ("out",) */

int
elide_init(void)
{
    import_array1(-1);
    PyObject *opcode = PyImport_ImportModule("opcode");
    if (opcode == NULL) {
        return -1;
    }
    PyObject *opmap = PyObject_GetAttrString(opcode, "opmap");
    Py_DECREF(opcode);
    if (opmap == NULL) {
        return -1;
    }
    PyObject *code = PyDict_Check(opmap) ? PyDict_GetItemString(opmap, "BINARY_OP") : NULL;
    if (code != NULL) {
        binary_op = (int)PyLong_AsLong(code);
        if (binary_op == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
    }
    Py_DECREF(opmap);
    kw_out = Py_BuildValue("(s)", "out");
    return kw_out == NULL ? -1 : 0;
}

#if ELIDE_SUPPORTED
/* whether the C stack from here reaches the interpreter's loop through at most
 * MAX_PYTHON_FRAMES frames of Python's library and none of any other library */
static int
called_from_interpreter_loop(void)
{
    static void *own_base = NULL, *python_base = NULL;
    Dl_info info;
    if (python_base == NULL) {
        if (!dladdr((void *)&called_from_interpreter_loop, &info)) {
            return 0;
        }
        own_base = info.dli_fbase;
        if (!dladdr((void *)&PyNumber_Add, &info)) {
            return 0;
        }
        python_base = info.dli_fbase;
    }
    void *frames[MAX_FRAMES];
    int n = backtrace(frames, MAX_FRAMES), i = 0, in_python = 0;
    for (; i < n; i++) {  /* this module's own frames (the slot, the fast path, here) */
        if (!dladdr(frames[i], &info)) {
            return 0;
        }
        if (info.dli_fbase != own_base) {
            break;
        }
    }
    for (; i < n; i++) {
        if (!dladdr(frames[i], &info) || info.dli_fbase != python_base) {
            return 0;
        }
        if (info.dli_sname != NULL && strcmp(info.dli_sname, "_PyEval_EvalFrameDefault") == 0) {
            return 1;
        }
        if (++in_python > MAX_PYTHON_FRAMES) {
            return 0;
        }
    }
    return 0;
}
#endif

/* whether the innermost Python frame is executing BINARY_OP and called the slot directly
 * (module comment) */
static int
called_by_binary_op(void)
{
#if !ELIDE_SUPPORTED
    return 0;
#else
    if (binary_op < 0) {
        return 0;
    }
    PyFrameObject *frame = PyEval_GetFrame();  /* borrowed */
    if (frame == NULL) {
        return 0;
    }
    int lasti = PyFrame_GetLasti(frame);
    if (lasti < 0) {
        return 0;
    }
    PyCodeObject *code = PyFrame_GetCode(frame);
    PyObject *bytes = PyCode_GetCode(code);
    Py_DECREF(code);
    if (bytes == NULL) {
        PyErr_Clear();
        return 0;
    }
    int found = PyBytes_Check(bytes) && lasti < PyBytes_GET_SIZE(bytes)
                && (unsigned char)PyBytes_AS_STRING(bytes)[lasti] == binary_op;
    Py_DECREF(bytes);
    return found && called_from_interpreter_loop();
#endif
}

/* the NumPy array of ``x`` (an exact Array) if it can hold the result of ``x op other``
 * (module comment), else NULL; ``other`` is an exact Array (``other_array``) or a scalar */
static PyArrayObject *
reusable(PyObject *x, PyObject *other, int other_array)
{
    if (Py_REFCNT(x) != 1) {
        return NULL;
    }
    ArrayBaseObject *a = (ArrayBaseObject *)x;
    if ((a->dev != NULL && a->dev != Py_None) ||
            (a->host_memo != NULL && a->host_memo != Py_None)) {
        return NULL;
    }
    PyObject *v = a->val;
    if (v == NULL || !PyArray_CheckExact(v) || Py_REFCNT(v) != 1) {
        return NULL;
    }
    PyArrayObject *arr = (PyArrayObject *)v;
    if (PyArray_NBYTES(arr) < ELIDE_MIN_BYTES ||
            !PyArray_CHKFLAGS(arr, NPY_ARRAY_OWNDATA | NPY_ARRAY_WRITEABLE | NPY_ARRAY_ALIGNED)) {
        return NULL;
    }
    if (other_array) {  /* the other operand broadcasts into x's shape */
        PyObject *ov = ((ArrayBaseObject *)other)->val;
        if (ov == NULL || !PyArray_Check(ov)) {
            return NULL;
        }
        PyArrayObject *o = (PyArrayObject *)ov;
        int nd = PyArray_NDIM(arr), od = PyArray_NDIM(o);
        if (od > nd) {
            return NULL;
        }
        for (int i = 1; i <= od; i++) {
            npy_intp n = PyArray_DIM(o, od - i);
            if (n != 1 && n != PyArray_DIM(arr, nd - i)) {
                return NULL;
            }
        }
    }
    return arr;
}

PyObject *
elide_call(PyObject *fn, PyObject *left, PyObject *right, PyObject *va, PyObject *vb,
           PyTypeObject *array)
{
    int left_array = Py_TYPE(left) == array, right_array = Py_TYPE(right) == array;
    PyArrayObject *out = NULL;
    if (left_array) {
        out = reusable(left, right, right_array);
    }
    if (out == NULL && right_array) {
        out = reusable(right, left, left_array);
    }
    if (out == NULL || !called_by_binary_op()) {
        return NULL;
    }
    PyObject *args[3] = {va, vb, (PyObject *)out};
    PyObject *res = PyObject_Vectorcall(fn, args, 2, kw_out);
    if (res != NULL) {
        n_elided++;
    }
    return res;
}

int
elide_broadcastable(PyObject *va, PyObject *vb)
{
    if (!PyArray_Check(va) || !PyArray_Check(vb)) {
        return 1;
    }
    PyArrayObject *a = (PyArrayObject *)va, *b = (PyArrayObject *)vb;
    int na = PyArray_NDIM(a), nb = PyArray_NDIM(b);
    for (int i = 1; i <= na && i <= nb; i++) {
        npy_intp m = PyArray_DIM(a, na - i), k = PyArray_DIM(b, nb - i);
        if (m != k && m != 1 && k != 1) {
            return 0;
        }
    }
    return 1;
}

int
elide_out_takes(PyObject *out, PyObject *const *operands, int n)
{
    if (!PyArray_Check(out) || !PyArray_ISWRITEABLE((PyArrayObject *)out)) {
        return 0;
    }
    PyArrayObject *o = (PyArrayObject *)out;
    int no = PyArray_NDIM(o);
    for (int k = 0; k < n; k++) {
        if (!PyArray_Check(operands[k])) {
            continue;
        }
        PyArrayObject *a = (PyArrayObject *)operands[k];
        int na = PyArray_NDIM(a);
        if (na > no) {
            return 0;
        }
        for (int i = 1; i <= na; i++) {
            npy_intp m = PyArray_DIM(a, na - i);
            if (m != 1 && m != PyArray_DIM(o, no - i)) {
                return 0;
            }
        }
    }
    return 1;
}

PyObject *
elide_count(PyObject *module, PyObject *unused)
{
    return PyLong_FromSsize_t(n_elided);
}
