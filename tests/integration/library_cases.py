"""Real SciPy and scikit-learn calls on xnp arrays, each compared with the same call on
NumPy arrays. Run as a script (``python -m tests.integration.library_cases``) in a process
whose environment sets ``SCIPY_ARRAY_API=1`` before SciPy is imported; it prints one JSON
object: case name -> {"status": "ok" | "mismatch" | "error", "type": ..., "detail": ...}.
``test_library_integration.py`` runs it once and asserts every case.

A case is ``f(xp, data) -> result`` where ``xp`` is the array module (``numpy`` or ``xnp``)
and ``data`` the inputs as arrays of that module; ``result`` must be an array of that module
(or a Python scalar where the library returns one for NumPy too)."""

from __future__ import annotations

import json
import sys

import numpy as np

import xnp

RTOL, ATOL = 1e-7, 1e-9


def _data():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(60, 5))
    return {
        "a": rng.normal(size=(5, 6)), "b": rng.normal(size=(5, 6)), "v": rng.normal(size=50),
        "p": np.linspace(0.5, 2.0, 7), "X": a, "yc": (a[:, 0] > 0).astype(np.int64),
        "yr": a @ np.arange(1.0, 6.0) + rng.normal(size=60) * 0.1,
    }


def _scipy_cases():
    import scipy.cluster.vq as vq
    import scipy.fft as sf
    import scipy.integrate as si
    import scipy.ndimage as nd
    import scipy.signal as sg
    import scipy.special as sp
    import scipy.stats as st
    from scipy import differentiate as sd
    from scipy import spatial
    from scipy.optimize import elementwise as oe

    def ones(xp, x):
        return xp.ones_like(x)

    return {
        "special.logsumexp": lambda xp, d: sp.logsumexp(d["a"], axis=1),
        "special.softmax": lambda xp, d: sp.softmax(d["a"], axis=0),
        "special.expit": lambda xp, d: sp.expit(d["a"]),
        "special.erf": lambda xp, d: sp.erf(d["a"]),
        "special.gammaln": lambda xp, d: sp.gammaln(d["p"]),
        "special.xlogy": lambda xp, d: sp.xlogy(d["p"], d["p"]),
        "special.entr": lambda xp, d: sp.entr(d["p"]),
        "stats.zscore": lambda xp, d: st.zscore(d["a"], axis=0),
        "stats.skew": lambda xp, d: st.skew(d["a"], axis=0),
        "stats.kurtosis": lambda xp, d: st.kurtosis(d["a"], axis=1),
        "stats.ttest_ind": lambda xp, d: st.ttest_ind(d["a"], d["b"], axis=0).statistic,
        "stats.pearsonr": lambda xp, d: st.pearsonr(d["v"], d["v"] * 2 + d["v"] ** 2).statistic,
        "stats.variation": lambda xp, d: st.variation(d["a"], axis=0),
        "stats.moment": lambda xp, d: st.moment(d["a"], order=3, axis=0),
        "stats.entropy": lambda xp, d: st.entropy(d["p"]),
        "stats.sem": lambda xp, d: st.sem(d["p"]),
        "stats.gmean": lambda xp, d: st.gmean(d["p"]),
        "stats.hmean": lambda xp, d: st.hmean(d["p"]),
        "stats.rankdata": lambda xp, d: st.rankdata(d["v"]),
        "signal.fftconvolve": lambda xp, d: sg.fftconvolve(d["v"], d["v"][:5]),
        "signal.convolve": lambda xp, d: sg.convolve(d["v"], d["v"][:5]),
        "signal.correlate": lambda xp, d: sg.correlate(d["p"], d["p"]),
        "signal.oaconvolve": lambda xp, d: sg.oaconvolve(d["v"], d["p"][:3]),
        "fft.fft": lambda xp, d: sf.fft(d["v"]),
        "fft.rfft": lambda xp, d: sf.rfft(d["v"]),
        "fft.dct": lambda xp, d: sf.dct(d["v"]),
        "ndimage.gaussian_filter": lambda xp, d: nd.gaussian_filter(d["a"], 1.0),
        "ndimage.uniform_filter": lambda xp, d: nd.uniform_filter(d["v"], 3),
        "integrate.trapezoid": lambda xp, d: si.trapezoid(d["a"], axis=1),
        "integrate.cumulative_trapezoid": lambda xp, d: si.cumulative_trapezoid(d["p"]),
        "integrate.tanhsinh": lambda xp, d: si.tanhsinh(xp.exp, xp.zeros_like(d["p"]),
                                                        d["p"]).integral,
        "optimize.elementwise.find_minimum": lambda xp, d: oe.find_minimum(
            lambda z, c: (z - c) ** 2, (xp.zeros_like(d["p"]), d["p"] * 0.5 + 0.2,
                                        ones(xp, d["p"]) * 3), args=(d["p"],)).x,
        "optimize.elementwise.find_root": lambda xp, d: oe.find_root(
            lambda z, c: z ** 3 - c, (xp.zeros_like(d["p"]), ones(xp, d["p"]) * 3),
            args=(d["p"],)).x,
        "optimize.elementwise.bracket_root": lambda xp, d: oe.bracket_root(
            lambda z, c: z ** 3 - c, xp.zeros_like(d["p"]) + 0.5, args=(d["p"],)).bracket[0],
        "differentiate.derivative": lambda xp, d: sd.derivative(xp.exp, d["p"]).df,
        "differentiate.jacobian": lambda xp, d: sd.jacobian(
            lambda z: xp.stack([z[0] ** 2, z[0] * z[1]]), d["p"][:2]).df,
        "differentiate.hessian": lambda xp, d: sd.hessian(
            lambda z: xp.sum(z ** 2, axis=0), d["p"][:2]).ddf,
        "spatial.transform.Rotation": lambda xp, d: spatial.transform.Rotation.from_rotvec(
            xp.reshape(d["p"][:6], (2, 3))).as_matrix(),
        "cluster.vq.whiten": lambda xp, d: vq.whiten(d["a"]),
    }


def _sklearn_cases():
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression, Ridge, RidgeCV
    from sklearn.metrics import accuracy_score, mean_squared_error, r2_score
    from sklearn.metrics.pairwise import (cosine_similarity, euclidean_distances, linear_kernel,
                                          polynomial_kernel, rbf_kernel)
    from sklearn.mixture import GaussianMixture
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import (LabelBinarizer, LabelEncoder, MaxAbsScaler,
                                       MinMaxScaler, Normalizer, StandardScaler)

    return {
        "PCA(svd_solver='full')": lambda xp, d: PCA(3, svd_solver="full").fit_transform(d["X"]),
        "PCA(svd_solver='covariance_eigh')": lambda xp, d: PCA(
            3, svd_solver="covariance_eigh").fit_transform(d["X"]),
        "PCA(svd_solver='randomized')": lambda xp, d: PCA(
            3, svd_solver="randomized", random_state=0,
            power_iteration_normalizer="QR").fit_transform(d["X"]),
        "LinearDiscriminantAnalysis": lambda xp, d: LinearDiscriminantAnalysis().fit(
            d["X"], d["yc"]).predict_proba(d["X"]),
        "Ridge": lambda xp, d: Ridge(alpha=1.0).fit(d["X"], d["yr"]).coef_,
        "RidgeCV": lambda xp, d: RidgeCV(alphas=(0.1, 1.0, 10.0)).fit(d["X"], d["yr"]).coef_,
        "LogisticRegression": lambda xp, d: LogisticRegression().fit(
            d["X"], d["yc"]).predict_proba(d["X"]),
        "StandardScaler": lambda xp, d: StandardScaler().fit_transform(d["X"]),
        "MinMaxScaler": lambda xp, d: MinMaxScaler().fit_transform(d["X"]),
        "MaxAbsScaler": lambda xp, d: MaxAbsScaler().fit_transform(d["X"]),
        "Normalizer": lambda xp, d: Normalizer().fit_transform(d["X"]),
        "GaussianMixture(init_params='random_from_data')": lambda xp, d: GaussianMixture(
            2, init_params="random_from_data", random_state=0).fit(d["X"]).means_,
        "LabelEncoder": lambda xp, d: LabelEncoder().fit_transform(d["yc"]),
        "LabelBinarizer": lambda xp, d: LabelBinarizer().fit_transform(d["yc"]),
        "accuracy_score": lambda xp, d: accuracy_score(d["yc"], d["yc"][::-1]),
        "r2_score": lambda xp, d: r2_score(d["yr"], d["yr"] * 0.9),
        "mean_squared_error": lambda xp, d: mean_squared_error(d["yr"], d["yr"] * 0.9),
        "euclidean_distances": lambda xp, d: euclidean_distances(d["X"][:10], d["X"][10:20]),
        "rbf_kernel": lambda xp, d: rbf_kernel(d["X"][:10], d["X"][10:20]),
        "cosine_similarity": lambda xp, d: cosine_similarity(d["X"][:10]),
        "linear_kernel": lambda xp, d: linear_kernel(d["X"][:10]),
        "polynomial_kernel": lambda xp, d: polynomial_kernel(d["X"][:10]),
        "train_test_split": lambda xp, d: train_test_split(d["X"], random_state=0)[1],
    }


def _sklearn_host_cases():
    # estimators without Array API support in scikit-learn 1.9 (Cython inner loops; they fail
    # the same way on array-api-strict inputs under array_api_dispatch): with dispatch off,
    # scikit-learn converts xnp inputs through __array__ and returns NumPy arrays
    from sklearn.cluster import KMeans
    from sklearn.mixture import GaussianMixture

    return {
        "KMeans (no dispatch)": lambda xp, d: KMeans(2, n_init=2, random_state=0).fit(
            d["X"]).cluster_centers_,
        "KMeans.predict (no dispatch)": lambda xp, d: KMeans(2, n_init=2, random_state=0).fit(
            d["X"]).predict(d["X"][:10]),
        "GaussianMixture(init_params='kmeans') (no dispatch)": lambda xp, d: GaussianMixture(
            2, random_state=0).fit(d["X"]).means_,
    }


def _compare(fun, data, wrap=None, host=False):
    want = fun(np, data)
    xdata = {k: xnp.asarray(v) for k, v in data.items()}
    got = fun(xnp, xdata) if wrap is None else wrap(lambda: fun(xnp, xdata))
    kind = type(got).__name__
    if host and type(got) is not np.ndarray:
        return {"status": "mismatch", "type": kind, "detail": "not a NumPy array"}
    if not host and type(want) is np.ndarray and type(got) is not xnp.Array:
        return {"status": "mismatch", "type": kind, "detail": "not an xnp array"}
    if not np.allclose(np.asarray(got), np.asarray(want), rtol=RTOL, atol=ATOL, equal_nan=True):
        return {"status": "mismatch", "type": kind, "detail": f"{np.asarray(got)!r} vs {want!r}"}
    return {"status": "ok", "type": kind, "detail": ""}


def run() -> dict:
    import warnings

    from sklearn import config_context

    data = _data()
    out = {}
    groups = [("scipy", _scipy_cases(), None),
              ("sklearn", _sklearn_cases(),
               lambda call: _in_context(config_context(array_api_dispatch=True), call)),
              ("sklearn-host", _sklearn_host_cases(), None)]
    for prefix, cases, wrap in groups:
        for name, fun in cases.items():
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out[f"{prefix}:{name}"] = _compare(fun, data, wrap,
                                                       host=prefix == "sklearn-host")
            except Exception as e:  # noqa: BLE001  (reported per case, asserted by the test)
                out[f"{prefix}:{name}"] = {"status": "error", "type": type(e).__name__,
                                           "detail": str(e)[:400]}
    return out


def _in_context(ctx, call):
    with ctx:
        return call()


def case_names() -> list[str]:
    """The case names, without importing SciPy or scikit-learn (for test collection)."""
    import ast
    import pathlib

    names = []
    tree = ast.parse(pathlib.Path(__file__).read_text())
    for fn in tree.body:
        prefixes = {"_scipy_cases": "scipy", "_sklearn_cases": "sklearn",
                    "_sklearn_host_cases": "sklearn-host"}
        if isinstance(fn, ast.FunctionDef) and fn.name in prefixes:
            prefix = prefixes[fn.name]
            ret = fn.body[-1].value  # the function ends with ``return {name: case, ...}``
            names += [f"{prefix}:{k.value}" for k in ret.keys]
    return names


if __name__ == "__main__":
    json.dump(run(), sys.stdout)
