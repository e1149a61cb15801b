// Validates every .glb/.gltf named on the command line with the Khronos glTF
// Validator, in one process (CI runs it on every corpus export), and prints
// one JSON line per file: {"file", "errors", "warnings", "messages"} with the
// first error messages, and "counts": what the validator counted in the
// document (primitives, vertices, triangles, animations, materials, images),
// for the tests to hold against the model. Exits 2 if the validator is missing or a file fails
// to load. Run by formats/tests/gltf/validate.rs.
"use strict";
const fs = require("fs");
const path = require("path");

let validator;
try {
  validator = require("gltf-validator");
} catch (e) {
  console.error("gltf-validator is not installed: npm ci --prefix testkit/harness/gltf_validator");
  process.exit(2);
}

async function validate(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 1000,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        const full = path.resolve(path.dirname(file), decodeURIComponent(uri));
        fs.readFile(full, (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
      }),
  });
  const issues = report.issues;
  const messages = issues.messages
    .filter((m) => m.severity <= (process.env.GLTF_SEVERITY || 0))
    .slice(0, 5)
    .map((m) => `${m.code} ${m.pointer || ""}: ${m.message}`);
  const info = report.info || {};
  return {
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    messages,
    validator: report.validatorVersion,
    counts: {
      primitives: info.drawCallCount,
      vertices: info.totalVertexCount,
      triangles: info.totalTriangleCount,
      animations: info.animationCount,
      materials: info.materialCount,
      images: (info.resources || []).filter((r) => r.pointer.startsWith("/images/")).length,
    },
  };
}

(async () => {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    try {
      console.log(JSON.stringify(await validate(file)));
    } catch (e) {
      console.log(JSON.stringify({ file, errors: -1, warnings: 0, messages: [String(e)] }));
      failed = true;
    }
  }
  process.exit(failed ? 2 : 0);
})();
