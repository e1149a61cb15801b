// Reads every .mdx named on the command line with mdx-m3-viewer's parser and
// runs its sanity test (the Hive Workshop's), in one process, printing one
// JSON line per file: {"file", "version", "errors", "severe", "warnings",
// "messages", "notes", "digest"} (the messages of the errors and severe
// findings, those of the warnings and unused ones, and what the parser read
// of the parts our tools change: see digest()), or
// {"file", "unreadable"} when the parser throws. Exits 2 if mdx-m3-viewer is
// missing. Run by formats-cli/tests/models/convert_sanity.rs.
"use strict";
const fs = require("fs");

let Model, sanityTest;
try {
  Model = require("mdx-m3-viewer/dist/cjs/parsers/mdlx/model").default;
  sanityTest = require("mdx-m3-viewer/dist/cjs/utils/mdlx/sanitytest/sanitytest").default;
} catch (e) {
  console.error("mdx-m3-viewer is not installed: npm ci --prefix testkit/harness/convert_sanity");
  process.exit(2);
}

// The findings of the given types ("error", "severe", "warning", "unused")
// under a node of the test's tree, with the names of the nodes above them.
function findings(node, path, out, types = ["error", "severe"]) {
  for (const child of node.nodes || []) {
    if (child.type === "node") {
      findings(child, `${path}/${child.name}`, out, types);
    } else if (types.includes(child.type)) {
      out.push(`${child.type} ${path}: ${child.message}`);
    }
  }
  return out;
}

// A value as a list of numbers (a vector's components).
function numbers(value) {
  return typeof value === "number" ? [value] : Array.from(value);
}

// FNV-1a (32-bit) over the elements of an integer array.
function hash(array) {
  let h = 0x811c9dc5;
  for (const x of array) {
    h = Math.imul(h ^ x, 0x01000193) >>> 0;
  }
  return h;
}

function extent(e) {
  return [e.boundsRadius, ...e.min, ...e.max];
}

// What the parser read of the parts our tools change: the global sequences;
// every track (tag, interpolation, global sequence, frames, and key by key
// its value and tangents); every event track; the extents (MODL's, each
// sequence's, each geoset's and its per-sequence ones); and per geoset its
// counts (vertices, face indices, tangents, UV sets), material, level of
// detail and a hash of each skinning array (GNDX, MTGC, MATS, SKIN).
function digest(model) {
  const animated = [
    ...model.materials.flatMap((m) => m.layers),
    ...model.textureAnimations,
    ...model.geosetAnimations,
    ...model.bones,
    ...model.lights,
    ...model.helpers,
    ...model.attachments,
    ...model.particleEmitters,
    ...model.particleEmitters2,
    ...model.particleEmittersPopcorn,
    ...model.ribbonEmitters,
    ...model.cameras,
    ...model.eventObjects,
    ...model.collisionShapes,
  ];
  return {
    global_sequences: model.globalSequences,
    tracks: animated
      .flatMap((object) => object.animations)
      .map((a) => ({
        tag: a.name,
        interpolation: a.interpolationType,
        global_sequence: a.globalSequenceId,
        frames: a.frames,
        values: a.values
          .flatMap((value, i) => [value, a.inTans[i], a.outTans[i]])
          .filter((v) => v !== undefined)
          .flatMap(numbers),
      })),
    events: model.eventObjects.map((e) => [e.globalSequenceId, Array.from(e.tracks)]),
    extents: {
      model: extent(model.extent),
      sequences: model.sequences.map((s) => extent(s.extent)),
      geosets: model.geosets.map((g) => [g.extent, ...g.sequenceExtents].map(extent)),
    },
    geosets: model.geosets.map((g) => [
      g.vertices.length / 3,
      g.faces.length,
      g.tangents.length / 4,
      g.uvSets.length,
      g.materialId,
      g.lod,
      hash(g.vertexGroups),
      hash(g.matrixGroups),
      hash(g.matrixIndices),
      hash(g.skin),
    ]),
  };
}

for (const file of process.argv.slice(2)) {
  let model;
  try {
    model = new Model();
    model.load(new Uint8Array(fs.readFileSync(file)));
  } catch (e) {
    console.log(JSON.stringify({ file, unreadable: String(e) }));
    continue;
  }
  const result = sanityTest(model);
  console.log(
    JSON.stringify({
      file,
      version: model.version,
      errors: result.errors,
      severe: result.severe,
      warnings: result.warnings,
      messages: findings(result, "", []),
      notes: findings(result, "", [], ["warning", "unused"]),
      digest: digest(model),
    }),
  );
}
