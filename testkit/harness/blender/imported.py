# Shared by the scripts Blender runs here (`blender -b -P SCRIPT -- MODEL.glb
# EXPECTED.json`): a fresh scene with MODEL.glb imported by Blender's own
# glTF importer (the Khronos add-on bundled with Blender, which nobody here
# wrote), and the JSON file the script compares it with.
import json
import sys

import numpy

# Debian's Blender 3.4 add-on still spells numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy


def scene_and_expected():
    """Imports the .glb after `--` into an empty scene; returns the scene
    and the JSON document named after it."""
    glb, expected = sys.argv[sys.argv.index("--") + 1 :][:2]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    return bpy.context.scene, json.load(open(expected))


def report_nearest(scene, vertices):
    """Prints one JSON line (`RESULT {...}`): how many `vertices` are
    expected and how many Blender shows, how far the furthest expected one
    is from the nearest shown one, and the expected ones' diagonal (the
    model's size). Blender's world space is the model's (its importer turns
    glTF's Y up back into Z up)."""
    import mathutils

    graph = bpy.context.evaluated_depsgraph_get()
    shown = []
    for obj in (o for o in scene.objects if o.type == "MESH"):
        evaluated = obj.evaluated_get(graph)
        mesh = evaluated.to_mesh()
        shown.extend(tuple(evaluated.matrix_world @ v.co) for v in mesh.vertices)
        evaluated.to_mesh_clear()
    tree = mathutils.kdtree.KDTree(len(shown))
    for i, v in enumerate(shown):
        tree.insert(v, i)
    tree.balance()
    worst = max((tree.find(v)[2] for v in vertices), default=0.0)
    low = [min(v[k] for v in vertices) for k in range(3)]
    high = [max(v[k] for v in vertices) for k in range(3)]
    diagonal = sum((h - l) ** 2 for l, h in zip(low, high)) ** 0.5
    result = {"ours": len(vertices), "blender": len(shown), "largest": worst, "diagonal": diagonal}
    print("RESULT " + json.dumps(result))
