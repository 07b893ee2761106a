/* NumPy's floating-point warnings named at the user's line, in C (what
 * ``at_user_line`` of xnp/tracing/fp_warnings.py does in Python).
 *
 * NumPy keeps its error state (``numpy.errstate``) in a context variable holding one
 * object per state. fp_warnings maps a caller's state object to the one under which the
 * categories set to 'warn' are 'log' to its handler, which issues each RuntimeWarning at
 * the first frame outside xnp (``_LOGGED_STATES``, filled by ``_logged_state()``; None
 * where nothing changes). ``xnp_user_line_enter`` swaps the variable to that object and
 * ``xnp_user_line_exit`` restores it: a dictionary lookup and two context-variable writes.
 *
 * ``at_user_line(fn, *args, **kwargs)`` is that around a call; the replay hit path
 * (replay.c) enters it for a program that calls a kernel written in Python, whose frame
 * NumPy's warning would otherwise name. (Two context-variable writes cost about as much as
 * a small ufunc call: a program of C kernels, whose warnings name the caller's frame as
 * they are, does not pay them.)
 */
#include "replay.h"

static PyObject *g_extobj = NULL;    /* NumPy's error-state context variable */
static PyObject *g_states = NULL;    /* fp_warnings._LOGGED_STATES */
static PyObject *g_state_of = NULL;  /* fp_warnings._logged_state */

int
xnp_user_line_enter(PyObject **token)
{
    if (g_extobj == NULL) {
        return 0;
    }
    PyObject *current = NULL;
    if (PyContextVar_Get(g_extobj, NULL, &current) < 0) {
        return -1;
    }
    PyObject *state = current == NULL ? NULL : PyDict_GetItemWithError(g_states, current);
    Py_XDECREF(current);  /* (a key of g_states, kept alive there) */
    if (state != NULL) {
        Py_INCREF(state);
    }
    else {
        if (PyErr_Occurred()) {
            return -1;
        }
        state = PyObject_CallNoArgs(g_state_of);  /* computes and stores it */
        if (state == NULL) {
            return -1;
        }
    }
    if (state == Py_None) {
        Py_DECREF(state);
        return 0;
    }
    *token = PyContextVar_Set(g_extobj, state);
    Py_DECREF(state);
    return *token == NULL ? -1 : 1;
}

void
xnp_user_line_exit(PyObject *token)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);  /* the call's own error, if any, is kept */
    if (PyContextVar_Reset(g_extobj, token) < 0) {
        PyErr_WriteUnraisable(g_extobj);
    }
    PyErr_Restore(type, value, tb);
    Py_DECREF(token);
}

PyObject *
xnp_at_user_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "at_user_line(fn, *args, **kwargs): no fn");
        return NULL;
    }
    PyObject *token = NULL;
    int entered = xnp_user_line_enter(&token);
    if (entered < 0) {
        return NULL;
    }
    PyObject *out = PyObject_Vectorcall(args[0], args + 1, nargs - 1, kwnames);
    if (entered) {
        xnp_user_line_exit(token);
    }
    return out;
}

PyObject *
xnp_configure_user_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyContextVar_CheckExact(args[0]) || !PyDict_Check(args[1]) ||
        !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "configure_user_line(numpy's error-state context "
                        "variable, states: dict, state_of: callable)");
        return NULL;
    }
    Py_XSETREF(g_extobj, Py_NewRef(args[0]));
    Py_XSETREF(g_states, Py_NewRef(args[1]));
    Py_XSETREF(g_state_of, Py_NewRef(args[2]));
    Py_RETURN_NONE;
}
