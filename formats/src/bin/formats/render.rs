//! `formats render`: a tile's height field and alpha maps, or a model's
//! wireframe, as PNG files (drawn by [`formats::render`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::render::Image;

use crate::kind::{self, Document, Kind};

/// The images asked for.
pub struct Outputs {
    /// ADT height field.
    pub heightmap: Option<PathBuf>,
    /// ADT alpha maps.
    pub alpha: Option<PathBuf>,
    /// The WDT whose MPHD flags give the alpha maps' bit depth.
    pub wdt: Option<PathBuf>,
    /// MDX wireframe.
    pub wireframe: Option<PathBuf>,
    /// Wireframe side in pixels.
    pub size: usize,
}

fn save(image: &Image, path: &Path) -> Result<(), String> {
    let png = image
        .to_png()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "wrote {} ({}x{})",
        path.display(),
        image.width,
        image.height
    );
    Ok(())
}

/// `formats render [FILE] --heightmap/--alpha/--wireframe OUT.png`.
pub fn run(file: Option<&Path>, out: &Outputs) -> Result<ExitCode, String> {
    let (name, kind, data) = match file {
        Some(path) => {
            let (kind, data) = kind::open(path)?;
            (path.display().to_string(), kind, data)
        }
        None => (
            "built-in sample".to_string(),
            Kind::Mdx,
            formats::sample::sample_mdx(),
        ),
    };
    if out.heightmap.is_none() && out.alpha.is_none() && out.wireframe.is_none() {
        return Err("nothing to draw: give --heightmap, --alpha (ADT) or --wireframe (MDX)".into());
    }
    let loaded = kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    match &loaded.document {
        Document::Adt(adt) => {
            if out.wireframe.is_some() {
                return Err(format!("{name}: --wireframe draws models; this is a tile"));
            }
            if let Some(path) = &out.heightmap {
                let image = formats::render::heightmap(adt).map_err(|e| format!("{name}: {e}"))?;
                save(&image, path)?;
            }
            if let Some(path) = &out.alpha {
                let flags = match &out.wdt {
                    Some(wdt) => {
                        let bytes =
                            std::fs::read(wdt).map_err(|e| format!("{}: {e}", wdt.display()))?;
                        formats::wdt::Wdt::from_bytes(&bytes)
                            .map_err(|e| format!("{}: {e}", wdt.display()))?
                            .mphd_flags()
                    }
                    None => formats::render::guess_mphd_flags(adt),
                };
                let image =
                    formats::render::alpha_maps(adt, flags).map_err(|e| format!("{name}: {e}"))?;
                save(&image, path)?;
            }
        }
        Document::Mdx(model) => {
            if out.heightmap.is_some() || out.alpha.is_some() {
                return Err(format!(
                    "{name}: --heightmap and --alpha draw tiles; this is a model"
                ));
            }
            if let Some(path) = &out.wireframe {
                save(&formats::render::wireframe(model, out.size), path)?;
            }
        }
        _ => return Err(format!("{name}: render draws .adt tiles and .mdx models")),
    }
    Ok(ExitCode::SUCCESS)
}
