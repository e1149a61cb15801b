//! A model viewed in place ([`Model::view`]): the derived [`ModelView`]
//! (its chunk walk) and what it says about itself, without building the
//! model. How views read and check the input is `format_core::view`'s.

use format_core::view::{ListView, PlainRun};
use format_core::{Context, HasTag, Result, View};

use super::chunk::ChunkView;
use super::geoset::Geoset;
use super::header::VersionChunk;
use super::model::{Model, ModelView};
use super::sequence::{Sequence, SequenceChunk};

impl Model {
    /// Views a model in place, strictly: only the chunk walk runs (each
    /// chunk's tag and size checked against the bytes left); a chunk's
    /// content is checked when it is first viewed, with the errors (offset
    /// and path) of [`from_bytes`](Self::from_bytes).
    ///
    /// ```
    /// use formats::mdx::Model;
    ///
    /// let data = formats::sample::sample_mdx();
    /// let view = Model::view(&data)?;
    /// assert_eq!(view.version(), 800);
    /// let geosets = view.geosets()?;
    /// assert_eq!(geosets.len(), 1);
    /// let first = geosets.iter().next().expect("one geoset");
    /// assert_eq!(first.vertex_positions.len(), 8);
    /// let owned = Model::from_bytes(&data)?;
    /// assert_eq!(first.vertex_positions.get(0), Some(owned.geosets()[0].vertex_positions[0]));
    /// assert_eq!(view.to_owned()?, owned);
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn view(data: &[u8]) -> Result<ModelView<'_>> {
        format_core::view::open::<Model>(data, Context::new())
    }
}

impl<'a> ModelView<'a> {
    /// The `VERS` version, or 800 for a file without `VERS`.
    pub fn version(&self) -> u32 {
        match self.chunks.chunk::<VersionChunk>() {
            Some(Ok(vers)) => vers.version,
            _ => 800,
        }
    }

    /// The geosets (`GEOS`), each viewed when iterated; empty without one.
    pub fn geosets(&self) -> Result<ListView<'a, Geoset>> {
        match self
            .chunks
            .find(<super::geoset::GeosetChunk as HasTag>::TAG)
        {
            Some(Ok(ChunkView::Geosets(geos))) => Ok(geos.geosets),
            Some(Err(e)) => Err(e),
            _ => Ok(ListView::empty(())),
        }
    }

    /// The sequences (`SEQS` before version 1300, 132-byte records in
    /// place); empty without one.
    pub fn sequences(&self) -> Result<PlainRun<'a, Sequence>> {
        match self.chunks.find(<SequenceChunk as HasTag>::TAG) {
            Some(Ok(ChunkView::Sequences(seqs))) => Ok(seqs.sequences),
            Some(Err(e)) => Err(e),
            _ => Ok(PlainRun::default()),
        }
    }

    /// The first chunk with `T`'s tag viewed as a `T` (a chunk of the
    /// user's own, kept by the model as unknown): `None` without one.
    ///
    /// ```
    /// use formats::{Codec, mdx::Model};
    ///
    /// #[derive(Codec, Debug, PartialEq)]
    /// #[format(chunk = "MYCK")]
    /// struct Mine {
    ///     #[format(count = u32)]
    ///     values: Vec<u16>,
    /// }
    ///
    /// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
    /// model.set_chunk(&Mine { values: vec![3, 4] })?;
    /// let data = model.to_bytes()?;
    /// let view = Model::view(&data)?;
    /// let mine = view.chunk::<Mine>().expect("written")?;
    /// assert_eq!(mine.values.iter().collect::<Vec<_>>(), [3, 4]);
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn chunk<T: View<Args = ()> + HasTag>(&self) -> Option<Result<T::View<'a>>> {
        self.chunks.chunk::<T>()
    }
}
