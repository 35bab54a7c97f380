"""Figure series: the numbers a chart plots, computed by the labs' own functions at build time.

A figure spec may declare

    series:
      roof:                                   # a name its template reads as S.roof
        fn: bottleneck.step_time_lower_bound  # namespace.function in labs_js
        args: {bytes: 1, bytes_per_s: "ex:bottleneck-decode-batch-1.bandwidth_tb_per_s",
               flops_per_s: "assume:peak_tflops"}
        lab: memory                           # optional: start from that lab's defaults
        vary: flops                           # optional; without it the series is one call
        values: [1, 10, 100]                  # or "series:<other>.<output>" (point by point)
        outputs: [lower_bound_s, bound]       # what the template may read
    assume: {peak_tflops: 100}                # chart-only teaching assumptions, shown with their values

An argument or value may name an example's input (``ex:<id>.<arg>``) or an ``assume`` entry,
so a chart uses the same teaching numbers as the prose; with ``lab:`` the chart is that lab's
default scenario with one input varied. A label shows a fixed argument through a ``numbers``
entry ``series:<name>.<arg>``. The build sends every point as one
{fn, args} request to ``labs_js/compute.js`` together with the worked examples; a series whose
values come from another series waits for it. The template receives, per series,
``{"x": [values], "args": {fixed args}, <output>: [one result per point]}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

COMPUTED_KEY = "figure:{}"  # where a figure's series live in the build's `computed`
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_FN = re.compile(r"^[a-z_]+\.[a-z0-9_]+$")
_REF = re.compile(r"^(ex|assume|series):([a-z0-9_.-]+)$")


@dataclass
class Job:
    """One series of one figure, its references resolved except a `series:` value list."""

    figure: str
    name: str
    fn: str
    args: dict
    vary: str | None
    values: list | str  # resolved numbers, or the "series:<name>.<output>" it follows
    outputs: list[str]

    def waits_for(self) -> tuple[str, str] | None:
        if isinstance(self.values, str):
            name, _, output = self.values.partition(":")[2].partition(".")
            return name, output
        return None

    def requests(self) -> list[dict]:
        if self.vary is None:
            return [{"fn": self.fn, "args": dict(self.args)}]
        return [{"fn": self.fn, "args": {**self.args, self.vary: v}} for v in self.values]


def _resolve(value, spec: Mapping, example_args: Mapping[str, Mapping]):
    """A literal, or the number an ``ex:<id>.<arg>`` / ``assume:<key>`` reference names."""
    if not isinstance(value, str):
        return value
    match = _REF.match(value)
    if not match or match.group(1) == "series":
        return value
    kind, target = match.groups()
    if kind == "assume":
        assumed = spec.get("assume") or {}
        if target not in assumed:
            raise KeyError(f"'{value}' names no entry of this figure's assume")
        return assumed[target]
    example, _, arg = target.partition(".")
    if example not in example_args or arg not in example_args[example]:
        raise KeyError(f"'{value}' names no input of a worked example")
    return example_args[example][arg]


def plan(
    figures: Mapping[str, Mapping],
    example_args: Mapping[str, Mapping],
    lab_defaults: Mapping[str, Mapping] | None = None,
) -> tuple[list[Job], list[tuple[str, str]]]:
    """Every figure's series as jobs, and (figure id, message) for each malformed one."""
    lab_defaults = lab_defaults or {}
    jobs: list[Job] = []
    problems: list[tuple[str, str]] = []
    for fig_id, spec in figures.items():
        declared = spec.get("series") or {}
        if not isinstance(declared, Mapping):
            problems.append((fig_id, "series must map names to {fn, args, vary, values, outputs}"))
            continue
        for name, entry in declared.items():
            where = f"series '{name}'"
            if not _NAME.match(str(name)) or not isinstance(entry, Mapping):
                problems.append((fig_id, f"{where}: needs a lower-case name and a mapping"))
                continue
            unknown = sorted(set(entry) - {"fn", "lab", "args", "vary", "values", "outputs"})
            outputs = entry.get("outputs")
            vary, values = entry.get("vary"), entry.get("values")
            if unknown:
                problems.append((fig_id, f"{where}: unknown keys {', '.join(unknown)}"))
            elif not _FN.match(str(entry.get("fn", ""))):
                problems.append((fig_id, f"{where}: fn must be '<namespace>.<function>' of labs_js"))
            elif not isinstance(outputs, list) or not outputs or not all(isinstance(o, str) for o in outputs):
                problems.append((fig_id, f"{where}: outputs must list the function's outputs to read"))
            elif (vary is None) != (values is None):
                problems.append((fig_id, f"{where}: vary and values come together"))
            elif (
                vary is not None
                and not (isinstance(values, list) and values)
                and not (isinstance(values, str) and values.startswith("series:"))
            ):
                problems.append(
                    (fig_id, f"{where}: values must be a non-empty list or 'series:<name>.<output>'")
                )
            elif vary is not None and vary in (entry.get("args") or {}):
                problems.append((fig_id, f"{where}: '{vary}' is both varied and fixed"))
            elif entry.get("lab") is not None and entry["lab"] not in lab_defaults:
                problems.append(
                    (fig_id, f"{where}: no lab '{entry['lab']}' (labs: {', '.join(sorted(lab_defaults))})")
                )
            else:
                try:
                    args = dict(lab_defaults.get(entry.get("lab") or "", {}))
                    args.update(
                        {k: _resolve(v, spec, example_args) for k, v in (entry.get("args") or {}).items()}
                    )
                    args.pop(vary, None)
                    resolved = (
                        values
                        if isinstance(values, str)
                        else [_resolve(v, spec, example_args) for v in values or []]
                    )
                except KeyError as exc:
                    problems.append((fig_id, f"{where}: {exc.args[0]}"))
                    continue
                jobs.append(Job(fig_id, str(name), str(entry["fn"]), args, vary, resolved, list(outputs)))
    for job in jobs:
        follows = job.waits_for()
        mine = {j.name: j for j in jobs if j.figure == job.figure}
        if follows and (follows[0] not in mine or follows[1] not in mine[follows[0]].outputs):
            problems.append(
                (
                    job.figure,
                    f"series '{job.name}': values '{job.values}' names no output of a series of this figure",
                )
            )
    bad = {(f, m.split("'")[1]) for f, m in problems if m.startswith("series '")}
    return [j for j in jobs if (j.figure, j.name) not in bad], problems


def run(
    jobs: list[Job], compute: Callable[[list[dict], list[Job]], list | None], done: dict | None = None
) -> tuple[dict, list[tuple[str, str]]]:
    """Compute the jobs in waves (a series following another waits one wave). ``compute`` gets
    the requests and, per request, its job; it returns the results in order, or None when the
    run failed (it reports that itself). Returns {figure: {name: series}} and the problems."""
    done = {} if done is None else done
    problems: list[tuple[str, str]] = []
    waiting = list(jobs)
    while waiting:
        ready = [j for j in waiting if (wait := j.waits_for()) is None or (j.figure, wait[0]) in done]
        if not ready:  # a cycle: nothing can start
            problems += [
                (j.figure, f"series '{j.name}' waits for itself through '{j.values}'") for j in waiting
            ]
            break
        for job in ready:
            follows = job.waits_for()
            if follows:
                job.values = list(done[(job.figure, follows[0])][follows[1]])
        requests, owners = [], []
        for job in ready:
            points = job.requests()
            requests += points
            owners += [job] * len(points)
        results = compute(requests, owners) if requests else []
        if results is None:
            return _by_figure(done), problems
        at = 0
        for job in ready:
            points = results[at : at + len(job.requests())]
            at += len(points)
            missing = sorted(
                {o for p in points for o in job.outputs if not isinstance(p, dict) or o not in p}
            )
            if missing:
                given = sorted(points[0]) if points and isinstance(points[0], dict) else []
                problems.append(
                    (
                        job.figure,
                        f"series '{job.name}': {job.fn} returns no output {', '.join(missing)} "
                        f"(it returns {', '.join(given) or 'no object'})",
                    )
                )
                continue
            done[(job.figure, job.name)] = {
                "x": list(job.values) if job.vary else [],
                "args": job.args,
                **{o: [p[o] for p in points] for o in job.outputs},
            }
        waiting = [j for j in waiting if j not in ready]
    return _by_figure(done), problems


def _by_figure(done: dict) -> dict:
    out: dict[str, dict] = {}
    for (figure, name), value in sorted(done.items()):
        out.setdefault(figure, {})[name] = value
    return out
