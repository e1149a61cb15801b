# Run by Blender (`blender -b -P texture_transform_import.py -- MODEL.glb
# EXPECTED.json`, see imported.py): imports an export written with
# --texture-animations (its textures found) and prints one line:
# "RESULT <materials with a texture transform> ok" when Blender put a
# Mapping node (its reading of KHR_texture_transform) in as many materials
# as EXPECTED.json ({"moving"}) says, each at the identity (a texture
# animation's rest), else "RESULT ... differs".
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402

_, expected = scene_and_expected()
moving = 0
at_rest = True
for material in bpy.data.materials:
    nodes = material.node_tree.nodes if material.node_tree else []
    for node in (n for n in nodes if n.type == "MAPPING"):
        moving += 1
        location = tuple(node.inputs["Location"].default_value)
        scale = tuple(node.inputs["Scale"].default_value)
        at_rest &= location[:2] == (0.0, 0.0) and scale[:2] == (1.0, 1.0)
ok = moving == expected["moving"] and at_rest
print(f"RESULT {moving} {'ok' if ok else 'differs'}")
