//! The tool on textures: `info`, `dump --json`, `convert` between BLP and PNG
//! in every encoding, DDS in, and bad input.

use crate::common;

use common::{formats, formats_command, temp_dir};

use formats::blp::{Blp, RgbaImage, Target};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn info_on_a_texture_shows_encoding_alpha_size_and_mip_table() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats_command()
        .current_dir(&root)
        .args(["info", "blp/dbz_GutsArm.blp"])
        .assert()
        .success();
    insta::assert_snapshot!(String::from_utf8_lossy(&out.get_output().stdout));
    let out = formats_command()
        .current_dir(common::corpus_root().unwrap())
        .args(["info", "blp/slk_furbolgshaman.blp"])
        .assert()
        .success();
    insta::assert_snapshot!(String::from_utf8_lossy(&out.get_output().stdout));
}

#[test]
fn dump_json_has_the_header_palette_and_levels() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats_command()
        .current_dir(&root)
        .args([
            "dump",
            "--json",
            "blp/twinpeaks_wildhammer_base02_000_00_00.blp",
        ])
        .assert()
        .success();
    let json: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let blp = &json["Blp"];
    let header = &blp["header"]["Blp2"];
    assert_eq!(header["compression"], 2);
    assert_eq!(header["alpha_depth"], 1);
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(128), Some(128))
    );
    assert_eq!(blp["palette"].as_array().unwrap().len(), 256);
    let levels = blp["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 1);
    assert_eq!(levels[0].as_str().unwrap().len(), 2 * 8192, "hex");
    // Laid out as a fresh write would: nothing kept.
    assert!(blp["kept"]["placement"].is_null(), "{}", blp["kept"]);
    assert_eq!(blp["kept"]["values"].as_array().unwrap().len(), 0);
    // The mip table as read, after the header.
    let keys: Vec<&str> = blp
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys[..3], ["header", "mip_offsets", "mip_sizes"]);
    let mut offsets = [0u64; 16];
    let mut sizes = [0u64; 16];
    (offsets[0], sizes[0]) = (1172, 8192);
    assert_eq!(blp["mip_offsets"], serde_json::json!(offsets));
    assert_eq!(blp["mip_sizes"], serde_json::json!(sizes));
    // Six entries at one stream, as the file has them.
    let out = formats_command()
        .current_dir(&root)
        .args(["dump", "--json", "blp/pqw3_DISPASLichKing.blp"])
        .assert()
        .success();
    let json: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let blp = &json["Blp"];
    let mut offsets = [0u64; 16];
    let mut sizes = [0u64; 16];
    (offsets[0], sizes[0]) = (0x1c4, 2490);
    for i in 1..7 {
        (offsets[i], sizes[i]) = (0xb7e, 784);
    }
    assert_eq!(blp["mip_offsets"], serde_json::json!(offsets));
    assert_eq!(blp["mip_sizes"], serde_json::json!(sizes));
    // And in the tree the same table shows.
    let out = formats_command()
        .current_dir(&root)
        .args(["dump", "blp/pqw3_DISPASLichKing.blp"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout);
    assert!(
        text.contains("mip_sizes: [2490, 784, 784, 784, 784, 784, 784, 0, 0, 0, 0, 0, 0, 0, 0, 0]"),
        "{text}"
    );
}

#[test]
fn convert_blp_to_png_and_back_in_every_encoding() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("convert");
    let input = root.join("blp/twinpeaks_Gilneas_CornBramble_01.blp");
    let blp = Blp::from_bytes(&std::fs::read(&input).unwrap()).unwrap();
    let png = dir.join("level1.png");
    formats!["convert", &input, &png, "--level", "1"]
        .success()
        .stderr(predicate::str::contains("level 1, 64x128 RGBA"));
    let image = RgbaImage::from_png(&std::fs::read(&png).unwrap()).unwrap();
    assert_eq!(image, blp.decode_level(1).unwrap());
    for (target, name) in Target::ALL {
        let out = dir.join(format!("{name}.blp"));
        formats!["convert", &png, &out, "--encoding", name].success();
        let written = Blp::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(written.size(), (64, 128), "{name}");
        assert_eq!(written.levels.len(), 8, "{name}: 64x128 down to 1x1");
        let back = written.decode_level(0).unwrap();
        if target == Target::Bgra {
            assert_eq!(back, image, "bgra is lossless");
        }
        // And back to PNG.
        let again = dir.join(format!("{name}.png"));
        formats!["convert", &out, &again].success();
        assert_eq!(
            RgbaImage::from_png(&std::fs::read(&again).unwrap()).unwrap(),
            back
        );
    }
    // A BLP to another encoding (from its level 0).
    let out = dir.join("reencoded.blp");
    formats!["convert", &input, &out, "--encoding", "blp1-palette"]
        .success()
        .stderr(predicate::str::contains("BLP1 palette, 128x256, 9 levels"));
}

#[test]
fn convert_says_what_it_cannot_do_with_textures() {
    let dir = temp_dir("cannot");
    let blp = dir.join("tiny.blp");
    std::fs::write(&blp, formats::blp::tiny_blp2_bgra()).unwrap();
    let png = dir.join("tiny.png");
    let convert = |args: &[&std::ffi::OsStr]| formats_command().arg("convert").args(args).assert();
    convert(&[
        blp.as_os_str(),
        png.as_os_str(),
        "--level".as_ref(),
        "5".as_ref(),
    ])
    .failure()
    .stderr(predicate::str::contains("no level 5: the texture has"));
    convert(&[blp.as_os_str(), png.as_os_str()]).success();
    convert(&[png.as_os_str(), dir.join("x.blp").as_os_str()])
        .failure()
        .stderr(predicate::str::contains(
            "give --encoding, one of blp1-jpeg",
        ));
    convert(&[
        png.as_os_str(),
        dir.join("x.blp").as_os_str(),
        "--encoding".as_ref(),
        "dxt3".as_ref(),
    ])
    .failure()
    .stderr(predicate::str::contains("unknown encoding \"dxt3\""));
    convert(&[blp.as_os_str(), dir.join("x.mdx").as_os_str()])
        .failure()
        .stderr(predicate::str::contains(
            "textures convert .blp and .dds to .png or .blp",
        ));
    // A model named .blp (two public files are).
    let fake = dir.join("model.blp");
    std::fs::write(&fake, formats::sample::sample_mdx()).unwrap();
    formats!["info", &fake]
        .failure()
        .stderr(predicate::str::contains("(an MDX model)"));
}

#[test]
fn convert_warns_of_a_side_that_is_not_a_power_of_two() {
    let dir = temp_dir("npot");
    let write_png = |name: &str, width: u32, height: u32| {
        let pixels = [10, 200, 30, 255].repeat((width * height) as usize);
        let png = RgbaImage::new(width, height, pixels)
            .unwrap()
            .to_png()
            .unwrap();
        let path = dir.join(name);
        std::fs::write(&path, png).unwrap();
        path
    };
    let npot = write_png("npot100x60.png", 100, 60);
    let out = dir.join("npot.blp");
    // Warned, and still encoded: the user may know better.
    formats!["convert", &npot, &out, "--encoding", "dxt1"]
        .success()
        .stderr(predicate::str::contains("warning: "))
        .stderr(predicate::str::contains(
            "100x60 is not a power of two on each side, which the World of Warcraft \
             and Warcraft III clients need (resize to 64x32 or 128x64, say)",
        ))
        .stderr(predicate::str::contains("wrote "));
    let written = Blp::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written.size(), (100, 60));
    // A power-of-two texture: no warning.
    let pot = write_png("pot128x64.png", 128, 64);
    formats!["convert", &pot, dir.join("pot.blp"), "--encoding", "dxt1"]
        .success()
        .stderr(predicate::str::contains("warning").not());
}

#[test]
fn convert_weights_mip_levels_by_alpha() {
    // An 8x8 checker of opaque red and fully transparent blue: the blue must
    // not tint the smaller levels (a foliage cutout's fringe at distance).
    let dir = temp_dir("alpha-mips");
    let pixels = (0..64)
        .flat_map(|i| match (i % 8 + i / 8) % 2 {
            0 => [255, 0, 0, 255],
            _ => [0, 0, 255, 0],
        })
        .collect();
    let png = dir.join("checker.png");
    let image = RgbaImage::new(8, 8, pixels).unwrap();
    std::fs::write(&png, image.to_png().unwrap()).unwrap();
    let out = dir.join("checker.blp");
    formats!["convert", &png, &out, "--encoding", "bgra"].success();
    let written = Blp::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written.levels.len(), 4);
    for level in 1..4 {
        let decoded = written.decode_level(level).unwrap();
        assert!(
            decoded
                .data
                .as_chunks::<4>()
                .0
                .iter()
                .all(|&px| px == [255, 0, 0, 128]),
            "level {level}: {:?}",
            decoded.data
        );
    }
}

#[test]
fn check_refuses_a_small_texture_declaring_a_huge_jpeg_frame() {
    // 1.1 MB, a 16384 x 16384 frame at 16 mip entries: `check` took 138 s
    // and a GiB decoding its zero-padded scan 16 times.
    let dir = temp_dir("hostile");
    let file = dir.join("hostile.blp");
    std::fs::write(&file, common::hostile_jpeg(16384, 16, 1_100_000)).unwrap();
    formats!["check", &file]
        .failure()
        .stdout(predicate::str::contains(
            "level 0 does NOT decode: levels[0]: invalid value at 0xa0: level 0: \
             16384x16384 JPEG: a 16384x16384 JPEG frame of 4 components needs at \
             least 4194304 bytes, the stream has 1100000",
        ));
}

#[test]
fn info_says_what_the_data_decided_for_odd_alpha_bits() {
    let dir = temp_dir("odd-alpha");
    // A fourth channel of 0 everywhere: no alpha.
    let image = RgbaImage::new(16, 8, [200, 100, 50, 0].repeat(16 * 8)).unwrap();
    let mut blp = Blp::encode(&image, Target::Blp1Jpeg).unwrap();
    let formats::blp::Header::Blp1(header) = &mut blp.header else {
        unreachable!("BLP1 JPEG")
    };
    header.alpha_bits = 9;
    let opaque = dir.join("opaque.blp");
    std::fs::write(&opaque, blp.to_bytes().unwrap()).unwrap();
    formats!["info", &opaque]
        .success()
        .stdout(predicate::str::contains(
            "alpha: alphaBits 9 (neither 0 nor 8), so the JPEG's fourth channel decides \
             (alpha unless 0 everywhere): level 0 is opaque\n",
        ));
    std::fs::remove_dir_all(&dir).unwrap();
    // GLOWSTAR (alphaBits 4) keeps its fourth channel as alpha.
    let Some(root) = common::corpus_root() else {
        return;
    };
    formats_command()
        .current_dir(&root)
        .args(["info", "blp/edem_GLOWSTAR.BLP"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "alpha: alphaBits 4 (neither 0 nor 8), so the JPEG's fourth channel decides \
             (alpha unless 0 everywhere): level 0 has alpha\n",
        ));
}

/// DDS textures (Reforged's): `info` says the format and the round trip,
/// `check` reads, writes back and decodes them, `convert` makes a PNG or a
/// BLP of their level 0, and a DDS cut short fails `check`.
#[test]
fn dds_textures_are_read_checked_and_converted() {
    let dir = temp_dir("dds");
    let dds = dir.join("Hero_Diffuse.dds");
    std::fs::write(&dds, formats::dds::tiny_dds_rgba()).unwrap();
    let pixels = [255, 0, 0, 255, 0, 0, 255, 128];
    formats!["info", &dds]
        .success()
        .stdout(predicate::str::contains("DDS texture, 136 bytes, 2x1"))
        .stdout(predicate::str::contains("uncompressed 32-bit RGBA"))
        .stdout(predicate::str::contains("round trip: byte-exact"))
        .stdout(predicate::str::contains("every level decodes"));
    formats!["convert", &dds, dir.join("hero.png")].success();
    let png = RgbaImage::from_png(&std::fs::read(dir.join("hero.png")).unwrap()).unwrap();
    assert_eq!(png.data, pixels);
    formats!["convert", &dds, dir.join("hero.blp"), "--encoding", "bgra"].success();
    let blp = Blp::from_bytes(&std::fs::read(dir.join("hero.blp")).unwrap()).unwrap();
    assert_eq!(blp.decode_level(0).unwrap().data, pixels);
    formats!["convert", &dds, dir.join("again.blp")]
        .failure()
        .stderr(predicate::str::contains("give --encoding"));
    formats!["check", &dir]
        .success()
        .stdout(predicate::str::contains(
            "Hero_Diffuse.dds: parsed, byte-exact, every level decodes",
        ));
    let mut cut = formats::dds::tiny_dds_rgba();
    cut.pop();
    std::fs::write(dir.join("cut.dds"), cut).unwrap();
    formats!["check", dir.join("cut.dds")]
        .code(1)
        .stdout(predicate::str::contains("8 bytes needed, 7 there"));
}

/// A DDS's surface bytes dump as one hex blob, as a BLP's levels do: they
/// were a list of numbers, a line per byte in the tree (16 million lines
/// for a 4096 x 4096 BC3 texture).
#[test]
fn dump_of_a_dds_shows_its_surfaces_as_hex() {
    let dir = temp_dir("dds-dump");
    let dds = dir.join("tiny.dds");
    let data = formats::dds::tiny_dds_rgba();
    std::fs::write(&dds, &data).unwrap();
    let surfaces = &data[128..];
    let hex: String = surfaces.iter().map(|b| format!("{b:02x}")).collect();
    let out = formats!["dump", "--json", &dds].success();
    let json: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["Dds"]["data"], Value::String(hex.clone()));
    assert_eq!(json["Dds"]["header"]["width"], 2);
    let out = formats!["dump", &dds].success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let data_lines: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "dx10: null")
        .skip(1)
        .collect();
    assert_eq!(data_lines.len(), 1, "{text}");
    assert!(data_lines[0].contains(&hex), "{text}");
}

/// The wild textures of `WILD_MANIFEST.md` through `info` and `convert`:
/// `dbz_Mummy2.blp` (mip levels past its end) reads leniently (`info` gives
/// the strict error and the diagnostic, and marks the levels outside the
/// file), converts to PNG with a warning that it was read leniently, and
/// says where a missing level would be; `dbz_Android15.blp` converts its
/// level 0, and `info` names its level 8, which does not decode.
#[test]
fn info_and_convert_read_the_wild_textures() {
    let (Some(mummy), Some(android)) = (
        common::wild_path("dbz_Mummy2.blp"),
        common::wild_path("dbz_Android15.blp"),
    ) else {
        return;
    };
    let out = formats!["info", &mummy].success();
    let info = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for line in [
        "strict read: levels[8]: invalid value at 0x3c: 327 bytes at 0xb60d (offset 46605 from \
         0x0) do not lie in 0x0..0xb60d",
        "read leniently (1 diagnostic):",
        "round trip: byte-exact",
        "mip levels: 8",
        "    7      0xb5dd          48          1x1",
        "    8      0xb60d         327  (outside the file: missing)",
        "    9     0xc65a2          54  (outside the file: missing)",
        "pixels: every level decodes",
    ] {
        assert!(info.lines().any(|l| l == line), "{line:?} not in\n{info}");
    }
    let out = formats!["info", &android].success();
    let info = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!info.contains("strict read"), "{info}");
    assert!(
        info.contains(
            "\npixels: level 0 decodes, level 8 does NOT decode (a warning: viewers and the game \
             show level 0): levels[8]: invalid value at 0x478a: level 8: 1x1 JPEG: JPEG byte \
             622: the frame header is cut short\n"
        ),
        "{info}"
    );

    let dir = temp_dir("wild-png");
    for (input, name) in [(&mummy, "mummy.png"), (&android, "android.png")] {
        let png = dir.join(name);
        let out = formats!["convert", input, &png].success();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert_eq!(
            stderr.contains("read leniently (1 diagnostic"),
            name == "mummy.png",
            "{stderr}"
        );
        let image = RgbaImage::from_png(&std::fs::read(&png).unwrap()).unwrap();
        let data = std::fs::read(input).unwrap();
        let blp = Blp::from_bytes(&data)
            .or_else(|_| Blp::from_bytes_lenient(&data).map(|(b, _)| b))
            .unwrap();
        assert_eq!(image, blp.decode_level(0).unwrap(), "{name}");
    }
    formats!["convert", &mummy, dir.join("level8.png"), "--level", "8"]
        .failure()
        .stderr(predicate::str::contains(
            "level 8: the mip table puts its 327 bytes at 0xb60d, outside the file (46605 bytes)",
        ));
    // A damaged BLP written back as a BLP is as damaged: the same bytes.
    let copy = dir.join("copy.blp");
    formats!["convert", &mummy, &copy].success();
    assert!(std::fs::read(&copy).unwrap() == std::fs::read(&mummy).unwrap());
}
