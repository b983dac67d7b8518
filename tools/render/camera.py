"""The renderer's camera and rasteriser: a pinhole camera with barrel distortion, and a face's
texture mapped onto its image polygon by a homography."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tools.render.textures import TEXTURE


@dataclass
class Camera:
    """A pinhole camera at ``position`` looking at the floor's origin; ``radial`` is the
    barrel distortion k (image point p ↦ p·(1 + k·r²), r in half-diagonals)."""

    position: np.ndarray
    rotation: np.ndarray  # world → camera
    focal: float
    size: tuple[int, int]
    radial: float

    @classmethod
    def looking_down(cls, tilt: float, distance: float, focal: float, size: tuple[int, int],
                     radial: float) -> Camera:
        position = distance * np.array([0.0, -math.sin(tilt), math.cos(tilt)])
        forward = -position / distance
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        return cls(position, np.stack([right, down, forward]), focal, size, radial)

    def project(self, points: np.ndarray) -> np.ndarray:
        """N×3 world points → N×2 image pixels (undistorted)."""
        c = (points - self.position) @ self.rotation.T
        w, h = self.size
        return np.stack([self.focal * c[:, 0] / c[:, 2] + w / 2, self.focal * c[:, 1] / c[:, 2] + h / 2], 1)

    def floor_point(self, pixel: tuple[float, float]) -> np.ndarray:
        w, h = self.size
        ray = self.rotation.T @ np.array([(pixel[0] - w / 2) / self.focal, (pixel[1] - h / 2) / self.focal, 1.0])
        return self.position + ray * (-self.position[2] / ray[2])

    def distort(self, pixels: np.ndarray) -> np.ndarray:
        """Where undistorted pixels land in the distorted photo (the inverse of :meth:`remap`'s
        model, by fixed-point iteration)."""
        w, h = self.size
        centre, norm = np.array([w / 2, h / 2]), math.hypot(w, h) / 2
        u = (pixels - centre) / norm
        d = u.copy()
        for _ in range(20):
            d = u / (1 + self.radial * (d ** 2).sum(1, keepdims=True))
        return d * norm + centre

    def remap(self, image: np.ndarray) -> np.ndarray:
        """The photo as the distorting lens gives it."""
        if not self.radial:
            return image
        h, w = image.shape[:2]
        centre, norm = np.array([w / 2, h / 2]), math.hypot(w, h) / 2
        gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (np.stack([gx, gy], -1) - centre) / norm
        u = d * (1 + self.radial * (d ** 2).sum(-1, keepdims=True))
        src = (u * norm + centre).astype(np.float32)
        return cv2.remap(image, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _paste(canvas: np.ndarray, texture: np.ndarray, quad: np.ndarray, polygon: np.ndarray,
           shade: float, alpha: float) -> None:
    """Map ``texture`` onto the image quad (4×2) and blend it in inside ``polygon``."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(polygon.min(0)).astype(int).clip(0, [w - 1, h - 1])
    x1, y1 = np.ceil(polygon.max(0)).astype(int).clip(0, [w - 1, h - 1]) + 1
    if x1 - x0 < 1 or y1 - y0 < 1:
        return
    src = np.float32([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]])
    matrix = cv2.getPerspectiveTransform(src, np.float32(quad - [x0, y0]))
    warped = cv2.warpPerspective(texture, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((polygon - [x0, y0]) * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    a = (mask.astype(np.float32) / 255 * alpha)[..., None]
    part = canvas[y0:y1, x0:x1]
    part[:] = part * (1 - a) + np.clip(warped * shade, 0, 255) * a
