"""Stage 6: Output -> disk, atomically. A failed build never touches the previous site."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .output import Output


def write_site(output: Output, destination: Path, finish=None) -> None:
    """Write into a sibling staging folder, let `finish(staging)` add to it (the search index),
    then swap it in. Any failure leaves `destination` as it was."""
    destination = destination.resolve()
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}.new-", dir=destination.parent))
    try:
        for relative, content in output.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        if finish is not None:
            finish(staging)
        old = None
        if destination.exists():
            old = destination.parent / f".{destination.name}.old-{os.getpid()}"
            destination.rename(old)
        staging.rename(destination)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
