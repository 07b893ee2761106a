/* NumPy data-memory handler that returns 64-byte aligned blocks.
 *
 * jaxlib's CPU client can alias (zero-copy) a host buffer only when its data is
 * 64-byte aligned; NumPy's default handler gives 16-byte alignment. This handler
 * over-allocates by one alignment unit plus a small header (the raw pointer and
 * the requested size) and returns the aligned address inside the block. Large
 * blocks get the same transparent-huge-page advice NumPy's default handler gives
 * them, so eager NumPy code keeps its speed on big arrays.
 *
 * Installed per Python context with PyDataMem_SetHandler (see xnp/backends/numpy/allocator.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#define XNP_ALIGN 64
#define XNP_HEADER (2 * sizeof(size_t))          /* raw pointer, requested size */
#define XNP_EXTRA (XNP_ALIGN + XNP_HEADER)
#define XNP_HUGEPAGE_MIN ((size_t)4 << 20)       /* NumPy's threshold for the advice */

static int hugepage_advice = 1;

static void advise_hugepages(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!hugepage_advice || size < XNP_HUGEPAGE_MIN) {
        return;
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)p + size) & ~(page - 1);
    if (end > start) {
        madvise((void *)start, end - start, MADV_HUGEPAGE);  /* advice only: errors ignored */
    }
#else
    (void)p;
    (void)size;
#endif
}

static uintptr_t aligned_address(void *raw)
{
    return ((uintptr_t)raw + XNP_HEADER + XNP_ALIGN - 1) & ~(uintptr_t)(XNP_ALIGN - 1);
}

static void *place(void *raw, size_t size)
{
    if (raw == NULL) {
        return NULL;
    }
    uintptr_t data = aligned_address(raw);
    size_t *header = (size_t *)data - 2;
    header[0] = (size_t)(uintptr_t)raw;
    header[1] = size;
    return (void *)data;
}

static void *raw_of(void *ptr) { return (void *)(uintptr_t)((size_t *)ptr - 2)[0]; }
static size_t size_of(void *ptr) { return ((size_t *)ptr - 2)[1]; }

static void *aligned_malloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size > SIZE_MAX - XNP_EXTRA) {
        return NULL;
    }
    void *p = place(malloc(size + XNP_EXTRA), size);
    if (p != NULL) {
        advise_hugepages(p, size);
    }
    return p;
}

static void *aligned_calloc(void *ctx, size_t nelem, size_t elsize)
{
    (void)ctx;
    if (elsize != 0 && nelem > (SIZE_MAX - XNP_EXTRA) / elsize) {
        return NULL;
    }
    size_t size = nelem * elsize;
    void *p = place(calloc(1, size + XNP_EXTRA), size);  /* zeroed; big blocks stay lazy */
    if (p != NULL) {
        advise_hugepages(p, size);
    }
    return p;
}

static void aligned_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    if (ptr != NULL) {
        free(raw_of(ptr));
    }
}

static void *aligned_realloc(void *ctx, void *ptr, size_t new_size)
{
    if (ptr == NULL) {
        return aligned_malloc(ctx, new_size);
    }
    if (new_size > SIZE_MAX - XNP_EXTRA) {
        return NULL;
    }
    void *raw = raw_of(ptr);
    size_t old_size = size_of(ptr);
    size_t old_offset = (uintptr_t)ptr - (uintptr_t)raw;
    void *new_raw = realloc(raw, new_size + XNP_EXTRA);
    if (new_raw == NULL) {
        return NULL;  /* the old block is untouched, as realloc promises */
    }
    size_t new_offset = aligned_address(new_raw) - (uintptr_t)new_raw;
    if (new_offset != old_offset) {
        /* the block moved to an address with another alignment: shift the data first
         * (the new header may overlap where the old data now starts) */
        memmove((char *)new_raw + new_offset, (char *)new_raw + old_offset,
                old_size < new_size ? old_size : new_size);
    }
    void *p = place(new_raw, new_size);
    return p;
}

static PyDataMem_Handler aligned_handler = {
    "xnp_aligned64",
    1,
    {
        NULL,
        aligned_malloc,
        aligned_calloc,
        aligned_realloc,
        aligned_free,
    },
};

static PyObject *handler_capsule = NULL;

static PyObject *install(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    /* returns the handler that was current before, so callers can restore it */
    return PyDataMem_SetHandler(handler_capsule);
}

static PyObject *restore(PyObject *self, PyObject *capsule)
{
    (void)self;
    return PyDataMem_SetHandler(capsule);
}

static PyObject *set_hugepage_advice(PyObject *self, PyObject *flag)
{
    (void)self;
    int on = PyObject_IsTrue(flag);
    if (on < 0) {
        return NULL;
    }
    int old = hugepage_advice;
    hugepage_advice = on;
    return PyBool_FromLong(old);
}

static PyMethodDef methods[] = {
    {"install", install, METH_NOARGS,
     "install()\n\nMake the 64-byte aligned handler NumPy's data allocator in the current "
     "context; returns the previous handler (a capsule)."},
    {"restore", restore, METH_O,
     "restore(handler)\n\nMake ``handler`` (a capsule from install()) current again; returns "
     "the handler it replaced."},
    {"set_hugepage_advice", set_hugepage_advice, METH_O,
     "set_hugepage_advice(flag)\n\nWhether blocks of 4 MiB and more get MADV_HUGEPAGE, as "
     "NumPy's default handler does; returns the previous setting."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_aligned_alloc",
    "A NumPy data-memory handler with 64-byte alignment.", -1, methods,
};

PyMODINIT_FUNC PyInit__aligned_alloc(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    handler_capsule = PyCapsule_New(&aligned_handler, "mem_handler", NULL);
    if (handler_capsule == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(handler_capsule);
    if (PyModule_AddObject(m, "handler", handler_capsule) < 0) {
        Py_DECREF(handler_capsule);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "ALIGNMENT", XNP_ALIGN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
