# Builds a rigged, animated creature from nothing and writes it with
# Blender's own glTF exporter (the Khronos add-on bundled with Blender,
# which nobody here wrote), as a test file for the glTF import:
#
#   blender --background --factory-startup --python make_rigged.py -- OUT.glb
#
# What it makes (every number is in the script; no file is read):
# - a horned lizard, Z up in Blender (+Y up in the glTF): a tapering body
#   tube along a curved spine (26 rings of 14, capped), four legs, an
#   ellipsoid head, two cone horns and two eyes: one mesh object, two
#   materials;
# - an armature of 8 bones: Root (at the origin, axis-aligned) > Hips (not
#   connected: a rest offset from Root's tail) > Spine > Neck > Head (not
#   connected, rolled 30 degrees), and Hips > Tail1 > Tail2 > Tail3; the
#   body's bones follow the curved spine, so their rest rotations are not
#   axis-aligned;
# - vertex groups with smoothly blended weights: each body ring weighted by
#   a Gaussian of its distance along the spine to each bone's middle, the 3
#   largest kept and normalized (most vertices have 2 or 3 influences); the
#   head blends into the neck where it meets it; the hind legs follow the
#   hips, the fore legs the spine and the neck; the horns and eyes follow
#   the head;
# - material "Scales": a 64 x 64 RGBA image made here (a scale pattern
#   with transparent holes), packed, on the base colour and alpha, blend
#   mode alpha clip (glTF alphaMode MASK); material "Horn": plain colour,
#   opaque;
# - two actions named as Warcraft III's sequences, each on an NLA track of
#   its own name (one glTF animation each; the exporter sorts them by
#   name): "Stand" (frames 0 to 60, looping: the last key is the first;
#   breathing, the tail swaying, the head nodding) and "Attack" (frames 0
#   to 30: Root translated forward and back, the neck and head lunging,
#   Tail3 scaled non-uniformly), 30 frames a second.
#
# Written as GLB with the exporter's skinning on, +Y up (glTF's own), each
# action its own animation (`export_anim_single_armature` and NLA tracks,
# the options of Blender 3.4's exporter), sampled every frame.
import math
import sys

import bmesh
import bpy
from mathutils import Matrix, Vector

out = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 30
scene.frame_start, scene.frame_end = 0, 60

# The spine: a curve from the tail's tip (s = 0) to the neck (s = 1),
# rising towards the neck and bending sideways.
def spine(s):
    return Vector((0.12 * math.sin(2.5 * s), -1.6 + 2.5 * s, 0.22 + 0.12 * s + 0.1 * math.sin(math.pi * s)))


def radius(s):
    # A thin tail, a belly, a narrower neck.
    return 0.02 + 0.16 * math.sin(math.pi * s**1.6) ** 0.7 + 0.07 * s


# Bones: name, parent, head, tail, connected, roll (degrees).
BONES = [
    ("Root", None, Vector((0, 0, 0)), Vector((0, 0, 0.2)), False, 0),
    ("Hips", "Root", spine(0.45), spine(0.6), False, 0),
    ("Spine", "Hips", spine(0.6), spine(0.8), True, 0),
    ("Neck", "Spine", spine(0.8), spine(1.0), True, 0),
    ("Head", "Neck", spine(1.0) + Vector((0, 0.12, 0.06)), spine(1.0) + Vector((0, 0.45, 0.12)), False, 30),
    ("Tail1", "Hips", spine(0.45), spine(0.25), False, 0),
    ("Tail2", "Tail1", spine(0.25), spine(0.1), True, 0),
    ("Tail3", "Tail2", spine(0.1), spine(0.0), True, 0),
]
# Where along the spine each bone that bends the body sits.
MIDDLES = {"Tail3": 0.05, "Tail2": 0.175, "Tail1": 0.35, "Hips": 0.525, "Spine": 0.7, "Neck": 0.9}

# Mesh: body tube, legs, head, horns, eyes.
RINGS, SIDES = 26, 14
mesh = bpy.data.meshes.new("Lizard")
bm = bmesh.new()
uv = bm.loops.layers.uv.new("UVMap")
deform = bm.verts.layers.deform.verify()
GROUP = {name: i for i, (name, *_) in enumerate(BONES)}  # the vertex groups' order


def weigh(v, weights):
    for name, w in weights.items():
        if w > 0:
            v[deform][GROUP[name]] = w


def body_weights(s):
    raw = {b: math.exp(-(((s - m) / 0.09) ** 2)) for b, m in MIDDLES.items()}
    top = sorted(raw.items(), key=lambda kv: -kv[1])[:3]
    top = [(b, w) for b, w in top if w > 0.01] or top[:1]
    total = sum(w for _, w in top)
    return {b: w / total for b, w in top}


rings = []
for i in range(RINGS):
    s = i / (RINGS - 1)
    centre = spine(s)
    forward = (spine(min(1, s + 0.01)) - spine(max(0, s - 0.01))).normalized()
    side = forward.cross(Vector((0, 0, 1))).normalized()
    up = side.cross(forward).normalized()
    r = radius(s)
    ring = []
    for k in range(SIDES):
        a = 2 * math.pi * k / SIDES
        v = bm.verts.new(centre + r * (math.cos(a) * side + 0.8 * math.sin(a) * up))
        weigh(v, body_weights(s))
        ring.append(v)
    rings.append(ring)
for i in range(RINGS - 1):
    for k in range(SIDES):
        quad = [rings[i][k], rings[i][(k + 1) % SIDES], rings[i + 1][(k + 1) % SIDES], rings[i + 1][k]]
        f = bm.faces.new(quad)
        f.material_index = 0
        for loop, (ii, kk) in zip(f.loops, [(i, k), (i, k + 1), (i + 1, k + 1), (i + 1, k)]):
            loop[uv].uv = (kk / SIDES, ii / (RINGS - 1))
for end, ring in ((spine(0), rings[0]), (spine(1), rings[-1])):
    tip = bm.verts.new(end)
    weigh(tip, body_weights(0.0 if ring is rings[0] else 1.0))
    for k in range(SIDES):
        tri = [tip, ring[(k + 1) % SIDES], ring[k]] if ring is rings[0] else [tip, ring[k], ring[(k + 1) % SIDES]]
        f = bm.faces.new(tri)
        for loop in f.loops:
            loop[uv].uv = (0.5 + 0.4 * (loop.vert.co.x - end.x), 0.5 + 0.4 * (loop.vert.co.z - end.z))


def add_part(made, transform, material, weights):
    """Places the vertices bmesh just made, gives their faces a material
    and planar UVs, and weights each vertex by `weights(vertex)`."""
    verts = made["verts"]
    bmesh.ops.transform(bm, matrix=transform, verts=verts)
    faces = {f for v in verts if v.is_valid for f in v.link_faces}
    for f in faces:
        f.material_index = material
        for loop in f.loops:
            co = loop.vert.co
            loop[uv].uv = (0.5 + co.x, (co.y % 1.0))
    for v in verts:
        if v.is_valid:  # a cone's tip ring of radius 0 is merged into one vertex
            weigh(v, weights(v))


head_at = spine(1.0) + Vector((0, 0.25, 0.08))
neck_y = spine(1.0).y + 0.02


def head_weights(v):
    # The back of the head blends into the neck.
    t = max(0.0, min(1.0, (v.co.y - neck_y) / 0.15))
    return {"Head": t, "Neck": 1 - t} if t < 1 else {"Head": 1.0}


for s, bones in ((0.5, {"Hips": 1.0}), (0.78, {"Spine": 0.75, "Neck": 0.25})):
    for x in (-1, 1):
        made = bmesh.ops.create_cone(bm, cap_ends=True, segments=8, radius1=0.03, radius2=0.05, depth=0.3)
        splay = Matrix.Rotation(math.radians(-20 * x), 4, "Y")
        foot = spine(s) + Vector((0.17 * x, 0, -0.18))
        add_part(made, Matrix.Translation(foot) @ splay, 0, lambda v, bones=bones: bones)
made = bmesh.ops.create_icosphere(bm, subdivisions=3, radius=1.0)
add_part(made, Matrix.Translation(head_at) @ Matrix.Diagonal((0.17, 0.3, 0.14, 1)), 0, head_weights)
for x in (-1, 1):
    made = bmesh.ops.create_cone(bm, cap_ends=True, segments=8, radius1=0.04, radius2=0.0, depth=0.22)
    tilt = Matrix.Rotation(math.radians(-50), 4, "X") @ Matrix.Rotation(math.radians(25 * x), 4, "Y")
    add_part(made, Matrix.Translation(head_at + Vector((0.08 * x, -0.12, 0.16))) @ tilt, 1, lambda v: {"Head": 1.0})
    made = bmesh.ops.create_uvsphere(bm, u_segments=8, v_segments=5, radius=0.035)
    add_part(made, Matrix.Translation(head_at + Vector((0.12 * x, 0.1, 0.06))), 1, lambda v: {"Head": 1.0})

bm.normal_update()
bmesh.ops.recalc_face_normals(bm, faces=bm.faces)
bm.to_mesh(mesh)
bm.free()
for polygon in mesh.polygons:
    polygon.use_smooth = True
body = bpy.data.objects.new("Lizard", mesh)
scene.collection.objects.link(body)

# Materials: the scales' texture, made here, with transparent holes.
SIDE = 64
pixels = []
for y in range(SIDE):
    for x in range(SIDE):
        # Overlapping scales: a cell pattern, each cell darker at its rim.
        cx, cy = (x % 8) - 3.5, ((y + 4 * ((x // 8) % 2)) % 8) - 3.5
        rim = (cx * cx + cy * cy) / 24.5
        green = 0.35 + 0.4 * (1 - rim)
        hole = (x // 8 + y // 8) % 5 == 0 and rim < 0.3
        pixels += [0.15 + 0.2 * (y / SIDE), green, 0.1, 0.0 if hole else 1.0]
image = bpy.data.images.new("scales", SIDE, SIDE, alpha=True)
image.pixels = pixels
image.file_format = "PNG"
image.pack()

scales = bpy.data.materials.new("Scales")
scales.use_nodes = True
nodes = scales.node_tree.nodes
bsdf = nodes["Principled BSDF"]
texture = nodes.new("ShaderNodeTexImage")
texture.image = image
scales.node_tree.links.new(texture.outputs["Color"], bsdf.inputs["Base Color"])
scales.node_tree.links.new(texture.outputs["Alpha"], bsdf.inputs["Alpha"])
scales.blend_method = "CLIP"
scales.alpha_threshold = 0.5
horn = bpy.data.materials.new("Horn")
horn.use_nodes = True
horn.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.85, 0.8, 0.65, 1.0)
horn.blend_method = "OPAQUE"
mesh.materials.append(scales)
mesh.materials.append(horn)

# The armature.
armature = bpy.data.armatures.new("Rig")
rig = bpy.data.objects.new("Rig", armature)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
for name, parent, head, tail, connected, roll in BONES:
    bone = armature.edit_bones.new(name)
    bone.head, bone.tail = head, tail
    bone.roll = math.radians(roll)
    if parent:
        bone.parent = armature.edit_bones[parent]
        bone.use_connect = connected
bpy.ops.object.mode_set(mode="OBJECT")

for name, *_ in BONES:
    body.vertex_groups.new(name=name)  # in GROUP's order: the weights' indices
body.parent = rig
modifier = body.modifiers.new("Rig", "ARMATURE")
modifier.object = rig

# Actions: each on an NLA track of its name, none left active (the rest
# pose is the bind pose).
rig.animation_data_create()


def quat(axis, degrees):
    return Matrix.Rotation(math.radians(degrees), 4, axis).to_quaternion()


def key(action, frames):
    """Keys `frames` ({frame: {bone: {"rotation": q, "location": v,
    "scale": v}}}) into a new action named `action` on its own NLA track."""
    act = bpy.data.actions.new(action)
    rig.animation_data.action = act
    for pose_bone in rig.pose.bones:
        pose_bone.rotation_mode = "QUATERNION"
    for frame, bones in sorted(frames.items()):
        for name, channels in bones.items():
            pose_bone = rig.pose.bones[name]
            for channel, value in channels.items():
                path = {"rotation": "rotation_quaternion", "location": "location", "scale": "scale"}[channel]
                setattr(pose_bone, path, value)
                pose_bone.keyframe_insert(path, frame=frame, group=name)
    for fcurve in act.fcurves:
        for point in fcurve.keyframe_points:
            point.interpolation = "BEZIER"
    rig.animation_data.action = None
    track = rig.animation_data.nla_tracks.new()
    track.name = action
    track.strips.new(action, int(act.frame_range[0]), act)
    for pose_bone in rig.pose.bones:
        pose_bone.location = (0, 0, 0)
        pose_bone.rotation_quaternion = (1, 0, 0, 0)
        pose_bone.scale = (1, 1, 1)


stand = {}
for frame in range(0, 61, 10):
    phase = 2 * math.pi * frame / 60
    stand[frame] = {
        "Spine": {"rotation": quat("X", 4 * math.sin(phase))},
        "Neck": {"rotation": quat("X", -3 * math.sin(phase))},
        "Head": {"rotation": quat("Z", 8 * math.sin(phase))},
        "Tail1": {"rotation": quat("Z", 12 * math.sin(phase))},
        "Tail2": {"rotation": quat("Z", 15 * math.sin(phase + 0.8))},
        "Tail3": {"rotation": quat("Z", 20 * math.sin(phase + 1.6))},
    }
key("Stand", stand)

attack = {
    0: {"Root": {"location": Vector((0, 0, 0))}, "Neck": {"rotation": quat("X", 0)},
        "Head": {"rotation": quat("X", 0)}, "Tail3": {"scale": Vector((1, 1, 1))},
        "Spine": {"rotation": quat("X", 0)}, "Hips": {"location": Vector((0, 0, 0))}},
    10: {"Root": {"location": Vector((0, 0.1, -0.05))}, "Neck": {"rotation": quat("X", 25)},
         "Head": {"rotation": quat("X", 20)}, "Tail3": {"scale": Vector((1.2, 1.0, 0.9))},
         "Spine": {"rotation": quat("X", 10)}, "Hips": {"location": Vector((0, -0.05, 0))}},
    15: {"Root": {"location": Vector((0, 0.35, 0))}, "Neck": {"rotation": quat("X", -30)},
         "Head": {"rotation": quat("X", -25) @ quat("Y", 15)}, "Tail3": {"scale": Vector((1.6, 0.6, 1.1))},
         "Spine": {"rotation": quat("X", -15)}, "Hips": {"location": Vector((0, 0.08, 0.03))}},
    30: {"Root": {"location": Vector((0, 0, 0))}, "Neck": {"rotation": quat("X", 0)},
         "Head": {"rotation": quat("X", 0)}, "Tail3": {"scale": Vector((1, 1, 1))},
         "Spine": {"rotation": quat("X", 0)}, "Hips": {"location": Vector((0, 0, 0))}},
}
key("Attack", attack)

bpy.ops.export_scene.gltf(
    filepath=out,
    export_format="GLB",
    export_yup=True,
    export_apply=False,
    export_texcoords=True,
    export_normals=True,
    export_materials="EXPORT",
    export_image_format="AUTO",
    export_skins=True,
    export_all_influences=False,
    export_animations=True,
    export_frame_range=False,
    export_force_sampling=True,
    export_nla_strips=True,
    export_anim_single_armature=True,
    export_reset_pose_bones=True,
    export_def_bones=False,
    export_cameras=False,
    export_lights=False,
)
print(f"RESULT wrote {out} with Blender {bpy.app.version_string}")
