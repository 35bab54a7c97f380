"""Lighthouse over every reader page (run by bench.py --lighthouse, by hand, never by the tests).

Lighthouse is the npm package, installed on first use under .bench/ (ignored by git) at the version
below; Chromium is /usr/bin/chromium (CHROME_PATH). Each page is loaded from a static server on
127.0.0.1, with Lighthouse's default mobile preset (simulated slow 4G, 4x CPU slowdown), N runs per
page, and the median score of each category is reported (the median of the runs' performance
scores, and for each metric the run with that median score).

The server is Python's http.server, as `python -m http.server` serves the folder, plus gzip for
text when the browser accepts it, because every static host the site is meant for (GitHub Pages,
Netlify, nginx, Caddy) compresses text: without it a 400 KB chapter travels uncompressed and the
simulated slow-4G first paint measures the server, not the page. `--plain-server` measures the bare
`python -m http.server` instead."""

from __future__ import annotations

import gzip
import http.server
import io
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from atlas_site.gates.browser import serve_folder

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / ".bench"
VERSION = "12.2.3"  # the version issue 15's first measurement used
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
)
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


class _Handler(http.server.SimpleHTTPRequestHandler):
    compress = True

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def served(folder: Path, compress: bool):
    return serve_folder(folder, type("Handler", (_Handler,), {"compress": compress}))


def lighthouse_binary() -> Path:
    binary = BENCH / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        BENCH.mkdir(exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(BENCH), f"lighthouse@{VERSION}"],
            check=True,
        )
    return binary


def reader_pages(site: Path) -> list[str]:
    """Every page a reader reaches: the chooser, each language's home, chapter, tutorial pages and
    generated pages (not the contributors' dashboard, not the 404 page)."""
    pages = ["index.html"]
    for lang in sorted(p.name for p in site.iterdir() if p.is_dir() and (p / "index.html").exists()):
        pages += sorted(f"{lang}/{p.name}" for p in (site / lang).glob("*.html"))
    return pages


def run_once(binary: Path, url: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [
                str(binary),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                f"--chrome-flags={CHROME_FLAGS}",
            ],
            check=True,
            capture_output=True,
            env=dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium")),
        )
        data = json.loads(report.read_text(encoding="utf-8"))
    failing = sorted(
        f"{key} ({audit.get('displayValue') or audit['score']})"
        for key, audit in data["audits"].items()
        if audit.get("score") is not None
        and audit["score"] < 0.9
        and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings")
    )
    return {
        "scores": {c: data["categories"][c]["score"] for c in CATEGORIES},
        "metrics": {m: data["audits"][m]["numericValue"] for m in METRICS},
        "failing": failing,
        "benchmark_index": data["environment"]["benchmarkIndex"],
    }


def measure(site: Path, runs: int, compress: bool = True, pages: list[str] | None = None) -> list[dict]:
    binary = lighthouse_binary()
    rows = []
    with served(site, compress) as base:
        for page in pages or reader_pages(site):
            results = [run_once(binary, base + page) for _ in range(runs)]
            by_performance = sorted(results, key=lambda r: r["scores"]["performance"])
            middle = by_performance[len(by_performance) // 2]
            rows.append(
                {
                    "page": page,
                    "scores": {c: statistics.median(r["scores"][c] for r in results) for c in CATEGORIES},
                    "metrics": middle["metrics"],
                    "failing": middle["failing"],
                    "benchmark_index": statistics.median(r["benchmark_index"] for r in results),
                }
            )
    return rows


def table(rows: list[dict], runs: int) -> str:
    lines = [
        f"| page (median of {runs}) | performance | accessibility | best practices | SEO | FCP s | LCP s | TBT ms | CLS | what holds it back (< 0.9) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        s, m = row["scores"], row["metrics"]
        lines.append(
            f"| {row['page']} | {s['performance']:.2f} | {s['accessibility']:.2f} | {s['best-practices']:.2f} | {s['seo']:.2f} | "
            f"{m['first-contentful-paint'] / 1000:.1f} | {m['largest-contentful-paint'] / 1000:.1f} | "
            f"{m['total-blocking-time']:.0f} | {m['cumulative-layout-shift']:.3f} | {', '.join(row['failing']) or '—'} |"
        )
    return "\n".join(lines)
