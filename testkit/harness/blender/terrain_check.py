# Run by Blender (`blender -b -P terrain_check.py -- TILE.glb WORLD.json`, see
# imported.py): imports a tile's glTF export with Blender's own importer and
# prints one JSON line: how far each terrain vertex `formats::terrain` puts
# in world space (examples/tile_world.rs) is from the nearest vertex Blender
# shows, and how far each placement's model-to-world matrix is from the
# world matrix of the Blender object nearest its position. Blender turns
# glTF's Y up back into Z up, so its world space should be the map's.
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import mathutils  # noqa: E402

scene, expected = scene_and_expected()
terrain = next(o for o in scene.objects if o.type == "MESH" and o.name.startswith("terrain"))
shown = [terrain.matrix_world @ v.co for v in terrain.data.vertices]
tree = mathutils.kdtree.KDTree(len(shown))
for i, v in enumerate(shown):
    tree.insert(v, i)
tree.balance()
vertex_worst = max((tree.find(v)[2] for v in expected["vertices"]), default=0.0)

empties = [o for o in scene.objects if o.type == "EMPTY"]
places = mathutils.kdtree.KDTree(max(len(empties), 1))
for i, o in enumerate(empties):
    places.insert(o.matrix_world.translation, i)
places.balance()
matrix_worst = 0.0
for p in expected["placements"]:
    m = p["matrix"]
    want = mathutils.Matrix([[m[c * 4 + r] for c in range(4)] for r in range(4)])
    _, i, _ = places.find(want.translation)
    got = empties[i].matrix_world
    off = max(abs(got[r][c] - want[r][c]) for r in range(4) for c in range(4))
    if off > matrix_worst and os.environ.get("DEBUG"):
        print("DEBUG", p["name"], empties[i].name, "\n", got, "\n", want)
    matrix_worst = max(matrix_worst, off)
print(
    "RESULT "
    + json.dumps(
        {
            "vertices": len(expected["vertices"]),
            "shown": len(shown),
            "vertex_worst": vertex_worst,
            "placements": len(expected["placements"]),
            "empties": len(empties),
            "matrix_worst": matrix_worst,
        }
    )
)
