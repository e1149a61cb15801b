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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import report_nearest, scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402

scene, ours = scene_and_expected()
armature = next(o for o in scene.objects if o.type == "ARMATURE")
armature.data.pose_position = "REST"
bpy.context.view_layer.update()
report_nearest(scene, [v for geoset in ours["rest"] for v in geoset])
