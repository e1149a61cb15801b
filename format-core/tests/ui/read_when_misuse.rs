use format_core::Codec;

#[derive(Codec)]
enum Both {
    #[format(when = true, read_when = reader.remaining() > 2)]
    Long(u32),
    #[format(read_when = true)]
    Short(u16),
}

#[derive(Codec)]
#[repr(u32)]
enum Values {
    #[format(read_when = true)]
    One = 1,
}

fn main() {}
