//! Where a model's textures come from: a [`TextureSource`] turns the path a
//! model's `TEXS` names into PNG bytes.

/// Gives the image of a texture path as the model names it.
pub trait TextureSource: Sync {
    /// The PNG bytes of the texture `file_name` (the `TEXS` path, as stored),
    /// or why there is none.
    fn png(&self, file_name: &str) -> Result<Vec<u8>, String>;

    /// The PNG bytes of `file_name` used as a normal map. By default what
    /// [`png`](Self::png) gives; [`TextureFolders`] rebuilds the Z (blue)
    /// channel of textures that store X and Y only (DDS BC5), since a glTF
    /// normal texture holds all three.
    fn normal_png(&self, file_name: &str) -> Result<Vec<u8>, String> {
        self.png(file_name)
    }
}

/// No textures: every texture is missing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl TextureSource for NoTextures {
    fn png(&self, _: &str) -> Result<Vec<u8>, String> {
        Err("no texture folders given".into())
    }
}

/// A flat-colour PNG, 4 by 4 pixels, RGBA (placeholders for replaceable
/// textures).
pub fn flat_png(rgba: [u8; 4]) -> Result<Vec<u8>, format_core::Error> {
    crate::blp::RgbaImage::new(4, 4, rgba.repeat(16))?.to_png()
}

/// Textures looked up in folders, in order: the path a model names is taken
/// relative to each folder, its components matched ASCII case-insensitively,
/// `\` and `/` both separators. Where no folder has the file as named, the
/// same path with the extension `.dds`, then `.blp`, then `.png` is looked
/// for: Reforged models name `X_Diffuse.tif` or `X.blp` where the game
/// loads `X_Diffuse.dds`, and users convert textures to PNG. A BLP or DDS is
/// decoded ([`crate::blp`], [`crate::dds`], level 0) and embedded as PNG; a
/// PNG file as it is.
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
    /// use formats::gltf::textures::TextureFolders;
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
        let mut parts: Vec<&str> = file_name
            .split(['/', '\\'])
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        if parts.is_empty() || parts.contains(&"..") {
            return None;
        }
        let named = self
            .folders
            .iter()
            .find_map(|folder| find_in(folder, &parts));
        let last = parts.pop()?;
        let stem = last.rsplit_once('.').map_or(last, |(stem, _)| stem);
        named.or_else(|| {
            ALTERNATIVES.iter().find_map(|extension| {
                let other = format!("{stem}.{extension}");
                let parts = [parts.as_slice(), &[other.as_str()]].concat();
                self.folders
                    .iter()
                    .find_map(|folder| find_in(folder, &parts))
            })
        })
    }
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
    /// The PNG of the texture `file_name` names, as it is or (`normal`, a
    /// two-channel DDS) with its Z rebuilt.
    fn load(&self, file_name: &str, normal: bool) -> Result<Vec<u8>, String> {
        let path = self
            .find(file_name)
            .ok_or_else(|| format!("not found in {} folder(s)", self.folders.len()))?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if bytes.starts_with(PNG_SIGNATURE) {
            return Ok(bytes);
        }
        let image = if bytes.starts_with(b"DDS ") {
            crate::dds::Dds::from_bytes(&bytes).and_then(|dds| {
                let mut image = dds.decode_level(0)?;
                if normal && dds.pixel_format()? == crate::dds::PixelFormat::Bc5 {
                    crate::dds::rebuild_normal_z(&mut image);
                }
                Ok(image)
            })
        } else {
            crate::blp::Blp::from_bytes(&bytes).and_then(|blp| blp.decode_level(0))
        };
        image
            .and_then(|image| image.to_png())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

impl TextureSource for TextureFolders {
    fn png(&self, file_name: &str) -> Result<Vec<u8>, String> {
        self.load(file_name, false)
    }

    fn normal_png(&self, file_name: &str) -> Result<Vec<u8>, String> {
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
}
