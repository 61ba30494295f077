"""Ohio on the picture: the projection (a degree of longitude is cos 40.3° of a degree of
latitude), the state's outline and Lake Erie, and the region's towns and roads where they fall."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from games.fencing.region import load as load_region

# -- the projection -----------------------------------------------------------------------------------
WIDTH, HEIGHT = 800, 872
#: 18 px at 800 wide is 11.25 px on a 500 px column.
MIN_FONT = 18
TITLE_FONT = 22
GLYPH_FONT = 24  # a piece's chess glyph: 18 px of ink, 11.25 px on a 500 px column
WEST, EAST, NORTH, SOUTH = -84.93, -80.40, 42.08, 38.33
SHRINK = math.cos(math.radians(40.3))  # a degree of longitude, in degrees of latitude
SCALE = WIDTH / ((EAST - WEST) * SHRINK)  # px a degree of latitude
SUPER = 3  # the static map is drawn this many times bigger, then shrunk (smooth edges)


def project(lat: float, lon: float) -> tuple[float, float]:
    """Where a point of Ohio lands on the picture."""
    return (lon - WEST) * SHRINK * SCALE, (NORTH - lat) * SCALE


# -- geography (outline only: towns and roads come from the region data) ------------------------------
#: Ohio's border as (lat, lon), clockwise from the Michigan line at the Indiana corner: the
#: Indiana line, the Ohio River, the Pennsylvania line, the Lake Erie shore, the Michigan line.
BORDER: tuple[tuple[float, float], ...] = (
    (41.696, -84.806), (39.103, -84.820), (39.09, -84.75), (39.12, -84.62), (39.095, -84.51), (39.10, -84.46),
    (39.02, -84.32), (38.95, -84.28), (38.80, -84.22), (38.78, -84.05), (38.74, -83.86), (38.66, -83.76),
    (38.69, -83.61), (38.62, -83.42), (38.60, -83.32), (38.70, -83.12), (38.725, -82.997), (38.64, -82.85),
    (38.58, -82.82), (38.53, -82.68), (38.41, -82.60), (38.42, -82.50), (38.55, -82.30), (38.65, -82.20),
    (38.81, -82.20), (38.93, -82.10), (39.03, -82.03), (38.97, -81.90), (39.00, -81.76), (39.12, -81.75),
    (39.27, -81.58), (39.41, -81.46), (39.48, -81.30), (39.56, -81.00), (39.65, -80.87), (39.78, -80.82),
    (39.92, -80.75), (40.07, -80.73), (40.20, -80.67), (40.36, -80.61), (40.50, -80.62), (40.62, -80.57),
    (40.639, -80.519),
    (41.977, -80.519),
    (41.96, -80.56), (41.90, -80.80), (41.86, -80.95), (41.80, -81.10), (41.76, -81.28), (41.70, -81.38),
    (41.64, -81.47), (41.59, -81.53), (41.51, -81.70), (41.49, -81.83), (41.51, -82.03), (41.47, -82.18),
    (41.42, -82.36), (41.40, -82.55), (41.46, -82.66), (41.54, -82.73), (41.52, -82.94), (41.60, -83.07),
    (41.68, -83.28), (41.732, -83.455),
)
SHORE_FROM = BORDER.index((41.977, -80.519))  # the shore runs from here to the end of BORDER
#: Lake Erie beyond Ohio: up the Michigan shore and over the top of the picture, round to Pennsylvania.
LAKE_BEYOND: tuple[tuple[float, float], ...] = (
    (41.90, -83.36), (42.03, -83.20), (42.20, -83.12), (42.20, -80.20), (42.05, -80.30),
)
LAKE_LABEL = (41.83, -82.05)  # near the spec's pollution point (41.80, -82.00), clear of the shore towns


# -- the region ---------------------------------------------------------------------------------------
REGION = "ohio"  # the only region with an outline here (BORDER, LAKE_BEYOND)


@cache
def region() -> dict[str, Any]:
    """The static region: {"towns": {id: {"name", "lat", "lon"}}, "roads": [(a, b, km, class)]},
    the class as the region file spells it (I, S, B)."""
    data = load_region(REGION)
    towns = {town: {"name": t["name"], "lat": t["lat"], "lon": t["lon"]} for town, t in data.towns.items()}
    return {"towns": towns, "roads": [(r.a, r.b, r.km, r.cls) for r in data.roads]}


@cache
def spots() -> dict[str, tuple[float, float]]:
    """Each town's place on the picture."""
    return {town: project(t["lat"], t["lon"]) for town, t in region()["towns"].items()}
