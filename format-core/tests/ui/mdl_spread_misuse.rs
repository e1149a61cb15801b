use format_core::Mdl;

#[derive(Default, Clone, Copy)]
struct Tint {
    color: [f32; 3],
    opacity: f32,
}

#[derive(Mdl)]
#[mdl(block = "Glow")]
struct Glow {
    #[mdl(spread(color = "TintColor"))]
    bare: Tint,
    #[mdl(spread())]
    empty: Option<Tint>,
    #[mdl(spread(color = "Color", color = "Colour"))]
    twice: Option<Tint>,
    #[mdl(spread(color = 3))]
    number: Option<Tint>,
    #[mdl(spread(opacity = "Opacity"), rgb)]
    coloured: Option<Tint>,
    #[mdl(spread(opacity = "Alpha"), default_from = 1000)]
    no_since: Option<Tint>,
    #[mdl(until = 1100)]
    no_until: u32,
    #[mdl(key = "Alpha")]
    alpha: f32,
}

fn main() {}
