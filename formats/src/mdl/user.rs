//! Blocks of the user's own: a chunk a model keeps as bytes
//! ([`Chunk::Unknown`]) whose type the user defined with
//! `#[derive(Codec, Mdl)]` is written and read as a block of its own
//! (`Marks "spawn" { ... }`) instead of `ExtChunk #"..."`.

use format_core::mdl::{Block, Cx, Out, Stmt};
use format_core::{
    Context, Decode, Encode, Error, FourCC, HasTag, Result, Tagged, UnknownChunk, decode, encode,
};

use crate::mdx::Chunk;

/// The types whose chunks MDL writes and reads as blocks of their own: each
/// a chunk of the user's (`#[format(chunk = "MYCK")]`) that is also a block
/// (`#[mdl(block = "Marks")]`). Pass them to [`to_string_with`](super::to_string_with)
/// and [`from_str_with`](super::from_str_with).
///
/// ```
/// use formats::core::FixedStr;
/// use formats::{Codec, Mdl};
///
/// #[derive(Codec, Mdl, Debug, PartialEq)]
/// #[format(chunk = "MYCK")]
/// #[mdl(block = "Marks", name = name)]
/// struct Marks {
///     name: FixedStr<32>,
///     #[format(count = u32)]
///     #[mdl(list)]
///     points: Vec<[f32; 3]>,
/// }
///
/// let blocks = formats::mdl::Blocks::new().with::<Marks>()?;
/// let mut model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let marks = Marks { name: FixedStr::try_from("spawn")?, points: vec![[1.0, 2.0, 3.0]] };
/// model.set_chunk(&marks)?;
///
/// let text = formats::mdl::to_string_with(&model, &blocks);
/// assert!(text.contains("Marks \"spawn\" {\n\tPoints 1 {\n\t\t{ 1, 2, 3 },"));
/// let back = formats::mdl::from_str_with(&text, &blocks)?;
/// assert_eq!(back.chunk::<Marks>().unwrap()?, marks);
/// assert_eq!(back.to_bytes()?, model.to_bytes()?);
/// // Without the type, the chunk is an `ExtChunk` (bytes) all the same.
/// assert!(formats::mdl::to_string(&model).contains("ExtChunk #\"4d59434b"));
/// # Ok::<(), formats::Error>(())
/// ```
#[derive(Clone, Default, Debug)]
pub struct Blocks {
    entries: Vec<UserBlock>,
}

/// One type of [`Blocks`]: its tag, its keyword, and how to go between the
/// chunk's bytes and the block.
#[derive(Clone, Copy)]
struct UserBlock {
    tag: FourCC,
    keyword: &'static str,
    /// Writes the chunk as the block; an error if its bytes do not decode
    /// as the type (the chunk is then written as bytes).
    write: fn(&UnknownChunk, Context, &mut Out) -> Result<()>,
    /// Reads the block into the chunk's bytes.
    read: fn(&Stmt, &mut Cx) -> Result<UnknownChunk>,
}

impl core::fmt::Debug for UserBlock {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} ({})", self.keyword, self.tag)
    }
}

/// The keywords of the blocks this crate reads itself (and `ExtChunk`).
const BUILT_IN: &[&str] = &[
    "Version",
    "Model",
    "Sequences",
    "GlobalSequences",
    "Textures",
    "Materials",
    "TextureAnims",
    "PivotPoints",
    "BindPose",
    "Geoset",
    "GeosetAnim",
    "Bone",
    "Light",
    "Helper",
    "Attachment",
    "ParticleEmitter",
    "ParticleEmitter2",
    "RibbonEmitter",
    "ParticleEmitterPopcorn",
    "Camera",
    "EventObject",
    "CollisionShape",
    "FaceFX",
    "ExtChunk",
];

impl Blocks {
    /// No blocks of the user's: MDL as [`to_string`](super::to_string) writes it.
    pub fn new() -> Blocks {
        Blocks::default()
    }

    /// Adds `T`. An error if its keyword is a block this crate reads
    /// (`Light`), its tag a chunk this crate reads (`LITE`), or either is
    /// another added type's.
    pub fn with<T>(mut self) -> Result<Blocks>
    where
        T: Block + Decode<Args = ()> + Encode<Args = ()> + HasTag,
    {
        let (tag, keyword) = (T::TAG, T::KEYWORD);
        let refuse = |why: String| Err(Error::other(why));
        if BUILT_IN.contains(&keyword) {
            return refuse(format!(
                "`{keyword}` is a block MDL reads itself, not one of the user's own"
            ));
        }
        if <Chunk as Tagged>::TAGS.contains(&tag) {
            return refuse(format!(
                "`{tag}` is a chunk the format reads itself, not one of the user's own"
            ));
        }
        if let Some(other) = self
            .entries
            .iter()
            .find(|e| e.tag == tag || e.keyword == keyword)
        {
            return refuse(format!(
                "`{keyword}` ({tag}) and `{}` ({}) share a tag or a keyword",
                other.keyword, other.tag
            ));
        }
        self.entries.push(UserBlock {
            tag,
            keyword,
            write: |kept, ctx, out| {
                let value: T = decode(&encode(kept, ctx)?, ctx)?;
                value.write_block(out);
                Ok(())
            },
            read: |stmt, cx| {
                let value = T::read_block(stmt, cx)?;
                let ctx = Context::new().with_version(cx.version);
                let bytes = encode(&value, ctx)?;
                decode(&bytes, ctx).map_err(|e| {
                    cx.error(
                        stmt.pos,
                        format!(
                            "`{}` does not encode as one chunk (tag, size, body): {e}",
                            T::KEYWORD
                        ),
                    )
                })
            },
        });
        Ok(self)
    }

    /// Writes `kept` as its block if a type of these has its tag and its
    /// bytes decode as that type; false otherwise (it is then written as
    /// bytes, so nothing is lost).
    pub(crate) fn write(&self, out: &mut Out, kept: &UnknownChunk, version: u32) -> bool {
        let Some(entry) = self.entries.iter().find(|e| e.tag == kept.tag) else {
            return false;
        };
        // The value is decoded before anything is written: a chunk that
        // does not decode leaves nothing half written.
        (entry.write)(kept, Context::new().with_version(version), out).is_ok()
    }

    /// Reads `stmt` if its keyword is one of these blocks'.
    pub(crate) fn read(&self, stmt: &Stmt, cx: &mut Cx) -> Option<Result<UnknownChunk>> {
        let key = stmt.key().1;
        let entry = self.entries.iter().find(|e| e.keyword == key)?;
        Some((entry.read)(stmt, cx))
    }
}
