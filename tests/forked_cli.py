"""The command line in a process of its own, forked from a warm one: for the tests that need what
only a separate process gives (a deadline that can kill a hang, a crash that cannot take the test
run with it) but not what only a new interpreter gives.

A new interpreter spends about 0.4 CPU-seconds starting Python and importing the engine before the
command does anything; the fixture books' commands are often cheaper than that. Here a
multiprocessing fork server imports the engine once per test worker, and each run is a fork of it:
the command runs as `python -m atlas_site` would run it (its own working folder, environment,
stdout and stderr, exit code; an exception it lets out is printed as a traceback, exit 1), and is
killed at its deadline as `subprocess.run(timeout=...)` kills it.

What only a new interpreter takes (a hash seed, an import path, a locale: variables read while
Python starts) goes to `subprocess.run`, as before."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

START_ONLY = ("PYTHON", "LC_", "LANG")  # environment variables an interpreter reads as it starts
_PRELOAD = ["atlas_site.cli", "atlas_site.build", "atlas_site.commands.check", "atlas_site.commands.build"]


def _run_command(argv: list[str], cwd: str, env: dict, out_path: str, err_path: str) -> None:
    """In the forked process: stdout and stderr to the files, then the command, then its exit code."""
    for fd, path in ((1, out_path), (2, err_path)):
        opened = os.open(path, os.O_WRONLY | os.O_TRUNC)
        os.dup2(opened, fd)
        os.close(opened)
    code: int = 1
    try:
        os.chdir(cwd)
        os.environ.update(env)
        from atlas_site.cli import main

        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse's usage errors, a command's own exit
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:  # as the interpreter would: the traceback on stderr, exit 1
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


_context = None


def _fork_server():
    global _context
    if _context is None:
        multiprocessing.set_forkserver_preload(_PRELOAD)
        _context = multiprocessing.get_context("forkserver")
    return _context


def run_atlas(
    project: Path, *args: str, seconds: float, env: dict | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """`atlas-site --root project ARGS` in a process of its own, killed after `seconds`
    (subprocess.TimeoutExpired, as subprocess.run raises it)."""
    argv = ["--root", str(project), *args]
    command = [sys.executable, "-m", "atlas_site", *argv]
    where = cwd or project
    env = env or {}
    if any(key.startswith(START_ONLY) for key in env):
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            errors="replace",
            cwd=where,
            timeout=seconds,
            env=dict(os.environ, **env),
        )
    with tempfile.TemporaryDirectory(prefix="atlas-cli-") as folder:
        out_path, err_path = (os.path.join(folder, name) for name in ("out", "err"))
        for path in (out_path, err_path):
            Path(path).touch()
        process = _fork_server().Process(
            target=_run_command, args=(argv, str(where), env, out_path, err_path), daemon=False
        )
        process.start()
        process.join(seconds)
        timed_out = process.is_alive()
        if timed_out:
            process.kill()
            process.join()
        out, err = (Path(path).read_text(encoding="utf-8", errors="replace") for path in (out_path, err_path))
        code = process.exitcode
        process.close()
    if timed_out:
        raise subprocess.TimeoutExpired(command, seconds, output=out, stderr=err)
    return subprocess.CompletedProcess(command, code, out, err)
