//! Changing a model's version: every version-dependent field adapted, and a
//! list of what the target version cannot hold.

use core::fmt;

/// Something a version change would lose (or, when forced, lost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionLoss {
    /// Where it is (`materials[2].layers[0].fresnel`).
    pub path: String,
    /// What it is and why the target cannot hold it.
    pub what: String,
}

impl fmt::Display for VersionLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}
