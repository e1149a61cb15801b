// Reads every .mdx named on the command line with mdx-m3-viewer's parser and
// runs its sanity test (the Hive Workshop's), in one process, printing one
// JSON line per file: {"file", "version", "errors", "severe", "warnings",
// "messages"} (the messages of the errors and severe findings), or
// {"file", "unreadable"} when the parser throws. Exits 2 if mdx-m3-viewer is
// missing. Run by formats/tests/convert_sanity.rs.
"use strict";
const fs = require("fs");

let Model, sanityTest;
try {
  Model = require("mdx-m3-viewer/dist/cjs/parsers/mdlx/model").default;
  sanityTest = require("mdx-m3-viewer/dist/cjs/utils/mdlx/sanitytest/sanitytest").default;
} catch (e) {
  console.error("mdx-m3-viewer is not installed: npm ci --prefix formats/tests/convert_sanity");
  process.exit(2);
}

// The errors and severe findings under a node of the test's tree, with the
// names of the nodes above them.
function findings(node, path, out) {
  for (const child of node.nodes || []) {
    if (child.type === "node") {
      findings(child, `${path}/${child.name}`, out);
    } else if (child.type === "error" || child.type === "severe") {
      out.push(`${child.type} ${path}: ${child.message}`);
    }
  }
  return out;
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
    }),
  );
}
