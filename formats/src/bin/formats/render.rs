//! `formats render`: a tile's height field and alpha maps, or a model's
//! wireframe, as PNG files (drawn by [`formats::render`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::anim::{Moment, Timeline};
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
    /// MDX: `SEQUENCE@MS`, the moment the wireframe is posed at.
    pub pose: Option<String>,
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
            if out.wireframe.is_some() || out.pose.is_some() {
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
                let image = match &out.pose {
                    Some(pose) => {
                        let moment = moment(model, pose).map_err(|e| format!("{name}: {e}"))?;
                        formats::render::posed_wireframe(model, moment, out.size)
                    }
                    None => formats::render::wireframe(model, out.size),
                };
                save(&image, path)?;
            }
        }
        _ => return Err(format!("{name}: render draws .adt tiles and .mdx models")),
    }
    Ok(ExitCode::SUCCESS)
}

/// The moment `SEQUENCE@MS` names: `MS` milliseconds into the sequence of
/// that name (the last `@` separates them, so names may hold one).
fn moment(model: &formats::mdx::Model, pose: &str) -> Result<Moment, String> {
    let (sequence, ms) = pose
        .rsplit_once('@')
        .ok_or_else(|| format!("--pose {pose:?}: expected SEQUENCE@MS, as Walk@500"))?;
    let ms: f64 = ms
        .trim()
        .parse()
        .ok()
        .filter(|ms: &f64| ms.is_finite() && *ms >= 0.0)
        .ok_or_else(|| format!("--pose {pose:?}: {ms:?} is not a time in milliseconds"))?;
    let timeline = Timeline::from_model(model);
    let index = timeline.sequence(sequence.trim()).ok_or_else(|| {
        let names: Vec<&str> = timeline.sequences.iter().map(|s| s.name.as_str()).collect();
        format!("--pose: no sequence {sequence:?} (the model has {names:?})")
    })?;
    timeline
        .at(index, ms)
        .ok_or_else(|| format!("--pose: no sequence {sequence:?}"))
}
