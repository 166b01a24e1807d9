"""``rulelang compare A B``: two games (or one game under two option sets) simulated on the same
seeds with the same agents, and every metric of ``simulate`` side by side with its difference
(B minus A), the difference's 95% confidence interval and a test of it.

The tests (docs/metrics.md): a rate is compared by the two-proportion z-test (pooled standard
error; the interval is Wald's, unpooled), a mean by Welch's t-test (the interval from Student's
t at the Welch-Satterthwaite degrees of freedom). The two runs are treated as independent
samples: the shared seeds make the deals alike only until the rules make them differ. The
p-values of all the tested metrics are corrected together by Holm's step-down method, and a
difference is significant when its corrected p is below 0.05. Percentiles are shown, not tested.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from .errors import UsageError
from .limits import MAX_WORKERS

ALPHA = 0.05


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularised incomplete beta function."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, p: float = 0.975) -> float:
    """The ``p`` quantile of Student's t (p > 0.5), by bisection of its tail."""
    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) / 2 > 1 - p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def proportions(ka: float, na: int, kb: float, nb: int) -> dict[str, Any]:
    """Two rates compared: B's minus A's, Wald's 95% interval, the pooled z-test's p."""
    pa, pb = ka / na, kb / nb
    diff = pb - pa
    h = 1.96 * math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    pool = (ka + kb) / (na + nb)
    se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    p = math.erfc(abs(diff) / se / math.sqrt(2)) if se > 0 else 1.0
    return {"a": pa, "b": pb, "diff": diff, "ci95": [diff - h, diff + h],
            "test": "two-proportion z", "p": p}


def means(ma: float, sa: float, na: int, mb: float, sb: float, nb: int) -> dict[str, Any]:
    """Two means compared: B's minus A's, Welch's 95% interval and t-test's p."""
    diff = mb - ma
    va, vb = sa * sa / na, sb * sb / nb
    se = math.sqrt(va + vb)
    if se == 0:
        return {"a": ma, "b": mb, "diff": diff, "ci95": [diff, diff], "test": "Welch t",
                "p": 1.0 if diff == 0 else 0.0}
    df = (va + vb) ** 2 / ((va * va / (na - 1) if na > 1 else 0.0)
                           + (vb * vb / (nb - 1) if nb > 1 else 0.0) or 1e-300)
    h = t_quantile(df) * se
    return {"a": ma, "b": mb, "diff": diff, "ci95": [diff - h, diff + h], "test": "Welch t",
            "p": t_two_sided(diff / se, df)}


def holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``ps`` (in their order)."""
    m = len(ps)
    out = [0.0] * m
    run = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        run = max(run, min(1.0, (m - rank) * ps[i]))
        out[i] = run
    return out


def _rate(x: dict[str, Any] | None) -> tuple[float, int]:
    return (x["count"], x["of"]) if x else (0.0, 0)


def rows(sa: dict[str, Any], sb: dict[str, Any]) -> list[dict[str, Any]]:
    """Every metric of two runs' statistics (``sim.run``'s) compared."""
    ma, mb = sa["metrics"], sb["metrics"]
    out: list[dict[str, Any]] = []

    def rate(name: str, a: dict[str, Any] | None, b: dict[str, Any] | None) -> None:
        (ka, na), (kb, nb) = _rate(a), _rate(b)
        if na and nb:
            out.append({"metric": name, **proportions(ka, na, kb, nb)})

    def mean(name: str, a: dict[str, Any] | None, b: dict[str, Any] | None) -> None:
        if a and b and a["n"] and b["n"]:
            out.append({"metric": name, **means(a["mean"], a["sd"], a["n"],
                                                b["mean"], b["sd"], b["n"])})

    for x, y in zip(ma["seat_fairness"]["seats"], mb["seat_fairness"]["seats"]):
        rate(f"win share P{x['seat']}", x, y)
    rate("first player's win share", ma["first_player"], mb["first_player"])
    for key in ("rounds", "decisions"):
        x, y = ma["length"][key], mb["length"][key]
        mean(f"{key} per game (mean)", x, y)
        for q in ("median", "p10", "p90"):
            out.append({"metric": f"{key} per game ({q})", "a": x[q], "b": y[q],
                        "diff": y[q] - x[q], "ci95": None, "test": None, "p": None})
    rate("decided before the last round", ma["decisiveness"], mb["decisiveness"])
    mean("lead changes per game", ma["lead_changes"], mb["lead_changes"])
    rate("games with a lead change", ma["lead_changes"]["games_with_one"],
         mb["lead_changes"]["games_with_one"])
    rate("drama: games the winner trailed", ma["drama"]["comeback_games"],
         mb["drama"]["comeback_games"])
    rate("drama: rounds the winner trailed", ma["drama"]["rounds_behind"],
         mb["drama"]["rounds_behind"])
    if len(set(sa["agents"])) > 1:
        for agent, x in sa["wins_per_agent"].items():
            y = sb["wins_per_agent"][agent]
            rate(f"win rate of {agent}", {"count": x["wins"], "of": sa["games"] * len(x["seats"])},
                 {"count": y["wins"], "of": sb["games"] * len(y["seats"])})
    ea, eb = ma["ended_by_share"], mb["ended_by_share"]
    na, nb = sum(sa["ended_by"].values()), sum(sb["ended_by"].values())
    for name in sorted(set(ea) | set(eb)):
        rate(f"rounds ended by {name}", ea.get(name, {"count": 0, "of": na}),
             eb.get(name, {"count": 0, "of": nb}))
    pa, pb = ma["payouts"], mb["payouts"]
    for c in sorted(set(pa) & set(pb)):
        for role in sorted(set(pa[c]) & set(pb[c])):
            mean(f"change of {c} per round, {role}", pa[c][role], pb[c][role])
    tested = [r for r in out if r["p"] is not None]
    for r, adj in zip(tested, holm([r["p"] for r in tested])):
        r["p_holm"] = adj
        r["significant"] = adj < ALPHA
    for r in out:
        r.setdefault("p_holm", None)
        r.setdefault("significant", None)
        for k in ("a", "b", "diff", "p", "p_holm"):
            if isinstance(r[k], float):
                r[k] = round(r[k], 6)
        if r["ci95"]:
            r["ci95"] = [round(v, 6) for v in r["ci95"]]
    return out


def compare_games(a: str, b: str, players: int | None, games: int, agents: str, seed: int,
                  workers: int, load: Callable[..., Any], options: list[dict[str, Any]],
                  allow_any_path: bool = False, records: list[str | None] | None = None,
                  report: str | None = None, backend: str = "local",
                  address: str | None = None) -> dict[str, Any]:
    """Simulate A and B (``load(name, options, allow_any_path)`` compiles each) on the same
    seeds with the same agents, and compare their metrics. ``options``: those of both, of A
    alone, of B alone (each alone wins over both); ``records``: the files of A's and B's
    games (``simulate --records``), ``report`` the file of the report (``report.py``);
    ``backend`` and ``address``: where the games run (``sim.run``)."""
    from . import sim
    from .agents import parse_agents
    from .distributed import Cluster, check_backend
    from .report import RunFiles

    opts_a, opts_b = {**options[0], **options[1]}, {**options[0], **options[2]}
    ga, gb = load(a, opts_a, allow_any_path), load(b, opts_b, allow_any_path)
    n = ga.default_players if players is None else players
    for g in (ga, gb):
        if not g.min_players <= n <= g.max_players:
            raise UsageError(f"{g.name} is for {g.min_players} to {g.max_players} players, "
                             f"not {n}")
    if games < 2 or not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"--games must be at least 2, --workers from 1 to {MAX_WORKERS}")
    check_backend(backend, address)
    names = parse_agents(agents, n)
    runs = []
    files = RunFiles(list(zip(("--records-a", "--records-b"), records or [None, None])), report)
    try:
        # on Ray, one connection (one local Ray started, if any) for both runs
        with Cluster(address) if backend == "ray" else nullcontext():
            for k, (name, g, opts) in enumerate(((a, ga, opts_a), (b, gb, opts_b))):
                path = g.path if Path(g.path).is_file() else name
                runs.append(sim.run(path, opts, n, games, names, seed, workers, game=g,
                                    allow_any_path=allow_any_path, records_to=files.sink(k),
                                    backend=backend, address=address))
                runs[-1]["game"] = g.name
        files.close()
    finally:
        files.close(quietly=True)
    sa, sb = runs
    out = {"a": {"game": ga.name, "path": a, "options": dict(ga.options)},
            "b": {"game": gb.name, "path": b, "options": dict(gb.options)},
            "games": games, "players": n, "agents": names, "seed": seed,
            "alpha": ALPHA, "correction": "Holm-Bonferroni", "metrics": rows(sa, sb),
            "seconds": round(sa["seconds"] + sb["seconds"], 4)}
    files.write_report(runs, out)
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def render(c: dict[str, Any]) -> list[str]:
    """The comparison as text lines."""
    def opts(side: dict[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in side["options"].items()) or "no options"

    out = [f"A: {c['a']['path']} ({opts(c['a'])})", f"B: {c['b']['path']} ({opts(c['b'])})",
           f"{c['games']} games each, {c['players']} players, agents {','.join(c['agents'])}, "
           f"seed {c['seed']}; B - A, 95% CI, p after Holm's correction (* below "
           f"{c['alpha']})"]
    width = max(len(r["metric"]) for r in c["metrics"])
    out.append(f"{'metric':<{width}}  {'A':>9} {'B':>9} {'B - A':>9}  {'95% CI':<21} p")
    for r in c["metrics"]:
        ci = f"[{r['ci95'][0]:+.3g}, {r['ci95'][1]:+.3g}]" if r["ci95"] else "(not tested)"
        mark = " *" if r["significant"] else ""
        out.append(f"{r['metric']:<{width}}  {_fmt(r['a']):>9} {_fmt(r['b']):>9} "
                   f"{_fmt(r['diff']):>9}  {ci:<21} {_fmt(r['p_holm'])}{mark}")
    return out
