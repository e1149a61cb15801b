# Run by Blender (`blender -b -P pose_check.py -- MODEL.glb POSED.json`, see imported.py):
# imports a model's glTF export with Blender's own glTF importer (the
# Khronos add-on bundled with Blender, which nobody here wrote), plays the
# sequence POSED.json names at its time, and prints one JSON line: how far
# each vertex `formats::anim` posed (examples/posed_vertices.rs) is from
# the nearest vertex Blender's armature put there.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import report_nearest, scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402

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
report_nearest(scene, [v for geoset in ours["geosets"] for v in geoset])
