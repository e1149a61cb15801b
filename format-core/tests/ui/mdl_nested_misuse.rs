use format_core::Mdl;

#[derive(Mdl, Default)]
#[mdl(block = "EventTrack")]
struct EventTrack {
    #[mdl(key = "GlobalSeqId", unless = -1, default = 0)]
    global_sequence_id: i32,
    #[mdl(values = "events")]
    frames: Vec<u32>,
}

#[derive(Mdl)]
#[mdl(block = "EventObject")]
struct EventObject {
    // A nested block is read by its own keyword.
    #[mdl(nested, key = "Track")]
    track: Option<EventTrack>,
    // The word for `None` is for an `Option`.
    #[mdl(absent = "ExtNoCount")]
    count: u32,
    #[mdl(list, unless = 0)]
    frames: Vec<u32>,
}

fn main() {}
