"""Every script the site ships parses. Node compiles each one (without running it) in a single
process, as the browser would load it (a classic script); the verdict is cached by content. A
syntax error is reported at the line of the repository's file; one that only the shipped copy has
(the minifier broke it) at that file's first line, with the shipped line quoted."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from ..cache import NoCache, digest
from ..diagnostics import Diagnostic, SourceLocation
from ..theme import shown_name, theme_file
from .context import GateContext
from .report import GateReport

COMPILE = r"""
const vm = require('vm');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const verdicts = JSON.parse(input).map(([name, source]) => {
    try { new vm.Script(source, { filename: name }); return null; } catch (error) {
      const lines = String(error.stack || '').split('\n');
      const line = Number((/:(\d+)$/.exec(lines[0] || '') || [])[1] || 1);
      const caret = (lines[2] || '').indexOf('^');
      return { line: line, col: caret >= 0 ? caret + 1 : 1, text: lines[1] || '', message: String(error.message) };
    }
  });
  process.stdout.write(JSON.stringify(verdicts));
});
"""
SECONDS = 60


def source_of(path: str, root: Path) -> str | None:
    """The repository file a shipped script is made from (None for generated ones)."""
    if path.startswith("assets/labs/"):
        candidate = "labs_js/" + path[len("assets/labs/") :]
    elif path.startswith("assets/") and path.count("/") == 1:
        found = theme_file(root, "static/" + path[len("assets/") :])
        return shown_name(root, found) if found else None
    else:
        return None
    return candidate if (root / candidate).is_file() else None


def _compile(node: str, scripts: list[tuple[str, str]]) -> list:
    run = subprocess.run(
        [node, "-e", COMPILE], input=json.dumps(scripts), capture_output=True, text=True, timeout=SECONDS
    )
    if run.returncode != 0:
        raise RuntimeError((run.stderr.strip().splitlines() or ["no message"])[-1])
    return json.loads(run.stdout)


def check_scripts(ctx: GateContext) -> GateReport:
    shipped = [p for p in ctx.output.paths() if p.endswith(".js")]
    node = shutil.which("node")
    if node is None:
        problem = Diagnostic(
            SourceLocation("labs_js/compute.js", 1, 1),
            "gate.scripts.no-runtime",
            "cannot check that the shipped scripts parse: node (Node.js) is missing",
            "install Node.js (scripts/build.sh does)",
        )
        return GateReport("scripts", f"{len(shipped)} shipped scripts, none checked", [problem])
    root = ctx.root or Path(".")
    sources = {path: source_of(path, root) for path in shipped}
    batch = [(f"_site/{path}", ctx.output.text(path)) for path in shipped]
    batch += [
        (name, (root / name).read_text(encoding="utf-8", errors="replace"))
        for name in sorted({s for s in sources.values() if s})
    ]
    cache = ctx.cache or NoCache()
    try:
        verdicts = dict(
            zip(
                (name for name, _ in batch),
                cache.get("script-syntax", lambda: digest(batch), lambda: _compile(node, batch)),
                strict=False,
            )
        )
    except (RuntimeError, ValueError, OSError, subprocess.TimeoutExpired) as error:
        problem = Diagnostic(
            SourceLocation("_site/assets"),
            "gate.scripts.no-runtime",
            f"cannot check the shipped scripts: {error}",
        )
        return GateReport("scripts", f"{len(shipped)} shipped scripts, none checked", [problem])
    problems = []
    for path in shipped:
        failure = verdicts.get(f"_site/{path}")
        if not failure:
            continue
        source = sources[path]
        original = verdicts.get(source) if source else None
        if source and original:
            problems.append(
                Diagnostic(
                    SourceLocation(source, original["line"], original["col"]),
                    "gate.scripts.syntax",
                    f"{original['message']} (shipped as {path})",
                    "fix the script: the site would ship it broken",
                )
            )
        else:
            where = (
                SourceLocation(source, 1, 1)
                if source
                else SourceLocation(f"_site/{path}", failure["line"], failure["col"])
            )
            problems.append(
                Diagnostic(
                    where,
                    "gate.scripts.shipped-syntax",
                    f"the shipped copy {path} does not parse ({failure['message']} at its line {failure['line']}: "
                    f"{failure['text'].strip()[:80]!r}) though the file does",
                    "the minifier (rjsmin, render/assets.shipped) changed its meaning: report it, and ship that file unminified meanwhile",
                )
            )
    return GateReport("scripts", f"{len(shipped)} shipped scripts parse; {len(problems)} do not", problems)
