# Run by Blender (`blender -b -P camera_check.py -- MODEL.glb EXPECTED.json`):
# imports a model's glTF export with Blender's own glTF importer and prints
# one line per camera EXPECTED.json lists under "cameras" (name, position,
# target, field_of_view: the file's values, read by `formats dump --json`),
# saying where Blender put the camera and where it looks: the distance from
# the file's eye position, the angle in degrees between its line of sight
# and the one to the file's target, how far its right-hand axis leans out of
# the horizontal (0: the model's +Z is up), its vertical field of view, and
# "ok" or "differs"; then one line per light under "lights" (name, type,
# color as blue, green, red): Blender's light type, its colour, the
# direction a sun shines, and "ok" or "differs".
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from imported import scene_and_expected  # noqa: E402 (the path above first)

import mathutils  # noqa: E402

scene, expected = scene_and_expected()
cameras = {o.name: o for o in scene.objects if o.type == "CAMERA"}


def label(name):
    """A name as one word of the RESULT line (run.sh splits it at spaces)."""
    return name.replace(" ", "_") or "-"


# Tolerances: 1e-4 of the eye's distance from the origin, 0.1 degrees of
# line of sight, 1e-4 of lean, 1e-5 radians of field of view.
for camera in expected["cameras"]:
    obj = cameras.get(camera["name"])
    if obj is None:
        print("RESULT", label(camera["name"]), "- - - -", "missing:", sorted(cameras))
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
        label(camera["name"]),
        f"{distance:.2e}",
        f"{math.degrees(angle):.2e}",
        f"{lean:.1e}",
        f"{yfov:.4f}",
        "ok" if ok else "differs",
    )

# Lights: omni as a point light, directional as a sun shining down (the
# model's -Z: the node has no rotation at rest), ambient left out; colour
# the file's blue, green, red turned round, clamped to 0..1.
lights = {o.name: o for o in scene.objects if o.type == "LIGHT"}
for light in expected["lights"]:
    kind = {"Omni": "POINT", "Directional": "SUN"}.get(light["type"])
    obj = lights.get(light["name"])
    if kind is None:
        ok = obj is None
        print("RESULT", label(light["name"]), light["type"], "- - -", "ok" if ok else "differs")
        continue
    if obj is None:
        print("RESULT", label(light["name"]), "- - - -", "missing:", sorted(lights))
        continue
    b, g, r = (min(max(c, 0.0), 1.0) for c in light["color"])
    colour = max(abs(x - y) for x, y in zip(obj.data.color, (r, g, b)))
    shines = obj.matrix_world.to_3x3().normalized() @ mathutils.Vector((0.0, 0.0, -1.0))
    down = kind != "SUN" or shines.z <= -1 + 1e-5
    ok = obj.data.type == kind and colour <= 1e-6 and down
    print(
        "RESULT",
        label(light["name"]),
        obj.data.type,
        f"{colour:.1e}",
        f"{shines.z:.4f}",
        "-",
        "ok" if ok else "differs",
    )
