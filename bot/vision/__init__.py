"""Vision: find the board in a screenshot and read it, against skin packs cut from real games.

Images are BGR ``uint8`` arrays (OpenCV's order), as :func:`load_image` and the capture stage give.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.errors import VisionError
from bot.vision.pack import SkinPack, load_pack, load_packs, pack_named, skin_names
from bot.vision.annotate import annotate
from bot.vision.geometry import Geometry
from bot.vision.read import Reading, locate, read

__all__ = ["annotate", "Geometry", "Reading", "SkinPack", "load_image", "load_pack", "load_packs", "locate", "pack_named", "read", "skin_names"]


def load_image(path: str | Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"cannot read {path} as an image; give a PNG or JPEG screenshot")
    return image
