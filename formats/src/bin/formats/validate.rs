//! `formats validate`: the library's semantic checks ([`formats::validate`]),
//! one finding per line.

use std::path::Path;
use std::process::ExitCode;

use formats::validate;

use crate::kind::{self, Document};

/// `formats validate FILE`: exit code 1 if anything is found.
pub fn run(path: &Path) -> Result<ExitCode, String> {
    let (kind, data) = kind::open(path)?;
    let name = path.display();
    let loaded = kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    let findings = match &loaded.document {
        Document::Mdx(model) => [validate::model(model), validate::extents::model(model)].concat(),
        Document::Adt(adt) => formats::validate::tile(adt),
        _ => {
            return Err(format!(
                "{name}: validate checks models and tiles, not {} files",
                kind.name()
            ));
        }
    };
    let mut out = String::new();
    for finding in &findings {
        out.push_str(&format!("{:?}: {finding}\n", finding.rule));
    }
    out.push_str(&format!("{name}: {} findings\n", findings.len()));
    crate::print_out(&out)?;
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
