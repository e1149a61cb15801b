//! No two modules of a workspace crate import each other: a module that
//! needs something of a sibling that needs something of it has two jobs, or
//! the shared part belongs in a leaf module both import. What counts as an
//! import is described on [`testkit::module_graph`].

use std::path::Path;

use testkit::module_graph::Graph;

fn graph_of(krate: &str) -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src");
    Graph::of(&src, &[])
}

#[test]
fn no_two_modules_of_a_workspace_crate_import_each_other() {
    let mut pairs = Vec::new();
    for krate in [
        "format-core",
        "format-derive",
        "formats",
        "formats-cli",
        "sweep",
        "testkit",
    ] {
        let found = graph_of(krate).mutual_imports();
        pairs.extend(found.into_iter().map(|p| format!("{krate}: {p}")));
    }
    assert!(
        pairs.is_empty(),
        "modules that import each other:\n{}",
        pairs.join("\n")
    );
}

/// The glTF export's curve toolkit is the leaf its channels share: it names
/// no other module of the export (only the sampler and the model it reads),
/// and the orchestration builds on it.
#[test]
fn the_gltf_curve_toolkit_is_a_leaf() {
    let graph = graph_of("formats");
    let curve = graph.imports_of("gltf::model::curve");
    assert_eq!(curve, ["anim", "mdx"]);
    assert!(
        graph
            .imports_of("gltf::model::animations")
            .contains(&"gltf::model::curve".to_string()),
        "{:?}",
        graph.imports_of("gltf::model::animations")
    );
}
