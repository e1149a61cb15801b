# Run by Blender (`blender -b -P pose_check.py -- MODEL.glb POSED.json`, see imported.py):
# imports a model's glTF export with Blender's own glTF importer (the
# Khronos add-on bundled with Blender, which nobody here wrote), plays the
# sequence POSED.json names at its time, and prints one JSON line: how far
# each vertex `formats::anim` posed (examples/posed_vertices.rs) is from
# the nearest vertex Blender's armature put there.
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402
import mathutils  # noqa: E402

scene, ours = scene_and_expected()
fps = scene.render.fps / scene.render.fps_base
armature = next(o for o in scene.objects if o.type == "ARMATURE")
# The importer names each glTF animation's action "<animation>_<armature>".
action = bpy.data.actions.get(ours["sequence"] + "_" + armature.name) or bpy.data.actions[
    ours["sequence"]
]
armature.animation_data.action = action
for track in armature.animation_data.nla_tracks:
    track.mute = True
frame = action.frame_range[0] + ours["ms"] / 1000.0 * fps
scene.frame_set(int(frame), subframe=frame - int(frame))
graph = bpy.context.evaluated_depsgraph_get()
shown = []
for obj in (o for o in scene.objects if o.type == "MESH"):
    evaluated = obj.evaluated_get(graph)
    mesh = evaluated.to_mesh()
    # Blender turns glTF's Y up back into Z up: world space is the model's.
    shown.extend(tuple(evaluated.matrix_world @ v.co) for v in mesh.vertices)
    evaluated.to_mesh_clear()
vertices = [v for geoset in ours["geosets"] for v in geoset]
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
