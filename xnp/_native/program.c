/* Running a recorded program (``Program`` of xnp/tracing/recording.py) on the inputs'
 * host values, and NumPy's scalar rule (xnp/numpy_api/_scalars.py: ``_apply_rule``) on
 * its result, for the hit path of replay.c. A program's slots are read directly (their
 * offsets in an instance, found once by ``xnp_program_configure``). */
#include "replay.h"

static PyTypeObject *program_type = NULL;
static Py_ssize_t off_eqns = -1, off_spec, off_weaks, off_native, off_wrap, off_single,
    off_python;
static PyObject *str_array, *str_const, *str_make, *str_fields, *str_ndim;
static PyObject *out_kwnames;  /* ("out",): the keyword of a write's output operand */
static PyObject *str_setitem;  /* the "multiple results" of an item write */

/* An item write of a program (``_set_item`` of xnp/tracing/recording.py): ``argv[0][index]
 * = value`` where ``template`` is ``(is a tuple, index items)``; an item, or ``value``,
 * that is NotImplemented is the next operand of ``argv[1:]``. Returns ``argv[0]``. */
static PyObject *
set_item(PyObject *template, PyObject *value, PyObject **argv, Py_ssize_t n)
{
    if (!PyTuple_Check(template) || PyTuple_GET_SIZE(template) != 2 ||
        !PyTuple_Check(PyTuple_GET_ITEM(template, 1)) || n < 1) {
        PyErr_SetString(PyExc_TypeError, "run_eqns: an item write's template");
        return NULL;
    }
    Py_ssize_t next = 1;
    if (value == Py_NotImplemented) {
        if (next >= n) {
            goto operands;
        }
        value = argv[next++];
    }
    PyObject *items = PyTuple_GET_ITEM(template, 1);
    Py_ssize_t m = PyTuple_GET_SIZE(items);
    PyObject *index = PyTuple_New(m);
    if (index == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        if (item == Py_NotImplemented) {
            if (next >= n) {
                Py_DECREF(index);
                goto operands;
            }
            item = argv[next++];
        }
        PyTuple_SET_ITEM(index, i, Py_NewRef(item));
    }
    int r;
    if (PyTuple_GET_ITEM(template, 0) == Py_True || m != 1) {
        r = PyObject_SetItem(argv[0], index, value);
    }
    else {
        r = PyObject_SetItem(argv[0], PyTuple_GET_ITEM(index, 0), value);
    }
    Py_DECREF(index);
    return r < 0 ? NULL : Py_NewRef(argv[0]);
operands:
    PyErr_SetString(PyExc_TypeError, "run_eqns: an item write lacks operands");
    return NULL;
}

/* ``x`` as the backend's native array: itself, or ``wrap(x)`` */
static PyObject *
as_native(PyObject *x, PyObject *native, PyObject *wrap)
{
    if ((PyObject *)Py_TYPE(x) == native) {
        return x;
    }
    PyObject *w = PyObject_CallOneArg(wrap, x);
    Py_DECREF(x);
    return w;
}

#define MAX_INLINE_OPERANDS 8

/* Run a program's equations (``Program.eqns`` of xnp/tracing/recording.py: tuples
 * ``(impl, params or None, operand slots, multiple results)``) on ``env``, a list that
 * starts with the inputs' values; each result, as the native array, is appended. An
 * equation whose "multiple results" is a string writes: ``"out"`` into its last operand,
 * ``impl(*others, out=last)``; ``"setitem"`` an item of its first (``set_item``). */
int
xnp_run_eqns(PyObject *eqns, PyObject *env, PyObject *native, PyObject *wrap)
{
    if (!PyTuple_Check(eqns) || !PyList_Check(env)) {
        PyErr_SetString(PyExc_TypeError, "run_eqns: a tuple of equations and a list");
        return -1;
    }
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(eqns); e++) {
        PyObject *eqn = PyTuple_GET_ITEM(eqns, e);
        if (!PyTuple_Check(eqn) || PyTuple_GET_SIZE(eqn) != 4 ||
            !PyTuple_Check(PyTuple_GET_ITEM(eqn, 2))) {
            PyErr_SetString(PyExc_TypeError,
                            "run_eqns: an equation is (impl, params, slots, multiple)");
            return -1;
        }
        PyObject *impl = PyTuple_GET_ITEM(eqn, 0), *params = PyTuple_GET_ITEM(eqn, 1);
        PyObject *ops = PyTuple_GET_ITEM(eqn, 2);
        Py_ssize_t n = PyTuple_GET_SIZE(ops);
        PyObject *inline_argv[MAX_INLINE_OPERANDS];
        PyObject **argv = inline_argv;
        if (n > MAX_INLINE_OPERANDS) {
            argv = PyMem_Malloc(n * sizeof(PyObject *));
            if (argv == NULL) {
                PyErr_NoMemory();
                return -1;
            }
        }
        Py_ssize_t k = 0;
        for (; k < n; k++) {
            Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(ops, k));
            if (slot < 0 || slot >= PyList_GET_SIZE(env)) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_IndexError, "run_eqns: a slot out of range");
                }
                break;
            }
            /* owned while impl runs: impl is Python code, the list is only ours, but a
             * reference held here costs nothing */
            argv[k] = Py_NewRef(PyList_GET_ITEM(env, slot));
        }
        PyObject *out = NULL;
        PyObject *multiple = PyTuple_GET_ITEM(eqn, 3);
        int writes = PyUnicode_Check(multiple);
        if (k == n && writes && PyUnicode_Compare(multiple, str_setitem) == 0) {
            out = set_item(impl, params, argv, n);
        }
        else if (k == n && writes) {
            out = n > 0 && params == Py_None ?
                PyObject_Vectorcall(impl, argv, n - 1, out_kwnames) : NULL;
            if (out == NULL && !PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "run_eqns: a write has no operand or params");
            }
        }
        else if (k == n) {
            out = PyObject_VectorcallDict(impl, argv, n, params == Py_None ? NULL : params);
        }
        for (Py_ssize_t j = 0; j < k; j++) {
            Py_DECREF(argv[j]);
        }
        if (argv != inline_argv) {
            PyMem_Free(argv);
        }
        if (out == NULL) {
            return -1;
        }
        if (!writes && PyObject_IsTrue(multiple)) {
            PyObject *seq = PySequence_Fast(out, "run_eqns: a primitive's results");
            Py_DECREF(out);
            if (seq == NULL) {
                return -1;
            }
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); j++) {
                PyObject *o = as_native(Py_NewRef(PySequence_Fast_GET_ITEM(seq, j)), native,
                                        wrap);
                if (o == NULL || PyList_Append(env, o) < 0) {
                    Py_XDECREF(o);
                    Py_DECREF(seq);
                    return -1;
                }
                Py_DECREF(o);
            }
            Py_DECREF(seq);
        }
        else {
            out = as_native(out, native, wrap);
            if (out == NULL || PyList_Append(env, out) < 0) {
                Py_XDECREF(out);
                return -1;
            }
            Py_DECREF(out);
        }
    }
    return 0;
}

/* ``Array(value, weak)``, made as ``ArrayBase.__init__`` makes it, for a weak type that is
 * a bool (otherwise by calling the class) */
PyObject *
xnp_new_array(PyObject *value, PyObject *weak)
{
    if (weak != Py_True && weak != Py_False) {
        return PyObject_CallFunctionObjArgs((PyObject *)xnp_array_type, value, weak, NULL);
    }
    PyObject *result = xnp_array_type->tp_alloc(xnp_array_type, 0);
    if (result == NULL) {
        return NULL;
    }
    ArrayBaseObject *r = (ArrayBaseObject *)result;
    r->val = Py_NewRef(value);
    r->weak = Py_NewRef(weak);
    r->dev = Py_NewRef(Py_None);
    r->aval = Py_NewRef(Py_None);
    r->host_memo = Py_NewRef(Py_None);
    return result;
}

/* A program whose result is one new array (``program.single``: ``(slot, weak, eqns,
 * native, wrap)``) run here on the inputs' host values. NULL without an error: an input
 * holds no host value yet (``program.run`` reads it). */
static PyObject *
run_single(PyObject *single, PyObject *leaves)
{
    if (!PyTuple_Check(single) || PyTuple_GET_SIZE(single) != 5) {
        PyErr_SetString(PyExc_TypeError, "Program.single: a 5-tuple");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    PyObject *eqns = PyTuple_GET_ITEM(single, 2);
    if (PyTuple_Check(eqns) && PyTuple_GET_SIZE(eqns) == 1 && n <= MAX_INLINE_OPERANDS) {
        /* one equation: its operands straight from the inputs, no environment */
        PyObject *eqn = PyTuple_GET_ITEM(eqns, 0);
        PyObject *ops = PyTuple_Check(eqn) && PyTuple_GET_SIZE(eqn) == 4 ?
            PyTuple_GET_ITEM(eqn, 2) : NULL;
        if (ops != NULL && PyTuple_Check(ops) && PyTuple_GET_SIZE(ops) <= MAX_INLINE_OPERANDS &&
            PyTuple_GET_ITEM(eqn, 1) == Py_None && PyTuple_GET_ITEM(eqn, 3) == Py_False &&
            PyLong_AsSsize_t(PyTuple_GET_ITEM(single, 0)) == n) {
            PyObject *argv[MAX_INLINE_OPERANDS];
            Py_ssize_t k = PyTuple_GET_SIZE(ops);
            for (Py_ssize_t j = 0; j < k; j++) {
                Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(ops, j));
                PyObject *leaf = slot >= 0 && slot < n ? PyList_GET_ITEM(leaves, slot) : NULL;
                argv[j] = leaf != NULL && Py_TYPE(leaf) == xnp_array_type ?
                    ((ArrayBaseObject *)leaf)->val : NULL;
                if (argv[j] == NULL || argv[j] == Py_None) {
                    if (PyErr_Occurred()) {
                        return NULL;
                    }
                    k = -1;  /* (an input holds no host value, or a constant operand) */
                    break;
                }
            }
            if (k >= 0) {
                /* (the inputs' values are owned by the leaves, which the caller holds) */
                PyObject *out = PyObject_Vectorcall(PyTuple_GET_ITEM(eqn, 0), argv, k, NULL);
                out = out ? as_native(out, PyTuple_GET_ITEM(single, 3),
                                      PyTuple_GET_ITEM(single, 4)) : NULL;
                if (out == NULL) {
                    return NULL;
                }
                PyObject *result = xnp_new_array(out, PyTuple_GET_ITEM(single, 1));
                Py_DECREF(out);
                return result;
            }
        }
    }
    PyObject *env = PyList_New(n);
    if (env == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *leaf = PyList_GET_ITEM(leaves, i);
        PyObject *value = Py_TYPE(leaf) == xnp_array_type ? ((ArrayBaseObject *)leaf)->val : NULL;
        if (value == NULL || value == Py_None) {
            Py_DECREF(env);  /* (the items set so far; the rest are NULL) */
            return NULL;
        }
        PyList_SET_ITEM(env, i, Py_NewRef(value));
    }
    PyObject *result = NULL;
    if (xnp_run_eqns(PyTuple_GET_ITEM(single, 2), env, PyTuple_GET_ITEM(single, 3),
                      PyTuple_GET_ITEM(single, 4)) == 0) {
        Py_ssize_t slot = PyLong_AsSsize_t(PyTuple_GET_ITEM(single, 0));
        if (slot >= 0 && slot < PyList_GET_SIZE(env)) {
            result = xnp_new_array(PyList_GET_ITEM(env, slot), PyTuple_GET_ITEM(single, 1));
        }
        else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_IndexError, "Program.single: the result slot out of range");
        }
    }
    Py_DECREF(env);
    if (result == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "run_single: no result");
    }
    return result;
}

/* ------------------------------------------------------------------ any result */


#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *offset)
{
    PyObject *slot = PyDict_GetItemString(type->tp_dict, name);  /* borrowed */
    if (slot == NULL || Py_TYPE(slot) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)slot)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "configure: the program class has no slot %s", name);
        return -1;
    }
    *offset = ((PyMemberDescrObject *)slot)->d_member->offset;
    return 0;
}

int
xnp_program_configure(PyTypeObject *type)
{
    if (slot_offset(type, "eqns", &off_eqns) < 0 || slot_offset(type, "spec", &off_spec) < 0 ||
        slot_offset(type, "weaks", &off_weaks) < 0 ||
        slot_offset(type, "native", &off_native) < 0 ||
        slot_offset(type, "wrap", &off_wrap) < 0 ||
        slot_offset(type, "single", &off_single) < 0 ||
        slot_offset(type, "python_kernels", &off_python) < 0) {
        off_eqns = -1;
        return -1;
    }
    Py_XSETREF(program_type, (PyTypeObject *)Py_NewRef(type));
    return 0;
}

int
xnp_program_ready(void)
{
    str_array = PyUnicode_InternFromString("array");
    str_const = PyUnicode_InternFromString("const");
    str_make = PyUnicode_InternFromString("_make");
    str_fields = PyUnicode_InternFromString("_fields");
    str_ndim = PyUnicode_InternFromString("ndim");
    out_kwnames = Py_BuildValue("(s)", "out");
    str_setitem = PyUnicode_InternFromString("setitem");
    return str_array && str_const && str_make && str_fields && str_ndim && out_kwnames &&
        str_setitem ? 0 : -1;
}

static int
is_kind(PyObject *kind, PyObject *name)
{
    return kind == name || (PyUnicode_CheckExact(kind) &&
                            PyUnicode_Compare(kind, name) == 0);
}

/* ``Program._build``: the result described by ``spec`` (``("array", slot)``,
 * ``("const", value)`` or ``(kind, parts)`` with kind list, tuple or a named tuple class);
 * ``made[slot]``: the Array of a slot made already (one object per slot). ``*all_new``
 * is cleared when the result holds an input or a constant. */
static PyObject *
build(PyObject *spec, PyObject *env, PyObject *leaves, PyObject *weaks, PyObject **made,
      int *all_new)
{
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 2) {
        PyErr_SetString(PyExc_TypeError, "Program.spec: a pair");
        return NULL;
    }
    PyObject *kind = PyTuple_GET_ITEM(spec, 0), *arg = PyTuple_GET_ITEM(spec, 1);
    if (is_kind(kind, str_array)) {
        Py_ssize_t slot = PyLong_AsSsize_t(arg);
        if (slot < 0 || slot >= PyList_GET_SIZE(env) || slot >= PyTuple_GET_SIZE(weaks)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_IndexError, "Program.spec: a slot out of range");
            }
            return NULL;
        }
        if (slot < PyList_GET_SIZE(leaves)) {
            *all_new = 0;
            return Py_NewRef(PyList_GET_ITEM(leaves, slot));
        }
        if (made[slot] == NULL) {
            made[slot] = xnp_new_array(PyList_GET_ITEM(env, slot), PyTuple_GET_ITEM(weaks, slot));
        }
        return Py_XNewRef(made[slot]);
    }
    if (is_kind(kind, str_const)) {
        *all_new = 0;
        return Py_NewRef(arg);
    }
    PyObject *items = PySequence_Fast(arg, "Program.spec: parts");
    if (items == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    PyObject *parts = PyList_New(n);
    for (Py_ssize_t i = 0; parts != NULL && i < n; i++) {
        PyObject *p = build(PySequence_Fast_GET_ITEM(items, i), env, leaves, weaks, made,
                            all_new);
        if (p == NULL) {
            Py_CLEAR(parts);
            break;
        }
        PyList_SET_ITEM(parts, i, p);
    }
    Py_DECREF(items);
    if (parts == NULL || kind == (PyObject *)&PyList_Type) {
        return parts;
    }
    PyObject *out = kind == (PyObject *)&PyTuple_Type ? PyList_AsTuple(parts) :
        PyObject_CallMethodOneArg(kind, str_make, parts);  /* a named tuple */
    Py_DECREF(parts);
    return out;
}

/* A program's result for the input arrays ``leaves``, as ``Program.run`` gives it (a new
 * reference); ``*all_new``: whether the result holds only arrays the program made. A
 * program of another class, or an input without a host value: ``program.run(leaves)``. */
int
xnp_program_runs_python(PyObject *program)
{
    return Py_TYPE(program) == program_type && off_eqns >= 0 &&
        SLOT(program, off_python) == Py_True;
}

PyObject *
xnp_run_program(PyObject *program, PyObject *leaves, int *all_new)
{
    *all_new = 0;
    if (Py_TYPE(program) != program_type || off_eqns < 0) {
        return PyObject_CallMethod(program, "run", "O", leaves);
    }
    PyObject *single = SLOT(program, off_single);
    if (single != NULL && single != Py_None) {
        PyObject *out = run_single(single, leaves);
        if (out != NULL || PyErr_Occurred()) {
            *all_new = out != NULL;
            return out;
        }
        return PyObject_CallMethod(program, "run", "O", leaves);
    }
    PyObject *eqns = SLOT(program, off_eqns), *spec = SLOT(program, off_spec);
    PyObject *weaks = SLOT(program, off_weaks), *native = SLOT(program, off_native);
    PyObject *wrap = SLOT(program, off_wrap);
    if (!eqns || !spec || !weaks || !native || !wrap || !PyTuple_Check(weaks)) {
        return PyObject_CallMethod(program, "run", "O", leaves);
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    PyObject *env = PyList_New(n);
    if (env == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *leaf = PyList_GET_ITEM(leaves, i);
        PyObject *value = Py_TYPE(leaf) == xnp_array_type ? ((ArrayBaseObject *)leaf)->val :
            NULL;
        if (value == NULL || value == Py_None) {  /* (a jit output not read yet) */
            Py_DECREF(env);
            return PyObject_CallMethod(program, "run", "O", leaves);
        }
        PyList_SET_ITEM(env, i, Py_NewRef(value));
    }
    PyObject *out = NULL;
    if (xnp_run_eqns(eqns, env, native, wrap) == 0) {
        Py_ssize_t m = PyList_GET_SIZE(env);
        PyObject **made = PyMem_Calloc(m ? m : 1, sizeof(PyObject *));
        if (made == NULL) {
            PyErr_NoMemory();
        }
        else {
            *all_new = 1;
            out = build(spec, env, leaves, weaks, made, all_new);
            for (Py_ssize_t i = 0; i < m; i++) {
                Py_XDECREF(made[i]);
            }
            PyMem_Free(made);
        }
    }
    Py_DECREF(env);
    return out;
}

/* ------------------------------------------------------------------ the scalar rule */

/* 1: ``x`` is a new 0-d Array holding a NumPy array; 0: not; -1: error */
static int
zero_d_array(PyObject *x)
{
    if (Py_TYPE(x) != xnp_array_type) {
        return 0;
    }
    PyObject *v = ((ArrayBaseObject *)x)->val;
    if (v == NULL || v == Py_None) {
        return 0;
    }
    if (PyArray_Check(v)) {
        return PyArray_NDIM((PyArrayObject *)v) == 0;
    }
    PyObject *ndim = PyObject_GetAttr(v, str_ndim);  /* another backend's native array */
    if (ndim == NULL) {
        return -1;
    }
    int zero_d = PyLong_Check(ndim) && PyLong_AsLong(ndim) == 0;
    Py_DECREF(ndim);
    return zero_d;
}

/* ``_scalars.scalar_result`` on a result made only of new arrays (a new reference):
 * a 0-d Array becomes its NumPy scalar, a tuple or named tuple elementwise (rebuilt only
 * when an element changed), anything else as it is */
static PyObject *
scalar_result(PyObject *x)
{
    int zero_d = zero_d_array(x);
    if (zero_d != 0) {
        return zero_d < 0 ? NULL : PyObject_GetItem(((ArrayBaseObject *)x)->val,
                                                    xnp_empty_tuple);
    }
    if (!PyTuple_Check(x) ||
        (!PyTuple_CheckExact(x) && !PyObject_HasAttr((PyObject *)Py_TYPE(x), str_fields))) {
        return Py_NewRef(x);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(x);
    PyObject *parts = PyTuple_New(n);
    int changed = 0;
    for (Py_ssize_t i = 0; parts != NULL && i < n; i++) {
        PyObject *p = scalar_result(PyTuple_GET_ITEM(x, i));
        if (p == NULL) {
            Py_CLEAR(parts);
            break;
        }
        changed |= p != PyTuple_GET_ITEM(x, i);
        PyTuple_SET_ITEM(parts, i, p);
    }
    if (parts == NULL || !changed || PyTuple_CheckExact(x)) {
        if (parts != NULL && !changed) {
            Py_DECREF(parts);
            return Py_NewRef(x);
        }
        return parts;
    }
    PyObject *out = PyObject_Call((PyObject *)Py_TYPE(x), parts, NULL);  /* t(*parts) */
    Py_DECREF(parts);
    return out;
}

/* NumPy's scalar rule on a replay's result ``out`` (a new reference, consumed) made only of
 * new arrays: as ``_scalars._apply_rule``, where no new array is one of the call's
 * arguments (so none is kept as given) */
PyObject *
xnp_scalar_rule(PyObject *out)
{
    PyObject *r = scalar_result(out);
    Py_DECREF(out);
    return r;
}
