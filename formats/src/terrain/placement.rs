//! MDDF (doodads, M2 models) and MODF (map objects, WMOs) placements as world
//! transforms.
//!
//! The file stores a position in placement space (see the [module](super)
//! docs), three angles in degrees and, for doodads, a scale where 1024 is 1.0.
//! The spec builds the model-to-world matrix as (gl-matrix, Y-up viewer)
//!
//! ```text
//! rotateX(90) rotateY(90) translate(32·TILE - p[0], p[1], 32·TILE - p[2])
//! rotateY(rot[1] - 270) rotateZ(-rot[0]) rotateX(rot[2] - 90) scale(s)
//! ```
//!
//! whose first two turns take that frame to world space. Multiplied out in
//! world space (Z up) it is
//!
//! ```text
//! world = T(position) · Rz(rot[1] + 180°) · Ry(rot[0]) · Rx(rot[2]) · S(scale)
//! ```
//!
//! so the client turns a model first about X by `rot[2]`, then about Y by
//! `rot[0]`, then about Z (up) by `rot[1]` plus half a turn. The test
//! `adt_terrain` builds the spec's matrix step by step and compares.

use glam::{DMat4, DQuat, DVec3};

use super::coords::{file_to_world, world_to_file};
use crate::adt::Adt;
use crate::adt::names::{FileNames, NameOffsets};
use crate::adt::placement::{SMDoodadDef, SMMapObjDef, mddf_flags};

/// Which list a placement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PlacementKind {
    /// MDDF: an M2 model.
    Doodad,
    /// MODF: a WMO.
    MapObject,
}

/// One placement in world space.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placement {
    /// MDDF or MODF.
    pub kind: PlacementKind,
    /// The position in its list.
    pub index: usize,
    /// `nameId`: into MMID (doodads) or MWID (objects); a file data id for a
    /// doodad flagged `mddf_entry_is_filedata_id`.
    pub name_id: u32,
    /// The model's file name, resolved through MMID/MMDX or MWID/MWMO
    /// (`None` if the references do not lead to a name).
    pub model: Option<String>,
    /// `uniqueId`
    pub unique_id: u32,
    /// World position (yards).
    pub position: [f64; 3],
    /// The three angles as stored, in degrees (see the [module](self) docs
    /// for their order and axes).
    pub rotation: [f32; 3],
    /// 1.0 for map objects; `scale / 1024` for doodads.
    pub scale: f64,
    /// `flags` ([`mddf_flags`] or [`modf_flags`](crate::adt::placement::modf_flags)).
    pub flags: u16,
    /// MODF `extents` in world space, `[min, max]` (doodads: `None`).
    pub bounds: Option<[[f64; 3]; 2]>,
}

impl Placement {
    /// The fields both records have: `(nameId, uniqueId)`, position, rotation.
    fn placed(
        kind: PlacementKind,
        index: usize,
        ids: (u32, u32),
        position: [f32; 3],
        rotation: [f32; 3],
        flags: u16,
    ) -> Placement {
        Placement {
            kind,
            index,
            name_id: ids.0,
            model: None,
            unique_id: ids.1,
            position: file_to_world(position),
            rotation,
            scale: 1.0,
            flags,
            bounds: None,
        }
    }

    /// A doodad placement (`model` unresolved).
    pub fn from_doodad(index: usize, def: &SMDoodadDef) -> Placement {
        let ids = (def.name_id, def.unique_id);
        Placement {
            scale: f64::from(def.scale) / 1024.0,
            ..Placement::placed(
                PlacementKind::Doodad,
                index,
                ids,
                def.position,
                def.rotation,
                def.flags,
            )
        }
    }

    /// A map object placement (`model` unresolved), its box in world space.
    pub fn from_map_object(index: usize, def: &SMMapObjDef) -> Placement {
        let [a, b] = [def.extents.min, def.extents.max].map(file_to_world);
        let (mut min, mut max) = (a, a);
        for ((lo, hi), v) in min.iter_mut().zip(max.iter_mut()).zip(b) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
        let ids = (def.name_id, def.unique_id);
        Placement {
            bounds: Some([min, max]),
            ..Placement::placed(
                PlacementKind::MapObject,
                index,
                ids,
                def.position,
                def.rotation,
                def.flags,
            )
        }
    }

    /// The position as the file stores it (placement space).
    pub fn file_position(&self) -> [f32; 3] {
        world_to_file(self.position)
    }

    /// The doodad scale as the file stores it (1024 = 1.0), saturating.
    pub fn file_scale(&self) -> u16 {
        (self.scale * 1024.0)
            .round()
            .clamp(0.0, f64::from(u16::MAX)) as u16
    }

    /// The rotation in world space as a unit quaternion `[x, y, z, w]`.
    pub fn quaternion(&self) -> [f64; 4] {
        self.rotation_quat().to_array()
    }

    fn rotation_quat(&self) -> DQuat {
        let [r0, r1, r2] = self.rotation.map(|d| f64::from(d).to_radians());
        DQuat::from_rotation_z(r1 + std::f64::consts::PI)
            * DQuat::from_rotation_y(r0)
            * DQuat::from_rotation_x(r2)
    }

    /// The model-to-world matrix, column-major (`m[column][row]`, as glTF and
    /// OpenGL store them).
    pub fn matrix(&self) -> [[f64; 4]; 4] {
        DMat4::from_scale_rotation_translation(
            DVec3::splat(self.scale),
            self.rotation_quat(),
            DVec3::from_array(self.position),
        )
        .to_cols_array_2d()
    }

    /// A model-space point in world space.
    pub fn transform_point(&self, point: [f64; 3]) -> [f64; 3] {
        DMat4::from_cols_array_2d(&self.matrix())
            .transform_point3(DVec3::from_array(point))
            .to_array()
    }

    /// True for a doodad whose `nameId` is a file data id, not an MMID index.
    pub fn names_file_data_id(&self) -> bool {
        self.kind == PlacementKind::Doodad && self.flags & mddf_flags::ENTRY_IS_FILEDATA_ID != 0
    }
}

/// The name `ids[index]` points at in `names`.
fn resolve(names: Option<&FileNames>, ids: Option<&NameOffsets>, index: u32) -> Option<String> {
    let offset = *ids?.offsets.get(usize::try_from(index).ok()?)?;
    let name = names?.name_at(offset)?;
    Some(String::from_utf8_lossy(name).into_owned())
}

/// Every placement of a tile in world space, doodads (MDDF order) then map
/// objects (MODF order), with their models' file names.
pub fn placements(adt: &Adt) -> Vec<Placement> {
    let doodads = adt
        .mddf()
        .map(|m| m.doodad_defs.as_slice())
        .unwrap_or_default();
    let objects = adt
        .modf()
        .map(|m| m.map_obj_defs.as_slice())
        .unwrap_or_default();
    let mut out = Vec::with_capacity(doodads.len() + objects.len());
    for (i, def) in doodads.iter().enumerate() {
        let mut p = Placement::from_doodad(i, def);
        if !p.names_file_data_id() {
            p.model = resolve(adt.mmdx(), adt.mmid(), p.name_id);
        }
        out.push(p);
    }
    for (i, def) in objects.iter().enumerate() {
        let mut p = Placement::from_map_object(i, def);
        p.model = resolve(adt.mwmo(), adt.mwid(), p.name_id);
        out.push(p);
    }
    out
}
