//! Which modules of a crate name each other: the check behind "no two
//! modules import each other".
//!
//! A module is a source file (`a/b.rs` and `a/b/mod.rs` are `a::b`). A module
//! imports another when its code names it by a `crate::` or `super::` path,
//! in a `use` tree (groups included) or anywhere in an item, type or
//! expression; a name resolves to the longest prefix that is a module file,
//! so `crate::bounds::Extents` names `bounds`. Code in `#[cfg(test)]` modules
//! does not count (tests may share fixtures both ways), nor does a module
//! naming its own ancestors or descendants (a facade re-exporting its
//! children is not a cycle). Paths inside macro invocations are not seen.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path segments below the crate root (`adt::mh2o::vertex`).
type Module = Vec<String>;

/// Which modules of one crate name which others, read from its sources.
pub struct Graph {
    /// (importer, imported), neither inside the other.
    edges: BTreeSet<(Module, Module)>,
}

impl Graph {
    /// The graph of the crate whose sources are under `src`. `skip` names
    /// folders below `src` that are not modules of the library (a `bin`
    /// folder).
    ///
    /// # Panics
    /// On a source file that does not read or parse: the check is for the
    /// workspace's own code.
    pub fn of(src: &Path, skip: &[&str]) -> Graph {
        let mut files = Vec::new();
        source_files(src, &mut files);
        files.retain(|f| !skip.iter().any(|s| f.starts_with(src.join(s))));
        let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
        let mut edges = BTreeSet::new();
        for file in &files {
            let module = module_of(src, file);
            let text =
                std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let syntax =
                syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let mut names = Names {
                module: &module,
                modules: &modules,
                found: BTreeSet::new(),
            };
            names.visit_file(&syntax);
            for target in names.found {
                if !(target.starts_with(&module) || module.starts_with(&target)) {
                    edges.insert((module.clone(), target));
                }
            }
        }
        Graph { edges }
    }

    /// Pairs of modules that import each other, as `a::b <-> c::d`, sorted.
    pub fn mutual_imports(&self) -> Vec<String> {
        self.edges
            .iter()
            .filter(|(a, b)| a < b && self.edges.contains(&(b.clone(), a.clone())))
            .map(|(a, b)| format!("{} <-> {}", a.join("::"), b.join("::")))
            .collect()
    }

    /// The modules `module` (`gltf::model::curve`) names, sorted.
    pub fn imports_of(&self, module: &str) -> Vec<String> {
        let module: Module = module.split("::").map(String::from).collect();
        self.edges
            .iter()
            .filter(|(from, _)| *from == module)
            .map(|(_, to)| to.join("::"))
            .collect()
    }
}

fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            source_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file
        .strip_prefix(src)
        .expect("under src")
        .with_extension("");
    let mut parts: Module = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Collects the modules one file names.
struct Names<'a> {
    module: &'a [String],
    modules: &'a BTreeSet<Module>,
    found: BTreeSet<Module>,
}

impl Names<'_> {
    /// Resolves a path given as segments (`crate`, `a`, `B`) to the module
    /// it names, if it starts at `crate` or `super`.
    fn name(&mut self, segments: &[String]) {
        let mut base: Module = match segments.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("super") => self.module[..self.module.len().saturating_sub(1)].to_vec(),
            _ => return,
        };
        let mut rest = &segments[1..];
        while rest.first().map(String::as_str) == Some("super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        while !base.is_empty() && !self.modules.contains(&base) {
            base.pop();
        }
        if !base.is_empty() {
            self.found.insert(base);
        }
    }

    /// Every full path a `use` tree spells, groups expanded.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.name(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.name(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.name(&prefix.clone()),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item);
                }
            }
        }
    }
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Names<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_cfg_test(&item.attrs) {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segments);
        syn::visit::visit_path(self, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_of(name: &str, files: &[(&str, &str)]) -> crate::TempDir {
        let dir = crate::temp_dir(name);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_grouped_use_and_a_path_in_code_make_a_pair() {
        let dir = crate_of(
            "module-graph-pair",
            &[
                ("lib.rs", "mod a; mod b;"),
                ("a/mod.rs", "mod x; mod y;"),
                ("a/x.rs", "use super::{y::Thing, z};"),
                ("a/y.rs", "fn f() { crate::a::x::g(); }"),
                ("b.rs", "use crate::a::x;"),
            ],
        );
        let graph = Graph::of(&dir, &[]);
        assert_eq!(graph.mutual_imports(), ["a::x <-> a::y"]);
        assert_eq!(graph.imports_of("b"), ["a::x"]);
        assert_eq!(graph.imports_of("a::x"), ["a::y"]);
    }

    #[test]
    fn tests_parents_and_one_way_imports_are_not_pairs() {
        let dir = crate_of(
            "module-graph-none",
            &[
                ("lib.rs", "pub use a::x::Thing; mod a;"),
                ("a/mod.rs", "pub use x::Thing; mod x; mod y;"),
                ("a/x.rs", "use super::y::Other; use crate::Thing;"),
                (
                    "a/y.rs",
                    "#[cfg(test)]\nmod tests { use super::super::x::Thing; }",
                ),
                (
                    "bin/main.rs",
                    "use crate::a::y; fn f() { crate::a::x::f() }",
                ),
            ],
        );
        assert!(Graph::of(&dir, &["bin"]).mutual_imports().is_empty());
    }
}
