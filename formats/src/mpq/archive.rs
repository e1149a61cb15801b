//! [`Archive`]: an MPQ archive opened over its bytes, its tables read and
//! decrypted, its entries named from its `(listfile)` and read on demand.

use std::borrow::Cow;
use std::collections::HashMap;

use format_core::Diagnostic;

use super::crypt::{HashKind, decrypt, hash};
use super::error::{EntryError, Error};
use super::header::{HEADER_MAGIC, Header, HeaderV2, USER_DATA_MAGIC, UserDataHeader};
use super::sector::Stored;
use super::table::{BlockEntry, HashEntry, flags};

/// Names looked up in every archive besides those its `(listfile)` gives:
/// the archive's own special files, and the files every Warcraft III map
/// has (protected maps drop their listfile; these still find their files).
pub const KNOWN_NAMES: &[&str] = &[
    "(listfile)",
    "(attributes)",
    "(signature)",
    "war3map.j",
    "scripts\\war3map.j",
    "war3map.lua",
    "war3map.w3e",
    "war3map.w3i",
    "war3map.wtg",
    "war3map.wct",
    "war3map.wts",
    "war3map.shd",
    "war3map.mmp",
    "war3map.wpm",
    "war3map.doo",
    "war3mapUnits.doo",
    "war3map.w3r",
    "war3map.w3c",
    "war3map.w3s",
    "war3map.w3u",
    "war3map.w3t",
    "war3map.w3a",
    "war3map.w3b",
    "war3map.w3d",
    "war3map.w3q",
    "war3map.w3h",
    "war3map.imp",
    "war3mapMap.blp",
    "war3mapMap.b00",
    "war3mapMap.tga",
    "war3mapPreview.tga",
    "war3mapPath.tga",
    "war3mapMisc.txt",
    "war3mapSkin.txt",
    "war3mapExtra.txt",
];

/// An MPQ archive (Warcraft III maps `.w3m`/`.w3x`, campaigns `.w3n`, the
/// games' `.mpq` data), over the bytes of its file.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let bytes = formats::sample::sample_mpq();
/// let archive = formats::mpq::Archive::new(&bytes)?;
/// for entry in archive.entries() {
///     println!("{} ({} bytes)", entry.name(), entry.block.file_size);
/// }
/// let model = archive.read("Units\\Footman.mdx")?;
/// assert_eq!(&model[..4], b"MDLX");
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Archive<'a> {
    bytes: &'a [u8],
    start: u64,
    header: Header,
    header_v2: Option<HeaderV2>,
    hash_table: Vec<HashEntry>,
    block_table: Vec<BlockEntry>,
    names: HashMap<(u32, u32), Box<[u8]>>,
    diagnostics: Vec<Diagnostic>,
}

/// One entry of an archive: a used slot of its hash table and the block it
/// points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name as the archive's `(listfile)` (or [`KNOWN_NAMES`]) gives
    /// it, byte for byte; `None` if neither does.
    pub name: Option<Box<[u8]>>,
    /// Its slot in the hash table.
    pub hash: HashEntry,
    /// Its block.
    pub block: BlockEntry,
    /// Where its bytes start in the file.
    pub offset: u64,
}

impl Entry {
    /// Its name (invalid UTF-8 replaced), or `File00000012.xxx` (its block
    /// index, as StormLib names them) when the archive does not name it;
    /// [`Archive::entry`] finds it by either.
    pub fn name(&self) -> Cow<'_, str> {
        match &self.name {
            Some(name) => String::from_utf8_lossy(name),
            None => Cow::Owned(format!("File{:08}.xxx", self.hash.block_index)),
        }
    }
}

impl<'a> Archive<'a> {
    /// Opens the archive in `bytes`: finds its header (at 0 or a multiple
    /// of 512), reads and decrypts its hash and block tables, and names its
    /// entries from its `(listfile)`.
    ///
    /// What protected Warcraft III maps do is read as the game reads it,
    /// with a [`Diagnostic`] each: a header with another version number or
    /// size (read as version 1), tables that claim more entries than the
    /// file holds (the entries there are read), a `(listfile)` that cannot
    /// be read.
    pub fn new(bytes: &'a [u8]) -> Result<Self, Error> {
        let mut diagnostics = Vec::new();
        let start = find_header(bytes)?;
        let at = start as usize;
        let header: Header = decode_at(bytes, at + 4).map_err(|source| Error::Header {
            offset: start,
            source,
        })?;
        let header_v2 = match header.has_v2_fields() {
            true => Some(decode_at(bytes, at + 32).map_err(|source| Error::Header {
                offset: start,
                source,
            })?),
            false => {
                if header.format_version != 0 || header.header_size != 32 {
                    diagnostics.push(Diagnostic {
                        offset: at,
                        message: format!(
                            "the header says version {} and {} bytes: read as version 1 \
                             (32 bytes), as Warcraft III reads it",
                            u32::from(header.format_version) + 1,
                            header.header_size
                        ),
                    });
                }
                None
            }
        };
        let high = |h: u16| (h as u64) << 32;
        let (hash_high, block_high) = header_v2.map_or((0, 0), |v2: HeaderV2| {
            (
                high(v2.hash_table_offset_high),
                high(v2.block_table_offset_high),
            )
        });
        let hash_table = read_table(
            bytes,
            "hash table",
            start + hash_high + header.hash_table_offset as u64,
            header.hash_table_entries,
            hash(b"(hash table)", HashKind::Key),
            &mut diagnostics,
        )?;
        if hash_table.is_empty() {
            return Err(Error::EmptyHashTable);
        }
        let block_table = read_table(
            bytes,
            "block table",
            start + block_high + header.block_table_offset as u64,
            header.block_table_entries,
            hash(b"(block table)", HashKind::Key),
            &mut diagnostics,
        )?;
        let mut archive = Archive {
            bytes,
            start,
            header,
            header_v2,
            hash_table,
            block_table,
            names: HashMap::new(),
            diagnostics,
        };
        archive.name_entries();
        Ok(archive)
    }

    /// Names what `(listfile)` and [`KNOWN_NAMES`] name.
    fn name_entries(&mut self) {
        let mut names: Vec<Box<[u8]>> = KNOWN_NAMES.iter().map(|n| n.as_bytes().into()).collect();
        match self.read("(listfile)") {
            Ok(list) => names.extend(
                list.split(|b| matches!(b, b'\r' | b'\n' | b';'))
                    .map(<[u8]>::trim_ascii)
                    .filter(|n| !n.is_empty())
                    .map(Box::from),
            ),
            Err(Error::NotFound { .. }) => {}
            Err(e) => self.diagnostics.push(Diagnostic {
                offset: self.start as usize,
                message: format!("the (listfile) cannot be read, its entries are unnamed: {e}"),
            }),
        }
        for name in names {
            let key = (hash(&name, HashKind::NameA), hash(&name, HashKind::NameB));
            self.names.entry(key).or_insert(name);
        }
    }

    /// The archive header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// What version 2 adds to the header, if the archive has it.
    pub fn header_v2(&self) -> Option<&HeaderV2> {
        self.header_v2.as_ref()
    }

    /// Where the archive starts in the file (512 for a Warcraft III map).
    pub fn offset(&self) -> u64 {
        self.start
    }

    /// The hash table, decrypted.
    pub fn hash_table(&self) -> &[HashEntry] {
        &self.hash_table
    }

    /// The block table, decrypted.
    pub fn block_table(&self) -> &[BlockEntry] {
        &self.block_table
    }

    /// What was out of spec and how it was read.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Every entry: each used slot of the hash table whose block exists,
    /// named where the archive names it, sorted by name (unnamed ones last,
    /// by block).
    pub fn entries(&self) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .hash_table
            .iter()
            .filter_map(|slot| self.entry_of(slot))
            .collect();
        entries.sort_by(|a, b| match (&a.name, &b.name) {
            (Some(x), Some(y)) => x.cmp(y).then(a.hash.locale.cmp(&b.hash.locale)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.hash.block_index.cmp(&b.hash.block_index),
        });
        entries
    }

    fn entry_of(&self, slot: &HashEntry) -> Option<Entry> {
        if !slot.is_used() {
            return None;
        }
        let block = *self.block_table.get(slot.block_index as usize)?;
        if !block.has(flags::EXISTS) {
            return None;
        }
        Some(Entry {
            name: self.names.get(&(slot.name1, slot.name2)).cloned(),
            hash: *slot,
            block,
            offset: self.start + block.offset as u64,
        })
    }

    /// The entry named `name` (any case, `/` or `\`; the neutral locale
    /// first), or named `File00000012.xxx` by its block index as
    /// [`Entry::name`] gives unnamed ones.
    pub fn entry(&self, name: &str) -> Option<Entry> {
        // `entry_of` names an unnamed entry too, where the archive names it.
        self.find(name.as_bytes()).or_else(|| self.unnamed(name))
    }

    fn find(&self, name: &[u8]) -> Option<Entry> {
        let n = self.hash_table.len();
        let (a, b) = (hash(name, HashKind::NameA), hash(name, HashKind::NameB));
        let first = hash(name, HashKind::Offset) as usize % n;
        let mut found: Option<Entry> = None;
        for i in 0..n {
            let slot = self.hash_table.get((first + i) % n)?;
            if slot.block_index == HashEntry::EMPTY {
                break;
            }
            if slot.name1 == a
                && slot.name2 == b
                && let Some(mut entry) = self.entry_of(slot)
            {
                entry.name = Some(name.into());
                if slot.locale == 0 {
                    return Some(entry);
                }
                found.get_or_insert(entry);
            }
        }
        found
    }

    fn unnamed(&self, name: &str) -> Option<Entry> {
        let index: u32 = name
            .strip_prefix("File")?
            .strip_suffix(".xxx")?
            .parse()
            .ok()?;
        self.hash_table
            .iter()
            .filter(|slot| slot.block_index == index)
            .find_map(|slot| self.entry_of(slot))
    }

    /// The bytes of the entry named `name` (see [`Archive::entry`]).
    pub fn read(&self, name: &str) -> Result<Vec<u8>, Error> {
        let entry = self.entry(name).ok_or_else(|| Error::NotFound {
            name: name.to_owned(),
        })?;
        self.read_entry(&entry)
    }

    /// The bytes of `entry`: decrypted and decompressed.
    pub fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>, Error> {
        let failed = |source| Error::Entry {
            entry: entry.name().into_owned(),
            offset: entry.offset,
            source,
        };
        let block = entry.block;
        let sector_size = self.header.sector_size().ok_or_else(|| {
            failed(EntryError::SectorSize {
                shift: self.header.sector_size_shift,
            })
        })?;
        let key = match (block.has(flags::ENCRYPTED), &entry.name) {
            (false, _) => None,
            (true, None) => return Err(failed(EntryError::EncryptedWithoutName)),
            (true, Some(name)) => {
                let base = name
                    .rsplit(|b| matches!(b, b'\\' | b'/'))
                    .next()
                    .unwrap_or(name);
                let key = hash(base, HashKind::Key);
                Some(match block.has(flags::FIX_KEY) {
                    true => key.wrapping_add(block.offset) ^ block.file_size,
                    false => key,
                })
            }
        };
        let data = usize::try_from(entry.offset)
            .ok()
            .and_then(|at| self.bytes.get(at..))
            .ok_or_else(|| {
                failed(EntryError::OutOfBounds {
                    what: "its data".into(),
                    offset: entry.offset,
                    needed: block.compressed_size as u64,
                    len: self.bytes.len(),
                })
            })?;
        Stored {
            data,
            offset: entry.offset,
            file_len: self.bytes.len(),
            block,
            key,
            sector_size,
        }
        .read()
        .map_err(failed)
    }
}

/// Where the archive header is: the first `MPQ\x1A` at a multiple of 512,
/// or the one a `MPQ\x1B` user-data header there points to.
fn find_header(bytes: &[u8]) -> Result<u64, Error> {
    for at in (0..bytes.len()).step_by(512) {
        match bytes.get(at..at + 4) {
            Some(m) if m == HEADER_MAGIC => return Ok(at as u64),
            Some(m) if m == USER_DATA_MAGIC => {
                let Ok(user) = decode_at::<UserDataHeader>(bytes, at + 4) else {
                    continue;
                };
                let to = at + user.header_offset as usize;
                if bytes.get(to..to + 4) == Some(&HEADER_MAGIC[..]) {
                    return Ok(to as u64);
                }
            }
            _ => {}
        }
    }
    Err(Error::NoHeader { len: bytes.len() })
}

/// Decodes a plain record at `at` (an error's offset is the file's).
fn decode_at<T: format_core::Decode<Args = ()>>(
    bytes: &[u8],
    at: usize,
) -> Result<T, format_core::Error> {
    let mut r = format_core::Reader::new(bytes);
    r.skip(at)?;
    T::decode(&mut r, ())
}

/// A table of 16-byte entries at `offset`, decrypted with `key`: as many
/// entries as the file holds, if it holds fewer than `entries`.
fn read_table<T: format_core::Plain>(
    bytes: &[u8],
    table: &'static str,
    offset: u64,
    entries: u32,
    key: u32,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<T>, Error> {
    let rest = usize::try_from(offset)
        .ok()
        .and_then(|at| bytes.get(at..))
        .ok_or(Error::TableOutOfBounds {
            table,
            offset,
            len: bytes.len(),
        })?;
    let wanted = entries as u64 * 16;
    let there = (rest.len() as u64 / 16) * 16;
    if wanted > there {
        diagnostics.push(Diagnostic {
            offset: offset as usize,
            message: format!(
                "the {table} has {entries} entries, the file holds {}: read those",
                there / 16
            ),
        });
    }
    let mut raw = rest
        .get(..wanted.min(there) as usize)
        .unwrap_or_default()
        .to_vec();
    decrypt(&mut raw, key);
    format_core::Reader::new(&raw)
        .plain_vec(raw.len() / 16)
        .map_err(|source| Error::Header { offset, source })
}
