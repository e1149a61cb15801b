// Babylon.js's own glTF loader, headless (NullEngine), posing skinned
// meshes on the CPU: for each file (a .glb) of the probe list (a JSON
// file, the one argument: [{"file", "probes": [[seconds...] per
// animation]}]), prints one
// JSON line {"file", "primitives", "animations", "local", "rest", "posed"}:
//
// - "primitives": one {"node", "mesh", "primitive", "count"} per mesh
//   primitive Babylon made, by glTF node index, then primitive index: the
//   glTF node that instantiates it, its glTF mesh and primitive index (the
//   loader's own JSON, captured with its onParsed option, holds for each
//   node the Babylon meshes it made, `_primitiveBabylonMeshes`; each of
//   them carries the JSON pointer "/meshes/M/primitives/P" it was loaded
//   from in `_internalMetadata.gltf.pointers`), and its POSITION accessor's
//   count;
// - "animations": the glTF animations' names, in the file's order (each
//   played through the Babylon animation group the loader made for it,
//   `_babylonAnimationGroup` of the JSON animation);
// - "local": each primitive's positions as Babylon holds them, before any
//   skinning (what the caller compares with the accessor, to prove Babylon
//   kept the glTF's vertices, in its order);
// - "rest": each primitive's vertices in world space once loaded (no
//   animation applied);
// - "posed": for each animation, at each of its probe times, each
//   primitive's vertices in world space once Babylon's animation group went
//   to that time (every node back at rest before each animation starts, so
//   that a node an animation does not target stands as loaded).
//
// A vertex in world space is Babylon's CPU skinning of it
// (`getPositionData(true, true)`: the skeleton and the morph targets
// applied, with `computeBonesUsingShaders` off), then the mesh's world
// matrix, then the inverse of the world matrix of the loader's `__root__`
// node (which turns glTF's right-handed space into Babylon's left-handed
// one): glTF's own coordinates. Positions are flattened [x, y, z, x, ...].
//
// Exits 2 if a file fails to load, 3 if Babylon changed a primitive's
// vertex count (merged or split vertices: the positions could not be
// compared vertex by vertex). Run by testkit's `babylon_pose` module.
import { Matrix, Vector3 } from "@babylonjs/core";
import { loadEach, playAt } from "./play.mjs";

let json;
// GLB files only: Babylon reads a .gltf's buffers by URL, which the
// NullEngine in node cannot fetch from a file.
const options = () => ({
  pluginExtension: ".glb",
  pluginOptions: {
    gltf: {
      // Nothing plays until a probe asks: "rest" is the file as loaded.
      animationStartMode: 0,
      // A mesh per node, never an instance sharing another's vertices.
      createInstances: false,
      onParsed: (loaderData) => {
        json = loaderData.json;
      },
    },
  },
});
for await (const { file, probes, scene, container } of loadEach(options)) {
  const root = container.meshes.find((m) => m.name === "__root__");
  const unflip = Matrix.Invert(root.computeWorldMatrix(true));

  // The primitives, by node index, then primitive index.
  const primitives = [];
  (json.nodes || []).forEach((node, n) => {
    const made = [];
    for (const mesh of node._primitiveBabylonMeshes || []) {
      const pointers = mesh._internalMetadata?.gltf?.pointers || [];
      const found = pointers
        .map((p) => p.match(/^\/meshes\/(\d+)\/primitives\/(\d+)$/))
        .find((m) => m);
      if (!found || Number(found[1]) !== node.mesh) {
        console.error(`${file}: node ${n}: a Babylon mesh without its primitive (${pointers})`);
        process.exit(3);
      }
      const primitive = json.meshes[node.mesh].primitives[Number(found[2])];
      const count = json.accessors[primitive.attributes.POSITION].count;
      made.push({ mesh, id: { node: n, mesh: node.mesh, primitive: Number(found[2]), count } });
    }
    made.sort((a, b) => a.id.primitive - b.id.primitive);
    primitives.push(...made);
  });
  for (const { mesh, id } of primitives) {
    mesh.computeBonesUsingShaders = false;
    const vertices = mesh.getTotalVertices();
    if (vertices !== id.count) {
      console.error(
        `${file}: node ${id.node} mesh ${id.mesh} primitive ${id.primitive}: ` +
          `Babylon has ${vertices} vertices where the POSITION accessor has ${id.count}`,
      );
      process.exit(3);
    }
  }

  // Every vertex of every primitive, skinned and morphed on the CPU, in glTF's space.
  const world = () => {
    for (const skeleton of scene.skeletons) skeleton.prepare(true);
    const out = [];
    const p = new Vector3();
    for (const { mesh } of primitives) {
      const matrix = mesh.computeWorldMatrix(true).multiply(unflip);
      const data = mesh.getPositionData(true, true);
      const flat = new Array(data.length);
      for (let i = 0; i < data.length; i += 3) {
        Vector3.TransformCoordinatesFromFloatsToRef(data[i], data[i + 1], data[i + 2], matrix, p);
        flat[i] = p.x;
        flat[i + 1] = p.y;
        flat[i + 2] = p.z;
      }
      out.push(flat);
    }
    return out;
  };
  // Every node's transform and every morph target's influence as loaded,
  // put back before each animation plays.
  const nodes = scene.transformNodes.concat(scene.meshes).map((node) => ({
    node,
    position: node.position.clone(),
    rotation: node.rotation.clone(),
    quaternion: node.rotationQuaternion?.clone(),
    scaling: node.scaling.clone(),
  }));
  const targets = scene.morphTargetManagers.flatMap((m) =>
    Array.from({ length: m.numTargets }, (_, i) => m.getTarget(i)).map((t) => [t, t.influence]),
  );
  const restore = () => {
    for (const { node, position, rotation, quaternion, scaling } of nodes) {
      node.position.copyFrom(position);
      node.rotation.copyFrom(rotation);
      if (quaternion) node.rotationQuaternion = quaternion.clone();
      node.scaling.copyFrom(scaling);
    }
    for (const [target, influence] of targets) target.influence = influence;
  };

  const local = primitives.map(({ mesh }) => Array.from(mesh.getPositionData(false, false)));
  const rest = world();
  const animations = json.animations || [];
  const posed = animations.map((animation, k) => {
    const group = animation._babylonAnimationGroup;
    if (!group) {
      console.error(`${file}: animation ${k} has no Babylon animation group`);
      process.exit(2);
    }
    restore();
    return playAt(group, probes[k] || [], world);
  });
  console.log(
    JSON.stringify({
      file,
      primitives: primitives.map(({ id }) => id),
      animations: animations.map((a, k) => a.name ?? `animation${k}`),
      local,
      rest,
      posed,
    }),
  );
}
