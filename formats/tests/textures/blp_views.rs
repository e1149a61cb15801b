//! BLP views against the owned parse: header, table, palette or JPEG
//! header and every level's bytes, on every corpus texture; and the same
//! error as the strict owned reader on damaged copies of each.

use formats::blp::Blp;

use crate::common;

#[test]
fn every_corpus_texture_reads_the_same_through_its_view() {
    let mut seen = 0;
    for (name, data) in common::blp_corpus() {
        let Ok(owned) = Blp::from_bytes(&data) else {
            assert!(
                Blp::view(&data).is_err(),
                "{name}: the view reads what the owned reader refuses"
            );
            continue;
        };
        let view = Blp::view(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(view.header, owned.header, "{name}");
        assert_eq!(
            Ok(view.mip_table),
            owned.mip_table().map_err(|e| e.to_string()),
            "{name}"
        );
        assert_eq!(view.palette.map(|p| p.to_vec()), owned.palette, "{name}");
        assert_eq!(
            view.jpeg_header.map(|j| j.to_vec()),
            owned.jpeg_header,
            "{name}"
        );
        assert_eq!(view.levels().collect::<Vec<_>>(), owned.levels, "{name}");
        assert_eq!(view.to_owned().unwrap(), owned, "{name}");
        seen += 1;
    }
    eprintln!("{seen} corpus textures read the same through their views");
}

#[test]
fn a_damaged_texture_gives_the_owned_readers_error_through_its_view() {
    let mut compared = 0;
    for (name, data) in common::blp_corpus()
        .into_iter()
        .filter(|(_, d)| d.len() < 300_000)
    {
        // The header, table and palette, then spread over the levels.
        let ats = (0..data.len().min(1200))
            .step_by(3)
            .chain((1200..data.len()).step_by(997));
        for at in ats {
            let mut flipped = data.clone();
            flipped[at] ^= 0xff;
            for copy in [flipped, data[..at].to_vec()] {
                match (Blp::from_bytes(&copy), Blp::view(&copy)) {
                    (Ok(owned), Ok(view)) => {
                        assert_eq!(
                            view.levels().collect::<Vec<_>>(),
                            owned.levels,
                            "{name} @{at}"
                        )
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "{name} @{at}");
                        compared += 1;
                    }
                    (a, b) => panic!("{name} @{at}: owned {:?}, view {:?}", a.err(), b.err()),
                }
            }
        }
    }
    eprintln!("{compared} damaged textures gave the same error through the view");
}
