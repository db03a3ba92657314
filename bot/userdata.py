"""Where minebot keeps what it writes for a user: never in the package, never at a fixed shared path.

``MINEBOT_DATA`` names the folder outright (tests, a portable setup). Otherwise the platform's own
per-user data folder: ``$XDG_DATA_HOME`` (default ``~/.local/share``) on Linux and other Unixes,
``%LOCALAPPDATA%`` on Windows, ``~/Library/Application Support`` on macOS; a ``minebot`` folder in it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from bot.errors import OutputError, UsageError


def data_dir() -> Path:
    """This user's minebot data folder (not created here)."""
    explicit = os.environ.get("MINEBOT_DATA")
    if explicit:
        return Path(explicit)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "minebot"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "minebot"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "minebot"


def cache_dir() -> Path:
    """This user's folder for things worth keeping a while only (the last screen of a run that stopped):
    ``$MINEBOT_CACHE``, else ``$XDG_CACHE_HOME/minebot`` (``~/.cache``), ``%LOCALAPPDATA%\\minebot\\cache``
    on Windows, ``~/Library/Caches/minebot`` on macOS. Created."""
    explicit = os.environ.get("MINEBOT_CACHE")
    if explicit:
        folder = Path(explicit)
    elif sys.platform == "win32":
        folder = data_dir() / "cache"
    elif sys.platform == "darwin":
        folder = Path.home() / "Library" / "Caches" / "minebot"
    else:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")) / "minebot"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # read-only, or a file where the folder goes: a folder of this run's own
        global _FALLBACK_CACHE
        if _FALLBACK_CACHE is None:
            _FALLBACK_CACHE = Path(tempfile.mkdtemp(prefix="minebot-cache-"))
            print(
                f"minebot: cannot use the cache folder {folder} ({exc.strerror or exc}); "
                f"keeping this run's screens in {_FALLBACK_CACHE}",
                file=sys.stderr,
            )
        return _FALLBACK_CACHE
    return folder


_FALLBACK_CACHE: Path | None = None  # where a run keeps its screens when the cache folder fails


def check_writable(folder: Path, what: str) -> None:
    """Refuse, before any work, a folder that ``what`` cannot be written into (made where it is
    not there): a run must not play a whole game and then lose what it learnt."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".minebot-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(
            f"cannot write {what} into {folder} ({exc.strerror or exc}); make it writable, or set "
            "MINEBOT_DATA to a folder that is"
        ) from None


def save_screen(image: np.ndarray | None, name: str) -> Path:
    """Save ``image``, the last screen read, as ``name`` in this user's cache folder, for a message
    to point at (nothing where there is none); where."""
    path = cache_dir() / name
    if image is not None:
        cv2.imwrite(str(path), image)
    return path


PICTURE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


def check_picture_path(path: Path) -> None:
    """Refuse, before any work, a path a picture cannot be written to: not a picture's extension
    (OpenCV chooses the format by it), or a folder that is not there or not writable."""
    if path.suffix.lower() not in PICTURE_TYPES:
        raise UsageError(
            f"cannot write a picture as {path}: give a name ending in {', '.join(PICTURE_TYPES)}"
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {path}: the folder {folder} is not writable")


def write_picture(path: Path, image: np.ndarray) -> Path:
    """Write ``image`` as ``path``, or fail saying why: never a path printed for nothing written."""
    check_picture_path(path)
    try:
        written = cv2.imwrite(str(path), image)
    except cv2.error as exc:
        raise OutputError(f"cannot write {path}: {str(exc).strip().splitlines()[-1]}") from None
    if not written or not path.is_file() or path.stat().st_size == 0:
        raise OutputError(f"cannot write {path} (a full disk?); free some space and run again")
    return path


def learnt_skins() -> Path:
    """The folder of the skin packs learnt by this user: one folder per pack, as in templates/."""
    return data_dir() / "skins"


def hidden_skins() -> set[str]:
    """Skin packs not to load (``MINEBOT_HIDE_SKINS``, comma-separated names): to see how minebot
    does on a look as if it had never seen it."""
    return {
        name.strip() for name in os.environ.get("MINEBOT_HIDE_SKINS", "").split(",") if name.strip()
    }
