//! Typed access to an MCNK's sub-chunks, and edits that keep them consistent
//! with each other (the header follows by itself: its fields are derived).

use format_core::{Derived, Error, Kept, Result};

use super::chunk::{Mcnk, flags as mcnk_flags};
use super::sub::{Mcal, Mclq, Mcly, Mcrf, Mcsh, Mcvt, SMLayer, layer_flags};
use super::sub_chunk::McnkChunk;
use crate::adt::alpha::{AlphaFormat, AlphaMap, EdgeFix};

macro_rules! accessors {
    ($($get:ident, $get_mut:ident, $variant:ident, $ty:ty, $tag:literal;)*) => {$(
        #[doc = concat!("The first `", $tag, "` sub-chunk.")]
        pub fn $get(&self) -> Option<&$ty> {
            self.chunks.iter().find_map(|c| match c {
                McnkChunk::$variant(m) => Some(m),
                _ => None,
            })
        }

        #[doc = concat!("The first `", $tag, "` sub-chunk, to change it.")]
        pub fn $get_mut(&mut self) -> Option<&mut $ty> {
            self.chunks.iter_mut().find_map(|c| match c {
                McnkChunk::$variant(m) => Some(m),
                _ => None,
            })
        }
    )*};
}

impl Mcnk {
    /// An MCNK at (`index_x`, `index_y`) with an empty header and no sub-chunks.
    pub fn new(index_x: u32, index_y: u32) -> Mcnk {
        Mcnk {
            flags: 0,
            index_x,
            index_y,
            n_layers: Derived::new(),
            n_doodad_refs: Derived::new(),
            holes_high_res: None,
            ofs_height: Derived::new(),
            ofs_normal: Derived::new(),
            ofs_layer: Derived::new(),
            ofs_refs: Derived::new(),
            ofs_alpha: Derived::new(),
            size_alpha: Derived::new(),
            ofs_shadow: Derived::new(),
            size_shadow: Derived::new(),
            areaid: 0,
            n_map_obj_refs: Derived::new(),
            holes_low_res: 0,
            unknown_but_used: 0,
            really_low_quality_textureing_map: [0; 16],
            no_effect_doodad: 0,
            ofs_snd_emitters: Derived::new(),
            n_snd_emitters: Derived::new(),
            ofs_liquid: Derived::new(),
            size_liquid: Derived::new(),
            position: [0.0; 3],
            ofs_mccv: Derived::new(),
            ofs_mclv: Derived::new(),
            unused: 0,
            chunks: Vec::new(),
            kept: Kept::new(),
        }
    }

    accessors! {
        heights, heights_mut, Mcvt, Mcvt, "MCVT";
        layers, layers_mut, Mcly, Mcly, "MCLY";
        references, references_mut, Mcrf, Mcrf, "MCRF";
        shadow, shadow_mut, Mcsh, Mcsh, "MCSH";
        alpha, alpha_mut, Mcal, Mcal, "MCAL";
        liquid, liquid_mut, Mclq, Mclq, "MCLQ";
    }

    /// The alpha map of every layer that has one (`use_alpha_map`), with the
    /// layer's index. `mphd_flags` are the map's WDT `MPHD` flags (bit depth);
    /// the edge fix comes from this chunk's `do_not_fix_alpha_map` flag.
    pub fn alpha_maps(&self, mphd_flags: u32) -> Result<Vec<(usize, AlphaMap)>> {
        let fix = EdgeFix::for_chunk(self.flags);
        let data = self.alpha().map(|m| m.data.as_slice()).unwrap_or_default();
        let layers = self
            .layers()
            .map(|m| m.layers.as_slice())
            .unwrap_or_default();
        layers
            .iter()
            .enumerate()
            .filter(|(_, layer)| layer.flags & layer_flags::USE_ALPHA_MAP != 0)
            .map(|(i, layer)| {
                let format = AlphaFormat::for_layer(layer.flags, mphd_flags);
                let start = layer.offset_in_mcal as usize;
                let bytes = data.get(start..).ok_or_else(|| {
                    Error::invalid(start, format!("layer {i}: offsetInMCAL past the MCAL end"))
                })?;
                AlphaMap::decode(bytes, format, fix)
                    .map(|(map, _)| (i, map))
                    .map_err(|e| e.in_field("alpha").at_index(i))
            })
            .collect()
    }

    /// The bytes of layer `index`'s alpha map in MCAL (empty if it has none).
    fn alpha_span(&self, index: usize, mphd_flags: u32) -> Result<std::ops::Range<usize>> {
        let layer = self.layer(index)?;
        if layer.flags & layer_flags::USE_ALPHA_MAP == 0 {
            let at = layer.offset_in_mcal as usize;
            return Ok(at..at);
        }
        let format = AlphaFormat::for_layer(layer.flags, mphd_flags);
        let start = layer.offset_in_mcal as usize;
        let data = self.alpha().map(|m| m.data.as_slice()).unwrap_or_default();
        let bytes = data
            .get(start..)
            .ok_or_else(|| Error::invalid(start, "offsetInMCAL past the MCAL end"))?;
        let (_, used) = AlphaMap::decode(bytes, format, EdgeFix::None)?;
        Ok(start..start + used)
    }

    fn layer(&self, index: usize) -> Result<SMLayer> {
        self.layers()
            .and_then(|m| m.layers.get(index))
            .copied()
            .ok_or_else(|| Error::other(format!("no texture layer {index}")))
    }

    /// Replaces layer `index`'s alpha map with `map` encoded as the layer's
    /// flags and `mphd_flags` say; later layers' `offsetInMCAL` follow.
    pub fn set_alpha_map(&mut self, index: usize, map: &AlphaMap, mphd_flags: u32) -> Result<()> {
        let layer = self.layer(index)?;
        if layer.flags & layer_flags::USE_ALPHA_MAP == 0 {
            return Err(Error::other(format!("layer {index} has no alpha map")));
        }
        let span = self.alpha_span(index, mphd_flags)?;
        let format = AlphaFormat::for_layer(layer.flags, mphd_flags);
        let bytes = map.encode(format, EdgeFix::for_chunk(self.flags));
        self.splice_alpha(span, &bytes)
    }

    /// Replaces `span` of MCAL with `bytes` and moves the offsets after it.
    fn splice_alpha(&mut self, span: std::ops::Range<usize>, bytes: &[u8]) -> Result<()> {
        let (start, old_len) = (span.start, span.len());
        let mcal = self
            .alpha_mut()
            .ok_or_else(|| Error::other("no MCAL sub-chunk"))?;
        if span.end > mcal.data.len() {
            return Err(Error::invalid(span.end, "alpha map past the MCAL end"));
        }
        mcal.data.splice(span, bytes.iter().copied());
        if let Some(mcly) = self.layers_mut() {
            for layer in &mut mcly.layers {
                let at = layer.offset_in_mcal as usize;
                if at > start {
                    let moved = (at + bytes.len()).saturating_sub(old_len);
                    layer.offset_in_mcal = u32::try_from(moved)
                        .map_err(|_| Error::invalid(at, "MCAL larger than 4 GiB"))?;
                }
            }
        }
        Ok(())
    }

    /// Removes texture layer `index` (not the base layer 0) and its alpha map;
    /// later layers' `offsetInMCAL` move down, and the low-quality texturing
    /// map (`predTex`, 2-bit layer numbers) and MCMT follow: entries naming the
    /// removed layer become layer 0, later ones shift down.
    pub fn remove_layer(&mut self, index: usize, mphd_flags: u32) -> Result<SMLayer> {
        if index == 0 {
            return Err(Error::other(
                "layer 0 is the base layer; it has no alpha map to remove",
            ));
        }
        let layer = self.layer(index)?;
        let span = self.alpha_span(index, mphd_flags)?;
        if !span.is_empty() {
            self.splice_alpha(span, &[])?;
        }
        if let Some(mcly) = self.layers_mut() {
            mcly.layers.remove(index);
        }
        let shift = |n: u8| -> u8 {
            match usize::from(n).cmp(&index) {
                std::cmp::Ordering::Less => n,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => n - 1,
            }
        };
        for byte in &mut self.really_low_quality_textureing_map {
            let mut out = 0u8;
            for slot in 0..4 {
                out |= shift((*byte >> (2 * slot)) & 3) << (2 * slot);
            }
            *byte = out;
        }
        for chunk in &mut self.chunks {
            if let McnkChunk::Mcmt(m) = chunk
                && index < m.material_id.len()
            {
                m.material_id.copy_within(index + 1.., index);
                if let Some(last) = m.material_id.last_mut() {
                    *last = 0;
                }
            }
        }
        Ok(layer)
    }

    /// Adds a reference to MDDF entry `doodad` (creating MCRF after MCLY, or
    /// before MCSH/MCAL, if there is none).
    pub fn add_doodad_ref(&mut self, doodad: u32) {
        if let Some(refs) = self.references_mut() {
            refs.doodad_refs.push(doodad);
            return;
        }
        let at = self
            .chunks
            .iter()
            .position(|c| matches!(c, McnkChunk::Mcly(_)))
            .map(|i| i + 1)
            .or_else(|| {
                self.chunks
                    .iter()
                    .position(|c| matches!(c, McnkChunk::Mcsh(_) | McnkChunk::Mcal(_)))
            })
            .unwrap_or(self.chunks.len());
        self.chunks.insert(
            at,
            McnkChunk::Mcrf(Mcrf {
                doodad_refs: vec![doodad],
                object_refs: Vec::new(),
            }),
        );
    }

    /// True if `flags` has all of `bits` (see [`flags`](super::flags)).
    pub fn has_flags(&self, bits: u32) -> bool {
        self.flags & bits == bits
    }

    /// True if this chunk's 4-bit alpha maps are 63x63 (`do_not_fix_alpha_map` clear).
    pub fn fixes_alpha_edges(&self) -> bool {
        !self.has_flags(mcnk_flags::DO_NOT_FIX_ALPHA_MAP)
    }
}
