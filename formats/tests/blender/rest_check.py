# Run by Blender (`blender -b -P rest_check.py -- MODEL.glb POSED.json`, see imported.py):
# imports a model's glTF export with Blender's own glTF importer and shows
# the armature in its rest position (what edit mode, a cleared pose and
# Blender's own exports show), and prints one JSON line: how far each
# vertex of the model as stored ("rest" in POSED.json, from
# examples/posed_vertices.rs) is from the nearest vertex Blender shows.
# Blender builds its rest pose from the skin's inverse bind matrices: where
# they are not the inverse of the nodes' rest, the rest differs from the
# model (the export once bound the root unrotated, and every model lay on
# its side).
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402
import mathutils  # noqa: E402

scene, ours = scene_and_expected()
armature = next(o for o in scene.objects if o.type == "ARMATURE")
armature.data.pose_position = "REST"
bpy.context.view_layer.update()
graph = bpy.context.evaluated_depsgraph_get()
shown = []
for obj in (o for o in scene.objects if o.type == "MESH"):
    evaluated = obj.evaluated_get(graph)
    mesh = evaluated.to_mesh()
    shown.extend(tuple(evaluated.matrix_world @ v.co) for v in mesh.vertices)
    evaluated.to_mesh_clear()
vertices = [v for geoset in ours["rest"] for v in geoset]
tree = mathutils.kdtree.KDTree(len(shown))
for i, v in enumerate(shown):
    tree.insert(v, i)
tree.balance()
worst = max((tree.find(v)[2] for v in vertices), default=0.0)
low = [min(v[k] for v in vertices) for k in range(3)]
high = [max(v[k] for v in vertices) for k in range(3)]
diagonal = sum((h - l) ** 2 for l, h in zip(low, high)) ** 0.5
print(
    "RESULT "
    + json.dumps(
        {
            "ours": len(vertices),
            "blender": len(shown),
            "largest": worst,
            "diagonal": diagonal,
        }
    )
)
