//! The tool on damaged files: what it reads of them, says of them and
//! writes back (the readers' side is in `formats`' tests `mdx_damaged` and
//! `adt_damaged`).

use crate::common;

use formats::mdx::Model;

/// A model whose `GEOS` does not decode (its first geoset claims more bytes
/// than the chunk holds): `export` and `render` say where its geometry went,
/// as `Model::cut_geosets` does, and go on.
#[test]
fn a_model_whose_geosets_do_not_decode_says_so_in_export_and_render() {
    let mut data = formats::sample::sample_mdx();
    let geos = data.windows(4).position(|w| w == b"GEOS").unwrap();
    data[geos + 8..geos + 12].copy_from_slice(&9999u32.to_le_bytes());
    let (model, _) = Model::from_bytes_lenient(&data).unwrap();
    let why = model.cut_geosets().unwrap();
    let dir = common::temp_dir("undecoded-geosets");
    let file = dir.join("damaged.mdx");
    std::fs::write(&file, &data).unwrap();
    common::formats!["export", &file, dir.join("damaged.glb")]
        .success()
        .stderr(predicates::str::contains(format!(
            "{why}: only its nodes are exported"
        )));
    common::formats!["render", &file, "--wireframe", dir.join("damaged.png")]
        .success()
        .stderr(predicates::str::contains(format!("{why}: nothing to draw")));
}

/// The tool on a cut tile: `info` shows the chunks there are and marks the
/// cut one, `check` finds it read leniently and byte-exact.
#[test]
fn the_tool_reads_a_cut_tile_leniently() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let data = std::fs::read(root.join("adt/twinpeaks_cataclysmctf_30_27.adt")).unwrap();
    let dir = common::temp_dir("adt-cut");
    let file = dir.join("cut.adt");
    std::fs::write(&file, &data[..300_000]).unwrap();
    let out = common::formats!["info", &file].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("strict read: chunks[98].MCNK: chunk size 14120 at 0x469a0 exceeds"),
        "{stdout}"
    );
    assert!(
        stdout.contains("MCNK      293456  89 chunks, the last cut short: 10812 bytes there\n"),
        "{stdout}"
    );
    assert!(stdout.contains("round trip: byte-exact\n"), "{stdout}");
    let out = common::formats!["check", &file].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(
            "cut.adt: parsed leniently (1 diagnostic; strictly: chunks[98].MCNK: chunk size 14120 \
             at 0x469a0 exceeds"
        ),
        "{stdout}"
    );
    assert!(stdout.contains(" bytes left), byte-exact\n"), "{stdout}");
    // `validate` reports the damage (an error: exit code 1).
    let out = common::formats!["validate", &file].code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(
            "chunks[98].MCNK: the file ends inside this chunk: 3308 of its 14120 bytes are missing"
        ),
        "{stdout}"
    );
}
