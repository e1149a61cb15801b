//! Any bytes -> `formats::adt::Adt` (and the same bytes as a split `_tex`/`_obj`
//! file): never panics; whatever is accepted writes back to the exact input;
//! with every kept value dropped it still writes a tile that reads back to the
//! same chunks, and painted (a texture added, a layer with its alpha map on
//! every MCNK that takes one) it reads back with each painted map; alpha maps
//! decode or error; split and merge do not panic; a split file validates;
//! whatever the lenient reader accepts (cut and undecodable chunks kept as
//! bytes) writes back to the exact input too. The view reads what the strict
//! reader reads and fails where it fails, alike.
#![no_main]

use formats::adt::alpha::AlphaMap;
use formats::adt::mcnk::SMLayer;
use formats::adt::{Adt, SplitAdt, SplitFile};
use libfuzzer_sys::fuzz_target;

/// The view agrees with the strict reader: the same tile (every chunk
/// viewed and built through `to_owned`, compared by its bytes), or the same
/// error, at the same offset and path.
fn view(data: &[u8]) {
    let strict = Adt::from_bytes(data);
    let viewed = Adt::view(data).and_then(|view| view.to_owned());
    match (strict, viewed) {
        (Ok(owned), Ok(viewed)) => assert!(
            owned.to_bytes().ok() == viewed.to_bytes().ok(),
            "the view reads another tile"
        ),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "the view's error differs"),
        (a, b) => panic!("strict {:?}, view {:?}", a.err(), b.err()),
    }
}

fuzz_target!(|data: &[u8]| {
    view(data);
    match Adt::from_bytes(data) {
        Ok(tile) => {
            let bytes = tile
                .to_bytes()
                .unwrap_or_else(|e| panic!("accepted input does not encode: {e}"));
            assert!(bytes == data, "re-encoded bytes differ from the input");
            for mcnk in tile.mcnks() {
                for flags in [0, 0x4] {
                    let _ = mcnk.alpha_maps(flags);
                }
            }
            let mut derived = tile.clone();
            derived.recompute_offsets();
            derived.clear_declared_sizes();
            if let Ok(bytes) = derived.to_bytes() {
                let back = Adt::from_bytes(&bytes)
                    .unwrap_or_else(|e| panic!("derived tile does not read back: {e}"));
                assert_eq!(back.chunks.len(), derived.chunks.len());
                // Bytes, not values: a NaN height is never equal to itself.
                let again = back
                    .to_bytes()
                    .unwrap_or_else(|e| panic!("derived tile re-read does not encode: {e}"));
                assert!(again == bytes, "derived tile is not stable");
                paint(derived);
            }
            let split = SplitAdt::from_monolithic(&tile);
            let _ = split.to_monolithic();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    // Leniently: a chunk that does not decode is kept as bytes, the chunk the
    // input ends inside as a cut chunk; either way the input comes back.
    if let Ok((tile, _)) = Adt::from_bytes_lenient(data) {
        let bytes = tile
            .to_bytes()
            .unwrap_or_else(|e| panic!("lenient tile does not encode: {e}"));
        assert!(bytes == data, "lenient tile re-encoded differently");
        let split = SplitAdt::from_monolithic(&tile);
        let _ = split.to_monolithic();
    }
    if let Ok(file) = SplitFile::from_bytes(data) {
        let bytes = file
            .to_bytes()
            .unwrap_or_else(|e| panic!("split file does not encode: {e}"));
        assert!(bytes == data, "split file re-encoded differently");
        let _ = formats::validate::split_file(&file);
    }
});

/// Adds a texture and paints a layer of it on every MCNK that takes one
/// (`add_layer` may refuse: four layers, no base layer yet is fine); if the
/// painted tile writes, it reads back with each painted map as the last
/// layer's, wherever the chunk's earlier maps decode.
fn paint(mut tile: Adt) {
    let Ok(texture_id) = tile.add_texture("Tileset\\Fuzz.blp") else {
        return;
    };
    let mut map = AlphaMap::filled(0);
    for i in 0..64 {
        map.set(i, i, 255);
    }
    let layer = SMLayer {
        texture_id,
        effect_id: u32::MAX,
        ..SMLayer::default()
    };
    let mut painted = Vec::new();
    for (n, mcnk) in tile.mcnks_mut().enumerate() {
        let base = mcnk.layers().is_none_or(|l| l.layers.is_empty());
        let given = (!base).then_some(&map);
        if let Ok(index) = mcnk.add_layer(layer, given, 0) {
            painted.push((n, index, base));
        }
    }
    let Ok(bytes) = tile.to_bytes() else {
        return;
    };
    let back =
        Adt::from_bytes(&bytes).unwrap_or_else(|e| panic!("painted tile does not read back: {e}"));
    for (n, index, base) in painted {
        let mcnk = back.mcnk(n).expect("a painted MCNK is still there");
        let layers = &mcnk.layers().expect("a painted MCNK has MCLY").layers;
        assert_eq!(layers.len(), index + 1, "MCNK {n}: painted layer missing");
        if base {
            continue;
        }
        if let Ok(maps) = mcnk.alpha_maps(0) {
            let last = maps.last().map(|(i, m)| (*i, m));
            // 4-bit with the edge fix: row and column 63 copy 62.
            let mut want = map.clone();
            if mcnk.fixes_alpha_edges() {
                want.fix_edges();
            }
            assert_eq!(last, Some((index, &want)), "MCNK {n}: painted map differs");
        }
    }
}
