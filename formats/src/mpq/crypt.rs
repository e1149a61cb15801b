//! MPQ's hashing and encryption: one table of 1,280 words (`0x500`), from
//! which names are hashed (where an entry sits in the hash table, and the
//! two checks that it is the one) and the tables and files are decrypted.

/// The table every hash and key stream is drawn from, computed at compile
/// time from its seed as the format defines it.
static CRYPT: [u32; 0x500] = crypt_table();

// `i + 0x100 * j` with `i < 0x100` and `j < 5` is always below 0x500.
#[allow(clippy::indexing_slicing)]
const fn crypt_table() -> [u32; 0x500] {
    let mut table = [0u32; 0x500];
    let mut seed: u32 = 0x0010_0001;
    let mut i = 0;
    while i < 0x100 {
        let mut index = i;
        let mut j = 0;
        while j < 5 {
            seed = (seed * 125 + 3) % 0x2A_AAAB;
            let high = (seed & 0xFFFF) << 16;
            seed = (seed * 125 + 3) % 0x2A_AAAB;
            table[index] = high | (seed & 0xFFFF);
            index += 0x100;
            j += 1;
        }
        i += 1;
    }
    table
}

/// Entry `i` of the table: every index the format uses is a byte plus a
/// multiple of 0x100 up to 0x400, always in the table.
fn crypt(i: usize) -> u32 {
    CRYPT.get(i).copied().unwrap_or_default()
}

/// What a name is hashed for: each use draws from its own quarter of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HashKind {
    /// Where the name's search starts in the hash table.
    Offset = 0,
    /// The first check (`name1`).
    NameA = 1,
    /// The second check (`name2`).
    NameB = 2,
    /// A file's (or a table's) encryption key.
    Key = 3,
}

/// The hash of `name`: case-insensitive (ASCII) and with `/` read as `\`,
/// as the games look names up.
pub(crate) fn hash(name: &[u8], kind: HashKind) -> u32 {
    let base = (kind as usize) << 8;
    let (mut seed1, mut seed2) = (0x7FED_7FEDu32, 0xEEEE_EEEEu32);
    for &byte in name {
        let c = match byte {
            b'/' => b'\\',
            _ => byte.to_ascii_uppercase(),
        } as u32;
        seed1 = crypt(base + c as usize) ^ seed1.wrapping_add(seed2);
        seed2 = c
            .wrapping_add(seed1)
            .wrapping_add(seed2)
            .wrapping_add(seed2 << 5)
            .wrapping_add(3);
    }
    seed1
}

/// Decrypts `data` in place with `key`, a little-endian word at a time; the
/// bytes after the last whole word are not encrypted and stay as they are.
pub(crate) fn decrypt(data: &mut [u8], mut key: u32) {
    let mut seed = 0xEEEE_EEEEu32;
    for word in data.as_chunks_mut::<4>().0 {
        seed = seed.wrapping_add(crypt(0x400 + (key & 0xFF) as usize));
        let plain = u32::from_le_bytes(*word) ^ key.wrapping_add(seed);
        key = ((!key << 0x15).wrapping_add(0x1111_1111)) | (key >> 0x0B);
        seed = plain
            .wrapping_add(seed)
            .wrapping_add(seed << 5)
            .wrapping_add(3);
        *word = plain.to_le_bytes();
    }
}

/// Encrypts `data` in place with `key`: what [`decrypt`] undoes (used to
/// build the sample archive and the tests' archives).
pub(crate) fn encrypt(data: &mut [u8], mut key: u32) {
    let mut seed = 0xEEEE_EEEEu32;
    for word in data.as_chunks_mut::<4>().0 {
        seed = seed.wrapping_add(crypt(0x400 + (key & 0xFF) as usize));
        let plain = u32::from_le_bytes(*word);
        let cipher = plain ^ key.wrapping_add(seed);
        key = ((!key << 0x15).wrapping_add(0x1111_1111)) | (key >> 0x0B);
        seed = plain
            .wrapping_add(seed)
            .wrapping_add(seed << 5)
            .wrapping_add(3);
        *word = cipher.to_le_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keys_are_the_formats_constants() {
        // The keys every MPQ reader hard-codes (StormLib's MPQ_KEY_HASH_TABLE
        // and MPQ_KEY_BLOCK_TABLE): the table and the hash agree with them.
        assert_eq!(hash(b"(hash table)", HashKind::Key), 0xC3AF_3770);
        assert_eq!(hash(b"(block table)", HashKind::Key), 0xEC83_B3A3);
    }

    #[test]
    fn names_hash_without_case_and_with_either_slash() {
        for kind in [
            HashKind::Offset,
            HashKind::NameA,
            HashKind::NameB,
            HashKind::Key,
        ] {
            assert_eq!(
                hash(b"Units\\Footman.mdx", kind),
                hash(b"units/FOOTMAN.MDX", kind)
            );
        }
    }

    #[test]
    fn encrypting_is_undone_by_decrypting() {
        let mut data: Vec<u8> = (0..=255).collect();
        encrypt(&mut data, 0xDEAD_BEEF);
        assert_ne!(data[..8], [0, 1, 2, 3, 4, 5, 6, 7]);
        decrypt(&mut data, 0xDEAD_BEEF);
        assert_eq!(data, (0..=255).collect::<Vec<u8>>());
    }

    #[test]
    fn decrypting_leaves_a_partial_word() {
        let mut data = [1, 2, 3, 4, 5, 6];
        decrypt(&mut data, 0x1234_5678);
        assert_eq!(&data[4..], &[5, 6]);
        assert_ne!(&data[..4], &[1, 2, 3, 4]);
    }
}
