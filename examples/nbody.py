"""The Sun and eight planets for a simulated century, three ways: NumPy, xnp eager, ``xnp.jit``.

Initial state: heliocentric positions/velocities at J2000.0 (JD 2451545.0 TDB)
from ``erfa.plan94`` (au, au/day; planet 3 is the Earth-Moon barycentre),
the Sun at the origin, then everything moved to the barycentric frame.
Integrator: symplectic leapfrog (kick-drift-kick), vectorised with pairwise
differences by broadcasting; the physics functions are written against a
module parameter ``np`` so the same code runs on ``numpy`` and on ``xnp``.

NumPy and xnp eager step through the century from a Python loop; the jitted
version runs the whole century as one call of one compiled function, the
steps an ``xnp.lax.fori_loop`` inside it (the number of steps is an argument,
so a first call with 0 steps compiles it). Printed: the relative energy drift
over the century for each way, agreement checks, time per step and speed-ups
vs NumPy.

Run ``python examples/nbody.py`` (``--days``, ``--dt``).
Exits with status 1 if the three runs disagree.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy

import xnp

__all__ = ["initial_state", "accelerations", "energy", "make_step", "make_loop", "run",
           "main", "GM_KM3_S2", "NAMES"]

J2000 = 2451545.0  # JD (TDB)
AU_KM = 149597870.7  # IAU 2012 Resolution B2 (exact)
DAY_S = 86400.0
DAYS = 36525.0  # one Julian century
DT = 1.0  # days

NAMES = ("Sun", "Mercury", "Venus", "Earth-Moon", "Mars", "Jupiter", "Saturn", "Uranus",
         "Neptune")
# GM in km^3/s^2 from the JPL planetary ephemeris DE430 (Folkner et al. 2014,
# IPN Progress Report 42-196, Table 8); planets with their satellites (system
# values), planet 3 the Earth-Moon system (Earth + Moon GM), matching what
# erfa.plan94 returns. The solar value agrees with the IAU 2015 Resolution B3
# nominal GM_sun = 1.3271244e20 m^3/s^2 to 8 significant digits.
GM_KM3_S2 = numpy.array([
    132712440041.939400,  # Sun
    22031.780000,  # Mercury
    324858.592000,  # Venus
    403503.235502,  # Earth + Moon (398600.435436 + 4902.800066)
    42828.375214,  # Mars system
    126712764.800000,  # Jupiter system
    37940585.200000,  # Saturn system
    5794548.600000,  # Uranus system
    6836527.100580,  # Neptune system
])
GM = GM_KM3_S2 * DAY_S**2 / AU_KM**3  # au^3/day^2

# The three runs do the same float64 arithmetic; XLA's summation order and
# rounding differ from NumPy's in the last bits. Over a century those
# differences grow only linearly-ish (the solar system's Lyapunov time is
# millions of years), so positions agree to ~1e-10 au and the energy drift to
# far better than its own size.
POS_ATOL = 1e-7  # au, final positions
DRIFT_ATOL = 1e-11  # absolute difference of the relative energy drift


# --------------------------------------------------------------------------- data (NumPy only)


def initial_state():
    """Barycentric (x, v) at J2000 as NumPy float64 arrays of shape (9, 3): au, au/day."""
    import erfa

    x = numpy.zeros((9, 3))
    v = numpy.zeros((9, 3))
    for n in range(1, 9):
        pv = erfa.plan94(J2000, 0.0, n)
        x[n] = pv["p"]
        v[n] = pv["v"]
    x -= (GM[:, None] * x).sum(axis=0) / GM.sum()
    v -= (GM[:, None] * v).sum(axis=0) / GM.sum()
    return x, v


# --------------------------------------------------------------------------- physics (any np)


def accelerations(np, x, gm, mask):
    """a_i = sum_j gm_j (x_j - x_i) / |x_j - x_i|^3 for positions ``x`` (n, 3).

    ``mask`` is ``1 - eye(n)``: it zeroes the self-interaction (and the
    ``+ eye`` keeps the diagonal distance away from 0).
    """
    d = x[None, :, :] - x[:, None, :]  # d[i, j] = x_j - x_i
    r2 = np.sum(d * d, axis=-1) + (1.0 - mask)
    inv_r3 = mask / (r2 * np.sqrt(r2))
    return np.sum(d * (gm[None, :] * inv_r3)[:, :, None], axis=1)


def energy(np, x, v, gm, mask):
    """Total energy divided by G (so GM plays the role of mass): au^5/day^4 units."""
    kinetic = 0.5 * np.sum(gm * np.sum(v * v, axis=-1))
    d = x[None, :, :] - x[:, None, :]
    r = np.sqrt(np.sum(d * d, axis=-1) + (1.0 - mask))
    potential = -0.5 * np.sum(gm[:, None] * gm[None, :] * mask / r)
    return kinetic + potential


def make_step(np, dt: float = DT):
    """Leapfrog kick-drift-kick: ``step(x, v, a, gm, mask) -> (x, v, a)``.

    ``a`` is the acceleration at ``x``; carrying it over saves one force
    evaluation per step.
    """

    def step(x, v, a, gm, mask):
        v = v + (0.5 * dt) * a
        x = x + dt * v
        a = accelerations(np, x, gm, mask)
        v = v + (0.5 * dt) * a
        return x, v, a

    return step


def make_loop(np, fori_loop, dt: float = DT):
    """``loop(n_steps, x, v, a, gm, mask) -> (x, v, a)``: ``n_steps`` leapfrog steps as
    one ``fori_loop`` (``xnp.lax.fori_loop``, or JAX's); under jit, one compiled loop
    whose trip count is an argument."""
    step = make_step(np, dt)

    def loop(n_steps, x, v, a, gm, mask):
        def body(i, state):
            x, v, a = state
            return step(x, v, a, gm, mask)

        return fori_loop(0, n_steps, body, (x, v, a))

    return loop


# --------------------------------------------------------------------------- running one way


def _check_xnp_value(name: str, value) -> None:
    """The xnp runs must produce xnp arrays: a NumPy result means a silent fallback."""
    if type(value) is not xnp.Array:
        raise TypeError(f"{name}: expected an xnp.Array, got {type(value).__name__}; "
                        "an xnp path returned a non-xnp value")


def run(label: str, np, n_steps: int, dt: float = DT, jit: bool = False):
    """Integrate ``n_steps`` steps; returns the final state, energy drift and timing.

    Without ``jit``: one call of the step function per step, from a Python loop.
    With ``jit``: one call of the jitted ``fori_loop`` over all the steps, after a
    first call with 0 steps that compiles it (timed as the compile time).
    """
    x0, v0 = initial_state()
    x, v = np.asarray(x0), np.asarray(v0)
    gm = np.asarray(GM)
    mask = 1.0 - np.eye(len(GM))
    energy_fn = xnp.jit(lambda x, v, gm, mask: energy(xnp, x, v, gm, mask)) if jit else (
        lambda x, v, gm, mask: energy(np, x, v, gm, mask))
    a = accelerations(np, x, gm, mask)
    e0 = float(energy_fn(x, v, gm, mask))

    t_compile = 0.0
    if jit:
        loop = xnp.jit(make_loop(xnp, xnp.lax.fori_loop, dt))
        t0 = time.perf_counter()
        numpy.asarray(loop(0, x, v, a, gm, mask)[0])  # compiles; runs no step
        t_compile = time.perf_counter() - t0
        t0 = time.perf_counter()
        x, v, a = loop(n_steps, x, v, a, gm, mask)
        numpy.asarray(x)  # wait for the result (jit runs asynchronously)
        elapsed = time.perf_counter() - t0
    else:
        step = make_step(np, dt)
        t0 = time.perf_counter()
        for _ in range(n_steps):
            x, v, a = step(x, v, a, gm, mask)
        numpy.asarray(x)
        elapsed = time.perf_counter() - t0

    if np is xnp:
        for name, value in (("x", x), ("v", v), ("a", a)):
            _check_xnp_value(f"{label} {name}", value)
    e1 = float(energy_fn(x, v, gm, mask))
    return {
        "label": label,
        "x": numpy.array(x),
        "v": numpy.array(v),
        "drift": (e1 - e0) / abs(e0),
        "compile_s": t_compile,
        "step_s": elapsed / n_steps,
        "total_s": elapsed,
    }


def _earth_check(x, days):
    """Angle (degrees, seen from the Sun) between the simulated Earth-Moon barycentre and
    erfa.plan94's at the end: a sanity check of units and masses, not an agreement check."""
    import erfa

    pv = erfa.plan94(J2000 + days, 0.0, 3)
    sim = x[3] - x[0]
    cos = sim @ pv["p"] / (numpy.linalg.norm(sim) * numpy.linalg.norm(pv["p"]))
    return numpy.degrees(numpy.arccos(min(1.0, cos)))


# --------------------------------------------------------------------------- main


def main(argv=None) -> bool:
    """Run the three ways, print a table, return True if they agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=float, default=DAYS, help="simulated time (days)")
    parser.add_argument("--dt", type=float, default=DT, help="step (days)")
    args = parser.parse_args(argv)
    n_steps = int(round(args.days / args.dt))

    print(f"N-body: Sun + 8 planets from erfa.plan94 at J2000, DE430 GMs, leapfrog (KDK), "
          f"dt = {args.dt:g} day, {n_steps} steps = {n_steps * args.dt / 365.25:g} years, "
          f"float64; numpy and xnp eager: one step per call from a Python loop; xnp.jit: the "
          f"{n_steps} steps as one xnp.lax.fori_loop in one jitted call.")
    results = [
        run("numpy", numpy, n_steps, args.dt),
        run("xnp eager", xnp, n_steps, args.dt),
        run("xnp.jit", xnp, n_steps, args.dt, jit=True),
    ]
    base = results[0]
    print(f"  {'way':<10} {'step (us)':>10} {'speed-up':>9} {'total (s)':>10} "
          f"{'compile (s)':>12} {'rel. energy drift':>18}")
    for r in results:
        print(f"  {r['label']:<10} {r['step_s'] * 1e6:>10.2f} "
              f"{base['step_s'] / r['step_s']:>8.2f}x {r['total_s']:>10.2f} "
              f"{r['compile_s']:>12.2f} {r['drift']:>18.3e}")
    print(f"  sanity: Earth-Moon barycentre (numpy run) vs erfa.plan94 after {n_steps * args.dt:g} "
          f"days: {_earth_check(base['x'], n_steps * args.dt):.3f} deg apart, seen from the Sun "
          "(the leapfrog's phase error; it shrinks as dt^2)")

    ok = True
    for r in results[1:]:
        dx = numpy.max(numpy.abs(r["x"] - base["x"]))
        dd = abs(r["drift"] - base["drift"])
        good = dx <= POS_ATOL and dd <= DRIFT_ATOL
        ok &= bool(good)
        print(f"  check {r['label']:<10} vs numpy: max |dx| {dx:.1e} au (tolerance {POS_ATOL:.0e}),"
              f" |d drift| {dd:.1e} (tolerance {DRIFT_ATOL:.0e}): {'OK' if good else 'FAIL'}")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
