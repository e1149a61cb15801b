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
