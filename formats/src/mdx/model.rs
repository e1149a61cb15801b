//! A whole model ([`Model`]): its chunks in file order, how it is read and
//! written, and what it says about itself (version, `MODL`, unknown chunks).

use format_core::{
    Codec, Context, Decode, Diagnostic, Encode, HasTag, Mode, Reader, Result, UndecodedChunk,
    UnknownChunk, chunk_list,
};

use super::alpha;
use super::chunk::Chunk;
use super::header::{ModelChunk, VersionChunk};

/// A whole MDX file: `"MDLX"`, then its chunks in file order.
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(magic = "MDLX")]
pub struct Model {
    /// Every chunk, in file order (the derived chunk list of [`Chunk`]).
    #[format(until_end)]
    pub chunks: Vec<Chunk>,
}

impl Model {
    /// An empty model of `version`: a `VERS` chunk and an empty `MODL` (the
    /// alpha `MODL` from version 1300 on).
    pub fn new(version: u32) -> Model {
        let model = if version >= alpha::FIRST_VERSION {
            Chunk::AlphaModel(alpha::ModelChunk::default())
        } else {
            Chunk::Model(ModelChunk::default())
        };
        Model {
            chunks: vec![Chunk::Version(VersionChunk { version }), model],
        }
    }

    /// Reads a model in strict mode: anything out of spec is an error naming
    /// the byte offset and the path of fields.
    pub fn from_bytes(data: &[u8]) -> Result<Model> {
        format_core::decode(data, Context::new())
    }

    /// Reads a model in lenient mode: the out-of-spec layouts real files are
    /// known to have (a light track after the `LITE` chunk, a `BPOS` count
    /// larger than its chunk) are recovered, a last chunk the file ends inside
    /// is kept as its bytes ([`Chunk::Cut`]), so is a chunk whose size fits
    /// but whose content does not decode ([`Chunk::Undecoded`]), and each
    /// diagnostic says what was found, where, and what was done (the
    /// [module](super) docs' quirks table). Other damage (no `MDLX`, a tag cut
    /// short, a light track after a `LITE` chunk that does not decode) is
    /// still an error.
    ///
    /// ```
    /// use formats::mdx::{Chunk, Model};
    ///
    /// let mut data = formats::sample::sample_mdx();
    /// data.truncate(data.len() - 5); // inside the last chunk, PIVT
    /// assert!(Model::from_bytes(&data).is_err());
    /// let (model, diagnostics) = Model::from_bytes_lenient(&data)?;
    /// assert!(matches!(model.chunks.last(), Some(Chunk::Cut(cut)) if cut.tag.to_string() == "PIVT"));
    /// assert_eq!(model.geosets().len(), 1); // the chunks before it are there
    /// assert!(diagnostics[0].message.starts_with("chunks[7].PIVT: "));
    /// assert_eq!(model.to_bytes()?, data); // written back as cut
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Model, Vec<Diagnostic>)> {
        let mut r = Reader::with_context(data, Context::new().with_mode(Mode::Lenient));
        let model = Model::decode(&mut r, ())?;
        r.finish()?;
        Ok((model, r.take_diagnostics()))
    }

    /// Writes the model. An unedited model gives back the bytes it was read
    /// from; sizes and counts are computed from the data.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        format_core::encode(self, Context::new())
    }

    /// The `VERS` version, or 800 for a file without `VERS` (read with the
    /// version-800 layouts).
    pub fn version(&self) -> u32 {
        self.chunks
            .iter()
            .find_map(|chunk| match chunk {
                Chunk::Version(v) => Some(v.version),
                _ => None,
            })
            .unwrap_or(800)
    }

    /// The chunk a damaged file ends inside, kept as its bytes by
    /// [`from_bytes_lenient`](Self::from_bytes_lenient) (always the last
    /// chunk), if there is one: what the model lacks because of it (its
    /// geosets, when the tag is `GEOS`) is there, undecoded.
    ///
    /// ```
    /// let mut data = formats::sample::sample_mdx();
    /// data.truncate(data.len() - 5); // inside the last chunk, PIVT
    /// let (model, _) = formats::mdx::Model::from_bytes_lenient(&data)?;
    /// assert_eq!(model.cut_chunk().map(|c| c.tag.to_string()).as_deref(), Some("PIVT"));
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn cut_chunk(&self) -> Option<&format_core::CutChunk> {
        match self.chunks.last() {
            Some(Chunk::Cut(cut)) => Some(cut),
            _ => None,
        }
    }

    /// Why a leniently read model has no geosets, when it is because they
    /// are in a `GEOS` chunk kept as bytes: "the model's geosets are in the
    /// GEOS chunk the file ends inside (4992 of its 15960 bytes), kept as
    /// bytes", or "… in a GEOS chunk whose content does not decode (its 15960
    /// bytes are kept as read): `chunks[5].GEOS.geosets[0]…`".
    pub fn cut_geosets(&self) -> Option<String> {
        if let Some(cut) = self.cut_chunk().filter(|cut| cut.tag == *b"GEOS") {
            return Some(format!(
                "the model's geosets are in the GEOS chunk the file ends inside ({}), kept as \
                 bytes",
                cut.where_cut()
            ));
        }
        let (_, kept) = self
            .undecoded_chunks()
            .find(|(_, kept)| kept.tag == *b"GEOS")?;
        Some(format!(
            "the model's geosets are in a GEOS chunk whose {}",
            kept.damage().trim_start_matches("its ")
        ))
    }

    /// The chunks a lenient read kept as their bytes because their content
    /// does not decode ([`Chunk::Undecoded`]), with their indices: what the
    /// model lacks, undecoded.
    ///
    /// ```
    /// let mut data = formats::sample::sample_mdx();
    /// let size_at = data.len() - 16; // the last chunk, PIVT, 12 bytes
    /// data[size_at] = 11;
    /// data.pop();
    /// let (model, _) = formats::mdx::Model::from_bytes_lenient(&data)?;
    /// let kept: Vec<_> = model.undecoded_chunks().map(|(i, c)| (i, c.tag.to_string())).collect();
    /// assert_eq!(kept, [(7, "PIVT".to_string())]);
    /// assert!(model.pivot_points().is_empty());
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn undecoded_chunks(&self) -> impl Iterator<Item = (usize, &UndecodedChunk)> {
        self.chunks
            .iter()
            .enumerate()
            .filter_map(|(index, chunk)| match chunk {
                Chunk::Undecoded(kept) => Some((index, kept)),
                _ => None,
            })
    }

    /// The `MODL` chunk (name, bounds, blend time).
    pub fn model_chunk(&self) -> Option<&ModelChunk> {
        self.chunks.iter().find_map(|chunk| match chunk {
            Chunk::Model(m) => Some(m),
            _ => None,
        })
    }

    /// The alpha `MODL` chunk (versions 1300 to 1500).
    pub fn alpha_model_chunk(&self) -> Option<&alpha::ModelChunk> {
        self.chunks.iter().find_map(|chunk| match chunk {
            Chunk::AlphaModel(m) => Some(m),
            _ => None,
        })
    }

    /// The chunks no definition knows, kept verbatim.
    pub fn unknown_chunks(&self) -> impl Iterator<Item = &UnknownChunk> {
        self.chunks.iter().filter_map(|chunk| match chunk {
            Chunk::Unknown(u) => Some(u),
            _ => None,
        })
    }

    /// The first chunk with `T`'s tag, decoded as a `T`: a chunk of the
    /// user's own, which the model keeps as an [`UnknownChunk`] in place
    /// (`T` derives `Codec` with `#[format(chunk = "....")]`). Decoded in the
    /// model's context (its version). `None` if the model has no such chunk;
    /// an error if it does not decode (its path names the chunk,
    /// `chunks[12].MYCK.…`; its offset counts from the chunk's tag, not from
    /// the start of a file: the model may have changed since it was read),
    /// or if the tag is one this crate reads itself (use its [`Chunk`]
    /// variant).
    ///
    /// ```
    /// use formats::{Codec, mdx::Model};
    ///
    /// #[derive(Codec, Debug, PartialEq)]
    /// #[format(chunk = "MYCK")]
    /// struct Mine {
    ///     value: u32,
    /// }
    ///
    /// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
    /// assert!(model.chunk::<Mine>().is_none());
    /// model.set_chunk(&Mine { value: 7 })?;
    /// let back = Model::from_bytes(&model.to_bytes()?)?;
    /// assert_eq!(back.chunk::<Mine>().transpose()?, Some(Mine { value: 7 }));
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn chunk<T: Decode<Args = ()> + HasTag>(&self) -> Option<Result<T>> {
        chunk_list::chunk(&self.chunks, self.context())
    }

    /// Puts `value` in place of the first chunk with its tag, or after the
    /// last chunk: see [`chunk`](Model::chunk). An error if `value` does not
    /// encode as one chunk, or if its tag is one this crate reads itself.
    pub fn set_chunk<T: Encode<Args = ()> + HasTag>(&mut self, value: &T) -> Result<()> {
        let ctx = self.context();
        chunk_list::set_chunk(&mut self.chunks, value, ctx)
    }

    /// Moves every light track a file stored after its `LITE` chunk into its
    /// light, so the written sizes include it (`MDX_VERSIONS.md` §8.3). Returns
    /// how many tracks moved.
    pub fn repair_sizes(&mut self) -> usize {
        let mut moved = 0;
        for chunk in &mut self.chunks {
            if let Chunk::Lights(lights) = chunk {
                moved += lights.repair_sizes();
            }
        }
        moved
    }

    /// The context the model's chunks are read and written in: its version.
    fn context(&self) -> Context {
        Context::new().with_version(self.version())
    }
}
