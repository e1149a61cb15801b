# Run by Blender (`blender -b -P visibility_import.py -- MODEL.glb EXPECTED.json`,
# see imported.py): imports an export written with --geoset-visibility,
# --material-colors, --texture-animations and --light-animations, whose
# pointer channels (KHR_animation_pointer) Blender 3.4 does not know,
# and prints one line: "RESULT <mesh objects> <actions> ok" when Blender
# made an object per geoset and an action per sequence, as EXPECTED.json
# ({"geosets", "animations"}) says, else "RESULT ... differs".
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import bpy  # noqa: E402

scene, expected = scene_and_expected()
meshes = sum(1 for o in scene.objects if o.type == "MESH")
# The importer makes an action per animation and animated object.
names = {a.name.rsplit("_", 1)[0] for a in bpy.data.actions}
ok = meshes == expected["geosets"] and len(names) >= expected["animations"]
print(f"RESULT {meshes} {len(names)} {'ok' if ok else 'differs'}")
