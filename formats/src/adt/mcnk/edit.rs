//! Typed access to an MCNK's sub-chunks, and edits that keep them consistent
//! with each other (the header follows by itself: its fields are derived).

use format_core::{Derived, Error, Kept, Result};

use super::chunk::{Mcnk, flags as mcnk_flags};
use super::sub::{Mcal, Mclq, Mcly, Mcrf, Mcsh, Mcvt, SMLayer, layer_flags};
use super::sub_chunk::McnkChunk;
use crate::adt::alpha::{AlphaFormat, AlphaMap, EdgeFix, MAP_SIZE};

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
        check_size(map)?;
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
        self.insert_in_order(McnkChunk::Mcrf(Mcrf {
            doodad_refs: vec![doodad],
            object_refs: Vec::new(),
        }));
    }

    /// Adds a texture layer after the last one and returns its index.
    ///
    /// `layer` gives the MTEX `texture_id`, the animation and overbright
    /// bits, the `alpha_map_compressed` wish and the `effect_id`; its
    /// `offsetInMCAL` and `use_alpha_map` flag are set here. The first layer
    /// of a chunk is its base and has no alpha map (`map` is `None`); every
    /// later layer's `map` is appended to MCAL, encoded as its flags and
    /// `mphd_flags` say (compressed only in a map of 8-bit alpha: elsewhere
    /// the compression flag is cleared, as the client reads such a layer as
    /// 4-bit anyway) and with this chunk's edge fix. MCLY and MCAL are
    /// created in their place among the sub-chunks when the chunk has none;
    /// the header's `nLayers`, offsets and `sizeAlpha` follow by themselves.
    ///
    /// A fifth layer (the client draws [`MAX_LAYERS`]), a later layer
    /// without a map, a base layer with one, or a map that is not 64x64 is
    /// an error that leaves the chunk as it was.
    ///
    /// ```
    /// use formats::adt::alpha::{AlphaFormat, AlphaMap};
    /// use formats::adt::mcnk::{Mcnk, SMLayer, layer_flags};
    ///
    /// let mut mcnk = Mcnk::new(0, 0);
    /// let base = SMLayer { texture_id: 0, effect_id: u32::MAX, ..SMLayer::default() };
    /// assert_eq!(mcnk.add_layer(base, None, 0)?, 0);
    /// // A path of grass across the chunk, on texture 1 of MTEX.
    /// let mut path = AlphaMap::filled(0);
    /// for x in 0..64 {
    ///     path.set(x, 31, 255);
    /// }
    /// let grass = SMLayer { texture_id: 1, effect_id: u32::MAX, ..SMLayer::default() };
    /// assert_eq!(mcnk.add_layer(grass, Some(&path), 0)?, 1);
    /// let layer = mcnk.layers().unwrap().layers[1];
    /// assert_eq!(layer.flags, layer_flags::USE_ALPHA_MAP);
    /// // 4-bit alpha (MPHD without big alpha) keeps 255 and 0 exactly.
    /// assert_eq!(mcnk.alpha_maps(0)?, [(1, path)]);
    /// # Ok::<(), format_core::Error>(())
    /// ```
    pub fn add_layer(
        &mut self,
        mut layer: SMLayer,
        map: Option<&AlphaMap>,
        mphd_flags: u32,
    ) -> Result<usize> {
        let index = self.layers().map_or(0, |m| m.layers.len());
        if index >= MAX_LAYERS {
            return Err(Error::other(format!(
                "the chunk has {index} texture layers already, the most the client draws"
            )));
        }
        let alpha_flags = layer_flags::USE_ALPHA_MAP | layer_flags::ALPHA_MAP_COMPRESSED;
        let encoded = match (index, map) {
            (0, None) => {
                layer.flags &= !alpha_flags;
                layer.offset_in_mcal = 0;
                None
            }
            (0, Some(_)) => {
                return Err(Error::other(
                    "layer 0 is the base layer: it has no alpha map",
                ));
            }
            (_, None) => {
                return Err(Error::other(format!(
                    "layer {index} needs an alpha map: only the base layer has none"
                )));
            }
            (_, Some(map)) => {
                check_size(map)?;
                let format = AlphaFormat::for_layer(layer.flags, mphd_flags);
                layer.flags =
                    (layer.flags & !alpha_flags) | layer_flags::USE_ALPHA_MAP | format.layer_flag();
                Some(map.encode(format, EdgeFix::for_chunk(self.flags)))
            }
        };
        if let Some(bytes) = encoded {
            if self.alpha().is_none() {
                self.insert_in_order(McnkChunk::Mcal(Mcal::default()));
            }
            let mcal = self
                .alpha_mut()
                .ok_or_else(|| Error::other("no MCAL sub-chunk"))?;
            layer.offset_in_mcal = u32::try_from(mcal.data.len())
                .map_err(|_| Error::other("MCAL larger than 4 GiB"))?;
            mcal.data.extend_from_slice(&bytes);
        }
        if self.layers().is_none() {
            self.insert_in_order(McnkChunk::Mcly(Mcly::default()));
        }
        self.layers_mut()
            .ok_or_else(|| Error::other("no MCLY sub-chunk"))?
            .layers
            .push(layer);
        Ok(index)
    }

    /// Inserts `chunk` where the client writes it: before the first
    /// sub-chunk that comes after it in [`ORDER`] (sub-chunks of other kinds
    /// are passed over), or at the end.
    fn insert_in_order(&mut self, chunk: McnkChunk) {
        let rank = |c: &McnkChunk| ORDER.iter().position(|t| c.tag() == *t);
        let mine = rank(&chunk);
        let at = self
            .chunks
            .iter()
            .position(|c| rank(c).is_some_and(|r| mine.is_some_and(|m| r > m)))
            .unwrap_or(self.chunks.len());
        self.chunks.insert(at, chunk);
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

/// The most texture layers an MCNK has (`nLayers`: "maximum 4").
pub const MAX_LAYERS: usize = 4;

/// The sub-chunks in the order the client's tiles hold them.
const ORDER: [&[u8; 4]; 15] = [
    b"MCVT", b"MCCV", b"MCLV", b"MCNR", b"MCLY", b"MCRF", b"MCRD", b"MCRW", b"MCSH", b"MCAL",
    b"MCLQ", b"MCSE", b"MCBB", b"MCMT", b"MCDD",
];

/// An alpha map to encode must be 64x64.
fn check_size(map: &AlphaMap) -> Result<()> {
    let want = MAP_SIZE * MAP_SIZE;
    if map.values.len() == want {
        Ok(())
    } else {
        Err(Error::other(format!(
            "an alpha map is 64x64 = {want} values, not {}",
            map.values.len()
        )))
    }
}
