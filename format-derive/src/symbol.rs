//! Every `#[format(...)]` key, declared once: its name, where it may appear
//! and in which direction it acts. Parsing matches against these constants,
//! and "unknown attribute" errors list the keys of the place they were found.

/// Where a key may appear.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// On the struct or enum.
    Container,
    /// On a struct field.
    Field,
    /// On an enum variant.
    Variant,
}

/// Which of the generated directions a key changes (as binrw's `br`/`bw`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Both,
    Read,
    Write,
}

/// One attribute key.
pub struct Key {
    pub name: &'static str,
    pub scopes: &'static [Scope],
    /// Documented in the crate docs; kept here so each key states it once.
    #[allow(dead_code)]
    pub direction: Direction,
}

macro_rules! keys {
    ($($konst:ident = $name:literal, [$($scope:ident),*], $dir:ident;)*) => {
        $(pub const $konst: &str = $name;)*
        pub const KEYS: &[Key] = &[
            $(Key { name: $name, scopes: &[$(Scope::$scope),*], direction: Direction::$dir },)*
        ];
    };
}

keys! {
    MAGIC = "magic", [Container], Both;
    CHUNK = "chunk", [Container, Variant], Both;
    INCLUSIVE_SIZE = "inclusive_size", [Container], Both;
    PLAIN = "plain", [Container], Both;
    REGION = "region", [Container], Both;
    ARGS = "args", [Container, Field, Variant], Both;
    BOUND = "bound", [Container], Both;
    REPR = "repr", [Container], Both;
    CRATE = "crate", [Container], Both;
    RECORD = "record", [Container], Both;
    CHUNK_LIST = "chunk_list", [Container], Both;
    TAG = "tag", [Field, Variant], Both;
    COUNT = "count", [Field], Both;
    UNTIL_END = "until_end", [Field], Both;
    TAGGED = "tagged", [Field], Both;
    IF = "if", [Field, Variant], Both;
    READ_IF = "read_if", [Field], Read;
    OPTIONAL = "optional", [Field], Both;
    CALC = "calc", [Field], Write;
    READ_CALC = "read_calc", [Field], Read;
    READ_WITH = "read_with", [Field], Read;
    WRITE_WITH = "write_with", [Field], Write;
    WRITE_ASSERT = "write_assert", [Field], Write;
    OFFSET = "offset", [Field], Both;
    SIZE = "size", [Field], Both;
    PLACED = "placed", [Field], Both;
    KEPT = "kept", [Field], Both;
    SKIP = "skip", [Field], Both;
    SETS_VERSION = "sets_version", [Field], Both;
    SPLIT = "split", [Field], Both;
    CLAMP = "clamp", [Field], Read;
    UNKNOWN = "unknown", [Variant], Read;
    NOT_READ = "not_read", [Variant], Read;
    WHEN = "when", [Variant], Both;
    READ_WHEN = "read_when", [Variant], Read;
    CUT = "cut", [Variant], Read;
    UNDECODED = "undecoded", [Variant], Read;
    AFTER_CHUNK = "after_chunk", [Variant], Both;
}

/// Inside `offset(...)` and `size(...)`.
pub const OF: &str = "of";
pub const FROM: &str = "from";
pub const BODY: &str = "body";

/// The list `parent["TAG"]` offsets name: the enclosing list.
pub const PARENT: &str = "parent";

/// Names generated code provides to expressions.
pub const INDEX: &str = "index";

/// The keys valid in `scope`, for error messages.
pub fn valid_keys(scope: Scope) -> String {
    KEYS.iter()
        .filter(|k| k.scopes.contains(&scope))
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}
