//! Where a model's textures come from: a [`TextureSource`] turns the path a
//! model's `TEXS` names into PNG bytes.

use std::path::PathBuf;

/// Why a texture has no image.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextureError {
    /// No place to look in was given ([`NoTextures`]).
    #[error("no texture folders given")]
    NoSource,
    /// No file has the name, or one of its alternatives.
    #[error("not found in {searched}")]
    NotFound {
        /// Where it was looked for (`a, b or c`; `the archive or a`).
        searched: String,
    },
    /// The file is there and cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file (or archive entry) is not an image this crate decodes.
    #[error("{name}: {source}")]
    Decode {
        /// The file's path, or the entry's name.
        name: String,
        /// Why (with its offset and path of fields).
        #[source]
        source: format_core::Error,
    },
    /// The archive's entry cannot be read.
    #[cfg(feature = "archive")]
    #[error(transparent)]
    Archive(#[from] crate::mpq::Error),
}

/// Gives the image of a texture path as the model names it.
pub trait TextureSource: Sync {
    /// The PNG bytes of the texture `file_name` (the `TEXS` path, as stored),
    /// or why there is none.
    fn png(&self, file_name: &str) -> Result<Vec<u8>, TextureError>;

    /// The PNG bytes of `file_name` used as a normal map. By default what
    /// [`png`](Self::png) gives; [`TextureFolders`] rebuilds the Z (blue)
    /// channel from X and Y (red and green), see there.
    fn normal_png(&self, file_name: &str) -> Result<Vec<u8>, TextureError> {
        self.png(file_name)
    }
}

/// No textures: every texture is missing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl TextureSource for NoTextures {
    fn png(&self, _: &str) -> Result<Vec<u8>, TextureError> {
        Err(TextureError::NoSource)
    }
}

/// Every texture found, as one flat colour (a 4 by 4 PNG): the materials
/// keep their textures (with their UV sets, texture transforms and slots)
/// where the images themselves are not at hand or not wanted.
///
/// ```
/// use formats::gltf::FlatTextures;
/// use formats::gltf::{ExportOptions, export};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let grey = FlatTextures([128, 128, 128, 255]);
/// let out = export(&model, "cube", &ExportOptions { textures: &grey, ..Default::default() })?;
/// assert!(out.missing_textures.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatTextures(pub [u8; 4]);

impl TextureSource for FlatTextures {
    fn png(&self, _: &str) -> Result<Vec<u8>, TextureError> {
        flat_png(self.0).map_err(|source| TextureError::Decode {
            name: "a flat colour".into(),
            source,
        })
    }
}

/// A flat-colour PNG, 4 by 4 pixels, RGBA (placeholders for replaceable
/// textures).
pub(crate) fn flat_png(rgba: [u8; 4]) -> Result<Vec<u8>, format_core::Error> {
    crate::blp::RgbaImage::new(4, 4, rgba.repeat(16))
        .and_then(|image| image.to_png())
        .map_err(|e| format_core::Error::other(e.to_string()))
}

/// Textures looked up in folders, in order: the path a model names is taken
/// relative to each folder, its components matched ASCII case-insensitively,
/// `\` and `/` both separators. Where no folder has the file as named, the
/// same path with the extension `.dds`, then `.blp`, then `.png` is looked
/// for: Reforged models name `X_Diffuse.tif` or `X.blp` where the game
/// loads `X_Diffuse.dds`, and users convert textures to PNG. A BLP or DDS is
/// decoded ([`crate::blp`], [`crate::dds`], level 0) and embedded as PNG; a
/// PNG file as it is.
///
/// Normal maps ([`normal_png`](TextureSource::normal_png)): Reforged's HD
/// shader reads X and Y from red and green and rebuilds Z (mdx-m3-viewer's
/// `decodeNormal` does exactly this), so what a file holds in blue is not
/// part of the normal: BC5 stores nothing there. A glTF viewer reads all
/// three channels, so every normal map, whatever its format, is embedded
/// with its blue rebuilt as `sqrt(1 - x² - y²)`
/// ([`rebuild_normal_z`](crate::dds::rebuild_normal_z)); for a map that
/// already held unit normals this changes blue by the rounding of X and Y.
/// Green is not flipped: the game's bitangent is `cross(normal, tangent) *
/// w` from `TANG`, as glTF's is from `TANGENT`, which the export copies.
#[derive(Clone, Debug, Default)]
pub struct TextureFolders {
    folders: Vec<std::path::PathBuf>,
}

impl TextureFolders {
    /// Looks in `folders`, first to last.
    pub fn new(folders: Vec<std::path::PathBuf>) -> Self {
        TextureFolders { folders }
    }

    /// The first file `file_name` names in one of the folders.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join("formats-texture-folders-doc");
    /// # std::fs::create_dir_all(dir.join("Textures")).unwrap();
    /// # std::fs::write(dir.join("Textures/Skin.BLP"), b"BLP1").unwrap();
    /// use formats::gltf::TextureFolders;
    ///
    /// let folders = TextureFolders::new(vec![dir.clone()]);
    /// assert_eq!(folders.find(r"textures\skin.blp"), Some(dir.join("Textures/Skin.BLP")));
    /// assert_eq!(folders.find("Textures/Other.blp"), None);
    /// // Reforged: the game loads the `.dds` of a `.tif` path.
    /// # std::fs::write(dir.join("Textures/Hero_Diffuse.dds"), b"DDS ").unwrap();
    /// assert_eq!(
    ///     folders.find("Textures/Hero_Diffuse.tif"),
    ///     Some(dir.join("Textures/Hero_Diffuse.dds"))
    /// );
    /// ```
    pub fn find(&self, file_name: &str) -> Option<std::path::PathBuf> {
        candidates(file_name).iter().find_map(|name| {
            let parts: Vec<&str> = name.split('/').collect();
            self.folders
                .iter()
                .find_map(|folder| find_in(folder, &parts))
        })
    }
}

/// The names a texture path is looked for under, in order: as named, then
/// with each of [`ALTERNATIVES`] for its extension; its parts joined by `/`
/// (`\` read as `/`, empty and `.` parts dropped). None for a path that
/// names nothing or leads up (`..`).
fn candidates(file_name: &str) -> Vec<String> {
    let parts: Vec<&str> = file_name
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let Some((last, folders)) = parts.split_last() else {
        return Vec::new();
    };
    if parts.contains(&"..") {
        return Vec::new();
    }
    let stem = last.rsplit_once('.').map_or(*last, |(stem, _)| stem);
    let mut names = vec![parts.join("/")];
    for extension in ALTERNATIVES {
        let other = format!("{stem}.{extension}");
        names.push([folders, &[other.as_str()]].concat().join("/"));
    }
    names
}

/// The extensions looked for, in order, where no folder has a texture as
/// the model names it.
const ALTERNATIVES: [&str; 3] = ["dds", "blp", "png"];

/// `parts` under `folder`, each matched exactly or else case-insensitively.
fn find_in(folder: &std::path::Path, parts: &[&str]) -> Option<std::path::PathBuf> {
    let mut at = folder.to_path_buf();
    for part in parts {
        let exact = at.join(part);
        at = if exact.exists() {
            exact
        } else {
            std::fs::read_dir(&at)
                .ok()?
                .filter_map(Result::ok)
                .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(part))?
                .path()
        };
    }
    at.is_file().then_some(at)
}

/// The PNG signature.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

impl TextureFolders {
    /// The folders, for a message: `a`, `a or b`, `a, b or c`.
    fn folder_list(&self) -> String {
        let names: Vec<String> = self
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        match names.split_last() {
            None => "no folder".to_string(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The PNG of the texture `file_name` names, as it is or (`normal`) with
    /// its Z rebuilt from X and Y.
    fn load(&self, file_name: &str, normal: bool) -> Result<Vec<u8>, TextureError> {
        let path = self.find(file_name).ok_or_else(|| TextureError::NotFound {
            searched: self.folder_list(),
        })?;
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(source) => return Err(TextureError::Read { path, source }),
        };
        png_of(bytes, normal).map_err(|source| TextureError::Decode {
            name: path.display().to_string(),
            source,
        })
    }
}

/// A texture file's bytes (PNG, DDS or BLP) as PNG, level 0, as it is or
/// (`normal`) with its Z rebuilt from X and Y.
fn png_of(bytes: Vec<u8>, normal: bool) -> Result<Vec<u8>, format_core::Error> {
    let png = bytes.starts_with(PNG_SIGNATURE);
    if png && !normal {
        return Ok(bytes);
    }
    let mut image = if png {
        crate::blp::RgbaImage::from_png(&bytes)
            .map_err(|e| format_core::Error::other(e.to_string()))
    } else if bytes.starts_with(b"DDS ") {
        crate::dds::Dds::from_bytes(&bytes).and_then(|dds| dds.decode_level(0))
    } else {
        crate::blp::Blp::from_bytes(&bytes).and_then(|blp| blp.decode_level(0))
    }?;
    if normal {
        crate::dds::rebuild_normal_z(&mut image);
    }
    image
        .to_png()
        .map_err(|e| format_core::Error::other(e.to_string()))
}

/// Textures read from an MPQ archive, a map's imported textures (feature
/// `archive`), where it has them, else from folders: a model in a map names
/// its textures by their paths in the archive (`war3mapImported\Skin.blp`)
/// or in the game's data. Names and alternatives are looked for as
/// [`TextureFolders`] looks for them, each first in the archive.
///
/// ```
/// use formats::gltf::{ArchiveTextures, TextureFolders, TextureSource};
///
/// let bytes = formats::sample::sample_mpq();
/// let archive = formats::mpq::Archive::new(&bytes)?;
/// let textures = ArchiveTextures::new(&archive, TextureFolders::new(vec![]));
/// let why = textures.png("Textures/Skin.blp").unwrap_err();
/// assert_eq!(why.to_string(), "not found in the archive");
/// # Ok::<(), formats::mpq::Error>(())
/// ```
#[cfg(feature = "archive")]
#[derive(Clone, Debug)]
pub struct ArchiveTextures<'a> {
    archive: &'a crate::mpq::Archive<'a>,
    then: TextureFolders,
}

#[cfg(feature = "archive")]
impl<'a> ArchiveTextures<'a> {
    /// Looks in `archive`, then in the folders of `then`.
    pub fn new(archive: &'a crate::mpq::Archive<'a>, then: TextureFolders) -> Self {
        ArchiveTextures { archive, then }
    }

    fn load(&self, file_name: &str, normal: bool) -> Result<Vec<u8>, TextureError> {
        let names = candidates(file_name);
        let Some(entry) = names.iter().find_map(|name| self.archive.entry(name)) else {
            if self.then.folders.is_empty() {
                return Err(TextureError::NotFound {
                    searched: "the archive".into(),
                });
            }
            return self.then.load(file_name, normal).map_err(|why| match why {
                TextureError::NotFound { searched } => TextureError::NotFound {
                    searched: format!("the archive or {searched}"),
                },
                other => other,
            });
        };
        let bytes = self.archive.read_entry(&entry)?;
        png_of(bytes, normal).map_err(|source| TextureError::Decode {
            name: entry.name().into_owned(),
            source,
        })
    }
}

#[cfg(feature = "archive")]
impl TextureSource for ArchiveTextures<'_> {
    fn png(&self, file_name: &str) -> Result<Vec<u8>, TextureError> {
        self.load(file_name, false)
    }

    fn normal_png(&self, file_name: &str) -> Result<Vec<u8>, TextureError> {
        self.load(file_name, true)
    }
}

impl TextureSource for TextureFolders {
    fn png(&self, file_name: &str) -> Result<Vec<u8>, TextureError> {
        self.load(file_name, false)
    }

    fn normal_png(&self, file_name: &str) -> Result<Vec<u8>, TextureError> {
        self.load(file_name, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blp::RgbaImage;
    use crate::blp::codec::dxt::{self, Dxt};

    /// A BC5 normal map (X and Y only) used as a normal texture comes out
    /// with its Z rebuilt; used as anything else, as it decodes (blue 0).
    #[test]
    fn two_channel_normal_maps_get_their_z_back() {
        let dir = std::env::temp_dir().join(format!("formats-bc5-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A flat normal, (0, 0, 1): X and Y at the middle.
        let flat = [128u8, 128, 0, 255].repeat(16);
        let ati2 = crate::dds::DdsPixelFormat {
            size: 32,
            flags: crate::dds::header::pixel_flags::FOURCC,
            four_cc: *b"ATI2",
            ..Default::default()
        };
        let dds = crate::dds::tiny_dds(4, 4, 1, ati2, dxt::encode(&flat, Dxt::Bc5, 4, 4));
        std::fs::write(dir.join("flat_normal.dds"), dds).unwrap();
        let folders = TextureFolders::new(vec![dir.clone()]);
        let blue = |png: Vec<u8>| RgbaImage::from_png(&png).unwrap().data[2];
        assert_eq!(blue(folders.png("flat_normal.tif").unwrap()), 0);
        assert_eq!(blue(folders.normal_png("flat_normal.tif").unwrap()), 255);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Every normal map gets its Z from X and Y, whatever the file is and
    /// whatever it holds in blue (here a DXT5 DDS, a BLP and a PNG with blue
    /// 7); one that holds unit normals keeps its blue within 2 levels. Used
    /// as anything else, a PNG is embedded as its very bytes.
    #[test]
    fn every_normal_map_gets_its_z_from_x_and_y() {
        let dir = std::env::temp_dir().join(format!("formats-normals-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let level = |v: f32| ((v + 1.0) / 2.0 * 255.0).round() as u8;
        // 16 unit normals tilted up to 60 degrees, blue as encoded.
        let unit: Vec<[u8; 4]> = (0..16)
            .map(|i| {
                let (tilt, turn) = (i as f32 / 15.0 * 1.047, i as f32 * 0.7);
                let (x, y, z) = (tilt.sin() * turn.cos(), tilt.sin() * turn.sin(), tilt.cos());
                [level(x), level(y), level(z), 255]
            })
            .collect();
        let image = RgbaImage::new(4, 4, unit.concat()).unwrap();
        let png = image.to_png().unwrap();
        std::fs::write(dir.join("unit.png"), &png).unwrap();
        let mut junk = image.clone();
        junk.data.iter_mut().skip(2).step_by(4).for_each(|b| *b = 7);
        std::fs::write(dir.join("junk.png"), junk.to_png().unwrap()).unwrap();
        let dxt5 = crate::blp::Blp::encode(&junk, crate::blp::Target::Dxt5).unwrap();
        std::fs::write(dir.join("junk.blp"), dxt5.to_bytes().unwrap()).unwrap();
        let fourcc = crate::dds::DdsPixelFormat {
            size: 32,
            flags: crate::dds::header::pixel_flags::FOURCC,
            four_cc: *b"DXT5",
            ..Default::default()
        };
        let blocks = dxt::encode(&junk.data, Dxt::Dxt5, 4, 4);
        std::fs::write(
            dir.join("junk.dds"),
            crate::dds::tiny_dds(4, 4, 1, fourcc, blocks),
        )
        .unwrap();
        let folders = TextureFolders::new(vec![dir.clone()]);
        let pixels = |png: Vec<u8>| RgbaImage::from_png(&png).unwrap().data;
        assert_eq!(folders.png("unit.png").unwrap(), png);
        let rebuilt = pixels(folders.normal_png("unit.png").unwrap());
        for (was, now) in image.data.chunks(4).zip(rebuilt.chunks(4)) {
            assert_eq!(was[..2], now[..2]);
            assert!(was[2].abs_diff(now[2]) <= 2, "{was:?} -> {now:?}");
        }
        for name in ["junk.png", "junk.blp", "junk.dds"] {
            assert!(
                pixels(folders.png(name).unwrap())
                    .iter()
                    .skip(2)
                    .step_by(4)
                    .any(|&b| b < 100)
            );
            for px in pixels(folders.normal_png(name).unwrap()).chunks(4) {
                let unit = |c: u8| f32::from(c) / 255.0 * 2.0 - 1.0;
                let z = (1.0 - unit(px[0]).powi(2) - unit(px[1]).powi(2))
                    .max(0.0)
                    .sqrt();
                assert_eq!(px[2], level(z), "{name}: {px:?}");
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
