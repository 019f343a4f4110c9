"""Writing a file whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def write_new(path: Path, data: bytes, force: bool = False) -> None:
    """Write `data` to `path` through a temporary file beside it, so a failure never leaves half
    a file. Raises FileExistsError when `path` exists and `force` is false, OSError otherwise."""
    if path.exists() and not force:
        raise FileExistsError(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("xb") as out:  # created with the usual permissions, unlike mkstemp's
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
