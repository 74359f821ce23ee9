"""Draw TDManager's icons (a red poker chip with a white spade on the app's dark blue):
icon.svg by hand, the PNGs and favicon.ico with Pillow. Run: .venv/bin/python static/icons/make_icons.py"""

import math
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
BG, CHIP, EDGE, SPADE = (11, 18, 32), (201, 42, 42), (255, 255, 255), (255, 255, 255)


def draw(size: int, maskable: bool = False) -> Image.Image:
    s = 4  # drawn large, then scaled down smoothly
    n = size * s
    img = Image.new("RGBA", (n, n), BG + (255,))
    d = ImageDraw.Draw(img)
    if not maskable:  # rounded corners outside the maskable safe zone
        img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        d.rounded_rectangle([0, 0, n - 1, n - 1], radius=n // 6, fill=BG + (255,))
    c = n / 2
    r = n * (0.36 if maskable else 0.44)
    d.ellipse([c - r, c - r, c + r, c + r], fill=CHIP)
    for i in range(8):  # the chip's edge spots
        a = i * math.pi / 4
        x, y = c + math.cos(a) * r * 0.84, c + math.sin(a) * r * 0.84
        w = r * 0.12
        d.ellipse([x - w, y - w, x + w, y + w], fill=EDGE)
    ri = r * 0.62
    d.ellipse([c - ri, c - ri, c + ri, c + ri], outline=EDGE, width=max(1, int(r * 0.05)))
    # the spade: a heart upside down (two circles and a triangle) on a stem
    k = r * 0.22
    d.ellipse([c - 2 * k, c - 0.6 * k, c, c + 1.4 * k], fill=SPADE)
    d.ellipse([c, c - 0.6 * k, c + 2 * k, c + 1.4 * k], fill=SPADE)
    d.polygon([(c - 1.95 * k, c + 0.2 * k), (c + 1.95 * k, c + 0.2 * k), (c, c - 2.2 * k)], fill=SPADE)
    d.polygon([(c, c + 0.6 * k), (c - 0.9 * k, c + 2.1 * k), (c + 0.9 * k, c + 2.1 * k)], fill=SPADE)
    return img.resize((size, size), Image.LANCZOS)


def main():
    for size in (192, 512, 180, 32):
        draw(size).save(HERE / f"icon-{size}.png", optimize=True)
    draw(512, maskable=True).save(HERE / "icon-maskable-512.png", optimize=True)
    draw(256).save(HERE / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48), (64, 64)])


if __name__ == "__main__":
    main()
