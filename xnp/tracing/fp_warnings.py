"""NumPy's floating-point errors met by xnp's eager code: their warnings named at the user's
line (as NumPy's name the caller's), recognised under the caller's settings, renamed for the
loop NumPy would name, or ignored for a call run again."""

from __future__ import annotations

import warnings

import numpy as np

from xnp.tracing import core, source

__all__ = ["at_user_line", "fp_warnings_at_user_line", "is_fp_error", "ignoring_fp_errors",
           "renamed_fp_error", "caller_setting"]

_STATE = core._STATE
_BASE = core._BASE_TRACE
try:  # NumPy 2's floating-point error state: one object per errstate context
    from numpy._core._ufunc_config import _extobj_contextvar as _EXTOBJ
except ImportError:  # pragma: no cover  (another NumPy layout: errstate's public form)
    _EXTOBJ = None


#: the start of NumPy's floating-point error messages -> its ``numpy.errstate`` category
_FP_CATEGORIES = (("divide by zero", "divide"), ("overflow", "over"),
                  ("underflow", "under"), ("invalid value", "invalid"))
_FP_STARTS = tuple(start for start, _ in _FP_CATEGORIES)


class _UserLineLog:
    """NumPy's handler of the floating-point errors set to 'log' (``numpy.errstate(...,
    call=)``): each message NumPy writes ("Warning: overflow encountered in cast") is its
    RuntimeWarning naming the user's line (the first frame outside xnp,
    :func:`source.outside_stacklevel`), issued when NumPy meets the error, as its 'warn'.
    The categories the caller set to 'call' or 'log' (``their_log``) reach the caller's own
    handler ``theirs`` as NumPy would hand them to it."""

    __slots__ = ("theirs", "their_log")

    def __init__(self, theirs=None, their_log=frozenset()):
        self.theirs = theirs
        self.their_log = their_log

    def __call__(self, kind, flag):  # (a category the caller set to 'call')
        return self.theirs(kind, flag)

    def write(self, message: str) -> None:
        text = message[len("Warning: "):] if message.startswith("Warning: ") else message
        if self.their_log and _category(text) in self.their_log:
            return self.theirs.write(message)
        warnings.warn(text.rstrip("\n"), RuntimeWarning, stacklevel=source.outside_stacklevel())
        return None


_USER_LINE_LOG = _UserLineLog()


def _category(message: str):
    """The ``numpy.errstate`` category of NumPy's floating-point error ``message``."""
    return next((k for start, k in _FP_CATEGORIES if message.startswith(start)), None)


def _logged(settings, theirs):
    """``numpy.errstate`` keywords: ``settings`` with each 'warn' as 'log' to a
    :class:`_UserLineLog` that hands the categories set to 'call' or 'log' to the caller's
    handler ``theirs``; None when nothing warns, or when a category is 'call' or 'log'
    with no handler (NumPy's own error then)."""
    modes = settings.values()
    if "warn" not in modes:
        return None
    their_log = frozenset(k for k, v in settings.items() if v == "log")
    if theirs is None:
        if their_log or "call" in modes:
            return None
        handler = _USER_LINE_LOG
    else:
        handler = _UserLineLog(theirs, their_log)
    logged = {k: "log" if v == "warn" else v for k, v in settings.items()}
    logged["call"] = handler
    return logged


def caller_setting(category: str) -> str:
    """The caller's ``numpy.errstate`` setting of ``category`` ('invalid', ...) inside xnp's
    calls, where :func:`at_user_line` shows its 'warn' as 'log' to xnp's handler."""
    setting = np.geterr()[category]
    if setting == "log":
        handler = np.geterrcall()
        if isinstance(handler, _UserLineLog) and category not in handler.their_log:
            return "warn"
    return setting


#: NumPy's error state object of a caller -> that of :func:`_logged` (None: unchanged); the
#: keys are kept alive here, so an object's identity is never reused while it is a key
_LOGGED_STATES: dict = {}
_MAX_STATES = 64


def _logged_state():
    """The error state object under which :func:`at_user_line` runs a call of the calling
    context, or None to run it as it is."""
    current = _EXTOBJ.get()
    state = _LOGGED_STATES.get(current, _LOGGED_STATES)
    if state is not _LOGGED_STATES:
        return state
    logged = _logged(np.geterr(), np.geterrcall())
    if logged is not None:
        with np.errstate(**logged):
            state = _EXTOBJ.get()
    else:
        state = None
    if len(_LOGGED_STATES) >= _MAX_STATES:  # (errstate contexts made and left in a loop)
        _LOGGED_STATES.clear()
    _LOGGED_STATES[current] = state
    return state


def at_user_line(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` (an eager call through xnp's frames, effects included) with
    its floating-point warnings naming the user's line, as NumPy's name the caller's; its
    errors set to 'raise', 'ignore', 'print', 'call' or 'log' are as they are. (In C where
    ``xnp/_native/user_line.c`` is built: the same, with the same state objects.)"""
    if _EXTOBJ is None:  # pragma: no cover
        logged = _logged(np.geterr(), np.geterrcall())
        if logged is None:
            return fn(*args, **kwargs)
        with np.errstate(**logged):
            return fn(*args, **kwargs)
    state = _LOGGED_STATES.get(_EXTOBJ.get(), _LOGGED_STATES)
    if state is _LOGGED_STATES:
        state = _logged_state()
    if state is None:
        return fn(*args, **kwargs)
    token = _EXTOBJ.set(state)
    try:
        return fn(*args, **kwargs)
    finally:
        _EXTOBJ.reset(token)


try:  # the same in C (xnp/_native/user_line.c), which the replays' hit path also uses
    from xnp._native import _replay as _native
except ImportError:  # pragma: no cover  (not built: the Python function above)
    _native = None
if _EXTOBJ is not None and hasattr(_native, "configure_user_line"):
    _native.configure_user_line(_EXTOBJ, _LOGGED_STATES, _logged_state)
    at_user_line = _native.at_user_line  # noqa: F811  (the C version of the function above)


def fp_warnings_at_user_line(run, settings):
    """``run()`` under the floating-point ``settings`` (``numpy.geterr()``'s form), except
    that an error whose setting is 'warn' is NumPy's RuntimeWarning naming the user's line
    (the first frame outside xnp, :func:`source.outside_stacklevel`) instead of the frame of
    xnp's that called NumPy: NumPy's 'log' to :class:`_UserLineLog` (the caller's own
    handler gets the categories set to 'call' or 'log')."""
    logged = _logged(settings, np.geterrcall())
    with np.errstate(**(settings if logged is None else logged)):
        return run()


def is_fp_error(e: BaseException) -> bool:
    """Whether ``e`` is NumPy's report of a floating-point error under the caller's settings:
    ``FloatingPointError`` (``numpy.errstate`` 'raise'), or its ``RuntimeWarning`` raised by a
    warnings filter ('error'). Not one met in a recording's first attempt, which raises every
    floating-point error to find those a replay would meet (:func:`record` then runs the call
    again, its primitives under the caller's settings)."""
    if not isinstance(e, FloatingPointError):
        message = str(e)
        if not (isinstance(e, RuntimeWarning) and " encountered in " in message
                and message.startswith(_FP_STARTS)):
            return False
    rec = getattr(_STATE.trace, "recording", None)
    return rec is None or rec.inside is not None or rec.caller is None


def ignoring_fp_errors(fn, *args):
    """``fn(*args)`` with every floating-point error ignored (``numpy.errstate``) and no
    warning issued (it runs a call again for its result: the first run issued the warnings
    met before its error). In a call being recorded it runs on the base trace, unrecorded
    (a recording's primitives run under its own settings), and the recording fails: a call
    that raises is never stored."""
    rec = getattr(_STATE.trace, "recording", None)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if rec is None:
            return fn(*args)
        rec.fail("wrote its result before raising a floating-point error")
        with core.set_current_trace(_BASE):
            return fn(*args)


def renamed_fp_error(e: BaseException, where: str, only=None) -> BaseException:
    """``e``, NumPy's report of a floating-point error (a ``FloatingPointError``, or its
    ``RuntimeWarning`` under a warnings filter 'error'), worded for the loop ``where``
    ("overflow encountered in reduce"): a new exception of ``e``'s class. ``only`` (a
    loop's name or a tuple of them): only a report naming one of them is renamed.
    Anything else is ``e`` itself."""
    message = str(e)
    head, mark, loop = message.partition(" encountered in ")
    if only is not None and type(only) is not tuple:
        only = (only,)
    if (not mark or loop == where or (only is not None and loop not in only)
            or type(e) not in (FloatingPointError, RuntimeWarning)
            or not message.startswith(_FP_STARTS)):
        return e
    return type(e)(head + mark + where)
