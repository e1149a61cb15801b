// Reads every .mdx or .mdl named on the command line with war3-model's
// parsers (parseMDX, parseMDL), in one process, printing one JSON line per
// file: {"file", "digest"} (see digest()), or {"file", "unreadable"} when the
// parser throws. Exits 2 if war3-model is missing. Run by
// formats/tests/validate/war3_model.rs.
"use strict";
const fs = require("fs");

let war3;
try {
  war3 = require("war3-model");
} catch (e) {
  console.error("war3-model is not installed: npm ci --prefix testkit/harness/war3_model");
  process.exit(2);
}

// war3-model's keys of a layer's texture list entries 1 to 5.
const SLOTS = [
  "NormalTextureID",
  "ORMTextureID",
  "EmissiveTextureID",
  "TeamColorTextureID",
  "ReflectionsTextureID",
];

// FNV-1a (32-bit) over the elements of an integer array.
function hash(array) {
  let h = 0x811c9dc5;
  for (const x of array) {
    h = Math.imul(h ^ x, 0x01000193) >>> 0;
  }
  return h;
}

// The bits of a Float32Array, as integers.
function bits(floats) {
  return new Uint32Array(floats.buffer, floats.byteOffset, floats.length);
}

// What both readers must agree on: the version; the sequences (name,
// interval, looping) and global sequences; the textures (path, replaceable
// id); each material's layers (filter mode, texture id where it is a
// number, the ids of the texture list's other slots); per geoset its counts (vertices, face indices, UV sets, matrix
// groups, tangents), material, level of detail and a hash of its skin
// weights; the nodes (name, object id, parent) by object id; and a hash of
// every vertex position's bits, and their sum (in file order, as f64).
function digest(model) {
  // From each kind's list: `Nodes`, indexed by object id, has no place for
  // an id out of range.
  const kinds = [
    "Bones",
    "Lights",
    "Helpers",
    "Attachments",
    "ParticleEmitters",
    "ParticleEmitters2",
    "RibbonEmitters",
    "ParticleEmitterPopcorns",
    "EventObjects",
    "CollisionShapes",
  ];
  const nodes = kinds
    .flatMap((kind) => model[kind] || [])
    .map((n) => [n.Name, n.ObjectId, n.Parent === undefined || n.Parent === null ? -1 : n.Parent])
    .sort((a, b) => a[1] - b[1]);
  let positions = 0x811c9dc5;
  let positionSum = 0;
  for (const g of model.Geosets) {
    for (const x of bits(g.Vertices)) {
      positions = Math.imul(positions ^ x, 0x01000193) >>> 0;
    }
    for (const x of g.Vertices) {
      positionSum += x;
    }
  }
  return {
    version: model.Version,
    sequences: model.Sequences.map((s) => [
      s.Name,
      s.Interval[0],
      s.Interval[1],
      s.NonLooping ? 1 : 0,
    ]),
    global_sequences: model.GlobalSequences || [],
    // From MDL without a `ReplaceableId` line, war3-model leaves it unset: 0.
    textures: model.Textures.map((t) => [t.Image, t.ReplaceableId || 0]),
    layers: model.Materials.map((m) =>
      m.Layers.map((l) => [
        l.FilterMode,
        typeof l.TextureID === "number" ? l.TextureID : null,
        // 1100 and later: the texture list's other slots (normal, ORM,
        // emissive, team colour, reflection), by position.
        SLOTS.map((key) => (typeof l[key] === "number" ? l[key] : null)),
      ]),
    ),
    geosets: model.Geosets.map((g) => ({
      vertices: g.Vertices.length / 3,
      faces: g.Faces.length,
      uv_sets: g.TVertices.length,
      groups: g.Groups.length,
      tangents: g.Tangents ? g.Tangents.length / 4 : 0,
      material: g.MaterialID,
      lod: g.LevelOfDetail === undefined ? null : g.LevelOfDetail,
      skin: g.SkinWeights && g.SkinWeights.length ? hash(g.SkinWeights) : null,
    })),
    nodes,
    positions,
    position_sum: positionSum,
  };
}

// `read.js --write-mdl DIR FILE.mdx...`: also writes war3-model's MDL of
// each model (generateMDL) to DIR/<name>.mdl, for our reader to read.
let args = process.argv.slice(2);
let mdlDir = null;
if (args[0] === "--write-mdl") {
  mdlDir = args[1];
  args = args.slice(2);
}

for (const file of args) {
  try {
    const bytes = fs.readFileSync(file);
    const model = file.toLowerCase().endsWith(".mdl")
      ? war3.parseMDL(bytes.toString("utf8"))
      : war3.parseMDX(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    if (mdlDir !== null) {
      const name = file.split(/[\\/]/).pop().replace(/\.mdx$/i, ".mdl");
      fs.writeFileSync(`${mdlDir}/${name}`, war3.generateMDL(model));
    }
    console.log(JSON.stringify({ file, digest: digest(model) }));
  } catch (e) {
    console.log(JSON.stringify({ file, unreadable: String((e && e.message) || e) }));
  }
}
