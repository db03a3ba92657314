"""Vision: find the board in a screenshot and read it, against skin packs cut from real games.

Images are BGR ``uint8`` arrays (OpenCV's order), as :func:`load_image` and the capture stage give.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.errors import VisionError
from bot.vision.annotate import annotate
from bot.vision.geometry import Geometry
from bot.vision.locate import locate
from bot.vision.pack import SkinPack, load_pack, load_packs, pack_named, skin_names
from bot.vision.reading import Reading, read

__all__ = [
    "annotate",
    "Geometry",
    "Reading",
    "SkinPack",
    "load_image",
    "load_pack",
    "load_packs",
    "locate",
    "pack_named",
    "read",
    "skin_names",
]


MAX_IMAGE_PX = 64_000_000  # pixels: three 4K screens side by side hold 25 million


def load_image(path: str | Path) -> np.ndarray:
    if not Path(path).is_file():  # before OpenCV, which prints a warning line of its own
        raise VisionError(f"cannot read {path}: no such file; give a PNG screenshot")
    with open(path, "rb") as file:
        head = file.read(HEADER_BYTES)
    # the size is in the header: no need to decode a huge one to refuse it
    size = _header_size(head)
    if size is not None:
        _check_size(path, *size)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"cannot read {path} as an image; give a PNG screenshot")
    _check_size(path, image.shape[1], image.shape[0])
    return image


HEADER_BYTES = 65_536  # where a PNG's or a JPEG's size is found (a JPEG's after its metadata)
# JPEG markers that start a frame and give its size (not DHT C4, JPG C8, DAC CC)
JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's or a JPEG's first bytes; None where they do not say.

    >>> _header_size(b"\\xff\\xd8\\xff\\xc0\\x00\\x11\\x08\\x00\\x10\\x00\\x20")
    (32, 16)
    """
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 <= len(head) and head[at] == 0xFF:
        marker, length = head[at + 1], int.from_bytes(head[at + 2 : at + 4], "big")
        if marker in JPEG_FRAMES:
            height = int.from_bytes(head[at + 5 : at + 7], "big")
            return int.from_bytes(head[at + 7 : at + 9], "big"), height
        at += 2 + length
    return None


def _check_size(path: str | Path, width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PX:
        raise VisionError(
            f"{path} is {width}x{height} px, larger than any screen ({MAX_IMAGE_PX // 1_000_000} million pixels at most); "
            "give a screenshot of the screen, or crop it round the game"
        )
