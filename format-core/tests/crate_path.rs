//! `#[format(crate = "...")]`: generated code names the runtime by the path
//! given. The runtime here is a module of this crate that re-exports
//! `format_core` with two helpers of generated code replaced by counting
//! ones, so a derive that ignored the attribute (and named `::format_core`,
//! which resolves here too) would leave the counts at zero.

use format_core::{Context, decode, encode};

mod my_rt {
    pub use format_core::*;

    /// `format_core::__private`, with `decode_vec` and `encode_prefixed`
    /// counted (a local item shadows the glob's).
    pub mod __private {
        pub use format_core::__private::*;

        use format_core::{Decode, Encode, Reader, Result, Writer};
        use std::cell::Cell;

        thread_local! {
            /// `(decode_vec, encode_prefixed)` calls on this thread.
            pub static CALLS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
        }

        pub fn decode_vec<T: Decode>(
            r: &mut Reader<'_>,
            count: u64,
            args: T::Args,
        ) -> Result<Vec<T>> {
            CALLS.with(|c| c.set((c.get().0 + 1, c.get().1)));
            format_core::__private::decode_vec(r, count, args)
        }

        pub fn encode_prefixed<C: CountPrefix, T: Encode>(
            w: &mut Writer,
            items: &[T],
            args: T::Args,
            field: &'static str,
        ) -> Result<()> {
            CALLS.with(|c| c.set((c.get().0, c.get().1 + 1)));
            format_core::__private::encode_prefixed::<C, T>(w, items, args, field)
        }
    }
}

fn calls() -> (usize, usize) {
    my_rt::__private::CALLS.with(std::cell::Cell::get)
}

#[derive(format_core::Codec, Debug, PartialEq)]
#[format(crate = "my_rt", chunk = "LIST")]
struct List {
    #[format(count = u32)]
    values: Vec<u16>,
}

mod nested {
    /// An absolute path to the same runtime, from another module.
    #[derive(format_core::Codec, Debug, PartialEq)]
    #[format(crate = "crate::my_rt")]
    pub struct Lists {
        #[format(count = u8)]
        pub lists: Vec<super::List>,
    }
}

#[test]
fn the_runtime_is_named_by_the_crate_attribute() {
    let value = List {
        values: vec![1, 0x0302],
    };
    let bytes = encode(&value, Context::new()).unwrap();
    assert_eq!(
        bytes,
        [b'L', b'I', b'S', b'T', 8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 2, 3]
    );
    assert_eq!(calls(), (0, 1), "written through my_rt");
    assert_eq!(decode::<List>(&bytes, Context::new()).unwrap(), value);
    assert_eq!(calls(), (1, 1), "read through my_rt");
}

#[test]
fn a_path_from_the_crate_root_names_it_from_any_module() {
    let value = nested::Lists {
        lists: vec![List { values: vec![7] }, List { values: vec![] }],
    };
    let bytes = encode(&value, Context::new()).unwrap();
    // One prefixed list per `List` and one for `Lists` itself.
    assert_eq!(calls(), (0, 3));
    assert_eq!(bytes.len(), 1 + (8 + 4 + 2) + (8 + 4));
    assert_eq!(
        decode::<nested::Lists>(&bytes, Context::new()).unwrap(),
        value
    );
    assert_eq!(calls(), (3, 3));
}
