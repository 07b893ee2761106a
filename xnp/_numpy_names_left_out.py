"""NumPy's public names that xnp leaves out, each with the reason: the one list.

``tests/meta/test_numpy_namespace.py`` walks ``dir(numpy)``, ``numpy.random``,
``numpy.random.Generator``, ``numpy.ndarray`` and NumPy's submodules against xnp. A
NumPy name is either in xnp (with a call signature that accepts NumPy's parameters
where NumPy's is introspectable) or listed here under the reason it is missing; a
listed name that now exists fails the test, so the list stays true. Names are
qualified by their namespace (``"ma"``, ``"ndarray.flags"``, ``"random.test"``); a
missing submodule covers every name inside it.

``xnp.__getattr__`` reads ``LEFT_OUT`` to give the reason in the ``AttributeError``.
"""

# reason -> the qualified names it covers (whitespace-separated)
_LEFT_OUT = {
    "NumPy's random module internals (bit_generator, mtrand): not yet": """
        random.bit_generator random.mtrand
    """,
    "NumPy's machinery for its own C objects, .npy format, file classes and allocator "
    "(add_docstring, add_newdoc, tracemalloc_domain, lib.format, lib.npyio, "
    "lib.introspect's SIMD dispatch report): use numpy.lib's; xnp.save/xnp.load read and "
    "write the files": """
        lib.add_docstring lib.add_newdoc lib.tracemalloc_domain lib.format lib.npyio
        lib.introspect
    """,
    "NumPy's C API, build and test tooling: xnp has no C API (extensions built against "
    "NumPy's headers see NumPy arrays: use numpy.get_include, numpy.f2py, "
    "numpy.ctypeslib) and its tests run with pytest, not numpy.test": """
        get_include f2py ctypeslib testing.extbuild test random.test linalg.test fft.test
        lib.test testing.test polynomial.test
    """,
    "numpy.core is NumPy 2's deprecated alias of its private numpy._core (whose public "
    "names are in the main namespace); xnp's names for extension authors are in "
    "xnp.extend": """
        core
    """,
}

# reason -> names present in xnp whose signature does not accept all of NumPy's
_SIGNATURE_DEVIATIONS = {
    "NumPy's text signature writes the named keywords as **kwargs; xnp spells each out "
    "(clip: the ufunc keywords; einsum: dtype, order, casting; reductions: keepdims, "
    "initial, where; ranf/sample: random_sample's size; view: dtype, type)": """
        clip einsum ndarray.max ndarray.mean ndarray.min ndarray.prod ndarray.std ndarray.sum
        ndarray.var ndarray.view random.ranf random.sample
    """,
    "NumPy's text signature of a two-output ufunc shows one positional `out`; NumPy and xnp "
    "take the two outputs positionally (out1, out2) or as the keyword out=(out1, out2)": """
        divmod frexp modf
    """,
    "the Array API standard makes x positional-only in the unique_* functions": """
        unique_all unique_counts unique_inverse unique_values
    """,
}


def _table(groups: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for reason, names in groups.items():
        for name in names.split():
            if name in out:
                raise AssertionError(f"internal error in xnp: {name!r} is listed twice")
            out[name] = reason
    return out


#: qualified NumPy name -> why xnp does not have it
LEFT_OUT = _table(_LEFT_OUT)
#: qualified name -> why xnp's signature does not accept all of NumPy's parameters
SIGNATURE_DEVIATIONS = _table(_SIGNATURE_DEVIATIONS)
