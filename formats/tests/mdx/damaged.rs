//! Damaged real files. A model whose file ends inside its last chunk: the
//! strict reader refuses it; the lenient reader keeps that chunk as its bytes
//! (`Chunk::Cut`) with a diagnostic naming the chunk and where it starts,
//! reads every chunk before it, and writes the cut file back byte for byte.
//! Built from every corpus model, cut at several points inside its last chunk.
//! Such a model also goes through MDL (the cut chunk as an `ExtChunk`, read
//! back only leniently) and through a version conversion (the cut chunk kept
//! last, as it was, and reported) and comes back byte for byte.
//!
//! A model with a chunk whose size fits but whose content does not decode:
//! the public `Glow.mdx` (`../shared/wild/nazarpunk_clid_short.mdx`), whose
//! last chunk, `CLID`, ends at the end of the file but holds a collision
//! cylinder 20 bytes short, and a model built here with such a chunk before
//! its last one. The lenient reader keeps the chunk as its bytes
//! (`Chunk::Undecoded`) in its place, with the strict reader's error as its
//! diagnostic; the file writes back byte for byte, through MDL too, and a
//! conversion and `validate` say what it is.

use crate::common;

use common::{cut_in_last_chunk, last_chunk_start};
use formats::convert::{Options, convert};
use formats::mdx::{Chunk, Model};

/// Reads `data` (the file of `model`) cut to `len` bytes, inside the last
/// chunk (which starts at `start`), and checks everything the lenient reader
/// promises.
fn check_cut(path: &str, model: &Model, data: &[u8], start: usize, len: usize) {
    let cut = &data[..len];
    let at = format!("{path} cut to {len} bytes (last chunk at {start:#x})");
    assert!(
        Model::from_bytes(cut).is_err(),
        "{at}: strict read accepts it"
    );
    let (read, diagnostics) =
        Model::from_bytes_lenient(cut).unwrap_or_else(|e| panic!("{at}: lenient read: {e}"));
    let index = model.chunks.len() - 1;
    let tag = model.chunks[index].tag();
    // The chunks before the cut one are read as they were (compared by
    // `Debug`, which unlike `==` takes a NaN for itself, and by their bytes).
    assert_eq!(read.chunks.len(), model.chunks.len(), "{at}");
    let before = |m: &Model| format!("{:?}", &m.chunks[..index]);
    assert!(
        before(&read) == before(model),
        "{at}: the chunks before differ"
    );
    let before = Model {
        chunks: read.chunks[..index].to_vec(),
    };
    assert!(before.to_bytes().unwrap() == data[..start], "{at}");
    // The cut one is kept as its bytes.
    let Some(Chunk::Cut(kept)) = read.chunks.last() else {
        panic!("{at}: the last chunk is {:?}", read.chunks.last());
    };
    // One diagnostic names it, by path and offset.
    let named = format!("chunks[{index}].{tag}: ");
    common::check_cut_chunk(kept, tag, &diagnostics, &named, (start, len), &at);
    // Written back: the cut file, exactly.
    assert_eq!(read.to_bytes().unwrap(), cut, "{at}");
}

#[test]
fn a_model_cut_inside_its_collision_chunk_reads_leniently_like_glow_mdx() {
    let Some(data) = common::corpus_file("mdx/zf_all.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    assert_eq!(model.chunks.last().unwrap().tag().to_string(), "CLID");
    let start = last_chunk_start(&model);
    // As a walk over the chunk headers finds it: CLID at 9046, 240 bytes.
    assert_eq!((start, data.len()), (9046, 9294));
    // In the middle of CLID, as Glow.mdx is.
    let len = start + (data.len() - start) / 2;
    let cut = &data[..len];
    assert_eq!(
        Model::from_bytes(cut).unwrap_err().to_string(),
        "chunks[19].CLID: chunk size 240 at 0x235a exceeds the 116 bytes left"
    );
    let (read, diagnostics) = Model::from_bytes_lenient(cut).unwrap();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].offset, 0x2356);
    assert_eq!(
        diagnostics[0].to_string(),
        "at 0x2356: chunks[19].CLID: invalid value at 0x2356: the file ends inside this chunk: \
         124 of its 240 bytes are missing; kept its 124 bytes from 0x2356 as they \
         are (Chunk::Cut), to be written back unchanged; the chunks before it are read (the \
         strict reader's error: CLID: chunk size 240 at 0x235a exceeds the 116 bytes left)"
    );
    // The model before it is usable: its geosets, bones, emitters, ...
    assert_eq!(read.geosets().len(), 2);
    assert_eq!(read.bones().len(), 2);
    assert_eq!(read.ribbon_emitters().len(), 3);
    assert!(read.collision_shapes().is_empty());
    assert_eq!(read.to_bytes().unwrap(), cut);
    check_cut("mdx/zf_all.mdx", &model, &data, start, len);
}

#[test]
fn every_corpus_model_cut_inside_its_last_chunk_reads_leniently_and_writes_back() {
    let files = common::manifest_models(0..=u32::MAX);
    let mut cuts = 0;
    for (file, data) in &files {
        let model = Model::from_bytes(data)
            .or_else(|_| Model::from_bytes_lenient(data).map(|(m, _)| m))
            .unwrap();
        let start = last_chunk_start(&model);
        let end = data.len();
        // After the tag: in the size, right after the header, a byte into
        // the body, in the middle, one byte short.
        let mut lengths = vec![start + 4, start + 6, start + 8, start + 9];
        lengths.extend([start + (end - start) / 2, end - 1]);
        lengths.retain(|&len| len < end);
        lengths.sort_unstable();
        lengths.dedup();
        for len in lengths {
            check_cut(&file.path, &model, data, start, len);
            cuts += 1;
        }
        // Inside the tag there is no chunk to keep: still an error, at its offset.
        let e = Model::from_bytes_lenient(&data[..start + 2]).unwrap_err();
        assert_eq!(e.offset(), start, "{}: {e}", file.path);
    }
    if !files.is_empty() {
        assert_eq!(files.len(), 57);
        println!("{cuts} cuts of {} models", files.len());
        assert!(cuts >= 57 * 5, "{cuts}");
    }
}

/// An edit keeps the cut chunk where it is: the model before it is usable
/// and what was cut stays as it was.
#[test]
fn an_edited_model_keeps_its_cut_chunk_at_the_end() {
    let mut data = formats::sample::sample_mdx();
    data.truncate(data.len() - 5); // inside PIVT, the last chunk
    let (mut model, _) = Model::from_bytes_lenient(&data).unwrap();
    model.sequences_mut()[0].name.set("Stand Ready").unwrap();
    let bytes = model.to_bytes().unwrap();
    assert_eq!(bytes.len(), data.len());
    assert_eq!(bytes[bytes.len() - 20..], data[data.len() - 20..]);
    let (back, _) = Model::from_bytes_lenient(&bytes).unwrap();
    assert_eq!(back.sequences()[0].name.to_string_lossy(), "Stand Ready");
    assert!(matches!(back.chunks.last(), Some(Chunk::Cut(_))));
}

/// The cut chunk of a corpus model (each under 200 KB) cut in the middle of
/// its last chunk goes into MDL as an `ExtChunk` of the bytes there are, last: the strict
/// MDL reader refuses it, naming the chunk; the lenient one keeps it as
/// `Chunk::Cut` with a diagnostic, and MDX -> MDL -> MDX gives the damaged
/// file back. Nothing may follow it (in MDX it runs to the end of the file).
/// Plain MDL leaves it out and says so.
#[test]
fn a_cut_model_goes_through_mdl_and_back_byte_exact() {
    // The 47 under 200 KB: through MDL five times, the ten larger (up to
    // 1.6 MB) took twelve of the test's fourteen seconds unoptimised.
    let files: Vec<_> = common::manifest_models(0..=u32::MAX)
        .into_iter()
        .filter(|(_, data)| data.len() < 200_000)
        .collect();
    let mut tried_after = false;
    for (file, data) in &files {
        let at = &file.path;
        let (cut, start) = cut_in_last_chunk(data);
        let (model, _) = Model::from_bytes_lenient(&cut).unwrap();
        let Some(Chunk::Cut(kept)) = model.chunks.last() else {
            panic!("{at}: not cut");
        };
        let text = formats::mdl::to_string(&model);
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("ExtChunk #\""), "{at}: {last}");
        let what = match kept.declared_size() {
            Some(size) => format!("{} of its {size} bytes", kept.body().len()),
            None => "in its size".to_string(),
        };
        assert_eq!(kept.bytes.len(), cut.len() - start - 4, "{at}");
        let chunk = format!("the `{}` chunk the file ends inside ({what})", kept.tag);
        let named = format!("ExtChunk holds {chunk}");
        let e = formats::mdl::from_str(&text).unwrap_err().to_string();
        assert!(e.contains(&named), "{at}: {e}");
        let (back, diagnostics) = formats::mdl::from_str_lenient(&text).unwrap();
        assert!(
            diagnostics
                .iter()
                .any(|d| d.message.contains(&named)
                    && d.message.contains("kept its bytes as they are")),
            "{at}: {diagnostics:?}"
        );
        assert_eq!(back.chunks.last(), model.chunks.last(), "{at}");
        assert!(
            back.to_bytes().unwrap() == cut,
            "{at}: not the damaged file"
        );
        // A block after it would be read, in MDX, as its missing bytes.
        if at == "mdx/zf_all.mdx" {
            let after = format!("{text}Helper \"after\" {{\n}}\n");
            let e = formats::mdl::from_str_lenient(&after).unwrap_err();
            assert!(
                e.to_string().contains("nothing can follow the ExtChunk"),
                "{at}: {e}"
            );
            tried_after = true;
        }
        if (800..=1200).contains(&model.version()) {
            let plain = formats::mdl::to_string_plain(&model).unwrap();
            assert!(
                plain.left_out.iter().any(|l| l.what.starts_with(&chunk)),
                "{at}: {:?}",
                plain.left_out
            );
            let read = formats::mdl::from_str(&plain.text).unwrap();
            assert!(!read.chunks.iter().any(|c| matches!(c, Chunk::Cut(_))));
        }
    }
    if !files.is_empty() {
        assert_eq!(files.len(), 47);
        assert!(tried_after);
    }
}

/// A version conversion of a damaged model keeps its cut chunk last, as it
/// was, and reports it (`Report::kept`, named as in the source), on corpus
/// models of every Warcraft III version cut in the middle of their last
/// chunk: classic ones go to 1000 and back to the damaged file byte for
/// byte (as the whole files come back); Reforged ones go to 800 (and 1000
/// to 1100, the others to 1000). A handful, not the corpus: converting
/// every model took a minute and a half unoptimised.
#[test]
fn a_version_conversion_keeps_a_cut_chunk_last_and_reports_it() {
    let options = Options {
        // The skinning error is measured by tests/convert/versions.rs.
        error_step: 0,
        ..Options::default()
    };
    let (mut converted, mut exact) = (0, 0);
    for name in [
        "zf_all",
        "rms_PackHorse",
        "risk_HumanBattleship_v800",
        "pqw3_candle",
        "pqw3_HarvestGolem",
        "risk_HumanBattleship_v1200",
    ] {
        let Some(data) = common::corpus_file(&format!("mdx/{name}.mdx")) else {
            return;
        };
        let (cut, _) = cut_in_last_chunk(&data);
        let (model, _) = Model::from_bytes_lenient(&cut).unwrap();
        let index = model.chunks.len() - 1;
        let Some(Chunk::Cut(kept)) = model.chunks.last() else {
            panic!("{name}: not cut");
        };
        let from = model.version();
        let targets: &[u32] = match from {
            800 => &[1000, 800],
            1000 => &[800, 1100],
            _ => &[800, 1000],
        };
        let mut at = model.clone();
        for &target in targets {
            let what = format!("{name} to {target}");
            let source_index = at.chunks.len() - 1;
            let report = convert(&mut at, target, &options).unwrap();
            assert_eq!(at.version(), target, "{what}");
            assert_eq!(at.chunks.last(), model.chunks.last(), "{what}");
            let cuts = at
                .chunks
                .iter()
                .filter(|c| matches!(c, Chunk::Cut(_)))
                .count();
            assert_eq!(cuts, 1, "{what}");
            assert_eq!(report.kept.len(), 1, "{what}");
            assert_eq!(
                report.kept[0].path,
                format!("chunks[{source_index}].{}", kept.tag),
                "{what}"
            );
            assert!(
                report.kept[0]
                    .what
                    .contains(&format!("not converted to version {target}")),
                "{what}: {}",
                report.kept[0]
            );
            assert!(
                report
                    .to_string()
                    .contains("kept as read from a damaged file (1):")
            );
            // Written, it reads back leniently to the same model.
            let bytes = at.to_bytes().unwrap();
            let (back, _) = Model::from_bytes_lenient(&bytes).unwrap();
            assert_eq!(format!("{back:?}"), format!("{at:?}"), "{what}");
            converted += 1;
        }
        assert_eq!(index, model.chunks.len() - 1);
        // Back in 800, the same bytes; but for a model whose sequences
        // overlap, which the way back lays out in order (convert's docs).
        let overlapping = formats::validate::model(&model)
            .iter()
            .any(|f| f.rule == formats::validate::Rule::SequenceOrder);
        if from == 800 && !overlapping {
            assert!(at.to_bytes().unwrap() == cut, "{name}: 800 -> 1000 -> 800");
            exact += 1;
        }
    }
    assert_eq!(converted, 6 * 2);
    assert!(exact >= 2, "{exact} classic models came back byte-exact");
}

/// A cut chunk moved before another chunk is refused on write: the chunks
/// after it would read back as its missing bytes.
#[test]
fn a_cut_chunk_before_another_chunk_is_refused_on_write() {
    let mut data = formats::sample::sample_mdx();
    data.truncate(data.len() - 5); // inside PIVT, the last chunk
    let (mut model, _) = Model::from_bytes_lenient(&data).unwrap();
    let cut = model.chunks.pop().unwrap();
    assert!(matches!(cut, Chunk::Cut(_)));
    let at = model.chunks.len() - 1;
    model.chunks.insert(at, cut);
    let e = model.to_bytes().unwrap_err();
    assert!(e.to_string().contains("can only be the last chunk"), "{e}");
    assert!(
        e.to_string().starts_with(&format!("chunks[{at}].PIVT: ")),
        "{e}"
    );
}

/// The public `Glow.mdx` (`WILD_MANIFEST.md`): its `CLID` is 108 bytes and
/// ends at the end of the file, but its one shape, a cylinder (type 3),
/// has 8 bytes after its node where 2 vertices and a radius need 28.
#[test]
fn glow_mdx_keeps_its_collision_chunk_that_does_not_decode() {
    let Some(data) = common::wild_file("nazarpunk_clid_short.mdx") else {
        return;
    };
    assert_eq!(data.len(), 1580);
    // The strict reader's error, as it always was.
    let strict = Model::from_bytes(&data).unwrap_err();
    assert_eq!(
        strict.to_string(),
        "chunks[9].CLID.shapes[0].vertices: count 2 needs at least 24 bytes (12 each) at \
         0x624, 8 left"
    );
    assert_eq!(strict.offset(), 0x624);
    let (model, diagnostics) = Model::from_bytes_lenient(&data).unwrap();
    assert_eq!(model.chunks.len(), 10);
    let Some(Chunk::Undecoded(kept)) = model.chunks.last() else {
        panic!("{:?}", model.chunks.last());
    };
    assert_eq!(
        (kept.tag.to_string().as_str(), kept.bytes.len()),
        ("CLID", 108)
    );
    assert_eq!(
        &data[data.len() - 116..data.len() - 108],
        b"CLID\x6c\x00\x00\x00"
    );
    assert!(kept.bytes[..] == data[data.len() - 108..]);
    assert_eq!(kept.error, strict.to_string());
    // One diagnostic, at the strict error's offset and with its path.
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].offset, 0x624);
    assert_eq!(
        diagnostics[0].message,
        format!(
            "{strict}; kept the chunk's 116 bytes from 0x5b8 as they are (Chunk::Undecoded), to \
             be written back unchanged: its size fits the file but its content does not \
             decode; the chunks around it are read"
        )
    );
    // Every chunk before it is there; the collision shapes are not.
    assert_eq!(model.geosets().len(), 1);
    assert_eq!(model.bones().len(), 1);
    assert_eq!(model.pivot_points().len(), 2);
    assert!(model.collision_shapes().is_empty());
    let undecoded: Vec<usize> = model.undecoded_chunks().map(|(i, _)| i).collect();
    assert_eq!(undecoded, [9]);
    assert_eq!(model.cut_chunk(), None);
    // Written back exactly, and read again to the same model.
    let bytes = model.to_bytes().unwrap();
    assert!(bytes == data, "not written back byte for byte");
    let (again, _) = Model::from_bytes_lenient(&bytes).unwrap();
    assert_eq!(again, model);
    // Through MDL: an ExtChunk only the lenient reader takes, and back.
    let text = formats::mdl::to_string(&model);
    let ext = text
        .lines()
        .rfind(|l| l.trim_start().starts_with("ExtChunk"))
        .unwrap();
    assert!(ext.contains("#\"434c49446c000000"), "{ext}");
    let e = formats::mdl::from_str(&text).unwrap_err().to_string();
    assert!(e.contains("ExtChunk does not decode"), "{e}");
    let (back, notes) = formats::mdl::from_str_lenient(&text).unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.message.contains("(Chunk::Undecoded)")),
        "{notes:?}"
    );
    assert!(back.to_bytes().unwrap() == data, "MDX -> MDL -> MDX");
    // Plain MDL leaves it out and says so.
    let plain = formats::mdl::to_string_plain(&model).unwrap();
    assert!(
        plain.left_out.iter().any(|l| l
            .what
            .starts_with("the `CLID` chunk whose content does not decode")),
        "{:?}",
        plain.left_out
    );
    // validate reports it as damage, with the reason.
    let findings = formats::validate::model(&model);
    let damaged: Vec<_> = findings
        .iter()
        .filter(|f| f.rule == formats::validate::Rule::CutChunk)
        .collect();
    assert_eq!(damaged.len(), 1, "{findings:?}");
    assert_eq!(damaged[0].path, "chunks[9].CLID");
    assert!(
        damaged[0].message.contains("its content does not decode")
            && damaged[0].message.contains("shapes[0].vertices"),
        "{}",
        damaged[0].message
    );
}

/// The sample model with a collision chunk whose shape is cut short (a
/// cylinder with 8 bytes after its node, as `Glow.mdx` has) put before its
/// last chunk, `PIVT`: the file and where the collision chunk starts.
fn sample_with_a_short_collision_chunk() -> (Vec<u8>, usize) {
    let sample = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let mut name = [0u8; 80];
    name[..9].copy_from_slice(b"Collision");
    let mut shape = Vec::new();
    shape.extend(96u32.to_le_bytes()); // the node's inclusive size
    shape.extend(name);
    shape.extend(1u32.to_le_bytes()); // objectId
    shape.extend(u32::MAX.to_le_bytes()); // parentId: none
    shape.extend(0x2000u32.to_le_bytes()); // flags: a collision shape
    shape.extend(3u32.to_le_bytes()); // type 3, a cylinder...
    shape.extend(100f32.to_le_bytes()); // ...of two floats, where it needs seven
    shape.extend(100f32.to_le_bytes());
    let mut model = sample.clone();
    let pivots = model.chunks.len() - 1;
    model.chunks.insert(
        pivots,
        Chunk::Unknown(format_core::UnknownChunk {
            tag: format_core::FourCC::new(*b"CLID"),
            bytes: shape,
        }),
    );
    let before = Model {
        chunks: model.chunks[..pivots].to_vec(),
    };
    (model.to_bytes().unwrap(), before.to_bytes().unwrap().len())
}

/// A chunk that does not decode is kept in its place, not only last: the
/// chunk after it is read, and the file writes back byte for byte.
#[test]
fn a_chunk_that_does_not_decode_is_kept_in_its_place_and_the_next_is_read() {
    let (data, start) = sample_with_a_short_collision_chunk();
    let sample = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let index = sample.chunks.len() - 1;
    let strict = Model::from_bytes(&data).unwrap_err();
    assert_eq!(
        strict.path_string(),
        format!("chunks[{index}].CLID.shapes[0].vertices")
    );
    assert_eq!(strict.offset(), start + 8 + 96 + 4);
    let (model, diagnostics) = Model::from_bytes_lenient(&data).unwrap();
    assert_eq!(model.chunks.len(), sample.chunks.len() + 1);
    let Chunk::Undecoded(kept) = &model.chunks[index] else {
        panic!("{:?}", model.chunks[index]);
    };
    assert_eq!(kept.bytes.len(), 96 + 4 + 8);
    // The pivots after it are read as the sample has them.
    assert_eq!(model.pivot_points(), sample.pivot_points());
    assert_eq!(model.chunks[index + 1], sample.chunks[index]);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].offset, strict.offset());
    assert!(
        diagnostics[0].message.starts_with(&format!(
            "{strict}; kept the chunk's 116 bytes from {start:#x}"
        )),
        "{}",
        diagnostics[0]
    );
    assert!(model.to_bytes().unwrap() == data);
    // An edit elsewhere keeps it as it was.
    let mut edited = model.clone();
    edited.sequences_mut()[0].name.set("Stand Ready").unwrap();
    let (back, _) = Model::from_bytes_lenient(&edited.to_bytes().unwrap()).unwrap();
    assert_eq!(back.chunks[index], model.chunks[index]);
    assert_eq!(back.sequences()[0].name.to_string_lossy(), "Stand Ready");
    // A conversion keeps it in its place, as its bytes, and says so.
    let options = Options {
        error_step: 0,
        ..Options::default()
    };
    let mut converted = model.clone();
    let report = convert(&mut converted, 1000, &options).unwrap();
    assert_eq!(report.kept.len(), 1, "{report}");
    assert_eq!(report.kept[0].path, format!("chunks[{index}].CLID"));
    assert!(
        report.kept[0]
            .what
            .contains("not converted to version 1000"),
        "{}",
        report.kept[0]
    );
    let undecoded: Vec<_> = converted.undecoded_chunks().map(|(_, c)| c).collect();
    assert_eq!(undecoded, [kept]);
    let (back, _) = Model::from_bytes_lenient(&converted.to_bytes().unwrap()).unwrap();
    assert_eq!(format!("{back:?}"), format!("{converted:?}"));
}

/// A `VERS` chunk that does not decode sets no version: the version it
/// would have set (1000 here) is not taken for the chunks after it, which
/// are read, and written, as the model says (800, without a `VERS`).
#[test]
fn a_version_chunk_that_does_not_decode_sets_no_version() {
    let mut data = formats::sample::sample_mdx();
    // VERS: 4 bytes, 800. Say 1000 in 5 bytes.
    assert_eq!(&data[4..16], b"VERS\x04\x00\x00\x00\x20\x03\x00\x00");
    data[8] = 5;
    data[12..16].copy_from_slice(&1000u32.to_le_bytes());
    data.insert(16, 0);
    assert!(Model::from_bytes(&data).is_err());
    let (model, diagnostics) = Model::from_bytes_lenient(&data).unwrap();
    assert!(matches!(model.chunks[0], Chunk::Undecoded(_)));
    assert_eq!(model.version(), 800);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let sample = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    assert_eq!(model.chunks[1..], sample.chunks[1..]);
    assert!(model.to_bytes().unwrap() == data);
}

/// A model whose `GEOS` does not decode (its first geoset claims more bytes
/// than the chunk holds) says where its geometry went, as one cut inside its
/// geosets does: `Model::cut_geosets` (which `export` and `render` give as
/// their warning: `cli_damaged` in formats-cli's tests).
#[test]
fn a_model_whose_geosets_do_not_decode_says_so_in_export_and_render() {
    let mut data = formats::sample::sample_mdx();
    let geos = data.windows(4).position(|w| w == b"GEOS").unwrap();
    data[geos + 8..geos + 12].copy_from_slice(&9999u32.to_le_bytes());
    let (model, _) = Model::from_bytes_lenient(&data).unwrap();
    let (index, kept) = model.undecoded_chunks().next().unwrap();
    assert_eq!(kept.tag.to_string(), "GEOS");
    assert!(model.geosets().is_empty());
    let why = model.cut_geosets().unwrap();
    assert!(
        why.starts_with(&format!(
            "the model's geosets are in a GEOS chunk whose content does not decode (its {} \
             bytes are kept as read): chunks[{index}].GEOS.geosets[0]: inclusive size 9999",
            kept.bytes.len()
        )),
        "{why}"
    );
}
