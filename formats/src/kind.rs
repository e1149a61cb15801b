//! Which format a file is: by its extension, then, where the extension says
//! nothing, by its first bytes. The one place a tool (the `formats` binary,
//! a batch script, the workspace's sweep) learns what reader a file takes.

/// The file formats this crate reads.
///
/// ```
/// use std::path::Path;
/// use formats::FileKind;
///
/// assert_eq!(FileKind::of_path(Path::new("units/Footman.MDX")), Some(FileKind::Mdx));
/// assert_eq!(FileKind::of_path(Path::new("Azeroth_32_48_tex0.adt")), Some(FileKind::AdtSplit));
/// // No extension: the magic decides.
/// assert_eq!(FileKind::detect(Path::new("model.bin"), b"MDLX...."), Some(FileKind::Mdx));
/// assert_eq!(FileKind::detect(Path::new("README.md"), b"# hi"), None);
/// // glTF, which `formats::gltf::import` reads: `.glb` or `.gltf`, or a GLB by its magic.
/// assert_eq!(FileKind::of_path(Path::new("CesiumMan.glb")), Some(FileKind::Gltf));
/// assert_eq!(FileKind::detect(Path::new("download"), b"glTF\x02\0\0\0"), Some(FileKind::Gltf));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum FileKind {
    /// `.mdx`: a Warcraft III / Reforged (or WoW alpha) binary model.
    Mdx,
    /// `.mdl`: the text form of a model (read into the same `Model`).
    Mdl,
    /// `.adt`: a monolithic tile or a Cataclysm+ root file.
    Adt,
    /// `_tex0.adt`, `_tex1.adt`, `_obj0.adt`, `_obj1.adt`, `_lod.adt`: the
    /// other files of a split tile.
    AdtSplit,
    /// `.wdt`: a map definition (and its `_occ`, `_lgt` companions).
    Wdt,
    /// `.blp`: a texture (BLP1 or BLP2).
    Blp,
    /// `.dds`: a texture (Reforged's HD textures).
    Dds,
    /// `.glb` or `.gltf`: a glTF 2.0 document, binary or JSON; not a game
    /// file, the input of the glTF import (`gltf::import`, feature `gltf`).
    /// A GLB without that extension is known by its magic `glTF`; JSON
    /// (`.gltf`) by its extension only, as its first bytes do not tell it
    /// from other JSON.
    Gltf,
}

/// The name endings of a split tile's other files.
const SPLIT_SUFFIXES: [&str; 5] = ["_tex0", "_tex1", "_obj0", "_obj1", "_lod"];

impl FileKind {
    /// The kind `path`'s extension names (any letter case), `None` for
    /// other files.
    pub fn of_path(path: &std::path::Path) -> Option<FileKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        let stem = path.file_stem()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "mdx" => Some(FileKind::Mdx),
            "mdl" => Some(FileKind::Mdl),
            "wdt" => Some(FileKind::Wdt),
            "blp" => Some(FileKind::Blp),
            "dds" => Some(FileKind::Dds),
            "glb" | "gltf" => Some(FileKind::Gltf),
            "adt" if SPLIT_SUFFIXES.iter().any(|s| stem.ends_with(s)) => Some(FileKind::AdtSplit),
            "adt" => Some(FileKind::Adt),
            _ => None,
        }
    }

    /// The kind of `path`, or of `data` when the extension says nothing
    /// (`MDLX`: MDX; a reversed `MVER`: an ADT tile; `BLP1`/`BLP2`; `DDS `;
    /// `glTF`: a GLB).
    pub fn detect(path: &std::path::Path, data: &[u8]) -> Option<FileKind> {
        FileKind::of_path(path).or_else(|| match data.first_chunk::<4>() {
            Some(b"MDLX") => Some(FileKind::Mdx),
            Some(b"REVM") => Some(FileKind::Adt),
            Some(b"BLP1" | b"BLP2") => Some(FileKind::Blp),
            Some(b"DDS ") => Some(FileKind::Dds),
            Some(b"glTF") => Some(FileKind::Gltf),
            _ => None,
        })
    }

    /// A short name for tables (`MDX`, `ADT part`).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Mdx => "MDX",
            FileKind::Mdl => "MDL",
            FileKind::Adt => "ADT",
            FileKind::AdtSplit => "ADT part",
            FileKind::Wdt => "WDT",
            FileKind::Blp => "BLP",
            FileKind::Dds => "DDS",
            FileKind::Gltf => "glTF",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn gltf_by_extension_then_by_its_glb_magic() {
        for name in ["a/CesiumMan.glb", "Rigged.GLB", "scene.gltf", "Scene.GlTF"] {
            assert_eq!(
                FileKind::of_path(Path::new(name)),
                Some(FileKind::Gltf),
                "{name}"
            );
        }
        // A GLB's header: magic, version 2, length.
        let glb = b"glTF\x02\0\0\0\x0c\0\0\0";
        assert_eq!(
            FileKind::detect(Path::new("model"), glb),
            Some(FileKind::Gltf)
        );
        // The extension decides first: a GLB named .mdx is read as MDX (and refused there).
        assert_eq!(
            FileKind::detect(Path::new("x.mdx"), glb),
            Some(FileKind::Mdx)
        );
        // JSON without the extension is not taken for glTF.
        let json = br#"{"asset":{"version":"2.0"}}"#;
        assert_eq!(FileKind::detect(Path::new("scene"), json), None);
        assert_eq!(FileKind::Gltf.name(), "glTF");
    }
}
