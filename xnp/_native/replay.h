/* What the four files of ``xnp._native._replay`` share: replay.c (the ``Replay`` hit
 * path and the module), signature.c (the cache key), program.c (running a recorded
 * program and NumPy's scalar rule on its result) and user_line.c (floating-point warnings
 * named at the user's line). */
#ifndef XNP_REPLAY_H
#define XNP_REPLAY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define PY_ARRAY_UNIQUE_SYMBOL xnp_replay_ARRAY_API
#ifndef XNP_REPLAY_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "array_base.h"

/* the exact class of eager arrays (``configure``), NULL before it */
extern PyTypeObject *xnp_array_type;
extern PyObject *xnp_empty_tuple;

/* signature.c */
extern PyTypeObject xnp_SignatureType;

typedef struct {
    PyObject_VAR_HEAD  /* ob_size: the number of words */
    Py_hash_t hash;
    PyObject *values;  /* the parts compared by value: a tuple */
    uint64_t *words;   /* ``storage``, or (a probe of the hit path, on the C stack) a
                        * builder's words */
    uint64_t storage[1];
} SignatureObject;

/* a signature being built: its words (inline up to a size, then on the heap) and the
 * list of its values (made when the first one comes) */
#define INLINE_WORDS 64
typedef struct {
    uint64_t inline_words[INLINE_WORDS];
    uint64_t *words;
    Py_ssize_t n, cap;
    PyObject *values;
} Builder;

int xnp_signature_ready(void);
int xnp_signature_configure(Py_ssize_t max_items, PyObject *dtype_types, PyObject *own_types);
void xnp_builder_init(Builder *b);
void xnp_builder_free(Builder *b);
int xnp_build_signature(Builder *b, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames, PyObject *kwargs, PyObject *leaves, PyObject *part,
                        PyObject *no_signature);
int xnp_finish_signature(SignatureObject *key, Builder *b);
PyObject *xnp_make_signature(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                             PyObject *kwargs, PyObject *leaves, PyObject *part,
                             PyObject *no_signature);

/* program.c */
int xnp_program_ready(void);
int xnp_program_configure(PyTypeObject *program_type);
int xnp_run_eqns(PyObject *eqns, PyObject *env, PyObject *native, PyObject *wrap);
PyObject *xnp_run_program(PyObject *program, PyObject *leaves, int *all_new);
PyObject *xnp_new_array(PyObject *value, PyObject *weak);
PyObject *xnp_scalar_rule(PyObject *out);
/* 1: the program calls a kernel written in Python (``Program.python_kernels``), 0: not */
int xnp_program_runs_python(PyObject *program);

/* user_line.c: 1 entered (``*token`` for the exit), 0 nothing to do, -1 error */
int xnp_user_line_enter(PyObject **token);
void xnp_user_line_exit(PyObject *token);
PyObject *xnp_at_user_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames);
PyObject *xnp_configure_user_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
