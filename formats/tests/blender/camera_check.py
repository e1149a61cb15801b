# Run by Blender (`blender -b -P camera_check.py -- MODEL.glb CAMERAS.json`):
# imports a model's glTF export with Blender's own glTF importer and prints
# one line per camera CAMERAS.json lists (name, position, target,
# field_of_view: the file's values, read by `formats dump --json`), saying
# where Blender put the camera and where it looks: the distance from the
# file's eye position, the angle in degrees between its line of sight and
# the one to the file's target, how far its right-hand axis leans out of
# the horizontal (0: the model's +Z is up), its vertical field of view, and
# "ok" or "differs".
import json
import math
import sys

import numpy

# Debian's Blender 3.4 add-on still spells numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy
import mathutils

glb, listed = sys.argv[sys.argv.index("--") + 1 :][:2]
expected = json.load(open(listed))
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
cameras = {o.name: o for o in bpy.context.scene.objects if o.type == "CAMERA"}
# Tolerances: 1e-4 of the eye's distance from the origin, 0.1 degrees of
# line of sight, 1e-4 of lean, 1e-5 radians of field of view.
for camera in expected:
    obj = cameras.get(camera["name"])
    if obj is None:
        print("RESULT", camera["name"], "- - - -", "missing:", sorted(cameras))
        continue
    # Blender turns glTF's Y up back into Z up: world space is the model's.
    world = obj.matrix_world
    eye = world.to_translation()
    turn = world.to_3x3().normalized()
    looks = turn @ mathutils.Vector((0.0, 0.0, -1.0))
    right = turn @ mathutils.Vector((1.0, 0.0, 0.0))
    up = turn @ mathutils.Vector((0.0, 1.0, 0.0))
    position = mathutils.Vector(camera["position"])
    wanted = mathutils.Vector(camera["target"]) - position
    distance = (eye - position).length
    angle = looks.angle(wanted) if wanted.length > 0 else 0.0
    lean = abs(right.z)
    yfov = obj.data.angle_y
    ok = (
        distance <= 1e-4 * max(position.length, 1.0)
        and angle <= math.radians(0.1)
        and lean <= 1e-4
        and up.z >= 0
        and abs(yfov - camera["field_of_view"]) <= 1e-5
    )
    print(
        "RESULT",
        camera["name"],
        f"{distance:.2e}",
        f"{math.degrees(angle):.2e}",
        f"{lean:.1e}",
        f"{yfov:.4f}",
        "ok" if ok else "differs",
    )
