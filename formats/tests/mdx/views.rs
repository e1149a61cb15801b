//! Views against the owned parse: on every corpus model the view's fields
//! build the same model, and on damaged copies of each the first error the
//! view reports (opening it, then reading every chunk) is the strict owned
//! reader's, at the same offset and path.

use formats::mdx::{ChunkView, Model};

/// Every corpus model strictly readable, with its bytes.
fn strict_models() -> Vec<(String, Vec<u8>)> {
    let Some(root) = testkit::corpus_root() else {
        return Vec::new();
    };
    testkit::files_in(&root, "mdx", ".mdx")
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(root.join(&path)).unwrap();
            (path, bytes)
        })
        .filter(|(_, bytes)| Model::from_bytes(bytes).is_ok())
        .collect()
}

/// Whether two models are the same: the same bytes written and the same
/// fields shown (`==` is false for a NaN that real files and flipped bytes
/// hold).
fn same(a: &Model, b: &Model) -> bool {
    a.to_bytes().ok() == b.to_bytes().ok() && format!("{a:?}") == format!("{b:?}")
}

/// The view's result for everything in `data`: opened, then every chunk
/// read into the owned model through the view's fields.
fn through_view(data: &[u8]) -> formats::Result<Model> {
    Model::view(data)?.to_owned()
}

#[test]
fn every_corpus_model_reads_the_same_through_its_view() {
    let models = strict_models();
    if models.is_empty() {
        return;
    }
    for (path, data) in &models {
        let owned = Model::from_bytes(data).unwrap();
        let viewed = through_view(data).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            same(&viewed, &owned),
            "{path}: the view's model differs from the owned parse"
        );
        // The conveniences agree with the owned model's accessors.
        let view = Model::view(data).unwrap();
        assert_eq!(view.version(), owned.version(), "{path}");
        let geosets = view.geosets().unwrap();
        assert_eq!(geosets.len(), owned.geosets().len(), "{path}");
        for (seen, geoset) in geosets.iter().zip(owned.geosets()) {
            assert_eq!(
                seen.vertex_positions.to_vec(),
                geoset.vertex_positions,
                "{path}"
            );
            assert_eq!(seen.faces.to_vec(), geoset.faces, "{path}");
        }
        assert_eq!(
            view.sequences().unwrap().to_vec(),
            owned.sequences(),
            "{path}"
        );
    }
    eprintln!(
        "{} corpus models read the same through their views",
        models.len()
    );
}

/// Damage at `at`: the byte flipped, and the file cut there.
fn damaged(data: &[u8], at: usize) -> [Vec<u8>; 2] {
    let mut flipped = data.to_vec();
    flipped[at] ^= 0xff;
    [flipped, data[..at].to_vec()]
}

#[test]
fn a_damaged_model_gives_the_owned_readers_error_through_its_view() {
    let models = strict_models();
    let mut compared = 0;
    for (path, data) in models.iter().filter(|(_, d)| d.len() < 400_000) {
        // Spread over the file, headers and counts among them.
        let step = (data.len() / 97).max(1);
        for at in (4..data.len()).step_by(step) {
            for copy in damaged(data, at) {
                let owned = Model::from_bytes(&copy);
                let viewed = through_view(&copy);
                match (owned, viewed) {
                    (Ok(a), Ok(b)) => assert!(same(&a, &b), "{path} @{at}: both read, differently"),
                    (Err(a), Err(b)) => {
                        assert_eq!(
                            (a.offset(), a.to_string()),
                            (b.offset(), b.to_string()),
                            "{path} @{at}"
                        );
                        compared += 1;
                    }
                    (a, b) => panic!("{path} @{at}: owned {:?}, view {:?}", a.err(), b.err()),
                }
            }
        }
    }
    if !models.is_empty() {
        assert!(compared > 1000, "{compared} errors compared");
        eprintln!("{compared} damaged copies gave the same error through the view");
    }
}

#[test]
fn opening_a_view_checks_only_the_chunk_walk() {
    let mut data = formats::sample::sample_mdx();
    let owned = Model::from_bytes(&data).unwrap();
    // A vertex count too large for its geoset: the content of GEOS.
    let geos = data.windows(4).position(|w| w == b"VRTX").unwrap();
    data[geos + 4] = 0xff;
    data[geos + 5] = 0xff;
    let strict = Model::from_bytes(&data).unwrap_err();
    let view = Model::view(&data).expect("the chunk walk does not look inside GEOS");
    assert_eq!(view.chunks.len(), owned.chunks.len());
    let Err(error) = view.geosets() else {
        panic!("the damaged geoset viewed")
    };
    assert_eq!(error.to_string(), strict.to_string());
    assert!(error.to_string().starts_with("chunks["), "{error}");
    // The chunks before and after it still view.
    let kinds: Vec<bool> = view.chunks.iter().map(|c| c.is_ok()).collect();
    assert_eq!(kinds.iter().filter(|ok| !**ok).count(), 1);
    assert!(matches!(
        view.chunks.iter().next(),
        Some(Ok(ChunkView::Version(_)))
    ));
}
